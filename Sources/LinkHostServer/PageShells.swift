import CMicroHTTPD
import LinkHostCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Native 200s of rendered call pages kept for reuse: each already holds one header set's fields and a body
/// buffer of one length, so the next page of that set and length is written into the buffer, gets its ETag,
/// and is queued — instead of a new response whose every header field libmicrohttpd copies into three
/// allocations (33 per page, a quarter of a rendered page's instructions).
///
/// A shell serves one request at a time: it is taken here, attached to its request with
/// `cmhd_request_tag_set`, and comes back when the request completes (`Callbacks.swift`), after
/// libmicrohttpd has sent the last byte of it. Pages of one site and language differ in length only when
/// their IDs, types or hosts do, so a few shells serve most of them.
///
/// Unchecked: the idle shells are touched only under the lock; a shell in use belongs to its request.
final class PageShells: @unchecked Sendable {
    /// One reusable response.
    final class Shell: @unchecked Sendable {
        let response: OpaquePointer
        let body: UnsafeMutablePointer<UInt8>
        let length: Int
        let headerSet: Int
        /// Kept alive while the shell is out: a reload may drop the snapshot meanwhile.
        let owner: PageShells
        /// The ETag the response carries now, NUL-terminated (libmicrohttpd removes a header by its value).
        private var tag = [CChar](repeating: 0, count: EntityTag.maximumLength + 1)
        private var tagged = false

        fileprivate init?(headers: HeaderBlock, headerSet: Int, length: Int, owner: PageShells) {
            guard let body = malloc(max(length, 1))?.assumingMemoryBound(to: UInt8.self) else { return nil }
            // The response frees the body when libmicrohttpd lets go of it last.
            guard let response = cmhd_response_alias(body, length) else { return nil }
            headers.add(to: response)
            self.response = response
            self.body = body
            self.length = length
            self.headerSet = headerSet
            self.owner = owner
        }

        /// Replaces the ETag field with `text` (its bytes, without NUL).
        func setTag(_ text: UnsafeBufferPointer<UInt8>) {
            if tagged { _ = MHD_del_response_header(response, "ETag", tag) }
            for index in text.indices { tag[index] = CChar(bitPattern: text[index]) }
            tag[text.count] = 0
            tagged = MHD_add_response_header(response, "ETag", tag) == .YES
        }

        deinit { MHD_destroy_response(response) }
    }

    /// Idle shells beyond this are let go: enough for every worker thread's requests in flight.
    static let maximumIdle = 16
    /// The idle shells, any header set and length: a short list, searched from the end.
    private let idle = Mutex<[Shell]>([])
    private let headers: [PageHeaders]

    /// A pool for one site's header sets (`CallPage.headerSets`' positions).
    init(headers: [PageHeaders]) {
        self.headers = headers
    }

    /// An idle shell of this header set and body length, or a new one; nil without memory.
    func checkout(headerSet: Int, length: Int) -> Shell? {
        let reused = idle.withLock { idle -> Shell? in
            guard let index = idle.lastIndex(where: { $0.length == length && $0.headerSet == headerSet }) else { return nil }
            idle.swapAt(index, idle.count - 1)
            return idle.removeLast()
        }
        return reused ?? Shell(headers: headers[headerSet].ok, headerSet: headerSet, length: length, owner: self)
    }

    /// Takes a shell back when its request has completed; beyond `maximumIdle` it goes.
    func giveBack(_ shell: Shell) {
        idle.withLock { idle in
            // Room for all at the first: no growth under the lock later, and none for the sites never asked for a page.
            if idle.capacity == 0 { idle.reserveCapacity(Self.maximumIdle) }
            if idle.count < Self.maximumIdle { idle.append(shell) }
        }
    }
}

/// The request-completed end of a shell's use (and the close of a connection whose request never completed):
/// the retained reference `cmhd_request_tag_set` held goes back to the shell's pool.
let releaseShellTag: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
    guard let pointer else { return }
    let shell = Unmanaged<PageShells.Shell>.fromOpaque(pointer).takeRetainedValue()
    shell.owner.giveBack(shell)
}
