import Testing
@testable import LinkHostCore
import LinkHostJSON
import LinkHostTestSupport

@Suite("Rule coverage")
struct RuleCoverageTests {
    /// The compiled rules of one detail holding `components`, and the document's variables.
    private static func rules(_ components: String, variables: String = "{}") throws -> ([CompiledRule], SubstitutionVariables) {
        let text = #"{"applinks": {"substitutionVariables": \#(variables), "details": [{"appIDs": ["A"], "components": \#(components)}]}}"#
        let document = try JSONParser.parse(text)
        let details = try #require(AASARuleCompiler.compile(document))
        return (details[0].rules, SubstitutionVariables(json: document.objectValue?["applinks"]?.objectValue?["substitutionVariables"]))
    }

    @Test("containment of two rules", arguments: [
        (#"{"/": "/call/*"}"#, #"{"/": "/call/x"}"#, RuleCoverage.Certainty.certain),
        (#"{"/": "/call/x"}"#, #"{"/": "/call/*"}"#, .no),
        (#"{"/": "*"}"#, #"{"?": "a=1"}"#, .certain),
        (#"{"/": "/call/*"}"#, #"{"?": "a=1"}"#, .no),
        (#"{"/": "/a/*/c"}"#, #"{"/": "/a/b/c"}"#, .certain),
        (#"{"/": "/a/?"}"#, #"{"/": "/a/$(digit)"}"#, .certain),
        (#"{"/": "/a/$(digit)"}"#, #"{"/": "/a/?"}"#, .no),
        (#"{"/": "/$(lang)/*"}"#, #"{"/": "/en/*"}"#, .certain),
        (#"{"/": "/$(v)/x"}"#, #"{"/": "/ab/x"}"#, .certain),
        (#"{"/": "/$(v)/x"}"#, #"{"/": "/c/x"}"#, .no),
        (#"{"/": "/call/*", "?": {"type": "*"}}"#, #"{"/": "/call/x"}"#, .certain),
        (#"{"/": "/call/*", "?": {"type": "video"}}"#, #"{"/": "/call/x"}"#, .no),
        (#"{"/": "/call/*", "?": {"type": "v*"}}"#, #"{"/": "/call/x", "?": {"type": "video", "b": "1"}}"#, .certain),
        (#"{"?": "a=*"}"#, #"{"?": "a=1"}"#, .certain),
        (##"{"#": "*"}"##, ##"{"#": "top"}"##, .certain),
        (##"{"#": "top"}"##, #"{}"#, .no),
        (#"{"/": "/A*", "caseSensitive": false}"#, #"{"/": "/a1"}"#, .certain),
        (#"{"/": "/a*"}"#, #"{"/": "/a1", "caseSensitive": false}"#, .possible),
        (#"{"/": "/a*", "percentEncoded": false}"#, #"{"/": "/a1"}"#, .possible),
        (#"{"/": "/$(nope)"}"#, #"{"/": "/x"}"#, .no),
    ])
    func containment(outer: String, inner: String, expected: RuleCoverage.Certainty) throws {
        let (rules, variables) = try Self.rules("[\(outer), \(inner)]", variables: #"{"v": ["a*", "b"]}"#)
        var coverage = RuleCoverage(variables: variables)
        #expect(coverage.covers(rules[0], rules[1]) == expected)
    }

    @Test("whenever coverage is certain, no URL matches the inner rule but not the outer one")
    func soundAgainstTheMatcher() throws {
        var random = SplitMix(state: 42)
        let pieces = ["a", "b", "A", "/", "*", "?", "$(digit)", "$(v)", "1", "%61"]
        func pattern() -> [String] {
            (0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }
        }
        /// Half the time the outer pattern generalizes the inner one (a piece becomes a wildcard), so many pairs cover.
        func patterns() -> (outer: String, inner: String) {
            let inner = pattern()
            guard Bool.random(using: &random) else { return (pattern().joined(), inner.joined()) }
            var outer = inner
            outer[Int.random(in: 0..<outer.count, using: &random)] = ["*", "?", "$(v)"].randomElement(using: &random)!
            return (outer.joined(), inner.joined())
        }
        func components() -> (outer: String, inner: String) {
            var outer: [String] = [], inner: [String] = []
            let path = patterns()
            outer.append(#""/": "/\#(path.outer)""#)
            inner.append(#""/": "/\#(path.inner)""#)
            if Bool.random(using: &random) {
                let query = patterns()
                outer.append(#""?": {"q": "\#(query.outer)"}"#)
                inner.append(#""?": {"q": "\#(query.inner)"}"#)
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                let fragment = patterns()
                outer.append(##""#": "\##(fragment.outer)""##)
                inner.append(##""#": "\##(fragment.inner)""##)
            }
            for flag in [#""caseSensitive": false"#, #""percentEncoded": false"#] {
                if Int.random(in: 0..<3, using: &random) == 0 { outer.append(flag) }
                if Int.random(in: 0..<3, using: &random) == 0 { inner.append(flag) }
            }
            return ("{" + outer.joined(separator: ", ") + "}", "{" + inner.joined(separator: ", ") + "}")
        }
        let texts = ["a", "b", "A", "1", "ab", "a1", "%61", "%FF", "b/a", "aA1", ""]
        var urls: [SplitURL] = []
        for path in texts {
            for query in [nil, "q=a", "q=1", "q=A&q=b", "q=%61"] {
                for fragment in [nil, "a", "b1"] {
                    let url = "https://example.com/" + path + (query.map { "?" + $0 } ?? "") + (fragment.map { "#" + $0 } ?? "")
                    urls.append(try SplitURL(url))
                }
            }
        }
        var certainPairs = 0
        for _ in 0..<1000 {
            let (outerText, innerText) = components()
            let (rules, variables) = try Self.rules("[\(outerText), \(innerText)]", variables: #"{"v": ["a*", "b"]}"#)
            var coverage = RuleCoverage(variables: variables)
            guard coverage.covers(rules[0], rules[1]) == .certain else { continue }
            certainPairs += 1
            for url in urls where AASAMatcher.evaluate(rules[1], on: url) != nil {
                #expect(AASAMatcher.evaluate(rules[0], on: url) != nil, "\(outerText) was said to cover \(innerText), but \(url) matches only the latter")
            }
        }
        #expect(certainPairs > 100, "too few covering pairs generated to say anything")
    }

    @Test("a hostile file is linted in bounded time: the comparison budget gives up, it never hangs", .timeLimit(.minutes(1)))
    func hostileFileIsBounded() {
        let rules = (0..<300).map { #"{"/": "/$(lang)*$(region)*$(lang)*/*\#(String(repeating: "ab", count: $0 % 7))"}"# }
        let text = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.video"], "components": [\#(rules.joined(separator: ","))]}]}}"#
        let clock = ContinuousClock()
        let started = clock.now
        let diagnostics = AASALinter.diagnostics(bytes: Array(text.utf8))
        #expect(clock.now - started < .seconds(30))
        #expect(diagnostics.allSatisfy { $0.code == .lh201 || $0.code == .lh202 }, "\(diagnostics.prefix(3))")
    }
}
