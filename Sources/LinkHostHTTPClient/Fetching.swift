import LinkHostCore

/// The scheme, host and port requests go to: the deployment being checked, or Apple's CDN.
package struct FetchOrigin: Sendable, Equatable, CustomStringConvertible {
    /// `https` or `http`.
    package let scheme: String
    /// The host as a URL writes it, lower-cased; an IPv6 literal keeps its brackets.
    package let host: String
    /// The explicit port, or nil for the scheme's default.
    package let port: Int?

    /// Reads the origin of an absolute URL (`https://example.com:8443/anything`); nil when it has none.
    package init?(url: String) {
        guard let split = try? SplitURL(url), split.scheme == "https" || split.scheme == "http" else { return nil }
        self.init(scheme: split.scheme, host: split.host, port: split.port)
    }

    /// Makes an origin.
    package init(scheme: String, host: String, port: Int?) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// The port connected to.
    package var effectivePort: Int { port ?? (scheme == "https" ? 443 : 80) }

    /// The host without IPv6 brackets, as the resolver and certificate check want it.
    package var bareHost: String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// The `Host` header: the port only when it is not the scheme's default.
    package var authority: String {
        port.map { $0 == (scheme == "https" ? 443 : 80) ? host : "\(host):\($0)" } ?? host
    }

    /// `https://host[:port]`.
    package var description: String { "\(scheme)://\(authority)" }
}

/// One request `check` or the ACME client makes: no redirects followed, a fixed user agent.
package struct FetchRequest: Sendable, Equatable {
    /// `GET`, `HEAD` or `POST`.
    package var method: String
    /// Where it goes.
    package var origin: FetchOrigin
    /// The request target, starting with `/`.
    package var path: String
    /// The `User-Agent` sent.
    package var userAgent: String
    /// More header fields, such as the `Content-Type` of a body.
    package var headers: [HTTPHeader]
    /// The body, sent with its `Content-Length` (always sent on POST).
    package var body: [UInt8]
    /// How long the exchange may take from when the client starts it, whatever the client's own timeout says:
    /// `check` gives each request of a host what is left of the host's timeout, so the host's requests together
    /// cannot outlast it; nil for none. A span, not an instant, so a report names exactly what the request had.
    package var timeAllowed: Duration?

    /// Makes a request.
    package init(method: String, origin: FetchOrigin, path: String, userAgent: String, headers: [HTTPHeader] = [], body: [UInt8] = [],
                 timeAllowed: Duration? = nil) {
        self.method = method
        self.origin = origin
        self.path = path
        self.userAgent = userAgent
        self.headers = headers
        self.body = body
        self.timeAllowed = timeAllowed
    }

    /// The full URL, for messages.
    package var url: String { origin.description + path }

    /// The request's bytes; `Connection: close` so the server ends the exchange after one response.
    var bytes: [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(origin.authority)\r\nUser-Agent: \(userAgent)\r\n"
        if !headers.contains(where: { $0.name.lowercased() == "accept" }) { head += "Accept: */*\r\n" }
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8) + body
    }
}

/// Why a request got no HTTP response.
package struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, so reports can treat an untrusted certificate apart from a refused connection.
    package enum Kind: String, Sendable, Equatable {
        /// The host name does not resolve.
        case resolve
        /// No address accepted the connection.
        case connect
        /// A step took longer than the timeout.
        case timeout
        /// The TLS handshake failed for a reason other than trust.
        case tls
        /// The server's certificate is not trusted or does not name the host.
        case certificate
        /// No trust anchors could be loaded (the system store or `--cacert`).
        case trustStore
        /// The bytes are not an HTTP/1.x response.
        case protocolError
        /// The response is larger than the client accepts.
        case tooLarge
        /// Sending or receiving failed.
        case io
    }

    /// The kind of failure.
    package let kind: Kind
    /// What happened, in words.
    package let message: String

    /// Makes an error.
    package init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    package var description: String { message }
}

/// How `check` fetches: the real client, or canned responses in unit tests.
package typealias Fetcher = @Sendable (FetchRequest) -> Result<FetchedResponse, FetchError>
