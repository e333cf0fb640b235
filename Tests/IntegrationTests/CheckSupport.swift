import CCheckSupport
import Foundation
import LinkHostCore
import Testing

// The harness of the `check`, `match` and `validate` integration tests: the sites they lint and serve, the
// canned-response server and certificates. `linkhost` itself runs through `LinkHostCLI.run` (ChildProcess.swift).

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
      "apps": [ { "name": "Example Video", "teamID": "ABCDE12345", "bundleID": "com.example.video", "appStoreID": "1234567890" } ],
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

extension CheckSite {
    /// Starts `linkhost serve` on this folder's config, on 127.0.0.1 and a free port, once it printed its
    /// "listening on" line; the server stops (SIGTERM) with `child.stop()`, and is killed when `child` goes away.
    func serve() async throws -> (child: ChildProcess, origin: String) {
        let child = try ChildProcess(executable: try LinkHostCLI.binaryPath(),
                                     arguments: ["serve", "--config", configPath, "--host", "127.0.0.1", "--port", "0"],
                                     environment: LinkHostCLI.baseEnvironment, directory: directory)
        let (host, port) = try await LinkHostProcess.waitUntilListening(child, timeout: .seconds(20))
        return (child, "http://\(host):\(port)")
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
            throw HarnessError("the canned server did not start")
        }
        self.server = server
        origin = (certificate == nil ? "http" : "https") + "://127.0.0.1:\(port)"
    }

    /// Requests answered so far.
    var requestCount: Int { Int(lhcheck_server_requests(server)) }

    /// Each request received so far, `METHOD target`, with the `User-Agent` it carried ("-" without one).
    var requestLog: [(request: String, userAgent: String)] {
        let text = (try? String(contentsOfFile: folder + "/.requests", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

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
            throw HarnessError("cannot make a test certificate")
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }
}
