import Testing
@testable import LinkHostQR

/// The bit-parallel penalty scorer against a plain module-by-module reading of the standard's rules.
@Suite("QRCode masking")
struct QRCodeMaskTests {
    /// Penalty N1–N4 of a finished symbol, walking modules one at a time; modules outside count as light.
    static func referencePenalty(_ code: QRCode) -> Int {
        let n = code.size
        func lines() -> [[Bool]] {
            let rows = (0..<n).map { y in (0..<n).map { x in code.isDark(x: x, y: y) } }
            let columns = (0..<n).map { x in (0..<n).map { y in code.isDark(x: x, y: y) } }
            return rows + columns
        }
        var score = 0
        for line in lines() {
            // N1: runs of five or more.
            var run = 1
            for index in 1...n {
                if index < n && line[index] == line[index - 1] {
                    run += 1
                } else {
                    if run >= 5 { score += 3 + (run - 5) }
                    run = 1
                }
            }
            // N3: dark-light-dark×3-light-dark with four light modules before or after.
            let core = [true, false, true, true, true, false, true]
            func module(_ index: Int) -> Bool { (0..<n).contains(index) ? line[index] : false }
            for start in 0..<n where (0..<7).allSatisfy({ module(start + $0) == core[$0] }) {
                if (1...4).allSatisfy({ !module(start - $0) }) { score += 40 }
                if (7...10).allSatisfy({ !module(start + $0) }) { score += 40 }
            }
        }
        // N2: 2×2 blocks of one colour.
        for y in 0..<(n - 1) {
            for x in 0..<(n - 1) {
                let colour = code.isDark(x: x, y: y)
                if code.isDark(x: x + 1, y: y) == colour && code.isDark(x: x, y: y + 1) == colour
                    && code.isDark(x: x + 1, y: y + 1) == colour { score += 3 }
            }
        }
        // N4: 10 per whole 5 % away from half dark.
        var dark = 0
        for y in 0..<n { for x in 0..<n where code.isDark(x: x, y: y) { dark += 1 } }
        let percent = Double(dark) * 100 / Double(n * n)
        score += 10 * Int(abs(percent - 50) / 5)
        return score
    }

    /// The scorer's penalty of `bytes` under `mask`, using lines of type `Line`.
    static func scorerPenalty<Line: QRBitLine>(
        _ bytes: [UInt8], level: QRCode.ErrorCorrection, version: Int, mask: Int, as _: Line.Type
    ) -> Int {
        let data = QRCodewords.dataCodewords(bytes, version: version, level: level)
        var matrix = QRMatrix<Line>(version: version)
        matrix.placeCodewords(QRCodewords.interleaved(data, version: version, level: level))
        var lines = QRMaskedLines(matrix, level: level)
        lines.apply(mask: mask)
        return lines.penalty()
    }

    @Test("mask patterns repeat every 12 modules, as the line tables assume")
    func maskPeriod() {
        for mask in 0..<8 {
            for y in 0..<24 {
                for x in 0..<24 {
                    #expect(QRMask.inverts(mask: mask, x: x, y: y) == QRMask.inverts(mask: mask, x: x % 12, y: y % 12))
                    #expect(QRMask.rowPatterns[mask][y % 12].contains(x) == QRMask.inverts(mask: mask, x: x, y: y))
                    #expect(QRMask.columnPatterns[mask][x % 12].contains(y) == QRMask.inverts(mask: mask, x: x, y: y))
                }
            }
        }
    }

    @Test("scorer matches the reference penalty, and the lowest-penalty mask is chosen",
          arguments: [("https://links.example.com/call/abc_DEF-123xyz?type=default&x=1", QRCode.ErrorCorrection.medium),
                      ("HELLO WORLD", .quartile),
                      (String(repeating: "call link ", count: 40), .low),
                      (String(repeating: "x", count: 600), .high)])
    func penalties(text: String, level: QRCode.ErrorCorrection) throws {
        let bytes = Array(text.utf8)
        let chosen = try QRCode(bytes: bytes, errorCorrection: level)
        let version = chosen.version
        var reference: [Int] = []
        for mask in 0..<8 {
            let masked = try QRCode(bytes: bytes, errorCorrection: level, minimumVersion: 1, forcedMask: mask)
            let expected = Self.referencePenalty(masked)
            reference.append(expected)
            #expect(Self.scorerPenalty(bytes, level: level, version: version, mask: mask, as: QRLine192.self) == expected)
            if QRTables.size(version: version) <= QRLine64.capacity {
                #expect(Self.scorerPenalty(bytes, level: level, version: version, mask: mask, as: QRLine64.self) == expected)
            }
        }
        #expect(chosen.mask == reference.firstIndex(of: reference.min()!))
    }

    @Test("one-word and three-word lines lay out the same symbol", arguments: [1, 4, 7, 11])
    func lineWidthsAgree(version: Int) {
        let data = QRCodewords.dataCodewords(Array("same either way".utf8), version: version, level: .quartile)
        let codewords = QRCodewords.interleaved(data, version: version, level: .quartile)
        let narrow = QRCode.layOut(codewords, version: version, level: .quartile, forcedMask: nil, as: QRLine64.self)
        let wide = QRCode.layOut(codewords, version: version, level: .quartile, forcedMask: nil, as: QRLine192.self)
        #expect(narrow.mask == wide.mask)
        #expect(narrow.rows == wide.rows)
        #expect(QRLine64.template(version: version).rows == QRMatrix<QRLine64>(version: version).rows)
    }

    @Test("masks flip data modules only")
    func masksSpareFunctionPatterns() throws {
        let bytes = Array("mask".utf8)
        let codes = try (0..<8).map { try QRCode(bytes: bytes, errorCorrection: .low, minimumVersion: 7, forcedMask: $0) }
        let matrix = QRMatrix<QRLine192>(version: 7)
        let formatCells = Set((0..<15).flatMap { bit -> [Int] in
            let (first, second) = QRTables.formatPositions(bit: bit, size: matrix.size)
            return [first.y * matrix.size + first.x, second.y * matrix.size + second.x]
        })
        for y in 0..<matrix.size {
            for x in 0..<matrix.size where matrix.functionRows[y].contains(x) && !formatCells.contains(y * matrix.size + x) {
                #expect(codes.allSatisfy { $0.isDark(x: x, y: y) == matrix.rows[y].contains(x) }, "(\(x), \(y))")
            }
        }
    }
}
