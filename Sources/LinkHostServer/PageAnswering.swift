import CMicroHTTPD
import LinkHostCore

#if canImport(Glibc)
import Glibc
#endif

/// Call pages and QR codes: from the page cache when it holds them, else rendered straight into the
/// buffer libmicrohttpd sends, with the headers the snapshot keeps in C form.
extension Server {
    /// Answers a call page or QR code named by `target` on `site`; `host` is the host its URLs name when the
    /// site's URLs come from the request (`Router.decide` chose it).
    func answerPage<Incoming: IncomingRequest>(_ target: PageTarget, site: Site, host: UnsafeBufferPointer<UInt8>?,
                                               ifNoneMatch: UnsafePointer<CChar>?, request: RequestBytes<Incoming>, native: NativeSnapshot) -> MHD_Result {
        let incoming = request.incoming
        let cache = native.pages[site.index]
        let route: Route
        if case .page = target.kind { route = .callPage } else { route = .callQRCode }
        // A Host the config does not name (the loopback names PageHost lets through for try-outs) gets a page
        // no cache in front may keep: behind a cache keyed without the Host it would reach the real one (issue 30).
        // Our own cache may keep it: its key holds the Host.
        let unnamed = host.map { site.index == 0 && !native.snapshot.namesHost($0, site: site) } ?? false
        return withUnsafeTemporaryAllocation(byteCount: PageKeyBytes.capacity + Self.tagCapacity, alignment: 8) { scratch in
            let keyBuffer = UnsafeMutableRawBufferPointer(rebasing: scratch[..<PageKeyBytes.capacity])
            let tag = UnsafeMutableRawBufferPointer(rebasing: scratch[PageKeyBytes.capacity...]).bindMemory(to: UInt8.self)
            let key = cache.isEnabled ? PageKeyBytes(target, host: host, into: keyBuffer) : nil
            if let key, let cached = cache.queue(key, ifNoneMatch: ifNoneMatch, on: incoming) {
                finish(request, route: route, status: cached.status, bytes: cached.bytes, site: site, native: native)
                return cached.result
            }
            let page = PageRequest(site: site, target: target, host: host.map { String(decoding: $0, as: UTF8.self) })
            // A page asked for the first time (most are asked for once) goes out in a reused response; a page
            // the cache keeps, or a conditional request, gets a response of its own.
            let admitted = key.map(cache.admits) ?? false
            if !admitted, !unnamed, ifNoneMatch == nil, case .page(let language) = target.kind,
               let queued = queueReused(page, language: language, shells: native.shells[site.index], tag: tag, on: incoming) {
                finish(request, route: route, status: 200, bytes: queued.bytes, site: site, native: native)
                return queued.result
            }
            guard let fresh = unnamed ? renderNotStored(page, native: native, tag: tag) : render(page, native: native, tag: tag) else {
                return respond(site.notFound, to: request, site: site, native: native)
            }
            var stored: PageCache.Queued?
            if let key, admitted, let notModified = fresh.makeNotModified() {
                let store = {
                    cache.store(key, ok: fresh.ok, body: fresh.body, notModified: notModified, etag: fresh.etagText, ifNoneMatch: ifNoneMatch, on: incoming)
                }
                stored = store()
                if stored == nil {
                    // The snapshot's pages are over their shared budget: make room across every site, once.
                    native.clearPageCaches()
                    stored = store()
                }
                if stored == nil { MHD_destroy_response(notModified) }
            }
            let queued = stored ?? fresh.queueOnce(ifNoneMatch: ifNoneMatch, on: incoming)
            finish(request, route: route, status: queued.status, bytes: queued.bytes, site: site, native: native)
            return queued.result
        }
    }

    /// Renders the page into a reused response of its header set and length (`PageShells`) and queues it;
    /// nil when no shell can be had, and the caller makes a response of its own.
    private func queueReused<Incoming: IncomingRequest>(_ page: PageRequest, language: LanguageChoice, shells: PageShells, tag: UnsafeMutableBufferPointer<UInt8>,
                                                        on incoming: Incoming) -> PageCache.Queued? {
        let callPage = page.site.callPage
        let plan = callPage.plan(page.link, language: language, host: page.host)
        guard let shell = shells.checkout(headerSet: callPage.headerSet(for: language), length: plan.length) else { return nil }
        let (written, tagLength) = Self.write(plan, into: shell.body, tag: tag)
        shell.setTag(UnsafeBufferPointer(rebasing: tag[..<tagLength]))
        let result = incoming.queue(shell.response, status: 200, body: UnsafeRawBufferPointer(written))
        guard result == .YES else {
            shells.giveBack(shell)
            return PageCache.Queued(result: result, status: 200, bytes: written.count)
        }
        // Until the request completes the shell is its request's; a connection without state to hold it lets
        // it go instead (libmicrohttpd keeps the response, and frees it with its body, when done).
        let retained = Unmanaged.passRetained(shell).toOpaque()
        if !incoming.holdUntilCompleted(retained) { Unmanaged<PageShells.Shell>.fromOpaque(retained).release() }
        return PageCache.Queued(result: result, status: 200, bytes: written.count)
    }

    /// Writes `plan` into `body` (its exact length) and the page's ETag into `tag`: the bytes written and the
    /// tag's length (no NUL after it).
    private static func write(_ plan: PagePlan, into body: UnsafeMutablePointer<UInt8>, tag: UnsafeMutableBufferPointer<UInt8>)
        -> (written: UnsafeBufferPointer<UInt8>, tagLength: Int) {
        var output = RawPageOutput(base: body, capacity: plan.length)
        plan.write(into: &output)
        let written = UnsafeBufferPointer(start: UnsafePointer(body), count: output.count)
        var tagSpan = tag.mutableSpan
        return (written, EntityTag.writeTag(digest: plan.entityDigest, length: written.count, into: &tagSpan))
    }

    /// Room for a rendered page's ETag and its NUL.
    private static let tagCapacity = EntityTag.maximumLength + 1

    /// The page or QR code for a Host the config does not name, made by the core with `Resource.notStored`'s
    /// headers: the rare case, so the header blocks made at load (all `public`) are not doubled for it.
    private func renderNotStored(_ page: PageRequest, native: NativeSnapshot, tag: UnsafeMutableBufferPointer<UInt8>) -> FreshPage? {
        guard let resource = page.render()?.notStored, let (ok, body) = native.makeNativeOwningBody(resource.ok) else { return nil }
        return FreshPage(ok: ok, body: body, tag: tag, source: .resource(resource, native))
    }

    /// The page (or QR code) as a native 200 that owns its body; nil when there is none (a QR code for a
    /// site without an origin) or no memory.
    private func render(_ page: PageRequest, native: NativeSnapshot, tag: UnsafeMutableBufferPointer<UInt8>) -> FreshPage? {
        let headers = native.pageHeaders[page.site.index]
        guard case .page(let language) = page.kind else {
            guard let resource = page.render(), let (ok, body) = native.makeNativeOwningBody(resource.ok) else { return nil }
            return FreshPage(ok: ok, body: body, tag: tag, source: .resource(resource, native))
        }
        let callPage = page.site.callPage
        let plan = callPage.plan(page.link, language: language, host: page.host)
        guard let body = malloc(max(plan.length, 1))?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let (written, tagLength) = Self.write(plan, into: body, tag: tag)
        tag[tagLength] = 0
        // Takes the body: libmicrohttpd sends it from where it was written and frees it with the response.
        guard let ok = cmhd_response_take(body, written.count) else { return nil }
        let set = headers[callPage.headerSet(for: language)]
        set.ok.add(to: ok)
        MHD_add_response_header(ok, "ETag", UnsafeRawPointer(tag.baseAddress!).assumingMemoryBound(to: CChar.self))
        return FreshPage(ok: ok, body: UnsafeRawBufferPointer(written), tag: UnsafeMutableBufferPointer(rebasing: tag[..<tagLength]), source: .rendered(set.notModified))
    }
}

/// A page rendered for this request, before it is queued: its 200, and what its 304 is made of.
private struct FreshPage {
    enum Source {
        /// Rendered here: the 304 is the header set's fields and the tag.
        case rendered(HeaderBlock)
        /// Made by the core (QR codes): its own 304, made for the listener it is answered on.
        case resource(Resource, NativeSnapshot)
    }

    let ok: OpaquePointer
    /// The 200's body, owned by `ok` (freed with it).
    let body: UnsafeRawBufferPointer
    /// The ETag's bytes (NUL after them), in the caller's buffer.
    let tag: UnsafeMutableBufferPointer<UInt8>
    let source: Source

    var etagText: String {
        switch source {
        case .rendered: return String(decoding: tag, as: UTF8.self)
        case .resource(let resource, _): return resource.etag
        }
    }

    /// The page's 304: the same validators and caching fields, and the 200's length.
    func makeNotModified() -> OpaquePointer? {
        switch source {
        case .rendered(let fields):
            guard let response = cmhd_response_headers_only(UInt64(body.count)) else { return nil }
            fields.add(to: response)
            MHD_add_response_header(response, "ETag", UnsafeRawPointer(tag.baseAddress!).assumingMemoryBound(to: CChar.self))
            return response
        case .resource(let resource, let native):
            return native.makeNative(resource.notModified)
        }
    }

    /// Queues the 200, or a 304 when `ifNoneMatch` names the page, for this request only: libmicrohttpd
    /// keeps what it sends until it is sent, so our reference goes right away.
    func queueOnce<Incoming: IncomingRequest>(ifNoneMatch: UnsafePointer<CChar>?, on incoming: Incoming) -> PageCache.Queued {
        defer { MHD_destroy_response(ok) }
        if let ifNoneMatch, EntityTag.ifNoneMatch(String(cString: ifNoneMatch), matches: etagText), let notModified = makeNotModified() {
            defer { MHD_destroy_response(notModified) }
            return PageCache.Queued(result: incoming.queue(notModified, status: 304, body: UnsafeRawBufferPointer(start: nil, count: 0)), status: 304, bytes: 0)
        }
        return PageCache.Queued(result: incoming.queue(ok, status: 200, body: body), status: 200, bytes: body.count)
    }
}

/// `PageOutput` over the malloc'd buffer a page is rendered into: each run is one memcpy.
private struct RawPageOutput: PageOutput {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    private(set) var count = 0

    init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    mutating func append(_ bytes: [UInt8], _ range: Range<Int>) {
        // The plan's length is exact; a run past it would be a bug in the core, never a write past the buffer.
        precondition(count + range.count <= capacity, "a page wrote more than its plan's length")
        bytes.withUnsafeBufferPointer { source in
            (base + count).update(from: source.baseAddress! + range.lowerBound, count: range.count)
        }
        count += range.count
    }
}
