import Dispatch
import Synchronization

/// Work over many independent items spread on the machine's cores, its results kept in item order.
///
/// `validate` of thousands of tenants spends most of its time in checks that read one site each (issue 33);
/// those run in contiguous chunks, so caches that serve consecutive sites of the same rules keep working in each
/// chunk, and the output is the same whatever the number of chunks.
enum OrderedChunks {
    /// Below this many items the threads cost more than they save.
    static let minimumItems = 64

    /// How many chunks `count` items are cut into: one for a handful, else a few per core, so a chunk of slow
    /// sites does not leave a core idle at the end.
    static func chunkCount(for count: Int, cores: Int) -> Int {
        guard count >= minimumItems, cores > 1 else { return 1 }
        return min(count, cores * 4)
    }

    /// `body` of each chunk of `0..<count`, run concurrently, in chunk order.
    static func map<Result: Sendable>(_ count: Int, chunks: Int, _ body: @Sendable (Range<Int>) -> Result) -> [Result] {
        guard chunks > 1 else { return [body(0..<count)] }
        let bounds = (0...chunks).map { count * $0 / chunks }
        let results = Mutex<[Result?]>(Array(repeating: nil, count: chunks))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let made = body(bounds[chunk]..<bounds[chunk + 1])
            results.withLock { $0[chunk] = made }
        }
        return results.withLock { $0.map { $0! } }
    }
}
