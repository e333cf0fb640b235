import Foundation
import Testing

/// Access logs, metrics and the health probe, read back from the real binary.
@Suite("Observability", .timeLimit(.minutes(1)))
struct ObservabilityTests {
    @Test("Every request gets one JSON access-log line on stdout with the documented fields, control characters escaped")
    func accessLogJSON() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        _ = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("User-Agent", "AASA-Bot/1.0.0")])
        _ = try await server.request("GET", "/call/abc?type=secret-token-in-query")
        _ = try await server.request("GET", "/nope%0d%0a{\"forged\":1}", headers: [("User-Agent", "quote\" back\\slash")])
        let lines = { server.stdout.split(separator: "\n").filter { $0.hasPrefix("{") } }
        #expect(try await eventually { lines().count >= 3 }, "stdout: \(server.stdout)")
        var paths: [String] = []
        for line in lines() {
            let entry = try #require(parseJSON(Array(line.utf8)) as? [String: Any], "\(line)")
            for field in ["time", "remote", "host", "site", "method", "path", "status", "bytes", "duration_us", "user_agent"] {
                #expect(entry[field] != nil, "missing \(field) in \(line)")
            }
            paths.append(entry["path"] as? String ?? "")
            if entry["path"] as? String == "/.well-known/apple-app-site-association" {
                #expect(entry["status"] as? Int == 200)
                #expect(entry["user_agent"] as? String == "AASA-Bot/1.0.0")
                #expect((entry["bytes"] as? Int ?? 0) > 0)
            }
        }
        #expect(paths.contains("/call/abc"), "the query must not be logged: \(paths)")
        #expect(!server.stdout.contains("secret-token-in-query"))
        #expect(paths.contains("/nope%0d%0a{\"forged\":1}"))
    }

    @Test("stdout is the access log alone: every line of it is JSON, and the start line is on stderr")
    func stdoutIsTheAccessLogOnly() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        _ = try await server.request("GET", "/.well-known/apple-app-site-association")
        _ = try await server.request("GET", "/missing")
        server.signal(SIGTERM)
        let ended = try await server.waitForExit(timeout: happensWithin)
        #expect(ended.exitCode == 0, "\(ended)")
        let lines = ended.stdout.split(separator: "\n")
        #expect(lines.count == 2, "two requests, two lines: \(ended.stdout)")
        for line in lines { #expect(parseJSON(Array(line.utf8)) is [String: Any], "not an access-log line on stdout: \(line)") }
        #expect(ended.stderr.contains("linkhost: listening on http://127.0.0.1:\(server.port)\n"), "\(ended.stderr)")
    }

    @Test("/metrics parses with Prometheus' own parser and counts what was served")
    func metrics() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        for _ in 0..<3 { _ = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("User-Agent", "AASA-Bot/1.0.0")]) }
        _ = try await server.request("GET", "/missing")
        let page = try await server.request("GET", "/metrics")
        #expect(page.status == 200)
        #expect(page.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let script = """
        import sys
        from prometheus_client.parser import text_string_to_metric_families
        values = {}
        for family in text_string_to_metric_families(sys.stdin.read()):
            for sample in family.samples:
                values[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
        print(int(values[("linkhost_requests_total", (("route", "aasa"), ("site", "default"), ("status", "2xx")))]))
        print(int(values[("linkhost_association_fetches_total", (("fetcher", "apple"), ("file", "aasa"), ("site", "default")))]))
        print(int(values[("linkhost_requests_total", (("route", "not_found"), ("site", "default"), ("status", "4xx")))]))
        print(int(values[("linkhost_config_generation", ())]))
        print(int(values[("process_start_time_seconds", ())]) > 1700000000)
        print(int(values[("linkhost_request_duration_seconds_count", (("route", "aasa"),))]))
        print(int(values[("linkhost_request_duration_seconds_bucket", (("le", "+Inf"), ("route", "not_found")))]))
        """
        let result = try await runTool("python3", ["-c", script], input: page.text)
        #expect(result.status == 0, "prometheus_client could not parse /metrics (pip install prometheus_client): \(result.stderr)")
        #expect(result.stdout.split(separator: "\n") == ["3", "3", "1", "1", "True", "3", "1"], "\(result.stdout)")
    }

    @Test("/healthz answers 200 ok and the served config's hash and generation, without caching")
    func health() async throws {
        let server = try await InProcessServer.start(SiteFixture())
        let response = try await server.request("GET", "/healthz")
        let lines = response.text.split(separator: "\n")
        #expect(response.status == 200 && lines.count == 2 && lines.first == "ok", "\(response.text)")
        #expect(lines.last?.wholeMatch(of: /config sha256:[0-9a-f]{64} generation 1/) != nil, "\(response.text)")
        #expect(response.header("Cache-Control") == "no-store")
    }

    @Test("linkhost healthcheck exits 0 against a serving linkhost, 1 when nothing answers or the path is wrong")
    func healthcheck() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        let healthy = try await LinkHostCLI.run(["healthcheck", "--url", "http://127.0.0.1:\(server.port)/healthz"], directory: server.site.directory)
        #expect(healthy.exitCode == 0, "\(healthy)")
        #expect(healthy.stdout.contains(/\n  config sha256:[0-9a-f]{64} generation 1\n/), "\(healthy)")
        let byEnvironment = try await LinkHostCLI.run(["healthcheck"], environment: ["LINKHOST_PORT": String(server.port)], directory: server.site.directory)
        #expect(byEnvironment.exitCode == 0, "\(byEnvironment)")
        let wrongPath = try await LinkHostCLI.run(["healthcheck", "--url", "http://127.0.0.1:\(server.port)/nope"], directory: server.site.directory)
        #expect(wrongPath.exitCode == 1 && wrongPath.stderr.contains("404"), "\(wrongPath)")
        let nothing = try await LinkHostCLI.run(["healthcheck", "--url", "http://127.0.0.1:1/healthz", "--timeout", "2"], directory: server.site.directory)
        #expect(nothing.exitCode == 1, "\(nothing)")
        let usage = try await LinkHostCLI.run(["healthcheck", "--url", "ftp://x"], directory: server.site.directory)
        #expect(usage.exitCode == 2, "\(usage)")
    }

    @Test("Metrics can move to their own port, off the public listener")
    func metricsPort() async throws {
        let (server, probe) = try await TestPorts.binding(1, "linkhost's metrics listener") { ports in
            var config = TestConfig()
            config.extra["observability"] = ["metrics": ["port": ports[0], "host": "127.0.0.1"], "accessLog": "off"]
            return (try await LinkHostProcess.start(SiteFixture(config)), ports[0])
        }
        #expect(try await server.request("GET", "/metrics").status == 404)
        let metrics = try await RawHTTPClient.open(port: probe).request("GET", "/metrics")
        #expect(metrics.status == 200 && metrics.text.contains("linkhost_requests_total"), "\(metrics)")
        #expect(!server.stdout.contains("{\"time\""), "accessLog off still logged")
    }
}
