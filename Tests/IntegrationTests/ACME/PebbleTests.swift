import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Automatic HTTPS against a real ACME CA: Pebble validates HTTP-01 against linkhost's HTTP listener (its
/// mock DNS resolves every test name to 127.0.0.1), and curl and openssl check what HTTPS then serves.
@Suite("ACME against Pebble", .serialized)
struct PebbleTests {
    /// The state folder of a CA's directory, as linkhost names it.
    static func stateFolder(_ state: String, directory: String) -> String {
        state + "/" + directory.replacingOccurrences(of: "https://", with: "").replacingOccurrences(of: ":", with: "-").replacingOccurrences(of: "/", with: "-")
    }

    @Test("Pebble validates every site host over HTTP-01; each is served by SNI with a chain its root verifies; a restart reuses the certificates")
    func issuesServesAndReuses() async throws {
        func config(_ pebble: PebbleCA, _ folder: ACMEFolder, httpsPort: Int, httpPort: Int) -> String {
            acmeConfig(directory: pebble.directory, caFile: pebble.caFile, state: folder.path + "/state", httpsPort: httpsPort, httpPort: httpPort,
                       defaultHosts: ["a.test"], sites: [["b.test", "www.b.test"]])
        }
        // Pebble validates against linkhost's HTTP port: both start again, on new ports, when one is taken.
        let (folder, pebble, first) = try await TestPorts.binding(2, "linkhost beside Pebble") { ports in
            let folder = try ACMEFolder()
            // Pebble refuses 40% of good nonces: every request must survive badNonce with the CA's new nonce.
            let pebble = try await PebbleCA(folder: folder, httpPort: ports[1], nonceReject: 40)
            let server = try await ACMEServer.start(folder: folder, config: config(pebble, folder, httpsPort: ports[0], httpPort: ports[1]),
                                                    httpsPort: ports[0], httpPort: ports[1])
            return (folder, pebble, server)
        }
        var server = first
        let (httpsPort, httpPort) = (server.httpsPort, server.httpPort)
        try await server.waitFor("serving the new certificate for a.test")
        try await server.waitFor("serving the new certificate for b.test, www.b.test")
        #expect(pebble.pebble.output.contains("Attempting to validate w/ HTTP: http://b.test:\(httpPort)/.well-known/acme-challenge/"), "Pebble did not validate over HTTP")
        #expect(server.stderr.contains("badNonce"), "Pebble refused no nonce, so the retry went untested")

        let root = try folder.write(try await pebble.root(), to: "pebble-root.pem")
        for (host, bundle) in [("a.test", "com.example.default"), ("b.test", "com.example.site0"), ("www.b.test", "com.example.site0")] {
            let answer = try await curlHTTPS(host, port: httpsPort, path: "/.well-known/apple-app-site-association", caFile: root)
            #expect(answer.exitCode == 0 && answer.stdout.hasSuffix("\n200"), "HTTPS to \(host) with Pebble's root: \(answer)")
            #expect(answer.stdout.contains("ABCDE12345.\(bundle)"), "\(host) served another site's AASA: \(answer.stdout)")
        }
        let siteCertificate = try await servedCertificate(port: httpsPort, name: "www.b.test")
        #expect(siteCertificate.contains("DNS:b.test") && siteCertificate.contains("DNS:www.b.test"), "\(siteCertificate)")
        #expect(siteCertificate.contains("Issuer: CN = Pebble Intermediate CA"), "\(siteCertificate)")
        for name in [nil, "unknown.test"] as [String?] {
            let fallback = try await servedCertificate(port: httpsPort, name: name)
            #expect(fallback.contains("DNS:a.test") && !fallback.contains("DNS:b.test"), "\(name ?? "no SNI") did not get the default site's certificate: \(fallback)")
        }

        // The HTTP listener: association files as they are, everything else 308 to HTTPS.
        let plainAASA = try await runTool("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: b.test", "http://127.0.0.1:\(httpPort)/.well-known/apple-app-site-association"])
        #expect(plainAASA.stdout == "200", "AASA over HTTP: \(plainAASA)")
        let redirect = try await runTool("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", "-H", "Host: b.test", "http://127.0.0.1:\(httpPort)/call/abc?type=video"])
        #expect(redirect.stdout == "308 https://b.test/call/abc?type=video", "call page over HTTP: \(redirect)")
        // R9a (docs/hardening.md): a redirect names only a path after the host: an absolute-form target's path,
        // and nothing at all for a target that is neither (`@evil.example/x` would make the host a user name).
        let absolute = try await RawHTTPClient.open(port: httpPort).request("GET", "http://b.test/call/abc?type=video", headers: [("Host", "b.test")])
        #expect(absolute.status == 308 && absolute.header("Location") == "https://b.test/call/abc?type=video", "\(absolute)")
        let userinfo = try await RawHTTPClient.open(port: httpPort).request("GET", "@evil.example/x", headers: [("Host", "b.test")])
        #expect(userinfo.status == 400 && userinfo.header("Location") == nil, "\(userinfo)")

        let health = try await curlHTTPS("a.test", port: httpsPort, path: "/healthz", caFile: root)
        #expect(health.stdout.hasPrefix("ok\n") && health.stdout.contains("certificate www.b.test: valid until") && health.stdout.hasSuffix("\n200"), "\(health.stdout)")
        let metrics = try await curlHTTPS("a.test", port: httpsPort, path: "/metrics", caFile: root).stdout
        #expect(metrics.contains("linkhost_acme_orders_total{result=\"ok\"} 2"), "\(metrics)")
        #expect(metrics.contains("linkhost_certificate_expiry_seconds{host=\"www.b.test\"} "), "\(metrics)")
        #expect(FileManager.default.fileExists(atPath: Self.stateFolder(folder.path + "/state", directory: pebble.directory) + "/b.test.pem"))

        // Restart without the CA: the stored certificates serve at once, and no order is made.
        let serial = siteCertificate.split(separator: "\n").first { $0.hasPrefix("serial=") }
        // On new ports from TestPorts (the ones just released are not bound again): the state folder is the CA's.
        try await server.stop()
        pebble.stop()
        server = try await TestPorts.binding(2, "linkhost restarted on its state folder") { ports in
            try await ACMEServer.start(folder: folder, config: config(pebble, folder, httpsPort: ports[0], httpPort: ports[1]), httpsPort: ports[0], httpPort: ports[1])
        }
        try await server.waitFor("serving the stored certificate for b.test, www.b.test", timeout: 10)
        try await server.waitFor("serving \(folder.path)/linkhost.json (generation 1)", timeout: 10)
        let again = try await servedCertificate(port: server.httpsPort, name: "b.test")
        #expect(serial != nil && again.split(separator: "\n").first { $0.hasPrefix("serial=") } == serial, "the restart served another certificate")
        let answer = try await curlHTTPS("b.test", port: server.httpsPort, path: "/.well-known/apple-app-site-association", caFile: root)
        #expect(answer.stdout.hasSuffix("\n200"), "\(answer)")
        #expect(!server.stderr.contains("ordering a certificate"), "\(server.stderr)")
        // The image's HEALTHCHECK: beside HTTPS it probes the HTTP listener.
        let probe = try await runTool(try LinkHostCLI.binaryPath(), ["healthcheck", "--config", folder.path + "/linkhost.json"])
        #expect(probe.exitCode == 0 && probe.stdout.contains("http://127.0.0.1:\(server.httpPort)/healthz answered 200"), "\(probe)")
        let restartedMetrics = try await curlHTTPS("a.test", port: server.httpsPort, path: "/metrics", caFile: root).stdout
        #expect(restartedMetrics.contains("linkhost_acme_orders_total{result=\"ok\"} 0"), "\(restartedMetrics)")
        try await server.stop()
    }

    @Test("a stored certificate with under a third of its life left, and an expired one, are renewed from Pebble and swapped in while a connection stays open")
    func renewsWithoutDroppingConnections() async throws {
        // Pebble validates against linkhost's HTTP port, and the stored certificates sit under its directory's
        // name: all of it is set up again, on new ports, when linkhost finds one taken.
        let (pebble, server) = try await TestPorts.binding(2, "linkhost beside Pebble") { ports in
            let folder = try ACMEFolder()
            let pebble = try await PebbleCA(folder: folder, httpPort: ports[1])
            let state = folder.path + "/state"
            let store = Self.stateFolder(state, directory: pebble.directory)
            let now = Int(Date().timeIntervalSince1970)
            // One hour of life, ten minutes left: due. And one that expired an hour ago.
            try folder.makeCertificate("a.test", certificate: "old-a.pem", key: "old-a.key", notBefore: now - 3000, notAfter: now + 600)
            try folder.makeCertificate("c.test", certificate: "old-c.pem", key: "old-c.key", notBefore: now - 7200, notAfter: now - 3600)
            try folder.write(folder.read("old-a.key") + folder.read("old-a.pem"), to: String(store.dropFirst(folder.path.count + 1)) + "/a.test.pem")
            try folder.write(folder.read("old-c.key") + folder.read("old-c.pem"), to: String(store.dropFirst(folder.path.count + 1)) + "/c.test.pem")
            let config = acmeConfig(directory: pebble.directory, caFile: pebble.caFile, state: state, httpsPort: ports[0], httpPort: ports[1],
                                    defaultHosts: ["a.test"], sites: [["c.test"]])
            return (pebble, try await ACMEServer.start(folder: folder, config: config, httpsPort: ports[0], httpPort: ports[1]))
        }
        let (folder, httpsPort) = (pebble.folder, server.httpsPort)
        try await server.waitFor("serving the stored certificate for a.test", timeout: 10)
        // At once: the renewal is already under way, and on a busy machine Pebble may finish it before a slower step.
        let before = try await servedCertificate(port: httpsPort, name: "a.test")
        // Pebble's certificate can be on the wire this early only if the renewal has already been swapped in.
        let renewedAlready = server.stderr.contains("serving the new certificate for a.test")
        let connection = try OpenTLSConnection(port: httpsPort, name: "a.test")
        try await server.waitFor("EXPIRED at", timeout: 10)
        let first = try await connection.get("/healthz", host: "a.test")
        #expect(first == "HTTP/1.1 200 OK", "\(first)")
        #expect(!before.contains("Pebble") || renewedAlready, "Pebble's certificate was served before the renewal was swapped in: \(before)")

        try await server.waitFor("ordering a certificate for a.test (renewal)")
        try await server.waitFor("serving the new certificate for a.test")
        try await server.waitFor("serving the new certificate for c.test")
        // The connection opened on the old certificate still answers; new handshakes get Pebble's.
        let second = try await connection.get("/healthz", host: "a.test")
        #expect(second == "HTTP/1.1 200 OK", "\(second)")
        let root = try folder.write(try await pebble.root(), to: "pebble-root.pem")
        for host in ["a.test", "c.test"] {
            let answer = try await curlHTTPS(host, port: httpsPort, path: "/.well-known/apple-app-site-association", caFile: root)
            #expect(answer.stdout.hasSuffix("\n200"), "\(host) after renewal: \(answer)")
        }
        try await server.stop()
    }

    @Test("two processes on one state folder: the second waits for the first's order and serves its certificate, ordering none")
    func twoProcessesOneStateFolder() async throws {
        // Pebble validates against the first process's HTTP listener only: an order by the second would fail. So
        // Pebble and the first start again together on new ports when one is taken; the second on its own.
        let (pebble, one) = try await TestPorts.binding(2, "linkhost beside Pebble") { ports in
            let first = try ACMEFolder()
            let pebble = try await PebbleCA(folder: first, httpPort: ports[1])
            let config = acmeConfig(directory: pebble.directory, caFile: pebble.caFile, state: first.path + "/state",
                                    httpsPort: ports[0], httpPort: ports[1], defaultHosts: ["a.test"], sites: [])
            return (pebble, try await ACMEServer.start(folder: first, config: config, httpsPort: ports[0], httpPort: ports[1]))
        }
        let first = pebble.folder, second = try ACMEFolder()
        try await one.waitFor("ordering a certificate for a.test")
        let two = try await TestPorts.binding(2, "a second linkhost on the same state folder") { ports in
            let config = acmeConfig(directory: pebble.directory, caFile: pebble.caFile, state: first.path + "/state",
                                    httpsPort: ports[0], httpPort: ports[1], defaultHosts: ["a.test"], sites: [])
            return try await ACMEServer.start(folder: second, config: config, httpsPort: ports[0], httpPort: ports[1])
        }
        let ports = [one.httpsPort, one.httpPort, two.httpsPort, two.httpPort]
        try await one.waitFor("serving the new certificate for a.test")
        // Started while the first holds the lock, it normally waits for it; either way it must adopt the stored certificate.
        try await two.waitFor("serving the stored", timeout: 30)
        #expect(!two.stderr.contains("ordering a certificate"), "the second process ordered too: \(two.stderr)")
        var served: [Substring?] = []
        for port in [ports[0], ports[2]] {
            served.append((try? await servedCertificate(port: port, name: "a.test"))?.split(separator: "\n").first { $0.hasPrefix("serial=") })
        }
        #expect(served[0] != nil && served[0] == served[1], "the two processes serve different certificates: \(served)")
        let root = try first.write(try await pebble.root(), to: "pebble-root.pem")
        let metrics = try await curlHTTPS("a.test", port: ports[2], path: "/metrics", caFile: root).stdout
        #expect(metrics.contains("linkhost_acme_orders_total{result=\"ok\"} 0") && !metrics.contains("result=\"failed\"} 1"), "\(metrics)")
        try await two.stop()
        try await one.stop()
        pebble.stop()
    }
}
