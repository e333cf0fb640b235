import LinkHostCore
import Testing
@testable import LinkHostServer

/// The counter blocks place a count by its cases' raw values (`Metrics.slot`, `BeaconCounters.record`,
/// `DurationHistograms`): that holds while each case's raw value is its place among the cases, which Swift
/// gives an `Int` enum unless a case is given a number of its own. Their labels come from exhaustive
/// switches; two cases with one word would merge their series.
@Suite("Counter layout")
struct CounterLayoutTests {
    /// True when the raw values are 0, 1, 2… in the order of the cases.
    static func isDense<Case: CaseIterable & RawRepresentable>(_: Case.Type) -> Bool where Case.RawValue == Int {
        Case.allCases.map(\.rawValue) == Array(0..<Case.allCases.count)
    }

    /// True when no two cases share a label.
    static func isDistinct<Case: CaseIterable>(_: Case.Type, _ label: (Case) -> String) -> Bool {
        Set(Case.allCases.map(label)).count == Case.allCases.count
    }

    @Test("each counted case's raw value is its place among the cases")
    func rawValuesArePlaces() {
        #expect(Self.isDense(Route.self))
        #expect(Self.isDense(StatusClass.self))
        #expect(Self.isDense(Beacon.Event.self))
        #expect(Self.isDense(Beacon.Platform.self))
        #expect(Self.isDense(Beacon.Drop.self))
        #expect(Self.isDense(Metrics.Fetcher.self))
        #expect(Self.isDense(Metrics.AssociationFile.self))
        #expect(Self.isDense(Metrics.ReloadResult.self))
    }

    @Test("each case has a label of its own")
    func labelsAreDistinct() {
        #expect(Self.isDistinct(Route.self, \.label))
        #expect(Self.isDistinct(StatusClass.self, \.label))
        #expect(Self.isDistinct(Beacon.Event.self, \.label))
        #expect(Self.isDistinct(Beacon.Platform.self, \.label))
        #expect(Self.isDistinct(Beacon.Drop.self, \.label))
        #expect(Self.isDistinct(Metrics.Fetcher.self, \.label))
        #expect(Self.isDistinct(Metrics.AssociationFile.self, \.label))
        #expect(Self.isDistinct(Metrics.ReloadResult.self, \.label))
    }

    @Test("every route and status class is counted in its own place and rendered with its labels")
    func requestsRoundTrip() {
        let metrics = Metrics(startTime: 0)
        let site = metrics.counters(forSites: ["default"])[0]
        let agent = [UInt8]()
        for (offset, route) in Route.allCases.enumerated() {
            for (classOffset, status) in [150, 204, 308, 404, 503].enumerated() {
                for _ in 0..<(offset * 5 + classOffset + 1) {
                    metrics.record(site, route: route, status: status, microseconds: 1, userAgent: agent.span)
                }
            }
        }
        let text = String(decoding: metrics.render(currentConnections: 0), as: UTF8.self)
        for (offset, route) in Route.allCases.enumerated() {
            for (classOffset, status) in StatusClass.allCases.enumerated() {
                let line = "linkhost_requests_total{site=\"default\",route=\"\(route.label)\",status=\"\(status.label)\"} \(offset * 5 + classOffset + 1)"
                #expect(text.contains(line + "\n"), "\(line)")
            }
        }
    }
}
