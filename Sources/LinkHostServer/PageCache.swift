import CMicroHTTPD
import CallLinks
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
        /// `ok`'s body, owned by it: what a test's `InMemoryRequest` reads back.
        let body: UnsafeRawBufferPointer
        let notModified: OpaquePointer
        let etag: String
        var bytes: Int { body.count }
        /// What the entry holds against the budget.
        let cost: Int

        func destroy(releasingFrom budget: PageCacheBudget) {
            MHD_destroy_response(ok)
            MHD_destroy_response(notModified)
            budget.release(cost)
        }
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        /// Hashes of keys rendered once and not kept, in slots by their low bits: the second request of a
        /// page finds its hash here. A collision only forgets a page or keeps one early, never serves a
        /// wrong one (entries compare their keys in full).
        var recent: [UInt64]
    }

    /// A request handed into the lock; it belongs to the calling worker thread throughout.
    private struct RequestHandle<Incoming: IncomingRequest>: @unchecked Sendable {
        let request: Incoming
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
    /// The bytes every site's cache of the snapshot may hold together.
    private let budget: PageCacheBudget

    /// An empty cache of at most `capacity` pages, whose bytes count against `budget`.
    init(capacity: Int, budget: PageCacheBudget) {
        self.capacity = budget.limit > 0 ? capacity : 0
        self.budget = budget
        // `recent` comes with the site's first page: 8 KB for each of 10,000 tenants, most of them quiet.
        state = Mutex(State(recent: []))
    }

    deinit { clear() }

    var isEnabled: Bool { capacity > 0 }

    /// Drops every page (the budget gets their bytes back); responses being sent are kept by libmicrohttpd.
    func clear() {
        let budget = budget
        state.withLock { state in
            for entry in state.entries.values { entry.destroy(releasingFrom: budget) }
            state.entries.removeAll(keepingCapacity: true)
        }
    }

    /// What keeping a page costs against the budget: its body, its key, and the two native responses'
    /// own memory (headers and bookkeeping, about a kilobyte together).
    static func cost(bytes: Int, keyLength: Int) -> Int { bytes + keyLength + 1024 }

    /// Queues the cached page for `key`, or its 304 when `ifNoneMatch` names its ETag, if there is one.
    func queue<Incoming: IncomingRequest>(_ key: PageKeyBytes, ifNoneMatch: UnsafePointer<CChar>?, on incoming: Incoming) -> Queued? {
        guard capacity > 0 else { return nil }
        let handle = RequestHandle(request: incoming)
        return state.withLock { state in
            guard let entry = state.entries[key.hash], key.equals(entry.key) else { return nil }
            return Self.queue(entry, ifNoneMatch: ifNoneMatch, on: handle.request)
        }
    }

    /// Whether a page just rendered for `key` is worth keeping: true on its second request (and the hash is
    /// forgotten), false on its first (and the hash is noted).
    func admits(_ key: PageKeyBytes) -> Bool {
        guard capacity > 0 else { return false }
        return state.withLock { state in
            if state.recent.isEmpty { state.recent = [UInt64](repeating: 0, count: Self.recentSlots) }
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
    /// now on) and queues the one the request asks for; nil, with nothing kept or queued, when the budget
    /// has no room for it (the caller makes room across sites, or sends the page once).
    func store<Incoming: IncomingRequest>(_ key: PageKeyBytes, ok: OpaquePointer, body: UnsafeRawBufferPointer, notModified: OpaquePointer, etag: String,
                                          ifNoneMatch: UnsafePointer<CChar>?, on incoming: Incoming) -> Queued? {
        let cost = Self.cost(bytes: body.count, keyLength: key.bytes.count)
        guard budget.reserve(cost) else { return nil }
        let entry = Entry(key: key.copy(), ok: ok, body: body, notModified: notModified, etag: etag, cost: cost)
        let handle = RequestHandle(request: incoming)
        let budget = budget
        return state.withLock { state in
            if state.entries.count >= capacity {
                for entry in state.entries.values { entry.destroy(releasingFrom: budget) }
                state.entries.removeAll(keepingCapacity: true)
            }
            state.entries.updateValue(entry, forKey: key.hash)?.destroy(releasingFrom: budget)
            return Self.queue(entry, ifNoneMatch: ifNoneMatch, on: handle.request)
        }
    }

    private static func queue<Incoming: IncomingRequest>(_ entry: Entry, ifNoneMatch: UnsafePointer<CChar>?, on incoming: Incoming) -> Queued {
        if let ifNoneMatch, EntityTag.ifNoneMatch(String(cString: ifNoneMatch), matches: entry.etag) {
            return Queued(result: incoming.queue(entry.notModified, status: 304, body: UnsafeRawBufferPointer(start: nil, count: 0)), status: 304, bytes: 0)
        }
        return Queued(result: incoming.queue(entry.ok, status: 200, body: entry.body), status: 200, bytes: entry.bytes)
    }
}

/// The bytes the page caches of one snapshot hold together, over every site (`server.pageCacheBytes`):
/// per-site page counts alone let many sites (or wildcard hosts) add up to far more than a pod's memory.
final class PageCacheBudget: Sendable {
    /// The most bytes; 0 keeps no page.
    let limit: Int
    private let used = Atomic<Int>(0)
    /// Where the process shows what every live snapshot's pages hold (a reload's old snapshot holds on
    /// until its last request ends): `linkhost_page_cache_bytes`.
    private let metrics: Metrics

    /// A budget of `limit` bytes, none used.
    init(limit: Int, metrics: Metrics) {
        self.limit = limit
        self.metrics = metrics
    }

    /// The bytes held now.
    var bytesInUse: Int { used.load(ordering: .relaxed) }

    /// Takes `cost` bytes if they fit under the limit.
    func reserve(_ cost: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while true {
            guard current + cost <= limit else { return false }
            let (exchanged, original) = used.compareExchange(expected: current, desired: current + cost, ordering: .relaxed)
            if exchanged {
                metrics.pageCacheBytes.add(cost, ordering: .relaxed)
                return true
            }
            current = original
        }
    }

    /// Gives `cost` bytes back.
    func release(_ cost: Int) {
        used.subtract(cost, ordering: .relaxed)
        metrics.pageCacheBytes.subtract(cost, ordering: .relaxed)
    }
}

/// The bytes that name a rendered page within one snapshot's site, in a buffer of the caller's (on its
/// stack): the kind and language, the call ID and type, and the Host when the site's URLs come from it.
/// The same for every link shape of one call; the device is not part of it.
struct PageKeyBytes {
    let bytes: UnsafeRawBufferPointer
    let hash: UInt64

    /// The longest Host a key holds; a page for a longer one is rendered, not cached.
    static let maximumHost = 384
    /// The most bytes a key takes, from its parts' limits: kind and language (3), call ID and type with a
    /// length byte each, the Host marker and the Host.
    static let capacity = 3 + 2 * (1 + CallToken.maximumLength) + 1 + maximumHost

    /// Writes the key into `buffer` (at least `capacity` bytes); nil when a part is longer than its limit,
    /// so nothing is ever written past the buffer whatever the core lets through.
    init?(_ target: PageTarget, host: UnsafeBufferPointer<UInt8>?, into buffer: UnsafeMutableRawBufferPointer) {
        guard (host?.count ?? 0) <= Self.maximumHost, target.link.callID.utf8.count <= CallToken.maximumLength,
              target.link.callType.utf8.count <= CallToken.maximumLength, buffer.count >= Self.capacity else { return nil }
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
