import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Hardening, round three (docs/hardening.md, R1–R9): each finding against the real binary over real sockets,
/// but which host a page names (R1), which the request's decision settles, in process.
@Suite("Hardening, round three", .serialized)
struct HardeningRoundThreeTests {
    static let victim = "/call/victim42?type=video"
    static let victimQR = "/call/victim42/qr.svg?type=video"

    // MARK: R1 — the Host header never reaches a page

    @Test("R1: behind nginx with its default cache key (no Host in it), a forged Host poisons nothing: it gets an uncacheable 404, the real host its own page")
    func forgedHostBehindDefaultKeyCache() async throws {
        var config = TestConfig()
        config.baseURL = nil
        let server = try await LinkHostProcess.start(try SiteFixture(config))
        let proxy = try await CacheProxy.nginx(backend: server.port, ignoringVary: false)
        for path in [Self.victimQR, Self.victim] {
            let forged = try await proxy.request(path, headers: [("Host", "evil.example")])
            #expect(forged.status == 404, "\(path) with a forged Host: \(forged)")
            #expect(forged.header("Cache-Control") == "no-store", "a refusal no cache may keep: \(forged)")
            #expect(!forged.text.contains("evil.example"))
            // The real (loopback, for this try-out config) host gets its own page, not the refusal and not the forger's URLs.
            let real = try await proxy.request(path, headers: [("Host", "localhost:\(proxy.port)")])
            #expect(real.status == 200, "\(path) for the real host after a forged request: \(real)")
            #expect(!real.text.contains("evil.example"))
            #expect(real.text.contains(path == Self.victim ? "https://localhost:\(proxy.port)/call/victim42?type=video" : "<svg"))
            // Now cached: a forged Host is handed the real host's copy, which names only the real host.
            let again = try await proxy.request(path, headers: [("Host", "evil.example")])
            #expect(!again.text.contains("evil.example"), "\(again)")
        }
    }

    @Test("R1: a listed host is written as listed (lowercase, no port); an unlisted one names nothing", arguments: [
        ("LINKS.Example.COM:4443", 200), ("links.example.com.", 200), ("evil.example", 404), ("links.example.com.evil.example", 404),
        ("127.0.0.1.evil.example", 404), ("localhost.evil.example", 404),
    ])
    func listedHostsOnly(host: String, status: Int) async throws {
        var config = TestConfig()
        config.baseURL = nil
        config.extra["sites"] = [["hosts": ["links.example.com"]]]
        // In process: which host a page names is the request's decision (`PageHost`), the same bytes on the wire.
        let server = try await InProcessServer.start(try SiteFixture(config))
        let page = try await server.request("GET", Self.victim, headers: [("Host", host)])
        #expect(page.status == status, "\(host): \(page)")
        if status == 200 {
            #expect(page.text.contains("href=\"https://links.example.com/call/victim42?type=video\""), "\(page.text)")
            #expect(!page.text.contains("4443") && !page.text.contains("LINKS") && !page.text.contains("com./"))
        } else {
            #expect(page.header("Cache-Control") == "no-store")
        }
    }

    // MARK: R2 — no request body, one deadline for the whole request

    @Test("R2: a body past 1024 bytes, or of unknown size, is answered 413 at once and closed, before any of it is read", arguments: [
        "Content-Length: 100000000", "Transfer-Encoding: chunked", "Content-Length: 1025",
    ])
    func largeBodiesAreRefusedAtOnce(field: String) async throws {
        let server = try await LinkHostProcess.start(try SiteFixture())
        let client = try await server.connect(timeout: .seconds(3))
        try await client.send("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: localhost\r\n\(field)\r\n\r\n")
        let response = try await client.readResponse()
        #expect(response.status == 413, "\(response)")
        #expect(await client.readUntilClosed(wait: .seconds(2)) != nil, "the connection is closed after the refusal")
    }

    @Test("R2: one deadline covers head and body: a small body trickled a byte at a time is cut at server.headerTimeout")
    func trickledBodyMeetsTheDeadline() async throws {
        var config = TestConfig()
        config.serverExtra["headerTimeout"] = 1
        let server = try await LinkHostProcess.start(try SiteFixture(config))
        // On a thread of its own: the trickle's pace must not wait for a cooperative-pool thread on a busy machine.
        let (closed, elapsed) = await onThreads([server.port], width: 1) { port -> (Bool, Duration) in
            guard let client = try? RawHTTPClient(port: port, timeout: .seconds(10)) else { return (false, .zero) }
            let started = ContinuousClock.now
            guard (try? client.send("POST /.well-known/apple-app-site-association HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n")) != nil else { return (false, .zero) }
            // A byte every 200 ms resets any idle timeout; only a deadline for the whole request ends it.
            for _ in 0..<40 {
                usleep(200_000)
                if (try? client.send("x")) == nil || client.readUntilClosed(wait: .milliseconds(1)) != nil {
                    return (true, ContinuousClock.now - started)
                }
            }
            return (false, ContinuousClock.now - started)
        }[0]
        #expect(closed, "the trickled body held the connection for \(elapsed)")
        #expect(elapsed < .seconds(5), "closed after \(elapsed)")
    }

    @Test("R2: 300 connections announcing huge bodies hold nothing: each is refused at once, and a normal client is served")
    func slowBodiesHoldNothing() async throws {
        let server = try await LinkHostProcess.start(try SiteFixture())
        // 300 connects, sends and reads: blocking socket I/O, on a thread of its own.
        let (refused, held) = try await onThread("300 connections with huge bodies") { [port = server.port] () throws -> (Int, Int) in
            var held: [RawHTTPClient] = []
            for index in 0..<300 {
                let client = try RawHTTPClient(port: port, timeout: .seconds(3))
                try client.send("GET /call/c\(index)?type=video HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000000\r\n\r\nx")
                held.append(client)
            }
            // One more byte on each: a server reading bodies would keep every one of these open for the idle timeout.
            for client in held { try? client.send("y") }
            var refused = 0
            for client in held {
                if let response = try? client.readResponse(), response.status == 413 { refused += 1 }
            }
            return (refused, held.count)
        }
        #expect(refused == held, "\(refused) of \(held) refused")
        let normal = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "localhost")])
        #expect(normal.status == 200)
    }

    // MARK: R4 — every log line is JSON any reader accepts

    @Test("R4: every byte value and every bidi control through path, query and User-Agent gives a printable-ASCII JSON line that decodes to what was sent")
    func accessLogIsStrictJSON() async throws {
        let server = try await LinkHostProcess.start(try SiteFixture())
        var sent: [[UInt8]] = (1...255).compactMap { byte in byte == 10 || byte == 13 ? nil : [UInt8(ascii: "a"), UInt8(byte), UInt8(ascii: "b")] }
        let controls: [Unicode.Scalar] = ["\u{200E}", "\u{200F}", "\u{061C}", "\u{2028}", "\u{2029}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
                                          "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{0085}", "\u{009B}", "\u{1F600}"]
        sent += controls.map { Array("a\($0)b".utf8) }
        sent += [[0xFF, 0xFE], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x80]]
        // About 270 connects, sends and reads until closed: blocking socket I/O, on a thread of its own.
        try await onThread("one connection per byte value") { [port = server.port, sent] in
            for value in sent {
                let client = try RawHTTPClient(port: port)
                let target: [UInt8] = Array("/x".utf8) + value.filter { $0 > 0x20 && $0 != 0x7F } + Array("?q=".utf8) + value.filter { $0 > 0x20 && $0 != 0x7F }
                var request = Array("GET ".utf8) + target + Array(" HTTP/1.1\r\nHost: localhost\r\nUser-Agent: ".utf8)
                request += value.filter { $0 != 0 } + Array("\r\nConnection: close\r\n\r\n".utf8)
                try client.send(request)
                _ = client.readUntilClosed(wait: .seconds(2))
            }
        }
        // Every line is out once a later request's line is (the log is written in order): no sleep for the flusher.
        try await server.flushAccessLog()
        let lines = server.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(lines.count >= sent.count / 2, "\(lines.count) log lines")
        var decodedAgents: Set<String> = []
        for line in lines {
            #expect(line.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "a byte outside printable ASCII: \(Array(line.utf8))")
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let agent = try #require(object?["user_agent"] as? String, "\(line)")
            decodedAgents.insert(agent)
        }
        // Valid UTF-8 comes back as sent; each invalid byte as U+FFFD.
        for scalar in controls where decodedAgents.contains(where: { $0.contains("a") }) {
            #expect(decodedAgents.contains("a\(scalar)b"), "U+\(String(scalar.value, radix: 16)) did not come back")
        }
        #expect(decodedAgents.contains("\u{FFFD}\u{FFFD}"), "0xFF 0xFE → two replacement characters")
    }

    // MARK: R5 — sources are never static files

    @Test("R5: sites that share public/ serve neither their own nor each other's template and locales")
    func sharedPublicServesNoSources() async throws {
        var config = TestConfig()
        let site = try SiteFixture(config)
        try FileManager.default.copyItem(atPath: site.publicPath + "/call.html", toPath: site.publicPath + "/brand.html")
        config.extra["sites"] = [["hosts": ["brand.example"], "callLinks": ["paths": ["call"], "template": site.publicPath + "/brand.html"]]]
        try site.writeConfig(config)
        let server = try await LinkHostProcess.start(site)
        for (host, path) in [("localhost", "/brand.html"), ("brand.example", "/call.html"), ("brand.example", "/locales/en.json"),
                             ("localhost", "/locales/en.json"), ("brand.example", "/brand.html")] {
            let response = try await server.request("GET", path, headers: [("Host", host)])
            #expect(response.status == 404, "\(host)\(path): \(response.status)")
            #expect(!response.text.contains("{{"), "raw template markup served")
        }
        #expect(try await server.request("GET", "/style.css", headers: [("Host", "brand.example")]).status == 200, "other static files are still served")
        let validate = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect((validate.stdout + validate.stderr).contains("LH306"), "\(validate)")
    }

    // MARK: R6, R8 — the page cache: a key that always fits, a bound over every site

    /// The value of an unlabelled metric, read from the server's `/metrics`.
    static func metric(_ name: String, _ server: LinkHostProcess) async throws -> Int {
        let text = try await server.request("GET", "/metrics", headers: [("Host", "localhost")]).text
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(name + " ") }, "no \(name) in /metrics")
        return try #require(Int(line.split(separator: " ")[1]))
    }

    @Test("R6: a page whose key is at the maximum of every part (64-byte ID and type, 384-byte Host) is cached and served whole")
    func longestKeyIsCached() async throws {
        var config = TestConfig()
        config.baseURL = nil
        let server = try await LinkHostProcess.start(try SiteFixture(config))
        let id = String(repeating: "i", count: 64)
        let type = String(repeating: "t", count: 64)
        let host = String(repeating: "a", count: 374) + ".localhost"
        #expect(host.utf8.count == 384)
        var tags: Set<String> = []
        for _ in 0..<3 {
            let page = try await server.request("GET", "/call/\(id)?type=\(type)", headers: [("Host", host)])
            #expect(page.status == 200, "\(page)")
            // Longer than a DNS name, so not written as an origin: the key still holds all of it.
            #expect(page.text.contains("<code dir=\"ltr\">\(id)</code>"))
            tags.insert(page.header("ETag") ?? "")
        }
        #expect(tags.count == 1, "one ETag for one page: \(tags)")
        #expect(try await Self.metric("linkhost_page_cache_bytes", server) > 0, "the page is kept from its second request on")
    }

    /// The server's resident memory in kB (VmRSS).
    static func residentKB(_ server: LinkHostProcess) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(server.child.pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    @Test("R8: QR images for thousands of wildcard hosts of many sites stay within server.pageCacheBytes, and RSS stays flat round after round")
    func pageCacheBudgetHoldsAcrossSites() async throws {
        var config = TestConfig()
        config.baseURL = nil
        let budget = 1_048_576
        config.serverExtra["pageCacheBytes"] = budget
        config.extra["sites"] = (0..<40).map { ["hosts": ["*.t\($0).example"], "callLinks": ["paths": ["call"], "pageCacheSize": 100_000]] }
        let server = try await LinkHostProcess.start(try SiteFixture(config))
        var resident: [Int] = []
        for round in 0..<3 {
            // 2,400 requests: on a thread of their own, not one of the few the other tests run on.
            let failures = await onThreads([server.port], width: 1) { port -> Int in
                guard let client = try? RawHTTPClient(port: port, timeout: .seconds(10)) else { return -1 }
                var failures = 0
                for index in 0..<1200 {
                    let host = String(repeating: "h", count: 200) + "\(index).t\(index % 40).example"
                    // Twice: a page is kept from its second request on.
                    for _ in 0..<2 where (try? client.request("GET", "/call/c\(index)/qr.svg?type=video", headers: [("Host", host)]))?.status != 200 {
                        failures += 1
                    }
                }
                return failures
            }[0]
            #expect(failures == 0, "round \(round): \(failures) requests failed")
            let held = try await Self.metric("linkhost_page_cache_bytes", server)
            #expect(held > 0 && held <= budget, "round \(round): \(held) bytes held, budget \(budget)")
            resident.append(try Self.residentKB(server))
        }
        // The first round fills the budget and the allocator's arenas; later rounds reuse them.
        #expect(resident[2] - resident[1] < 8_192, "RSS by round (kB): \(resident)")
    }
}
