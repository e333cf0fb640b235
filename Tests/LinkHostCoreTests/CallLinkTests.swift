import Testing
import CallLinks
@testable import LinkHostCore
import LinkHostTestSupport

@Suite("Call links of a config")
struct CallLinkTests {
    /// The call links of a config whose `callLinks` section is `json`.
    static func links(_ json: String) throws -> CallLinkMatcher {
        try Fixtures.config(try Fixtures.validConfig(setting: "callLinks", to: json)).defaultSite.callLinks.links
    }

    static let shorthand = #"{"paths": ["call", "meet"], "defaultType": "default"}"#

    @Test("valid links of both shorthand shapes", arguments: [
        ("/call/abc123", nil, "abc123", "default"),
        ("/call/abc123", "video", "abc123", "video"),
        ("/call/abc123/", "audio_room", "abc123", "audio_room"),
        ("/meet/A-b_C", "", "A-b_C", "default"),
        ("/call/livestream:xyz", nil, "xyz", "livestream"),
        ("/call/livestream:xyz", "ignored", "xyz", "livestream"),
        ("/call/" + String(repeating: "a", count: 64), nil, String(repeating: "a", count: 64), "default"),
    ] as [(String, String?, String, String)])
    func valid(path: String, type: String?, id: String, callType: String) throws {
        let match = try Self.links(Self.shorthand).match(path: path.utf8, query: { $0 == "type" ? type : nil })
        #expect(match?.link == CallLink(callID: id, callType: callType))
    }

    @Test("invalid links and other paths are no call", arguments: [
        ("/call/", nil), ("/call", nil), ("/call//", nil), ("/call/abc/def", nil), ("/call/abc//", nil),
        ("/call/" + String(repeating: "a", count: 65), nil), ("/call/a%2Fb", nil), ("/call/a%00", nil), ("/call/%2e%2e", nil),
        ("/call/..", nil), ("/call/a.b", nil), ("/call/<script>", nil), ("/call/abc", "<script>"), ("/call/abc", "a%0d%0aSet-Cookie:x"),
        ("/call/abc", String(repeating: "t", count: 65)), ("/call/:abc", nil), ("/call/video:", nil), ("/call/a:b:c", nil),
        ("/call/caf\u{e9}", nil), ("/call/abc\\", nil),
        ("/", nil), ("/calls/abc", nil), ("/Call/abc", nil), ("/x/call/abc", nil), ("call/abc", nil), ("", nil),
    ] as [(String, String?)])
    func invalid(path: String, type: String?) throws {
        #expect(try Self.links(Self.shorthand).match(path: path.utf8, query: { $0 == "type" ? type : nil }) == nil)
    }

    @Test("a paths entry of several segments stands for its two shapes under that prefix")
    func multiSegmentPrefix() throws {
        let links = try Self.links(#"{"paths": ["video/demos/join"]}"#)
        #expect(links.templates.map(\.text) == ["/video/demos/join/{callId}?type={callType}", "/video/demos/join/{callType}:{callId}"])
        #expect(links.match(pathAndQuery: "/video/demos/join/abc?type=audio")?.link == CallLink(callID: "abc", callType: "audio"))
    }

    @Test("links and paths together are refused, naming both")
    func linksAndPaths() throws {
        let text = try Fixtures.validConfig(setting: "callLinks", to: #"{"paths": ["call"], "links": ["/join/{callId}"]}"#)
        #expect(try Fixtures.diagnostics(text).contains { $0.code == .lh115 && $0.path == "callLinks.paths" && $0.message.contains("beside \"links\"") })
    }

    @Test("URL templates fill call values and reject unknown placeholders")
    func urlTemplates() {
        #expect(URLTemplates.fill("https://w.example/{path}/{callId}?t={callType}", callID: "a1", callType: "video", path: "call") == "https://w.example/call/a1?t=video")
        #expect(URLTemplates.webJoinRule("https://w.example/{callid}") != nil)
        #expect(URLTemplates.webJoinRule("javascript:alert(1)") != nil)
        #expect(URLTemplates.webJoinRule("https://w.example/\"{callId}") != nil)
        #expect(URLTemplates.webJoinRule("https://w.example/j/{callId}") == nil)
        #expect(URLTemplates.openInAppRule("https://w.example/{callId}") != nil)
        #expect(URLTemplates.openInAppRule("examplevideo://call/{callId}") == nil)
        #expect(URLTemplates.originRule("https://links.example.com") == nil)
        #expect(URLTemplates.originRule("https://links.example.com/") != nil)
        #expect(URLTemplates.originRule("ftp://links.example.com") != nil)
    }
}
