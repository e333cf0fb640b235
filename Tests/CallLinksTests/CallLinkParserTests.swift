import Foundation
import Testing
import CallLinks

@Suite("CallLinkParser: links an app receives")
struct CallLinkParserTests {
    static let fiveShapes = [
        "/call/{callId}?type={callType}", "/join/{callType}:{callId}", "/join/{callId}",
        "/video/demos/join/{callId}", "/join?call_id={callId}&call_type={callType}",
    ]

    static func parser() throws -> CallLinkParser {
        try CallLinkParser(templates: fiveShapes, defaultType: "default", hosts: ["links.example.com", "*.calls.example.com"])
    }

    @Test("the parser of docs/app-side.md reads both of its shapes")
    func readmeExample() throws {
        let parser = try CallLinkParser(templates: ["/call/{callId}?type={callType}", "/call/{callType}:{callId}"], defaultType: "default", hosts: ["links.example.com"])
        #expect(parser.parse("https://links.example.com/call/abc?type=video") == CallLink(callID: "abc", callType: "video"))
        #expect(parser.parse("https://links.example.com/call/audio:abc") == CallLink(callID: "abc", callType: "audio"))
        #expect(parser.parse("https://links.example.com/call/abc") == CallLink(callID: "abc", callType: "default"))
        #expect(parser.templates.map(\.text) == ["/call/{callId}?type={callType}", "/call/{callType}:{callId}"])
        #expect(parser.defaultType == "default")
    }

    @Test("URLs through the five shapes", arguments: [
        ("https://links.example.com/call/abc123?type=video", CallLink(callID: "abc123", callType: "video")),
        ("https://links.example.com/call/abc123/?type=audio&utm=x#start", CallLink(callID: "abc123", callType: "audio")),
        ("https://links.example.com/join/livestream:abc", CallLink(callID: "abc", callType: "livestream")),
        ("https://links.example.com/join/abc", CallLink(callID: "abc", callType: "default")),
        ("https://links.example.com/video/demos/join/abc", CallLink(callID: "abc", callType: "default")),
        ("https://links.example.com/join?call_type=video&call_id=abc", CallLink(callID: "abc", callType: "video")),
        ("https://links.example.com/join/?call_id=abc", CallLink(callID: "abc", callType: "default")),
        ("https://LINKS.example.com./call/abc", CallLink(callID: "abc", callType: "default")),
        ("https://links.example.com:443/call/abc", CallLink(callID: "abc", callType: "default")),
        ("https://a.b.calls.example.com/call/abc", CallLink(callID: "abc", callType: "default")),
    ] as [(String, CallLink)])
    func calls(url: String, expected: CallLink) throws {
        #expect(try Self.parser().parse(url) == expected, "\(url)")
    }

    @Test("what is not a call link of these hosts and templates gives nil", arguments: [
        "https://links.example.com/call/", "https://links.example.com/call/a%62c", "https://links.example.com/join/abc/def",
        "https://links.example.com/join?call_id=", "https://links.example.com/joinx?call_id=abc",
        "https://other.example.com/call/abc", "https://calls.example.com/call/abc", "https://links.example.com.evil.example/call/abc",
        "http://links.example.com:443/call/abc", "examplevideo://call/abc", "https://links.example.com:8443/call/abc",
        "https://user@links.example.com/call/abc", "https://links.example.com/call/a bc", "//links.example.com/call/abc",
        "links.example.com/call/abc", "", "https://", "https://links.example.com:99999/call/abc",
    ])
    func notCalls(url: String) throws {
        #expect(try Self.parser().parse(url) == nil, "\(url)")
    }

    #if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    @Test("a Foundation URL is read as written, like the string")
    func foundationURL() throws {
        let parser = try Self.parser()
        for text in ["https://links.example.com/call/abc?type=video", "https://links.example.com/join/abc", "https://other.example.com/call/abc"] {
            let url = try #require(URL(string: text))
            #expect(parser.parse(url) == parser.parse(text), "\(text)")
        }
        #expect(parser.parse(try #require(URL(string: "https://links.example.com/call/abc?type=video"))) == CallLink(callID: "abc", callType: "video"))
    }
    #endif

    @Test("malformed input is refused with the config's words", arguments: [
        ([String](), "default", ["links.example.com"], "no link template"),
        (["/call"], "default", ["links.example.com"], "\"/call\" has no {callId}"),
        (["/call/{callId}", "/call/{callId}"], "default", ["links.example.com"], "\"/call/{callId}\" is listed twice"),
        (["/call/{callId}", "/call/{callId}?type={callType}"], "default", ["links.example.com"], "never decides: \"/call/{callId}\" before it"),
        (["/call/{callId}"], "no way", ["links.example.com"], "defaultType \"no way\" is not 1 to 64"),
        (["/call/{callId}"], "default", [String](), "no host"),
        (["/call/{callId}"], "default", ["https://links.example.com"], "is a URL"),
        (["/call/{callId}"], "default", ["links.example.com:443"], "has a port"),
    ] as [([String], String, [String], String)])
    func refused(templates: [String], defaultType: String, hosts: [String], words: String) {
        do {
            _ = try CallLinkParser(templates: templates, defaultType: defaultType, hosts: hosts)
            Issue.record("\(templates) \(defaultType) \(hosts) was accepted")
        } catch {
            #expect(error.description.contains(words), "\(error)")
        }
    }

    @Test("a template error is the very CallLinkTemplateError the template itself throws")
    func sameTemplateError() throws {
        var direct: CallLinkTemplateError?
        do { _ = try CallLinkTemplate("/call/x{callId}") } catch { direct = error }
        do {
            _ = try CallLinkParser(templates: ["/call/x{callId}"], hosts: ["links.example.com"])
            Issue.record("accepted")
        } catch {
            guard case .template(let text, let templateError) = error else { Issue.record("\(error)"); return }
            #expect(text == "/call/x{callId}")
            #expect(templateError == direct)
        }
    }

    @Test("the parser matches with the server's matcher: same call for the same path and query")
    func sameMatcher() throws {
        let parser = try Self.parser()
        let matcher = CallLinkMatcher(templates: try Self.fiveShapes.map { try CallLinkTemplate($0) }, defaultType: "default")
        #expect(parser.matcher == matcher)
        for pathAndQuery in ["/call/abc?type=video", "/join/abc", "/join?call_id=x&call_type=", "/nope"] {
            #expect(parser.parse("https://links.example.com" + pathAndQuery) == matcher.match(pathAndQuery: pathAndQuery)?.link)
        }
    }
}
