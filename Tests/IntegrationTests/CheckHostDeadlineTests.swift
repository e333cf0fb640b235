import Foundation
import Testing

/// Issue #30 item 4, the whole of it: `check --timeout` bounds each host's whole exchange (every request it
/// makes for the host, Apple's CDN copy included), not each request, so a host that answers some requests and
/// trickles others costs about one timeout, not one per request — against the real binary over real sockets.
@Suite("check: one deadline per host", .timeLimit(.minutes(2)))
struct CheckHostDeadlineTests {
    @Test("check --timeout 2: a TLS host that answers its first request, then trickles a byte every 0.5 s, is done within 5 s, naming what did not finish; the other host is still checked")
    func hostWithSomeTrickledRequestsIsBounded() async throws {
        let hostile = try await TricklingTLSServer(quick: 1)
        // The other host, which also stands in for Apple's CDN: every host's CDN lookup goes to it, answered at once.
        let healthy = try CheckCannedServer(CheckCommandTests.deployment([
            "GET /a/v1/127.0.0.1": CheckCannedServer.response("200 OK", type: "application/json", CheckCommandTests.aasa),
        ]))
        let arguments = ["check", hostile.origin, healthy.origin, "--allow-http", "--cacert", hostile.certificate.cert,
                         "--cdn-url", healthy.origin + "/a/v1/", "--timeout", "2"]
        let (run, took) = try await LinkHostCLI.runTimed(arguments)
        #expect(took < .seconds(5), "check --timeout 2 took \(took) for a host that trickles: \(run)")
        #expect(run.exitCode == 1, "the hostile host answered, then failed: \(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        // The request that was cut (the AASA's HEAD), and the ones never sent: each would have cost 2 s more before.
        #expect(lines.contains { $0.contains("LH501 /.well-known/apple-app-site-association: HEAD cut off: no complete response") && $0.contains("ran out") }, "\(run)")
        let notChecked = lines.first { $0.contains("LH501") && $0.contains("not checked") }
        #expect(notChecked?.contains("GET /apple-app-site-association") == true, "\(run)")
        #expect(notChecked?.contains("GET /.well-known/assetlinks.json") == true, "\(run)")
        #expect(notChecked?.contains("\(healthy.origin)/a/v1/127.0.0.1") == true, "the CDN copy is part of the host's exchange: \(run)")
        // The other host was checked all the same, CDN copy included, within the same run.
        #expect(run.stdout.contains("GET  \(healthy.origin)/a/v1/127.0.0.1: 200"), "\(run)")
        #expect(run.stdout.contains("check: 2 hosts, 1 passed, 1 failed (\(hostile.origin))"), "\(run)")
    }
}
