import Foundation
import Testing

/// Issue #30 (round four), items 4, 10 and 11, against the real binary and real servers: `check --timeout`
/// bounds a TLS exchange however slowly its bytes come, `check`, `stats` and `match` print no control byte a
/// server or file sent, and `stats` survives any metrics body.
@Suite("Hardening round four: check, stats and match", .timeLimit(.minutes(2)))
struct HardeningRoundFourCommandTests {
    @Test("Item 4: check --timeout 2 against a TLS host that trickles a byte every 0.5 s ends near 2 s, saying why")
    func tlsTrickleIsBounded() async throws {
        let server = try await TricklingTLSServer()
        let (run, took) = try await LinkHostCLI.runTimed(["check", server.origin, "--cacert", server.certificate.cert, "--timeout", "2"],
                                                         timeout: .seconds(30))
        #expect(run.exitCode == 3, "unreachable: \(run)")
        #expect(took < .seconds(6), "check --timeout 2 took \(took)")
        #expect(run.stdout.contains("no complete response within 2 s") && run.stdout.contains("LH501"), "\(run)")
    }

    /// An origin whose AASA redirects with control bytes in its Location and Content-Type.
    static let hostileRedirect = CheckCannedServer.response(
        "301 Moved", type: "text/html\u{1B}[2J\u{07}", "", extra: ["Location: https://evil.example/\u{1B}]0;owned\u{07}\rSPOOF\u{9B}31m"])

    @Test("Item 10: check prints a server's Location and Content-Type with their control bytes escaped, human and JSON")
    func checkEscapesRemoteBytes() async throws {
        let origin = try CheckCannedServer(["GET /.well-known/apple-app-site-association": Self.hostileRedirect])
        for format in ["human", "json"] {
            let run = try await LinkHostCLI.run(["check", "--allow-http", origin.origin, "--format", format])
            #expect(run.exitCode == 1, "\(run)")
            #expect(!run.stdoutBytes.contains(0x1B) && !run.stdoutBytes.contains(0x07) && !run.stdoutBytes.contains(0x0D), "\(format): \(run.stdout.debugDescription)")
            #expect(!run.stdout.unicodeScalars.contains("\u{9B}"), "\(format): \(run.stdout.debugDescription)")
            #expect(run.stdout.contains("SPOOF"), "the value is shown, escaped: \(run.stdout.debugDescription)")
            if format == "json" { #expect((try? JSONSerialization.jsonObject(with: Data(run.stdoutBytes))) != nil, "still JSON: \(run.stdout)") }
        }
    }

    /// A metrics body with a counter that trapped the bar width, a negative and a NaN, and a label with controls.
    static let hostileMetrics = CheckCannedServer.response("200 OK", type: "text/plain", """
    linkhost_page_views_total{site="big",platform="ios"} 800000000000000000
    linkhost_page_views_total{site="big",platform="android"} 800000000000000000
    linkhost_page_views_total{site="big",platform="desktop"} -7
    linkhost_page_views_total{site="big",platform="bot"} NaN
    linkhost_page_views_total{site="big",platform="other"} +Inf
    linkhost_page_views_total{site="ev\u{1B}]0;owned\u{07}il\\nx\u{0D}",platform="ios"} 3

    """)

    @Test("Items 10 and 11: stats prints huge, negative, NaN and infinite counters without a crash, and escapes labels")
    func statsSurvivesHostileBody() async throws {
        let metrics = try CheckCannedServer(["GET /metrics": Self.hostileMetrics])
        for format in ["human", "json"] {
            let run = try await LinkHostCLI.run(["stats", "--url", metrics.origin + "/metrics", "--format", format])
            #expect(run.exitCode == 0 && run.signal == nil, "\(format): \(run)")
            #expect(!run.stdoutBytes.contains(0x1B) && !run.stdoutBytes.contains(0x07) && !run.stdoutBytes.contains(0x0D), "\(format): \(run.stdout.debugDescription)")
            #expect(run.stdout.contains(format == "human" ? "site big: 1600000000000000000 page views" : "\"ios\": 800000000000000000"), "\(format): \(run.stdout)")
        }
    }

    @Test("Item 10: match prints a URL and an AASA file's app IDs with their control bytes escaped")
    func matchEscapesFileBytes() async throws {
        let folder = NSTemporaryDirectory() + "linkhost-match-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let aasa = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example\u001b]0;owned\u0007"], "components": [{"/": "/call/*"}]}]}}"#
        try aasa.write(toFile: folder + "/aasa.json", atomically: true, encoding: .utf8)
        let run = try await LinkHostCLI.run(["match", "https://links.example.com/call/a\u{1B}[2Jb", "--aasa", folder + "/aasa.json"], directory: folder)
        #expect(run.exitCode != nil, "\(run)")
        #expect(!run.stdoutBytes.contains(0x1B) && !run.stdoutBytes.contains(0x07), "\(run.stdout.debugDescription)")
        #expect(run.stdout.contains("\\x1B"), "\(run.stdout.debugDescription)")
    }
}
