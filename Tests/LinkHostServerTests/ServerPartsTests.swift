import CallLinks
@testable import LinkHostCore
@testable import LinkHostServer
import Testing

/// Page-cache keys and redirect targets, without a socket.
@Suite("Server parts")
struct ServerPartsTests {
    @Test("the page-cache key's capacity is the sum of its parts' limits, and a key at every maximum fits it exactly")
    func pageKeyAtMaximum() throws {
        #expect(PageKeyBytes.capacity == 3 + 2 * (1 + CallToken.maximumLength) + 1 + PageKeyBytes.maximumHost)
        let link = CallLink(callID: String(repeating: "i", count: CallToken.maximumLength), callType: String(repeating: "t", count: CallToken.maximumLength))
        // A page's kind takes three bytes (kind and a two-byte language), a QR image's one.
        let target = PageTarget(link: link, kind: .page(LanguageChoice(index: 300, negotiated: true)))
        let host = [UInt8](repeating: UInt8(ascii: "h"), count: PageKeyBytes.maximumHost)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: PageKeyBytes.capacity, alignment: 8)
        defer { buffer.deallocate() }
        let key = try host.withUnsafeBufferPointer { try #require(PageKeyBytes(target, host: $0, into: buffer)) }
        #expect(key.bytes.count == PageKeyBytes.capacity)
        let longer = host + [UInt8(ascii: "h")]
        #expect(longer.withUnsafeBufferPointer { PageKeyBytes(target, host: $0, into: buffer) } == nil, "a longer Host is not a key")
        let small = UnsafeMutableRawBufferPointer.allocate(byteCount: PageKeyBytes.capacity - 1, alignment: 8)
        defer { small.deallocate() }
        #expect(host.withUnsafeBufferPointer { PageKeyBytes(target, host: $0, into: small) } == nil, "never written past a short buffer")
    }

    @Test("a redirect names only a path: origin form as it is, an absolute form's path, nothing else", arguments: [
        ("/call/abc?type=video", "/call/abc?type=video"), ("http://links.example.com/call/abc", "/call/abc"), ("HTTPS://links.example.com", "/"),
        ("@evil.example/x", nil), ("*", nil), ("evil.example/x", nil), ("", nil),
    ] as [(String, String?)])
    func redirectPath(target: String, path: String?) {
        #expect(PlainHTTPListener.redirectPath(target) == path)
    }
}
