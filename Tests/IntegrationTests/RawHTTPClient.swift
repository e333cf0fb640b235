import CTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One parsed HTTP response.
struct HTTPResponse: Sendable, CustomStringConvertible {
    let version: String
    let status: Int
    let reason: String
    /// Header fields in the order received.
    let headers: [(name: String, value: String)]
    let body: [UInt8]
    /// What was sent and what the server logged meanwhile (LinkHostProcess.request fills it), so a failed
    /// expectation that prints the response also shows the request and the server's side.
    var context: String = ""

    /// The value of the first field named `name`, compared case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of the fields named `name`.
    func headers(named name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The response as it would look on the wire (body shortened), for failure messages.
    var description: String {
        let head = (["\(version) \(status) \(reason)"] + headers.map { "\($0.name): \($0.value)" }).joined(separator: "\n")
        let shown = body.count > 400 ? String(decoding: body.prefix(400), as: UTF8.self) + "… (\(body.count) bytes)" : text
        return head + "\n\n" + shown + (context.isEmpty ? "" : "\n" + context)
    }
}

/// Why a raw HTTP exchange failed.
enum HTTPClientError: Error, CustomStringConvertible {
    case connectFailed(host: String, port: Int, errno: Int32)
    case sendFailed(errno: Int32)
    case timedOut(received: [UInt8])
    case closed(received: [UInt8])
    case malformed(String, received: [UInt8])

    var description: String {
        switch self {
        case .connectFailed(let host, let port, let code):
            return "cannot connect to \(host) port \(port): \(errorText(code))"
        case .sendFailed(let code):
            return "send failed: \(errorText(code))"
        case .timedOut(let received):
            return "timed out waiting for the server; received so far: \(Self.show(received))"
        case .closed(let received):
            return "the server closed the connection mid-response; received: \(Self.show(received))"
        case .malformed(let why, let received):
            return "malformed response (\(why)); received: \(Self.show(received))"
        }
    }

    private static func show(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "nothing" : "\"" + String(decoding: bytes.prefix(600), as: UTF8.self) + "\""
    }
}

/// An HTTP/1.1 client over one TCP connection, writing raw bytes and parsing what comes back.
///
/// Several requests can go over the same connection (keep-alive and pipelining); bytes past one
/// response are kept for the next. Every read is bounded by the socket timeout and an overall
/// deadline, so no test can hang on a silent server. Each blocking method has an async form of the same
/// name (chosen in async code) that runs it on a thread of its own (OffPool.swift); the blocking forms are
/// for code already on such a thread. Unchecked Sendable: one task uses a connection at a time, and each
/// async call waits for its thread to finish before the next starts.
final class RawHTTPClient: @unchecked Sendable {
    let host: String
    let port: Int
    /// -1 until connected: a deferred client connects on its first send, on the thread that sends.
    private var descriptor: Int32 = -1
    private let timeout: Duration
    /// Bytes received but not yet consumed by a parsed response.
    private var pending: [UInt8] = []
    /// The last bytes written (up to 1 KB), for failure messages.
    private var lastSent: [UInt8] = []
    /// What the server said meanwhile (LinkHostProcess.connect sets it to its stderr tail), for failure messages.
    var serverLog: (@Sendable () -> String)?

    /// Connects now, on the calling thread.
    init(host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(5)) throws(HTTPClientError) {
        self.host = host
        self.port = port
        self.timeout = timeout
        try connectIfNeeded()
    }

    /// A client that connects on its first send, on the same thread, so no wait of the test comes between the
    /// connect and the first bytes: the server's header deadline runs from the connect, and a test task that
    /// waits for a pool thread between the two would be cut off (408) for a delay of its own.
    init(deferredHost host: String, port: Int, timeout: Duration) {
        self.host = host
        self.port = port
        self.timeout = timeout
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    private func connectIfNeeded() throws(HTTPClientError) {
        guard descriptor < 0 else { return }
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let descriptor = lhtest_connect(host, Int32(port), milliseconds)
        guard descriptor >= 0 else { throw .connectFailed(host: host, port: port, errno: errno) }
        self.descriptor = descriptor
    }

    /// This end's port, which names the connection in the kernel's socket tables (/proc/net/tcp).
    var localPort: Int { Int(lhtest_local_port(descriptor)) }

    /// Connects on a thread of its own (a connect to a full backlog blocks).
    static func open(host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(5)) async throws -> RawHTTPClient {
        try await onThread("connect to \(host):\(port)") { try RawHTTPClient(host: host, port: port, timeout: timeout) }
    }

    /// `send` on a thread of its own.
    func send(_ text: String) async throws { try await onThread { try self.send(text) } }

    /// `send` on a thread of its own.
    func send(_ bytes: [UInt8]) async throws { try await onThread { try self.send(bytes) } }

    /// `request` on a thread of its own; its response (or error) carries the request sent and the server's log.
    func request(_ method: String = "GET", _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) async throws -> HTTPResponse {
        try await withContext { try self.request(method, path, headers: headers, body: body) }
    }

    /// `readResponse` on a thread of its own; its response (or error) carries the last bytes sent and the server's log.
    func readResponse(toMethod method: String = "GET") async throws -> HTTPResponse {
        try await withContext { try self.readResponse(toMethod: method) }
    }

    /// The last bytes sent and, when known, the server's log tail: what a failure message needs beside the answer.
    var exchangeContext: String {
        let sent = String(decoding: lastSent, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        return "--- last bytes sent ---\n\(sent)" + (serverLog.map { "\n--- server stderr, last lines ---\n\($0())" } ?? "")
    }

    /// Runs a blocking exchange on a thread of its own and attaches `exchangeContext` to its response or error.
    private func withContext(_ exchange: @escaping @Sendable () throws -> HTTPResponse) async throws -> HTTPResponse {
        do {
            var response = try await onThread("HTTP exchange with \(host):\(port)", exchange)
            response.context = exchangeContext
            return response
        } catch {
            throw HarnessError("\(error)\n\(exchangeContext)")
        }
    }

    /// `readUntilClosed` on a thread of its own.
    func readUntilClosed(wait: Duration) async -> [UInt8]? {
        await onThread { self.readUntilClosed(wait: wait) }
    }

    /// Writes raw text.
    func send(_ text: String) throws(HTTPClientError) { try send(Array(text.utf8)) }

    /// Writes raw bytes, all of them.
    func send(_ bytes: [UInt8]) throws(HTTPClientError) {
        lastSent = Array(bytes.prefix(1_000))
        try connectIfNeeded()
        var remaining = bytes
        while !remaining.isEmpty {
            let size = remaining.count
            let written = write(descriptor, &remaining, size)
            if written < 0 {
                if errno == EINTR { continue }
                throw .sendFailed(errno: errno)
            }
            remaining.removeFirst(written)
        }
    }

    /// The bytes of a request: request line, `Host` and `User-Agent` unless given, the given fields,
    /// `Content-Length` when there is a body.
    static func requestBytes(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\n"
        let given = Set(headers.map { $0.0.lowercased() })
        if !given.contains("host") { head += "Host: links.example.com\r\n" }
        if !given.contains("user-agent") { head += "User-Agent: linkhost-integration-tests\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }

    /// Sends one request and reads its response.
    func request(_ method: String = "GET", _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) throws(HTTPClientError) -> HTTPResponse {
        try send(Self.requestBytes(method, path, headers: headers, body: body))
        return try readResponse(toMethod: method)
    }

    /// Reads the next response; `method` decides whether a body follows (never for HEAD).
    func readResponse(toMethod method: String = "GET") throws(HTTPClientError) -> HTTPResponse {
        let deadline = ContinuousClock.now + timeout
        var headEnd = find([13, 10, 13, 10], in: pending)
        while headEnd == nil {
            guard pending.count < 65_536 else { throw .malformed("no end of header section in 64 KiB", received: pending) }
            try receiveMore(deadline: deadline)
            headEnd = find([13, 10, 13, 10], in: pending)
        }
        let headText = String(decoding: pending[..<headEnd!], as: UTF8.self)
        let received = pending
        pending.removeFirst(headEnd! + 4)

        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]), (100...999).contains(status) else {
            throw .malformed("bad status line \"\(statusLine)\"", received: received)
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw .malformed("bad header line \"\(line)\"", received: received)
            }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((name, value))
        }
        var response = HTTPResponse(version: String(parts[0]), status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers, body: [])

        // RFC 9112 §6.3: no body after HEAD, 1xx, 204 and 304, whatever the fields say.
        if method == "HEAD" || status < 200 || status == 204 || status == 304 { return response }
        let body: [UInt8]
        if let encoding = response.header("Transfer-Encoding"), encoding.lowercased().contains("chunked") {
            body = try readChunked(deadline: deadline)
        } else if let lengthText = response.header("Content-Length") {
            guard let length = Int(lengthText), length >= 0 else { throw .malformed("bad Content-Length \"\(lengthText)\"", received: received) }
            while pending.count < length { try receiveMore(deadline: deadline) }
            body = Array(pending[..<length])
            pending.removeFirst(length)
        } else {
            // No framing: the body runs to the end of the connection.
            while true {
                do { try receiveMore(deadline: deadline) } catch .closed { break }
            }
            body = pending
            pending = []
        }
        response = HTTPResponse(version: response.version, status: status, reason: response.reason, headers: headers, body: body)
        return response
    }

    /// Waits until the server closes the connection; returns the bytes it sent first (normally none),
    /// or nil when it is still open after `wait`.
    func readUntilClosed(wait: Duration) -> [UInt8]? {
        let deadline = ContinuousClock.now + wait
        while true {
            do {
                try receiveMore(deadline: deadline)
            } catch .closed(let received) {
                pending = []
                return received
            } catch {
                return nil
            }
        }
    }

    /// Reads at least one more byte into `pending`.
    private func receiveMore(deadline: ContinuousClock.Instant) throws(HTTPClientError) {
        try connectIfNeeded()
        let size = 16_384
        var buffer = [UInt8](repeating: 0, count: size)
        while true {
            let remaining = deadline - ContinuousClock.now
            let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
            guard milliseconds > 0, lhtest_wait_readable(descriptor, Int32(clamping: milliseconds)) != 0 else {
                throw .timedOut(received: pending)
            }
            let count = read(descriptor, &buffer, size)
            if count > 0 {
                pending += buffer[..<count]
                return
            }
            if count == 0 { throw .closed(received: pending) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: throw .timedOut(received: pending)
            case ECONNRESET: throw .closed(received: pending)
            default: throw .malformed("read failed: \(errorText(errno))", received: pending)
            }
        }
    }

    private func readChunked(deadline: ContinuousClock.Instant) throws(HTTPClientError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            var lineEnd = find([13, 10], in: pending)
            while lineEnd == nil { try receiveMore(deadline: deadline); lineEnd = find([13, 10], in: pending) }
            let sizeText = String(decoding: pending[..<lineEnd!], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw .malformed("bad chunk size \"\(sizeText)\"", received: pending)
            }
            pending.removeFirst(lineEnd! + 2)
            if size == 0 {
                // Trailer section, ended by an empty line.
                while true {
                    var end = find([13, 10], in: pending)
                    while end == nil { try receiveMore(deadline: deadline); end = find([13, 10], in: pending) }
                    pending.removeFirst(end! + 2)
                    if end == 0 { return body }
                }
            }
            while pending.count < size + 2 { try receiveMore(deadline: deadline) }
            body += pending[..<size]
            pending.removeFirst(size + 2)
        }
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start }
        }
        return nil
    }
}

/// Whether `host`:`port` accepts a TCP connection now (tried on a thread of its own; closed at once).
func acceptsConnections(host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(1)) async -> Bool {
    await onThread("probe \(host):\(port)") {
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let descriptor = lhtest_connect(host, Int32(port), milliseconds)
        if descriptor >= 0 { close(descriptor) }
        return descriptor >= 0
    }
}
