/// The eight data-mask patterns and the choice among them (ISO/IEC 18004 §7.8).
enum QRMask {
    /// The standard's mask conditions, with i the row (y) and j the column (x): true where the mask
    /// inverts a data module.
    static func inverts(mask: Int, x: Int, y: Int) -> Bool {
        switch mask {
        case 0: (y + x) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (y + x) % 3 == 0
        case 4: (y / 2 + x / 3) % 2 == 0
        case 5: (y * x) % 2 + (y * x) % 3 == 0
        case 6: ((y * x) % 2 + (y * x) % 3) % 2 == 0
        default: ((y + x) % 2 + (y * x) % 3) % 2 == 0
        }
    }

    /// Per mask and row y % 12, the columns the mask inverts.
    ///
    /// Every pattern repeats after 12 modules in both directions (the lcm of the 2, 3, 4 and 6
    /// periods in the formulas), so 12 lines per mask describe any symbol.
    static let rowPatterns: [[QRLine192]] = linePatterns(transposed: false)
    /// Per mask and column x % 12, the rows the mask inverts.
    static let columnPatterns: [[QRLine192]] = linePatterns(transposed: true)

    private static func linePatterns(transposed: Bool) -> [[QRLine192]] {
        (0..<8).map { mask in
            (0..<12).map { fixed in
                var line = QRLine192.empty
                for along in 0..<QRLine192.capacity {
                    let inverted = transposed
                        ? inverts(mask: mask, x: fixed, y: along)
                        : inverts(mask: mask, x: along, y: fixed)
                    if inverted { line.set(along) }
                }
                return line
            }
        }
    }

    /// The rows of `matrix` under the mask with the lowest penalty, or under `forcedMask` if given.
    ///
    /// Ties go to the lower mask number, so output is deterministic.
    static func masked<Line>(
        _ matrix: QRMatrix<Line>, level: QRCode.ErrorCorrection, forcedMask: Int? = nil
    ) -> (mask: Int, rows: [Line]) {
        var lines = QRMaskedLines(matrix, level: level)
        var bestMask = 0
        if let forcedMask {
            bestMask = forcedMask
        } else {
            var bestPenalty = Int.max
            for mask in 0..<8 {
                lines.apply(mask: mask)
                let penalty = lines.penalty(limit: bestPenalty)
                if penalty < bestPenalty {
                    bestPenalty = penalty
                    bestMask = mask
                }
            }
            if bestMask == 7 { return (7, lines.rows) }  // still applied
        }
        lines.apply(mask: bestMask)
        return (bestMask, lines.rows)
    }
}
