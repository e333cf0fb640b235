import LinkHostCore
import Synchronization

/// Request-duration histograms, one per route (`linkhost_request_duration_seconds{route}`): all sites' in one, or
/// one site's (`{site,route}`, with `observability.metrics.perSiteLatency`). The label set is bounded by the fixed
/// `Route` cases (times the config's sites), whatever requests arrive.
///
/// Every bucket, count and sum of every route lives in one allocation of atomics: with a class object per
/// number, as the request counters had, a thousand sites would hold some 180,000 objects for histograms alone.
/// The block is made on a site's first request (1.5 KB: most of ten thousand tenants are quiet at any time).
/// Recording is two relaxed atomic adds and no lock.
package final class DurationHistograms: @unchecked Sendable {
    /// Upper bounds in microseconds (the `le` labels below, in seconds): linkhost answers most requests in tens
    /// of microseconds, a rendered page or QR image in a millisecond or so; past a second is a stall.
    static let boundsMicroseconds = [100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 1_000_000]
    /// The bounds as Prometheus' `le` labels, in seconds: made from the bounds, so the two lists cannot part.
    static let boundLabels = boundsMicroseconds.map(secondsText)
    /// Per route: one count per bound, one above the last, and the sum in microseconds.
    private static let stride = boundsMicroseconds.count + 2

    // Unchecked Sendable: the block is published and written only through atomics, and freed in deinit.
    private let block = Atomic<UnsafeMutablePointer<Atomic<Int>>?>(nil)
    private let count = Route.allCases.count * stride

    /// Makes zeroed histograms for every route; their numbers are allocated when the first is recorded.
    package init() {}

    deinit {
        guard let values = block.load(ordering: .acquiring) else { return }
        values.deinitialize(count: count)
        values.deallocate()
    }

    /// The block of numbers, made now when it is not yet: the first recording thread's wins.
    private func values() -> UnsafeMutablePointer<Atomic<Int>> {
        if let values = block.load(ordering: .acquiring) { return values }
        let made = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: count)
        for index in 0..<count { (made + index).initialize(to: Atomic(0)) }
        let (exchanged, current) = block.compareExchange(expected: nil, desired: made, ordering: .acquiringAndReleasing)
        if exchanged { return made }
        made.deinitialize(count: count)
        made.deallocate()
        return current!
    }

    /// Counts one request on `route` that took `microseconds`.
    package func record(_ route: Route, microseconds: Int) {
        var bucket = 0
        while bucket < Self.boundsMicroseconds.count && microseconds > Self.boundsMicroseconds[bucket] { bucket += 1 }
        let base = route.rawValue * Self.stride
        let values = values()
        values[base + bucket].add(1, ordering: .relaxed)
        values[base + Self.stride - 1].add(max(0, microseconds), ordering: .relaxed)
    }

    /// Requests counted on `route` so far.
    package func count(_ route: Route) -> Int {
        guard let values = block.load(ordering: .acquiring) else { return 0 }
        let base = route.rawValue * Self.stride
        return (0...Self.boundsMicroseconds.count).reduce(0) { $0 + values[base + $1].load(ordering: .relaxed) }
    }

    /// The exposition lines of every route that has answered at least once, labelled with `site` (already
    /// escaped) when one is given.
    func render(site: String?, into text: inout String) {
        guard let values = block.load(ordering: .acquiring) else { return }
        let name = MetricName.requestDuration
        for route in Route.allCases {
            let base = route.rawValue * Self.stride
            let total = count(route)
            guard total > 0 else { continue }
            var cumulative = 0
            for (index, bound) in Self.boundLabels.enumerated() {
                cumulative += values[base + index].load(ordering: .relaxed)
                name.sample(Self.labels(site, route, bound), String(cumulative), suffix: "_bucket", into: &text)
            }
            name.sample(Self.labels(site, route, "+Inf"), String(total), suffix: "_bucket", into: &text)
            let sum = values[base + Self.stride - 1].load(ordering: .relaxed)
            name.sample(Self.labels(site, route, nil), "\(sum / 1_000_000).\(String(sum % 1_000_000).leftPadded(to: 6))", suffix: "_sum", into: &text)
            name.sample(Self.labels(site, route, nil), String(total), suffix: "_count", into: &text)
        }
    }

    /// Microseconds as seconds with no trailing zeros: `250` → `0.00025`, `1_000_000` → `1`.
    static func secondsText(_ microseconds: Int) -> String {
        var fraction = String(microseconds % 1_000_000).leftPadded(to: 6)
        while fraction.last == "0" { fraction.removeLast() }
        return "\(microseconds / 1_000_000)" + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// A histogram line's labels: the site's when latency is kept per site, the route, and a bucket's bound.
    private static func labels(_ site: String?, _ route: Route, _ bound: String?) -> KeyValuePairs<MetricLabel, String> {
        switch (site, bound) {
        case (let site?, let bound?): return [.site: site, .route: route.label, .le: bound]
        case (let site?, nil): return [.site: site, .route: route.label]
        case (nil, let bound?): return [.route: route.label, .le: bound]
        case (nil, nil): return [.route: route.label]
        }
    }
}

extension String {
    /// The string with zeros in front up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
