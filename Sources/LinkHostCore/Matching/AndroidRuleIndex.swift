/// Which of an app's dynamic rules can match a URL's path, found from the units each rule's path pattern
/// begins with (`AndroidPatternMatcher.literalPrefix`), as `RuleIndex` does for iOS: a URL is tried against
/// the rules whose literal start its path begins with, and those without a path or a literal start, in
/// their order. A rule left out would have refused the path, so no decision changes.
struct AndroidRuleIndex: Sendable {
    private let indexed: Bool
    private let count: Int
    /// Rules tried for every path, in order.
    private let always: [Int]
    private let byPrefix: [[UInt16]: [Int]]
    private let lengths: [Int]

    init(_ rules: [CompiledDynamicRule]) {
        count = rules.count
        indexed = rules.count >= RuleIndex.smallestIndexed
        var always: [Int] = []
        var byPrefix: [[UInt16]: [Int]] = [:]
        if indexed {
            for (index, rule) in rules.enumerated() {
                guard let prefix = rule.path?.literalPrefix, !prefix.isEmpty else {
                    always.append(index)
                    continue
                }
                byPrefix[prefix, default: []].append(index)
            }
        }
        self.always = always
        self.byPrefix = byPrefix
        lengths = Set(byPrefix.keys.map(\.count)).sorted()
    }

    /// The indices, ascending, of the rules that may match a URL whose path is `path` (UTF-16; nil: none).
    func candidates(_ path: [UInt16]?) -> [Int] {
        guard indexed else { return Array(0..<count) }
        // Without a path no path condition matches.
        guard let path else { return always }
        var found = always
        for length in lengths {
            guard length <= path.count else { break }
            if let rules = byPrefix[Array(path[..<length])] { found += rules }
        }
        return found.sorted()
    }
}
