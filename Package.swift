// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "linkhost",
    products: [
        .executable(name: "linkhost", targets: ["linkhost"]),
        .library(name: "LinkHost", targets: ["LinkHost"]),
    ],
    targets: [
        // The only code that touches libmicrohttpd's C API.
        .target(
            name: "CMicroHTTPD",
            linkerSettings: [.linkedLibrary("microhttpd")]
        ),
        // The only code that touches sockets and GnuTLS: the HTTP transport of `linkhost check`.
        .target(
            name: "CHTTPClient",
            linkerSettings: [.linkedLibrary("gnutls")]
        ),
        .target(
            name: "LinkHost",
            dependencies: ["CMicroHTTPD", "CHTTPClient"]
        ),
        .executableTarget(
            name: "linkhost",
            dependencies: ["LinkHost"]
        ),
        // Test-only socket helpers, so that raw-socket tests need no unsafe pointer code in Swift.
        .target(
            name: "CTestSupport",
            path: "Tests/CTestSupport"
        ),
        // Test-only canned-response HTTP(S) server and certificate maker for `linkhost check`'s tests.
        .target(
            name: "CCheckSupport",
            path: "Tests/CCheckSupport",
            linkerSettings: [.linkedLibrary("gnutls")]
        ),
        .testTarget(
            name: "LinkHostTests",
            dependencies: ["LinkHost"],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["linkhost", "CTestSupport", "CCheckSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
