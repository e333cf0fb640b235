import Testing
@testable import LinkHostCore
import LinkHostJSON

/// `RuleIndex` only skips rules that cannot match: the matcher decides every URL as trying every rule in
/// order does, with the same deciding rule, checks, count of rules tried and problems.
@Suite("Match: rule index")
struct RuleIndexTests {
    /// Enough rules to be indexed, with every kind the index must keep: literal starts of several lengths,
    /// case-insensitive and decoded rules, rules without a path or a literal start, a rule with a problem.
    static let document: String = {
        var rules: [String] = []
        for site in 0..<4 {
            rules += [
                #"{"/":"/s\#(site)/join/*/*","exclude":true}"#,
                #"{"/":"/s\#(site)/join/?*","?":{"type":"?*"}}"#,
                ##"{"/":"/s\##(site)/room/*","#":"no*","exclude":true}"##,
                #"{"/":"/s\#(site)/room/?*"}"#,
                #"{"/":"/s\#(site)/Meet/*","caseSensitive":false}"#,
            ]
        }
        rules += [
            #"{"/":"/%61bc/*","percentEncoded":false}"#,
            #"{"/":"/$(nothing)/x"}"#,
            #"{"?":{"only":"query"}}"#,
            #"{"/":"*/tail"}"#,
            ##"{"/":"/s1/join/x","#":"$(alsoNothing)"}"##,
            #"{"/":"/s2"}"#,
            #"{"/":"/S0/JOIN","caseSensitive":false,"exclude":true,"?":"x=1"}"#,
            #"{"/":"/s0/join"}"#,
            #"{"/":"/s3/*/deep/*"}"#,
            #"{"/":"/S3/ROOM/*","caseSensitive":false,"percentEncoded":false}"#,
        ]
        return #"{"applinks":{"details":[{"appIDs":["\#(MatchFixture.app)"],"components":[\#(rules.joined(separator: ","))]}]}}"#
    }()

    static let urls = [
        "/", "/s0/join/abc", "/s0/join/abc?type=video", "/s1/join/a/b", "/s1/room/r1", "/s1/room/r1#nope", "/s2/meet/x",
        "/S2/MEET/x", "/s2", "/s2/", "/s2//", "//s2", "/abc/1", "/%61bc/1", "/%61BC/1", "/%FF/1", "/x?only=query", "/a/b/tail",
        "/s3/a/deep/b", "/s3/room/1", "/S3/r%4FOM/1", "/s3/join/x", "/s1/join/x#f", "/s9/join/abc", "/s0/joi", "/s", "/s0/join", "/S0/join/?x=1", "/s0/JOIN", "/s0/join//x",
    ]

    @Test("every URL is decided as by trying each rule in order")
    func sameAsEveryRule() throws {
        let parsed = try JSONParser.parse(Self.document)
        let detail = try #require(AASARuleCompiler.compile(parsed)?.first)
        #expect(detail.rules.count >= RuleIndex.smallestIndexed, "the document must be large enough to be indexed")
        let matcher = AASAMatcher(document: parsed)
        for path in Self.urls {
            let url = "https://example.com" + path
            let result = matcher.match(url: url, appID: MatchFixture.app, domain: "")
            let split = try SplitURL(url)
            var expected: (rule: AASARuleReference, exclude: Bool, checks: [ComponentCheck])?
            var problems: [String] = []
            for rule in detail.rules {
                problems += rule.problems.map { "\(rule.reference.label): \($0)" }
                if let checks = AASAMatcher.evaluate(rule, on: split) {
                    expected = (rule.reference, rule.exclude, checks)
                    break
                }
            }
            if let expected {
                #expect(result.rule == expected.rule, "\(path)")
                #expect(result.decision == (expected.exclude ? .exclude : .match), "\(path)")
                #expect(result.checks == expected.checks, "\(path)")
            } else {
                #expect(result.decision == .noMatch, "\(path)")
                guard case .noRuleMatched(_, let tried, _, _, _, let found)? = result.reason else {
                    Issue.record("\(path): \(String(describing: result.reason))")
                    continue
                }
                #expect(tried == detail.rules.count, "\(path)")
                #expect(found == problems && found.count == 2, "\(path): \(found)")
            }
        }
    }

    /// Android rules of every kind the index must keep: literal, prefix and glob paths (with a `c*` repeat
    /// and `.` in the text), query-only and fragment rules, escapes that decode.
    static let androidComponents: String = {
        var rules: [String] = []
        for site in 0..<5 {
            rules += [
                #"{"/": "/s\#(site)/join/*/*", "exclude": true}"#,
                #"{"/": "/s\#(site)/join/?*", "?": {"type": "?*"}}"#,
                #"{"/": "/s\#(site)/room", "exclude": true}"#,
                #"{"/": "/s\#(site)/room/*"}"#,
                #"{"/": "/s\#(site)/a.b*"}"#,
            ]
        }
        rules += [#"{"?": {"only": "query"}}"#, ##"{"#": "frag*"}"##, #"{"/": "*/tail"}"#, #"{"/": "/s2x*y/*"}"#, #"{"/": "/é/*"}"#]
        return "[" + rules.joined(separator: ", ") + "]"
    }()

    @Test("every URL is decided on Android as by trying each dynamic rule in order")
    func androidSameAsEveryRule() throws {
        let document = try AndroidRuleSemanticsTests.document(Self.androidComponents)
        let matcher = AndroidLinkMatcher(document: document)
        guard case .success(let apps) = AndroidRuleCompiler.compile(document), case .rules(let rules, _)? = apps.first?.dynamic else {
            Issue.record("the document's rules do not compile")
            return
        }
        #expect(rules.count >= RuleIndex.smallestIndexed, "the document must be large enough to be indexed")
        let paths = Self.urls + ["/s1/room", "/s1/room/x", "/s3/a.b", "/s3/aXb/c", "/s2xxxy/1", "/s2y/1", "/%C3%A9/x", "/é/x", "/x#fragment", "/s4/join/a?type=v", "/s0/a.bcd"]
        for path in paths {
            let url = "https://example.com" + path
            let result = matcher.match(url: url, packageName: "com.example.app", domain: "")
            let uri = AndroidURI(url)
            let first = rules.indices.first { rules[$0].checks(uri) != nil }
            #expect(result.rule == first, "\(path): \(result.reason)")
            #expect(result.decision == first.map { rules[$0].exclude ? .exclude : .match } ?? .noMatch, "\(path)")
        }
    }
}
