import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 19, item 3: the ACME state folder is trusted only when it deserves it (owned by linkhost's user,
/// writable by no one else, no link in place of a subfolder), and no file is ever written through a
/// planted link. Each test runs the real `linkhost serve` (or `validate`) on a state folder set up here.
@Suite("ACME state folder trust", .timeLimit(.minutes(2)))
struct StateFolderTrustTests {
    /// A closed port: no CA answers, which these tests never need (the account key is made before any request).
    static let directory = "https://127.0.0.1:1/directory"
    /// The store's subfolder for `directory` (the URL as a file name).
    static let caFolderName = "127.0.0.1-1-directory"

    /// A site whose config turns ACME on with its state folder at `<site>/state`.
    private func acmeSite() throws -> (site: SiteFixture, state: String) {
        let site = try SiteFixture()
        var config = TestConfig()
        config.serverExtra["httpPort"] = 0
        config.serverExtra["tls"] = ["acme": ["directory": Self.directory, "stateDirectory": site.directory + "/state", "hosts": ["links.example.com"]]]
        try site.writeConfig(config)
        return (site, site.directory + "/state")
    }

    /// Makes `path` a folder with exactly `mode` (the umask cannot narrow it).
    private func makeFolder(_ path: String, mode: mode_t) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try #require(chmod(path, mode) == 0)
    }

    /// Runs `serve` and expects it to refuse: it exits (not 0) within ten seconds, never listening.
    private func expectRefusal(_ site: SiteFixture) async throws -> Termination {
        let child = try ChildProcess(executable: try LinkHostCLI.binaryPath(), arguments: LinkHostProcess.defaultArguments(for: site),
                                     environment: LinkHostCLI.baseEnvironment, directory: site.directory)
        let ended = try await child.waitForExit(timeout: happensWithin)
        #expect(ended.exitCode != nil && ended.exitCode != 0, "\(ended)")
        #expect(!(ended.stdout + ended.stderr).contains("listening on"), "\(ended)")
        return ended
    }

    @Test("serve refuses a group-writable state folder, naming the fix, and writes nothing into it")
    func groupWritableStateFolder() async throws {
        let (site, state) = try acmeSite()
        try makeFolder(state, mode: 0o770)
        let ended = try await expectRefusal(site)
        #expect(ended.stderr.contains("\(state) is writable by its group (mode 770)"), "\(ended)")
        #expect(ended.stderr.contains("chmod 700 \(state)"), "\(ended)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state).isEmpty)
    }

    @Test("serve refuses a world-writable CA subfolder that already exists")
    func worldWritableSubfolder() async throws {
        let (site, state) = try acmeSite()
        try makeFolder(state, mode: 0o700)
        try makeFolder(state + "/" + Self.caFolderName, mode: 0o777)
        let ended = try await expectRefusal(site)
        #expect(ended.stderr.contains("chmod 700 \(state)/\(Self.caFolderName)"), "\(ended)")
    }

    @Test("serve refuses a symbolic link planted in place of the CA subfolder, and writes nothing through it")
    func linkInPlaceOfSubfolder() async throws {
        let (site, state) = try acmeSite()
        try makeFolder(state, mode: 0o700)
        let elsewhere = site.directory + "/elsewhere"
        try makeFolder(elsewhere, mode: 0o700)
        try FileManager.default.createSymbolicLink(atPath: state + "/" + Self.caFolderName, withDestinationPath: elsewhere)
        let ended = try await expectRefusal(site)
        #expect(ended.stderr.contains("\(state)/\(Self.caFolderName) is a symbolic link, not a folder"), "\(ended)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }

    @Test("a planted account.key.pem.tmp link is never followed: its target stays as it was, the key lands in a file of its own")
    func plantedTemporaryLink() async throws {
        let (site, state) = try acmeSite()
        let folder = state + "/" + Self.caFolderName
        try makeFolder(state, mode: 0o700)
        try makeFolder(folder, mode: 0o700)
        let victim = site.directory + "/victim.txt"
        try "VICTIM 5c1e\n".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/account.key.pem.tmp", withDestinationPath: victim)
        let server = try await LinkHostProcess.start(site)
        let key = folder + "/account.key.pem"
        let written = try await eventually { FileManager.default.fileExists(atPath: key) }
        #expect(written, "no account key was stored: \(server.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "VICTIM 5c1e\n", "the planted link was followed")
        let attributes = try FileManager.default.attributesOfItem(atPath: key)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular, "\(attributes)")
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(attributes)")
        #expect(try String(contentsOfFile: key, encoding: .utf8).contains("PRIVATE KEY"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/account.key.pem.tmp")) == nil, "the planted link is still there")
    }

    @Test("validate reports a group-writable state folder as an error (exit 2) with the fix")
    func validateRefusesGroupWritable() async throws {
        let (site, state) = try acmeSite()
        try makeFolder(state, mode: 0o775)
        let ended = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(ended.exitCode == 2, "\(ended)")
        #expect(ended.stderr.contains("error LH119 server.tls.acme.stateDirectory:"), "\(ended)")
        #expect(ended.stderr.contains("chmod 700 \(state)"), "\(ended)")
        try #require(chmod(state, 0o700) == 0)
        let fixed = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(fixed.exitCode == 0 && !(fixed.stdout + fixed.stderr).contains("LH119"), "\(fixed)")
    }
}
