import CMicroHTTPD
import LinkHostCore
import Synchronization

/// Native copies of rendered call pages, bounded, dropped with their snapshot.
///
/// Unchecked: the dictionary and the MHD responses in it are touched only under `entries`' lock,
/// and a response is queued before the lock is released, so eviction can never free one in use.
final class PageCache: @unchecked Sendable {
    /// Unchecked for the reason the cache is: only touched under the lock.
    private struct Entry: @unchecked Sendable {
        let response: OpaquePointer
        let bytes: Int
    }

    /// A connection handed into the lock; it belongs to the calling worker thread throughout.
    private struct ConnectionHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let entries = Mutex<[PageKey: Entry]>([:])
    private let capacity: Int

    /// An empty cache of at most `capacity` pages.
    init(capacity: Int) {
        self.capacity = capacity
    }

    deinit {
        entries.withLock { all in for entry in all.values { MHD_destroy_response(entry.response) } }
    }

    /// Queues the cached page for `key`, if there is one.
    func queue(_ key: PageKey, on connection: OpaquePointer) -> (result: MHD_Result, bytes: Int)? {
        guard capacity > 0 else { return nil }
        let handle = ConnectionHandle(pointer: connection)
        return entries.withLock { all in
            guard let entry = all[key] else { return nil }
            return (MHD_queue_response(handle.pointer, 200, entry.response), entry.bytes)
        }
    }

    /// Makes a native copy of a rendered page, keeps it (emptying the cache when full), and queues it.
    func store(_ key: PageKey, _ response: Response, headers: CHeaders, on connection: OpaquePointer) -> MHD_Result? {
        guard capacity > 0, let made = NativeSnapshot.makeNative(response, cHeaders: headers) else { return nil }
        let native = Entry(response: made, bytes: response.body.count)
        let handle = ConnectionHandle(pointer: connection)
        return entries.withLock { all in
            if all.count >= capacity {
                for entry in all.values { MHD_destroy_response(entry.response) }
                all.removeAll(keepingCapacity: true)
            }
            if let old = all.updateValue(native, forKey: key) {
                MHD_destroy_response(old.response)
            }
            return MHD_queue_response(handle.pointer, 200, native.response)
        }
    }
}
