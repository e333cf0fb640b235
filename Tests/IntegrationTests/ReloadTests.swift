import Foundation
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
        // Each client keeps one connection alive and reconnects only when the server closes it.
        let results = await withTaskGroup(of: (ok: Int, failed: [String]).self) { group in
            for index in 0..<clients {
                group.addTask {
                    var ok = 0
                    var failed: [String] = []
                    let deadline = ContinuousClock.now + duration
                    var client: RawHTTPClient?
                    let paths = ["/.well-known/apple-app-site-association", "/call/abc\(index)?type=video", "/style.css", "/healthz"]
                    var turn = 0
                    while ContinuousClock.now < deadline && failed.count < 5 {
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
            group.addTask {
                var reloads = 0
                let deadline = ContinuousClock.now + duration
                while ContinuousClock.now < deadline {
                    try? site.writeConfigText(texts[reloads % 2])
                    server.signal(SIGHUP)
                    reloads += 1
                    try? await Task.sleep(for: .milliseconds(50))
                }
                return (0, [])
            }
            var total = (ok: 0, failed: [String]())
            for await result in group {
                total.ok += result.ok
                total.failed += result.failed
            }
            return total
        }
        #expect(results.failed.isEmpty, "failures during reloads: \(results.failed.prefix(5))")
        #expect(results.ok > 200, "too few requests to prove anything: \(results.ok)")
        #expect(server.stderr.contains("reloaded"), "\(server.stderr)")
        #expect(!server.stderr.contains("reload failed"), "\(server.stderr)")
    }

    @Test("HTTPS with a self-signed chain serves the AASA; SIGHUP rotates the certificate; a bad one keeps the old")
    func tls() async throws {
        try #require(ExternalTool.exists("openssl") && ExternalTool.exists("curl"), "openssl and curl are needed")
        let site = try SiteFixture()
        func makeCertificate(_ name: String) throws {
            let result = try ExternalTool.run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                                                          "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", site.directory + "/\(name).key", "-out", site.directory + "/\(name).pem"])
            try #require(result.status == 0, "\(result.error)")
        }
        try makeCertificate("first")
        try makeCertificate("second")
        try FileManager.default.copyItem(atPath: site.directory + "/first.pem", toPath: site.directory + "/cert.pem")
        try FileManager.default.copyItem(atPath: site.directory + "/first.key", toPath: site.directory + "/key.pem")
        var config = TestConfig()
        config.serverExtra["tls"] = ["certificateFile": site.directory + "/cert.pem", "privateKeyFile": site.directory + "/key.pem"]
        try site.writeConfig(config)
        let server = try await LinkHostProcess.start(site)
        let url = "https://127.0.0.1:\(server.port)/.well-known/apple-app-site-association"
        func fetch(trusting certificate: String) throws -> ExternalTool.Result {
            try ExternalTool.run("curl", ["-sS", "--max-time", "5", "--cacert", site.directory + "/\(certificate).pem", "-o", "/dev/null", "-w", "%{http_code} %{content_type}", url])
        }
        #expect(server.stdout.contains("listening on https://"))
        let first = try fetch(trusting: "first")
        #expect(first.output == "200 application/json", "\(first.output) \(first.error)")
        #expect(try fetch(trusting: "second").status != 0, "an untrusted certificate was accepted")

        try site.write(try String(contentsOfFile: site.directory + "/second.pem", encoding: .utf8), to: "cert.pem")
        try site.write(try String(contentsOfFile: site.directory + "/second.key", encoding: .utf8), to: "key.pem")
        server.signal(SIGHUP)
        #expect(try await eventually(timeout: .seconds(5)) { try fetch(trusting: "second").output == "200 application/json" }, "rotated certificate not served: \(server.stderr)")

        // A key that does not belong to the certificate: the reload fails and the second pair keeps serving.
        try site.write(try String(contentsOfFile: site.directory + "/first.key", encoding: .utf8), to: "key.pem")
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "reload failed")
        #expect(try fetch(trusting: "second").output == "200 application/json")
    }
}
