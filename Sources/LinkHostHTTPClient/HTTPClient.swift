import LinkHostCore
import CHTTPClient

/// A small HTTP/1.1 client over the C transport: one request per connection, TLS verified, nothing followed;
/// the one HTTP client of linkhost, for `check` and for the ACME client.
///
/// Foundation's URLSession is avoided on purpose: on Linux it brings libcurl and ICU into the binary and the image.
package struct HTTPClient: Sendable {
    /// Seconds one request's whole exchange may take, from connecting to the last byte, TLS or not; a request's
    /// own `timeAllowed` may end it sooner.
    package var timeoutSeconds: Int
    /// Largest response (header and body) read; beyond it the fetch fails rather than fill memory.
    package var maximumResponseSize: Int
    /// PEM file of trust anchors to use instead of the system store (for private or test CAs).
    package var caFile: String?
    /// Where to dial instead, as curl's `--connect-to` says: the first rule that fits an origin wins.
    package var connectTo: [ConnectTo]

    /// Makes a client.
    package init(timeoutSeconds: Int = 10, maximumResponseSize: Int = 1 << 20, caFile: String? = nil, connectTo: [ConnectTo] = []) {
        self.timeoutSeconds = timeoutSeconds
        self.maximumResponseSize = maximumResponseSize
        self.caFile = caFile
        self.connectTo = connectTo
    }

    /// This client as a `Fetcher`.
    package var fetcher: Fetcher {
        let client = self
        return { client.fetch($0) }
    }

    /// Sends one request and reads its whole response, within the client's timeout or the request's `timeAllowed`, whichever is shorter.
    package func fetch(_ request: FetchRequest) -> Result<FetchedResponse, FetchError> {
        let started = ContinuousClock.now
        let allowed = min(.seconds(timeoutSeconds), request.timeAllowed ?? .seconds(timeoutSeconds))
        let deadline = started + allowed
        guard allowed > .zero else { return .failure(FetchError(kind: .timeout, message: "not sent: its deadline had passed")) }
        // Rounded up, so the transport's deadline is never before this one and a timeout there means this one passed.
        let milliseconds = allowed.components.seconds * 1000 + (allowed.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        let timeoutMilliseconds = Int32(clamping: milliseconds)
        let tenths = milliseconds % 1000 / 100
        let within = tenths == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds / 1000).\(tenths) s"
        var failure: Int32 = 0
        var errorText = [UInt8](repeating: 0, count: 512)
        let origin = request.origin
        let rule = connectTo.first { $0.fits(host: origin.bareHost, port: origin.effectivePort) }
        let connection = lhc_open(
            origin.bareHost, rule?.host ?? origin.bareHost, Int32(rule?.port ?? origin.effectivePort), origin.scheme == "https" ? 1 : 0,
            caFile, timeoutMilliseconds, &failure, &errorText, Int32(errorText.count)
        )
        guard let connection else {
            return .failure(FetchError(kind: Self.kind(of: failure), message: Self.text(errorText)))
        }
        defer { lhc_close(connection) }
        let peerCertificates = request.origin.scheme == "https" ? Self.peerCertificates(connection) : nil

        let requestBytes = request.bytes
        guard lhc_send(connection, requestBytes, Int32(requestBytes.count)) == 0 else {
            return .failure(FetchError(kind: .io, message: Self.lastError(connection)))
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = lhc_receive(connection, &buffer, Int32(buffer.count))
            let atEnd = count == Int32(LHC_RECEIVE_END.rawValue)
            if count > 0 { received.append(contentsOf: buffer[0..<Int(count)]) }
            if count == Int32(LHC_RECEIVE_TIMEOUT.rawValue) || ContinuousClock.now > deadline {
                return .failure(FetchError(kind: .timeout, message: "no complete response within \(within)"))
            }
            if count == Int32(LHC_RECEIVE_ERROR.rawValue) {
                return .failure(FetchError(kind: .io, message: Self.lastError(connection)))
            }
            if received.count > maximumResponseSize {
                return .failure(FetchError(kind: .tooLarge, message: "the response is larger than \(maximumResponseSize) bytes"))
            }
            switch HTTPResponseParser.parse(received, isHead: request.method == "HEAD", atEnd: atEnd) {
            case .complete(var response):
                response.peerCertificates = peerCertificates
                return .success(response)
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

    /// The chain the server presented, PEM; nil when it does not fit (a chain of 64 KB is no web server's).
    private static func peerCertificates(_ connection: OpaquePointer) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let length = lhc_peer_certificates(connection, &buffer, Int32(buffer.count))
        return length > 0 ? Array(buffer[0..<Int(length)]) : nil
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

/// One `--connect-to HOST1:PORT1:HOST2:PORT2` rule, as curl reads it: requests for HOST1 on PORT1 (either
/// empty for any) are dialled at HOST2 on PORT2 (either empty to keep the request's), while the Host
/// header, SNI and certificate check still name HOST1 — one origin or replica behind a CDN, checked as the
/// fetchers see the name.
package struct ConnectTo: Sendable, Equatable {
    /// The host it applies to, or nil for any.
    package let fromHost: String?
    /// The port it applies to, or nil for any.
    package let fromPort: Int?
    /// Where to dial instead, or nil to keep the request's host.
    package let host: String?
    /// The port to dial instead, or nil to keep the request's.
    package let port: Int?

    /// Reads `HOST1:PORT1:HOST2:PORT2` (IPv6 literals in brackets); nil when it is not of that form.
    package init?(_ text: String) {
        var parts: [String] = []
        var current = ""
        var bracketed = false
        for character in text {
            if character == "[" { bracketed = true } else if character == "]" { bracketed = false }
            if character == ":" && !bracketed {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        guard parts.count == 4 else { return nil }
        func host(_ part: String) -> String? {
            let bare = part.hasPrefix("[") && part.hasSuffix("]") ? String(part.dropFirst().dropLast()) : part
            return bare.isEmpty ? nil : bare.lowercased()
        }
        func port(_ part: String) -> Int?? {
            if part.isEmpty { return .some(nil) }
            guard let value = Int(part), (1...65535).contains(value) else { return nil }
            return .some(value)
        }
        guard let fromPort = port(parts[1]), let toPort = port(parts[3]) else { return nil }
        self.fromHost = host(parts[0])
        self.fromPort = fromPort
        self.host = host(parts[2])
        self.port = toPort
    }

    /// True when a request to `host` on `port` is dialled by this rule.
    package func fits(host requested: String, port requestedPort: Int) -> Bool {
        (fromHost == nil || fromHost == requested.lowercased()) && (fromPort == nil || fromPort == requestedPort)
    }
}
