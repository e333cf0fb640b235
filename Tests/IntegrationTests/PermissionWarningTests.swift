import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 19, item 9 (part): `validate` and `serve` (at start) warn about a config others may change and a
/// private key others may read (LH120), naming the chmod that fixes it; neither stops anything.
@Suite("Permission warnings", .timeLimit(.minutes(2)))
struct PermissionWarningTests {
    /// An HTTPS site whose config is mode 0666 and whose key is mode 0644.
    private func openSite() async throws -> SiteFixture {
        let site = try SiteFixture()
        try site.writeConfig(try await site.servingHTTPS())
        try #require(chmod(site.configPath, 0o666) == 0)
        try #require(chmod(site.directory + "/key.pem", 0o644) == 0)
        return site
    }

    @Test("validate warns about a 0666 config and a 0644 key, exits 0, and is quiet once they are 0644 and 0600")
    func validate() async throws {
        _ = try requireTool("openssl")
        let site = try await openSite()
        let ended = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(ended.exitCode == 0, "\(ended)")
        #expect(ended.stdout.contains("warning LH120 the config file \"\(site.configPath)\" is writable by its group and others (mode 666)"), "\(ended)")
        #expect(ended.stdout.contains("chmod go-w \(site.configPath)"), "\(ended)")
        let key = site.directory + "/key.pem"
        #expect(ended.stdout.contains("warning LH120 server.tls.privateKeyFile: the private key \"\(key)\" is readable by its group and others (mode 644)"), "\(ended)")
        #expect(ended.stdout.contains("chmod 600 \(key)"), "\(ended)")

        try #require(chmod(site.configPath, 0o644) == 0 && chmod(key, 0o600) == 0)
        let fixed = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(fixed.exitCode == 0 && !(fixed.stdout + fixed.stderr).contains("LH120"), "\(fixed)")
    }

    @Test("serve warns about a 0666 config and a 0644 key at start, and serves")
    func serve() async throws {
        _ = try requireTool("openssl")
        let site = try await openSite()
        let server = try await LinkHostProcess.start(site)
        #expect(server.stderr.contains("linkhost: warning: \(site.configPath): the config file \"\(site.configPath)\" is writable by its group and others (mode 666)"), "\(server.stderr)")
        #expect(server.stderr.contains("linkhost: warning: server.tls.privateKeyFile: the private key \"\(site.directory)/key.pem\" is readable by its group and others (mode 644)"), "\(server.stderr)")
        #expect(server.stderr.contains("listening on https://"))
    }

    @Test("validate warns about a key in the ACME store that others can read")
    func storedKey() async throws {
        let site = try SiteFixture()
        let state = site.directory + "/state"
        var config = TestConfig()
        config.serverExtra["httpPort"] = 0
        config.serverExtra["tls"] = ["acme": ["directory": StateFolderTrustTests.directory, "stateDirectory": state, "hosts": ["links.example.com"]]]
        try site.writeConfig(config)
        let folder = state + "/" + StateFolderTrustTests.caFolderName
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try #require(chmod(state, 0o700) == 0)
        try site.write("-----BEGIN PRIVATE KEY-----\n", to: "state/\(StateFolderTrustTests.caFolderName)/account.key.pem")
        try #require(chmod(folder + "/account.key.pem", 0o640) == 0)
        let ended = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(ended.stdout.contains("warning LH120 server.tls.acme.stateDirectory: the private key \"\(folder)/account.key.pem\" is readable by its group (mode 640)"), "\(ended)")
    }
}
