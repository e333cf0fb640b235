import CHTTPClient

/// The scheme, host and port requests go to: the deployment being checked, or Apple's CDN.
public struct FetchOrigin: Sendable, Equatable, CustomStringConvertible {
    /// `https` or `http`.
    public let scheme: String
    /// The host as a URL writes it, lower-cased; an IPv6 literal keeps its brackets.
    public let host: String
    /// The explicit port, or nil for the scheme's default.
    public let port: Int?

    /// Reads the origin of an absolute URL (`https://example.com:8443/anything`); nil when it has none.
    public init?(url: String) {
        guard let split = try? SplitURL(url), split.scheme == "https" || split.scheme == "http" else { return nil }
        self.init(scheme: split.scheme, host: split.host, port: split.port)
    }

    /// Makes an origin.
    public init(scheme: String, host: String, port: Int?) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// The port connected to.
    public var effectivePort: Int { port ?? (scheme == "https" ? 443 : 80) }

    /// The host without IPv6 brackets, as the resolver and certificate check want it.
    public var bareHost: String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// The `Host` header: the port only when it is not the scheme's default.
    public var authority: String {
        port.map { $0 == (scheme == "https" ? 443 : 80) ? host : "\(host):\($0)" } ?? host
    }

    /// `https://host[:port]`.
    public var description: String { "\(scheme)://\(authority)" }
}

/// One request `check` makes: no body, no redirects followed, a fixed user agent.
public struct FetchRequest: Sendable, Equatable {
    /// `GET` or `HEAD`.
    public var method: String
    /// Where it goes.
    public var origin: FetchOrigin
    /// The request target, starting with `/`.
    public var path: String
    /// The `User-Agent` sent.
    public var userAgent: String

    /// Makes a request.
    public init(method: String, origin: FetchOrigin, path: String, userAgent: String) {
        self.method = method
        self.origin = origin
        self.path = path
        self.userAgent = userAgent
    }

    /// The full URL, for messages.
    public var url: String { origin.description + path }

    /// The request's bytes; `Connection: close` so the server ends the exchange after one response.
    var bytes: [UInt8] {
        let head = "\(method) \(path) HTTP/1.1\r\nHost: \(origin.authority)\r\nUser-Agent: \(userAgent)\r\n"
            + "Accept: */*\r\nConnection: close\r\n\r\n"
        return Array(head.utf8)
    }
}

/// Why a request got no HTTP response.
public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, so reports can treat an untrusted certificate apart from a refused connection.
    public enum Kind: String, Sendable, Equatable {
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
    public let kind: Kind
    /// What happened, in words.
    public let message: String

    /// Makes an error.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// How `check` fetches: the real client, or canned responses in unit tests.
public typealias Fetcher = @Sendable (FetchRequest) -> Result<FetchedResponse, FetchError>

/// A small HTTP/1.1 client over the C transport: one request per connection, TLS verified, nothing followed.
///
/// Foundation's URLSession is avoided on purpose: on Linux it brings libcurl and ICU into the binary and the image.
public struct HTTPClient: Sendable {
    /// Seconds each step (connect, handshake, each read) and the whole exchange may take.
    public var timeoutSeconds: Int
    /// Largest response (header and body) read; beyond it the fetch fails rather than fill memory.
    public var maximumResponseSize: Int
    /// PEM file of trust anchors to use instead of the system store (for private or test CAs).
    public var caFile: String?

    /// Makes a client.
    public init(timeoutSeconds: Int = 10, maximumResponseSize: Int = 1 << 20, caFile: String? = nil) {
        self.timeoutSeconds = timeoutSeconds
        self.maximumResponseSize = maximumResponseSize
        self.caFile = caFile
    }

    /// This client as a `Fetcher`.
    public var fetcher: Fetcher {
        let client = self
        return { client.fetch($0) }
    }

    /// Sends one request and reads its whole response.
    public func fetch(_ request: FetchRequest) -> Result<FetchedResponse, FetchError> {
        let timeoutMilliseconds = Int32(clamping: timeoutSeconds * 1000)
        var failure: Int32 = 0
        var errorText = [UInt8](repeating: 0, count: 512)
        let connection = lhc_open(
            request.origin.bareHost, Int32(request.origin.effectivePort), request.origin.scheme == "https" ? 1 : 0,
            caFile, timeoutMilliseconds, &failure, &errorText, Int32(errorText.count)
        )
        guard let connection else {
            return .failure(FetchError(kind: Self.kind(of: failure), message: Self.text(errorText)))
        }
        defer { lhc_close(connection) }

        let requestBytes = request.bytes
        guard lhc_send(connection, requestBytes, Int32(requestBytes.count)) == 0 else {
            return .failure(FetchError(kind: .io, message: Self.lastError(connection)))
        }
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = lhc_receive(connection, &buffer, Int32(buffer.count))
            let atEnd = count == Int32(LHC_RECEIVE_END.rawValue)
            if count > 0 { received.append(contentsOf: buffer[0..<Int(count)]) }
            if count == Int32(LHC_RECEIVE_TIMEOUT.rawValue) || ContinuousClock.now > deadline {
                return .failure(FetchError(kind: .timeout, message: "no complete response within \(timeoutSeconds) s"))
            }
            if count == Int32(LHC_RECEIVE_ERROR.rawValue) {
                return .failure(FetchError(kind: .io, message: Self.lastError(connection)))
            }
            if received.count > maximumResponseSize {
                return .failure(FetchError(kind: .tooLarge, message: "the response is larger than \(maximumResponseSize) bytes"))
            }
            switch HTTPResponseParser.parse(received, isHead: request.method == "HEAD", atEnd: atEnd) {
            case .complete(let response): return .success(response)
            case .invalid(let message): return .failure(FetchError(kind: .protocolError, message: message))
            case .incomplete:
                if atEnd { return .failure(FetchError(kind: .protocolError, message: "the connection closed before the response ended")) }
            }
        }
    }

    private static func kind(of failure: Int32) -> FetchError.Kind {
        switch UInt32(bitPattern: failure) {
        case LHC_FAILURE_RESOLVE.rawValue: return .resolve
        case LHC_FAILURE_TIMEOUT.rawValue: return .timeout
        case LHC_FAILURE_TLS.rawValue: return .tls
        case LHC_FAILURE_CERTIFICATE.rawValue: return .certificate
        case LHC_FAILURE_TRUST_STORE.rawValue: return .trustStore
        default: return .connect
        }
    }

    private static func lastError(_ connection: OpaquePointer) -> String {
        var buffer = [UInt8](repeating: 0, count: 512)
        lhc_last_error(connection, &buffer, Int32(buffer.count))
        return text(buffer)
    }

    /// A NUL-terminated C message as a string.
    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
