/// News from a child's output captures until a deadline: each chunk read and each end of file wakes the waiter.
///
/// Waits for output await this instead of looking every few milliseconds: a look per chunk, none in between, and
/// a wait that ends at its deadline even when nothing more arrives.
struct OutputNews {
    private let captures: [OutputCapture]
    private let tokens: [Int]
    private let continuation: AsyncStream<Void>.Continuation
    private var iterator: AsyncStream<Void>.AsyncIterator
    private let timer: Task<Void, Never>
    private let deadline: ContinuousClock.Instant

    /// Watches `captures` from now (the first `next` returns at once, for what was read before) until `deadline`.
    init(_ captures: [OutputCapture], until deadline: ContinuousClock.Instant) {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.captures = captures
        self.continuation = continuation
        self.iterator = stream.makeAsyncIterator()
        self.deadline = deadline
        self.tokens = captures.map { $0.watch(continuation) }
        self.timer = Task {
            // Not a poll: the deadline itself, which ends the stream so that `next` returns false.
            try? await Task.sleep(until: deadline, clock: .continuous)
            continuation.finish()
        }
    }

    /// Waits for more output or an end of file; false once the deadline has passed.
    mutating func next() async -> Bool {
        guard ContinuousClock.now < deadline else { return false }
        return await iterator.next() != nil && ContinuousClock.now < deadline
    }

    /// Ends the watch (call it when done waiting, also on the way out by an error).
    func stop() {
        timer.cancel()
        for (capture, token) in zip(captures, tokens) { capture.unwatch(token) }
        continuation.finish()
    }
}
