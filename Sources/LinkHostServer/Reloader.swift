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
final class Reloader: Sendable {
    private let service: Service
    private let options: ServeOptions
    private let pending = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    /// Reloads built so far, whatever their result (for the log and the tests' storm figures).
    let attempts = Atomic<Int>(0)

    /// Starts the reload thread; it sleeps until `request()`.
    init(service: Service, options: ServeOptions) {
        self.service = service
        self.options = options
        OwnThread.start("linkhost reload") { [self] in
            csys_lower_thread_priority(10)
            while true {
                wake.wait()
                // Cleared before the build, so a SIGHUP during it asks for one more.
                guard pending.exchange(false, ordering: .acquiringAndReleasing) else { continue }
                reload()
                // Here, not inside reload(): by now its references to the old snapshot are gone.
                csys_return_free_memory()
            }
        }
    }

    /// Asks for a reload; returns at once.
    func request() {
        if !pending.exchange(true, ordering: .acquiringAndReleasing) { wake.signal() }
    }

    /// Builds the new snapshot beside the old one; only a complete success that changes nothing a
    /// reload cannot apply replaces it.
    private func reload() {
        SystemdNotifier.reloading()
        let old = service.snapshot
        let generation = old.generation + 1
        attempts.add(1, ordering: .relaxed)
        do {
            let (snapshot, tls) = try Supervisor.load(options, generation: generation)
            let refused = ReloadPolicy.refusedChanges(from: old.config, to: snapshot.config)
            if !refused.isEmpty {
                Lifecycle.error("reload refused, still serving generation \(old.generation): \(refused.joined(separator: "; ")) (needs a restart)")
                service.metrics.recordReload(.refused, generation: old.generation)
            } else if try service.install(snapshot, tls: tls) {
                Lifecycle.info("reloaded \(options.configPath) (generation \(generation)): \(Supervisor.describe(snapshot))")
                service.metrics.recordReload(.ok, generation: generation)
            } else {
                Lifecycle.info("reload of generation \(generation) dropped: stopping")
                return
            }
        } catch let error as ServerError {
            Lifecycle.error("reload failed, still serving generation \(old.generation): \(error)")
            service.metrics.recordReload(.failed, generation: old.generation)
        } catch {
            Lifecycle.error("reload failed, still serving generation \(old.generation): \(error)")
            service.metrics.recordReload(.failed, generation: old.generation)
        }
        SystemdNotifier.ready("serving generation \(service.snapshot.generation)")
    }
}
