// Blocking work (socket reads and connects, waits on child processes, a sleep that is itself the behaviour
// under test, a stopwatch) runs here, on plain threads of its own: Swift's cooperative pool has one thread per
// core — two on this machine — and a test that blocks one of them stalls every other test's waits with it.
// scripts/check-test-blocking.py fails on a blocking call in async test code outside this file and the other
// helper files it names; inside a test, blocking work goes in an `onThread { … }` or `onThreads(…) { … }` body.
//
//   let bytes = try await onThread { try client.readBlocking() }        one call, off the pool
//   let results = await onThreads(cases, width: 8) { run($0) }           many, on eight threads
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Results filled in by worker threads, and how many workers are still running.
final class ThreadResults<Output: Sendable>: Sendable {
    let results: Mutex<[Output?]>
    let next = Atomic<Int>(0)
    let running: Atomic<Int>

    init(count: Int, workers: Int) {
        results = Mutex(Array(repeating: nil, count: count))
        running = Atomic(workers)
    }
}

/// Runs `body` over `items` on `width` plain threads and returns the results in item order, suspending (not
/// blocking) the calling task meanwhile.
func onThreads<Item: Sendable, Output: Sendable>(
    _ items: [Item], width: Int, name: String = "test worker", _ body: @escaping @Sendable (Item) -> Output
) async -> [Output] {
    guard !items.isEmpty else { return [] }
    let workers = max(1, min(width, items.count))
    let shared = ThreadResults<Output>(count: items.count, workers: workers)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        for index in 0..<workers {
            let thread = Thread {
                while true {
                    let position = shared.next.add(1, ordering: .relaxed).oldValue
                    guard position < items.count else { break }
                    let output = body(items[position])
                    shared.results.withLock { $0[position] = output }
                }
                // The last worker out wakes the test.
                if shared.running.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                    continuation.resume()
                }
            }
            thread.name = "\(name) \(index)"
            thread.start()
        }
    }
    return shared.results.withLock { $0.map { $0! } }
}

/// Runs one blocking `body` on a thread of its own and returns (or throws) what it did, suspending the caller.
func onThread<Output: Sendable>(_ name: String = "test blocking call", _ body: @escaping @Sendable () throws -> Output) async throws -> Output {
    try await onThreads([0], width: 1, name: name) { _ in Result { try body() } }[0].get()
}

/// Runs one blocking `body` that cannot throw on a thread of its own.
func onThread<Output: Sendable>(_ name: String = "test blocking call", _ body: @escaping @Sendable () -> Output) async -> Output {
    await onThreads([0], width: 1, name: name) { _ in body() }[0]
}
