import Testing
@testable import LinkHostCore

@Suite("Call links")
struct CallLinkTests {
    static let settings = CallLinkSettings(paths: ["call", "meet"], defaultType: "default")

    @Test("valid links of both shapes", arguments: [
        ("/call/abc123", nil, "call", "abc123", "default"),
        ("/call/abc123", "video", "call", "abc123", "video"),
        ("/call/abc123/", "audio_room", "call", "abc123", "audio_room"),
        ("/meet/A-b_C", "", "meet", "A-b_C", "default"),
        ("/call/livestream:xyz", nil, "call", "xyz", "livestream"),
        ("/call/livestream:xyz", "ignored", "call", "xyz", "livestream"),
        ("/call/" + String(repeating: "a", count: 64), nil, "call", String(repeating: "a", count: 64), "default"),
    ] as [(String, String?, String, String, String)])
    func valid(path: String, type: String?, prefix: String, id: String, callType: String) {
        #expect(CallLink.match(path: path, type: type, settings: Self.settings) == .valid(CallLink(path: prefix, callID: id, callType: callType)))
    }

    @Test("invalid links under a call path are refused", arguments: [
        ("/call/", nil), ("/call", nil), ("/call//", nil), ("/call/abc/def", nil), ("/call/abc//", nil),
        ("/call/" + String(repeating: "a", count: 65), nil), ("/call/a%2Fb", nil), ("/call/a%00", nil), ("/call/%2e%2e", nil),
        ("/call/..", nil), ("/call/a.b", nil), ("/call/<script>", nil), ("/call/abc", "<script>"), ("/call/abc", "a%0d%0aSet-Cookie:x"),
        ("/call/abc", String(repeating: "t", count: 65)), ("/call/:abc", nil), ("/call/video:", nil), ("/call/a:b:c", nil),
        ("/call/caf\u{e9}", nil), ("/call/abc\\", nil),
    ] as [(String, String?)])
    func invalid(path: String, type: String?) {
        #expect(CallLink.match(path: path, type: type, settings: Self.settings) == .invalid)
    }

    @Test("other paths are not call links", arguments: ["/", "/calls/abc", "/Call/abc", "/x/call/abc", "call/abc", ""])
    func notCallLinks(path: String) {
        #expect(CallLink.match(path: path, type: nil, settings: Self.settings) == .notCallLink)
    }

    @Test("platforms from user agents", arguments: [
        (nil, Platform.other),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15", Platform.ios),
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile", Platform.android),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15", Platform.desktop),
        ("Slackbot-LinkExpanding 1.0", Platform.other),
        ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", Platform.other),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36", Platform.desktop),
        ("curl/8.0", Platform.other),
    ] as [(String?, Platform)])
    func platforms(agent: String?, platform: Platform) {
        #expect(Platform(userAgent: agent) == platform)
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
