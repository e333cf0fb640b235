import Foundation
import Testing

/// `--env-file`: a shell gets the environment a systemd unit gives the service, so `validate` and `check`
/// see what the service will (issue 31: the unit sets the ports, and the config rightly names none).
@Suite("--env-file: the unit's environment in a shell")
struct EnvironmentFileTests {
    private static let root = SiteFixture.repositoryRoot

    @Test("validate of an ACME config without ports fails alone and passes with the shipped unit's environment")
    func shippedUnit() async throws {
        // The issue's config: config/examples/https.json without its ports, which the unit sets.
        let site = try SiteFixture()
        let example = try String(contentsOfFile: Self.root + "/config/examples/https.json", encoding: .utf8)
        #expect(example.contains(#""port": 443, "httpPort": 80, "#))
        try site.writeConfigText(example.replacingOccurrences(of: #""port": 443, "httpPort": 80, "#, with: ""))
        let config = site.configPath
        let alone = try await LinkHostCLI.run(["validate", "--config", config], directory: Self.root)
        #expect(alone.exitCode == 2 && alone.stderr.contains("LH108 server.httpPort: missing"), "\(alone)")
        let state = NSTemporaryDirectory() + "linkhost-envfile-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: state) }
        // The unit's state folder is /var/lib/linkhost, which StateDirectory= makes for the service, and its
        // WorkingDirectory= /srv/linkhost; a file read after the unit (a drop-in's place) points them here, and runs
        // the service as root (a DynamicUser= service owns no folder but its StateDirectory=: ServiceStateFolderTests).
        let dropIn = state + ".conf"
        try "[Service]\nEnvironment=LINKHOST_ACME_DEFAULT_STATE_DIRECTORY=\(state)\nWorkingDirectory=\(Self.root)\nDynamicUser=no\n".write(toFile: dropIn, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: dropIn) }
        let unit = Self.root + "/deploy/linkhost-https.service"
        let withUnit = try await LinkHostCLI.run(["validate", "--env-file", unit, "--env-file", dropIn, "--config", config], directory: Self.root)
        #expect(withUnit.exitCode == 0, "\(withUnit)")
        #expect(withUnit.stdout.contains("valid"), "\(withUnit)")
    }

    @Test("EnvironmentFile syntax: comments, quotes, continued lines; a unit's empty Environment= resets; later files win")
    func syntax() async throws {
        let site = try SiteFixture()
        let spaced = site.directory + "/with space"
        try FileManager.default.createDirectory(atPath: spaced, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: site.configPath, toPath: spaced + "/linkhost.json")
        try site.write("# a comment\n; another\n\nLINKHOST_CONFIG=\"\(spaced)/linkhost.json\"\nOTHER=a \\\n  b\n", to: "plain.env")
        let plain = try await LinkHostCLI.run(["validate", "--env-file", site.directory + "/plain.env"], directory: site.directory)
        #expect(plain.exitCode == 0 && plain.stdout.hasPrefix(spaced + "/linkhost.json: valid"), "\(plain)")

        try site.write("""
            [Unit]
            Description=x
            Environment=LINKHOST_CONFIG=/nowhere/unit-section.json
            [Service]
            Environment=LINKHOST_CONFIG=/nowhere/reset.json
            Environment=
            Environment="LINKHOST_CONFIG=\(spaced)/linkhost.json" LINKHOST_PORT=9
            [Install]
            Environment=LINKHOST_CONFIG=/nowhere/install-section.json

            """, to: "x.service")
        let unit = try await LinkHostCLI.run(["validate", "--env-file=" + site.directory + "/x.service"], directory: site.directory)
        #expect(unit.exitCode == 0 && unit.stdout.hasPrefix(spaced + "/linkhost.json: valid"), "\(unit)")

        // WorkingDirectory= is entered: a relative config path resolves there, as the service's does.
        try site.write("[Service]\nWorkingDirectory=\(site.directory)\nEnvironment=LINKHOST_CONFIG=linkhost.json\n", to: "dir.service")
        let entered = try await LinkHostCLI.run(["validate", "--env-file", site.directory + "/dir.service"], directory: "/")
        #expect(entered.exitCode == 0 && entered.stdout.hasPrefix("linkhost.json: valid"), "\(entered)")

        try site.write("LINKHOST_CONFIG=/nowhere/later.json\n", to: "later.env")
        let later = try await LinkHostCLI.run(["validate", "--env-file", site.directory + "/x.service", "--env-file", site.directory + "/later.env"],
                                              environment: ["LINKHOST_CONFIG": site.configPath], directory: site.directory)
        #expect(later.exitCode == 2 && later.stderr.contains("/nowhere/later.json"), "the later file wins over the unit and the shell: \(later)")
    }

    @Test("a missing or malformed file is a usage error that names it")
    func errors() async throws {
        let site = try SiteFixture()
        let missing = try await LinkHostCLI.run(["check", "--env-file", site.directory + "/none.env", "--config", site.configPath], directory: site.directory)
        #expect(missing.exitCode == 2 && missing.stderr.contains("--env-file \(site.directory)/none.env"), "\(missing)")
        try site.write("just words\n", to: "bad.env")
        let bad = try await LinkHostCLI.run(["validate", "--env-file", site.directory + "/bad.env"], directory: site.directory)
        #expect(bad.exitCode == 2 && bad.stderr.contains("not KEY=VALUE: just words"), "\(bad)")
        try site.write("[Service]\nWorkingDirectory=/nowhere/linkhost\n", to: "gone.service")
        let gone = try await LinkHostCLI.run(["validate", "--env-file", site.directory + "/gone.service"], directory: site.directory)
        #expect(gone.exitCode == 2 && gone.stderr.contains("WorkingDirectory=/nowhere/linkhost"), "\(gone)")
        let noValue = try await LinkHostCLI.run(["validate", "--env-file"], directory: site.directory)
        #expect(noValue.exitCode == 2 && noValue.stderr.contains("--env-file needs a value"), "\(noValue)")
    }
}
