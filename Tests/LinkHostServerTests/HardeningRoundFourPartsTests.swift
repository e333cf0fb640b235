@testable import LinkHostCore
import Testing
@testable import LinkHostServer

/// Issue 30's pure parts, without sockets: the per-client beacon share, the metrics rendering budget, and what a
/// refused reload names.
@Suite("Hardening, round four: the parts")
struct HardeningRoundFourPartsTests {
    @Test("one address gets its share, a burst then its rate; another address keeps the site's allowance")
    func clientShare() {
        let counters = BeaconCounters()
        let start: UInt64 = 7_000_000_000
        let flooder = Array("203.0.113.5".utf8)
        let admitted = (0..<(BeaconCounters.burst + 50)).filter { _ in counters.admit(client: flooder, now: start) }.count
        #expect(admitted == BeaconCounters.perClientBurst)
        #expect(counters.admit(client: Array("198.51.100.7".utf8), now: start), "another guest is not starved")
        // A second later the flooder has earned perClientPerSecond more, not the site's rate.
        let second = (0..<100).filter { _ in counters.admit(client: flooder, now: start + 1_000_000_000) }.count
        #expect(second == BeaconCounters.perClientPerSecond, "\(second)")
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
