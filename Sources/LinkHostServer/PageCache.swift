import CMicroHTTPD
import LinkHostCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Native copies of rendered call pages and QR codes, each with its 304, bounded, dropped with their snapshot.
///
/// Keyed by the bytes a page depends on (`PageKeyBytes`): a lookup hashes and compares bytes and makes
/// no `String`. A page is kept from its second request on: most call links are opened once, and keeping
/// those only costs a 304 built for nothing and a slot another page could use; a link asked for again
/// (a chat app's preview fetcher, then the person tapping it, a CDN revalidating) is kept.
///
/// Unchecked: the tables and the MHD responses in them are touched only under `state`'s lock,
/// and a response is queued before the lock is released, so eviction can never free one in use.
final class PageCache: @unchecked Sendable {
    /// Unchecked for the reason the cache is: only touched under the lock.
    private struct Entry: @unchecked Sendable {
        let key: [UInt8]
        let ok: OpaquePointer
        let notModified: OpaquePointer
        let etag: String
        let bytes: Int

        func destroy() {
            MHD_destroy_response(ok)
            MHD_destroy_response(notModified)
        }
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        /// Hashes of keys rendered once and not kept, in slots by their low bits: the second request of a
        /// page finds its hash here. A collision only forgets a page or keeps one early, never serves a
        /// wrong one (entries compare their keys in full).
        var recent: [UInt64]
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

    private static let recentSlots = 1024
    private let state: Mutex<State>
    private let capacity: Int

    /// An empty cache of at most `capacity` pages.
    init(capacity: Int) {
        self.capacity = capacity
        state = Mutex(State(recent: capacity > 0 ? [UInt64](repeating: 0, count: Self.recentSlots) : []))
    }

    deinit {
        state.withLock { state in for entry in state.entries.values { entry.destroy() } }
    }

    var isEnabled: Bool { capacity > 0 }

    /// Queues the cached page for `key`, or its 304 when `ifNoneMatch` names its ETag, if there is one.
    func queue(_ key: PageKeyBytes, ifNoneMatch: UnsafePointer<CChar>?, on connection: OpaquePointer) -> Queued? {
        guard capacity > 0 else { return nil }
        let handle = ConnectionHandle(pointer: connection)
        return state.withLock { state in
            guard let entry = state.entries[key.hash], key.equals(entry.key) else { return nil }
            return Self.queue(entry, ifNoneMatch: ifNoneMatch, on: handle.pointer)
        }
    }

    /// Whether a page just rendered for `key` is worth keeping: true on its second request (and the hash is
    /// forgotten), false on its first (and the hash is noted).
    func admits(_ key: PageKeyBytes) -> Bool {
        guard capacity > 0 else { return false }
        return state.withLock { state in
            let slot = Int(truncatingIfNeeded: key.hash) & (Self.recentSlots - 1)
            // 0 marks an empty slot; a key hashing to 0 is simply kept on its first request.
            if state.recent[slot] == key.hash {
                state.recent[slot] = 0
                return true
            }
            state.recent[slot] = key.hash
            return key.hash == 0
        }
    }

    /// Keeps a rendered page and its 304 (emptying the cache when full; the cache owns both responses from
    /// now on) and queues the one the request asks for.
    func store(_ key: PageKeyBytes, ok: OpaquePointer, notModified: OpaquePointer, etag: String, bytes: Int,
               ifNoneMatch: UnsafePointer<CChar>?, on connection: OpaquePointer) -> Queued {
        let entry = Entry(key: key.copy(), ok: ok, notModified: notModified, etag: etag, bytes: bytes)
        let handle = ConnectionHandle(pointer: connection)
        return state.withLock { state in
            if state.entries.count >= capacity {
                for entry in state.entries.values { entry.destroy() }
                state.entries.removeAll(keepingCapacity: true)
            }
            state.entries.updateValue(entry, forKey: key.hash)?.destroy()
            return Self.queue(entry, ifNoneMatch: ifNoneMatch, on: handle.pointer)
        }
    }

    private static func queue(_ entry: Entry, ifNoneMatch: UnsafePointer<CChar>?, on connection: OpaquePointer) -> Queued {
        if let ifNoneMatch, EntityTag.ifNoneMatch(String(cString: ifNoneMatch), matches: entry.etag) {
            return Queued(result: MHD_queue_response(connection, 304, entry.notModified), status: 304, bytes: 0)
        }
        return Queued(result: MHD_queue_response(connection, 200, entry.ok), status: 200, bytes: entry.bytes)
    }
}

/// The bytes that name a rendered page within one snapshot's site, in a buffer of the caller's (on its
/// stack): the kind and language, the call ID and type, and the Host when the site's URLs come from it.
/// The same for every link shape of one call; the device is not part of it.
struct PageKeyBytes {
    let bytes: UnsafeRawBufferPointer
    let hash: UInt64

    /// The most bytes a key takes: IDs and types are at most 64 bytes, and a longer Host is not cached.
    static let capacity = 512
    static let maximumHost = 384

    /// Writes the key into `buffer` (`capacity` bytes); nil when the Host is too long to be a key.
    init?(_ target: PageTarget, host: UnsafeBufferPointer<UInt8>?, into buffer: UnsafeMutableRawBufferPointer) {
        guard (host?.count ?? 0) <= Self.maximumHost else { return nil }
        var count = 0
        func put(_ byte: UInt8) {
            buffer[count] = byte
            count += 1
        }
        func put(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                put(UInt8(truncatingIfNeeded: utf8.count))
                buffer.baseAddress!.advanced(by: count).copyMemory(from: utf8.baseAddress!, byteCount: utf8.count)
                count += utf8.count
            }
        }
        switch target.kind {
        case .page(let language):
            put(language.negotiated ? 1 : 2)
            put(UInt8(truncatingIfNeeded: language.index))
            put(UInt8(truncatingIfNeeded: language.index >> 8))
        case .qrCode:
            put(3)
        case .qrCodePNG:
            put(4)
        }
        put(target.link.callID)
        put(target.link.callType)
        if let host {
            put(1)
            if let base = host.baseAddress, host.count > 0 {
                buffer.baseAddress!.advanced(by: count).copyMemory(from: base, byteCount: host.count)
                count += host.count
            }
        } else {
            put(0)
        }
        bytes = UnsafeRawBufferPointer(rebasing: buffer[..<count])
        // FNV-1a: enough to spread keys; the bytes are compared in full on a hit.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        self.hash = hash
    }

    func equals(_ stored: [UInt8]) -> Bool {
        stored.count == bytes.count && stored.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
    }

    func copy() -> [UInt8] { Array(bytes) }
}
