/// Which of a detail's rules can match a URL's path, found from the literal text each rule's path pattern
/// begins with: a rule whose pattern begins `/s5/join/` cannot match `/s5/room/x/`, so a site of hundreds of
/// derived rules tries a URL against the few whose literal start its path begins with, in their order.
///
/// A skipped rule is one whose path pattern would refuse the path at its first characters, so skipping it
/// changes no decision; rules without a path pattern, without a literal start, or with problems to report
/// are always tried.
struct RuleIndex: Sendable {
    /// How a rule reads the path: decoded or not, folded or not.
    private struct Reading: Hashable, Sendable {
        let caseSensitive: Bool
        let percentEncoded: Bool
    }

    /// The rules with a literal start, per reading: by that start, and the starts' lengths; the rules whose
    /// path pattern is all literal, by that text, since they match it alone.
    private struct Table: Sendable {
        var rules: [[Unicode.Scalar]: [Int]] = [:]
        var lengths: [Int] = []
        var exact: [[Unicode.Scalar]: [Int]] = [:]
    }

    /// Below this many rules every rule is tried: the lookups would cost more than they save.
    static let smallestIndexed = 24

    /// Whether the rules are indexed at all.
    private let indexed: Bool
    /// Rules tried for every path, in order.
    private let always: [Int]
    private let tables: [Reading: Table]
    private let count: Int

    init(_ rules: [CompiledRule]) {
        count = rules.count
        indexed = rules.count >= Self.smallestIndexed
        var always: [Int] = []
        var tables: [Reading: Table] = [:]
        if indexed {
            for (index, rule) in rules.enumerated() {
                guard let pattern = rule.path?.pattern, rule.problems.isEmpty, !pattern.prefix.isEmpty else {
                    always.append(index)
                    continue
                }
                let reading = Reading(caseSensitive: pattern.caseSensitive, percentEncoded: rule.flags.percentEncoded)
                if pattern.isLiteral {
                    tables[reading, default: Table()].exact[pattern.prefix, default: []].append(index)
                } else {
                    tables[reading, default: Table()].rules[pattern.prefix, default: []].append(index)
                }
            }
            for reading in tables.keys { tables[reading]!.lengths = Set(tables[reading]!.rules.keys.map(\.count)).sorted() }
        }
        self.always = always
        self.tables = tables
    }

    /// The indices, ascending, of the rules that may match `url`.
    func candidates(_ url: URLReading) -> [Int] {
        guard indexed else { return Array(0..<count) }
        var found = always
        for (reading, table) in tables {
            // A path that cannot be decoded matches no path pattern that reads it decoded.
            guard let path = url.form(MatchFlags(caseSensitive: reading.caseSensitive, percentEncoded: reading.percentEncoded)).normalizedPath else { continue }
            let scalars = reading.caseSensitive ? Array(path.unicodeScalars) : path.unicodeScalars.map(WildcardPattern.fold)
            for length in table.lengths {
                guard length <= scalars.count else { break }
                if let rules = table.rules[Array(scalars[..<length])] { found += rules }
            }
            if let rules = table.exact[scalars] { found += rules }
        }
        return found.sorted()
    }
}
