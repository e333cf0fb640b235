import CCheckSupport
import CTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

// The harness of the ACME tests: Pebble and pebble-challtestsrv (Debian's packages), the fake CA, the
// openssl and curl clients that check what linkhost serves, and the state folder the tests seed.

/// A temporary folder, removed on deinit.
final class ACMEFolder: Sendable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "linkhost-acme-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes a file (creating its folders) and returns its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        let url = URL(fileURLWithPath: path + "/" + name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func read(_ name: String) -> String { (try? String(contentsOfFile: path + "/" + name, encoding: .utf8)) ?? "" }

    /// A self-signed certificate and key for `name` (and 127.0.0.1) valid from `notBefore` to `notAfter`.
    func makeCertificate(_ name: String, certificate: String, key: String, notBefore: Int? = nil, notAfter: Int? = nil) throws {
        let now = Int(Date().timeIntervalSince1970)
        let result = lhcheck_make_certificate_valid(path + "/" + certificate, path + "/" + key, name, 1,
                                                    Int64(notBefore ?? now - 3600), Int64(notAfter ?? now + 86_400))
        guard result == 0 else { throw HarnessError("cannot make a certificate for \(name)") }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Pebble with its mock DNS on loopback ports: every name resolves to 127.0.0.1, and Pebble validates HTTP-01
/// for real against `httpPort` (linkhost's HTTP listener).
final class PebbleCA: Sendable {
    let folder: ACMEFolder
    let acmePort: Int, managementPort: Int
    let dns: ChildProcess, pebble: ChildProcess
    var directory: String { "https://127.0.0.1:\(acmePort)/dir" }
    /// The CA file for Pebble's own HTTPS (a self-signed certificate made here).
    var caFile: String { folder.path + "/pebble-listener.pem" }

    init(folder: ACMEFolder, httpPort: Int, nonceReject: Int = 0) async throws {
        let pebblePath = try requireTool("pebble"), challengeServerPath = try requireTool("pebble-challtestsrv")
        _ = try requireTool("curl")
        self.folder = folder
        try folder.makeCertificate("localhost", certificate: "pebble-listener.pem", key: "pebble-listener.key")
        // Pebble and its DNS bind four of the five ports (tlsPort is only where Pebble would connect): started
        // again on new ones when either finds one taken.
        (acmePort, managementPort, dns, pebble) = try await TestPorts.binding(5, "Pebble and pebble-challtestsrv") { ports in
            let (acmePort, managementPort, dnsPort) = (ports[0], ports[1], ports[3])
            let config = """
            {"pebble": {"listenAddress": "127.0.0.1:\(acmePort)", "managementListenAddress": "127.0.0.1:\(managementPort)",
              "certificate": "\(folder.path)/pebble-listener.pem", "privateKey": "\(folder.path)/pebble-listener.key",
              "httpPort": \(httpPort), "tlsPort": \(ports[2]), "ocspResponderURL": "", "externalAccountBindingRequired": false}}
            """
            try folder.write(config, to: "pebble.json")
            let dns = try ChildProcess(executable: challengeServerPath,
                                       arguments: ["-dns01", "127.0.0.1:\(dnsPort)", "-http01", "", "-https01", "", "-tlsalpn01", "",
                                                   "-management", "127.0.0.1:\(ports[4])", "-defaultIPv4", "127.0.0.1", "-defaultIPv6", ""])
            try await dns.waitForOutput(containing: "Starting challenge servers")
            let pebble = try ChildProcess(executable: pebblePath, arguments: ["-config", folder.path + "/pebble.json", "-dnsserver", "127.0.0.1:\(dnsPort)"],
                                          environment: ChildProcess.inheritedEnvironment.merging(
                                              ["PEBBLE_VA_NOSLEEP": "1", "PEBBLE_WFE_NONCEREJECT": "\(nonceReject)", "PEBBLE_AUTHZREUSE": "0"]) { $1 })
            try await pebble.waitForOutput(containing: "Listening on: 127.0.0.1:\(acmePort)")
            // Pebble prints that line before it binds: a client started at once found the port refused and
            // waited out its 60 s retry. Ready means a connection is accepted (or Pebble's exit is reported).
            // A bind sends no news to anyone: `eventually` tries the port (and stops early should either program end).
            let ready = try await eventually(timeout: .seconds(10)) {
                await acceptsConnections(port: acmePort) || !pebble.isRunning || !dns.isRunning
            }
            guard ready, pebble.isRunning, dns.isRunning else {
                throw HarnessError("Pebble does not accept connections on 127.0.0.1:\(acmePort):\n\(pebble.output)\(dns.output)")
            }
            return (acmePort, managementPort, dns, pebble)
        }
    }

    /// Pebble's root certificate (made anew at each start), from its management port.
    func root() async throws -> String {
        let run = try await runTool("curl", ["-sS", "--cacert", caFile, "https://127.0.0.1:\(managementPort)/roots/0"])
        guard run.exitCode == 0, run.stdout.contains("BEGIN CERTIFICATE") else { throw HarnessError("no Pebble root: \(run)") }
        return run.stdout
    }

    func stop() {
        pebble.stop()
        dns.stop()
    }
}

/// linkhost with ACME on, from a config written into `folder`.
///
/// linkhost binds the ports its config names itself, so a test hands them from `TestPorts.binding` to `start`,
/// which returns once both listeners are up and throws when linkhost ends first: "the port is already in use"
/// makes `binding` set the test up again on new ports (with a new folder and CA, which validate against them).
final class ACMEServer: Sendable {
    let child: ChildProcess
    let httpsPort: Int, httpPort: Int

    /// Starts linkhost and waits for its HTTP and HTTPS listeners (the HTTP one binds first, and the certificate
    /// loop starts beside it, so a stored certificate may be served before HTTPS listens).
    static func start(folder: ACMEFolder, config: String, httpsPort: Int, httpPort: Int) async throws -> ACMEServer {
        let server = try ACMEServer(folder: folder, config: config, httpsPort: httpsPort, httpPort: httpPort)
        try await server.waitFor("HTTP listener on http://127.0.0.1:\(httpPort)", timeout: 30)
        try await server.waitFor("listening on https://127.0.0.1:\(httpsPort)", timeout: 30)
        return server
    }

    private init(folder: ACMEFolder, config: String, httpsPort: Int, httpPort: Int) throws {
        try folder.write(config, to: "linkhost.json")
        try folder.write("<!doctype html><title>call</title>\n", to: "public/call.html")
        self.httpsPort = httpsPort
        self.httpPort = httpPort
        child = try ChildProcess(executable: try LinkHostCLI.binaryPath(), arguments: ["serve", "--config", folder.path + "/linkhost.json"],
                                 environment: LinkHostCLI.baseEnvironment, directory: folder.path)
    }

    var stderr: String { child.stderr.text }

    func waitFor(_ text: String, timeout: Double = 60) async throws {
        try await child.waitForStderr(containing: text, timeout: .milliseconds(Int(timeout * 1000)))
    }

    /// Stops with SIGTERM and waits for exit 0.
    func stop() async throws {
        child.send(SIGTERM)
        let ended = try await child.waitForExit(timeout: happensWithin)
        #expect(ended.exitCode == 0, "linkhost did not stop cleanly: \(ended)")
    }
}

/// The config of an ACME test: the default site (app A) on `defaultHosts`, then one site per host list.
func acmeConfig(directory: String, caFile: String, state: String, httpsPort: Int, httpPort: Int, defaultHosts: [String], sites: [[String]]) -> String {
    func list(_ hosts: [String]) -> String { "[" + hosts.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
    let siteEntries = sites.enumerated().map { index, hosts in
        #"{"hosts": \#(list(hosts)), "apps": [{"name": "S\#(index)", "teamID": "ABCDE12345", "bundleID": "com.example.site\#(index)"}]}"#
    }
    return """
    {
      "server": {"host": "127.0.0.1", "port": \(httpsPort), "httpPort": \(httpPort), "connectionTimeout": 60,
                 "tls": {"acme": {"directory": "\(directory)", "caFile": "\(caFile)", "stateDirectory": "\(state)", "hosts": \(list(defaultHosts))}}},
      "apps": [{"name": "A", "teamID": "ABCDE12345", "bundleID": "com.example.default"}],
      "callLinks": {"template": "public/call.html"},
      "sites": [\(siteEntries.joined(separator: ", "))]
    }
    """
}

/// HTTPS through curl with every test name resolved to 127.0.0.1, verified against `caFile`.
func curlHTTPS(_ host: String, port: Int, path: String, caFile: String) async throws -> Termination {
    try await runTool("curl", ["-sS", "--max-time", "10", "--resolve", "\(host):\(port):127.0.0.1", "--cacert", caFile,
                                  "-w", "\n%{http_code}", "https://\(host):\(port)\(path)"])
}

/// The certificate served for a handshake with SNI `name` (nil: no SNI): its text as `openssl x509 -text` shows it.
func servedCertificate(port: Int, name: String?) async throws -> String {
    let handshake = try await runTool("openssl", ["s_client", "-connect", "127.0.0.1:\(port)"] + (name.map { ["-servername", $0] } ?? ["-noservername"]),
                                input: "", timeout: .seconds(10))
    let text = handshake.stdout
    guard let start = text.range(of: "-----BEGIN CERTIFICATE-----"), let end = text.range(of: "-----END CERTIFICATE-----") else {
        throw HarnessError("no certificate in the handshake for \(name ?? "no SNI"): \(handshake)")
    }
    let pem = String(text[start.lowerBound..<end.upperBound]) + "\n"
    return try await runTool("openssl", ["x509", "-noout", "-text", "-serial"], input: pem).stdout
}

/// One TLS connection kept open across requests (openssl s_client), to show a certificate swap drops nothing.
final class OpenTLSConnection: Sendable {
    private let child: ChildProcess

    init(port: Int, name: String) throws {
        child = try ChildProcess(executable: try requireTool("openssl"),
                                 arguments: ["s_client", "-quiet", "-ign_eof", "-connect", "127.0.0.1:\(port)", "-servername", name],
                                 input: .open)
    }

    /// Sends a GET and waits for a complete head; returns the status line.
    func get(_ path: String, host: String, timeout: Double = 10) async throws -> String {
        let before = child.stdout.bytes.count
        child.writeInput("GET \(path) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        // Each piece of the answer is news on stdout; its end of file, the connection closing.
        var news = OutputNews([child.stdout], until: ContinuousClock.now + .milliseconds(Int(timeout * 1000)))
        defer { news.stop() }
        while await news.next() {
            let text = String(decoding: child.stdout.bytes.dropFirst(before), as: UTF8.self)
            if text.contains("\r\n\r\n") { return text.components(separatedBy: "\r\n").first ?? "" }
            guard child.isRunning, !child.stdout.isFinished else { throw HarnessError("the TLS connection closed: \(text)") }
        }
        throw HarnessError("no answer on the open TLS connection within \(timeout) s")
    }
}
