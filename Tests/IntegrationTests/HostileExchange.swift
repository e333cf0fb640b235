import CTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How long an exchange waits at each step; longer where the table says something should come.
struct HostileTiming: Sendable {
    /// For the first response byte when a response is expected (a slow machine must not turn a 400 into `open`).
    var firstResponse: Duration = .seconds(5)
    /// For the first response byte when the table expects none (the server is waiting for more input).
    var noResponse: Duration = .milliseconds(1200)
    /// After a response, for more bytes or a close, on a connection the server keeps alive.
    var settle: Duration = .milliseconds(300)
    /// After a response, for the close the table expects (or `Connection: close` announces).
    var close: Duration = .seconds(3)
}

/// What one raw exchange produced: the outcome, every byte received, and the parsed responses.
struct HostileExchangeResult: Sendable {
    var outcome = HostileOutcome()
    var received: [UInt8] = []
    var responses: [HTTPResponse] = []
    /// Set when the request could not be sent in full (the server closed first); not a failure by itself.
    var sendError: String?
}

/// Sends one case's bytes on a fresh connection and reads everything that comes back, without
/// ever trusting the server to frame its answer: bytes that do not parse as a response are `garbage`.
enum HostileExchange {
    /// Names the known bodies by what they are (`style`, `aasa`, …), so pipelined answers show their order.
    typealias BodyTags = [(tag: String, body: [UInt8])]

    /// Runs one case; `source` picks the client's loopback address (nil: the system's choice, 127.0.0.1).
    static func run(_ testCase: HostileCase, host: String, port: Int, tags: BodyTags, timing: HostileTiming, source: String? = nil) throws -> HostileExchangeResult {
        let descriptor = source.map { lhtest_connect_from($0, host, Int32(port), 5_000) } ?? lhtest_connect(host, Int32(port), 5_000)
        guard descriptor >= 0 else { throw HTTPClientError.connectFailed(host: host, port: port, errno: errno) }
        defer { close(descriptor) }
        var result = HostileExchangeResult()
        result.sendError = sendAll(descriptor, testCase.bytes)

        let outcomes = testCase.allOutcomes
        let expectsResponse = outcomes.contains { $0.split(separator: " ").first?.contains(":") ?? false }
        let expectsClose = outcomes.contains { $0.hasSuffix("close") }
        var methods = testCase.methods[...]
        var pending: [UInt8] = []
        var reader = SocketReader(descriptor: descriptor)

        while true {
            switch parse(pending, method: methods.first ?? "GET") {
            case .response(let response, let consumed):
                result.responses.append(response)
                result.outcome.tokens.append("\(response.status):\(tag(response, tags: tags))")
                pending.removeFirst(consumed)
                if response.status >= 200 { methods = methods.dropFirst() }
                continue
            case .malformed:
                result.outcome.tokens.append("garbage")
                // Whatever else arrives is part of the same mess; only the close matters now.
                result.outcome.closed = reader.drain(for: timing.close, into: &result.received)
                return result
            case .needMore:
                break
            }
            let announcedClose = result.responses.last.map { $0.header("Connection")?.lowercased() == "close" || $0.version == "HTTP/1.0" } ?? false
            let wait: Duration
            if result.responses.isEmpty && pending.isEmpty {
                wait = expectsResponse ? timing.firstResponse : (expectsClose ? timing.close : timing.noResponse)
            } else if pending.isEmpty {
                wait = announcedClose || expectsClose ? timing.close : timing.settle
            } else {
                wait = timing.firstResponse
            }
            switch reader.read(for: wait) {
            case .data(let bytes):
                pending += bytes
                result.received += bytes
            case .closed:
                if !pending.isEmpty { result.outcome.tokens.append("garbage") }
                result.outcome.closed = true
                return result
            case .quiet:
                if !pending.isEmpty { result.outcome.tokens.append("garbage") }
                result.outcome.closed = false
                return result
            }
        }
    }

    /// Writes every byte unless the server closes first; returns why it stopped early, if it did.
    private static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> String? {
        var offset = 0
        while offset < bytes.count {
            let chunk = Array(bytes[offset...])
            let written = write(descriptor, chunk, chunk.count)
            if written < 0 {
                if errno == EINTR { continue }
                return "sent \(offset) of \(bytes.count) bytes: \(errorText(errno))"
            }
            offset += written
        }
        return nil
    }

    private enum Parsed {
        case response(HTTPResponse, consumed: Int)
        case malformed
        case needMore
    }

    /// One response from the front of `bytes`, strictly: a status line, header lines with colons,
    /// and a body framed by Content-Length (MHD never answers linkhost's requests chunked).
    private static func parse(_ bytes: [UInt8], method: String) -> Parsed {
        let prefix = Array("HTTP/".utf8)
        if !bytes.isEmpty && !Array(bytes.prefix(prefix.count)).elementsEqual(prefix.prefix(min(bytes.count, prefix.count))) {
            return .malformed
        }
        guard let headEnd = find([13, 10, 13, 10], in: bytes) else {
            return bytes.count > 65_536 ? .malformed : .needMore
        }
        let headText = String(decoding: bytes[..<headEnd], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].count == 3, let status = Int(parts[1]) else { return .malformed }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  !line[..<colon].contains(where: { $0 == " " || $0 == "\t" }) else { return .malformed }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let head = HTTPResponse(version: String(parts[0]), status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers, body: [])
        let bodyStart = headEnd + 4
        if method == "HEAD" || status < 200 || status == 204 || status == 304 {
            return .response(head, consumed: bodyStart)
        }
        let lengths = head.headers(named: "Content-Length")
        guard lengths.count == 1, let length = Int(lengths[0]), length >= 0 else { return .malformed }
        guard bytes.count >= bodyStart + length else { return .needMore }
        let body = Array(bytes[bodyStart..<(bodyStart + length)])
        return .response(HTTPResponse(version: head.version, status: status, reason: head.reason, headers: headers, body: body),
                         consumed: bodyStart + length)
    }

    /// The name of a known body, `call` for a rendered call page, `mhd` for libmicrohttpd's own error
    /// pages, `empty`, or `other`.
    static func tag(_ response: HTTPResponse, tags: BodyTags) -> String {
        if response.body.isEmpty { return "empty" }
        if let known = tags.first(where: { $0.body == response.body }) { return known.tag }
        let text = response.text
        if text.contains("<h1 id=\"title\">Join call</h1>") { return "call" }
        if text.hasPrefix("<html><head><title>") { return "mhd" }
        if response.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true { return "metrics" }
        return "other"
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }
}

/// Reads a socket with deadlines, telling data, a close (end of file or reset) and silence apart.
struct SocketReader {
    let descriptor: Int32

    enum Event {
        case data([UInt8])
        case closed
        case quiet
    }

    /// Waits up to `wait` for the next bytes.
    mutating func read(for wait: Duration) -> Event {
        let milliseconds = Int32(clamping: wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)
        switch lhtest_wait_readable(descriptor, milliseconds) {
        case 0: return .quiet
        case 1: break
        default: return .closed
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count > 0 { return .data(Array(buffer[..<count])) }
            if count == 0 { return .closed }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .quiet : .closed
        }
    }

    /// Reads and keeps everything until the peer closes or `wait` passes; true when it closed.
    mutating func drain(for wait: Duration, into received: inout [UInt8]) -> Bool {
        let deadline = ContinuousClock.now + wait
        while ContinuousClock.now < deadline {
            switch read(for: deadline - ContinuousClock.now) {
            case .data(let bytes): received += bytes
            case .closed: return true
            case .quiet: return false
            }
        }
        return false
    }
}
