@testable import LinkHostCore
import Testing
@testable import LinkHostServer

/// Issue 30's pure parts, without sockets: the per-client beacon share, the metrics rendering budget, and what a
/// refused reload names.
@Suite("Hardening, round four: the parts")
struct HardeningRoundFourPartsTests {
    @Test("one address gets its share, a burst then its rate; another address keeps the site's allowance")
    func clientShare() throws {
        let counters = BeaconCounters()
        let start: UInt64 = 7_000_000_000
        let flooder = Array("203.0.113.5".utf8)
        let admitted = (0..<(BeaconCounters.burst + 50)).filter { _ in counters.admit(client: flooder, now: start) }.count
        #expect(admitted == BeaconCounters.perClientBurst)
        // Slots are placed by a hash seeded anew in every process: a guest that shares the flooder's slot shares
        // its share, as documented; any other is not starved.
        let guest = try #require(["198.51.100.7", "198.51.100.8", "198.51.100.9"].map { Array($0.utf8) }.first { BeaconCounters.slot(of: $0) != BeaconCounters.slot(of: flooder) })
        #expect(counters.admit(client: guest, now: start), "another guest is not starved")
        // A second later the flooder has earned perClientPerSecond more, not the site's rate.
        let second = (0..<100).filter { _ in counters.admit(client: flooder, now: start + 1_000_000_000) }.count
        #expect(second == BeaconCounters.perClientPerSecond, "\(second)")
    }

    @Test("issue 39: the addresses of one IPv6 /64 are one client; other /64s, IPv4 addresses and mapped forms are placed as themselves")
    func clientSlots() {
        let flooder = BeaconCounters.slot(of: Array("2001:db8:1:2::1".utf8))
        for host in 0..<128 {
            #expect(BeaconCounters.slot(of: Array("2001:db8:1:2:\(String(host * 977 % 0x10000, radix: 16)):0:0:\(String(host, radix: 16))".utf8)) == flooder, "\(host)")
        }
        #expect(BeaconCounters.slot(of: Array("2001:DB8:1:2:ffff:ffff:ffff:ffff".utf8)) == flooder, "the same /64 however written")
        // 64 other /64s and 64 IPv4 addresses land on more than a handful of slots (each on one of 128).
        let others = Set((0..<64).map { BeaconCounters.slot(of: Array("2001:db8:1:\(String($0 + 3, radix: 16))::1".utf8)) })
        let ipv4 = Set((0..<64).map { BeaconCounters.slot(of: Array("198.51.100.\($0)".utf8)) })
        #expect(others.count > 20 && ipv4.count > 20, "\(others.count) \(ipv4.count)")
        #expect(BeaconCounters.slot(of: Array("::ffff:198.51.100.7".utf8)) == BeaconCounters.slot(of: Array("198.51.100.7".utf8)))
    }

    @Test("the metrics page is rendered for a burst, then at most once a second; later scrapes get the last page")
    func renderBudget() {
        let budget = MetricsRenderBudget()
        var renderings = 0
        let start: UInt64 = 9_000_000_000
        for step in 0..<200 {
            // 200 scrapes within half a second.
            _ = budget.page(now: start + UInt64(step) * 2_500_000) {
                renderings += 1
                return Array("page \(renderings)\n".utf8)
            }
        }
        #expect(renderings == MetricsRenderBudget.burst)
        let later = budget.page(now: start + 1_600_000_000) {
            renderings += 1
            return Array("page \(renderings)\n".utf8)
        }
        #expect(renderings == MetricsRenderBudget.burst + 1 && later == Array("page \(renderings)\n".utf8))
        let again = budget.page(now: start + 1_700_000_000) { [] }
        #expect(again == later, "within the second: the last page")
    }

    @Test("each part of server.tls.acme a refusal names is a key of the table")
    func acmePartsAreKeys() {
        for part in ReloadPolicy.acmeParts {
            #expect(ConfigKeys.key(part.key) != nil, "\(part.key) is not in ConfigKeyTable")
        }
    }
}
