import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `siteFiles` over real sockets against the real binary: one file per tenant, one broken file harms one
/// tenant, and the watcher sees what changed in the folder (and a same-size rewrite of the config file).
@Suite("Site files", .timeLimit(.minutes(2)))
struct SiteFilesTests {
    /// One tenant's file: its id, host `<id>.example`, and an app whose Team ID is its letter ten times.
    static func tenant(_ id: String, bundle: String = "first", teamID: String? = nil) -> String {
        let team = teamID ?? String(repeating: id.uppercased(), count: 10)
        return #"{"id": "\#(id)", "hosts": ["\#(id).example"], "apps": [{"name": "\#(id)", "teamID": "\#(team)", "bundleID": "com.\#(id).\#(bundle)"}], "android": []}"#
    }

    /// A site whose config reads `sites.d/*.json`, with `files` there.
    static func fixture(_ files: [String: String], strictHosts: Bool = false, watch: Bool = false) throws -> SiteFixture {
        var config = TestConfig()
        config.extra = ["siteFiles": "sites.d/*.json"]
        config.serverExtra = ["strictHosts": strictHosts, "watchConfig": watch]
        let site = try SiteFixture(config)
        try FileManager.default.createDirectory(atPath: site.directory + "/sites.d", withIntermediateDirectories: false)
        for (name, text) in files { try site.write(text, to: "sites.d/" + name) }
        return site
    }

    /// The app IDs the AASA names on `host`; empty when it answers otherwise.
    static func appIDs(_ server: LinkHostProcess, host: String) async throws -> [String] {
        let answer = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", host)])
        return answer.status == 200 ? aasaAppIDs(parseJSON(answer.body)) : []
    }

    @Test("one reload: a tenant's change applies while another's broken file keeps its last good version, loudly (stderr, /healthz, gauge)")
    func brokenFileKeepsLastGood() async throws {
        let site = try Self.fixture(["a.json": Self.tenant("a"), "b.json": Self.tenant("b"), "c.json": Self.tenant("c")])
        let server = try await LinkHostProcess.start(site)
        #expect(try await Self.appIDs(server, host: "b.example") == ["BBBBBBBBBB.com.b.first"])

        try site.write(Self.tenant("a", bundle: "second"), to: "sites.d/a.json")
        try site.write(#"{"id": "b", "hosts": ["b.example"], "apps": [{"teamID": "#, to: "sites.d/b.json")
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "(generation 2)")

        #expect(try await Self.appIDs(server, host: "a.example") == ["AAAAAAAAAA.com.a.second"], "the other tenant's change applied")
        #expect(try await Self.appIDs(server, host: "b.example") == ["BBBBBBBBBB.com.b.first"], "the broken tenant keeps its last good version")
        #expect(try await Self.appIDs(server, host: "c.example") == ["CCCCCCCCCC.com.c.first"])
        let lines = server.stderr.split(separator: "\n").filter { $0.contains("LH133") }
        #expect(lines.count == 1 && lines[0].contains("site \"b\" (sites.d/b.json)") && lines[0].contains("last good version serves") && lines[0].contains("LH131"), "\(lines)")
        // The public probe counts failed site files; which tenant is in the log and on the metrics port (issue 30).
        let health = try await server.request("GET", "/healthz")
        #expect(health.status == 200 && health.text.contains("site files FAILED: 1") && !health.text.contains("sites.d/b.json"), "\(health.text)")
        let metrics = try await server.request("GET", "/metrics").text
        #expect(metrics.contains("\nlinkhost_site_config_failed{site=\"b\"} 1\n"), "\(metrics.split(separator: "\n").filter { $0.contains("site_config") })")
        #expect(metrics.contains("\nlinkhost_config_reload_failed 0\n"), "the reload itself applied")

        try site.write(Self.tenant("b", bundle: "third"), to: "sites.d/b.json")
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "(generation 3)")
        #expect(try await Self.appIDs(server, host: "b.example") == ["BBBBBBBBBB.com.b.third"])
        #expect(try await !server.request("GET", "/healthz").text.contains("FAILED"))
        #expect(try await !server.request("GET", "/metrics").text.contains("linkhost_site_config_failed{"))
    }

    @Test("started with a broken file: the others serve, its hosts answer as unlisted; validate exits 2 naming the file and the site")
    func startedWithBrokenFile() async throws {
        let site = try Self.fixture(["a.json": Self.tenant("a"), "b.json": Self.tenant("b", teamID: "bad"), "c.json": Self.tenant("c")], strictHosts: true)
        let server = try await LinkHostProcess.start(site)
        #expect(try await Self.appIDs(server, host: "a.example") == ["AAAAAAAAAA.com.a.first"])
        #expect(try await Self.appIDs(server, host: "c.example") == ["CCCCCCCCCC.com.c.first"])
        let b = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "b.example")])
        #expect(b.status == 404 && b.header("Cache-Control") == "no-store" && !b.text.contains("com.b.first"), "\(b)")
        #expect(server.stderr.contains("site \"b\" (sites.d/b.json): LH133") && server.stderr.contains("left out"), "\(server.stderr)")
        #expect(try await server.request("GET", "/metrics").text.contains("\nlinkhost_site_config_failed{site=\"b\"} 1\n"))

        let validate = try await LinkHostCLI.run(["validate", "--config", site.configPath])
        #expect(validate.status == 2)
        #expect(validate.stderr.contains("error LH133 site \"b\" (sites[b.json]): site file sites.d/b.json failed"), "\(validate.stderr)")
        #expect(validate.stderr.contains("LH101 site \"b\" (sites[b.json]) apps[0].teamID"), "\(validate.stderr)")
        let one = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--site", "a"])
        #expect(one.status == 0, "tenant a alone is fine: \(one.stdout + one.stderr)")
    }

    @Test("the watcher sees a new site file and serves it, and a removed one stops serving")
    func watcherSeesNewFile() async throws {
        let site = try Self.fixture(["a.json": Self.tenant("a")], watch: true)
        let server = try await LinkHostProcess.start(site)
        #expect(try await Self.appIDs(server, host: "d.example") == [TestConfig().appID], "no site lists d.example yet")
        try site.write(Self.tenant("d"), to: "sites.d/d.json")
        try await server.waitForStderr(containing: "site files sites.d/*.json changed (d.json added): reloading (server.watchConfig)")
        try await server.waitForStderr(containing: "(generation 2)")
        #expect(try await Self.appIDs(server, host: "d.example") == ["DDDDDDDDDD.com.d.first"])
        try FileManager.default.removeItem(atPath: site.directory + "/sites.d/d.json")
        try await server.waitForStderr(containing: "(d.json removed)")
        try await server.waitForStderr(containing: "(generation 3)")
        #expect(try await Self.appIDs(server, host: "d.example") == [TestConfig().appID])
    }

    @Test("the watcher sees the config rewritten in place with the same size and its modification time put back")
    func watcherSeesSameSizeRewrite() async throws {
        var config = TestConfig()
        config.bundleID = "com.example.first"
        config.serverExtra = ["watchConfig": true]
        let site = try SiteFixture(config)
        let server = try await LinkHostProcess.start(site)
        #expect(try await Self.appIDs(server, host: "links.example.com") == ["ABCDE12345.com.example.first"])

        var before = stat()
        try #require(stat(site.configPath, &before) == 0)
        config.bundleID = "com.example.other"
        let text = config.json(publicPath: site.publicPath)
        try #require(text.utf8.count == Int(before.st_size), "the rewrite must keep the size")
        // In place: the same inode, then the modification time put back as it was, to the nanosecond.
        let handle = try #require(FileHandle(forWritingAtPath: site.configPath))
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        let times = [before.st_atim, before.st_mtim]
        try #require(utimensat(AT_FDCWD, site.configPath, times, 0) == 0)
        var after = stat()
        try #require(stat(site.configPath, &after) == 0)
        #expect(after.st_ino == before.st_ino && after.st_size == before.st_size)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)

        try await server.waitForStderr(containing: "reloading (server.watchConfig)")
        try await server.waitForStderr(containing: "(generation 2)")
        #expect(try await Self.appIDs(server, host: "links.example.com") == ["ABCDE12345.com.example.other"])
    }
}
