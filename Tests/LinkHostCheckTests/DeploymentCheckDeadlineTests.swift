import Glibc
import LinkHostCheck
import LinkHostCore
import LinkHostHTTPClient
import Synchronization
import Testing

/// `DeploymentCheckOptions.timeout`: one deadline for all of a host's requests, handed to the fetcher with
/// each request, and nothing sent once it has passed (the socket side is `CheckHostDeadlineTests`).
@Suite("Deployment check: one deadline per host")
struct DeploymentCheckDeadlineTests {
    /// A fetcher that answers the AASA's GET at once and holds every later request for the time it is allowed, as the
    /// real client does with a host that trickles; it records each request it was handed.
    static func trickling(_ seen: HandedRequests) -> Fetcher {
        { request in
            let count = seen.requests.withLock { $0.append(request); return $0.count }
            if count == 1 {
                let body = #"{"applinks": {"details": []}}"#
                return .success(FetchedResponse(status: 200, reason: "OK", headers: [HTTPHeader("Content-Type", "application/json")], body: Array(body.utf8)))
            }
            guard let allowed = request.timeAllowed else { return .failure(FetchError(kind: .timeout, message: "no time limit given")) }
            let deadline = ContinuousClock.now + allowed
            while ContinuousClock.now < deadline { usleep(10_000) }
            return .failure(FetchError(kind: .timeout, message: "no complete response within 0.2 s"))
        }
    }

    @Test("each request gets what is left of the host's timeout as its time allowed; once it is spent the rest are not sent, and one LH501 names them")
    func hostDeadlineIsShared() {
        let seen = HandedRequests()
        var options = DeploymentCheckOptions(origin: FetchOrigin(scheme: "https", host: "links.example.com", port: nil), checkCDN: true)
        options.timeout = .milliseconds(200)
        let report = DeploymentCheck.run(options, fetch: Self.trickling(seen))
        let requests = seen.requests.withLock { $0 }
        #expect(requests.map(\.method) == ["GET", "HEAD"], "only the AASA's GET and the HEAD that ran out were sent: \(requests.map(\.path))")
        #expect(requests.allSatisfy { $0.timeAllowed != nil }, "every request is bounded by the host's time")
        let cutOff = report.diagnostics.first { $0.code == .lh501 && $0.path == "/.well-known/apple-app-site-association" }
        #expect(cutOff?.message == "HEAD cut off: no complete response within 0.2 s; the host's --timeout of 0.2 s, shared by all its requests, ran out", "\(report.diagnostics)")
        let unsent = report.diagnostics.first { $0.code == .lh501 && $0.message.hasPrefix("not checked") }
        #expect(unsent?.message.hasSuffix("GET /apple-app-site-association, GET /.well-known/assetlinks.json, GET https://app-site-association.cdn-apple.com/a/v1/links.example.com") == true,
                "\(report.diagnostics)")
        #expect(report.requests.count == 5 && !report.passed && !report.unreachable, "\(report.requests.map(\.line))")
    }

    @Test("without a host timeout the requests carry no time limit and every one is sent")
    func noTimeoutNoDeadline() {
        let seen = HandedRequests()
        let options = DeploymentCheckOptions(origin: FetchOrigin(scheme: "https", host: "links.example.com", port: nil))
        let report = DeploymentCheck.run(options) { request in
            seen.requests.withLock { $0.append(request) }
            return .success(FetchedResponse(status: 404, reason: "Not Found"))
        }
        #expect(seen.requests.withLock { $0.allSatisfy { $0.timeAllowed == nil } && $0.count == 2 }, "\(report.requests.map(\.line))")
        #expect(!report.diagnostics.contains { $0.message.hasPrefix("not checked") })
    }
}

/// The requests a fake fetcher was handed, from whichever thread called it.
final class HandedRequests: Sendable {
    let requests = Mutex<[FetchRequest]>([])
}
