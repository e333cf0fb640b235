import CCheckSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

// The harness of the ACME tests: Pebble and pebble-challtestsrv (Debian's packages), the fake CA, the
// openssl and curl clients that check what linkhost serves, and the state folder the tests seed.

/// A program the tests need that is not installed: `make test-deps` installs them.
func requireTools(_ tools: [String]) throws {
    for tool in tools where !FileManager.default.isExecutableFile(atPath: "/usr/bin/" + tool) {
        throw HarnessError("\(tool) is not installed (make test-deps installs pebble, openssl, curl and python3)")
    }
}

/// What a helper command printed and how it ended.
struct ToolRun: CustomStringConvertible {
    let status: Int32
    let output: String
    let errors: String
    var description: String { "exit \(status)\n\(output)\(errors)" }
}

/// Runs a command to its end (killed after `timeout` seconds), reading standard output and error.
func runTool(_ path: String, _ arguments: [String], input: String? = nil, timeout: Double = 20) throws -> ToolRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let output = Pipe(), errors = Pipe(), standardInput = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = standardInput
    try process.run()
    let collectedOutput = PipeDrain(output.fileHandleForReading), collectedErrors = PipeDrain(errors.fileHandleForReading)
    if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
    try? standardInput.fileHandleForWriting.close()
    guard collectedOutput.wait(timeout: timeout), collectedErrors.wait(timeout: timeout) else {
        process.terminate()
        throw HarnessError("\(path) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
    }
    process.waitUntilExit()
    return ToolRun(status: process.terminationStatus, output: collectedOutput.text, errors: collectedErrors.text)
}

/// The two outputs of a tool, written from reader threads.
/// `count` distinct free loopback ports (held open together while chosen, so they differ).
func freePorts(_ count: Int) throws -> [Int] {
    let script = "import socket\ns=[socket.socket() for _ in range(\(count))]\n[x.bind(('127.0.0.1',0)) for x in s]\nprint(' '.join(str(x.getsockname()[1]) for x in s))"
    let run = try runTool("/usr/bin/python3", ["-c", script])
    let ports = run.output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    guard ports.count == count else { throw HarnessError("no free ports: \(run)") }
    return ports
}

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

/// A long-running helper (Pebble, the mock DNS, the fake CA), stopped with SIGTERM to its own pid on deinit.
final class HelperProcess: @unchecked Sendable {
    let process = Process()
    let logPath: String

    init(_ path: String, _ arguments: [String], environment: [String: String] = [:], log: String, directory: String? = nil) throws {
        logPath = log
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Waits until the log contains `text`.
    func waitForLog(_ text: String, timeout: Double = 10) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !log.contains(text) {
            guard process.isRunning else { throw HarnessError("\(process.executableURL?.path ?? "?") exited: \(log)") }
            guard Date() < deadline else { throw HarnessError("no \"\(text)\" within \(timeout) s in:\n\(log)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// SIGTERM, then SIGKILL after two seconds: a child may inherit a blocked SIGTERM from the test runner.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// Pebble with its mock DNS on loopback ports: every name resolves to 127.0.0.1, and Pebble validates HTTP-01
/// for real against `httpPort` (linkhost's HTTP listener).
final class PebbleCA: Sendable {
    let folder: ACMEFolder
    let acmePort: Int, managementPort: Int
    let dns: HelperProcess, pebble: HelperProcess
    var directory: String { "https://127.0.0.1:\(acmePort)/dir" }
    /// The CA file for Pebble's own HTTPS (a self-signed certificate made here).
    var caFile: String { folder.path + "/pebble-listener.pem" }

    init(folder: ACMEFolder, httpPort: Int, nonceReject: Int = 0) async throws {
        try requireTools(["pebble", "pebble-challtestsrv", "openssl", "curl"])
        self.folder = folder
        let ports = try freePorts(5)
        acmePort = ports[0]
        managementPort = ports[1]
        try folder.makeCertificate("localhost", certificate: "pebble-listener.pem", key: "pebble-listener.key")
        let config = """
        {"pebble": {"listenAddress": "127.0.0.1:\(acmePort)", "managementListenAddress": "127.0.0.1:\(managementPort)",
          "certificate": "\(folder.path)/pebble-listener.pem", "privateKey": "\(folder.path)/pebble-listener.key",
          "httpPort": \(httpPort), "tlsPort": \(ports[2]), "ocspResponderURL": "", "externalAccountBindingRequired": false}}
        """
        try folder.write(config, to: "pebble.json")
        let dnsPort = ports[3]
        dns = try HelperProcess("/usr/bin/pebble-challtestsrv",
                                ["-dns01", "127.0.0.1:\(dnsPort)", "-http01", "", "-https01", "", "-tlsalpn01", "",
                                 "-management", "127.0.0.1:\(ports[4])", "-defaultIPv4", "127.0.0.1", "-defaultIPv6", ""],
                                log: folder.path + "/challtestsrv.log")
        try await dns.waitForLog("Starting challenge servers")
        pebble = try HelperProcess("/usr/bin/pebble", ["-config", folder.path + "/pebble.json", "-dnsserver", "127.0.0.1:\(dnsPort)"],
                                   environment: ["PEBBLE_VA_NOSLEEP": "1", "PEBBLE_WFE_NONCEREJECT": "\(nonceReject)", "PEBBLE_AUTHZREUSE": "0"],
                                   log: folder.path + "/pebble.log")
        try await pebble.waitForLog("Listening on: 127.0.0.1:\(acmePort)")
    }

    /// Pebble's root certificate (made anew at each start), from its management port.
    func root() throws -> String {
        let run = try runTool("/usr/bin/curl", ["-sS", "--cacert", caFile, "https://127.0.0.1:\(managementPort)/roots/0"])
        guard run.status == 0, run.output.contains("BEGIN CERTIFICATE") else { throw HarnessError("no Pebble root: \(run)") }
        return run.output
    }

    func stop() {
        pebble.stop()
        dns.stop()
    }
}

/// linkhost with ACME on, from a config written into `folder`.
final class ACMEServer: Sendable {
    let child: ChildProcess
    let httpsPort: Int, httpPort: Int

    init(folder: ACMEFolder, config: String, httpsPort: Int, httpPort: Int) throws {
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
        let ended = try await child.waitForExit(timeout: .seconds(10))
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
func curlHTTPS(_ host: String, port: Int, path: String, caFile: String) throws -> ToolRun {
    try runTool("/usr/bin/curl", ["-sS", "--max-time", "10", "--resolve", "\(host):\(port):127.0.0.1", "--cacert", caFile,
                                  "-w", "\n%{http_code}", "https://\(host):\(port)\(path)"])
}

/// The certificate served for a handshake with SNI `name` (nil: no SNI): its text as `openssl x509 -text` shows it.
func servedCertificate(port: Int, name: String?) throws -> String {
    let handshake = try runTool("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(port)"] + (name.map { ["-servername", $0] } ?? ["-noservername"]),
                                input: "", timeout: 10)
    let text = handshake.output
    guard let start = text.range(of: "-----BEGIN CERTIFICATE-----"), let end = text.range(of: "-----END CERTIFICATE-----") else {
        throw HarnessError("no certificate in the handshake for \(name ?? "no SNI"): \(handshake)")
    }
    let pem = String(text[start.lowerBound..<end.upperBound]) + "\n"
    return try runTool("/usr/bin/openssl", ["x509", "-noout", "-text", "-serial"], input: pem).output
}

/// One TLS connection kept open across requests (openssl s_client), to show a certificate swap drops nothing.
final class OpenTLSConnection: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe(), output = Pipe()
    private let lock = NSLock()
    private var received = Data()

    init(port: Int, name: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_client", "-quiet", "-ign_eof", "-connect", "127.0.0.1:\(port)", "-servername", name]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        output.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            lock.lock(); received.append(data); lock.unlock()
        }
    }

    private func take() -> String { lock.withLock { String(decoding: received, as: UTF8.self) } }
    private func clear() { lock.withLock { received = Data() } }

    /// Sends a GET and waits for a complete head; returns the status line.
    func get(_ path: String, host: String, timeout: Double = 10) async throws -> String {
        clear()
        input.fileHandleForWriting.write(Data("GET \(path) HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8))
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = take()
            if text.contains("\r\n\r\n") { return text.components(separatedBy: "\r\n").first ?? "" }
            guard process.isRunning else { throw HarnessError("the TLS connection closed: \(text)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw HarnessError("no answer on the open TLS connection within \(timeout) s")
    }

    deinit {
        output.fileHandleForReading.readabilityHandler = nil
        if process.isRunning { process.terminate() }
    }
}
