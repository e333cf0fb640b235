// swift-tools-version:6.0
import PackageDescription

// The targets, top to bottom; every arrow points down (docs/architecture.md):
//
//   linkhost (command line)
//     ├─ LinkHostServer ── CMicroHTTPD, CSystem, CCrypto   the one libmicrohttpd adapter, lifecycle, logs,
//     │    │                                               metrics, automatic HTTPS (Certificates/)
//     │    └─ LinkHostACME                                 the ACME protocol (RFC 8555, RFC 9773): client, JWS
//     ├─ LinkHostCheck                                     `check` (deployment checks) and `stats` (the metrics read back)
//     │  (LinkHostACME and LinkHostCheck both use:)
//     ├─ LinkHostHTTPClient ── CHTTPClient                 outgoing HTTP(S) requests
//     ├─ LinkHostCrypto ── CCrypto                         P-256 keys, signatures, certificate facts (GnuTLS)
//     └─ LinkHostCore                                      config, sites, generation, matching, lint, routing, page, metric names
//          ├─ CallLinks                                    link templates → (callId, callType); no dependencies
//          ├─ LinkHostJSON                                 order-keeping JSON
//          ├─ LinkHostFiles ── CFileSystem                 the few file operations (POSIX), folder listing in C
//          └─ LinkHostQR ── CQREncode                      QR codes (libqrencode) as SVG
let package = Package(
    name: "linkhost",
    // Only CallLinks is meant for Apple platforms (an iOS app adds the CallLinks product); the server is Linux.
    platforms: [.iOS(.v15), .macOS(.v12)],
    products: [
        .executable(name: "linkhost", targets: ["linkhost"]),
        .library(name: "LinkHostCore", targets: ["LinkHostCore"]),
        // `import CallLinks` in an app: the parser the server matches call links with (no C, no other target).
        .library(name: "CallLinks", targets: ["CallLinks"]),
    ],
    // Every target lists each package module it imports, even one a dependency already brings:
    // scripts/check-imports.py (run first by `make test`) fails on an import that is not declared here.
    targets: [
        // Leaves: no dependency on any other Swift target.
        .target(name: "CallLinks"),
        .target(name: "LinkHostJSON"),
        // The one call into libqrencode (Debian's libqrencode-dev, libqrencode4 at run time).
        .target(name: "CQREncode", linkerSettings: [.linkedLibrary("qrencode")]),
        .target(name: "LinkHostQR", dependencies: ["CQREncode"]),
        // Files through POSIX calls, not Foundation; readdir's names are copied out in C.
        .target(name: "CFileSystem"),
        .target(name: "LinkHostFiles", dependencies: ["CFileSystem"]),

        // Everything a request's answer is computed from; imports no C target.
        .target(name: "LinkHostCore", dependencies: ["CallLinks", "LinkHostJSON", "LinkHostFiles", "LinkHostQR"]),

        // The only code that touches sockets and GnuTLS for outgoing requests: `linkhost check`, `stats`, ACME.
        .target(name: "CHTTPClient", linkerSettings: [.linkedLibrary("gnutls")]),
        .target(name: "LinkHostHTTPClient", dependencies: ["LinkHostCore", "CHTTPClient"]),
        // Keys, ES256 signatures, certificate requests and facts, and the SNI certificate table: GnuTLS.
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("gnutls")]),
        // The Swift face of CCrypto: the ACME client signs with it, the certificate store checks keys against
        // chains, `check` reads the certificate a server presents.
        .target(name: "LinkHostCrypto", dependencies: ["LinkHostJSON", "CCrypto"]),
        // The ACME protocol, client side: what automatic HTTPS orders certificates with.
        .target(name: "LinkHostACME", dependencies: ["LinkHostCore", "LinkHostJSON", "LinkHostCrypto", "LinkHostHTTPClient"]),
        // `linkhost check` (a deployment as devices fetch it) and `linkhost stats` (a server's metrics read back).
        .target(name: "LinkHostCheck", dependencies: ["CallLinks", "LinkHostCore", "LinkHostJSON", "LinkHostHTTPClient", "LinkHostCrypto"]),

        // The only code that touches libmicrohttpd's C API (and GnuTLS's, for the sessions it makes).
        .target(name: "CMicroHTTPD", linkerSettings: [.linkedLibrary("microhttpd"), .linkedLibrary("gnutls")]),
        // Signals, resource limits and thread priority.
        .target(name: "CSystem"),
        .target(name: "LinkHostServer", dependencies: ["CallLinks", "LinkHostCore", "LinkHostFiles", "LinkHostACME", "LinkHostCrypto", "LinkHostHTTPClient", "CMicroHTTPD", "CSystem", "CCrypto"]),

        .executableTarget(name: "linkhost", dependencies: ["LinkHostServer", "LinkHostCheck", "LinkHostHTTPClient", "LinkHostCore", "LinkHostJSON", "LinkHostFiles", "CallLinks"]),

        // The entry points the libFuzzer harnesses call, outside the release library.
        .target(name: "LinkHostFuzzTargets", dependencies: ["CallLinks", "LinkHostCore", "LinkHostJSON"], path: "Fuzz/Targets"),

        // Test-only socket helpers, so that raw-socket tests need no unsafe pointer code in Swift.
        .target(name: "CTestSupport", path: "Tests/CTestSupport"),
        // Test-only canned-response HTTP(S) server and certificate maker for `linkhost check`'s tests.
        .target(name: "CCheckSupport", path: "Tests/CCheckSupport", linkerSettings: [.linkedLibrary("gnutls")]),

        // Configs and file helpers shared by the unit tests.
        .target(name: "LinkHostTestSupport", dependencies: ["LinkHostCore", "LinkHostJSON"], path: "Tests/LinkHostTestSupport"),

        .testTarget(name: "CallLinksTests", dependencies: ["CallLinks"], exclude: ["Corpus"]),
        .testTarget(name: "LinkHostJSONTests", dependencies: ["LinkHostJSON"]),
        // Tests/LinkHostQRTests/ChildProcess.swift and OutputNews.swift link to the integration tests' process runner (zbarimg, rsvg-convert, python3).
        .testTarget(name: "LinkHostQRTests", dependencies: ["LinkHostQR", "CTestSupport"]),
        .testTarget(name: "LinkHostFilesTests", dependencies: ["LinkHostFiles"]),
        .testTarget(name: "LinkHostCoreTests", dependencies: ["CallLinks", "LinkHostCore", "LinkHostJSON", "LinkHostFuzzTargets", "LinkHostTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "LinkHostCheckTests", dependencies: ["LinkHostCheck", "LinkHostHTTPClient", "LinkHostCore", "LinkHostJSON", "LinkHostTestSupport"]),
        .testTarget(name: "LinkHostACMETests", dependencies: ["LinkHostACME", "LinkHostCrypto", "LinkHostHTTPClient", "LinkHostCore", "LinkHostJSON"]),
        // The server's parts that need no socket: log lines, page-cache keys, the reload policy, redirects.
        .testTarget(name: "LinkHostServerTests", dependencies: ["LinkHostServer", "LinkHostCore", "CallLinks"]),
        .testTarget(
            name: "IntegrationTests",
            // LinkHostServer for InProcessServer: the answer path driven in process, without a socket.
            dependencies: ["linkhost", "LinkHostServer", "LinkHostCore", "CallLinks", "CTestSupport", "CCheckSupport"],
            // The hostile-request table and the fake ACME CA are read at run time through #filePath, not bundled.
            exclude: ["HostileExpectations.tsv", "ACME/fake_ca.py"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
