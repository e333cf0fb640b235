import Foundation
import Testing

/// The shipped example config never goes live by accident: no certificate for it, a loud line when it answers
/// beyond loopback, and `validate` naming the example's app wherever it appears.
@Suite("The shipped example config", .timeLimit(.minutes(1)))
struct ExampleConfigTests {
    /// A fixture serving `config/linkhost.json` exactly as shipped (its relative paths resolve in the fixture).
    private func shippedSite() throws -> SiteFixture {
        let site = try SiteFixture()
        try site.writeConfigText(try String(contentsOfFile: SiteFixture.repositoryRoot + "/config/linkhost.json", encoding: .utf8))
        return site
    }

    /// What the image sets, plus a CA nobody answers on: nothing here may reach Let's Encrypt. The HTTP listener
    /// takes a port of the kernel's choosing (0), as the HTTPS one does with `--port 0`: no port is picked for it.
    private func acmeEnvironment(_ site: SiteFixture) throws -> [String: String] {
        ["LINKHOST_ACME_HOSTS": "links.mycompany.com", "LINKHOST_ACME_DIRECTORY": "https://127.0.0.1:9/directory",
         "LINKHOST_HTTP_PORT": "0",
         "LINKHOST_ACME_DEFAULT_STATE_DIRECTORY": site.directory + "/acme"]
    }

    @Test("The README's old HTTPS one-liner (the image's config, LINKHOST_ACME_HOSTS, no mount) exits 2 with one line saying what to mount")
    func acmeRefused() async throws {
        let site = try shippedSite()
        let ended = try await LinkHostCLI.run(LinkHostProcess.defaultArguments(for: site), environment: try acmeEnvironment(site), directory: site.directory)
        #expect(ended.exitCode == 2, "\(ended)")
        let lines = ended.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one clear line: \(ended.stderr)")
        let line = String(lines.first ?? "")
        for part in ["shipped example", "\"example\": true", "/etc/linkhost/linkhost.json", "--config PATH", "LINKHOST_ALLOW_EXAMPLE=1"] {
            #expect(line.contains(part), "the line lacks \(part): \(line)")
        }
        #expect(!ended.stderr.contains("listening on"), "\(ended)")
        #expect(!FileManager.default.fileExists(atPath: site.directory + "/acme"), "nothing of ACME may have started")
    }

    @Test("LINKHOST_ALLOW_EXAMPLE=1 serves the example over HTTPS anyway; a config of one's own needs nothing")
    func overrides() async throws {
        let site = try shippedSite()
        var environment = try acmeEnvironment(site)
        environment["LINKHOST_ALLOW_EXAMPLE"] = "1"
        let allowed = try await LinkHostProcess.start(site, environment: environment)
        #expect(allowed.stderr.contains("linkhost: listening on https://"), "\(allowed.stderr)")
        #expect(allowed.stderr.contains("HTTP listener on http://127.0.0.1:") && !allowed.stderr.contains("127.0.0.1:0:"), "\(allowed.stderr)")
        allowed.signal(SIGTERM)
        _ = try await allowed.waitForExit(timeout: happensWithin)

        // Without the marker the example's content is still refused (ExampleGuardTests); one's own apps are not.
        let own = try SiteFixture()
        let served = try await LinkHostProcess.start(own, environment: try acmeEnvironment(own))
        #expect(served.stderr.contains("linkhost: listening on https://"), "\(served.stderr)")
    }

    @Test("Serving the example where other machines could reach it warns loudly; on loopback, or a config of one's own, it does not",
          skipsOutsideCI(unless: canUnshareNetwork(),
                         "needs unshare -rn (a network namespace of its own, so that :: reaches no other machine)"))
    func loudOffLoopback() async throws {
        // `::` inside a namespace with no interface but a loopback that is down: bound like on a server, reachable by nobody.
        func serveEverywhere(_ site: SiteFixture) async throws -> String {
            let child = try ChildProcess(executable: try requireTool("unshare"),
                                         arguments: ["-rn", try LinkHostCLI.binaryPath(), "serve", "--config", site.configPath, "--host", "::", "--port", "8080"],
                                         environment: LinkHostCLI.baseEnvironment, directory: site.directory)
            try await child.waitForStderr(containing: "listening on")
            child.send(SIGTERM)
            return try await child.waitForExit(timeout: happensWithin).stderr
        }
        let shipped = try await serveEverywhere(try shippedSite())
        #expect(shipped.contains("linkhost: warning: !!! serving the shipped EXAMPLE config") && shipped.contains("on :: port 8080"), "\(shipped)")
        let own = try await serveEverywhere(try SiteFixture())
        #expect(!own.contains("EXAMPLE"), "\(own)")
        let loopback = try await LinkHostProcess.start(try shippedSite())
        // The warning would come between the listening line and the "serving" line: that later line shows it did not.
        try await loopback.waitForStderr(containing: "(generation 1)")
        #expect(!loopback.stderr.contains("EXAMPLE"), "\(loopback.stderr)")
    }

    @Test("validate warns (LH121, exit 0) for the shipped config's app and package, and for them in a site of any config")
    func validateWarns() async throws {
        let site = try shippedSite()
        let shipped = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(shipped.exitCode == 0, "\(shipped)")
        // A valid config's report, warnings included, is on stdout.
        #expect(shipped.stdout.contains("warning LH121 apps[0]") && shipped.stdout.contains("warning LH121 android[0]"), "\(shipped)")

        var config = TestConfig()
        config.teamID = "QRSTU67890"
        config.packageName = "com.example.video"
        try site.writeConfig(config)
        let mine = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(mine.exitCode == 0 && !mine.stdout.contains("LH121 apps[0]") && mine.stdout.contains("warning LH121 android[0]"), "\(mine)")
    }
}

/// True when this machine lets a process have a network namespace of its own (`unshare -rn`).
private func canUnshareNetwork() -> Bool { (try? runTool("unshare", ["-rn", "true"]).status) == 0 }
