import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Signals that arrive while the server is in another state than plain serving: while it starts,
/// while a reload is being built. The site carries 10 MB of static files, so that loading its
/// snapshot takes long enough (about half a second in a debug build) for a signal to land inside it,
/// and the tests learn where the server is from its notifications (NOTIFY_SOCKET), not from timing.
@Suite("Signals during start and reload", .timeLimit(.minutes(2)))
struct SignalStateTests {
    /// A fixture whose snapshot is slow to build: 400 files of 25 KB each in `public/big/`. The signals are
    /// sent from a thread woken by the notification (`NotifySocket.signal`), so they need a window of
    /// milliseconds; more files only made the tests outlast their waits on a loaded machine (a reload, on its
    /// lower-priority thread, took 40 s of 1,600 files in a full parallel run, and generation 3 needs two).
    static func slowSite(_ config: TestConfig = TestConfig()) throws -> SiteFixture {
        let site = try SiteFixture(config)
        try FileManager.default.createDirectory(atPath: site.publicPath + "/big", withIntermediateDirectories: true)
        let block = String(repeating: "linkhost slow snapshot ", count: 1100)
        for index in 0..<400 {
            try site.write("\(index) \(block)", to: "public/big/file\(index).txt")
        }
        return site
    }

    /// Starts the real binary, notifying `notify`, without waiting for `listening on`.
    static func spawn(_ site: SiteFixture, notify: NotifySocket) throws -> ChildProcess {
        try ChildProcess(executable: try LinkHostCLI.binaryPath(), arguments: LinkHostProcess.defaultArguments(for: site),
                         environment: LinkHostCLI.baseEnvironment.merging(["NOTIFY_SOCKET": notify.path]) { $1 },
                         directory: site.directory)
    }

    @Test("SIGTERM while the config and files are loading: exit 0 without ever listening")
    func stopDuringStart() async throws {
        let site = try Self.slowSite()
        let notify = try NotifySocket()
        let child = try Self.spawn(site, notify: notify)
        _ = try await notify.signal([SIGTERM], when: "STATUS=loading \(site.configPath)") { child.send($0) }
        let ended = try await child.waitForExit(timeout: .seconds(30))
        #expect(ended.exitCode == 0, "\(ended)")
        #expect(ended.stderr.contains("stopped before serving"), "the signal should have landed during the load: \(ended)")
        #expect(!ended.stderr.contains("listening on"), "\(ended)")
    }

    @Test("SIGHUP while loading: the server starts, then reloads once to read what may have changed meanwhile")
    func reloadDuringStart() async throws {
        let site = try Self.slowSite()
        let notify = try NotifySocket()
        var changed = TestConfig()
        changed.bundleID = "com.example.changed-while-loading"
        let child = try Self.spawn(site, notify: notify)
        // The new config is written once the old one has been read: as an operator's deploy might.
        let changedText = changed.json(publicPath: site.publicPath)
        _ = try await notify.signal([SIGHUP], when: "STATUS=loading \(site.configPath)") { signal in
            try? site.writeConfigText(changedText)
            child.send(signal)
        }
        try await child.waitForStderr(containing: "reloaded", timeout: .seconds(60))
        #expect(child.stderr.text.contains("(generation 2)"), "\(child.stderr.text)")
        #expect(child.isRunning)
        child.send(SIGTERM)
        let ended = try await child.waitForExit(timeout: happensWithin)
        #expect(ended.exitCode == 0, "\(ended)")
    }

    @Test("SIGTERM while a reload is being built: the drain does not wait for it, nothing is installed, exit 0")
    func stopDuringReload() async throws {
        let site = try Self.slowSite()
        let notify = try NotifySocket()
        let server = try await LinkHostProcess.start(site, environment: ["NOTIFY_SOCKET": notify.path], timeout: .seconds(60))
        _ = try await notify.wait(for: "READY=1", timeout: .seconds(60))
        server.signal(SIGHUP)
        // RELOADING=1: the reload thread is building the 10 MB snapshot now (as long as the start took).
        _ = try await notify.signal([SIGTERM], when: "RELOADING=1") { server.signal($0) }
        let stop = ContinuousClock.now
        let ended = try await server.waitForExit(timeout: .seconds(30))
        #expect(ended.exitCode == 0, "\(ended)")
        #expect(ended.stderr.contains("linkhost: stopped"), "\(ended)")
        #expect(!ended.stderr.contains("reloaded"), "a reload finished after the stop signal: \(ended)")
        print("stop during reload: exited \(ContinuousClock.now - stop) after SIGTERM")
    }

    @Test("SIGHUPs during a reload fold into one more reload after it: generation 3, not one per signal")
    func reloadsDuringReload() async throws {
        let site = try Self.slowSite()
        let notify = try NotifySocket()
        let server = try await LinkHostProcess.start(site, environment: ["NOTIFY_SOCKET": notify.path], timeout: .seconds(60))
        _ = try await notify.wait(for: "READY=1", timeout: .seconds(60))
        server.signal(SIGHUP)
        // RELOADING=1 comes when the reload thread begins to build the 10 MB snapshot (half a second or so).
        _ = try await notify.signal(Array(repeating: SIGHUP, count: 5), when: "RELOADING=1") { server.signal($0) }
        try await server.waitForStderr(containing: "(generation 3)", timeout: .seconds(60))
        #expect(server.stderr.components(separatedBy: "reloaded ").count - 1 == 2, "\(server.stderr)")
        // A (wrong) reload still owed would begin as generation 3 ends, before this probe lands: the probe's
        // reload, the first to read the changed config, would then be generation 5. Its line is the event
        // that shows no fourth reload came first; no sleep has to guess how long one would take.
        var probe = TestConfig()
        probe.bundleID = "com.example.after-the-fold"
        try site.writeConfigText(probe.json(publicPath: site.publicPath))
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "(generation 4)", timeout: .seconds(60))
        let aasa = try await server.request("GET", "/.well-known/apple-app-site-association")
        #expect(aasaAppIDs(parseJSON(aasa.body)).contains(probe.appID),
                "generation 4 is not the probe's reload, so a fourth reload came from the folded SIGHUPs: \(server.stderr)")
        let reloads = server.stderr.components(separatedBy: "reloaded ").count - 1
        #expect(reloads == 3, "six SIGHUPs, the last five during the first reload, then one probe, should make three reloads: \(server.stderr)")
        server.signal(SIGTERM)
        #expect(try await server.waitForExit(timeout: happensWithin).exitCode == 0)
    }
}
