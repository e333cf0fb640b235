import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The CA answers Pebble cannot be made to give, from `fake_ca.py`: each ends in a bounded, logged failure
/// with backoff while HTTP keeps serving, and ACME Renewal Information moves a renewal earlier.
@Suite("ACME against a fake CA", .serialized)
struct FakeCATests {
    /// The fake CA on a free port, with its own root (`ca.pem`) and HTTPS certificate (`listener.pem`).
    final class FakeCA: Sendable {
        let process: ChildProcess
        let port: Int
        let folder: ACMEFolder
        var directory: String { "https://127.0.0.1:\(port)/dir" }
        var caFile: String { folder.path + "/listener.pem" }

        init(folder: ACMEFolder, httpPort: Int) async throws {
            let python = try requireTool("python3")
            _ = try requireTool("curl")
            self.folder = folder
            try folder.makeCertificate("localhost", certificate: "listener.pem", key: "listener.key")
            let root = try await runTool("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                                                              "-subj", "/CN=Fake ACME Root", "-keyout", folder.path + "/ca.key", "-out", folder.path + "/ca.pem"])
            guard root.exitCode == 0 else { throw HarnessError("openssl: \(root)") }
            let script = String(#filePath.dropLast("FakeCATests.swift".count)) + "fake_ca.py"
            process = try ChildProcess(executable: python, arguments: [script, folder.path + "/port", folder.path + "/listener.pem", folder.path + "/listener.key",
                                                                       folder.path + "/ca.pem", folder.path + "/ca.key", folder.path + "/requests.jsonl", "\(httpPort)"])
            // Its line once the port file is written and the socket listens; an exit before it fails here with its output.
            try await process.waitForOutput(containing: "fake CA listening", timeout: .seconds(10))
            port = Int(folder.read("port")) ?? 0
        }

        /// Every request the CA received, one JSON object each.
        var requests: [[String: Any]] {
            folder.read("requests.jsonl").split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }

        /// The newOrder requests naming `host` first.
        func orders(for host: String) -> [[String: Any]] {
            requests.filter { $0["path"] as? String == "/order" && ($0["hosts"] as? [String])?.first == host }
        }
    }

    static let failures: [(host: String, says: String)] = [
        ("ratelimited.test", "rateLimited: too many certificates for this test"),
        ("huge.test", "larger than"),
        ("html.test", "as \"text/html\", not application/json"),
        ("redirect.test", "answered 302 to https://example.invalid/order; ACME requests follow no redirects"),
        ("badjson.test", "not a JSON object"),
        ("never.test", "is still processing after 10 polls"),
        ("nonce.test", "badNonce: JWS has an invalid anti-replay nonce"),
    ]

    @Test("rate limits, huge bodies, wrong types, redirects, bad JSON, orders never valid and endless badNonce each fail once, logged, with backoff")
    func badAnswersAreBounded() async throws {
        func config(_ ca: FakeCA, _ folder: ACMEFolder, httpsPort: Int, httpPort: Int, adding more: [[String]] = []) -> String {
            acmeConfig(directory: ca.directory, caFile: ca.caFile, state: folder.path + "/state", httpsPort: httpsPort, httpPort: httpPort,
                       defaultHosts: [], sites: Self.failures.map { [$0.host] } + more)
        }
        // The fake CA validates against linkhost's HTTP port: both start again, on new ports, when one is taken.
        let (folder, ca, server) = try await TestPorts.binding(2, "linkhost beside the fake CA") { ports in
            let folder = try ACMEFolder()
            let ca = try await FakeCA(folder: folder, httpPort: ports[1])
            let server = try await ACMEServer.start(folder: folder, config: config(ca, folder, httpsPort: ports[0], httpPort: ports[1]),
                                                    httpsPort: ports[0], httpPort: ports[1])
            return (folder, ca, server)
        }
        let httpPort = server.httpPort
        for (host, says) in Self.failures {
            try await server.waitFor("the order for \(host) failed (1 in a row): ", timeout: 90)
            let line = server.stderr.split(separator: "\n").first { $0.contains("the order for \(host) failed") } ?? ""
            #expect(line.contains(says), "\(host): \(line)")
            #expect(line.contains("HTTPS has NO valid certificate"), "\(line)")
            let wait = host == "ratelimited.test" ? "next try in 7200 s (the CA's Retry-After)" : "next try in 60 s"
            #expect(line.contains(wait), "\(host): \(line)")
        }
        #expect(server.stderr.contains("retrying with its new one (8 of 8)"), "badNonce was not retried to its bound")
        // HTTP keeps serving, and /healthz and the metrics tell what failed.
        let aasa = try await runTool("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: html.test", "http://127.0.0.1:\(httpPort)/.well-known/apple-app-site-association"])
        #expect(aasa.stdout == "200", "\(aasa)")
        let health = try await runTool("curl", ["-sS", "-w", "\n%{http_code}", "http://127.0.0.1:\(httpPort)/healthz"]).stdout
        #expect(health.contains("certificate never.test: MISSING (being ordered); last order failed: ") && health.hasSuffix("\n200"), "\(health)")
        let metrics = try await runTool("curl", ["-sS", "http://127.0.0.1:\(httpPort)/metrics"]).stdout
        #expect(metrics.contains("linkhost_acme_orders_total{result=\"failed\"} 6") && metrics.contains("linkhost_acme_orders_total{result=\"rate_limited\"} 1"), "\(metrics)")
        #expect(metrics.contains("linkhost_certificate_missing{host=\"huge.test\"} 1"), "\(metrics)")
        // Backoff, shown by an order made after the failures rather than by a sleep: a reload adds probe.test (which
        // the fake CA issues), and the certificate loop, woken by it, acts on every target that is due, in the
        // config's order. A failed host whose retry was not put off would be due too, and ordered again before
        // probe.test's certificate is served.
        try folder.write(config(ca, folder, httpsPort: server.httpsPort, httpPort: httpPort, adding: [["probe.test"]]), to: "linkhost.json")
        server.child.send(SIGHUP)
        try await server.waitFor("serving the new certificate for probe.test")
        #expect(ca.orders(for: "probe.test").count == 1, "\(ca.orders(for: "probe.test"))")
        for (host, _) in Self.failures where host != "nonce.test" {
            #expect(ca.orders(for: host).count == 1, "\(host) was ordered \(ca.orders(for: host).count) times")
        }
        #expect(ca.orders(for: "nonce.test").count == 9, "badNonce: \(ca.orders(for: "nonce.test").count) attempts, expected 1 and 8 retries")
        try await server.stop()
    }

    @Test("the CA's renewal window (RFC 9773) renews a fresh certificate early, and the order names the one it replaces")
    func renewalInformationRenewsEarly() async throws {
        // The fake CA validates against linkhost's HTTP port and its root signs the stored certificate: all of it
        // is set up again, on new ports, when linkhost finds one taken.
        let (ca, server, expectedID) = try await TestPorts.binding(2, "linkhost beside the fake CA") { ports in
            try await Self.startWithStoredCertificate(httpsPort: ports[0], httpPort: ports[1])
        }
        try await server.waitFor("serving the stored certificate for ari.test", timeout: 10)
        try await server.waitFor("the CA's renewal information moves the renewal of ari.test to ")
        try await server.waitFor("serving the new certificate for ari.test")
        let orders = ca.orders(for: "ari.test")
        #expect(orders.count == 1 && orders.first?["replaces"] as? String == expectedID, "orders: \(orders), expected replaces \(expectedID)")
        // The fake CA checked the key authorization it fetched from linkhost's HTTP listener.
        #expect(ca.requests.contains { $0["validated"] as? String == "ari.test" && $0["valid"] as? Bool == true }, "\(ca.requests)")
        let served = try await servedCertificate(port: server.httpsPort, name: "ari.test")
        #expect(served.contains("Issuer: CN = Fake ACME Root") && !served.contains("serial=4D"), "\(served)")
        try await server.stop()
    }

    /// The fake CA, a certificate for ari.test from its root with a day of life left (not due by its lifetime) in
    /// linkhost's state folder, and linkhost started on it; with the renewal ID the new order must name.
    static func startWithStoredCertificate(httpsPort: Int, httpPort: Int) async throws -> (FakeCA, ACMEServer, String) {
        let folder = try ACMEFolder()
        let ca = try await FakeCA(folder: folder, httpPort: httpPort)
        for step in [["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=ari.test", "-keyout", folder.path + "/ari.key", "-out", folder.path + "/ari.csr"],
                     ["x509", "-req", "-in", folder.path + "/ari.csr", "-CA", folder.path + "/ca.pem", "-CAkey", folder.path + "/ca.key", "-set_serial", "77", "-days", "1",
                      "-extfile", try folder.write("subjectAltName=DNS:ari.test\nauthorityKeyIdentifier=keyid\n", to: "ari.ext"), "-out", folder.path + "/ari.pem"]] {
            let run = try await runTool("openssl", step)
            #expect(run.exitCode == 0, "\(run)")
        }
        let keyID = try await runTool("openssl", ["x509", "-in", folder.path + "/ari.pem", "-noout", "-ext", "authorityKeyIdentifier"]).stdout
        let hex = keyID.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "keyid:", with: "").replacingOccurrences(of: ":", with: "") } ?? ""
        let keyBytes = stride(from: 0, to: hex.count, by: 2).compactMap { UInt8(String(Array(hex)[$0..<min($0 + 2, hex.count)]), radix: 16) }
        let expectedID = Data(keyBytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "") + ".TQ"
        let store = "state/" + ca.directory.replacingOccurrences(of: "https://", with: "").replacingOccurrences(of: ":", with: "-").replacingOccurrences(of: "/", with: "-")
        try folder.write(folder.read("ari.key") + folder.read("ari.pem"), to: store + "/ari.test.pem")
        let config = acmeConfig(directory: ca.directory, caFile: ca.caFile, state: folder.path + "/state", httpsPort: httpsPort, httpPort: httpPort,
                                defaultHosts: ["ari.test"], sites: [])
        return (ca, try await ACMEServer.start(folder: folder, config: config, httpsPort: httpsPort, httpPort: httpPort), expectedID)
    }
}
