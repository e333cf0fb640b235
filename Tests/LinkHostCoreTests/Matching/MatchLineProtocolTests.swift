import Testing
@testable import LinkHostCore
import LinkHostJSON

@Suite("Match: line protocol and explanations")
struct MatchLineProtocolTests {
    static let aasa = ##"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"#":"no_universal_links","exclude":true},{"/":"/buy/*"}]}]}}"##

    static func line(id: String = "7", aasa: String = aasa, url: String = "https://example.com/buy/42", extra: String = "") -> String {
        #"{"id":\#(id),"aasa":\#(aasa),"domain":"example.com","appId":"ABCDE12345.com.example.app","url":"\#(url)"\#(extra)}"#
    }

    @Test("a case is answered with its id and decision, byte for byte")
    func answers() {
        #expect(MatchLineProtocol.respond(toLine: Self.line()) == #"{"id":7,"decision":"match"}"#)
        #expect(MatchLineProtocol.respond(toLine: Self.line(url: "https://example.com/buy/42#no_universal_links")) == #"{"id":7,"decision":"exclude"}"#)
        #expect(MatchLineProtocol.respond(toLine: Self.line(id: #""a""#, url: "https://example.com/sell")) == #"{"id":"a","decision":"no_match"}"#)
    }

    @Test("an aasa that is JSON but no object is decided: iOS finds no universal links in it", arguments: ["[]", "null", "1", #"{"applinks":[]}"#])
    func nonObjectDocument(aasa: String) {
        #expect(MatchLineProtocol.respond(toLine: Self.line(aasa: aasa)) == #"{"id":7,"decision":"no_match"}"#)
    }

    @Test("aasa may be given as the document's text")
    func aasaAsText() {
        let text = JSONWriter.string(.string(Self.aasa), style: .compact)
        #expect(MatchLineProtocol.respond(toLine: Self.line(aasa: text)) == #"{"id":7,"decision":"match"}"#)
    }

    @Test("a line that cannot be decided gets an error line naming the problem", arguments: [
        ("{not json", "null", "not JSON"),
        ("[1,2]", "null", "not a JSON object"),
        (#"{"aasa":{},"domain":"d","appId":"a","url":"u"}"#, "null", "missing \"id\""),
        (#"{"id":3,"domain":"d","appId":"a","url":"u"}"#, "3", "missing \"aasa\""),
        (#"{"id":3,"aasa":"{bad","domain":"d","appId":"a","url":"u"}"#, "3", "\"aasa\" is not JSON"),
        (#"{"id":3,"aasa":{},"appId":"a","url":"u"}"#, "3", "missing \"domain\""),
        (#"{"id":3,"aasa":{},"domain":"d","appId":1,"url":"u"}"#, "3", "\"appId\" is a number"),
        (#"{"id":3,"aasa":{},"domain":"d","appId":"a"}"#, "3", "missing \"url\""),
    ])
    func errors(line: String, id: String, message: String) throws {
        let answer = try JSONParser.parse(MatchLineProtocol.respond(toLine: line))
        #expect(answer.objectValue?["id"] == (try JSONParser.parse(id)))
        #expect(answer.objectValue?["decision"] == nil)
        let error = try #require(answer.objectValue?["error"]?.stringValue)
        #expect(error.contains(message), "\(error)")
    }

    @Test("many lines: one answer per case, blank lines skipped, a bad line fails alone")
    func manyLines() {
        let input = Self.line(id: "1") + "\r\n\n  \n{oops\n" + Self.line(id: "2", url: "https://example.com/x") + "\n"
        let lines = MatchLineProtocol.respond(toInput: input).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == #"{"id":1,"decision":"match"}"#)
        #expect(lines.dropFirst().first?.hasPrefix(#"{"id":null,"error":"#) == true)
        #expect(lines.last == #"{"id":2,"decision":"no_match"}"#)
    }

    @Test("explain:true adds the explanation")
    func explainFlag() throws {
        let answer = try JSONParser.parse(MatchLineProtocol.respond(toLine: Self.line(extra: #","explain":true"#)))
        let explanation = try #require(answer.objectValue?["explanation"]?.stringValue)
        #expect(explanation.hasPrefix("match: details[0].components[1]"))
    }

    @Test("explanations name the rule, its JSON and what it compared")
    func explanations() throws {
        let matcher = try AASAMatcher(json: MatchFixture.components(#"[{"/":"/call/?*"},{"/":"*","?":{"id":"*"},"caseSensitive":false}]"#))
        let app = MatchFixture.app
        let call = matcher.match(url: "https://example.com/call/abc", appID: app, domain: "example.com").explain()
        #expect(call.hasPrefix(#"match: details[0].components[0] {"/":"/call/?*"} matches: the path "/call/abc" matches "/call/?*""#), "\(call)")
        #expect(call.contains("query and fragment are unspecified"), "\(call)")
        let query = matcher.match(url: "https://example.com/x?id=1&id=2", appID: app, domain: "example.com").explain()
        #expect(query.contains(#"every query item "id" ("1", "2") matches "*" (ignoring case)"#), "\(query)")

        let excluded = try MatchFixture.decide(Self.aasa, "https://example.com/buy/1#no_universal_links").explain()
        #expect(excluded.hasPrefix("exclude: details[0].components[0]"), "\(excluded)")
        #expect(excluded.contains(#"the fragment "no_universal_links" matches "no_universal_links""#), "\(excluded)")
        #expect(excluded.contains("browser"), "\(excluded)")

        let none = try MatchFixture.decide(Self.aasa, "https://example.com/sell?a=1").explain()
        #expect(none == #"no_match: none of the 2 rules of details[0] matches: the URL has the path "/sell", the query "a=1" and no fragment; iOS opens it in the browser"#)
        let undefined = try MatchFixture.decide(MatchFixture.components(#"[{"/":"/$(nope)/*"}]"#), "https://example.com/a/b").explain()
        #expect(undefined.contains("Note: details[0].components[0]: the pattern uses $(nope)"), "\(undefined)")
        let legacy = try MatchFixture.decide(#"{"applinks":{"details":[{"appID":"\#(app)","paths":["/a/*"]}]}}"#, "https://example.com/a/b").explain()
        #expect(legacy == #"match: details[0].paths[0] "/a/*" matches: the path "/a/b" matches "/a/*" (a legacy paths entry reads only the path). iOS opens the URL in ABCDE12345.com.example.app"#, "\(legacy)")
        let stranger = try MatchFixture.decide(Self.aasa, "https://example.com/buy/1", app: "ZZZ.other").explain()
        #expect(stranger == #"no_match: no applinks detail lists the app ID "ZZZ.other""#)
        let services = try MatchFixture.decide(#"{"webcredentials":{"apps":["\#(app)"]}}"#, "https://example.com/").explain()
        #expect(services.contains("no applinks"))
    }
}
