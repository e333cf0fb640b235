import CMicroHTTPD
import LinkHostCore
import Synchronization

/// Native copies of rendered call pages and QR codes, each with its 304, bounded, dropped with their snapshot.
///
/// Unchecked: the dictionary and the MHD responses in it are touched only under `entries`' lock,
/// and a response is queued before the lock is released, so eviction can never free one in use.
final class PageCache: @unchecked Sendable {
    /// Unchecked for the reason the cache is: only touched under the lock.
    private struct Entry: @unchecked Sendable {
        let ok: OpaquePointer
        let notModified: OpaquePointer
        let etag: String
        let bytes: Int

        func destroy() {
            MHD_destroy_response(ok)
            MHD_destroy_response(notModified)
        }
    }

    /// A connection handed into the lock; it belongs to the calling worker thread throughout.
    private struct ConnectionHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// What was queued: the libmicrohttpd result, the status and the body bytes, for the log.
    struct Queued {
        let result: MHD_Result
        let status: Int
        let bytes: Int
    }

    private let entries = Mutex<[PageKey: Entry]>([:])
    private let capacity: Int

    /// An empty cache of at most `capacity` pages.
    init(capacity: Int) {
        self.capacity = capacity
    }

    deinit {
        entries.withLock { all in for entry in all.values { entry.destroy() } }
    }

    /// Queues the cached page for `key`, or its 304 when `ifNoneMatch` names its ETag, if there is one.
    func queue(_ key: PageKey, ifNoneMatch: String?, on connection: OpaquePointer) -> Queued? {
        guard capacity > 0 else { return nil }
        let handle = ConnectionHandle(pointer: connection)
        return entries.withLock { all in
            guard let entry = all[key] else { return nil }
            return Self.queue(entry, ifNoneMatch: ifNoneMatch, on: handle.pointer)
        }
    }

    /// Makes native copies of a rendered page and its 304, keeps them (emptying the cache when full), and
    /// queues the one the request asks for; nil when the cache is off or a copy cannot be made.
    func store(_ key: PageKey, _ resource: Resource, headers: CHeaders?, ifNoneMatch: String?, on connection: OpaquePointer) -> Queued? {
        guard capacity > 0, let ok = NativeSnapshot.makeNative(resource.ok, cHeaders: headers) else { return nil }
        guard let notModified = NativeSnapshot.makeNative(resource.notModified) else {
            MHD_destroy_response(ok)
            return nil
        }
        let entry = Entry(ok: ok, notModified: notModified, etag: resource.etag, bytes: resource.ok.body.count)
        let handle = ConnectionHandle(pointer: connection)
        return entries.withLock { all in
            if all.count >= capacity {
                for entry in all.values { entry.destroy() }
                all.removeAll(keepingCapacity: true)
            }
            all.updateValue(entry, forKey: key)?.destroy()
            return Self.queue(entry, ifNoneMatch: ifNoneMatch, on: handle.pointer)
        }
    }

    private static func queue(_ entry: Entry, ifNoneMatch: String?, on connection: OpaquePointer) -> Queued {
        if let ifNoneMatch, EntityTag.ifNoneMatch(ifNoneMatch, matches: entry.etag) {
            return Queued(result: MHD_queue_response(connection, 304, entry.notModified), status: 304, bytes: 0)
        }
        return Queued(result: MHD_queue_response(connection, 200, entry.ok), status: 200, bytes: entry.bytes)
    }
}
