import LinkHostCore
import LinkHostServer
import Testing

/// `server.trustedProxies`: address and CIDR reading, and which address the access log believes.
@Suite("Forwarded client address")
struct ForwardedClientTests {
    @Test("addresses and CIDR blocks parse to their bytes, IPv4 and IPv6; anything else is refused", arguments: [
        ("10.0.0.0/8", [10, 0, 0, 0], 8), ("198.51.100.7", [198, 51, 100, 7], 32), ("10.1.2.3/8", [10, 0, 0, 0], 8),
        ("::1", [UInt8](repeating: 0, count: 15) + [1], 128), ("2001:db8::/32", [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 12), 32),
        ("::ffff:192.0.2.1", [UInt8](repeating: 0, count: 10) + [0xff, 0xff, 192, 0, 2, 1], 128), ("0.0.0.0/0", [0, 0, 0, 0], 0),
    ] as [(String, [UInt8], Int)])
    func parses(text: String, network: [UInt8], prefix: Int) throws {
        let range = try #require(AddressRange(text))
        #expect(range.network == network && range.prefixLength == prefix)
    }

    @Test("malformed entries are refused", arguments: [
        "", "10.0.0", "10.0.0.256", "010.0.0.1", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/-1", "::1/129", "1:2:3:4:5:6:7:8:9", "1::2::3",
        "12345::", "g::1", "example.com", "10.0.0.0/8/8", "1.2.3.4:80",
    ])
    func refuses(text: String) {
        #expect(AddressRange(text) == nil)
    }

    @Test("membership: prefixes, IPv4-mapped peers as IPv4, families never mixed")
    func membership() throws {
        let v4 = try #require(AddressRange("10.0.0.0/8"))
        #expect(v4.contains([10, 200, 3, 4]) && !v4.contains([11, 0, 0, 1]))
        let mapped = try #require(IPAddress.parse("::ffff:10.9.9.9".utf8))
        #expect(v4.contains(mapped))
        let v6 = try #require(AddressRange("2001:db8::/32"))
        let inside = try #require(IPAddress.parse("2001:db8:ffff::1".utf8)), outside = try #require(IPAddress.parse("2001:db9::1".utf8))
        #expect(v6.contains(inside) && !v6.contains(outside))
        #expect(!v6.contains([32, 1, 13, 184]), "an IPv4 address is never in an IPv6 block")
        let odd = try #require(AddressRange("192.168.1.128/25"))
        #expect(odd.contains([192, 168, 1, 200]) && !odd.contains([192, 168, 1, 127]))
    }

    static let proxies = ["127.0.0.0/8", "10.0.0.0/8", "2001:db8::/32"].compactMap(AddressRange.init)

    static func client(peer: String, forwardedFor: String? = nil, connectingIP: String? = nil, trusted: [AddressRange] = proxies) -> String? {
        ForwardedClient.address(peer: Array(peer.utf8), trusted: trusted, forwardedFor: { forwardedFor.map { .value($0) } ?? .absent }, connectingIP: { connectingIP })
    }

    @Test("from a trusted peer: the rightmost untrusted X-Forwarded-For hop, else CF-Connecting-IP")
    func trustedPeer() {
        #expect(Self.client(peer: "127.0.0.1", forwardedFor: "198.51.100.1, 203.0.113.9") == "203.0.113.9")
        #expect(Self.client(peer: "127.0.0.1", forwardedFor: "6.6.6.6, 203.0.113.9, 10.1.1.1") == "203.0.113.9", "trusted hops are skipped")
        #expect(Self.client(peer: "2001:db8::5", forwardedFor: "2001:db8::9, 10.0.0.1") == "2001:db8::9", "all trusted: the leftmost")
        #expect(Self.client(peer: "::ffff:127.0.0.1", forwardedFor: "2001:db9::77") == "2001:db9::77")
        #expect(Self.client(peer: "127.0.0.1", connectingIP: " 203.0.113.50 ") == "203.0.113.50")
        #expect(Self.client(peer: "127.0.0.1", forwardedFor: "203.0.113.9", connectingIP: "198.51.100.77") == "203.0.113.9", "X-Forwarded-For first")
        #expect(Self.client(peer: "127.0.0.1", forwardedFor: "unknown") == nil, "not an address: the peer stays")
        #expect(Self.client(peer: "127.0.0.1", forwardedFor: "<script>, 10.0.0.1") == nil)
        #expect(Self.client(peer: "127.0.0.1", connectingIP: "nonsense") == nil)
        #expect(Self.client(peer: "127.0.0.1") == nil)
    }

    @Test("from an untrusted peer, or with no list, the fields are ignored")
    func untrustedPeer() {
        #expect(Self.client(peer: "198.51.100.1", forwardedFor: "203.0.113.9") == nil)
        #expect(Self.client(peer: "2001:db9::1", connectingIP: "203.0.113.9") == nil)
        #expect(Self.client(peer: "127.0.0.1", forwardedFor: "203.0.113.9", trusted: []) == nil)
        #expect(Self.client(peer: "-", forwardedFor: "203.0.113.9") == nil)
    }
}
