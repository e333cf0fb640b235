import Testing
@testable import LinkHostQR

/// Encoder internals against published ISO/IEC 18004 values, plus the public API's limits.
@Suite("QRCode encoding")
struct QRCodeTests {
    // MARK: Reed–Solomon

    @Test("GF(256) log and antilog tables are inverse, with α⁸ = 0x1D")
    func galoisField() {
        #expect(QRReedSolomon.antilog[8] == 0x1D)
        for value in 1...255 {
            #expect(QRReedSolomon.antilog[Int(QRReedSolomon.log[value])] == UInt8(value))
        }
    }

    @Test("generator polynomials match ISO/IEC 18004 Annex A")
    func generators() {
        #expect(QRReedSolomon.generatorLogs[7] == [87, 229, 146, 149, 238, 102, 21])
        #expect(QRReedSolomon.generatorLogs[10] == [251, 67, 46, 61, 118, 70, 64, 94, 32, 45])
        // Every root α⁰…α^(n−1) makes each generator vanish; a zero coefficient stored as a
        // logarithm would break this.
        for degree in 1...30 {
            let coefficients = [UInt8(1)] + QRReedSolomon.generatorLogs[degree].map { QRReedSolomon.antilog[Int($0)] }
            for root in 0..<degree {
                let x = QRReedSolomon.antilog[root]
                let value = coefficients.reduce(UInt8(0)) { QRReedSolomon.multiply($0, x) ^ $1 }
                #expect(value == 0, "degree \(degree) root α^\(root)")
            }
        }
    }

    @Test("error-correction codewords of the ISO/IEC 18004 Annex I example (\"01234567\", 1-M)")
    func isoExample() {
        let data: [UInt8] = [
            0b0001_0000, 0b0010_0000, 0b0000_1100, 0b0101_0110, 0b0110_0001, 0b1000_0000, 0b1110_1100, 0b0001_0001,
            0b1110_1100, 0b0001_0001, 0b1110_1100, 0b0001_0001, 0b1110_1100, 0b0001_0001, 0b1110_1100, 0b0001_0001,
        ]
        let expected: [UInt8] = [
            0b1010_0101, 0b0010_0100, 0b1101_0100, 0b1100_0001, 0b1110_1101,
            0b0011_0110, 0b1100_0111, 0b1000_0111, 0b0010_1100, 0b0101_0101,
        ]
        var ec = [UInt8](repeating: 0xFF, count: 10)
        QRReedSolomon.encode(data, range: 0..<16, degree: 10, into: &ec, at: 0)
        #expect(ec == expected)
        // The whole 1-M symbol is one block: data followed by these codewords.
        #expect(QRCodewords.interleaved(data, version: 1, level: .medium) == data + expected)
    }

    // MARK: Data codewords

    @Test("byte-mode bit stream: mode, 8-bit count, data, terminator, pad codewords")
    func byteModeStream() {
        // 0100 | 00000101 | "hello" | 0000, then 0xEC 0x11 … up to the 16 data codewords of 1-M.
        let expected: [UInt8] = [0x40, 0x56, 0x86, 0x56, 0xC6, 0xC6, 0xF0, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC]
        #expect(QRCodewords.dataCodewords(Array("hello".utf8), version: 1, level: .medium) == expected)
    }

    @Test("the count field widens to 16 bits from version 10")
    func sixteenBitCount() {
        let bytes = [UInt8](repeating: 0xAB, count: 300)  // 300 = 0x012C
        let codewords = QRCodewords.dataCodewords(bytes, version: 12, level: .low)
        #expect(Array(codewords.prefix(4)) == [0x40, 0x12, 0xCA, 0xBA])
        #expect(codewords.count == QRTables.dataCodewords(version: 12, level: .low))
    }

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

    @Test("format information bits for every level and mask")
    func formatBits() {
        #expect(QRTables.formatBits == Self.formatTable)
    }

    @Test("version information bits (ISO/IEC 18004 Table D.1)")
    func versionBits() {
        #expect(QRTables.versionBits[7] == 0b000111_110010010100)
        #expect(QRTables.versionBits[8] == 0b001000_010110111100)
        #expect(QRTables.versionBits[21] == 0b010101_011010000011)
        #expect(QRTables.versionBits[40] == 0b101000_110001101001)
        #expect(QRTables.versionBits[6] == 0)
    }

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

    @Test("both format copies in the symbol carry the level and the chosen mask",
          arguments: QRCode.ErrorCorrection.allCases)
    func formatInSymbol(level: QRCode.ErrorCorrection) throws {
        for mask in 0..<8 {
            let code = try QRCode(bytes: Array("format".utf8), errorCorrection: level, minimumVersion: 1, forcedMask: mask)
            let expected = Self.formatTable[level.tableRow][mask]
            let (first, second) = Self.readFormat(code)
            #expect(first == expected)
            #expect(second == expected)
            #expect(code.isDark(x: 8, y: code.size - 8), "the always-dark module")
        }
    }

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
        #expect(topRight == QRTables.versionBits[version])
        #expect(bottomLeft == QRTables.versionBits[version])
    }

    // MARK: Tables and layout

    @Test("alignment centres start at 6, end 7 from the edge and are evenly spaced after the first")
    func alignmentTable() {
        for version in 2...40 {
            let centers = QRTables.alignmentCenters[version]
            #expect(centers.count == version / 7 + 2)
            #expect(centers.first == 6)
            #expect(centers.last == QRTables.size(version: version) - 7)
            let steps = Set(zip(centers.dropFirst(), centers.dropFirst(2)).map { $1 - $0 })
            #expect(steps.count <= 1, "version \(version)")
        }
    }

    /// Remainder bits per version (ISO/IEC 18004 Table 1): data modules beyond the last codeword.
    static let remainderBits = [0, 0, 7, 7, 7, 7, 7, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3, 3,
                                4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0]

    @Test("function patterns leave exactly the codeword modules plus remainder bits", arguments: Array(1...40))
    func dataModuleCount(version: Int) {
        let matrix = QRMatrix<QRLine192>(version: version)
        let size = matrix.size
        let functionCount = matrix.functionRows.reduce(0) { $0 + $1.count }
        #expect(size * size - functionCount == QRTables.totalCodewords[version] * 8 + Self.remainderBits[version])
        // Rows and columns describe the same modules.
        for y in 0..<size {
            for x in 0..<size {
                #expect(matrix.rows[y].contains(x) == matrix.columns[x].contains(y))
                #expect(matrix.functionRows[y].contains(x) == matrix.functionColumns[x].contains(y))
            }
        }
    }

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
        #expect(try QRCode(bytes: [], errorCorrection: level).version == 1)
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
