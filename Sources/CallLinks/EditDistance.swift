/// How many single-byte insertions, deletions and substitutions turn one short text into another
/// (Levenshtein): what "did you mean" suggestions rank by, in templates here and in command-line options.
package enum EditDistance {
    /// The distance between two byte strings; both are short (names, placeholders), so a row of ints does.
    package static func between(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard !a.isEmpty else { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let saved = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = saved
            }
        }
        return row[b.count]
    }
}
