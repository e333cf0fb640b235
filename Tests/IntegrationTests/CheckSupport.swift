import CCheckSupport
import Foundation
import LinkHostCore
import Testing

// The harness of the `check`, `match` and `validate` integration tests. Names start with "Check" so they
// never collide with the shared integration harness; blocking work runs on Dispatch threads, never on the
// Swift concurrency pool that the other suites' async tests share.

/// How a `linkhost` run ended.
struct CheckRun: Sendable, CustomStringConvertible {
    let exitCode: Int32
    let stdout: String
    let stderr: String

    var description: String { "exit \(exitCode)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }

    /// Standard output parsed as JSON.
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
}

/// A harness failure (not a product failure).
struct CheckHarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Collects bytes written from another thread.
/// Finds and runs the real `linkhost` binary.
enum CheckBinary {
    /// `LINKHOST_BINARY`, else `linkhost` beside the test bundle (the folder of /proc/self/exe).
    static func path() throws -> String {
        if let path = ProcessInfo.processInfo.environment["LINKHOST_BINARY"], !path.isEmpty { return path }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let candidate = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("linkhost").path
        guard FileManager.default.isExecutableFile(atPath: candidate) else {
            throw CheckHarnessError("no linkhost binary at \(candidate); build it or set LINKHOST_BINARY")
        }
        return candidate
    }

    /// The environment without `LINKHOST_*`, so a developer's settings never change a test.
    static var environment: [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LINKHOST_") }
    }

    /// Runs `linkhost ARGUMENTS`, feeding `input` on standard input, killing it after `timeout` seconds.
    static func run(_ arguments: [String], input: String? = nil, directory: String? = nil, timeout: Double = 60) async throws -> CheckRun {
        let path = try path()
        return try await OwnThread.run { try runBlocking(path, arguments, input: input, directory: directory, timeout: timeout) }
    }

    private static func runBlocking(_ path: String, _ arguments: [String], input: String?, directory: String?, timeout: Double) throws -> CheckRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe(), errors = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = standardInput
        try process.run()
        let stdout = PipeDrain(output.fileHandleForReading), stderr = PipeDrain(errors.fileHandleForReading)
        if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
        try? standardInput.fileHandleForWriting.close()
        if !stdout.wait(timeout: timeout) || !stderr.wait(timeout: timeout) {
            process.terminate()
            _ = stdout.wait(timeout: 10)
            _ = stderr.wait(timeout: 10)
            process.waitUntilExit()
            throw CheckHarnessError("linkhost \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        return CheckRun(exitCode: process.terminationStatus, stdout: stdout.text, stderr: stderr.text)
    }
}

/// A temporary folder with a config, its template and a `public/` folder; removed on deinit.
final class CheckSite: Sendable {
    let directory: String
    var configPath: String { directory + "/linkhost.json" }

    /// Writes the config (with `FOLDER` replaced by the folder) and the files.
    init(config: String = CheckSite.config, files: [String: String] = CheckSite.files) throws {
        directory = NSTemporaryDirectory() + "linkhost-check-" + UUID().uuidString
        let all = files.merging(["linkhost.json": config.replacingOccurrences(of: "FOLDER", with: directory)]) { $1 }
        for (name, contents) in all {
            try write(contents, to: name)
        }
    }

    /// Writes a file under the folder, creating its parents.
    func write(_ contents: String, to name: String) throws {
        let url = URL(fileURLWithPath: directory + "/" + name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    static let fingerprints = [
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5",
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E6",
    ]

    static let config = """
    {
      "server": { "host": "127.0.0.1", "port": 0 },
      "apps": [ { "name": "Example Video", "teamID": "ABCDE12345", "bundleID": "com.example.video" } ],
      "android": [ { "packageName": "com.example.video", "sha256CertFingerprints": ["\(fingerprints[0])", "\(fingerprints[1])"] } ],
      "callLinks": { "paths": ["call"], "template": "FOLDER/call.html" },
      "aasa": { "rules": [ { "path": "/call/admin", "exclude": true }, { "path": "/call/?*" } ] },
      "static": { "root": "FOLDER/public" }
    }
    """

    static let files = [
        // With every element /call.js uses, so a clean config stays clean of LH606.
        "call.html": "<!doctype html><title>call</title>" + PageScriptContract.elementIDs.map { "<p id=\"\($0.id)\"></p>" }.joined() + "\n",
        "public/index.html": "<!doctype html><title>home</title>\n",
    ]
}

/// `linkhost serve` on 127.0.0.1 and a free port, stopped (SIGTERM to its own pid) on `stop`.
final class CheckServer: @unchecked Sendable {
    private let process: Process
    /// `http://127.0.0.1:PORT`.
    let origin: String

    private init(process: Process, origin: String) {
        self.process = process
        self.origin = origin
    }

    /// Starts the server for `site` and waits for its "listening on" line.
    static func start(_ site: CheckSite) async throws -> CheckServer {
        let path = try CheckBinary.path()
        return try await OwnThread.run { try startBlocking(path, site) }
    }

    private static func startBlocking(_ path: String, _ site: CheckSite) throws -> CheckServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["serve", "--config", site.configPath, "--host", "127.0.0.1", "--port", "0"]
        process.environment = CheckBinary.environment
        process.currentDirectoryURL = URL(fileURLWithPath: site.directory)
        // The start line is on stderr, after the library line; stdout (the access log) is not read.
        let diagnostics = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = diagnostics
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        let prefix = "linkhost: listening on "
        while Date() < deadline, !text.split(separator: "\n").dropLast(text.hasSuffix("\n") ? 0 : 1).contains(where: { $0.hasPrefix(prefix) }) {
            let chunk = diagnostics.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix + "http://") }) else {
            process.terminate()
            process.waitUntilExit()
            throw CheckHarnessError("linkhost serve did not start: \(text)")
        }
        return CheckServer(process: process, origin: String(line.dropFirst(prefix.count)))
    }

    /// Stops the server and waits for it.
    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

/// The C canned-response server: each request is answered with a file the test wrote.
final class CheckCannedServer: @unchecked Sendable {
    private let server: OpaquePointer
    private let folder: String
    /// `http://127.0.0.1:PORT` or `https://…`.
    let origin: String

    /// Starts a server answering `responses` (`METHOD /path` → raw HTTP response text); TLS with `certificate`.
    init(_ responses: [String: String], certificate: (cert: String, key: String)? = nil) throws {
        folder = NSTemporaryDirectory() + "linkhost-canned-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (request, response) in responses {
            let name = request.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "/", with: "_")
            try Data(response.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        var port: Int32 = 0
        guard let server = lhcheck_server_start(folder, certificate?.cert, certificate?.key, &port) else {
            throw CheckHarnessError("the canned server did not start")
        }
        self.server = server
        origin = (certificate == nil ? "http" : "https") + "://127.0.0.1:\(port)"
    }

    /// Requests answered so far.
    var requestCount: Int { Int(lhcheck_server_requests(server)) }

    deinit {
        lhcheck_server_stop(server)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A raw response with Content-Length, as a server would frame it.
    static func response(_ status: String, type: String?, _ body: String, extra: [String] = []) -> String {
        var lines = ["HTTP/1.1 \(status)"]
        if let type { lines.append("Content-Type: \(type)") }
        lines.append("Content-Length: \(body.utf8.count)")
        lines += extra
        lines.append("Connection: close")
        return lines.joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    /// A raw response with a chunked body, to exercise the client's decoding.
    static func chunked(type: String, _ body: String) -> String {
        let bytes = Array(body.utf8)
        var text = "HTTP/1.1 200 OK\r\nContent-Type: \(type)\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        var index = 0
        while index < bytes.count {
            let end = min(index + 100, bytes.count)
            text += String(end - index, radix: 16) + "\r\n" + String(decoding: bytes[index..<end], as: UTF8.self) + "\r\n"
            index = end
        }
        return text + "0\r\n\r\n"
    }
}

/// A self-signed certificate in a temporary folder: for `name`, and 127.0.0.1 when `loopback`.
final class CheckCertificate: Sendable {
    let folder: String
    var cert: String { folder + "/cert.pem" }
    var key: String { folder + "/key.pem" }

    init(name: String = "localhost", loopback: Bool = true) throws {
        folder = NSTemporaryDirectory() + "linkhost-cert-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard lhcheck_make_certificate(folder + "/cert.pem", folder + "/key.pem", name, loopback ? 1 : 0) == 0 else {
            throw CheckHarnessError("cannot make a test certificate")
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }
}
