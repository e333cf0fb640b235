import CMicroHTTPD
import LinkHostCore

#if canImport(Glibc)
import Glibc
#endif

/// A snapshot with what the adapter needs to serve it without conversions per request: a native
/// libmicrohttpd copy of each prepared response, the call pages' headers in C form, each site's metric
/// counters, and the cache of rendered pages.
///
/// Unchecked: MHD responses are immutable once built and reference-counted by MHD, and its
/// documentation allows queueing one response on many connections from many threads.
final class NativeSnapshot: @unchecked Sendable {
    let router: Router
    /// The certificate this snapshot is served with; a change needs a new daemon.
    let tls: TLSMaterial?
    /// Native copies of `snapshot.preparedResponses`, by prepared ID.
    let responses: [OpaquePointer?]
    /// Rendered call pages of this snapshot, a cache per site (each bounded by its `pageCacheSize`, all of
    /// them together by `pageBudget`).
    let pages: [PageCache]
    /// The bytes all of `pages` may hold (`server.pageCacheBytes`).
    let pageBudget: PageCacheBudget
    /// Each site's call-page header sets in C form, by site index, then by `CallPage.headerSets` position.
    let pageHeaders: [[PageHeaders]]
    /// Each site's reusable responses for rendered pages, by site index.
    let shells: [PageShells]
    /// Each site's counters, by site index.
    let counters: [Metrics.SiteCounters]
    /// Each site's label as the access log writes it, by site index (made once, not per line).
    let siteLabels: [[UInt8]]
    /// Fields this listener adds to every response of the snapshot: `Strict-Transport-Security` on HTTPS
    /// (`server.tls.hsts`), nothing on plain HTTP. Per listener, since one snapshot is served on both.
    let transportHeaders: [HTTPHeader]

    var snapshot: Snapshot { router.snapshot }

    init(snapshot: Snapshot, tls: TLSMaterial?, metrics: Metrics, https: Bool) {
        router = Router(snapshot: snapshot)
        self.tls = tls
        let transport = https ? snapshot.config.server.hsts.map { [$0.header] } ?? [] : []
        transportHeaders = transport
        responses = snapshot.preparedResponses.map { Self.makeNative($0, adding: transport) }
        // Sites of the same locales and cache lifetime have the same header sets: converted once, shared.
        var converted: [String: [PageHeaders]] = [:]
        var previous: (sets: [[HTTPHeader]], made: [PageHeaders])?
        pageHeaders = snapshot.sites.map { site in
            let sets = site.callPageHeaders
            // Tenants share the build's header sets (the same storage, compared at once): no key written for each.
            if let previous, previous.sets == sets { return previous.made }
            let key = sets.map { $0.map { $0.name + ": " + $0.value }.joined(separator: "\n") }.joined(separator: "\n\n")
            let made = converted[key] ?? sets.map { PageHeaders($0, transport: transport) }
            converted[key] = made
            previous = (sets, made)
            return made
        }
        shells = pageHeaders.map(PageShells.init)
        counters = metrics.counters(forSites: snapshot.sites.map(\.config.label))
        siteLabels = snapshot.sites.map { Array($0.config.label.utf8) }
        let budget = PageCacheBudget(limit: snapshot.config.server.pageCacheBytes, metrics: metrics)
        pageBudget = budget
        pages = snapshot.sites.map { PageCache(capacity: $0.config.callLinks.pageCacheSize, budget: budget) }
    }

    /// Empties every site's page cache, so the budget has room again: the pages kept are the ones asked
    /// for since, whichever site they belong to.
    func clearPageCaches() {
        for cache in pages { cache.clear() }
    }

    deinit {
        // MHD keeps its own reference for responses still being sent, so this never cuts one short.
        for response in responses { if let response { MHD_destroy_response(response) } }
    }

    /// A native response for `response`, its header Strings converted here: for what is prepared at load,
    /// and the rare responses made per request (metrics, QR codes), with `extra` fields after its own.
    /// A prepared body is lent, not copied (`BodyOwner`): ten thousand tenants' association files are
    /// stored once, in the snapshot.
    static func makeNative(_ response: Response, adding extra: [HTTPHeader] = []) -> OpaquePointer? {
        let native: OpaquePointer?
        if let length = response.representationLength {
            native = cmhd_response_headers_only(UInt64(length))
        } else if response.preparedID != nil, !response.body.isEmpty {
            native = BodyOwner.lend(response.body)
        } else {
            native = response.body.withUnsafeBytes { cmhd_response_copy($0.baseAddress, $0.count) }
        }
        guard let native else { return nil }
        for header in response.headers + extra {
            MHD_add_response_header(native, header.name, header.value)
        }
        return native
    }

    /// A native response made for one request on this listener, with its transport fields.
    func makeNative(_ response: Response) -> OpaquePointer? {
        Self.makeNative(response, adding: transportHeaders)
    }

    /// `makeNative(_:)` with the body copied into memory the response owns (and frees), and where it is: for
    /// a rendered QR code, which a page cache keeps and a test's `InMemoryRequest` reads back.
    func makeNativeOwningBody(_ response: Response) -> (OpaquePointer, UnsafeRawBufferPointer)? {
        guard response.representationLength == nil else { return makeNative(response).map { ($0, UnsafeRawBufferPointer(start: nil, count: 0)) } }
        let count = response.body.count
        guard let copy = malloc(max(count, 1)) else { return nil }
        response.body.withUnsafeBytes { if let source = $0.baseAddress { copy.copyMemory(from: source, byteCount: count) } }
        // Takes the copy: libmicrohttpd frees it with the response (or at once, when it cannot make one).
        guard let native = cmhd_response_take(copy, count) else { return nil }
        for header in response.headers + transportHeaders {
            MHD_add_response_header(native, header.name, header.value)
        }
        return (native, UnsafeRawBufferPointer(start: copy, count: count))
    }
}

/// The header fields of one call-page header set in C form, for the 200 and for its 304, each without
/// the page's own ETag: made once per snapshot, handed to libmicrohttpd in one call per response.
struct PageHeaders: Sendable {
    let ok: HeaderBlock
    let notModified: HeaderBlock

    init(_ headers: [HTTPHeader], transport: [HTTPHeader]) {
        ok = HeaderBlock(headers + transport)
        notModified = HeaderBlock(CallPage.notModifiedHeaders(headers) + transport)
    }
}

/// Header fields laid out as `name NUL value NUL …`, as `cmhd_add_headers` reads them.
struct HeaderBlock: Sendable {
    let fields: [CChar]
    let count: Int

    init(_ headers: [HTTPHeader]) {
        fields = headers.flatMap { Array($0.name.utf8CString) + Array($0.value.utf8CString) }
        count = headers.count
    }

    /// Adds every field to `response`, in order.
    func add(to response: OpaquePointer) {
        _ = fields.withUnsafeBufferPointer { cmhd_add_headers(response, $0.baseAddress, count) }
    }
}

/// Keeps a prepared body's bytes alive for as long as libmicrohttpd holds the response that sends them,
/// which may outlive the snapshot (a response still being sent after a reload dropped it).
///
/// The bytes are an immutable array that this object alone is handed with the response: its storage is one
/// heap object that nothing mutates or moves, so the address given to libmicrohttpd stays valid until the
/// release callback lets the owner go.
final class BodyOwner: Sendable {
    let bytes: [UInt8]

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// A native response whose body is `bytes`, not copied; nil without memory.
    static func lend(_ bytes: [UInt8]) -> OpaquePointer? {
        let owner = BodyOwner(bytes)
        let retained = Unmanaged.passRetained(owner).toOpaque()
        return owner.bytes.withUnsafeBytes { cmhd_response_borrowed($0.baseAddress, $0.count, releaseOwner, retained) }
    }
}

/// libmicrohttpd's free callback for a lent body: lets its `BodyOwner` go.
private func releaseOwner(_ owner: UnsafeMutableRawPointer?) {
    guard let owner else { return }
    Unmanaged<BodyOwner>.fromOpaque(owner).release()
}
