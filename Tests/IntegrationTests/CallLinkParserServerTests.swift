import CallLinks
import Foundation
import Testing

/// The app's `CallLinkParser` and the server decide the same URLs alike: the same table goes over a real
/// socket to the real binary and through the parser.
@Suite("CallLinkParser and the server", .timeLimit(.minutes(1)))
struct CallLinkParserServerTests {
    static let templates = [
        "/call/{callId}?type={callType}", "/join/{callType}:{callId}", "/join/{callId}",
        "/video/demos/join/{callId}", "/join?call_id={callId}&call_type={callType}",
    ]

    /// Links an app may be handed, call links and near misses alike.
    static let urls = [
        "https://links.example.com/call/abc123?type=video",
        "https://links.example.com/call/abc123",
        "https://links.example.com/call/abc123/",
        "https://links.example.com/call/abc123?type=",
        "https://links.example.com/call/abc123?type=audio&type=video",
        "https://links.example.com/call/abc123?utm_source=mail&type=audio#join",
        "https://links.example.com/call/abc123?type=vid%65o",
        // Names are compared as written: libmicrohttpd's own lookup ignores case, the parser does not.
        "https://links.example.com/call/abc123?Type=video",
        "https://links.example.com/call/abc123?TYPE=audio&type=video",
        "https://links.example.com/join?CALL_ID=abc",
        "https://links.example.com/call/abc%31",
        "https://links.example.com/call/",
        "https://links.example.com/call",
        "https://links.example.com/call/a/b",
        "https://links.example.com/call/" + String(repeating: "a", count: 64),
        "https://links.example.com/call/" + String(repeating: "a", count: 65),
        "https://links.example.com/join/livestream:abc",
        "https://links.example.com/join/:abc",
        "https://links.example.com/join/abc",
        "https://links.example.com/join/abc/",
        "https://links.example.com/join/abc/def",
        "https://links.example.com/video/demos/join/abc_1-2",
        "https://links.example.com/video/demos/join/a%2Fb",
        "https://links.example.com/video/demos/abc",
        "https://links.example.com/join?call_id=abc&call_type=video",
        "https://links.example.com/join?call_type=video&call_id=abc",
        "https://links.example.com/join/?call_id=abc",
        "https://links.example.com/join?call_id=",
        "https://links.example.com/join?call_id",
        "https://links.example.com/join",
        "https://links.example.com/join?call_id=abc&call_type=no+way",
        "https://links.example.com/joinx?call_id=abc",
        "https://links.example.com/CALL/abc",
        "https://links.example.com/",
        "https://links.example.com/style.css",
    ]

    /// A config serving the five shapes with a page that prints the call it is for.
    static func site() throws -> SiteFixture {
        let site = try SiteFixture()
        try site.write("<!doctype html><title>t</title><p>{{callId}}|{{callType}}</p>\n", to: "parsed.html")
        try site.writeConfigText("""
        {
          "server": { "host": "127.0.0.1", "port": 0 },
          "apps": [ { "name": "Parser Test", "teamID": "ABCDE12345", "bundleID": "com.example.parser" } ],
          "callLinks": { "links": \(Self.templates.map { "\"\($0)\"" }.joined(separator: ", ").wrappedInBrackets), "template": "parsed.html", "pageCacheSize": 0, "baseURL": "https://links.example.com" },
          "static": { "root": "public" }
        }
        """)
        return site
    }

    @Test("every URL of the table: the server's page and the parser's call are the same, or both say no call")
    func sameDecisions() async throws {
        let server = try await LinkHostProcess.start(try Self.site())
        let parser = try CallLinkParser(templates: Self.templates, defaultType: "default", hosts: ["links.example.com"])
        // The custom-scheme form of the same link (what the page's scheme button opens) reads the same.
        let schemeParser = try CallLinkParser(templates: Self.templates, defaultType: "default", hosts: ["links.example.com"], schemes: ["examplevideo"])
        var calls = 0
        for url in Self.urls {
            let target = try #require(url.range(of: "links.example.com").map { String(url[$0.upperBound...]) })
            // Browsers never send the fragment.
            let request = String(target[..<(target.firstIndex(of: "#") ?? target.endIndex)])
            let response = try await server.request("GET", request.isEmpty ? "/" : request, headers: [("Host", "links.example.com")])
            var served: CallLink?
            if response.status == 200, let range = response.text.range(of: "<p>"), let end = response.text.range(of: "</p>", range: range.upperBound..<response.text.endIndex) {
                let parts = response.text[range.upperBound..<end.lowerBound].split(separator: "|", omittingEmptySubsequences: false)
                served = CallLink(callID: String(parts[0]), callType: String(parts[1]))
            }
            if request.hasPrefix("/"), !request.hasPrefix("//") {
                let schemeForm = "examplevideo://" + request.dropFirst()
                #expect(schemeParser.parse(schemeForm) == served, "\(schemeForm): server \(served.map { "\($0)" } ?? "no call")")
                #expect(schemeParser.parse(url) == served, "a parser with schemes still reads https")
            }
            #expect(parser.parse(url) == served, "\(url): server \(response.status) \(served.map { "\($0)" } ?? "no call"), parser \(parser.parse(url).map { "\($0)" } ?? "no call")")
            if served != nil { calls += 1 }
        }
        #expect(calls >= 12, "the table holds call links, not only near misses")
        #expect(calls < Self.urls.count - 10, "the table holds near misses too")
    }

    @Test("linkhost print swift-parser prints the line that builds this very parser")
    func printedLine() async throws {
        let site = try Self.site()
        let run = try await LinkHostCLI.run(["print", "swift-parser", "--config", site.configPath], directory: site.directory)
        #expect(run.exitCode == 0, "\(run)")
        let expected = "let parser = try CallLinkParser(templates: [" + Self.templates.map { "\"\($0)\"" }.joined(separator: ", ") + "], defaultType: \"default\", hosts: [\"links.example.com\"])\n"
        #expect(run.stdout == expected)
    }
}

private extension String {
    var wrappedInBrackets: String { "[" + self + "]" }
}
