import Testing
@testable import LinkHostCore

@Suite("Match: wildcard engine")
struct MatchWildcardTests {
    @Test("* ? and ?* count characters the way Apple documents", arguments: [
        ("a*b", "ab", true), ("a*b", "a/x/b", true), ("a*b", "a", false), ("a*b", "abc", false),
        ("?", "", false), ("?", "x", true), ("?", "xy", false),
        ("????", "4815", true), ("????", "481", false), ("????", "48151", false),
        ("?*", "", false), ("?*", "x", true), ("?*", "xyz", true),
        ("*", "", true), ("**", "abc", true), ("a?*z", "az", false), ("a?*z", "a1z", true),
        ("abc", "abc", true), ("abc", "abcd", false), ("abc", "xabc", false), ("", "", true), ("", "a", false),
    ])
    func wildcards(pattern: String, text: String, expected: Bool) {
        #expect(WildcardPattern(pattern).matches(text) == expected, "\(pattern) vs \(text)")
    }

    @Test("case folding applies to both sides, including non-ASCII letters")
    func caseFolding() {
        #expect(!WildcardPattern("/Help/*").matches("/help/1"))
        #expect(WildcardPattern("/Help/*", caseSensitive: false).matches("/HELP/1"))
        #expect(WildcardPattern("CAFÉ", caseSensitive: false).matches("café"))
        #expect(!WildcardPattern("CAFÉ").matches("café"))
    }

    @Test("predefined classes stand for exactly one character of their class", arguments: [
        ("$(alpha)", "q", true), ("$(alpha)", "7", false), ("$(alpha)", "qq", false),
        ("$(upper)", "Q", true), ("$(upper)", "q", false), ("$(lower)", "q", true), ("$(lower)", "Q", false),
        ("$(alnum)", "7", true), ("$(alnum)", "-", false), ("$(digit)", "7", true), ("$(digit)", "42", false),
        ("$(xdigit)", "f", true), ("$(xdigit)", "F", true), ("$(xdigit)", "g", false),
        ("$(digit)*", "4x", true), ("$(digit)*", "x4", false), ("$(digit)$(digit)*", "4x", false),
    ])
    func classes(pattern: String, text: String, expected: Bool) {
        #expect(WildcardPattern(pattern).matches(text) == expected, "\(pattern) vs \(text)")
    }

    @Test("a class folds when the rule ignores case")
    func classFolding() {
        #expect(WildcardPattern("$(upper)", caseSensitive: false).matches("q"))
        #expect(WildcardPattern("$(lang)_$(region)", caseSensitive: false).matches("EN_us"))
    }

    @Test("region and language codes are ISO 3166-1 alpha-2 and ISO 639-1")
    func locales() {
        let pattern = WildcardPattern("/$(lang)_$(region)/")
        #expect(pattern.matches("/en_US/"))
        #expect(pattern.matches("/pt_BR/"))
        #expect(pattern.matches("/zu_ZW/"))
        #expect(!pattern.matches("/en_us/"))
        #expect(!pattern.matches("/qq_US/"))
        #expect(!pattern.matches("/en_ZZ/"))
        #expect(!pattern.matches("/eng_US/"))
        #expect(ISOCodes.regions.count == 249)
        #expect(Set(ISOCodes.regions).count == ISOCodes.regions.count)
        #expect(ISOCodes.languages.allSatisfy { $0.count == 2 && $0 == $0.lowercased() })
    }

    @Test("custom values may hold wildcards but not other variables")
    func customValues() {
        let variables = SubstitutionVariables(custom: ["kind": ["a*z", "b?"], "nested": ["$(digit)"]])
        let kind = WildcardPattern("/$(kind)/x", variables: variables)
        #expect(kind.matches("/abcz/x"))
        #expect(kind.matches("/bq/x"))
        #expect(!kind.matches("/bqq/x"))
        #expect(!kind.matches("/$(kind)/x"))
        let nested = WildcardPattern("$(nested)", variables: variables)
        #expect(nested.matches("$(digit)"))
        #expect(!nested.matches("7"))
    }

    @Test("an undefined variable makes the pattern match nothing, not even its own text")
    func undefinedVariable() {
        let pattern = WildcardPattern("/$(food)/*")
        #expect(pattern.problem != nil)
        #expect(!pattern.matches("/$(food)/x"))
        #expect(!pattern.matches("/pizza/x"))
    }

    @Test("a variable with no values lets nothing through")
    func emptyVariable() {
        let pattern = WildcardPattern("/a$(none)", variables: SubstitutionVariables(custom: ["none": []]))
        #expect(pattern.problem == nil)
        #expect(!pattern.matches("/a"))
    }

    @Test("a $ that opens no well-formed reference is plain text", arguments: ["a$b", "$(x", "$x)", "$($y)"])
    func literalDollar(text: String) {
        #expect(WildcardPattern(text).matches(text))
    }

    @Test("names may hold any character but $ ( and )")
    func oddNames() {
        let variables = SubstitutionVariables(custom: ["a b.c-d": ["ok"]])
        #expect(WildcardPattern("x$(a b.c-d)y", variables: variables).matches("xoky"))
        #expect(PatternPiece.split("x$(a)y") == [.text("x"), .variable("a"), .text("y")])
        #expect(PatternPiece.split("$(a$(b))") == [.text("$(a"), .variable("b"), .text(")")])
    }

    @Test("hostile patterns stay linear: no backtracking blow-up", .timeLimit(.minutes(1)))
    func hostile() {
        let pattern = WildcardPattern(String(repeating: "*a", count: 40) + "*b")
        let text = String(repeating: "a", count: 20_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(!pattern.matches(text)) }
        #expect(elapsed < .seconds(10), "took \(elapsed)")
        #expect(pattern.matches(text + "b"))
    }

    @Test("an expansion beyond the state limit is refused rather than run")
    func oversized() {
        let values = Array(repeating: String(repeating: "x", count: 1_000), count: 300)
        let pattern = WildcardPattern("$(v)", variables: SubstitutionVariables(custom: ["v": values]))
        #expect(pattern.problem != nil)
        #expect(!pattern.matches(values[0]))
    }

    @Test("a custom variable shadows a predefined one of the same name")
    func shadowing() {
        let pattern = WildcardPattern("$(digit)", variables: SubstitutionVariables(custom: ["digit": ["x"]]))
        #expect(pattern.matches("x"))
        #expect(!pattern.matches("7"))
    }

    /// A small automaton (at most 64 states) is run in one machine word, a larger one state by state; both
    /// must decide alike. The same pattern and text with a long literal tail on both sides cross the limit.
    @Test("small and large automata decide alike, with literal starts, wildcards, classes, variables and case folding", arguments: [
        ("a*b", "a/x/b"), ("a*b", "abc"), ("/s1/join/*/*", "/s1/join/a/b/"), ("/s1/join/*/*", "/s1/join/a"), ("/s1/join/?*", "/s1/join/"),
        ("?*:?*", "t:1"), ("?*:?*", ":1"), ("/$(kind)/x", "/abcz/x"), ("/$(kind)/x", "/bqq/x"), ("$(lang)_$(region)", "EN_us"),
        ("$(digit)$(digit)*", "42x"), ("/Help/*", "/HELP/1"), ("CAFÉ*", "café!"), ("", ""), ("*", ""), ("/call/", "/call"),
    ])
    func wordAndStateByState(pattern: String, text: String) {
        let variables = SubstitutionVariables(custom: ["kind": ["a*z", "b?"]])
        let tail = String(repeating: "t", count: 70)
        for caseSensitive in [true, false] {
            let small = WildcardPattern(pattern, caseSensitive: caseSensitive, variables: variables)
            let large = WildcardPattern(pattern + tail, caseSensitive: caseSensitive, variables: variables)
            #expect(small.matches(text) == large.matches(text + tail), "\(pattern) vs \(text), caseSensitive \(caseSensitive)")
            #expect(!large.matches(text), "\(pattern)\(tail) vs \(text)")
        }
    }
}
