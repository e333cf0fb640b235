import Testing
@testable import LinkHostCore
import LinkHostTestSupport
import LinkHostJSON

/// `Router.decide`, the one decision every request gets (the server's, a test's in-memory request, `match`):
/// a request for each answer the server must handle, made of bytes as the server hands them in, and which of
/// the request's fields each decision reads.
@Suite("One decision per request")
struct RouterDecisionTests {
    /// A request with every field a test may set, recording each field and query item the decision reads.
    final class RecordingHead: RequestHead {
        let method: [UInt8]
        let path: [UInt8]
        private let hostField: [UInt8]?
        private let fields: [String: String]
        private let query: [String: String]
        private(set) var read: [String] = []

        init(_ method: String, _ target: String, host: String?, fields: [String: String] = [:]) {
            let question = target.firstIndex(of: "?")
            self.method = Array(method.utf8)
            path = Array(target[..<(question ?? target.endIndex)].utf8)
            hostField = host.map { Array($0.utf8) }
            self.fields = fields
            var query: [String: String] = [:]
            for item in (question.map { target[target.index(after: $0)...] } ?? "").split(separator: "&") {
                let parts = item.split(separator: "=", maxSplits: 1)
                if parts.count == 2, query[String(parts[0])] == nil { query[String(parts[0])] = String(parts[1]) }
            }
            self.query = query
        }

        private func field(_ name: String) -> String? {
            read.append(name)
            return fields[name]
        }

        var host: [UInt8]? { read.append("Host"); return hostField }
        func queryItem(_ name: String) -> String? { read.append("?" + name); return query[name] }
        var language: String? { read.append("?lang"); return query["lang"] }
        var acceptLanguage: String? { field("Accept-Language") }
        var ifNoneMatch: String? { field("If-None-Match") }
        var fetchSite: String? { field("Sec-Fetch-Site") }
        var origin: String? { field("Origin") }
    }

    /// The valid fixture (no base URL: pages name the request's host) with a one-file static folder;
    /// `strict` turns on `server.strictHosts`.
    static func router(strict: Bool = false) throws -> Router {
        var text = try Fixtures.validConfig(setting: "server.strictHosts", to: strict ? "true" : "false")
        text = try JSONWriter.string(JSONParser.parse(text), style: .compact)
        var config = try Fixtures.config(text)
        let folder = try Fixtures.temporaryFolder(files: ["index.html": "<h1>home</h1>"])
        defer { removeItem(folder) }
        config.sites[0].staticFiles.root = folder
        return Router(snapshot: try Snapshot(config: config))
    }

    /// The answer in words: its case, then what the server reads of it.
    static func describe(_ answer: Router.Answer<ArraySlice<UInt8>>) -> String {
        func prepared(_ response: Response) -> String { "\(response.status) \(response.route.label)" }
        switch answer {
        case .prepared(let response): return "prepared " + prepared(response)
        case .live(let response): return "live " + prepared(response)
        case .unknownHost(let response): return "unknownHost " + prepared(response)
        case .hostRefused(let response): return "hostRefused " + prepared(response)
        case .beacon(let beacon): return "beacon \(beacon.event.label) \(beacon.platform.label)"
        case .crossSiteBeacon(let response): return "crossSiteBeacon " + prepared(response)
        case .malformedBeacon(let response): return "malformedBeacon " + prepared(response)
        case .page(let target, let host):
            let kind: String
            switch target.kind {
            case .page: kind = "page"
            case .qrCode: kind = "qrCode"
            case .qrCodePNG: kind = "qrCodePNG"
            }
            switch host {
            case .none: return "page \(kind) \(target.link.callID) none"
            case .request(let bytes): return "page \(kind) \(target.link.callID) request \(String(decoding: bytes, as: UTF8.self))"
            case .lowercased(let bytes): return "page \(kind) \(target.link.callID) lowercased \(String(decoding: bytes, as: UTF8.self))"
            }
        }
    }

    @Test("a request for each answer the server handles, decided on its bytes", arguments: [
        // Files computed at load: their 200, 304 and 405; escapes decoded; the health probe filled live.
        ("GET", "/.well-known/apple-app-site-association", "localhost:8080", [:], "prepared 200 aasa"),
        ("HEAD", "/apple-app-site-association", "localhost:8080", [:], "prepared 200 aasa"),
        ("GET", "/.well-known/apple-app-site-association", "localhost:8080", ["If-None-Match": "*"], "prepared 304 aasa"),
        ("POST", "/.well-known/apple-app-site-association", "localhost:8080", [:], "prepared 405 method_not_allowed"),
        ("GET", "/.well-known/apple-app-site-%61ssociation", "localhost:8080", [:], "prepared 200 aasa"),
        ("GET", "/healthz", "localhost:8080", [:], "live 200 health"),
        ("GET", "/no/such/page", "localhost:8080", [:], "prepared 404 not_found"),
        // Call pages and QR codes, and the host their URLs name.
        ("GET", "/call/abc123?type=video", "localhost:8080", [:], "page page abc123 request localhost:8080"),
        ("GET", "/call/abc123/qr.svg", "links.localhost", [:], "page qrCode abc123 request links.localhost"),
        ("GET", "/call/abc123", "LocalHost:8080", [:], "page page abc123 lowercased localhost:8080"),
        ("GET", "/call/abc123", nil, [:], "page page abc123 none"),
        ("GET", "/call/abc123", "evil.example", [:], "hostRefused 404 not_found"),
        ("POST", "/call/abc123", "localhost:8080", [:], "prepared 405 method_not_allowed"),
        // An absolute-form target's authority takes the place of Host (RFC 9112 §3.2.2).
        ("GET", "HTTP://localhost:9/call/abc123", "evil.example", [:], "page page abc123 request localhost:9"),
        ("GET", "http://evil.example/call/abc123", "localhost", [:], "hostRefused 404 not_found"),
        // The beacon path.
        ("POST", "/.linkhost/beacon?e=view&p=ios", "localhost:8080", [:], "beacon view ios"),
        ("POST", "/.linkhost/beacon?e=view&p=mars", "localhost:8080", [:], "malformedBeacon 400 beacon"),
        ("POST", "/.linkhost/beacon?e=view&p=ios", "localhost:8080", ["Sec-Fetch-Site": "cross-site"], "crossSiteBeacon 403 beacon"),
        ("POST", "/.linkhost/beacon?e=view&p=ios", "localhost:8080", ["Origin": "https://evil.example"], "crossSiteBeacon 403 beacon"),
        ("GET", "/.linkhost/beacon?e=view&p=ios", "localhost:8080", [:], "prepared 405 beacon"),
    ] as [(String, String, String?, [String: String], String)])
    func everyAnswer(method: String, target: String, host: String?, fields: [String: String], expected: String) throws {
        let router = try Self.router()
        let decision = router.decide(RecordingHead(method, target, host: host, fields: fields))
        #expect(Self.describe(decision.answer) == expected)
    }

    @Test("server.strictHosts: a host no site lists is refused by the same decision, but for the health probe and beacons")
    func strictHosts() throws {
        let router = try Self.router(strict: true)
        for target in ["/.well-known/apple-app-site-association", "/call/abc123", "/no/such/page", "http://unknown.example/call/abc123"] {
            #expect(Self.describe(router.decide(RecordingHead("GET", target, host: "unknown.example")).answer) == "unknownHost 404 not_found", "\(target)")
        }
        #expect(Self.describe(router.decide(RecordingHead("GET", "/healthz", host: "unknown.example")).answer) == "live 200 health")
        #expect(Self.describe(router.decide(RecordingHead("POST", "/.linkhost/beacon?e=view&p=ios", host: "unknown.example")).answer) == "unknownHost 404 not_found",
                "a beacon from a host no site lists counts nothing")
    }

    @Test("a decision reads only what it needs: the AASA its Host and If-None-Match, a page no validator or Origin")
    func readsOnlyWhatItNeeds() throws {
        let router = try Self.router()
        let aasa = RecordingHead("GET", "/.well-known/apple-app-site-association?x=1&lang=de", host: "localhost", fields: ["Accept-Language": "de"])
        _ = router.decide(aasa)
        #expect(aasa.read == ["Host", "If-None-Match"])
        let page = RecordingHead("GET", "/call/abc123?type=video", host: "localhost")
        _ = router.decide(page)
        #expect(page.read.contains("?type") && !page.read.contains("If-None-Match") && !page.read.contains("Origin") && !page.read.contains("Sec-Fetch-Site"),
                "\(page.read)")
    }

    @Test("a Request made of strings gets the server's decision: Router.respond renders what decide chose")
    func requestValues() throws {
        let router = try Self.router()
        #expect(Self.describe(router.decide(Request(method: "POST", path: Beacon.path, query: ["e": "store", "p": "in_app"])).answer) == "beacon store in_app")
        let page = router.respond(to: Request(path: "/call/abc123", host: "localhost:8080"))
        #expect(page.status == 200 && page.bodyText.contains("abc123"))
        #expect(router.respond(to: Request(path: "/call/abc123", ifNoneMatch: page.header("ETag"), host: "localhost:8080")).status == 304)
        #expect(router.respond(to: Request(path: "/call/abc123", host: "evil.example")).body == router.snapshot.hostRefused.body)
    }
}
