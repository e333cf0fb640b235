import CMicroHTTPD
import LinkHostCore

/// A snapshot with what the adapter needs to serve it without conversions per request: a native
/// libmicrohttpd copy of each prepared response, the call pages' headers and the query item names in C
/// form, each site's metric counters, and the cache of rendered pages.
///
/// Unchecked: MHD responses are immutable once built and reference-counted by MHD, and its
/// documentation allows queueing one response on many connections from many threads.
final class NativeSnapshot: @unchecked Sendable {
    let router: Router
    /// The certificate this snapshot is served with; a change needs a new daemon.
    let tls: TLSMaterial?
    /// Native copies of `snapshot.preparedResponses`, by prepared ID.
    let responses: [OpaquePointer?]
    /// Rendered call pages of this snapshot, a cache per site (each bounded by its `pageCacheSize`).
    let pages: [PageCache]
    /// Each site's call-page header sets in C form, by site index, then by `CallPage.headerSets` position.
    let callPageHeaders: [[CHeaders]]
    /// The query item names any link template reads, NUL-terminated, with their Swift form.
    let queryItemNames: [(name: String, cString: [CChar])]
    /// Each site's counters, by site index.
    let counters: [Metrics.SiteCounters]

    var snapshot: Snapshot { router.snapshot }

    init(snapshot: Snapshot, tls: TLSMaterial?, metrics: Metrics) {
        router = Router(snapshot: snapshot)
        self.tls = tls
        responses = snapshot.preparedResponses.map { Self.makeNative($0) }
        callPageHeaders = snapshot.sites.map { $0.callPageHeaders.map(CHeaders.init) }
        queryItemNames = snapshot.queryItemNames.map { ($0, Array($0.utf8CString)) }
        counters = metrics.counters(forSites: snapshot.sites.map(\.config.label))
        pages = snapshot.sites.map { PageCache(capacity: $0.config.callLinks.pageCacheSize) }
    }

    deinit {
        // MHD keeps its own reference for responses still being sent, so this never cuts one short.
        for response in responses { if let response { MHD_destroy_response(response) } }
    }

    /// A native response for `response`, adding `cHeaders` when they begin the response's own headers
    /// (a rendered page's: the same fields for every page, then its own ETag).
    static func makeNative(_ response: Response, cHeaders: CHeaders? = nil) -> OpaquePointer? {
        let native = response.representationLength.map { cmhd_response_headers_only(UInt64($0)) }
            ?? response.body.withUnsafeBytes { cmhd_response_copy($0.baseAddress, $0.count) }
        guard let native else { return nil }
        var rest = response.headers[...]
        if let cHeaders, response.headers.starts(with: cHeaders.source) {
            for (name, value) in cHeaders.fields {
                name.withUnsafeBufferPointer { name in
                    value.withUnsafeBufferPointer { value in _ = MHD_add_response_header(native, name.baseAddress, value.baseAddress) }
                }
            }
            rest = rest.dropFirst(cHeaders.source.count)
        }
        for header in rest {
            MHD_add_response_header(native, header.name, header.value)
        }
        return native
    }
}

/// Header fields already in C form, for responses rendered per request with the same headers
/// (call pages): converting each String to a C string per request cost two allocations a field.
struct CHeaders: Sendable {
    let source: [HTTPHeader]
    let fields: [(name: [CChar], value: [CChar])]

    init(_ headers: [HTTPHeader]) {
        source = headers
        fields = headers.map { (Array($0.name.utf8CString), Array($0.value.utf8CString)) }
    }
}
