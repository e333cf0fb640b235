import CMicroHTTPD
import LinkHostCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One running MHD daemon, the settings it was started with, its header deadlines and the requests it
/// has in flight; the context of its callbacks.
///
/// Unchecked: `pointer` is written once, before the daemon is published to other threads; the
/// deadline tracker is made before the daemon starts and freed only after it stopped.
final class Daemon: @unchecked Sendable {
    unowned let server: Server
    var pointer: OpaquePointer!
    /// The settings and certificate the daemon runs with: a change to either needs a new daemon.
    let settings: ServerSettings
    let tls: TLSMaterial?
    /// The connections whose request head is due (nil when `server.headerTimeout` is 0).
    let deadlines: OpaquePointer?
    /// Requests between the access handler's first call and the request-completed callback.
    let inFlight = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    init(server: Server, settings: ServerSettings, tls: TLSMaterial?) {
        self.server = server
        self.settings = settings
        self.tls = tls
        deadlines = settings.headerTimeout > 0
            ? cmhd_deadlines_create(UInt32(settings.headerTimeout) * 1000, tls == nil ? 0 : 1)
            : nil
    }

    /// Blocks the calling thread until no request is in flight or `deadline` (monotonic nanoseconds) has
    /// passed; true when none is left. Call it on a thread of linkhost's own, never a pooled one.
    func drain(until deadline: UInt64) -> Bool {
        while inFlight.load(ordering: .acquiring) > 0 {
            if LogTime.monotonicNanoseconds() >= deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// Stops the daemon (closing every connection it still holds) and its deadline tracker; once only.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if let pointer { MHD_stop_daemon(pointer) }
        if let deadlines { cmhd_deadlines_destroy(deadlines) }
    }
}
