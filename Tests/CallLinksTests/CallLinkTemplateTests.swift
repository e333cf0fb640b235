import Testing
import CallLinks

@Suite("Call-link templates")
struct CallLinkTemplateTests {
    /// The five shapes Stream's SDK docs and apps use, one per row: template, link, expected call or nil.
    static let shapes: [(template: String, link: String, expected: CallLink?)] = [
        ("/call/{callId}?type={callType}", "/call/abc123?type=video", CallLink(callID: "abc123", callType: "video")),
        ("/call/{callId}?type={callType}", "/call/abc123", CallLink(callID: "abc123", callType: "default")),
        ("/call/{callId}?type={callType}", "/call/abc123?type=", CallLink(callID: "abc123", callType: "default")),
        ("/call/{callId}?type={callType}", "/call/abc123/?type=audio&utm=x", CallLink(callID: "abc123", callType: "audio")),
        ("/call/{callId}?type={callType}", "/call/abc123?type=vid%65o", nil),
        ("/join/{callType}:{callId}", "/join/livestream:abc", CallLink(callID: "abc", callType: "livestream")),
        ("/join/{callType}:{callId}", "/join/:abc", nil),
        ("/join/{callType}:{callId}", "/join/abc", nil),
        ("/join/{callId}", "/join/abc", CallLink(callID: "abc", callType: "default")),
        ("/join/{callId}", "/join/abc?type=video", CallLink(callID: "abc", callType: "default")),
        ("/join/{callId}", "/join/abc/def", nil),
        ("/join/{callId}", "/join", nil),
        ("/video/demos/join/{callId}", "/video/demos/join/abc", CallLink(callID: "abc", callType: "default")),
        ("/video/demos/join/{callId}", "/video/demos/abc", nil),
        ("/video/demos/join/{callId}", "/video/demos/join/a%2Fb", nil),
        ("/join?call_id={callId}&call_type={callType}", "/join?call_id=abc&call_type=video", CallLink(callID: "abc", callType: "video")),
        ("/join?call_id={callId}&call_type={callType}", "/join?call_type=video&call_id=abc", CallLink(callID: "abc", callType: "video")),
        ("/join?call_id={callId}&call_type={callType}", "/join/?call_id=abc", CallLink(callID: "abc", callType: "default")),
        ("/join?call_id={callId}&call_type={callType}", "/join", nil),
        ("/join?call_id={callId}&call_type={callType}", "/join?call_id=", nil),
        ("/join?call_id={callId}&call_type={callType}", "/join?call_id=abc&call_type=no%20way", nil),
        ("/join?call_id={callId}&call_type={callType}", "/joinx?call_id=abc", nil),
    ]

    @Test("the five link shapes match what they should and nothing else", arguments: 0..<shapes.count)
    func shape(row: Int) throws {
        let (text, link, expected) = Self.shapes[row]
        let template = try CallLinkTemplate(text)
        let (path, query) = Self.split(link)
        #expect(template.match(path: Array(path.utf8), query: { query[$0] }, defaultType: "default") == expected, "\(text) on \(link)")
    }

    @Test("filling a template gives back the link it matches", arguments: ["/call/{callId}?type={callType}", "/join/{callType}:{callId}", "/video/demos/join/{callId}", "/join?call_id={callId}&call_type={callType}"])
    func roundTrip(text: String) throws {
        let template = try CallLinkTemplate(text)
        let filled = template.fill(callID: "a1_b-2", callType: "audio")
        let (path, query) = Self.split(filled)
        let type = template.bindsCallType ? "audio" : "default"
        #expect(template.match(path: Array(path.utf8), query: { query[$0] }, defaultType: "default") == CallLink(callID: "a1_b-2", callType: type))
    }

    @Test("malformed templates are refused with what is wrong", arguments: [
        ("call/{callId}", "does not start with \"/\""),
        ("/call", "has no {callId}"),
        ("/", "has no path segment"),
        ("/call//{callId}", "has an empty path segment"),
        ("/{callId}/{callId}", "more than one placeholder segment"),
        ("/call/{callId}?id={callId}", "carries {callId} more than once"),
        ("/call/{callType}:{callId}?type={callType}", "carries {callType} more than once"),
        ("/call/x{callId}", "a placeholder fills a whole segment"),
        ("/call/{callID}", "did you mean \"{callId}\"?"),
        ("/call/{call_id}", "did you mean \"{callId}\"?"),
        ("/call/{calltype}:{callid}", "did you mean \"{callType}:{callId}\"?"),
        ("/call/{calId}", "did you mean \"{callId}\"?"),
        ("/call/{meeting}", "a placeholder fills a whole segment"),
        ("/call/{callId}?type={calltype}", "did you mean \"type={callType}\"?"),
        ("/ca*ll/{callId}", "has \"*\" in the segment"),
        ("/ca ll/{callId}", "has a space in the segment"),
        ("/c%41ll/{callId}", "has \"%\" in the segment"),
        ("/call/{callId}?type=video", "write name={callId} or name={callType}"),
        ("/call/{callId}?t e={callType}", "query item name"),
        ("/call/{callId}?t={callType}&t={callType}", "names the query item \"t\" twice"),
        ("/call/{callId}#x", "has a fragment"),
        ("/.well-known/{callId}", "reserved for the association files"),
        ("/call/../{callId}", "has a \"..\" segment"),
    ])
    func refused(text: String, expected: String) {
        #expect {
            _ = try CallLinkTemplate(text)
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    @Test("the first template is canonical, unless it cannot carry the call's type")
    func canonical() throws {
        let matcher = CallLinkMatcher(templates: try ["/join/{callId}", "/call/{callId}?type={callType}"].map(CallLinkTemplate.init), defaultType: "default")
        #expect(matcher.canonicalPath(for: CallLink(callID: "abc", callType: "default")) == "/join/abc")
        #expect(matcher.canonicalPath(for: CallLink(callID: "abc", callType: "audio")) == "/call/abc?type=audio")
        #expect(matcher.queryItemNames == ["type"])
        #expect(matcher.match(path: Array("/call/x?".utf8.dropLast()), query: { $0 == "type" ? "audio" : nil })?.template == 1)
    }

    /// The path and the first value of each query item of a link, raw.
    static func split(_ link: String) -> (String, [String: String]) {
        let parts = link.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]), parts.count > 1 ? QueryItems.firstValues(parts[1]) : [:])
    }
}
