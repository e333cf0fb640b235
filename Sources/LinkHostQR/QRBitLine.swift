/// One row or column of a symbol as a bit set (bit i is module i), so that masking and the penalty
/// rules handle 64 modules per instruction instead of branching per module.
///
/// Shifts take a `fill` for the bits that enter from outside the line: bits past a symbol's edge
/// are clear in a dark line and set in a light one, exactly as the quiet zone around it.
protocol QRBitLine: Equatable, Sendable {
    /// No bits set.
    static var empty: Self { get }
    /// Most modules a line holds.
    static var capacity: Int { get }
    /// The first `capacity` bits of a wide line.
    init(truncating wide: QRLine192)
    /// The same bits as a wide line.
    var wide: QRLine192 { get }
    /// Bit `index` as 0 or 1.
    func bit(_ index: Int) -> UInt64
    /// Sets bit `index`.
    mutating func set(_ index: Int)
    /// ORs `bit` (0 or 1) into bit `index`; branch-free, for data bits that are random by design.
    mutating func merge(_ bit: UInt64, at index: Int)
    /// Number of bits set.
    var count: Int { get }
    /// Bit i + k moved to i, for 0 < k < 64; bits past the end read as `fill`.
    func down(_ k: UInt64, fill: UInt64) -> Self
    /// Bit i − k moved to i, for 0 < k < 64; bits before the start read as `fill`.
    func up(_ k: UInt64, fill: UInt64) -> Self
    /// Bitwise AND.
    static func & (a: Self, b: Self) -> Self
    /// Bitwise OR.
    static func | (a: Self, b: Self) -> Self
    /// Bitwise XOR.
    static func ^ (a: Self, b: Self) -> Self
    /// Bitwise NOT.
    static prefix func ~ (a: Self) -> Self
    /// A matrix of `version` with its function patterns drawn and no data yet.
    static func template(version: Int) -> QRMatrix<Self>
}

extension QRBitLine {
    /// Whether bit `index` is set.
    func contains(_ index: Int) -> Bool { bit(index) != 0 }

    /// Bits 0..<count set.
    static func prefix(_ count: Int) -> Self {
        var line = empty
        for index in 0..<count { line.set(index) }
        return line
    }
}

/// A line of up to 64 modules: versions 1–11, which covers call links up to ~250 bytes at level M.
struct QRLine64: QRBitLine {
    var bits: UInt64

    static let empty = QRLine64(bits: 0)
    static let capacity = 64
    init(bits: UInt64) { self.bits = bits }
    init(truncating wide: QRLine192) { bits = wide.w0 }
    var wide: QRLine192 { QRLine192(w0: bits, w1: 0, w2: 0) }
    func bit(_ index: Int) -> UInt64 { (bits &>> UInt64(index)) & 1 }
    mutating func set(_ index: Int) { bits |= 1 &<< UInt64(index) }
    mutating func merge(_ bit: UInt64, at index: Int) { bits |= bit &<< UInt64(index) }
    var count: Int { bits.nonzeroBitCount }
    func down(_ k: UInt64, fill: UInt64) -> QRLine64 { QRLine64(bits: bits &>> k | fill &<< (64 - k)) }
    func up(_ k: UInt64, fill: UInt64) -> QRLine64 { QRLine64(bits: bits &<< k | fill &>> (64 - k)) }
    static func & (a: QRLine64, b: QRLine64) -> QRLine64 { QRLine64(bits: a.bits & b.bits) }
    static func | (a: QRLine64, b: QRLine64) -> QRLine64 { QRLine64(bits: a.bits | b.bits) }
    static func ^ (a: QRLine64, b: QRLine64) -> QRLine64 { QRLine64(bits: a.bits ^ b.bits) }
    static prefix func ~ (a: QRLine64) -> QRLine64 { QRLine64(bits: ~a.bits) }

    /// Every small version's function patterns, drawn once: these are the versions call links use,
    /// and the whole set is about 20 KB.
    private static let templates: [QRMatrix<QRLine64>] = (0...11).map { QRMatrix(version: max($0, 1)) }

    static func template(version: Int) -> QRMatrix<QRLine64> { templates[version] }
}

/// A line of up to 192 modules: any version (the largest symbol is 177 wide).
struct QRLine192: QRBitLine, Hashable {
    var w0: UInt64, w1: UInt64, w2: UInt64

    static let empty = QRLine192(w0: 0, w1: 0, w2: 0)
    static let capacity = 192
    init(w0: UInt64, w1: UInt64, w2: UInt64) { (self.w0, self.w1, self.w2) = (w0, w1, w2) }
    init(truncating wide: QRLine192) { self = wide }
    var wide: QRLine192 { self }

    /// The 64 bits holding modules 64 × index ..< 64 × (index + 1).
    func word(_ index: Int) -> UInt64 {
        switch index {
        case 0: w0
        case 1: w1
        default: w2
        }
    }

    func bit(_ index: Int) -> UInt64 { (word(index >> 6) &>> UInt64(index)) & 1 }

    mutating func set(_ index: Int) { merge(1, at: index) }

    mutating func merge(_ bit: UInt64, at index: Int) {
        let shifted = bit &<< UInt64(index)
        switch index >> 6 {
        case 0: w0 |= shifted
        case 1: w1 |= shifted
        default: w2 |= shifted
        }
    }

    var count: Int { w0.nonzeroBitCount + w1.nonzeroBitCount + w2.nonzeroBitCount }

    func down(_ k: UInt64, fill: UInt64) -> QRLine192 {
        let back = 64 - k
        return QRLine192(w0: w0 &>> k | w1 &<< back, w1: w1 &>> k | w2 &<< back, w2: w2 &>> k | fill &<< back)
    }

    func up(_ k: UInt64, fill: UInt64) -> QRLine192 {
        let back = 64 - k
        return QRLine192(w0: w0 &<< k | fill &>> back, w1: w1 &<< k | w0 &>> back, w2: w2 &<< k | w1 &>> back)
    }

    static func & (a: QRLine192, b: QRLine192) -> QRLine192 {
        QRLine192(w0: a.w0 & b.w0, w1: a.w1 & b.w1, w2: a.w2 & b.w2)
    }

    static func | (a: QRLine192, b: QRLine192) -> QRLine192 {
        QRLine192(w0: a.w0 | b.w0, w1: a.w1 | b.w1, w2: a.w2 | b.w2)
    }

    static func ^ (a: QRLine192, b: QRLine192) -> QRLine192 {
        QRLine192(w0: a.w0 ^ b.w0, w1: a.w1 ^ b.w1, w2: a.w2 ^ b.w2)
    }

    static prefix func ~ (a: QRLine192) -> QRLine192 { QRLine192(w0: ~a.w0, w1: ~a.w1, w2: ~a.w2) }

    /// Drawn per symbol: large versions are rare for call links and would cost ~380 KB to keep.
    static func template(version: Int) -> QRMatrix<QRLine192> { QRMatrix(version: version) }

    /// Index of the first set bit at or after `index`, or `capacity` if there is none.
    @inline(__always) func firstSet(from index: Int) -> Int {
        var wordIndex = index >> 6
        guard wordIndex < 3 else { return Self.capacity }
        var word = self.word(wordIndex) & (~0 &<< UInt64(index))
        while word == 0 {
            wordIndex += 1
            if wordIndex == 3 { return Self.capacity }
            word = self.word(wordIndex)
        }
        return wordIndex << 6 + word.trailingZeroBitCount
    }
}
