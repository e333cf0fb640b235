/// A symbol under one mask candidate, as bit rows and bit columns, with its penalty score
/// by the standard's rules N1–N4 (ISO/IEC 18004 §7.8.3).
///
/// With whole lines as bit sets, masking is a few word operations per line and each penalty rule
/// is a few shifts, ANDs and popcounts, so scoring all eight masks of a call link costs a few
/// microseconds; a per-module walk spends most of its time on mispredicted branches.
struct QRMaskedLines<Line: QRBitLine> {
    /// Width of the symbol in modules.
    let size: Int
    /// Error-correction level, needed for the format bits each candidate carries.
    let level: QRCode.ErrorCorrection
    private let baseRows: [Line]
    private let dataRows: [Line]
    private let baseColumns: [Line]
    private let dataColumns: [Line]
    /// The symbol under the last applied mask, row y's bit x being module (x, y).
    private(set) var rows: [Line]
    /// The same modules column by column, for the vertical half of the penalty rules.
    private var columns: [Line]
    /// Bits 0..<size − 1: positions that have a right-hand (or lower) neighbour inside the symbol.
    private let pairMask: Line

    /// Prepares the unmasked `matrix`, whose format areas are still light.
    init(_ matrix: QRMatrix<Line>, level: QRCode.ErrorCorrection) {
        size = matrix.size
        self.level = level
        let inside = Line.prefix(size)  // masks must not set bits past the edge
        baseRows = matrix.rows
        baseColumns = matrix.columns
        dataRows = matrix.functionRows.map { ~$0 & inside }
        dataColumns = matrix.functionColumns.map { ~$0 & inside }
        rows = baseRows
        columns = baseColumns
        pairMask = .prefix(size - 1)
    }

    /// Sets `rows` (and the columns) to the symbol with `mask` applied and its format bits written.
    mutating func apply(mask: Int) {
        let rowPatterns = QRMask.rowPatterns[mask]
        let columnPatterns = QRMask.columnPatterns[mask]
        for index in 0..<size {
            let rowPattern = Line(truncating: rowPatterns[index % 12])
            let columnPattern = Line(truncating: columnPatterns[index % 12])
            rows[index] = baseRows[index] ^ (rowPattern & dataRows[index])
            columns[index] = baseColumns[index] ^ (columnPattern & dataColumns[index])
        }
        let format = QRTables.formatBits[level.tableRow][mask]
        for bit in 0..<15 where (format >> bit) & 1 == 1 {
            let (first, second) = QRTables.formatPositions(bit: bit, size: size)
            rows[first.y].set(first.x)
            columns[first.x].set(first.y)
            rows[second.y].set(second.x)
            columns[second.x].set(second.y)
        }
    }

    /// Penalty of the symbol under the last applied mask; lower reads more reliably.
    ///
    /// Every rule adds a non-negative amount, so once the sum reaches `limit` (the best score so far)
    /// this mask cannot win and scoring stops there, returning a value ≥ `limit`.
    func penalty(limit: Int = .max) -> Int {
        var total = 0
        var darkCount = 0
        for index in 0..<size {
            total += linePenalty(rows[index])
            darkCount += rows[index].count
        }
        guard total < limit else { return total }
        for index in 0..<size { total += linePenalty(columns[index]) }
        guard total < limit else { return total }
        // N2: 3 per 2×2 block of one colour, overlapping blocks counted separately.
        for y in 0..<(size - 1) {
            let upper = rows[y]
            let vertical = ~(upper ^ rows[y + 1])  // module i matches the one below
            let horizontal = ~(upper ^ upper.down(1, fill: 0))  // module i matches its right neighbour
            total += 3 * (vertical & vertical.down(1, fill: 0) & horizontal & pairMask).count
        }
        // N4: 10 per full 5 % by which the dark share strays from 50 %.
        let modules = size * size
        total += 10 * (abs(darkCount * 20 - modules * 10) / modules)
        return total
    }

    /// N1 and N3 for one row or column.
    ///
    /// N1: a run of n ≥ 5 same-colour modules scores n − 2. N3: 40 per finder-like 1:1:3:1:1 pattern
    /// with 4 light modules on either side, counted once per side; modules outside the symbol are
    /// light, as the quiet zone is.
    private func linePenalty(_ dark: Line) -> Int {
        let same = ~(dark ^ dark.down(1, fill: 0)) & pairMask  // module i equals module i + 1
        let sameTwice = same & same.down(1, fill: 0)
        let runOfFive = sameTwice & sameTwice.down(2, fill: 0)  // modules i...i+4 are one colour
        // A run of n covers n − 4 starting points of five; adding 2 at its first one makes n − 2.
        let runStart = runOfFive & ~same.up(1, fill: 0)
        var score = runOfFive.count + 2 * runStart.count

        let light = ~dark  // bits past the symbol are clear in `dark`, so light there
        let core = dark & light.down(1, fill: ~0) & dark.down(2, fill: 0) & dark.down(3, fill: 0)
            & dark.down(4, fill: 0) & light.down(5, fill: ~0) & dark.down(6, fill: 0)
        if core != .empty {
            let lightTwo = light & light.up(1, fill: ~0)
            let lightFour = lightTwo & lightTwo.up(2, fill: ~0)  // modules i−3...i are light
            let before = lightFour.up(1, fill: ~0)
            let after = lightFour.down(10, fill: ~0)
            score += 40 * ((core & before).count + (core & after).count)
        }
        return score
    }
}
