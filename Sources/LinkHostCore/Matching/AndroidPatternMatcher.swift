/// One dynamic-rule pattern as Android's own code reads and matches it.
///
/// The StatementService turns each pattern into an `android.os.PatternMatcher`
/// (`packages/StatementService/Parser/.../parser/DalComponentParser.kt`, `parseMatchingExpression`, the
/// newest AOSP version, which only makes literal, prefix and simple-glob matchers): no wildcard is a
/// literal, a single `*` at the end a prefix, anything else a simple glob where `*` is written `.*`, `?` is
/// `.`, and `.` and `\` are escaped. The glob is matched by `PatternMatcher.matchGlobPattern`
/// (`core/java/android/os/PatternMatcher.java`), whose `.*` consumes the text up to the *next pattern
/// character, taken literally* and never backtracks. So `**` is `.*.*` and looks for a literal `.`; `*?`
/// is `.*.` and does the same; and an escaped `\.` outside a `.*` matches any character, because that
/// branch of `matchGlobPattern` does not look at the escape.
///
/// Text is compared in UTF-16 code units, as Java's `String` is.
struct AndroidPatternMatcher: Sendable, Equatable {
    /// The `PatternMatcher` type the StatementService chooses.
    enum Kind: String, Sendable {
        /// `PATTERN_LITERAL`: the text equals the pattern.
        case literal
        /// `PATTERN_PREFIX`: the text starts with the pattern.
        case prefix
        /// `PATTERN_SIMPLE_GLOB`: `matchGlobPattern`.
        case glob
    }

    let kind: Kind
    /// The pattern handed to `PatternMatcher`, in UTF-16 code units.
    let pattern: [UInt16]

    private static let star = UInt16(UInt8(ascii: "*"))
    private static let question = UInt16(UInt8(ascii: "?"))
    private static let dot = UInt16(UInt8(ascii: "."))
    private static let backslash = UInt16(UInt8(ascii: "\\"))

    /// Reads a pattern as `parseMatchingExpression` does; nil for the empty pattern, where it throws
    /// `IllegalArgumentException("Matching expressions cannot be an empty string")`.
    init?(expression: String) {
        let units = Array(expression.utf16)
        guard !units.isEmpty else { return nil }
        let wildcards = units.filter { $0 == Self.star || $0 == Self.question }.count
        if wildcards == 0 {
            kind = .literal
            pattern = units
        } else if wildcards == 1, units.last == Self.star {
            kind = .prefix
            pattern = Array(units.dropLast())
        } else {
            kind = .glob
            var glob: [UInt16] = []
            for unit in units {
                switch unit {
                case Self.star: glob += [Self.dot, Self.star]
                case Self.question: glob.append(Self.dot)
                case Self.dot: glob += [Self.backslash, Self.dot]
                case Self.backslash: glob += [Self.backslash, Self.backslash]
                default: glob.append(unit)
                }
            }
            pattern = glob
        }
    }

    /// The units every matching text begins with: the whole pattern of a literal or prefix matcher; for a
    /// glob, its units up to the first `.`, `\` or unit that a `*` repeats, which `matchGlobPattern`
    /// compares one for one. `AndroidRuleIndex` looks rules up by it.
    var literalPrefix: [UInt16] {
        guard kind == .glob else { return pattern }
        var prefix: [UInt16] = []
        for (index, unit) in pattern.enumerated() {
            guard unit != Self.dot, unit != Self.backslash, index + 1 == pattern.count || pattern[index + 1] != Self.star else { break }
            prefix.append(unit)
        }
        return prefix
    }

    /// The `PatternMatcher` Android builds, for explanations: `GLOB "/a/.*"`.
    var description: String {
        "\(kind.rawValue) \"\(String(decoding: pattern, as: UTF16.self))\""
    }

    /// Whether `PatternMatcher.match` accepts `text`; a missing URL part (nil) never matches.
    func matches(_ text: String?) -> Bool {
        matches(units: text.map { Array($0.utf16) })
    }

    /// The same on text already in UTF-16 code units.
    func matches(units: [UInt16]?) -> Bool {
        guard let units else { return false }
        switch kind {
        case .literal: return units == pattern
        case .prefix: return units.count >= pattern.count && units[..<pattern.count].elementsEqual(pattern)
        case .glob: return Self.globMatches(pattern, units)
        }
    }

    /// `PatternMatcher.matchGlobPattern`, step for step: `.` is any unit, `c*` repeats `c`, `.*` skips to
    /// the next pattern unit (taken literally) and consumes it, `\` escapes for `*` only.
    static func globMatches(_ pattern: [UInt16], _ text: [UInt16]) -> Bool {
        let patternCount = pattern.count
        guard patternCount > 0 else { return text.isEmpty }
        let textCount = text.count
        func unit(_ index: Int) -> UInt16 { index < patternCount ? pattern[index] : 0 }
        var ip = 0
        var it = 0
        var next = pattern[0]
        while ip < patternCount, it < textCount {
            var current = next
            ip += 1
            next = unit(ip)
            let escaped = current == backslash
            if escaped {
                current = next
                ip += 1
                next = unit(ip)
            }
            if next == star {
                if !escaped, current == dot {
                    // A `.*` that ends the pattern takes the rest of the text.
                    if ip >= patternCount - 1 { return true }
                    ip += 1
                    next = pattern[ip]
                    if next == backslash {
                        ip += 1
                        next = unit(ip)
                    }
                    while text[it] != next {
                        it += 1
                        if it == textCount { return false }
                    }
                    ip += 1
                    next = unit(ip)
                    it += 1
                } else {
                    while text[it] == current {
                        it += 1
                        if it == textCount { break }
                    }
                    ip += 1
                    next = unit(ip)
                }
            } else {
                // Android checks `c != '.'` whether or not it was escaped: `\.` here is any unit.
                if current != dot, text[it] != current { return false }
                it += 1
            }
        }
        if ip >= patternCount, it >= textCount { return true }
        return ip == patternCount - 2 && pattern[ip] == dot && pattern[ip + 1] == star
    }
}
