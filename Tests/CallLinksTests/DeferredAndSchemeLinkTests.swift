import Testing
import CallLinks

@Suite("CallLinks: the custom-scheme form, the deferred link and the login hold")
struct DeferredAndSchemeLinkTests {
    static func parser(schemes: [String] = ["examplevideo"]) throws -> CallLinkParser {
        try CallLinkParser(templates: CallLinkParserTests.fiveShapes, defaultType: "default", hosts: ["links.example.com"], schemes: schemes)
    }

    @Test("the scheme form of every template reads as its https form does", arguments: [
        ("call/Bq7-xK2f9Zt?type=video", CallLink(callID: "Bq7-xK2f9Zt", callType: "video")),
        ("join/livestream:abc", CallLink(callID: "abc", callType: "livestream")),
        ("join/abc", CallLink(callID: "abc", callType: "default")),
        ("video/demos/join/abc", CallLink(callID: "abc", callType: "default")),
        ("join?call_id=abc&call_type=video", CallLink(callID: "abc", callType: "video")),
    ] as [(String, CallLink)])
    func schemeForm(rest: String, expected: CallLink) throws {
        let parser = try Self.parser()
        #expect(parser.parse("https://links.example.com/" + rest) == expected)
        #expect(parser.parse("examplevideo://" + rest) == expected)
        #expect(parser.parse("ExampleVideo://" + rest + "#x") == expected, "the scheme in any case, the fragment ignored")
        #expect(try Self.parser(schemes: []).parse("examplevideo://" + rest) == nil, "without schemes only https")
        #expect(parser.parse("othervideo://" + rest) == nil)
    }

    @Test("scheme-form junk is refused", arguments: [
        "examplevideo:call/abc", "examplevideo:///call/abc", "examplevideo://call/a b", "examplevideo://", "examplevideo://call/",
        "examplevideo://links.example.com/call/abc", "examplevideo://call/abc/extra", "examplevideo://call/<script>",
    ])
    func schemeJunk(url: String) throws {
        #expect(try Self.parser().parse(url) == nil, "\(url)")
    }

    @Test("a scheme that is not a custom one is refused when the parser is made")
    func badSchemes() {
        for scheme in ["https", "HTTP", "9abc", "exa mple", ""] {
            #expect(throws: CallLinkParserError.scheme(scheme)) { try Self.parser(schemes: [scheme]) }
        }
    }

    @Test("the deferred link: own hosts and templates, canonical https, once, fresh")
    func deferred() throws {
        let taker = DeferredCallLink(parser: try Self.parser())
        let link = "https://links.example.com/call/abc?type=video"
        #expect(taker.take(link, secondsSinceInstall: 90, alreadyTaken: false) == CallLink(callID: "abc", callType: "video"))
        #expect(taker.take(link, secondsSinceInstall: 0, alreadyTaken: false) != nil)
        #expect(taker.take(link, secondsSinceInstall: 3_600, alreadyTaken: false) != nil)
        #expect(taker.take(link, secondsSinceInstall: 3_601, alreadyTaken: false) == nil, "stale")
        #expect(taker.take(link, secondsSinceInstall: -5, alreadyTaken: false) == nil, "a clock set back")
        #expect(taker.take(link, secondsSinceInstall: 90, alreadyTaken: true) == nil, "only once")
        #expect(DeferredCallLink(parser: try Self.parser(), maxAge: 60).take(link, secondsSinceInstall: 90, alreadyTaken: false) == nil)
    }

    @Test("the deferred link refuses whatever else a clipboard holds", arguments: [
        nil, "", "hello", "https://evil.example/call/abc?type=video", "https://links.example.com.evil.example/call/abc",
        "http://links.example.com/call/abc", "examplevideo://call/abc?type=video", " https://links.example.com/call/abc",
        "https://links.example.com/call/abc\n", "see https://links.example.com/call/abc", "https://links.example.com/other/abc",
        "https://links.example.com/call/abc?type=" + String(repeating: "v", count: 3_000),
    ] as [String?])
    func deferredJunk(text: String?) throws {
        #expect(DeferredCallLink(parser: try Self.parser()).take(text, secondsSinceInstall: 10, alreadyTaken: false) == nil, "\(text ?? "nil")")
    }

    @Test("the login hold keeps the latest link until ready, hands it over once, and holds again after logout")
    func hold() {
        let first = CallLink(callID: "one", callType: "video"), second = CallLink(callID: "two", callType: "audio")
        var hold = CallLinkHold()
        #expect(hold.receive(first) == nil)
        #expect(hold.receive(second) == nil)
        #expect(hold.held == second)
        #expect(hold.ready() == second)
        #expect(hold.ready() == nil, "once")
        #expect(hold.receive(first) == first, "ready: straight through")
        #expect(hold.held == nil)
        hold.notReady()
        #expect(hold.receive(first) == nil && hold.held == first)
        var fresh = CallLinkHold()
        #expect(fresh.ready() == nil)
    }
}
