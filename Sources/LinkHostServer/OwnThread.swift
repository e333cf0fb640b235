import CSystem

#if canImport(Glibc)
import Glibc
#endif

/// Starts blocking work (draining, building a reload's snapshot, waiting on a semaphore) on a thread
/// made for it. Swift's cooperative pool has one thread per core (two here): a `usleep` loop in a task
/// would take one of them from every other task, and a priority set on a pooled Dispatch thread
/// would stay with whatever that thread runs next.
///
/// A plain pthread, not Foundation's `Thread`: importing Foundation (rather than FoundationEssentials)
/// would link its internationalisation data into the static binary, about 40 MB.
enum OwnThread {
    /// The work, kept alive by the new thread until it has run.
    private final class Work {
        let name: String
        let body: @Sendable () -> Void
        init(_ name: String, _ body: @escaping @Sendable () -> Void) { (self.name, self.body) = (name, body) }

        func run() {
            csys_name_this_thread(name)
            body()
        }
    }

    /// Runs `body` on a new, detached thread named `name` (at most 15 bytes show) and returns at once.
    static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Work(name, body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard result == 0 else {
            // No thread to be had: run the work here rather than lose it.
            Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
            return
        }
        pthread_detach(thread)
    }
}
