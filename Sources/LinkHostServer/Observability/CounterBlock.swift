import Synchronization

/// A site's counters (requests, fetches, beacons) in one allocation of atomics, as `DurationHistograms` keeps its
/// buckets, made on the first count: with an object per number ten thousand tenants held 700,000 of them (about
/// 2 KB a tenant), and most tenants are quiet at any time.
final class CounterBlock: @unchecked Sendable {
    // Unchecked Sendable: the block is published and written only through atomics, and freed in deinit.
    private let block = Atomic<UnsafeMutablePointer<Atomic<Int>>?>(nil)
    private let count: Int

    init(count: Int) {
        self.count = count
    }

    deinit {
        guard let values = block.load(ordering: .acquiring) else { return }
        values.deinitialize(count: count)
        values.deallocate()
    }

    /// Counts one at `index`, making the block when it is the site's first count (the first thread's wins).
    func increment(_ index: Int) {
        if let values = block.load(ordering: .acquiring) {
            values[index].add(1, ordering: .relaxed)
            return
        }
        let made = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: count)
        for offset in 0..<count { (made + offset).initialize(to: Atomic(0)) }
        let (exchanged, current) = block.compareExchange(expected: nil, desired: made, ordering: .acquiringAndReleasing)
        if !exchanged {
            made.deinitialize(count: count)
            made.deallocate()
        }
        (exchanged ? made : current!)[index].add(1, ordering: .relaxed)
    }

    /// The count at `index`.
    func load(_ index: Int) -> Int { block.load(ordering: .acquiring)?[index].load(ordering: .relaxed) ?? 0 }
}
