import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 19, item 7: a reload reads only regular files and checks their size before reading, so a FIFO
/// in `public/` cannot block the reload thread and a huge sparse file cannot balloon the process; a later
/// SIGHUP with the folder fixed still applies.
@Suite("Reload reads only regular files", .timeLimit(.minutes(2)))
struct ReloadFileKindTests {
    /// The largest resident size the process has had (VmHWM), in kB.
    private func peakResidentKilobytes(_ pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let value = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) else {
            throw HarnessError("no VmHWM in /proc/\(pid)/status")
        }
        return value
    }

    /// After the folder is fixed, one more SIGHUP applies: a file added with the fix is served.
    private func expectFixedReloadApplies(_ server: LinkHostProcess, _ site: SiteFixture) async throws {
        try site.write("added after the fix\n", to: "public/fixed.txt")
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "reloaded", timeout: happensWithin)
        let served = try await eventually { try await server.request("GET", "/fixed.txt").status == 200 }
        #expect(served, "\(server.stderr)")
        let metrics = try await server.request("GET", "/metrics").text
        #expect(metrics.contains("linkhost_reloads_total{result=\"failed\"} 1"), "\(metrics)")
    }

    @Test("a FIFO in public/: the reload is refused at once naming it, the old snapshot serves, a later SIGHUP applies")
    func fifo() async throws {
        let site = try SiteFixture()
        let server = try await LinkHostProcess.start(site)
        let pipe = site.publicPath + "/pipe"
        try #require(mkfifo(pipe, 0o644) == 0)
        server.signal(SIGHUP)
        // Before the fix the reload thread blocked in open() for ever and logged nothing.
        try await server.waitForStderr(containing: "reload failed", timeout: happensWithin)
        #expect(server.stderr.contains("\(pipe) is a FIFO (named pipe), not a regular file"), "\(server.stderr)")
        #expect(try await server.request("GET", "/style.css").status == 200)
        try #require(unlink(pipe) == 0)
        try await expectFixedReloadApplies(server, site)
    }

    @Test("a 1 GiB sparse file in public/: the reload is refused before reading it, memory stays flat, a later SIGHUP applies")
    func hugeSparseFile() async throws {
        let site = try SiteFixture()
        let server = try await LinkHostProcess.start(site)
        let huge = site.publicPath + "/huge.bin"
        try #require(FileManager.default.createFile(atPath: huge, contents: nil))
        try #require(truncate(huge, 1 << 30) == 0)
        let before = try peakResidentKilobytes(server.child.pid)
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "reload failed", timeout: .seconds(20))
        #expect(server.stderr.contains("\(huge) is 1073741824 bytes"), "\(server.stderr)")
        let after = try peakResidentKilobytes(server.child.pid)
        // Before the fix the whole gigabyte was read first: the peak went from ~13 MB to over 1 GB.
        #expect(after - before < 64 * 1024, "peak resident size grew from \(before) kB to \(after) kB")
        print("sparse 1 GiB reload: peak resident \(before) kB before, \(after) kB after")
        try #require(unlink(huge) == 0)
        try await expectFixedReloadApplies(server, site)
    }

    @Test("a reload past the watchdog's limit is logged and counted; a SIGHUP meanwhile applies once it ends")
    func watchdog() async throws {
        let site = try SiteFixture()
        // 4 MB of static files make a reload last well past a 10 ms limit on any machine (about 0.2 s idle
        // here), yet not so long that two of them outlast the wait below when the machine is loaded: in a full
        // run with every suite at once, 24 MB took 24 s a reload and the second one missed a 20 s wait.
        for index in 0..<8 {
            try Data(repeating: UInt8(index), count: 512 << 10).write(to: URL(fileURLWithPath: site.publicPath + "/large-\(index).bin"))
        }
        let server = try await LinkHostProcess.start(site, environment: ["LINKHOST_RELOAD_WATCHDOG_SECONDS": "0.01"])
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "a reload is still running after 0.01 s", timeout: .seconds(20))
        var changed = TestConfig()
        changed.bundleID = "com.example.afterwatchdog"
        try site.writeConfig(changed)
        server.signal(SIGHUP)
        let applied = try await eventually(timeout: .seconds(60)) {
            aasaAppIDs(parseJSON(try await server.request("GET", "/.well-known/apple-app-site-association").body)) == [changed.appID]
        }
        #expect(applied, "\(server.stderr)")
        #expect(server.stderr.contains("the reload that was stuck ended after"), "\(server.stderr)")
        let metrics = try await server.request("GET", "/metrics").text
        #expect(metrics.contains("linkhost_reloads_stuck_total ") && !metrics.contains("linkhost_reloads_stuck_total 0\n"), "\(metrics)")
    }

    @Test("a file named on the command line may still be a pipe: validate --aasa reads a FIFO its writer fills")
    func commandLinePipe() async throws {
        let site = try SiteFixture()
        let aasa = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.video"], "components": [{"/": "/call/*"}]}]}}"#
        try site.write(aasa, to: "aasa.json")
        let pipe = site.directory + "/aasa.pipe"
        try #require(mkfifo(pipe, 0o600) == 0)
        // The writer blocks in open() until validate opens the FIFO to read, as `<(curl …)` would feed it.
        let writer = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "cat aasa.json > aasa.pipe"], environment: [:], directory: site.directory)
        let ended = try await LinkHostCLI.run(["validate", "--aasa", pipe], directory: site.directory)
        #expect(ended.exitCode == 0 && ended.stdout.contains("valid"), "\(ended)")
        _ = try await writer.waitForExit(timeout: happensWithin)
    }
}
