import LinkHostCore
import LinkHostServer
import Testing

/// Round four: the forwarded address is an address or nothing, and an unreadable X-Forwarded-For never hands
/// the choice to another field.
@Suite("Forwarded client address, round four")
struct ForwardedClientRoundFourTests {
    static let proxies = ["127.0.0.0/8", "10.0.0.0/8"].compactMap(AddressRange.init)

    static func client(forwardedFor: ForwardedClient.Field = .absent, connectingIP: String? = nil) -> String? {
        ForwardedClient.address(peer: Array("127.0.0.1".utf8), trusted: proxies, forwardedFor: { forwardedFor }, connectingIP: { connectingIP })
    }

    @Test("an X-Forwarded-For too long to read, empty or with a bad hop leaves the peer, even beside a CF-Connecting-IP")
    func unreadableForwardedFor() {
        #expect(Self.client(forwardedFor: .tooLong, connectingIP: "6.6.6.6") == nil)
        #expect(Self.client(forwardedFor: .value(""), connectingIP: "6.6.6.6") == nil)
        #expect(Self.client(forwardedFor: .value(" , "), connectingIP: "6.6.6.6") == nil)
        #expect(Self.client(forwardedFor: .value("203.0.113.9,,"), connectingIP: "6.6.6.6") == nil)
        #expect(Self.client(forwardedFor: .value("unknown"), connectingIP: "6.6.6.6") == nil)
        #expect(Self.client(connectingIP: "6.6.6.6") == "6.6.6.6", "only an absent X-Forwarded-For gives way")
    }

    @Test("what is returned is the address written anew: no zone, quote or text a client appended")
    func bareAddresses() {
        #expect(Self.client(connectingIP: "6.6.6.67%] \"forged") == "6.6.6.67")
        #expect(Self.client(forwardedFor: .value("203.0.113.9%\" - - [01/Jan/2020:00:00:00 +0000] \"GET /admin")) == "203.0.113.9")
        #expect(Self.client(forwardedFor: .value("fe80::1%eth0")) == "fe80::1")
        #expect(Self.client(forwardedFor: .value("2001:DB8:0:0:0:0:0:7")) == "2001:db8::7")
    }

    @Test("IPAddress.text writes RFC 5952's canonical form", arguments: [
        ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"), ("0:0:0:0:0:0:0:1", "::1"), ("::", "::"), ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"),
        ("::ffff:192.0.2.1", "::ffff:192.0.2.1"), ("1:0:0:2:0:0:0:3", "1:0:0:2::3"), ("198.51.100.7", "198.51.100.7"), ("fe80::", "fe80::"),
    ])
    func canonicalText(written: String, canonical: String) throws {
        let bytes = try #require(IPAddress.parse(written.utf8))
        #expect(IPAddress.text(bytes) == canonical)
    }
}
