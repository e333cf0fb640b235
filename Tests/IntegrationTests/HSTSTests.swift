import Foundation
import Testing

/// `Strict-Transport-Security` (`server.tls.hsts`) over real sockets: on every HTTPS answer, never on the
/// plain-HTTP listener beside it nor on a server without TLS.
@Suite("HSTS", .timeLimit(.minutes(2)))
struct HSTSTests {
    /// The `Strict-Transport-Security` values (curl's header dump) of one request; `status` is its status.
    private func hsts(_ url: String, headers: [String] = []) async throws -> (status: Int, values: [String], text: String) {
        let result = try await runTool("curl", ["-sS", "-k", "--max-time", "5", "-D", "-", "-o", "/dev/null"] + headers.flatMap { ["-H", $0] } + [url])
        let lines = result.stdout.split(separator: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let values = lines.compactMap { line -> String? in
            guard line.lowercased().hasPrefix("strict-transport-security:") else { return nil }
            return line.dropFirst("strict-transport-security:".count).trimmingCharacters(in: .whitespaces)
        }
        return (status, values, result.stdout + result.stderr)
    }

    @Test("HTTPS: every kind of answer carries max-age=31536000 by default; the HTTP listener beside it never does")
    func defaultOnHTTPSOnly() async throws {
        _ = try requireTool("curl")
        _ = try requireTool("openssl")
        let site = try SiteFixture()
        var config = try await site.servingHTTPS()
        let (server, httpPort) = try await TestPorts.binding(1, "linkhost's HTTP listener") { ports in
            config.serverExtra["httpPort"] = ports[0]
            try site.writeConfig(config)
            return (try await LinkHostProcess.start(site), ports[0])
        }
        let https = "https://127.0.0.1:\(server.port)"
        let aasa = try await hsts(https + "/.well-known/apple-app-site-association")
        let paths = ["/.well-known/apple-app-site-association", "/.well-known/assetlinks.json", "/call/abc?type=video",
                     "/call/abc/qr.svg?type=video", "/site.css", "/missing", "/healthz", "/metrics"]
        for path in paths {
            let answer = try await hsts(https + path)
            #expect(answer.values == ["max-age=31536000"], "\(path): \(answer.text)")
        }
        // A call page rendered again (from the cache, and as a 304) and a prepared 304 keep it too.
        for _ in 0..<3 { #expect(try await hsts(https + "/call/again?type=video").values == ["max-age=31536000"]) }
        let etag = try #require(try await runTool("curl", ["-sS", "-k", "-D", "-", "-o", "/dev/null", https + "/call/again?type=video"]).stdout
            .split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }).dropFirst(5).trimmingCharacters(in: .whitespaces)
        let revalidated = try await hsts(https + "/call/again?type=video", headers: ["If-None-Match: \(etag)"])
        #expect(revalidated.status == 304 && revalidated.values == ["max-age=31536000"], "\(revalidated.text)")
        let prepared304 = try await hsts(https + "/.well-known/apple-app-site-association", headers: ["If-None-Match: *"])
        #expect(prepared304.status == 304 && prepared304.values == ["max-age=31536000"], "\(prepared304.text)")
        #expect(aasa.status == 200)

        // RFC 6797 §7.2: never over plain HTTP. The listener beside HTTPS serves the files and redirects the rest.
        for path in ["/.well-known/apple-app-site-association", "/healthz", "/call/abc?type=video"] {
            let plain = try await hsts("http://127.0.0.1:\(httpPort)" + path)
            #expect(plain.status != 0 && plain.values.isEmpty, "\(path) on plain HTTP: \(plain.text)")
        }
    }

    @Test("server.tls.hsts: an object sets max-age and its tokens, false turns it off, and a reload applies a change")
    func configured() async throws {
        _ = try requireTool("curl")
        _ = try requireTool("openssl")
        let site = try SiteFixture()
        var config = try await site.servingHTTPS()
        var tls = try #require(config.serverExtra["tls"] as? [String: Any])
        tls["hsts"] = ["maxAge": 31_536_000, "includeSubDomains": true, "preload": true]
        config.serverExtra["tls"] = tls
        try site.writeConfig(config)
        let server = try await LinkHostProcess.start(site)
        let url = "https://127.0.0.1:\(server.port)/.well-known/apple-app-site-association"
        #expect(try await hsts(url).values == ["max-age=31536000; includeSubDomains; preload"])

        tls["hsts"] = false
        config.serverExtra["tls"] = tls
        try site.writeConfig(config)
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "(generation 2)", timeout: happensWithin)
        let off = try await hsts(url)
        #expect(off.status == 200 && off.values.isEmpty, "\(off.text)")
    }

    @Test("plain HTTP without TLS never sends it, whatever server.tls.hsts says")
    func plainServer() async throws {
        _ = try requireTool("curl")
        let site = try SiteFixture()
        var config = TestConfig()
        config.serverExtra["tls"] = ["hsts": ["maxAge": 600]]
        try site.writeConfig(config)
        let server = try await LinkHostProcess.start(site)
        for path in ["/.well-known/apple-app-site-association", "/call/abc?type=video", "/missing"] {
            let answer = try await hsts("http://127.0.0.1:\(server.port)" + path)
            #expect(answer.status != 0 && answer.values.isEmpty, "\(path): \(answer.text)")
        }
    }

    @Test("preload without includeSubDomains or a year's max-age is a config error (LH109), as the preload list refuses it")
    func preloadNeedsItsConditions() async throws {
        let site = try SiteFixture()
        var config = TestConfig()
        config.serverExtra["tls"] = ["hsts": ["maxAge": 600, "preload": true]]
        try site.writeConfig(config)
        let run = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(run.exitCode == 2 && run.stderr.contains("error LH109 server.tls.hsts.preload"), "\(run)")
    }
}
