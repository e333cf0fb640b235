import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Who holds a host, an id and an app among site files (issue 39 items 2 and 4), and what outlives a restart in
/// `server.stateDirectory` (issue 42), over the real binary: a newcomer never takes a serving tenant's host, id or
/// app whatever its file name sorts as, and a broken tenant serves its last good version after a restart.
@Suite("Site claims and the state folder", .timeLimit(.minutes(3)))
struct SiteClaimsTests {
    /// Globex's file: its host, id and app (iOS and Android).
    static let globex = #"{"id": "globex", "hosts": ["call.globex.example"], "apps": [{"name": "Globex", "teamID": "GLOBEX1234", "bundleID": "com.globex.call"}], "android": [{"packageName": "com.globex.call", "sha256CertFingerprints": ["\#(TestConfig().fingerprint)"]}]}"#

    /// A site config over `sites.d/*.json` with `files`, keeping its state in `state/` when `stateDirectory`.
    static func fixture(_ files: [String: String], stateDirectory: Bool = false, watch: Bool = false, extra: [String: Any] = [:]) throws -> SiteFixture {
        var config = TestConfig()
        config.extra = ["siteFiles": "sites.d/*.json"].merging(extra) { $1 }
        config.serverExtra = ["watchConfig": watch]
        let site = try SiteFixture(config)
        if stateDirectory {
            config.serverExtra["stateDirectory"] = site.directory + "/state"
            try site.writeConfig(config)
        }
        try FileManager.default.createDirectory(atPath: site.directory + "/sites.d", withIntermediateDirectories: false)
        for (name, text) in files { try site.write(text, to: "sites.d/" + name) }
        return site
    }

    @Test("a newcomer sorting first claiming a serving tenant's host or id fails alone at SIGHUP; validate --site on it exits 2 naming both files")
    func newcomerFailsAlone() async throws {
        let site = try Self.fixture(["globex.json": Self.globex])
        let server = try await LinkHostProcess.start(site)
        #expect(try await SiteFilesTests.appIDs(server, host: "call.globex.example") == ["GLOBEX1234.com.globex.call"])

        try site.write(#"{"id": "new", "hosts": ["call.globex.example"], "apps": [{"name": "Evil", "teamID": "EVIL123456", "bundleID": "com.evil.app"}]}"#, to: "sites.d/0-new.json")
        try site.write(#"{"id": "globex", "hosts": ["own.evil.example"], "apps": [{"name": "Evil", "teamID": "EVIL123456", "bundleID": "com.evil.other"}]}"#, to: "sites.d/0-id.json")
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "(generation 2)")

        #expect(try await SiteFilesTests.appIDs(server, host: "call.globex.example") == ["GLOBEX1234.com.globex.call"], "the incumbent keeps its host")
        #expect(try await SiteFilesTests.appIDs(server, host: "own.evil.example") == [TestConfig().appID], "the id thief is left out")
        let failed = server.stderr.split(separator: "\n").filter { $0.contains("LH133") }
        #expect(failed.count == 2 && !failed.contains { $0.contains("sites.d/globex.json): LH133") }, "only the newcomers fail: \(failed)")
        #expect(failed.contains { $0.contains("(sites.d/0-new.json): LH133") && $0.contains("LH138") && $0.contains("held by sites[globex.json] (sites.d/globex.json)") }, "\(failed)")
        #expect(failed.contains { $0.contains("(sites.d/0-id.json): LH133") && $0.contains("name \"globex\" is held by sites[globex.json]") }, "\(failed)")
        let metrics = try await server.request("GET", "/metrics").text
        #expect(!metrics.contains("linkhost_site_config_failed{site=\"globex\"}"), "the incumbent is not reported as failed")

        // validate has no serving snapshot: without a record, a clash fails every claimant, each naming the other.
        let newcomer = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--site", "0-new.json"])
        #expect(newcomer.status == 2, "\(newcomer.stdout + newcomer.stderr)")
        #expect(newcomer.stderr.contains("sites[0-new.json]") && newcomer.stderr.contains("sites[globex.json] (sites.d/globex.json)"), "\(newcomer.stderr)")
        let whole = try await LinkHostCLI.run(["validate", "--config", site.configPath])
        #expect(whole.status == 2 && whole.stderr.contains("also claimed by sites[0-new.json] (sites.d/0-new.json)") && whole.stderr.contains("also claimed by sites[globex.json] (sites.d/globex.json)"), "\(whole.stderr)")
    }

    @Test("with the state folder's record, validate knows the incumbent: the newcomer exits 2 naming the holder, the holder passes")
    func validateReadsTheRecord() async throws {
        let site = try Self.fixture(["globex.json": Self.globex], stateDirectory: true)
        let server = try await LinkHostProcess.start(site)
        try await server.waitForStderr(containing: "server.stateDirectory: kept 1 site file as last good")
        try site.write(#"{"id": "new", "hosts": ["call.globex.example"], "apps": [{"name": "Evil", "teamID": "EVIL123456", "bundleID": "com.evil.app"}]}"#, to: "sites.d/0-new.json")
        let newcomer = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--site", "new"])
        #expect(newcomer.status == 2 && newcomer.stderr.contains("LH138") && newcomer.stderr.contains("held by sites[globex.json] (sites.d/globex.json)"), "\(newcomer.stderr)")
        let holder = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--site", "globex"])
        #expect(holder.status == 0, "\(holder.stdout + holder.stderr)")
    }

    @Test("a second file listing an app is refused; the app's entitlements and manifest hold its own site's hosts only, and both with sharedApps")
    func appBelongsToOneFile() async throws {
        let evil = #"{"id": "evil", "hosts": ["phish.evil.example"], "apps": [{"name": "Globex", "teamID": "GLOBEX1234", "bundleID": "com.globex.call"}], "android": [{"packageName": "com.globex.call", "sha256CertFingerprints": ["\#(TestConfig().fingerprint)"]}]}"#
        let site = try Self.fixture(["globex.json": Self.globex], stateDirectory: true)
        let server = try await LinkHostProcess.start(site)
        try await server.waitForStderr(containing: "server.stateDirectory: kept 1 site file as last good")
        try site.write(evil, to: "sites.d/evil.json")
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "(generation 2)")
        #expect(server.stderr.contains("site \"evil\" (sites.d/evil.json): LH133") && server.stderr.contains("LH139"), "\(server.stderrTail())")
        #expect(try await SiteFilesTests.appIDs(server, host: "phish.evil.example") == [TestConfig().appID], "the newcomer is left out")

        let entitlements = try await LinkHostCLI.run(["print", "entitlements", "--app", "GLOBEX1234.com.globex.call", "--config", site.configPath])
        #expect(entitlements.status == 0 && entitlements.stdout.contains("applinks:call.globex.example") && !entitlements.stdout.contains("evil"), "\(entitlements)")
        #expect(entitlements.stderr.contains("the hosts of globex (site file globex.json)"), "it says whose hosts: \(entitlements.stderr)")
        let manifest = try await LinkHostCLI.run(["print", "android-manifest", "--app", "com.globex.call", "--config", site.configPath])
        #expect(manifest.status == 0 && manifest.stdout.contains("android:host=\"call.globex.example\"") && !manifest.stdout.contains("evil"), "\(manifest)")
        let validate = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--site", "evil.json"])
        #expect(validate.status == 2 && validate.stderr.contains("LH139") && validate.stderr.contains("sites[globex.json] (sites.d/globex.json)"), "\(validate.stderr)")

        // The operator says the two sites share the app: both files serve it, and its files name both hosts.
        var config = TestConfig()
        config.extra = ["siteFiles": "sites.d/*.json", "sharedApps": ["GLOBEX1234.com.globex.call": ["globex", "evil"], "com.globex.call": ["globex", "evil"]]]
        config.serverExtra = ["stateDirectory": site.directory + "/state"]
        try site.writeConfig(config)
        let shared = try await LinkHostCLI.run(["print", "entitlements", "--app", "GLOBEX1234.com.globex.call", "--config", site.configPath])
        #expect(shared.stdout.contains("applinks:call.globex.example") && shared.stdout.contains("applinks:phish.evil.example"), "\(shared)")
        let sharedManifest = try await LinkHostCLI.run(["print", "android-manifest", "--app", "com.globex.call", "--config", site.configPath])
        #expect(sharedManifest.stdout.contains("android:host=\"phish.evil.example\""), "\(sharedManifest)")
    }

    @Test("a broken tenant serves its last good version after a restart with server.stateDirectory, reported as on a reload")
    func lastGoodSurvivesRestart() async throws {
        let site = try Self.fixture(["a.json": SiteFilesTests.tenant("a"), "b.json": SiteFilesTests.tenant("b")], stateDirectory: true)
        let first = try await LinkHostProcess.start(site)
        try await first.waitForStderr(containing: "server.stateDirectory: kept 2 site files as last good")
        first.signal(SIGTERM)
        _ = try await first.waitForExit(timeout: .seconds(20))

        try site.write(#"{"id": "b", "hosts": ["b.example"], "apps": [{"teamID": "#, to: "sites.d/b.json")
        let second = try await LinkHostProcess.start(site)
        #expect(try await SiteFilesTests.appIDs(second, host: "b.example") == ["BBBBBBBBBB.com.b.first"], "the kept version serves")
        #expect(try await SiteFilesTests.appIDs(second, host: "a.example") == ["AAAAAAAAAA.com.a.first"])
        #expect(second.stderr.contains("site \"b\" (sites.d/b.json): LH133") && second.stderr.contains("its last good version serves") && second.stderr.contains("LH131"), "\(second.stderrTail())")
        #expect(try await second.request("GET", "/metrics").text.contains("\nlinkhost_site_config_failed{site=\"b\"} 1\n"))

        // validate finds the broken file by its id, which only the record still knows.
        let byID = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--site", "b"])
        #expect(byID.status == 2 && byID.stderr.contains("LH131") && !byID.stderr.contains("no site of the config"), "\(byID.stderr)")
    }

    @Test("validate --site finds a tenant whose file is broken beyond reading by its file name without the extension")
    func validateBrokenByName() async throws {
        let site = try Self.fixture(["customer0099.json": SiteFilesTests.tenant("a"), "customer0100.json": #"{"id": "customer0100", "hosts": ["#])
        let result = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--site", "customer0100"])
        #expect(result.status == 2 && result.stderr.contains("sites[customer0100.json]") && result.stderr.contains("LH131") && !result.stderr.contains("no site of the config"), "\(result.stderr)")
    }

    @Test("after every file of many is replaced (new inodes, as a kubelet swap), the reload names the one whose bytes changed")
    func reloadLineNamesContentChanges() async throws {
        let names = (0..<40).map { "t" + String(100 + $0).dropFirst() + ".json" }
        var files: [String: String] = [:]
        for (index, name) in names.enumerated() { files[name] = SiteFilesTests.tenant("t\(index)", teamID: "TEAMTEAM" + String(10 + index)) }
        let site = try Self.fixture(files, watch: true)
        let server = try await LinkHostProcess.start(site)
        // Every file written anew and renamed over the old one; only t17's content differs.
        for (index, name) in names.enumerated() {
            let text = SiteFilesTests.tenant("t\(index)", bundle: index == 17 ? "second" : "first", teamID: "TEAMTEAM" + String(10 + index))
            try site.write(text, to: "sites.d/" + name)
        }
        try await server.waitForStderr(containing: "site files sites.d/*.json changed (t17.json changed): reloading (server.watchConfig)")
        try await server.waitForStderr(containing: "(generation 2)")
        let reloaded = server.stderr.split(separator: "\n").first { $0.contains("(generation 2)") } ?? ""
        #expect(reloaded.contains("site files: t17.json changed, config sha256:"), "\(reloaded)")
    }
}
