import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 30 (hardening, round four), items 12, 13 and 14: what the process says and where it sends people —
/// the plain-HTTP listener redirects only hosts the config names, stderr carries syslog priorities when it is
/// the journal's stream, and systemd's READY status says when HTTPS has no certificate yet.
@Suite("Hardening, round four: the process", .serialized, .timeLimit(.minutes(3)))
struct HardeningRoundFourProcessTests {
    @Test("item 12: the HTTP listener beside HTTPS redirects a listed host and loopback, and answers 404 to any other Host")
    func plainHTTPRedirectsNamedHostsOnly() async throws {
        let site = try SiteFixture()
        var config = try await site.servingHTTPS()
        config.serverExtra["httpPort"] = 0
        config.extra["sites"] = [["id": "one", "hosts": ["one.example"]]]
        try site.writeConfig(config)
        let server = try await LinkHostProcess.start(site)
        let plain = try await RawHTTPClient.open(port: try HardeningRoundFourServerTests.httpListenerPort(server.stderr))
        let foreign = try await plain.request("GET", "/call/abc?type=video", headers: [("Host", "evil.example")])
        #expect(foreign.status == 404 && foreign.header("Location") == nil && foreign.header("Cache-Control") == "no-store", "\(foreign.status) \(foreign.headers)")
        let listed = try await plain.request("GET", "/call/abc?type=video", headers: [("Host", "one.example")])
        #expect(listed.status == 308 && listed.header("Location") == "https://one.example/call/abc?type=video", "\(listed.headers)")
        let local = try await plain.request("GET", "/call/abc?type=video", headers: [("Host", "127.0.0.1:8080")])
        #expect(local.status == 308 && local.header("Location") == "https://127.0.0.1/call/abc?type=video", "a local try-out: \(local.headers)")
        #expect(try await plain.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "evil.example")]).status == 200,
                "association files are served on HTTP as before")
    }

    @Test("item 13: with JOURNAL_STREAM naming stderr, every line starts with its priority and no line repeats the name; a stream that is not stderr changes nothing")
    func journalPriorities() async throws {
        let site = try SiteFixture()
        // Group-writable: a warning (LH120) at start.
        try #require(chmod(site.configPath, 0o664) == 0)
        // The shell learns the device and inode of the stderr pipe it hands down, as systemd would set them.
        let script = #"JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2) exec "$0" serve --config "$1" --host 127.0.0.1 --port 0"#
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", script, try LinkHostCLI.binaryPath(), site.configPath],
                                     environment: LinkHostCLI.baseEnvironment, directory: site.directory)
        try await child.waitForStderr(containing: "<6>listening on http://127.0.0.1:")
        var broken = TestConfig()
        broken.teamID = "not-a-team"
        try site.writeConfig(broken)
        child.send(SIGHUP)
        try await child.waitForStderr(containing: "<3>error: reload failed: error LH")
        let lines = child.stderr.text.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("<4>warning: ") && $0.contains("writable by") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<3>error: reload failed, still serving generation 1") }, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("<3>") || $0.hasPrefix("<4>") || $0.hasPrefix("<6>") }, "\(lines)")
        #expect(!lines.contains { $0.contains("linkhost: ") }, "the journal names the process; no line repeats it: \(lines)")
        child.send(SIGTERM)
        _ = try await child.waitForExit(timeout: happensWithin)

        // A JOURNAL_STREAM inherited from elsewhere (stderr redirected) is not the journal: plain lines as before.
        let other = try await LinkHostProcess.start(try SiteFixture(), environment: ["JOURNAL_STREAM": "1:1"])
        #expect(other.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("linkhost: ") }, "\(other.stderr)")
    }

    @Test("item 14: READY's status says which host has no certificate yet while automatic HTTPS orders it; without ACME it says serving")
    func readyStatusNamesMissingCertificates() async throws {
        let site = try SiteFixture()
        var config = TestConfig()
        config.serverExtra["httpPort"] = 0
        config.serverExtra["tls"] = ["acme": ["directory": StateFolderTrustTests.directory, "stateDirectory": site.directory + "/state", "hosts": ["links.example.com"]]]
        try site.writeConfig(config)
        let notify = try NotifySocket()
        let server = try await LinkHostProcess.start(site, environment: ["NOTIFY_SOCKET": notify.path])
        let messages = try await notify.wait(for: "READY=1", timeout: happensWithin)
        let ready = try #require(messages.last)
        #expect(ready.contains("STATUS=serving generation 1; HTTPS has no certificate yet for links.example.com"), "\(messages)")
        _ = server

        let plainNotify = try NotifySocket()
        let plain = try await LinkHostProcess.start(try SiteFixture(), environment: ["NOTIFY_SOCKET": plainNotify.path])
        let plainReady = try await plainNotify.wait(for: "READY=1", timeout: happensWithin)
        #expect(plainReady.last?.contains("STATUS=serving generation 1") == true && plainReady.last?.contains("certificate") == false, "\(plainReady)")
        _ = plain
    }
}
