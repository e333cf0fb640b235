import Foundation
import LinkHostCore
import LinkHostServer

/// linkhost's answer path run in this process: a `Server` that listens nowhere, handed each request as an
/// `InMemoryRequest`, the very function libmicrohttpd's callbacks call. For tests of what is answered (routes,
/// pages, validators, hosts); what needs a socket (framing, deadlines, TLS, real peers) stays on `LinkHostProcess`.
///
/// `request` mirrors `LinkHostProcess.request`: the same defaults (a `Host` of links.example.com and a
/// `User-Agent` unless given), and an `HTTPResponse` as the wire would carry it (`Content-Length` added, no
/// body for HEAD or a 304), so a test moved here keeps its assertions.
final class InProcessServer: Sendable {
    let server: Server
    let site: SiteFixture

    private init(server: Server, site: SiteFixture) {
        self.server = server
        self.site = site
    }

    /// Loads `site`'s config as `linkhost serve` does (its SHA-256 named by the health probe) and serves it in
    /// process; `https` adds what the HTTPS listener adds (Strict-Transport-Security when configured), `plainHTTP`
    /// makes it the plain-HTTP listener beside HTTPS (challenges and redirects).
    static func start(_ site: SiteFixture, https: Bool = false, plainHTTP: PlainHTTPListener? = nil) async throws -> InProcessServer {
        let environment = ProcessInfo.processInfo.environment
        let config = try ConfigLoader.load(path: site.configPath, environment: environment)
        let snapshot = try Snapshot(config: config, configSHA256: try await ConfigIdentityTests.sha256(ofFile: site.configPath))
        return InProcessServer(server: Server(inProcess: snapshot, https: https, plainHTTP: plainHTTP), site: site)
    }

    /// The answer to one request, as `LinkHostProcess.request` would return it (nothing is sent anywhere).
    func request(_ method: String = "GET", _ path: String, headers: [(String, String)] = [], peer: String = "127.0.0.1") async throws -> HTTPResponse {
        let given = Set(headers.map { $0.0.lowercased() })
        var fields: [(String, String)] = []
        if !given.contains("host") { fields.append(("Host", "links.example.com")) }
        if !given.contains("user-agent") { fields.append(("User-Agent", "linkhost-integration-tests")) }
        let request = InMemoryRequest(method, path, headers: fields + headers, peer: peer)
        let context = "request (in process): \(method) \(path) \(headers)"
        guard let answer = server.answer(request) else {
            throw HarnessError("\(request.answers.count) answers queued, not one\n" + context)
        }
        let bodiless = method == "HEAD" || answer.status == 304 || answer.status == 204
        let length = answer.status == 304 ? [] : [(name: "Content-Length", value: String(answer.body.count))]
        return HTTPResponse(version: "HTTP/1.1", status: answer.status, reason: "", headers: answer.headers.map { ($0.name, $0.value) } + length,
                            body: bodiless ? [] : answer.body, context: context)
    }
}
