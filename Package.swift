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
        .target(
            name: "LinkHost",
            dependencies: ["CMicroHTTPD"]
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
        .testTarget(
            name: "LinkHostTests",
            dependencies: ["LinkHost"],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["linkhost", "CTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
