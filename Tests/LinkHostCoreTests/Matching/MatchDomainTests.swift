import Testing
@testable import LinkHostCore

@Suite("Match: domain checks")
struct MatchDomainTests {
    static let document = MatchFixture.components(#"[{"/":"*"}]"#)

    @Test("the URL must be on the domain the file was served for", arguments: [
        ("example.com", "https://example.com/x", MatchDecision.match),
        ("example.com", "https://EXAMPLE.com./x", .match),
        ("Example.COM", "https://example.com/x", .match),
        ("example.com", "http://example.com/x", .match),
        ("example.com", "https://example.com:443/x", .match),
        ("example.com", "http://example.com:80/x", .match),
        ("example.com", "https://www.example.com/x", .noMatch),
        ("example.com", "https://example.com.evil.test/x", .noMatch),
        ("example.com", "https://evil.test/example.com", .noMatch),
        ("example.com", "https://example.com@evil.test/x", .noMatch),
        ("example.com", "https://example.com:8443/x", .noMatch),
        ("example.com:8443", "https://example.com:8443/x", .match),
        ("example.com:8443", "https://example.com/x", .noMatch),
        ("*.example.com", "https://a.example.com/x", .match),
        ("*.example.com", "https://a.b.example.com/x", .match),
        ("*.example.com", "https://example.com/x", .noMatch),
        ("*.example.com", "https://aexample.com/x", .noMatch),
        ("applinks:example.com?mode=developer", "https://example.com/x", .match),
        ("", "https://anywhere.test/x", .match),
    ])
    func hosts(domain: String, url: String, expected: MatchDecision) throws {
        #expect(try MatchFixture.decide(Self.document, url, domain: domain).decision == expected)
    }

    @Test("why a URL is off the domain is reported")
    func reasons() throws {
        let host = try MatchFixture.decide(Self.document, "https://www.example.com/x")
        #expect(host.reason == .hostMismatch(host: "www.example.com", domain: "example.com"))
        let port = try MatchFixture.decide(Self.document, "https://example.com:8443/x")
        #expect(port.reason == .portMismatch(port: 8443, domain: "example.com"))
    }

    @Test("only http and https URLs are universal links", arguments: ["ftp://example.com/x", "myapp://example.com/x"])
    func schemes(url: String) throws {
        let result = try MatchFixture.decide(Self.document, url)
        #expect(result.decision == .noMatch)
        #expect(result.reason == .unsupportedScheme(String(url.prefix { $0 != ":" })))
    }

    @Test("a string that is not a URL is decided no_match, with the reason")
    func notAURL() throws {
        let result = try MatchFixture.decide(Self.document, "example.com/x")
        #expect(result.decision == .noMatch)
        guard case .invalidURL = result.reason else {
            Issue.record("expected invalidURL, got \(String(describing: result.reason))")
            return
        }
    }

    @Test("domains are read leniently but exactly")
    func domainParsing() {
        let wildcard = DomainCheck.Domain(" *.Example.com. ")
        #expect(wildcard.host == "example.com")
        #expect(wildcard.coversSubdomains)
        #expect(wildcard.port == nil)
        let pasted = DomainCheck.Domain("https://example.com:8443/.well-known/apple-app-site-association")
        #expect(pasted.host == "example.com")
        #expect(pasted.port == 8443)
        #expect(DomainCheck.Domain("").isEmpty)
    }
}
