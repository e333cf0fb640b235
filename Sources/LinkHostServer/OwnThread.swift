import Foundation

/// Starts blocking work (draining, building a reload's snapshot, waiting on a semaphore) on a thread
/// made for it. Swift's cooperative pool has one thread per core (two here): a `usleep` loop in a task
/// would take one of them from every other task, and a priority set on a pooled Dispatch thread
/// would stay with whatever that thread runs next.
enum OwnThread {
    /// Runs `body` on a new, named thread and returns at once.
    static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }
}
