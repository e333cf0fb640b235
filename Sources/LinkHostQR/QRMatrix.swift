/// A symbol's modules before masking: function patterns drawn, codewords placed (ISO/IEC 18004 §7.7).
///
/// Kept both as bit rows and bit columns because the penalty rules look along both; `Line` is one
/// machine word for the symbols call links need and three for the largest.
struct QRMatrix<Line: QRBitLine> {
    /// Symbol version, 1...40.
    let version: Int
    /// Width and height in modules.
    let size: Int
    /// Dark modules, row y's bit x being module (x, y).
    private(set) var rows: [Line]
    /// Dark modules, column x's bit y being module (x, y).
    private(set) var columns: [Line]
    /// Modules of function patterns and format areas, which masks leave alone; by row.
    private(set) var functionRows: [Line]
    /// The same, by column.
    private(set) var functionColumns: [Line]

    /// A matrix with every function pattern of `version` drawn and the format areas reserved.
    init(version: Int) {
        self.version = version
        size = QRTables.size(version: version)
        precondition(size <= Line.capacity, "version \(version) does not fit this line type")
        rows = [Line](repeating: .empty, count: size)
        columns = rows
        functionRows = rows
        functionColumns = rows
        drawFinderPatterns()
        drawAlignmentPatterns()
        drawTimingPatterns()
        reserveFormatAreas()
        drawVersionInformation()
    }

    /// Marks a module as part of a function pattern with the given colour.
    ///
    /// Lines start all light and no two patterns claim a module with different colours (where the
    /// timing pattern meets an alignment pattern they agree), so setting bits is enough.
    private mutating func setFunction(x: Int, y: Int, isDark: Bool) {
        functionRows[y].set(x)
        functionColumns[x].set(y)
        if isDark {
            rows[y].set(x)
            columns[x].set(y)
        }
    }

    /// Finder patterns in three corners, each with its light separator (the ring at distance 4).
    private mutating func drawFinderPatterns() {
        for (centerX, centerY) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 {
                    let x = centerX + dx, y = centerY + dy
                    guard x >= 0, x < size, y >= 0, y < size else { continue }
                    let ring = max(abs(dx), abs(dy))
                    setFunction(x: x, y: y, isDark: ring != 2 && ring != 4)
                }
            }
        }
    }

    /// Alignment patterns at every pair of listed centres except the three under finder patterns.
    private mutating func drawAlignmentPatterns() {
        let centers = QRTables.alignmentCenters[version]
        let last = centers.count - 1
        for (row, centerY) in centers.enumerated() {
            for (column, centerX) in centers.enumerated() {
                let underFinder = (row == 0 && column == 0) || (row == 0 && column == last)
                    || (row == last && column == 0)
                if underFinder { continue }
                for dy in -2...2 {
                    for dx in -2...2 {
                        setFunction(x: centerX + dx, y: centerY + dy, isDark: max(abs(dx), abs(dy)) != 1)
                    }
                }
            }
        }
    }

    /// Alternating row 6 and column 6 between the finders; alignment centres are even, so overlaps agree.
    private mutating func drawTimingPatterns() {
        for index in 8..<(size - 8) {
            setFunction(x: index, y: 6, isDark: index % 2 == 0)
            setFunction(x: 6, y: index, isDark: index % 2 == 0)
        }
    }

    /// Takes the format-information modules out of the data area; their value depends on the mask and
    /// is written per mask candidate by `QRMaskedLines.apply(mask:)`. Also sets the always-dark module.
    private mutating func reserveFormatAreas() {
        for index in 0...8 {
            setFunction(x: 8, y: index, isDark: false)
            setFunction(x: index, y: 8, isDark: false)
        }
        for index in 0..<8 {
            setFunction(x: size - 1 - index, y: 8, isDark: false)
            setFunction(x: 8, y: size - 1 - index, isDark: false)
        }
        setFunction(x: 8, y: size - 8, isDark: true)
    }

    /// The two 6×3 version blocks next to the top-right and bottom-left finders, versions 7 and up.
    private mutating func drawVersionInformation() {
        guard version >= 7 else { return }
        let bits = QRTables.versionBits[version]
        for bit in 0..<18 {
            let isDark = (bits >> bit) & 1 == 1
            let along = bit / 3, across = size - 11 + bit % 3
            setFunction(x: along, y: across, isDark: isDark)
            setFunction(x: across, y: along, isDark: isDark)
        }
    }

    /// Places codewords most significant bit first along the standard's two-column zigzag, which starts
    /// at the bottom-right corner going up and skips the vertical timing column.
    ///
    /// Data modules beyond the last codeword (remainder bits) stay light, as the standard requires.
    mutating func placeCodewords(_ codewords: [UInt8]) {
        // The zigzag fills two columns at a time, so bits collect in two local lines and each column is
        // stored once; the rows are then rebuilt from the columns. Setting bits in array elements one
        // module at a time would re-check the arrays' uniqueness on every write.
        let totalBits = codewords.count * 8
        var bitIndex = 0
        /// The next data bit, 0 once the codewords run out.
        func nextBit() -> UInt64 {
            defer { bitIndex += 1 }
            guard bitIndex < totalBits else { return 0 }
            return UInt64((codewords[bitIndex >> 3] >> (7 - (bitIndex & 7))) & 1)
        }
        var right = size - 1
        var upward = true
        while right > 0 {
            if right == 6 { right = 5 }
            let rightFunction = functionColumns[right], leftFunction = functionColumns[right - 1]
            var rightColumn = columns[right], leftColumn = columns[right - 1]
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                if !rightFunction.contains(y) { rightColumn.merge(nextBit(), at: y) }
                if !leftFunction.contains(y) { leftColumn.merge(nextBit(), at: y) }
            }
            columns[right] = rightColumn
            columns[right - 1] = leftColumn
            upward.toggle()
            right -= 2
        }
        let columns = self.columns
        rows = (0..<size).map { y in
            var row = Line.empty
            for x in 0..<size { row.merge(columns[x].bit(y), at: x) }
            return row
        }
    }
}
