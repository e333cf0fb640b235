/// One header field of a response.
public struct HTTPHeader: Sendable, Equatable {
    /// Field name, e.g. "Content-Type".
    public var name: String
    /// Field value.
    public var value: String

    /// Makes a header field.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == HTTPHeader {
    /// The value of the first field named `name`, compared without case as HTTP field names are (RFC 9110 §5.1).
    public func value(named name: String) -> String? {
        let lowered = name.lowercased()
        return first { $0.name.lowercased() == lowered }?.value
    }
}

/// An HTTP response as a value: status, headers and body.
public struct Response: Sendable, Equatable {
    /// Status code.
    public var status: Int
    /// Header fields in order; `Content-Length` and `Date` are added by the server.
    public var headers: [HTTPHeader]
    /// The body; for HEAD the server sends the headers only.
    public var body: [UInt8]
    /// What answered: for metrics, logs and the server's special cases.
    public var route: Route
    /// For a 304: the length of the 200 body it stands for, sent as its Content-Length.
    public package(set) var representationLength: Int?
    /// Set when this response was computed at load: the index of its native copy in the server.
    public package(set) var preparedID: Int?

    /// Makes a response.
    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = [], route: Route = .staticFile) {
        self.status = status
        self.headers = headers
        self.body = body
        self.route = route
        self.representationLength = nil
        self.preparedID = nil
    }

    /// The value of the first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.value(named: name)
    }

    /// The body as UTF-8 text, for tests and tools.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
