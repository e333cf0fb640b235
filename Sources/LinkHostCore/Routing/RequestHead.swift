/// A request as `Router.decide` reads it: the method, target and Host as bytes the request already holds,
/// and every other field or query item only when the decision asks for it, so a request for the AASA is
/// decided without a `String` or a copy.
///
/// The server's requests conform (libmicrohttpd's connection and a test's `InMemoryRequest`, through
/// `IncomingRequest`), and so does a `Request` value (tests, `match`, the fuzzer): one decision for all.
@usableFromInline
package protocol RequestHead {
    /// How the request holds its bytes.
    associatedtype Bytes: RandomAccessCollection<UInt8> where Bytes.Index == Int

    /// The method as sent, e.g. `GET`.
    var method: Bytes { get }
    /// The request target without its query, as sent (still percent-encoded; an absolute form stays absolute).
    var path: Bytes { get }
    /// The `Host` field, nil when the request has none.
    var host: Bytes? { get }
    /// The raw value of the first query item named `name` (`+` read as a space), nil when it is absent or has no value.
    func queryItem(_ name: String) -> String?
    /// The raw value of the `lang` query item: a locale tag that overrides `Accept-Language`.
    var language: String? { get }
    /// The `Accept-Language` field.
    var acceptLanguage: String? { get }
    /// The `If-None-Match` field.
    var ifNoneMatch: String? { get }
    /// The `Sec-Fetch-Site` field (`BeaconOrigin`).
    var fetchSite: String? { get }
    /// The `Origin` field (`BeaconOrigin`).
    var origin: String? { get }
}

/// A `Request` value's parts as bytes, its query items from `query`: what `Router` decides on for a request
/// made of strings. It sends neither `Sec-Fetch-Site` nor `Origin`, as a request with neither field.
struct RequestValueHead: RequestHead {
    let request: Request
    let method: [UInt8]
    let path: [UInt8]
    let host: [UInt8]?

    init(_ request: Request) {
        self.request = request
        method = Array(request.method.utf8)
        path = Array(request.path.utf8)
        host = request.host.map { Array($0.utf8) }
    }

    func queryItem(_ name: String) -> String? { request.query[name] }
    var language: String? { request.language }
    var acceptLanguage: String? { request.acceptLanguage }
    var ifNoneMatch: String? { request.ifNoneMatch }
    var fetchSite: String? { nil }
    var origin: String? { nil }
}
