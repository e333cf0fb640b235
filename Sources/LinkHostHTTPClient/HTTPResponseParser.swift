import LinkHostCore

/// A response as `linkhost check` received it: status, header fields in order, and the decoded body.
package struct FetchedResponse: Sendable, Equatable {
    /// The status code.
    package var status: Int
    /// The reason phrase as sent.
    package var reason: String
    /// Header fields in the order received.
    package var headers: [HTTPHeader]
    /// The body with any chunked framing removed; empty for HEAD, 204 and 304.
    package var body: [UInt8]
    /// The certificate chain the server presented (PEM, leaf first); nil over plain HTTP.
    package var peerCertificates: [UInt8]?

    /// Makes a response (tests build them directly).
    package init(status: Int, reason: String = "", headers: [HTTPHeader] = [], body: [UInt8] = [], peerCertificates: [UInt8]? = nil) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.peerCertificates = peerCertificates
    }

    /// The first field named `name` (case-insensitive).
    package func header(_ name: String) -> String? {
        headers.value(named: name)
    }

    /// The media type of `Content-Type` without parameters, lower-cased: `application/json`.
    package var mediaType: String? {
        guard let value = header("Content-Type") else { return nil }
        let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(HTTPResponseParser.trim(type)).lowercased()
    }
}

/// Reads HTTP/1.1 response bytes as they arrive: says whether the response is complete yet, and decodes it.
///
/// Kept apart from the socket code so the framing rules (Content-Length, chunked, read-until-close,
/// bodiless responses) are plain functions that unit tests can feed byte by byte.
package enum HTTPResponseParser {
    /// Where parsing stands.
    package enum Outcome: Sendable, Equatable {
        /// More bytes are needed.
        case incomplete
        /// The whole response has arrived.
        case complete(FetchedResponse)
        /// The bytes are not an HTTP/1.x response.
        case invalid(String)
    }

    /// Largest header section accepted; a larger one is not an association-file server.
    package static let maximumHeadSize = 64 * 1024

    /// Parses `bytes` received so far; `atEnd` says the peer closed, which completes a close-delimited body.
    package static func parse(_ bytes: [UInt8], isHead: Bool, atEnd: Bool) -> Outcome {
        var start = 0
        while true {
            guard let headEnd = find([13, 10, 13, 10], in: bytes[...], from: start) else {
                if bytes.count - start > maximumHeadSize { return .invalid("the response header is larger than \(maximumHeadSize) bytes") }
                return atEnd ? .invalid(bytes.count == start ? "the server closed the connection without a response" : "the connection closed inside the response header") : .incomplete
            }
            let head: (status: Int, reason: String, headers: [HTTPHeader])
            switch parseHead(Array(bytes[start..<headEnd])) {
            case .success(let parsed): head = parsed
            case .failure(let failure): return .invalid(failure.message)
            }
            let bodyStart = headEnd + 4
            // Interim responses (100 Continue, 103 Early Hints) precede the real one.
            if (100...199).contains(head.status) && head.status != 101 {
                start = bodyStart
                continue
            }
            var response = FetchedResponse(status: head.status, reason: head.reason, headers: head.headers)
            if isHead || head.status == 204 || head.status == 304 {
                return .complete(response)
            }
            let rest = bytes[bodyStart...]
            if let coding = response.header("Transfer-Encoding"), coding.lowercased().contains("chunked") {
                switch decodeChunked(rest) {
                case .incomplete: return atEnd ? .invalid("the connection closed inside a chunked body") : .incomplete
                case .invalid(let message): return .invalid(message)
                case .complete(let body):
                    response.body = body
                    return .complete(response)
                }
            }
            let lengths = response.headers.filter { $0.name.lowercased() == "content-length" }.map(\.value)
            if let first = lengths.first {
                guard lengths.allSatisfy({ $0 == first }), let length = Int(trim(Substring(first))), length >= 0 else {
                    return .invalid("the Content-Length \(lengths.joined(separator: ", ")) is not one number")
                }
                if rest.count >= length {
                    response.body = Array(rest.prefix(length))
                    return .complete(response)
                }
                return atEnd ? .invalid("the connection closed after \(rest.count) of \(length) body bytes") : .incomplete
            }
            guard atEnd else { return .incomplete }
            response.body = Array(rest)
            return .complete(response)
        }
    }

    private struct Failure: Error {
        let message: String
    }

    private static func parseHead(_ bytes: [UInt8]) -> Result<(status: Int, reason: String, headers: [HTTPHeader]), Failure> {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.") else {
            return .failure(Failure(message: "the response does not start with an HTTP/1.x status line"))
        }
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[1].utf8.count == 3, let status = Int(parts[1]), status >= 100 else {
            return .failure(Failure(message: "the status line \"\(statusLine.prefix(80))\" has no status code"))
        }
        var headers: [HTTPHeader] = []
        for line in lines.dropFirst() {
            if line.first == " " || line.first == "\t" {
                return .failure(Failure(message: "the response folds a header line, which HTTP/1.1 forbids"))
            }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                return .failure(Failure(message: "the header line \"\(line.prefix(80))\" has no name"))
            }
            headers.append(HTTPHeader(String(line[..<colon]), String(trim(line[line.index(after: colon)...]))))
        }
        return .success((status, parts.count > 2 ? String(parts[2]) : "", headers))
    }

    private enum ChunkOutcome {
        case incomplete
        case invalid(String)
        case complete([UInt8])
    }

    /// Decodes `size CRLF data CRLF … 0 CRLF trailers CRLF`.
    private static func decodeChunked(_ bytes: ArraySlice<UInt8>) -> ChunkOutcome {
        var body: [UInt8] = []
        var index = bytes.startIndex
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: index) else { return .incomplete }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self)
            // Chunk extensions after ";" carry nothing linkhost needs.
            let digits = sizeText.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard let size = Int(trim(digits), radix: 16), size >= 0 else {
                return .invalid("the chunk size \"\(sizeText.prefix(20))\" is not a hexadecimal number")
            }
            index = lineEnd + 2
            if size == 0 {
                // Trailers end with an empty line; skip them.
                while true {
                    guard let trailerEnd = find([13, 10], in: bytes, from: index) else { return .incomplete }
                    if trailerEnd == index { return .complete(body) }
                    index = trailerEnd + 2
                }
            }
            guard bytes.endIndex - index >= size + 2 else { return .incomplete }
            body.append(contentsOf: bytes[index..<(index + size)])
            index += size
            guard bytes[index] == 13, bytes[index + 1] == 10 else { return .invalid("a chunk does not end with CRLF") }
            index += 2
        }
    }

    /// `text` without leading and trailing spaces and tabs (optional whitespace around field values).
    package static func trim(_ text: Substring) -> Substring {
        var slice = text
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice
    }

    /// The index where `needle` starts in `bytes` at or after `start`.
    private static func find(_ needle: [UInt8], in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = max(start, bytes.startIndex)
        while index + needle.count <= bytes.endIndex {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
