import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One running MHD daemon and the requests it has in flight; the context of its callbacks.
///
/// Unchecked: `pointer` is written once, before the daemon is published to other threads.
final class Daemon: @unchecked Sendable {
    unowned let server: Server
    var pointer: OpaquePointer!
    let inFlight = Atomic<Int>(0)

    init(server: Server) { self.server = server }

    /// Waits up to `timeout` seconds for in-flight requests, then stops the daemon (closing idle connections).
    func drainAndStop(timeout: Double) {
        var waited = 0.0
        while inFlight.load(ordering: .acquiring) > 0 && waited < timeout {
            usleep(10_000)
            waited += 0.01
        }
        MHD_stop_daemon(pointer)
    }
}
