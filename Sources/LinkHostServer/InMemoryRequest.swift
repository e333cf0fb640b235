import CMicroHTTPD
import LinkHostCore

#if canImport(Glibc)
import Glibc
#endif

/// A request a test fills in memory and hands to `Server.answer(_:)`: the same answer path libmicrohttpd's
/// callbacks run, without a socket. What would be queued on the connection is recorded as an `Answer`.
///
/// Its bytes live in storage of its own, NUL-terminated like libmicrohttpd's, until it is released.
/// Not thread-safe: one test uses one request.
package final class InMemoryRequest: IncomingRequest {
    /// What the server queued: the status, the header fields it set (libmicrohttpd adds `Date` and
    /// `Content-Length` on the wire) and the body the response holds (for HEAD and 304 it sends none).
    package struct Answer: Sendable, Equatable {
        /// Status code.
        package let status: Int
        /// Header fields in the order they were added.
        package let headers: [HTTPHeader]
        /// The body's bytes.
        package let body: [UInt8]

        /// The value of the first header named `name` (case-insensitive).
        package func header(_ name: String) -> String? {
            headers.value(named: name)
        }

        /// The body as UTF-8 text.
        package var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    let method: UnsafeBufferPointer<UInt8>
    let path: UnsafeBufferPointer<UInt8>
    let peerAddress: UnsafeBufferPointer<UInt8>
    private let fields: [(name: String, value: UnsafeMutableBufferPointer<CChar>)]
    private let query: [(name: UnsafeMutableBufferPointer<CChar>, value: UnsafeMutableBufferPointer<CChar>?)]
    private var owned: [UnsafeMutableBufferPointer<CChar>] = []
    /// Every answer queued, in order: one for a request answered once.
    package private(set) var answers: [Answer] = []

    /// A request of `method` for `target` (its query parsed as libmicrohttpd does: items split at `&` and `=`,
    /// `+` read as a space, nothing unescaped), with `headers` in order, from `peer`.
    package init(_ method: String = "GET", _ target: String, headers: [(String, String)] = [], peer: String = "127.0.0.1") {
        var owned: [UnsafeMutableBufferPointer<CChar>] = []
        func store(_ text: some StringProtocol) -> UnsafeMutableBufferPointer<CChar> {
            let utf8 = Array(text.utf8)
            let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: utf8.count + 1)
            for (index, byte) in utf8.enumerated() { buffer[index] = CChar(bitPattern: byte) }
            buffer[utf8.count] = 0
            owned.append(buffer)
            return buffer
        }
        func bytes(_ buffer: UnsafeMutableBufferPointer<CChar>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt8.self), count: buffer.count - 1)
        }
        let question = target.firstIndex(of: "?")
        self.method = bytes(store(method))
        self.path = bytes(store(target[..<(question ?? target.endIndex)]))
        self.peerAddress = bytes(store(peer))
        fields = headers.map { ($0.0, store($0.1)) }
        var items: [(name: UnsafeMutableBufferPointer<CChar>, value: UnsafeMutableBufferPointer<CChar>?)] = []
        if let question {
            for item in target[target.index(after: question)...].split(separator: "&") {
                let spaced = item.replacing("+", with: " ")
                if let equals = spaced.firstIndex(of: "=") {
                    items.append((store(spaced[..<equals]), store(spaced[spaced.index(after: equals)...])))
                } else {
                    items.append((store(spaced), nil))
                }
            }
        }
        query = items
        self.owned = owned
    }

    deinit {
        for buffer in owned { buffer.deallocate() }
    }

    /// The one answer queued, or nil when there was none or more than one.
    package var answer: Answer? { answers.count == 1 ? answers[0] : nil }

    func header(_ name: StaticString) -> UnsafePointer<CChar>? {
        let wanted = name.description.lowercased()
        return fields.first { $0.name.lowercased() == wanted }.map { UnsafePointer($0.value.baseAddress!) }
    }

    func joinedHeader(_ name: StaticString, into buffer: UnsafeMutableBufferPointer<CChar>) -> Int {
        let wanted = name.description.lowercased()
        let joined = fields.filter { $0.name.lowercased() == wanted }.map { String(cString: $0.value.baseAddress!) }.joined(separator: ", ")
        let utf8 = Array(joined.utf8)
        guard utf8.count + 1 <= buffer.count else { return -1 }
        for (index, byte) in utf8.enumerated() { buffer[index] = CChar(bitPattern: byte) }
        buffer[utf8.count] = 0
        return utf8.count
    }

    func queryValue(_ name: UnsafePointer<CChar>) -> UnsafePointer<CChar>? {
        // The first item of the name decides, even one without a value (libmicrohttpd's NULL), as `cmhd_query_value` does.
        query.first { strcmp($0.name.baseAddress!, name) == 0 }.flatMap { $0.value.map { UnsafePointer($0.baseAddress!) } }
    }

    func queryItems() -> [(name: String, value: String?)] {
        query.map { (String(cString: $0.name.baseAddress!), $0.value.map { String(cString: $0.baseAddress!) }) }
    }

    func queue(_ response: OpaquePointer, status: UInt32, body: UnsafeRawBufferPointer) -> MHD_Result {
        final class Collector { var headers: [HTTPHeader] = [] }
        let collector = Collector()
        _ = MHD_get_response_headers(response, { context, _, key, value in
            guard let context, let key else { return .YES }
            Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().headers.append(HTTPHeader(String(cString: key), value.map { String(cString: $0) } ?? ""))
            return .YES
        }, Unmanaged.passUnretained(collector).toOpaque())
        withExtendedLifetime(collector) {
            answers.append(Answer(status: Int(status), headers: collector.headers, body: Array(body)))
        }
        return .YES
    }

    /// Completes the request at once (its answer is recorded): a reused page response goes back to its pool,
    /// as it would once libmicrohttpd had sent it.
    func holdUntilCompleted(_ tag: UnsafeMutableRawPointer) -> Bool {
        releaseShellTag(tag)
        return true
    }
}

extension Server {
    /// Answers `request` in this process, as libmicrohttpd's callback would once its head (and any small body)
    /// had arrived: the one answer queued, or nil when none or more than one was (`request.answers` has them).
    package func answer(_ request: InMemoryRequest) -> InMemoryRequest.Answer? {
        _ = answer(request, started: LogTime.monotonicNanoseconds())
        return request.answer
    }
}
