import LinkHostCore
import Testing
@testable import LinkHostServer

/// The beacon allowance and counts, without sockets: a burst, then the rate, never more.
@Suite("Beacon counters")
struct BeaconCountersTests {
    @Test("a burst of `burst` beacons is admitted at once, the next is not; time earns `perSecond` a second, in any slicing")
    func allowance() {
        let counters = BeaconCounters()
        let start: UInt64 = 5_000_000_000
        let admitted = (0..<(BeaconCounters.burst + 50)).filter { _ in counters.admit(now: start) }.count
        #expect(admitted == BeaconCounters.burst)
        // A second later, in 10,000 steps of 0.1 ms (closer together than a millisecond): perSecond more, not 0.
        var later = 0
        for step in 1...10_000 where counters.admit(now: start + UInt64(step) * 100_000) { later += 1 }
        #expect(later >= BeaconCounters.perSecond - 1 && later <= BeaconCounters.perSecond + 1, "\(later)")
        // An hour of quiet fills the allowance up to the burst, not beyond.
        let hour = start + 3_601_000_000_000
        #expect((0..<(BeaconCounters.burst * 2)).filter { _ in counters.admit(now: hour) }.count == BeaconCounters.burst)
        // A clock that seems to go back admits nothing extra.
        #expect(!counters.admit(now: start))
    }

    @Test("counts land on their event and platform; the exposition has a fixed set of series per site")
    func exposition() {
        let counters = BeaconCounters()
        counters.record(Beacon(event: .view, platform: .ios))
        counters.record(Beacon(event: .view, platform: .ios))
        counters.record(Beacon(event: .store, platform: .inApp))
        counters.recordDrop(.malformed)
        #expect(counters.count(.view, .ios) == 2 && counters.count(.store, .inApp) == 1 && counters.count(.view, .android) == 0)
        var text = ""
        BeaconCounters.render([("customer6", counters, false)], into: &text)
        #expect(text.contains("linkhost_page_views_total{site=\"customer6\",platform=\"ios\"} 2\n"))
        #expect(text.contains("linkhost_page_actions_total{site=\"customer6\",action=\"store\",platform=\"in_app\"} 1\n"))
        #expect(text.contains("linkhost_beacons_dropped_total{site=\"customer6\",reason=\"malformed\"} 1\n"))
        #expect(!text.contains("platform=\"android\""), "a non-default site's zeros are left out")
        var defaults = ""
        BeaconCounters.render([("default", BeaconCounters(), true)], into: &defaults)
        let series = defaults.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(series.count == Beacon.Platform.allCases.count * Beacon.Event.allCases.count + Beacon.Drop.allCases.count)
    }
}
