/// A small seeded generator (SplitMix64), so a failing randomized test can be repeated from its seed; shared
/// by the randomized tests of every test target.
public struct SplitMix: RandomNumberGenerator {
    /// The generator's whole state; the seed to begin with.
    public var state: UInt64

    /// A generator starting from `state`.
    public init(state: UInt64) { self.state = state }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
