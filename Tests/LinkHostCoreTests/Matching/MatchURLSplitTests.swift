import LinkHostTestSupport
import Testing
@testable import LinkHostCore

@Suite("Match: URL splitting and percent coding")
struct MatchURLSplitTests {
    @Test("components come apart at the first ? and the first #")
    func components() throws {
        let url = try SplitURL("HTTPS://user:pw@Example.COM.:8443/a/b?c=d?e#f?g")
        #expect(url.scheme == "https")
        #expect(url.host == "example.com")
        #expect(url.port == 8443)
        #expect(url.path == "/a/b")
        #expect(url.query == "c=d?e")
        #expect(url.fragment == "f?g")
    }

    @Test("an absent query or fragment differs from an empty one, and a missing path is empty")
    func absentParts() throws {
        let bare = try SplitURL("https://example.com")
        #expect(bare.path == "")
        #expect(bare.query == nil)
        #expect(bare.fragment == nil)
        let empty = try SplitURL("https://example.com?#")
        #expect(empty.path == "")
        #expect(empty.query == "")
        #expect(empty.fragment == "")
    }

    @Test("an IPv6 host keeps its brackets and may carry a port")
    func ipv6() throws {
        let url = try SplitURL("https://[::1]:8080/x")
        #expect(url.host == "[::1]")
        #expect(url.port == 8080)
    }

    @Test("characters a URL may not carry raw are encoded, escapes already there are kept as written", arguments: [
        ("https://example.com/a b", "/a%20b"),
        ("https://example.com/café", "/caf%C3%A9"),
        ("https://example.com/caf%c3%a9", "/caf%c3%a9"),
        ("https://example.com/100%", "/100%25"),
        ("https://example.com/%zz", "/%25zz"),
        ("https://example.com/a|b", "/a%7Cb"),
        ("https://example.com/~a-b_c.d!$&'()*+,;=:@", "/~a-b_c.d!$&'()*+,;=:@"),
    ])
    func encoding(url: String, path: String) throws {
        #expect(try SplitURL(url).path == path)
    }

    @Test("a second # inside the fragment is encoded")
    func fragmentHash() throws {
        #expect(try SplitURL("https://example.com/#a#b").fragment == "a%23b")
    }

    @Test("strings that are no absolute URL are refused", arguments: [
        "example.com/x", "/x", "https:/x", "https:example.com", "https://", "https://:443/", "https://host:99999/",
        "https://host:12ab/", "1https://host/", "https://[::1/",
    ])
    func invalid(url: String) {
        #expect(throws: SplitURL.Failure.self) { try SplitURL(url) }
    }

    @Test("query items split before decoding; an item without = has the empty value")
    func queryItems() throws {
        let items = try SplitURL("https://example.com/?a=1&flag&c=x=y&&d=%26&=v").queryItems
        #expect(items.map(\.name) == ["a", "flag", "c", "d", ""])
        #expect(items.map(\.value) == ["1", "", "x=y", "%26", "v"])
        #expect(try SplitURL("https://example.com/x").queryItems.isEmpty)
    }

    @Test("percent-decoding yields UTF-8 text or nothing", arguments: [
        ("a%20b", "a b"), ("caf%C3%A9", "café"), ("caf%c3%a9", "café"), ("a%2Fb", "a/b"), ("%2", "%2"), ("%zz", "%zz"),
        ("plain", "plain"), ("a+b", "a+b"),
    ])
    func decoding(encoded: String, decoded: String) {
        #expect(SplitURL.percentDecoded(encoded) == decoded)
    }

    @Test("bytes that are not UTF-8 cannot be decoded")
    func undecodable() {
        #expect(SplitURL.percentDecoded("%FF") == nil)
        #expect(SplitURL.percentDecoded("%C3") == nil)
    }

    @Test("paths read with one leading slash and trailing slashes folded to one", arguments: [
        ("", "/"), ("/", "/"), ("/buy", "/buy/"), ("/buy/", "/buy/"), ("/buy//", "/buy/"), ("//abc", "/abc/"), ("/a//b", "/a//b/"),
    ])
    func pathForm(path: String, normalized: String) {
        #expect(PathNormalization.path(path) == normalized)
    }

    @Test("path patterns: leading slash optional, trailing slashes ignored, a final * keeps no slash", arguments: [
        ("abc", "/abc/"), ("//abc", "/abc/"), ("/buy/", "/buy/"), ("/buy//", "/buy/"), ("/", "/"), ("", "/"),
        ("*", "/*"), ("/buy/*", "/buy/*"), ("/buy/*/", "/buy/*"), ("/buy*", "/buy*"), ("/id/????", "/id/????/"),
    ])
    func patternForm(pattern: String, normalized: String) {
        #expect(PathNormalization.pattern(pattern) == normalized)
    }

    /// URL-shaped strings of the characters that decide splitting and encoding.
    static func randomURL(_ random: inout SplitMix) -> String {
        let starts = ["https://example.com", "HTTP://Example.COM:8443", "https://a@b.example", "https://[::1]:80", "https://", "mailto:x", "1x://h", "https:/h", "https://h:99999", ""]
        let pieces = ["/", "a", "Z", "?", "#", "&", "=", "%", "%2F", "%zz", "%4", " ", "é", ":", "@", "!", "*", "[", "\\", "|", "~", "."]
        var text = starts.randomElement(using: &random)!
        for _ in 0..<Int.random(in: 0...12, using: &random) { text += pieces.randomElement(using: &random)! }
        return text
    }

    @Test("the byte-slicing path splits and refuses every URL as the scalar-by-scalar one does")
    func plainPathAgrees() {
        var random = SplitMix(state: 71)
        var (split, refused) = (0, 0)
        for _ in 0..<20_000 {
            let url = Self.randomURL(&random)
            let reference = Result { () throws(SplitURL.Failure) in try SplitURL(scalarsOf: url) }
            let fast = Result { () throws(SplitURL.Failure) in try SplitURL(url) }
            #expect(fast == reference, "\(url)")
            if case .success = reference { split += 1 } else { refused += 1 }
        }
        #expect(split > 5_000 && refused > 1_000, "split \(split), refused \(refused)")
    }
}
