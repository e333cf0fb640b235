/// A representation computed at load: its 200 response, its strong ETag, and the matching 304.
///
/// A class, not a struct: every site's table holds its own entry for each of its generated paths, and sites
/// and paths that serve one document (both AASA paths, the default preview image) share its one object
/// rather than a copy of two responses each (about 1 KB a tenant).
///
/// Or one made on each use (`ResourcePage`): a page each tenant has its own of and few ask for, rendered from a
/// bake all tenants share with the tenant's few values, rather than kept whole for each (its home page).
@usableFromInline
package final class Resource: Sendable {
    /// The full response.
    package var ok: Response { fixed?.ok ?? made().ok }
    /// The answer to a conditional request whose `If-None-Match` names `etag`.
    package var notModified: Response { fixed?.notModified ?? made().notModified }
    /// The strong entity tag of `ok`'s body.
    package var etag: String { fixed?.etag ?? made().etag }

    private let fixed: (ok: Response, notModified: Response, etag: String)?
    private let page: (any ResourcePage)?

    /// Makes a resource of its two responses and tag.
    package init(ok: Response, notModified: Response, etag: String) {
        fixed = (ok, notModified, etag)
        page = nil
    }

    /// A resource made from `page` on each use.
    init(page: any ResourcePage) {
        fixed = nil
        self.page = page
    }

    private func made() -> (ok: Response, notModified: Response, etag: String) {
        let made = page?.resource() ?? Resource(ok: Response(status: 500), notModified: Response(status: 500), etag: "")
        return (made.ok, made.notModified, made.etag)
    }

    /// The same representation for a Host the config does not name: `Cache-Control: no-store`, so no cache
    /// in front keeps it (issue 30; docs/cdn.md, "The Host header and the cache key"). The `ETag` stays: a
    /// client that revalidates anyway gets its 304, and no cache can store the page to revalidate it.
    package var notStored: Resource {
        func strip(_ response: Response) -> Response {
            var response = response
            response.headers = response.headers.filter { $0.name != "Cache-Control" } + [HTTPHeader("Cache-Control", "no-store")]
            return response
        }
        return Resource(ok: strip(ok), notModified: strip(notModified), etag: etag)
    }

    /// The 200, or the 304 when the request's `If-None-Match` field names this representation.
    @usableFromInline
    package func response(ifNoneMatch field: String?) -> Response {
        let (ok, notModified, etag) = fixed ?? made()
        if let field, EntityTag.ifNoneMatch(field, matches: etag) { return notModified }
        return ok
    }
}

/// What a resource made on each use is made from: the same responses every time.
protocol ResourcePage: Sendable {
    /// The resource, fixed.
    func resource() -> Resource
}

/// Collects the responses computed at load and numbers them, so the server can keep one native copy of each.
package struct PreparedResponses {
    private(set) var all: [Response] = []

    /// Headers every response carries.
    package static let commonHeaders = [HTTPHeader("Server", "linkhost"), HTTPHeader("X-Content-Type-Options", "nosniff")]

    /// Registers a response and returns it with its `preparedID` set; `headed` false when it already has
    /// the common headers.
    mutating func add(_ response: Response, headed: Bool = true) -> Response {
        var response = response
        if headed { response.headers = Self.commonHeaders + response.headers }
        response.preparedID = all.count
        all.append(response)
        return response
    }

    /// Registers the 200 and 304 of one body with the given type and cache lifetime; with `preparesNotModified`
    /// false, the 200 only: the server copies the 304 natively when one is asked for (a conditional request goes
    /// the router's way anyway). For a tenant's own documents, whose 304s cost each tenant 2 KB natively.
    mutating func resource(body: [UInt8], contentType: String, maxAge: Int, route: Route, extraHeaders: [HTTPHeader] = [],
                           preparesNotModified: Bool = true) -> Resource {
        let made = Self.unregistered(body: body, contentType: contentType, maxAge: maxAge, route: route, extraHeaders: extraHeaders)
        return Resource(ok: add(made.ok, headed: false), notModified: preparesNotModified ? add(made.notModified, headed: false) : made.notModified, etag: made.etag)
    }

    /// The same 200 and 304, with the common headers, but not registered: the server makes a native copy of
    /// each when it is asked for, not one at load. For a page each tenant has its own of and few ask for (its
    /// home page): ten thousand tenants' native copies held 30 MB.
    static func unregistered(body: [UInt8], contentType: String, maxAge: Int, route: Route, extraHeaders: [HTTPHeader] = []) -> Resource {
        let etag = EntityTag.strong(for: body)
        let caching = [HTTPHeader("Cache-Control", "public, max-age=\(maxAge)"), HTTPHeader("ETag", etag)]
        let ok = Response(status: 200, headers: commonHeaders + [HTTPHeader("Content-Type", contentType)] + caching + extraHeaders, body: body, route: route)
        // A 304 repeats the validators and caching fields of the 200 (RFC 9110 §15.4.5).
        var notModified = Response(status: 304, headers: commonHeaders + caching + extraHeaders, route: route)
        notModified.representationLength = body.count
        return Resource(ok: ok, notModified: notModified, etag: etag)
    }
}
