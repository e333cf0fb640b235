import Foundation

/// Blocking work for the harness on threads of its own: Dispatch's global queues and the cooperative pool
/// are shared with every test running at once, and a loaded machine can leave work queued there past any
/// timeout, which then fails a test that had nothing wrong with it.
enum OwnThread {
    /// Runs `work` on a new thread and returns its result to the awaiting task.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}

/// Reads a pipe to its end on a thread of its own, so a child's output never waits for a free worker.
final class PipeDrain: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var data = Data()

    /// Starts reading `handle` until end of file.
    init(_ handle: FileHandle) {
        Thread { [self] in
            let read = handle.readDataToEndOfFile()
            lock.lock()
            data = read
            lock.unlock()
            done.signal()
        }.start()
    }

    /// Waits until the pipe is at its end; false when `timeout` seconds pass first.
    func wait(timeout: Double) -> Bool { done.wait(timeout: .now() + timeout) == .success }

    /// What was read, as UTF-8 text.
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}
