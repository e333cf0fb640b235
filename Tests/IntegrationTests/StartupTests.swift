import Foundation
import Testing

/// Starting up: bad configs refused with exit 2, `validate`, environment overrides.
@Suite("Startup, config errors and environment", .timeLimit(.minutes(1)))
struct StartupTests {
    @Test("An invalid team ID refuses to start: exit 2, stderr names apps[0].teamID and the bad value, nothing listening")
    func invalidTeamID() async throws {
        var config = TestConfig()
        config.teamID = "abc123"
        let site = try SiteFixture(config)
        let ended = try await LinkHostCLI.run(LinkHostProcess.defaultArguments(for: site), directory: site.directory, timeout: happensWithin)
        #expect(ended.exitCode == 2, "\(ended)")
        #expect(ended.stderr.contains("apps[0].teamID"), "\(ended)")
        #expect(ended.stderr.contains("\"abc123\""), "\(ended)")
        #expect(!ended.stderr.contains("listening on"), "\(ended)")
    }

    @Test("A missing config file → exit 2 with one clear line naming the file, no stack trace")
    func missingConfig() async throws {
        let site = try SiteFixture()
        let missing = site.directory + "/does-not-exist.json"
        let ended = try await LinkHostCLI.run(["serve", "--config", missing, "--host", "127.0.0.1", "--port", "0"], directory: site.directory, timeout: happensWithin)
        #expect(ended.exitCode == 2, "\(ended)")
        #expect(!ended.stderr.contains("listening on"), "\(ended)")
        for trace in ["Fatal error", "Stack dump", "backtrace", "0x0000"] {
            #expect(!ended.stderr.contains(trace), "\(ended)")
        }
        let lines = ended.stderr.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(lines.count == 1, "expected one line, got \(lines.count):\n\(ended.stderr)")
        let line = lines.first.map(String.init) ?? ""
        #expect(line.contains(missing) && line.contains("no such file"), "the line should name the file and say it does not exist: \(line)")
    }

    @Test("validate: a good config → exit 0 and says valid")
    func validateGood() async throws {
        let site = try SiteFixture()
        let ended = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(ended.exitCode == 0, "\(ended)")
        #expect(ended.stdout.contains("valid"), "\(ended)")
    }

    @Test("validate: a config with 3 mistakes → exit 2 and all 3 reported at once")
    func validateReportsEveryError() async throws {
        var config = TestConfig()
        config.teamID = "abc123"
        config.bundleID = "com..broken"
        config.fingerprint = "zz:zz"
        let site = try SiteFixture(config)
        let ended = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(ended.exitCode == 2, "\(ended)")
        #expect(ended.stderr.contains("3 errors"), "\(ended)")
        for path in ["apps[0].teamID", "apps[0].bundleID", "android[0].sha256CertFingerprints[0]"] {
            #expect(ended.stderr.contains(path), "\(path) missing from:\n\(ended.stderr)")
        }
        for value in ["\"abc123\"", "\"com..broken\"", "\"zz:zz\""] {
            #expect(ended.stderr.contains(value), "\(value) missing from:\n\(ended.stderr)")
        }
        #expect(!ended.stdout.contains("valid"), "\(ended)")
    }

    @Test("An unknown config key gets a did-you-mean, from validate and from serve")
    func unknownKeySuggestion() async throws {
        let site = try SiteFixture()
        let good = TestConfig().json(publicPath: site.publicPath)
        try site.writeConfigText(good.replacingOccurrences(of: "\"bundleID\"", with: "\"bundleId\""))
        let validated = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(validated.exitCode == 2, "\(validated)")
        #expect(validated.stderr.contains("apps[0].bundleId"), "\(validated)")
        #expect(validated.stderr.contains("did you mean \"bundleID\""), "\(validated)")

        let served = try await LinkHostCLI.run(LinkHostProcess.defaultArguments(for: site), directory: site.directory, timeout: happensWithin)
        #expect(served.exitCode == 2, "\(served)")
        #expect(served.stderr.contains("did you mean \"bundleID\""), "\(served)")
    }

    @Test("LINKHOST_CONFIG, LINKHOST_HOST and LINKHOST_PORT are honoured when no flags are given")
    func environmentOverrides() async throws {
        var config = TestConfig()
        // Only reachable if the environment were ignored: a TEST-NET address (bind fails) and port 1.
        config.serverHost = "192.0.2.1"
        config.serverPort = 1
        let site = try SiteFixture(config)
        let server = try await LinkHostProcess.start(site, arguments: [], environment: [
            "LINKHOST_CONFIG": site.configPath, "LINKHOST_HOST": "127.0.0.1", "LINKHOST_PORT": "0",
        ])
        #expect(server.host == "127.0.0.1", "\(server.stdout)")
        #expect(server.port != 1, "\(server.stdout)")
        let response = try await server.request("GET", "/.well-known/apple-app-site-association")
        #expect(aasaAppIDs(parseJSON(response.body)) == [config.appID], "the config named by LINKHOST_CONFIG must be served: \(response)")
    }

    @Test("--config, --host and --port win over LINKHOST_CONFIG, LINKHOST_HOST and LINKHOST_PORT")
    func flagsWinOverEnvironment() async throws {
        let site = try SiteFixture()
        let server = try await LinkHostProcess.start(site, arguments: LinkHostProcess.defaultArguments(for: site), environment: [
            "LINKHOST_CONFIG": site.directory + "/not-this-one.json", "LINKHOST_HOST": "192.0.2.1", "LINKHOST_PORT": "1",
        ])
        #expect(server.host == "127.0.0.1", "\(server.stdout)")
        #expect(server.port != 1, "\(server.stdout)")
        #expect(try await server.request("GET", "/.well-known/apple-app-site-association").status == 200)
    }

    @Test("An invalid LINKHOST_PORT is a config error naming the variable (exit 2)")
    func invalidEnvironmentPort() async throws {
        let site = try SiteFixture()
        let ended = try await LinkHostCLI.run(["serve", "--config", site.configPath], environment: ["LINKHOST_PORT": "eighty", "LINKHOST_HOST": "127.0.0.1"], directory: site.directory, timeout: happensWithin)
        #expect(ended.exitCode == 2, "\(ended)")
        #expect(ended.stderr.contains("LINKHOST_PORT"), "\(ended)")
        #expect(!ended.stderr.contains("listening on"), "\(ended)")
    }
}
