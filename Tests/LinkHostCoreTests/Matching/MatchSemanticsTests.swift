import Testing
@testable import LinkHostCore
import LinkHostJSON

/// Helpers shared by the matcher's semantic tests.
enum MatchFixture {
    static let app = "ABCDE12345.com.example.app"
    static let domain = "example.com"

    /// A document whose only detail lists `app` with `components` (JSON text).
    static func components(_ components: String, extra: String = "", detailExtra: String = "") -> String {
        #"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":\#(components)\#(detailExtra)}]\#(extra)}}"#
    }

    static func decide(_ json: String, _ url: String, app: String = app, domain: String = domain) throws -> MatchResult {
        try AASAMatcher(json: json).match(url: url, appID: app, domain: domain)
    }
}

@Suite("Match: defaults hierarchy")
struct MatchDefaultsTests {
    static let document = MatchFixture.components(
        #"[{"/":"/Rule/*","caseSensitive":false},{"/":"/Detail/*"},{"/":"/space/a b"}]"#,
        extra: #","defaults":{"caseSensitive":false,"percentEncoded":false}"#,
        detailExtra: #","defaults":{"caseSensitive":true}"#
    )

    @Test("each level overrides the one above it, a silent level keeps the outer value", arguments: [
        ("https://example.com/rule/1", MatchDecision.match),
        ("https://example.com/detail/1", .noMatch),
        ("https://example.com/Detail/1", .match),
        ("https://example.com/space/a%20b", .match),
        ("https://example.com/SPACE/a%20b", .noMatch),
    ])
    func hierarchy(url: String, expected: MatchDecision) throws {
        #expect(try MatchFixture.decide(Self.document, url).decision == expected)
    }

    @Test("percentEncoded false set for the whole domain decodes the URL for every rule")
    func domainLevelDecoding() throws {
        let json = MatchFixture.components(#"[{"/":"/a b"}]"#, extra: #","defaults":{"percentEncoded":false}"#)
        #expect(try MatchFixture.decide(json, "https://example.com/a%20b").decision == .match)
        let encoded = MatchFixture.components(#"[{"/":"/a b"}]"#)
        #expect(try MatchFixture.decide(encoded, "https://example.com/a%20b").decision == .noMatch)
    }

    @Test("numbers count as booleans; a string says nothing and the outer level holds")
    func flagTypes() throws {
        let number = MatchFixture.components(#"[{"/":"/A","caseSensitive":0}]"#)
        #expect(try MatchFixture.decide(number, "https://example.com/a").decision == .match)
        let text = MatchFixture.components(#"[{"/":"/A","caseSensitive":"false"}]"#, extra: #","defaults":{"caseSensitive":true}"#)
        #expect(try MatchFixture.decide(text, "https://example.com/a").decision == .noMatch)
    }

    @Test("caseSensitive false folds hex digits of escapes too, since they are just letters to the matcher")
    func hexCase() throws {
        let json = MatchFixture.components(#"[{"/":"/caf%C3%A9","caseSensitive":false}]"#)
        #expect(try MatchFixture.decide(json, "https://example.com/caf%c3%a9").decision == .match)
    }
}

@Suite("Match: substitution variables in documents")
struct MatchSubstitutionTests {
    static let document = MatchFixture.components(
        #"[{"/":"/$(lang)_$(region)/$(food)/"}]"#,
        extra: #","substitutionVariables":{"food":["burrito","pizza","sushi","samosa"],"bad":"pizza"}"#
    )

    @Test("Apple's food example", arguments: [
        ("https://example.com/en_US/pizza/", MatchDecision.match),
        ("https://example.com/fr_CA/samosa", .match),
        ("https://example.com/en_US/tacos/", .noMatch),
        ("https://example.com/en_US/pizza/extra", .noMatch),
        ("https://example.com/en-US/pizza/", .noMatch),
    ])
    func food(url: String, expected: MatchDecision) throws {
        #expect(try MatchFixture.decide(Self.document, url).decision == expected)
    }

    @Test("a variable whose value is not an array is not defined")
    func nonArrayVariable() throws {
        let json = MatchFixture.components(#"[{"/":"/$(bad)"}]"#, extra: #","substitutionVariables":{"bad":"pizza"}"#)
        #expect(try MatchFixture.decide(json, "https://example.com/pizza").decision == .noMatch)
        #expect(SubstitutionVariables(json: try JSONParser.parse(#"{"a":["x",1,"y"],"b":"z"}"#)).custom == ["a": ["x", "y"]])
    }
}

@Suite("Match: query, fragment and rule order")
struct MatchComponentTests {
    @Test("every occurrence of a named query item must match; a missing one reads as empty", arguments: [
        (#"{"id":"42"}"#, "?id=42", MatchDecision.match),
        (#"{"id":"42"}"#, "?id=42&id=7", .noMatch),
        (#"{"id":"?*"}"#, "?id=42&id=7", .match),
        (#"{"id":""}"#, "", .match),
        (#"{"id":"?*"}"#, "?other=1", .noMatch),
        (#"{"a":"1","b":"2"}"#, "?b=2&a=1&c=3", .match),
        (#"{"a":"1","b":"2"}"#, "?a=1", .noMatch),
        (#"{"A":"1"}"#, "?a=1", .noMatch),
        (#"{"q":"a b"}"#, "?q=a%20b", .noMatch),
        (#"{}"#, "?anything", .match),
    ])
    func queryDictionary(query: String, urlQuery: String, expected: MatchDecision) throws {
        let json = MatchFixture.components(#"[{"/":"/x","?":\#(query)}]"#)
        #expect(try MatchFixture.decide(json, "https://example.com/x\(urlQuery)").decision == expected)
    }

    @Test("decoded query items are split first, so an encoded & stays inside a value")
    func decodedItems() throws {
        let json = MatchFixture.components(#"[{"?":{"q":"a&b"},"percentEncoded":false}]"#)
        #expect(try MatchFixture.decide(json, "https://example.com/?q=a%26b").decision == .match)
        #expect(try MatchFixture.decide(json, "https://example.com/?q=a&b").decision == .noMatch)
    }

    @Test("a non-string anywhere in a query dictionary drops the dictionary, not the rest of the rule")
    func ignoredDictionary() throws {
        let json = MatchFixture.components(#"[{"/":"/x","?":{"a":"1","b":null}}]"#)
        #expect(try MatchFixture.decide(json, "https://example.com/x?a=2").decision == .match)
        #expect(try MatchFixture.decide(json, "https://example.com/y?a=1").decision == .noMatch)
    }

    @Test("fragments: absent reads as empty, decoding follows percentEncoded")
    func fragments() throws {
        let star = MatchFixture.components(##"[{"#":"*"}]"##)
        #expect(try MatchFixture.decide(star, "https://example.com/x").decision == .match)
        let decoded = MatchFixture.components(##"[{"#":"a b","percentEncoded":false}]"##)
        #expect(try MatchFixture.decide(decoded, "https://example.com/x#a%20b").decision == .match)
        #expect(try MatchFixture.decide(decoded, "https://example.com/x#a%2").decision == .noMatch)
    }

    @Test("an undecodable component fails its rule rather than matching by accident")
    func undecodable() throws {
        let json = MatchFixture.components(#"[{"/":"*","percentEncoded":false,"exclude":true},{"/":"*"}]"#)
        let result = try MatchFixture.decide(json, "https://example.com/%FF")
        #expect(result.decision == .match)
        #expect(result.rule?.index == 1)
    }

    @Test("the deciding rule is named by detail, position and JSON")
    func reference() throws {
        let json = #"{"applinks":{"details":[{"appIDs":["OTHER.app"],"components":[{"/":"*"}]},"#
            + #"{"appID":"\#(MatchFixture.app)","components":[{"/":"/a"},{"/":"/call/?*","comment":"calls"}]}]}}"#
        let result = try MatchFixture.decide(json, "https://example.com/call/abc")
        #expect(result.decision == .match)
        #expect(result.rule?.detailIndex == 1)
        #expect(result.rule?.source == .components)
        #expect(result.rule?.index == 1)
        #expect(result.rule?.json == (try JSONParser.parse(#"{"/":"/call/?*","comment":"calls"}"#)))
        #expect(result.rule?.label == "details[1].components[1]")
        #expect(result.checks.map(\.component) == [.path])
    }

    @Test("later details for the same app are read when earlier ones decide nothing; an exclusion stops everything")
    func acrossDetails() throws {
        let json = #"{"applinks":{"details":[{"appIDs":["\#(MatchFixture.app)"],"components":[{"/":"/private/*","exclude":true}]},"#
            + #"{"appIDs":["\#(MatchFixture.app)"],"components":[{"/":"*"}]}]}}"#
        let open = try MatchFixture.decide(json, "https://example.com/public")
        #expect(open.decision == .match)
        #expect(open.rule?.detailIndex == 1)
        let closed = try MatchFixture.decide(json, "https://example.com/private/x")
        #expect(closed.decision == .exclude)
        #expect(closed.rule?.detailIndex == 0)
    }

    @Test("a rule with no component matches every URL; a non-string component is left unconstrained")
    func emptyRule() throws {
        #expect(try MatchFixture.decide(MatchFixture.components(#"[{"comment":"all"}]"#), "https://example.com/any?x#y").decision == .match)
        #expect(try MatchFixture.decide(MatchFixture.components(#"[{"/":5}]"#), "https://example.com/any").decision == .match)
        #expect(try MatchFixture.decide(MatchFixture.components(#"[{"exclude":true}]"#), "https://example.com/").decision == .exclude)
    }
}

@Suite("Match: legacy forms")
struct MatchLegacyTests {
    static let paths = #"{"applinks":{"apps":[],"details":[{"appID":"\#(MatchFixture.app)","paths":["NOT /wwdc/internal/*","/wwdc/*","/videos/20??/*"]}]}}"#

    @Test("paths: NOT excludes, first match wins, only the path is read", arguments: [
        ("https://example.com/wwdc/internal/notes", MatchDecision.exclude, 0),
        ("https://example.com/wwdc/2015?x=1#y", .match, 1),
        ("https://example.com/videos/2019/a", .match, 2),
        ("https://example.com/videos/201/a", .noMatch, -1),
    ])
    func paths(url: String, expected: MatchDecision, index: Int) throws {
        let result = try MatchFixture.decide(Self.paths, url)
        #expect(result.decision == expected)
        #expect(result.rule?.index ?? -1 == index)
        if let rule = result.rule { #expect(rule.source == .paths) }
    }

    @Test("details as a dictionary keyed by app ID")
    func dictionaryForm() throws {
        let json = #"{"applinks":{"apps":[],"details":{"OTHER.app":{"paths":["*"]},"\#(MatchFixture.app)":{"paths":["/wwdc/news/"]}}}}"#
        let result = try MatchFixture.decide(json, "https://example.com/wwdc/news")
        #expect(result.decision == .match)
        #expect(result.rule?.detailKey == MatchFixture.app)
        #expect(result.rule?.label == #"details["ABCDE12345.com.example.app"].paths[0]"#)
        #expect(try MatchFixture.decide(json, "https://example.com/other").decision == .noMatch)
        #expect(try MatchFixture.decide(json, "https://example.com/other", app: "OTHER.app").decision == .match)
    }

    @Test("components win over paths in the same detail")
    func componentsWin() throws {
        let json = #"{"applinks":{"details":[{"appIDs":["\#(MatchFixture.app)"],"paths":["*"],"components":[{"/":"/only"}]}]}}"#
        #expect(try MatchFixture.decide(json, "https://example.com/only").decision == .match)
        #expect(try MatchFixture.decide(json, "https://example.com/else").decision == .noMatch)
    }

    @Test("appID and appIDs both name apps of a detail")
    func appIDs() throws {
        let json = #"{"applinks":{"details":[{"appID":"A.one","appIDs":["B.two"],"components":[{"/":"*"}]}]}}"#
        #expect(try MatchFixture.decide(json, "https://example.com/x", app: "A.one").decision == .match)
        #expect(try MatchFixture.decide(json, "https://example.com/x", app: "B.two").decision == .match)
        #expect(try MatchFixture.decide(json, "https://example.com/x", app: "b.two").decision == .noMatch)
    }
}
