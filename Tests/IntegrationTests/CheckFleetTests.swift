import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `linkhost check` over 25 generated tenants served by the real binary: it decides per app, names the
/// tenants that are broken, reaches a loopback origin with --connect-to, and a host that hangs costs only
/// its own timeout.
@Suite("check across tenants")
struct CheckFleetTests {
    static let tenants = 25
    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    /// The config of `tenants` customers, each on its own host with its own iOS and Android app;
    /// `bundle` and `android` let a test break one customer.
    static func config(publicPath: String, bundle: (Int) -> String = { "com.customer\($0).video" }, android: (Int) -> Bool = { _ in true }) -> String {
        let sites = (0..<tenants).map { index -> [String: Any] in
            var site: [String: Any] = [
                "hosts": ["meet.customer\(index).test"],
                "apps": [["name": "Customer \(index)", "teamID": String(format: "TEAM%06d", index), "bundleID": bundle(index)]],
                "android": android(index) ? [["packageName": "com.customer\(index).video", "sha256CertFingerprints": [fingerprint]]] : [],
            ]
            if !android(index) { site.removeValue(forKey: "android") }
            return site
        }
        let root: [String: Any] = [
            "server": ["host": "127.0.0.1", "port": 0],
            "static": ["root": publicPath],
            "callLinks": ["paths": ["call"], "template": publicPath + "/call.html", "baseURL": "https://links.example.com"],
            "apps": [["name": "Default", "teamID": "DEFAULT123", "bundleID": "com.example.default"]],
            "sites": sites,
        ]
        let data = try! JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// A TCP listener that never answers: the kernel completes connections into its backlog, nobody reads.
    final class SilentListener {
        let fd: Int32
        let port: Int

        init() throws {
            let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            guard bound == 0, listen(socketFD, 16) == 0 else { throw HarnessError("cannot listen: \(errorText(errno))") }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) } }
            fd = socketFD
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(fd) }
    }

    @Test("a wrong bundle ID and a missing assetlinks.json fail check naming the tenants; the others pass; a hung host costs only its own timeout")
    func brokenTenantsAreNamed() async throws {
        let site = try SiteFixture()
        // What is deployed: customer 7 with a typo in its bundle ID, customer 9 without its Android app.
        try site.writeConfigText(Self.config(publicPath: site.publicPath, bundle: { $0 == 7 ? "com.customer7.vidoe" : "com.customer\($0).video" }, android: { $0 != 9 }))
        let server = try await LinkHostProcess.start(site)
        // What should be deployed.
        try Self.config(publicPath: site.publicPath).write(toFile: site.directory + "/truth.json", atomically: true, encoding: .utf8)
        let urls = (0..<Self.tenants).map { "http://meet.customer\($0).test" }
        let origin = ["--connect-to", "::127.0.0.1:\(server.port)"]
        let common = ["--config", site.directory + "/truth.json", "--allow-http", "--timeout", "3"]
        // Six silent hosts alone: one after the other they would take 18 s (six timeouts of 3 s); side by side about
        // one. Timed alone, where the run is nothing but their timeouts: a difference from a run of the 25 tenants
        // too would measure how fast this machine checks those tenants at that moment, which a busy neighbour moves
        // by more than a timeout (seen: the same 25 tenants 10 s, then 20 s).
        let hung = try (0..<6).map { _ in try SilentListener() }
        let hungURLs = hung.indices.map { "http://hung\($0).test" }
        let hungRoutes = hung.enumerated().flatMap { ["--connect-to", "hung\($0.offset).test:80:127.0.0.1:\($0.element.port)"] }
        let started = ContinuousClock.now
        let hungOnly = try await LinkHostCLI.run(["check"] + hungURLs + common + hungRoutes, directory: site.directory, timeout: .seconds(120))
        let elapsed = ContinuousClock.now - started
        #expect(hungOnly.exitCode == 3, "only silent hosts: an outage: \(hungOnly)")
        #expect(elapsed < .seconds(9), "six silent hosts with --timeout 3 took \(elapsed), not about one timeout: \(hungOnly)")
        // With the tenants: every tenant is still checked and named beside the hosts that hang.
        let run = try await LinkHostCLI.run(["check"] + urls + hungURLs + common + hungRoutes + origin, directory: site.directory, timeout: .seconds(120))
        #expect(run.exitCode == 1, "\(run)")
        let summary = try #require(run.stdout.split(separator: "\n").last.map(String.init))
        #expect(summary.hasPrefix("check: 31 hosts, 23 passed, 2 failed (http://meet.customer7.test, http://meet.customer9.test), 6 unreachable (http://hung0.test"), "\(summary)")
        #expect(run.stdout.contains("LH513") && run.stdout.contains("TEAM000007.com.customer7.video"), "the app that would not open is named")
        #expect(run.stdout.contains("LH510") && run.stdout.contains("com.customer9.video"), "the Android app without assetlinks is named")
        #expect(run.stdout.contains("site \"meet.customer7.test\" (sites[7])"), "the tenant is named")

        let json = try await LinkHostCLI.run(["check", "http://meet.customer7.test", "http://meet.customer8.test", "--config", site.directory + "/truth.json",
                                              "--allow-http", "--connect-to", "::127.0.0.1:\(server.port)", "--format", "json"], directory: site.directory)
        #expect(json.exitCode == 1)
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(reports.map { $0["passed"] as? Bool } == [false, true], "\(json.stdout)")
    }

    @Test("an Android-only and an iOS-only tenant pass check --config: the 404 their site means is no finding, and linkhost's own dynamic rules raise no LH406")
    func singlePlatformTenantsPass() async throws {
        let site = try SiteFixture()
        // Two fingerprints (upload key and Play signing), as a real tenant lists. A query-borne call ID, whose derived Android rules once held an empty pattern (LH406).
        try site.writeConfigText("""
        {"server": {"host": "127.0.0.1", "port": 0}, "static": {"root": "\(site.publicPath)"},
         "apps": [{"name": "Default", "teamID": "DEFAULT123", "bundleID": "com.example.default"}],
         "callLinks": {"links": ["/call/{callId}?type={callType}", "/j?id={callId}&type={callType}"], "template": "\(site.publicPath)/call.html"},
         "sites": [{"hosts": ["android-only.test"], "apps": [],
                    "android": [{"name": "Android only", "packageName": "com.android.only", "sha256CertFingerprints": ["\(CheckSite.fingerprints[0])", "\(CheckSite.fingerprints[1])"]}]},
                   {"hosts": ["ios-only.test"], "android": [],
                    "apps": [{"name": "iOS only", "teamID": "IOSONLY123", "bundleID": "com.ios.only"}]}]}
        """)
        let server = try await LinkHostProcess.start(site)
        let run = try await LinkHostCLI.run(["check", "http://android-only.test", "http://ios-only.test", "--config", site.configPath, "--allow-http",
                                             "--connect-to", "::127.0.0.1:\(server.port)", "--format", "json"], directory: site.directory)
        let reports = try #require(run.json as? [[String: Any]], "\(run)")
        let codes = reports.flatMap { ($0["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String } }
        #expect(run.exitCode == 0, "\(run)")
        #expect(reports.map { $0["passed"] as? Bool } == [true, true], "\(run.stdout)")
        #expect(codes.isEmpty, "a healthy tenant of one platform has nothing to report: \(codes)")
        // The files were fetched: the 404s are the server's answers, not requests left out.
        let urls = reports.flatMap { ($0["requests"] as? [[String: Any]] ?? []).map { "\($0["method"] ?? "") \($0["url"] ?? "") \($0["status"] ?? "")" } }
        #expect(urls.contains("GET http://android-only.test/.well-known/apple-app-site-association 404"), "\(urls)")
        #expect(urls.contains("GET http://ios-only.test/.well-known/assetlinks.json 404"), "\(urls)")
    }

    @Test("only silent hosts: exit 3, so an alert tells an outage from a broken deploy")
    func outageExitCode() async throws {
        let hung = try SilentListener()
        let site = try SiteFixture()
        let run = try await LinkHostCLI.run(["check", "http://hung.test", "--allow-http", "--timeout", "1", "--connect-to", ":80:127.0.0.1:\(hung.port)"],
                                            directory: site.directory, timeout: .seconds(30))
        #expect(run.exitCode == 3, "\(run)")
        #expect(run.stdout.contains("check: 1 host, 0 passed, 1 unreachable (http://hung.test)"), "\(run.stdout)")
    }
}
