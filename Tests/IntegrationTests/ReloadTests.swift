import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Reloads under load and HTTPS with certificate rotation.
@Suite("Reload and TLS", .timeLimit(.minutes(2)))
struct ReloadTests {
    @Test("Not one request fails while SIGHUP reloads alternate between two configs under load")
    func reloadUnderLoad() async throws {
        let site = try SiteFixture()
        var second = TestConfig()
        second.name = "Second Name"
        let texts = [second.json(publicPath: site.publicPath), TestConfig().json(publicPath: site.publicPath)]
        let server = try await LinkHostProcess.start(site)
        let port = server.port
        let clients = 4
        let duration = Duration.seconds(3)
        // Each client keeps one connection alive and reconnects only when the server closes it; the
        // clients block on sockets, so they run on threads of their own, not the cooperative pool.
        let reloading = Atomic<Bool>(true)
        let parts = await onThreads(Array(0...clients), width: clients + 1) { index -> (ok: Int, failed: [String]) in
            guard index == clients else {
                return LoadClient.run(port: port, index: index) { !reloading.load(ordering: .acquiring) }
            }
            var reloads = 0
            let deadline = ContinuousClock.now + duration
            while ContinuousClock.now < deadline {
                try? site.writeConfigText(texts[reloads % 2])
                server.signal(SIGHUP)
                reloads += 1
                usleep(50_000)
            }
            reloading.store(false, ordering: .releasing)
            return (0, [])
        }
        let results = (ok: parts.reduce(0) { $0 + $1.ok }, failed: parts.flatMap(\.failed))
        #expect(results.failed.isEmpty, "failures during reloads: \(results.failed.prefix(5))")
        #expect(results.ok > 200, "too few requests to prove anything: \(results.ok)")
        #expect(server.stderr.contains("reloaded"), "\(server.stderr)")
        #expect(!server.stderr.contains("reload failed"), "\(server.stderr)")
    }

    @Test("A reload storm: 100 SIGHUPs in one second under load, not one failed request, the last config served")
    func reloadStorm() async throws {
        let site = try SiteFixture()
        var second = TestConfig()
        second.bundleID = "com.example.storm"
        let texts = [second.json(publicPath: site.publicPath), TestConfig().json(publicPath: site.publicPath)]
        let server = try await LinkHostProcess.start(site)
        let port = server.port
        let signals = 100
        let stormEnded = Atomic<Bool>(false)
        let stormMilliseconds = Atomic<Int>(0)
        let results = await onThreads(Array(0..<5), width: 5) { index -> (ok: Int, failed: [String]) in
            if index == 4 {
                // The storm: a SIGHUP every 10 ms by the clock (sleeps on a loaded machine run long), the
                // config rewritten every tenth signal, alternating, the first config last.
                let start = ContinuousClock.now
                for signal in 0..<signals {
                    while ContinuousClock.now < start + .milliseconds(10 * signal) { usleep(1_000) }
                    if signal % 10 == 9 { try? site.writeConfigText(texts[(signal / 10) % 2]) }
                    server.signal(SIGHUP)
                }
                stormMilliseconds.store(Int((ContinuousClock.now - start) / .milliseconds(1)), ordering: .relaxed)
                stormEnded.store(true, ordering: .releasing)
                return (0, [])
            }
            // Until the storm is over, and half a second after, while the last reloads are built.
            var over: ContinuousClock.Instant?
            return LoadClient.run(port: port, index: index) {
                if over == nil, stormEnded.load(ordering: .acquiring) { over = ContinuousClock.now }
                return over.map { ContinuousClock.now - $0 > .milliseconds(500) } ?? false
            }
        }
        let stormTook = stormMilliseconds.load(ordering: .relaxed)
        #expect(stormTook < 2000, "the storm took \(stormTook) ms, not about a second (signals are due every 10 ms)")
        let ok = results.reduce(0) { $0 + $1.ok }
        let failed = results.flatMap(\.failed)
        #expect(failed.isEmpty, "failures during the storm: \(failed.prefix(5))")
        #expect(ok > 100, "too few requests to prove anything: \(ok)")
        // The last signal's reload may still be building; the newest generation serves the last config.
        let settled = try await eventually {
            let metrics = try await server.request("GET", "/metrics").text
            let aasa = try await server.request("GET", "/.well-known/apple-app-site-association")
            return metrics.contains("linkhost_reloads_total{result=\"failed\"} 0") && aasaAppIDs(parseJSON(aasa.body)) == [TestConfig().appID]
                && !metrics.contains("linkhost_reloads_total{result=\"ok\"} 0\n")
        }
        #expect(settled, "\(server.stderr.suffix(2000))")
        let reloads = server.stderr.components(separatedBy: "reloaded ").count - 1
        #expect(reloads >= 1 && reloads <= signals, "\(reloads) reloads for \(signals) signals")
        #expect(!server.stderr.contains("reload failed"), "\(server.stderr.suffix(2000))")
        print("reload storm: \(signals) SIGHUPs in \(stormTook) ms, \(reloads) reloads built (the rest folded into them), \(ok) requests answered 200, \(failed.count) failed")
    }

    @Test("HTTPS with a self-signed chain serves the AASA; SIGHUP rotates the certificate; a bad one keeps the old")
    func tls() async throws {
        _ = try requireTool("openssl")
        _ = try requireTool("curl")
        let site = try SiteFixture()
        func makeCertificate(_ name: String) async throws {
            let result = try await runTool("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                                                          "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", site.directory + "/\(name).key", "-out", site.directory + "/\(name).pem"])
            try #require(result.status == 0, "\(result.stderr)")
        }
        try await makeCertificate("first")
        try await makeCertificate("second")
        try FileManager.default.copyItem(atPath: site.directory + "/first.pem", toPath: site.directory + "/cert.pem")
        try FileManager.default.copyItem(atPath: site.directory + "/first.key", toPath: site.directory + "/key.pem")
        var config = TestConfig()
        config.serverExtra["tls"] = ["certificateFile": site.directory + "/cert.pem", "privateKeyFile": site.directory + "/key.pem"]
        try site.writeConfig(config)
        let server = try await LinkHostProcess.start(site)
        let url = "https://127.0.0.1:\(server.port)/.well-known/apple-app-site-association"
        func fetch(trusting certificate: String) async throws -> Termination {
            try await runTool("curl", ["-sS", "--max-time", "5", "--cacert", site.directory + "/\(certificate).pem", "-o", "/dev/null", "-w", "%{http_code} %{content_type}", url])
        }
        #expect(server.stderr.contains("linkhost: listening on https://"))
        let first = try await fetch(trusting: "first")
        #expect(first.stdout == "200 application/json", "\(first.stdout) \(first.stderr)")
        #expect(try await fetch(trusting: "second").status != 0, "an untrusted certificate was accepted")

        try site.write(try String(contentsOfFile: site.directory + "/second.pem", encoding: .utf8), to: "cert.pem")
        try site.write(try String(contentsOfFile: site.directory + "/second.key", encoding: .utf8), to: "key.pem")
        server.signal(SIGHUP)
        #expect(try await eventually { try await fetch(trusting: "second").stdout == "200 application/json" }, "rotated certificate not served: \(server.stderr)")

        // A key that does not belong to the certificate: the reload fails and the second pair keeps serving.
        try site.write(try String(contentsOfFile: site.directory + "/first.key", encoding: .utf8), to: "key.pem")
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "reload failed")
        #expect(try await fetch(trusting: "second").stdout == "200 application/json")
    }
}

/// A client that keeps one connection alive (reconnecting only when the server closes it) and asks for
/// the AASA, a call page, a static file and the health probe in turn, until `done()` or five failures.
enum LoadClient {
    /// Requests until `done()` holds. Blocking: it runs on a thread of its own, inside `onThreads`.
    static func run(port: Int, index: Int, until done: () -> Bool) -> (ok: Int, failed: [String]) {
        var ok = 0
        var failed: [String] = []
        var client: RawHTTPClient?
        let paths = ["/.well-known/apple-app-site-association", "/call/abc\(index)?type=video", "/style.css", "/healthz"]
        var turn = 0
        // A bound however `done` behaves: no load loop runs longer than a minute.
        let limit = ContinuousClock.now + .seconds(60)
        while !done() && failed.count < 5 && ContinuousClock.now < limit {
            do {
                if client == nil { client = try RawHTTPClient(port: port) }
                let response = try client!.request("GET", paths[turn % paths.count])
                turn += 1
                if response.status == 200 { ok += 1 } else { failed.append("status \(response.status)") }
                if response.header("Connection")?.lowercased() == "close" { client = nil }
            } catch {
                failed.append("\(error)")
                client = nil
            }
        }
        return (ok, failed)
    }
}
