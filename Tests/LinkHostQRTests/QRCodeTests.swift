import Testing
@testable import LinkHostQR

/// The symbols libqrencode makes, read back against published ISO/IEC 18004 values (independently of
/// the encoder), plus the public API's limits. That they scan is QRCodeDecodeTests' part.
@Suite("QRCode encoding")
struct QRCodeTests {
    // MARK: Format and version information

    /// ISO/IEC 18004 Table C.1, by level (L, M, Q, H) and mask; M with mask 5 is the standard's worked example.
    static let formatTable: [[Int]] = [
        [0b111011111000100, 0b111001011110011, 0b111110110101010, 0b111100010011101,
         0b110011000101111, 0b110001100011000, 0b110110001000001, 0b110100101110110],
        [0b101010000010010, 0b101000100100101, 0b101111001111100, 0b101101101001011,
         0b100010111111001, 0b100000011001110, 0b100111110010111, 0b100101010100000],
        [0b011010101011111, 0b011000001101000, 0b011111100110001, 0b011101000000110,
         0b010010010110100, 0b010000110000011, 0b010111011011010, 0b010101111101101],
        [0b001011010001001, 0b001001110111110, 0b001110011100111, 0b001100111010000,
         0b000011101100010, 0b000001001010101, 0b000110100001100, 0b000100000111011],
    ]

    /// Reads the 15 format bits of both copies, most significant first, in the order of the
    /// standard's figure (independent of the encoder's own position table).
    static func readFormat(_ code: QRCode) -> (first: Int, second: Int) {
        let n = code.size
        let first = [(0, 8), (1, 8), (2, 8), (3, 8), (4, 8), (5, 8), (7, 8), (8, 8),
                     (8, 7), (8, 5), (8, 4), (8, 3), (8, 2), (8, 1), (8, 0)]
        let second = (0..<7).map { (8, n - 1 - $0) } + (0..<8).map { (n - 8 + $0, 8) }
        func read(_ cells: [(Int, Int)]) -> Int {
            cells.reduce(0) { $0 << 1 | (code.isDark(x: $1.0, y: $1.1) ? 1 : 0) }
        }
        return (read(first), read(second))
    }

    @Test("both format copies in the symbol carry the requested level and the mask the symbol reports",
          arguments: QRCode.ErrorCorrection.allCases)
    func formatInSymbol(level: QRCode.ErrorCorrection) throws {
        var masks = Set<Int>()
        for index in 0..<40 {
            let code = try QRCode(text: "https://links.example.com/call/format\(index)?type=video", errorCorrection: level)
            let (first, second) = Self.readFormat(code)
            #expect((0..<8).contains(code.mask))
            #expect(first == Self.formatTable[QRCode.ErrorCorrection.allCases.firstIndex(of: level)!][code.mask], "payload \(index)")
            #expect(second == first)
            #expect(code.isDark(x: 8, y: code.size - 8), "the always-dark module")
            masks.insert(code.mask)
        }
        // The mask is chosen per payload by its penalty score, so forty payloads use more than one.
        #expect(masks.count >= 2, "masks used: \(masks)")
    }

    /// Version information (Table D.1) for the versions `versionInSymbol` reads.
    static let versionTable = [7: 0b000111_110010010100, 12: 0b001100_011101100010, 25: 0b011001_000111100001, 40: 0b101000_110001101001]

    @Test("both version blocks in the symbol carry the version", arguments: [7, 12, 25, 40])
    func versionInSymbol(version: Int) throws {
        let code = try QRCode(text: "v", errorCorrection: .low, minimumVersion: version)
        let n = code.size
        var topRight = 0, bottomLeft = 0
        for along in (0...5).reversed() {
            for across in (n - 11...n - 9).reversed() {
                topRight = topRight << 1 | (code.isDark(x: across, y: along) ? 1 : 0)
                bottomLeft = bottomLeft << 1 | (code.isDark(x: along, y: across) ? 1 : 0)
            }
        }
        #expect(code.version == version)
        #expect(topRight == Self.versionTable[version])
        #expect(bottomLeft == Self.versionTable[version])
    }

    // MARK: Layout

    @Test("finder patterns, separators and timing patterns are where the standard puts them")
    func functionPatterns() throws {
        let code = try QRCode(text: "https://links.example.com/call/abc")
        let n = code.size
        for (left, top) in [(0, 0), (n - 7, 0), (0, n - 7)] {
            for dy in -1...7 {
                for dx in -1...7 {
                    let ring = max(abs(dx - 3), abs(dy - 3))
                    let x = left + dx, y = top + dy
                    guard (0..<n).contains(x), (0..<n).contains(y) else { continue }
                    #expect(code.isDark(x: x, y: y) == (ring != 2 && ring != 4), "(\(x), \(y))")
                }
            }
        }
        for index in 8..<(n - 8) {
            #expect(code.isDark(x: index, y: 6) == index.isMultiple(of: 2))
            #expect(code.isDark(x: 6, y: index) == index.isMultiple(of: 2))
        }
        #expect(!code.isDark(x: -1, y: 0) && !code.isDark(x: 0, y: n) && !code.isDark(x: n, y: 3))
    }

    // MARK: Capacity and version choice

    @Test("byte capacities match ISO/IEC 18004 Table 7")
    func capacities() {
        let published: [Int: [Int]] = [
            1: [17, 14, 11, 7], 2: [32, 26, 20, 14], 3: [53, 42, 32, 24], 4: [78, 62, 46, 34],
            5: [106, 84, 60, 44], 6: [134, 106, 74, 58], 7: [154, 122, 86, 64], 8: [192, 152, 108, 84],
            9: [230, 180, 130, 98], 10: [271, 213, 151, 119], 20: [858, 666, 482, 382],
            40: [2953, 2331, 1663, 1273],
        ]
        for (version, row) in published {
            let ours = QRCode.ErrorCorrection.allCases.map { QRCode.byteCapacity(version: version, errorCorrection: $0) }
            #expect(ours == row, "version \(version)")
        }
        #expect(QRCode.byteCapacity(version: 0, errorCorrection: .low) == 0)
        #expect(QRCode.byteCapacity(version: 41, errorCorrection: .low) == 0)
    }

    @Test("the smallest version that holds the payload is chosen", arguments: QRCode.ErrorCorrection.allCases)
    func versionChoice(level: QRCode.ErrorCorrection) throws {
        for version in [1, 2, 9, 10, 26, 39] {
            let capacity = QRCode.byteCapacity(version: version, errorCorrection: level)
            let full = [UInt8](repeating: 0x61, count: capacity)
            #expect(try QRCode(bytes: full, errorCorrection: level).version == version)
            #expect(try QRCode(bytes: full + [0x61], errorCorrection: level).version == version + 1)
        }
        #expect(throws: QRCode.EncodingError.emptyPayload) { try QRCode(bytes: [], errorCorrection: level) }
        #expect(try QRCode(text: "hi", errorCorrection: level, minimumVersion: 5).version == 5)
    }

    @Test("payloads beyond version 40 throw instead of trapping")
    func tooLong() throws {
        let limits: [(QRCode.ErrorCorrection, Int)] = [(.low, 2953), (.medium, 2331), (.quartile, 1663), (.high, 1273)]
        for (level, limit) in limits {
            #expect(throws: QRCode.EncodingError.dataTooLong(byteCount: limit + 1, capacity: limit)) {
                try QRCode(bytes: [UInt8](repeating: 0x30, count: limit + 1), errorCorrection: level)
            }
            #expect(try QRCode(bytes: [UInt8](repeating: 0x30, count: limit), errorCorrection: level).version == 40)
        }
        #expect(throws: QRCode.EncodingError.dataTooLong(byteCount: 100_000, capacity: 2331)) {
            try QRCode(text: String(repeating: "é", count: 50_000))
        }
        #expect(throws: QRCode.EncodingError.invalidVersion(0)) { try QRCode(text: "x", minimumVersion: 0) }
        #expect(throws: QRCode.EncodingError.invalidVersion(41)) { try QRCode(text: "x", minimumVersion: 41) }
    }

    @Test("encoding is deterministic")
    func deterministic() throws {
        let text = "https://links.example.com/call/abc_DEF-123?type=default"
        #expect(try QRCode(text: text) == QRCode(text: text))
        #expect(try QRCode(text: text) == QRCode(bytes: Array(text.utf8)))
    }
}
