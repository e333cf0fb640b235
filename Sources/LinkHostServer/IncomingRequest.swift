import CMicroHTTPD
import LinkHostCore

#if canImport(Glibc)
import Glibc
#endif

/// One request as the answer path reads it, and where its answer goes: libmicrohttpd's connection in
/// production (`NativeRequest`), a request a test fills in memory (`InMemoryRequest`). `Server.answer` is
/// generic over it, so the production path is specialized for `NativeRequest` and reads the same bytes,
/// without a `String` or an allocation, as it would from the connection directly. `Router.decide` reads it
/// through `DecidedRequest`.
protocol IncomingRequest {
    /// The method's bytes, valid until the request completes.
    var method: UnsafeBufferPointer<UInt8> { get }
    /// The request target without its query, as sent (libmicrohttpd unescapes nothing: `cmhd_keep_raw`).
    var path: UnsafeBufferPointer<UInt8> { get }
    /// The peer's address as the access log writes it.
    var peerAddress: UnsafeBufferPointer<UInt8> { get }
    /// A request header's first line, NUL-terminated, or nil. The name is a literal's own storage.
    func header(_ name: StaticString) -> UnsafePointer<CChar>?
    /// Every line of header `name` joined with ", " into `buffer` (NUL after): the length, or -1 when it does not fit.
    func joinedHeader(_ name: StaticString, into buffer: UnsafeMutableBufferPointer<CChar>) -> Int
    /// The first query item named `name` (NUL-terminated), raw but for `+` read as a space, or nil.
    func queryValue(_ name: UnsafePointer<CChar>) -> UnsafePointer<CChar>?
    /// Every query item in the request's order (the rare redirect that rebuilds the query).
    func queryItems() -> [(name: String, value: String?)]
    /// Queues `response` as the answer with `status`; `body` is what the response's body holds (for a test to read).
    func queue(_ response: OpaquePointer, status: UInt32, body: UnsafeRawBufferPointer) -> MHD_Result
    /// Holds `tag` until the request completes, then hands it to `releaseShellTag`; false when it cannot.
    func holdUntilCompleted(_ tag: UnsafeMutableRawPointer) -> Bool
}

extension IncomingRequest {
    /// A query item by a literal name, as a `String`.
    func queryString(_ name: StaticString) -> String? {
        queryValue(UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)).map { String(cString: $0) }
    }

    /// A request header as a `String`, or nil.
    func headerString(_ name: StaticString) -> String? {
        header(name).map { String(cString: $0) }
    }

    /// A request header's bytes, empty when it is absent.
    func headerBytes(_ name: StaticString) -> UnsafeBufferPointer<UInt8> {
        header(name).map(Server.bytes) ?? UnsafeBufferPointer(start: nil, count: 0)
    }
}

/// An incoming request as `Router.decide` reads it: the method, path and Host in place, other fields and
/// query items only when the decision asks for them.
struct DecidedRequest<Incoming: IncomingRequest>: RequestHead {
    let incoming: Incoming

    var method: UnsafeBufferPointer<UInt8> { incoming.method }
    var path: UnsafeBufferPointer<UInt8> { incoming.path }
    var host: UnsafeBufferPointer<UInt8>? { incoming.header("Host").map(Server.bytes) }
    func queryItem(_ name: String) -> String? { name.withCString { incoming.queryValue($0) }.map { String(cString: $0) } }
    var language: String? { incoming.queryString("lang") }
    var acceptLanguage: String? { incoming.headerString("Accept-Language") }
    var ifNoneMatch: String? { incoming.headerString("If-None-Match") }
    var fetchSite: String? { incoming.headerString("Sec-Fetch-Site") }
    var origin: String? { incoming.headerString("Origin") }
}

/// A request libmicrohttpd holds: every read goes to the connection, every answer is queued on it.
struct NativeRequest: IncomingRequest {
    let connection: OpaquePointer
    let method: UnsafeBufferPointer<UInt8>
    let path: UnsafeBufferPointer<UInt8>

    init(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>) {
        self.connection = connection
        self.method = Server.bytes(method)
        self.path = Server.bytes(url)
    }

    var peerAddress: UnsafeBufferPointer<UInt8> {
        var length = 0
        let address = UnsafeRawPointer(cmhd_client_address(connection, &length)).map { $0.assumingMemoryBound(to: UInt8.self) }
        return UnsafeBufferPointer(start: address, count: length)
    }

    func header(_ name: StaticString) -> UnsafePointer<CChar>? {
        cmhd_request_header(connection, UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self))
    }

    func joinedHeader(_ name: StaticString, into buffer: UnsafeMutableBufferPointer<CChar>) -> Int {
        cmhd_request_header_joined(connection, UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self), buffer.baseAddress, buffer.count)
    }

    func queryValue(_ name: UnsafePointer<CChar>) -> UnsafePointer<CChar>? {
        cmhd_query_value(connection, name)
    }

    func queryItems() -> [(name: String, value: String?)] {
        final class Collector { var items: [(name: String, value: String?)] = [] }
        let collector = Collector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, { context, _, key, value in
            guard let context, let key else { return .YES }
            Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().items.append((String(cString: key), value.map { String(cString: $0) }))
            return .YES
        }, context)
        return withExtendedLifetime(collector) { collector.items }
    }

    func queue(_ response: OpaquePointer, status: UInt32, body: UnsafeRawBufferPointer) -> MHD_Result {
        MHD_queue_response(connection, status, response)
    }

    func holdUntilCompleted(_ tag: UnsafeMutableRawPointer) -> Bool {
        cmhd_request_tag_set(connection, tag, releaseShellTag) != 0
    }
}
