import Testing
import CallLinks

@Suite("QR-code paths of call links")
struct CallLinkQRCodeTests {
    static func matcher(_ templates: [String]) throws -> CallLinkMatcher {
        CallLinkMatcher(templates: try templates.map { text throws(CallLinkTemplateError) in try CallLinkTemplate(text) }, defaultType: "default")
    }

    static let templates = ["/call/{callId}?type={callType}", "/call/{callType}:{callId}", "/join?call_id={callId}&call_type={callType}", "/v/demos/{callId}"]

    @Test("every link shape has its image at its path + /qr.svg, query kept", arguments: [
        ("/call/abc/qr.svg?type=video", CallLink(callID: "abc", callType: "video")),
        ("/call/abc/qr.svg", CallLink(callID: "abc", callType: "default")),
        ("/call/video:abc/qr.svg", CallLink(callID: "abc", callType: "video")),
        ("/join/qr.svg?call_id=abc&call_type=audio", CallLink(callID: "abc", callType: "audio")),
        ("/v/demos/x-1/qr.svg", CallLink(callID: "x-1", callType: "default")),
    ])
    func images(pathAndQuery: String, expected: CallLink) throws {
        let matcher = try Self.matcher(Self.templates)
        let (path, query) = Self.split(pathAndQuery)
        #expect(matcher.matchQRCode(path: path.utf8, query: { query[$0] })?.link == expected)
        // The page of the same link is not an image, and the image is not a page.
        #expect(matcher.match(path: path.utf8, query: { query[$0] }) == nil)
    }

    @Test("the image is checked exactly as the page is", arguments: [
        "/call/qr.svg", "/call/abc//qr.svg", "/call/a%2Fb/qr.svg?type=video", "/call/abc/qr.svg?type=%3Cx%3E", "/join/qr.svg",
        "/join/qr.svg?call_id=", "/call/abc/qr.svgx", "/call/abc/QR.svg", "/qr.svg", "/call/abc/def/qr.svg", "/v/demos/qr.svg",
    ])
    func refused(pathAndQuery: String) throws {
        let (path, query) = Self.split(pathAndQuery)
        #expect(try Self.matcher(Self.templates).matchQRCode(path: path.utf8, query: { query[$0] }) == nil)
    }

    @Test("the canonical image path sits beside the canonical link", arguments: [
        (["/call/{callId}?type={callType}"], CallLink(callID: "abc", callType: "video"), "/call/abc/qr.svg?type=video"),
        (["/call/{callType}:{callId}"], CallLink(callID: "abc", callType: "video"), "/call/video:abc/qr.svg"),
        (["/join?call_id={callId}"], CallLink(callID: "abc", callType: "default"), "/join/qr.svg?call_id=abc"),
        (["/join/{callId}", "/join/{callType}:{callId}"], CallLink(callID: "abc", callType: "video"), "/join/video:abc/qr.svg"),
    ])
    func canonical(templates: [String], link: CallLink, expected: String) throws {
        let matcher = try Self.matcher(templates)
        #expect(matcher.canonicalQRCodePath(for: link) == expected)
        let (path, query) = Self.split(expected)
        #expect(matcher.matchQRCode(path: path.utf8, query: { query[$0] })?.link == link)
    }

    static func split(_ pathAndQuery: String) -> (String, [String: String]) {
        let parts = pathAndQuery.split(separator: "?", maxSplits: 1)
        return (String(parts[0]), parts.count > 1 ? QueryItems.firstValues(parts[1]) : [:])
    }
}
