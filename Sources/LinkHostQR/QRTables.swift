/// ISO/IEC 18004 constants per version and error-correction level, and the capacities derived from them.
///
/// The block structure and alignment positions are irregular in the standard (Tables 9 and E.1), so
/// they are data here rather than formulas; everything else is derived once at first use.
enum QRTables {
    /// Smallest and largest symbol versions.
    static let versions = 1...40

    /// Error-correction codewords in each block, per level (L, M, Q, H) then version; index 0 is unused.
    static let ecCodewordsPerBlock: [[UInt8]] = [
        [0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
         28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
         26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
        [0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
         28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
         30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
    ]

    /// Number of error-correction blocks, per level (L, M, Q, H) then version; index 0 is unused.
    static let blockCount: [[UInt8]] = [
        [0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
         8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
        [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
         17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
        [0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
         23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
        [0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
         25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
    ]

    /// All codewords (data plus error correction) a symbol holds, per version; index 0 is unused.
    static let totalCodewords: [Int] = [
        0, 26, 44, 70, 100, 134, 172, 196, 242, 292, 346, 404, 466, 532, 581, 655, 733, 815, 901, 991, 1085,
        1156, 1258, 1364, 1474, 1588, 1706, 1828, 1921, 2051, 2185, 2323, 2465, 2611, 2761, 2876, 3034,
        3196, 3362, 3532, 3706,
    ]

    /// Row/column coordinates of alignment-pattern centres, per version (Table E.1); index 0 is unused.
    static let alignmentCenters: [[Int]] = [
        [], [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34],
        [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50], [6, 30, 54], [6, 32, 58], [6, 34, 62],
        [6, 26, 46, 66], [6, 26, 48, 70], [6, 26, 50, 74], [6, 30, 54, 78], [6, 30, 56, 82],
        [6, 30, 58, 86], [6, 34, 62, 90],
        [6, 28, 50, 72, 94], [6, 26, 50, 74, 98], [6, 30, 54, 78, 102], [6, 28, 54, 80, 106],
        [6, 32, 58, 84, 110], [6, 30, 58, 86, 114], [6, 34, 62, 90, 118],
        [6, 26, 50, 74, 98, 122], [6, 30, 54, 78, 102, 126], [6, 26, 52, 78, 104, 130],
        [6, 30, 56, 82, 108, 134], [6, 34, 60, 86, 112, 138], [6, 30, 58, 86, 114, 142],
        [6, 34, 62, 90, 118, 146],
        [6, 30, 54, 78, 102, 126, 150], [6, 24, 50, 76, 102, 128, 154], [6, 28, 54, 80, 106, 132, 158],
        [6, 32, 58, 84, 110, 136, 162], [6, 26, 54, 82, 110, 138, 166], [6, 30, 58, 86, 114, 142, 170],
    ]

    /// Symbol width in modules.
    static func size(version: Int) -> Int { 17 + 4 * version }

    /// Bits of the byte-mode character count; the field widens at version 10 (Table 3).
    static func characterCountBits(version: Int) -> Int { version <= 9 ? 8 : 16 }

    /// Data codewords (before error correction) for a version and level.
    static func dataCodewords(version: Int, level: QRCode.ErrorCorrection) -> Int {
        let row = level.tableRow
        return totalCodewords[version] - Int(ecCodewordsPerBlock[row][version]) * Int(blockCount[row][version])
    }

    /// Byte-mode payload capacity, per level row then version; computed once so version choice is a scan.
    /// (`allCases` is declared in table order, L to H, as are the two tables below.)
    static let byteCapacities: [[Int]] = QRCode.ErrorCorrection.allCases.map { level in
        [0] + versions.map { version in
            let headerBits = 4 + characterCountBits(version: version)
            return (dataCodewords(version: version, level: level) * 8 - headerBits) / 8
        }
    }

    /// Format information (level and mask, BCH(15,5) protected and XOR-masked), per level row then mask.
    static let formatBits: [[Int]] = QRCode.ErrorCorrection.allCases.map { level in
        (0..<8).map { mask in formatInformation(levelBits: level.formatBits, mask: mask) }
    }

    /// Version information (BCH(18,6) protected), per version; 0 below version 7, which has none.
    static let versionBits: [Int] = (0...40).map { $0 < 7 ? 0 : versionInformation(version: $0) }

    /// The 15 format bits: 5 data bits, 10 BCH bits from generator 0x537, masked so they are never all zero.
    static func formatInformation(levelBits: Int, mask: Int) -> Int {
        let data = levelBits << 3 | mask
        return (data << 10 | bchRemainder(data << 10, generator: 0x537, degree: 10)) ^ 0x5412
    }

    /// Where format bit `bit` (0 = least significant) goes in each of its two copies.
    ///
    /// Copy one wraps the top-left finder; copy two is split between the top-right (bits 0–7) and
    /// bottom-left (bits 8–14) finders, so either copy can be read if the other is damaged.
    static func formatPositions(bit: Int, size: Int) -> (first: (x: Int, y: Int), second: (x: Int, y: Int)) {
        let first: (x: Int, y: Int)
        switch bit {
        case 0...5: first = (8, bit)
        case 6: first = (8, 7)  // skips the timing row
        case 7: first = (8, 8)
        case 8: first = (7, 8)  // skips the timing column
        default: first = (14 - bit, 8)
        }
        let second: (x: Int, y: Int) = bit < 8 ? (size - 1 - bit, 8) : (8, size - 15 + bit)
        return (first, second)
    }

    /// The 18 version bits: 6 data bits followed by 12 BCH bits from generator 0x1F25.
    static func versionInformation(version: Int) -> Int {
        version << 12 | bchRemainder(version << 12, generator: 0x1F25, degree: 12)
    }

    /// Remainder of a polynomial over GF(2) divided by `generator` (whose top bit is x^degree).
    private static func bchRemainder(_ value: Int, generator: Int, degree: Int) -> Int {
        var remainder = value
        var bit = Int.bitWidth - 1 - remainder.leadingZeroBitCount
        while bit >= degree {
            if (remainder >> bit) & 1 == 1 { remainder ^= generator << (bit - degree) }
            bit -= 1
        }
        return remainder
    }
}

extension QRCode.ErrorCorrection {
    /// Row in the per-level tables, in the standard's L, M, Q, H order.
    var tableRow: Int {
        switch self {
        case .low: 0
        case .medium: 1
        case .quartile: 2
        case .high: 3
        }
    }

    /// The two-bit indicator in format information; the standard's values are not in L–H order.
    var formatBits: Int {
        switch self {
        case .low: 0b01
        case .medium: 0b00
        case .quartile: 0b11
        case .high: 0b10
        }
    }
}
