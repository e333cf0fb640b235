/// One row of a symbol as a bit set (bit i is module i): the SVG renderer finds runs of dark modules
/// 64 at a time instead of testing each module.
struct QRLine192: Sendable, Hashable {
    var w0: UInt64, w1: UInt64, w2: UInt64

    /// Most modules a line holds; the largest symbol is 177 wide.
    static let capacity = 192

    init(w0: UInt64, w1: UInt64, w2: UInt64) { (self.w0, self.w1, self.w2) = (w0, w1, w2) }

    /// The 64 bits holding modules 64 × index ..< 64 × (index + 1).
    func word(_ index: Int) -> UInt64 {
        switch index {
        case 0: w0
        case 1: w1
        default: w2
        }
    }

    /// Whether bit `index` is set.
    func contains(_ index: Int) -> Bool { (word(index >> 6) &>> UInt64(index & 63)) & 1 != 0 }

    /// Number of bits set.
    var count: Int { w0.nonzeroBitCount + w1.nonzeroBitCount + w2.nonzeroBitCount }

    /// Bit i − k moved to i, for 0 < k < 64; bits before the start read as `fill`.
    func up(_ k: UInt64, fill: UInt64) -> QRLine192 {
        let back = 64 - k
        return QRLine192(w0: w0 &<< k | fill &>> back, w1: w1 &<< k | w0 &>> back, w2: w2 &<< k | w1 &>> back)
    }

    /// Bitwise AND.
    static func & (a: QRLine192, b: QRLine192) -> QRLine192 {
        QRLine192(w0: a.w0 & b.w0, w1: a.w1 & b.w1, w2: a.w2 & b.w2)
    }

    /// Bitwise NOT.
    static prefix func ~ (a: QRLine192) -> QRLine192 { QRLine192(w0: ~a.w0, w1: ~a.w1, w2: ~a.w2) }

    /// Index of the first set bit at or after `index`, or `capacity` if there is none.
    @inline(__always) func firstSet(from index: Int) -> Int {
        var wordIndex = index >> 6
        guard wordIndex < 3 else { return Self.capacity }
        var word = self.word(wordIndex) & (~0 &<< UInt64(index & 63))
        while word == 0 {
            wordIndex += 1
            if wordIndex == 3 { return Self.capacity }
            word = self.word(wordIndex)
        }
        return wordIndex << 6 + word.trailingZeroBitCount
    }
}
