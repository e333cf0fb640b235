import Foundation

/// The config a test serves, written as JSON into its site folder.
struct TestConfig {
    var name = "Linkhost Test"
    var teamID = "ABCDE12345"
    var bundleID = "com.example.linkhost"
    /// False leaves "apps" out (an Android-only config).
    var includesApple = true
    /// False leaves "android" out (an iOS-only config).
    var includesAndroid = true
    var packageName = "com.example.linkhost.android"
    var fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    /// `server.host` and `server.port` in the file; the harness passes --host and --port anyway.
    var serverHost = "127.0.0.1"
    var serverPort = 0
    /// `server.shutdownTimeout`, when a test needs a specific drain time.
    var shutdownTimeout: Int?
    /// The iOS app's custom URL scheme, for the Open in app button.
    var urlScheme: String?
    /// `callLinks.baseURL`: the host the raw client sends by default, so pages have their origin whatever
    /// the Host; nil for tests of pages built from a Host the config names (`PageHost`).
    var baseURL: String? = "https://links.example.com"
    /// Extra top-level sections merged into the config (e.g. "observability", or "server" keys via `serverExtra`).
    var extra: [String: Any] = [:]
    /// Extra keys merged into "server" (e.g. "tls").
    var serverExtra: [String: Any] = [:]

    /// The app ID the AASA must list.
    var appID: String { "\(teamID).\(bundleID)" }

    /// The config as JSON text, serving static files from `publicPath`.
    func json(publicPath: String) -> String {
        var server: [String: Any] = ["host": serverHost, "port": serverPort]
        server.merge(serverExtra) { _, new in new }
        if let shutdownTimeout { server["shutdownTimeout"] = shutdownTimeout }
        var root: [String: Any] = [
            "server": server,
            "static": ["root": publicPath],
            // An absolute template: the server's working directory must not decide what it reads (a child
            // running as another user may not even be able to enter the repository).
            "callLinks": ["paths": ["call"], "template": publicPath + "/call.html"].merging(baseURL.map { ["baseURL": $0] } ?? [:]) { $1 },
        ]
        if includesApple {
            var app: [String: Any] = ["name": name, "teamID": teamID, "bundleID": bundleID, "appStoreID": "1234567890"]
            if let urlScheme { app["urlScheme"] = urlScheme }
            root["apps"] = [app]
        }
        if includesAndroid {
            var app: [String: Any] = ["packageName": packageName, "sha256CertFingerprints": [fingerprint]]
            // Without an iOS app the page takes the Android app's name, which a site must then have.
            if !includesApple { app["name"] = name }
            root["android"] = [app]
        }
        root.merge(extra) { _, new in new }
        let data = try! JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}

/// A fresh temporary folder with `linkhost.json`, a `public/` tree and a secret file beside it
/// (for traversal tests); removed when the fixture goes away.
final class SiteFixture: Sendable {
    /// The folder; the server runs with it as working directory.
    let directory: String

    var configPath: String { directory + "/linkhost.json" }
    var publicPath: String { directory + "/public" }

    /// Contents that must never be served: the secret outside `public/` and the hidden dotfile inside it.
    static let outsideSecret = "OUTSIDE-SECRET-91c2"
    static let hiddenSecret = "HIDDEN-SECRET-7f3a"

    /// The files of `public/`, by path relative to it.
    static let publicFiles: [String: String] = [
        "index.html": "<!doctype html><title>linkhost test home</title>\n",
        "style.css": "body { color: #123456 }\n",
        "sub/index.html": "<p>sub index</p>\n",
        "a b.txt": "a file whose name has a space\n",
        ".hidden": hiddenSecret + "\n",
    ]

    /// The package root, found from this file's path.
    static let repositoryRoot: String = {
        let file = #filePath
        return String(file[..<file.range(of: "/Tests/")!.lowerBound])
    }()

    init(_ config: TestConfig = TestConfig()) throws {
        directory = NSTemporaryDirectory() + "linkhost-integ-" + UUID().uuidString
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory + "/public/sub", withIntermediateDirectories: true)
        for (path, contents) in Self.publicFiles {
            try write(contents, to: "public/" + path)
        }
        // The shipped page template, its script, style and locales, so call pages render as they do in production.
        for shipped in ["call.html", "call.js", "site.css", "locales"] {
            try manager.copyItem(atPath: Self.repositoryRoot + "/public/" + shipped, toPath: publicPath + "/" + shipped)
        }
        try write(Self.outsideSecret + "\n", to: "secret.txt")
        // A symbolic link leaving the static root must not be followed.
        try manager.createSymbolicLink(atPath: publicPath + "/escape.txt", withDestinationPath: "../secret.txt")
        try writeConfig(config)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Replaces the config file atomically, as an operator's deploy would.
    func writeConfig(_ config: TestConfig) throws {
        try writeConfigText(config.json(publicPath: publicPath))
    }

    /// Replaces the config file with raw text (for configs a `TestConfig` cannot express).
    func writeConfigText(_ text: String) throws {
        try write(text, to: "linkhost.json")
    }

    /// Writes a file under the fixture folder atomically.
    func write(_ contents: String, to relativePath: String) throws {
        try Data(contents.utf8).write(to: URL(fileURLWithPath: directory + "/" + relativePath), options: .atomic)
    }
}

extension SiteFixture {
    /// Makes a self-signed certificate for localhost in the fixture (`cert.pem`, `key.pem`, by `openssl req`
    /// with `keyArguments`) and returns `config` serving HTTPS with it.
    func servingHTTPS(_ config: TestConfig = TestConfig(), keyArguments: [String] = ["-newkey", "rsa:2048"], extraArguments: [String] = []) async throws -> TestConfig {
        let made = try await runTool("openssl", ["req", "-x509"] + keyArguments + ["-nodes", "-days", "1", "-subj", "/CN=localhost"] + extraArguments
                                        + ["-keyout", directory + "/key.pem", "-out", directory + "/cert.pem"])
        guard made.status == 0 else { throw HarnessError("openssl req failed: \(made.stderr)") }
        var config = config
        config.serverExtra["tls"] = ["certificateFile": directory + "/cert.pem", "privateKeyFile": directory + "/key.pem"]
        return config
    }
}
