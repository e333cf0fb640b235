import CSystem
import Dispatch
import LinkHostCore
import Synchronization

/// Builds and installs reloads on a thread of its own, one at a time.
///
/// SIGHUPs that arrive while a reload is being built are folded into one more reload after it, so a
/// storm of signals costs at most one snapshot beyond the one being built, and the signal thread
/// never waits. The thread runs at a lower priority (it is linkhost's own, so nothing else inherits
/// that), leaving the cores to the threads answering requests.
///
/// Files are read only after `fstat` says they are regular and small enough, so a reload should not
/// hang; a watchdog still says so when one runs past its limit (a hung network file system, a disk
/// failing): one error line and `linkhost_reloads_stuck_total`, then one line when it ends. SIGHUPs
/// meanwhile stay queued and are applied once it ends.
final class Reloader: Sendable {
    /// Seconds a reload may run before the watchdog reports it; `LINKHOST_RELOAD_WATCHDOG_SECONDS` sets it.
    static let defaultWatchdogSeconds = 30.0

    private let service: Service
    private let options: ServeOptions
    /// `server.stateDirectory`'s writer, told of each snapshot installed; nil without one.
    private let stateWriter: SiteStateWriter?
    private let pending = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    /// One signal per build begun and per build ended, for the watchdog.
    private let buildBegan = DispatchSemaphore(value: 0)
    private let buildEnded = DispatchSemaphore(value: 0)
    /// Reloads built so far, whatever their result (for the log and the tests' storm figures).
    let attempts = Atomic<Int>(0)

    /// Starts the reload thread, which sleeps until `request()`, and its watchdog.
    init(service: Service, options: ServeOptions, stateWriter: SiteStateWriter? = nil) {
        self.service = service
        self.options = options
        self.stateWriter = stateWriter
        let limit = options.environment["LINKHOST_RELOAD_WATCHDOG_SECONDS"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil } ?? Self.defaultWatchdogSeconds
        OwnThread.start("linkhost reload") { [self] in
            csys_lower_thread_priority(10)
            while true {
                wake.wait()
                // Cleared before the build, so a SIGHUP during it asks for one more.
                guard pending.exchange(false, ordering: .acquiringAndReleasing) else { continue }
                buildBegan.signal()
                reload()
                buildEnded.signal()
                // Again here, for a reload that failed or was refused: by now the snapshot it built is gone too.
                csys_return_free_memory()
            }
        }
        OwnThread.start("linkhost reload watchdog") { [self] in
            while true {
                buildBegan.wait()
                let began = LogTime.monotonicNanoseconds()
                guard buildEnded.wait(timeout: .now() + limit) == .timedOut else { continue }
                Lifecycle.error("a reload is still running after \(Self.seconds(limit)) s (a slow or hung file system?); still serving generation \(service.snapshot.generation), SIGHUPs meanwhile are applied once it ends")
                service.metrics.recordStuckReload()
                buildEnded.wait()
                Lifecycle.info("the reload that was stuck ended after \(Self.seconds(Double(LogTime.monotonicNanoseconds() &- began) / 1e9)) s")
            }
        }
    }

    /// "30" or "0.05": seconds for the log.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : "\((value * 100).rounded() / 100)"
    }

    /// Asks for a reload; returns at once.
    func request() {
        if !pending.exchange(true, ordering: .acquiringAndReleasing) { wake.signal() }
    }

    /// Builds the new snapshot beside the old one; only a complete success that changes nothing a
    /// reload cannot apply replaces it. A failure is logged with every diagnostic and its code, and stays
    /// on the status board (`/healthz`, `linkhost_config_reload_failed`) until a reload applies.
    private func reload() {
        SystemdNotifier.reloading()
        // Held only until the new snapshot is built and checked: once it serves, the old one is freed and its pages
        // returned before the "reloaded" line, so whoever reads the process's memory at that line reads it at rest.
        var old: Snapshot? = service.snapshot
        let (oldGeneration, oldSHA256) = (old?.generation ?? 0, old?.configSHA256 ?? "")
        // What the reload line compares the new site files with, kept past the old snapshot.
        let oldSiteFiles = old?.config.siteFileDigests ?? [:]
        let generation = oldGeneration + 1
        attempts.add(1, ordering: .relaxed)
        let still = "still serving generation \(oldGeneration) (config sha256:\(oldSHA256))"
        var fileSHA256: String?
        do {
            let file = try Supervisor.ConfigFile(path: options.configPath)
            fileSHA256 = file.sha256
            let (snapshot, tls) = try Self.build(options, file: file, generation: generation, after: old)
            let refused = ReloadPolicy.refusedChanges(from: old?.config ?? snapshot.config, to: snapshot.config)
            old = nil
            // The board before the log, here and below: whoever acts on a line finds `/healthz` saying so already.
            if !refused.isEmpty {
                failed(.refused, lines: refused.map { "refused \($0) (needs a restart)" }, fileSHA256: fileSHA256, generation: oldGeneration)
                Lifecycle.error("reload refused, \(still): \(refused.joined(separator: "; ")) (needs a restart)")
            } else if try service.install(snapshot, tls: tls) {
                csys_return_free_memory()
                service.metrics.recordReload(.ok, generation: generation)
                service.metrics.serving(snapshot)
                let changes = SiteFileChanges(before: oldSiteFiles, after: snapshot.config.siteFileDigests)
                let files = changes.isEmpty ? "" : ", site files: \(changes.description)"
                Lifecycle.info("reloaded \(options.configPath) (generation \(generation)): \(Supervisor.describe(snapshot))\(files), config sha256:\(snapshot.configSHA256)")
                stateWriter?.write(snapshot.config)
            } else {
                Lifecycle.info("reload of generation \(generation) dropped: stopping")
                return
            }
        } catch let error as ConfigError {
            let lines = ConfigStatusBoard.lines(error)
            let count = error.errors.count
            failed(.failed, lines: lines, fileSHA256: fileSHA256, generation: oldGeneration)
            // One line per diagnostic, each with its code: a log search for `LH1` or the path finds it.
            Lifecycle.errors(["reload failed, \(still): \(error.source)\(fileSHA256.map { " (sha256:\($0))" } ?? ""): \(count) error\(count == 1 ? "" : "s")"]
                + lines.map { "reload failed: \($0)" })
        } catch {
            failed(.failed, lines: ["\(error)"], fileSHA256: fileSHA256, generation: oldGeneration)
            Lifecycle.error("reload failed, \(still): \(error)")
        }
        SystemdNotifier.ready(service.metrics.certificates.serviceStatus(generation: service.snapshot.generation))
    }

    /// The new snapshot, its sites of failed files falling back to their versions in `old` (the last good ones).
    private static func build(_ options: ServeOptions, file: Supervisor.ConfigFile, generation: Int, after old: Snapshot?) throws(ConfigError) -> (Snapshot, TLSMaterial?) {
        let lastGood = Dictionary((old?.config.sites ?? []).compactMap { site in site.file.map { ($0, site) } }, uniquingKeysWith: { first, _ in first })
        return try Supervisor.load(options, file: file, generation: generation, lastGood: lastGood)
    }

    /// Counts a reload that left the old snapshot serving and puts it on the status board.
    private func failed(_ result: Metrics.ReloadResult, lines: [String], fileSHA256: String?, generation: Int) {
        service.metrics.recordReload(result, generation: generation)
        service.metrics.configStatus.reloadFailed(.init(time: LogTime.now().seconds, fileSHA256: fileSHA256, lines: lines))
    }
}
