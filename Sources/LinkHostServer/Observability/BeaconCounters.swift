import LinkHostCore
import Synchronization

/// One site's counts of what its call pages report (`Beacon`: views by platform, taps by action and platform),
/// and the allowance that bounds how fast they may grow.
///
/// The label set is fixed (events × platforms, two drop reasons) whatever arrives: a flood of fake beacons
/// moves numbers, never the number of series or the memory. All counts live in one block of atomics, as the
/// duration histograms do: a thousand sites with a class object per number would hold 38,000 objects.
package final class BeaconCounters: Sendable {
    /// Beacons one site counts per second on average, and at most at once: about 50 page views a second per
    /// replica with a tap each, far above a call-link domain's traffic; more are answered 429 and not counted,
    /// so a flood skews no more than this many per second.
    package static let perSecond = 100
    /// The burst a site may send at once (a mailing's first minute).
    package static let burst = 500
    /// Beacons one client address may have counted per second on average, and at most at once: a guest's page
    /// sends a view and a few taps, an office behind one address a few such pages; one address flooding is
    /// then answered 429 long before it has spent the site's allowance, which the other guests keep.
    package static let perClientPerSecond = 5
    /// The burst one client address may send.
    package static let perClientBurst = 30
    /// Client shares kept per site: a fixed table, so a flood from many addresses grows no memory; addresses
    /// that land on the same slot share one allowance.
    static let clientSlots = 128

    private static let eventCount = Beacon.Event.allCases.count
    private static let platformCount = Beacon.Platform.allCases.count
    private static let size = eventCount * platformCount + Beacon.Drop.allCases.count

    /// The counts, allocated on the site's first beacon or drop (`CounterBlock`).
    private let values = CounterBlock(count: BeaconCounters.size)
    /// Tokens left (in thousandths of a beacon, so refills need no floating point) and when they were last topped up.
    private let allowance = Mutex<(milliTokens: Int, refilledNanoseconds: UInt64)>((burst * 1000, 0))

    /// Each slot's tokens (thousandths) and last top-up, made on the first beacon (most sites never get one).
    private let clients = Mutex<[(milliTokens: Int, refilledNanoseconds: UInt64)]>([])

    /// Makes zeroed counts with a full allowance.
    package init() {}

    /// Takes one beacon from the allowance at monotonic time `now`; false when the site is over its rate.
    package func admit(now: UInt64) -> Bool {
        allowance.withLock { state in Self.take(&state, now: now, perSecond: Self.perSecond, burst: Self.burst) }
    }

    /// Takes one beacon from `client`'s share and then from the site's allowance; false when either is spent.
    /// `client` is the address as text (the forwarded one behind trusted proxies).
    package func admit(client: some Collection<UInt8>, now: UInt64) -> Bool {
        let slot = Self.slot(of: client)
        let share = clients.withLock { slots in
            if slots.isEmpty { slots = Array(repeating: (Self.perClientBurst * 1000, 0), count: Self.clientSlots) }
            return Self.take(&slots[slot], now: now, perSecond: Self.perClientPerSecond, burst: Self.perClientBurst)
        }
        return share && admit(now: now)
    }

    /// The share `client` (an address as text) draws on: one per IPv4 address, one per IPv6 /64 (a single
    /// host is handed a whole /64, so its 2^64 addresses are one client), placed by `Hasher`, whose seed is
    /// new in every process: whoever sends beacons cannot pick addresses that land on another guest's slot.
    /// Text that is no address is its own client.
    static func slot(of client: some Collection<UInt8>) -> Int {
        var hasher = Hasher()
        if let address = IPAddress.parse(client).map(IPAddress.unmapped) {
            hasher.combine(address.count)
            for byte in address.prefix(8) { hasher.combine(byte) }
        } else {
            for byte in client { hasher.combine(byte) }
        }
        return Int(UInt(bitPattern: hasher.finalize()) % UInt(clientSlots))
    }

    /// A token bucket in thousandths: tops `state` up for the time since its last top-up and takes one token.
    private static func take(_ state: inout (milliTokens: Int, refilledNanoseconds: UInt64), now: UInt64, perSecond: Int, burst: Int) -> Bool {
        if state.refilledNanoseconds == 0 || now < state.refilledNanoseconds {
            state.refilledNanoseconds = now
        } else {
            // perSecond tokens a second = perSecond thousandths a millisecond; only whole milliseconds are
            // taken off the clock, so beacons closer together than that still earn their share.
            let milliseconds = (now - state.refilledNanoseconds) / 1_000_000
            if milliseconds > 0 {
                state.milliTokens = min(burst * 1000, state.milliTokens + Int(min(milliseconds, 3_600_000)) * perSecond)
                state.refilledNanoseconds += milliseconds * 1_000_000
            }
        }
        guard state.milliTokens >= 1000 else { return false }
        state.milliTokens -= 1000
        return true
    }

    /// Counts one beacon.
    package func record(_ beacon: Beacon) {
        values.increment(beacon.event.rawValue * Self.platformCount + beacon.platform.rawValue)
    }

    /// Counts one beacon that was not counted, and why.
    package func recordDrop(_ drop: Beacon.Drop) {
        values.increment(Self.eventCount * Self.platformCount + drop.rawValue)
    }

    /// The count of one event on one platform.
    package func count(_ event: Beacon.Event, _ platform: Beacon.Platform) -> Int {
        values.load(event.rawValue * Self.platformCount + platform.rawValue)
    }

    /// The beacons dropped for one reason.
    package func dropped(_ drop: Beacon.Drop) -> Int {
        values.load(Self.eventCount * Self.platformCount + drop.rawValue)
    }

    /// The three families' exposition headers and lines for `sites` (labels already escaped), each family
    /// whole in one place as the format asks. Zeros are left out but for the default site's.
    static func render(_ sites: [(label: String, counters: BeaconCounters, isDefault: Bool)], into text: inout String) {
        text += MetricName.pageViews.header("Call pages shown, by site and the visitor's coarse platform, as the page's script reports them (POST \(Beacon.path)).")
        for site in sites {
            for platform in Beacon.Platform.allCases {
                let value = site.counters.count(.view, platform)
                if value > 0 || site.isDefault {
                    MetricName.pageViews.sample([.site: site.label, .platform: platform.label], value, into: &text)
                }
            }
        }
        let actions = Beacon.Event.allCases.filter { $0 != .view }.map(\.label).joined(separator: ", ")
        text += MetricName.pageActions.header("Taps on the call page's actions (\(actions)), by site, action and platform.")
        for site in sites {
            for event in Beacon.Event.allCases where event != .view {
                for platform in Beacon.Platform.allCases {
                    let value = site.counters.count(event, platform)
                    if value > 0 || site.isDefault {
                        MetricName.pageActions.sample([.site: site.label, .action: event.label, .platform: platform.label], value, into: &text)
                    }
                }
            }
        }
        text += MetricName.beaconsDropped.header("Beacons not counted, by site and reason: over the site's rate (\(perSecond)/s, bursts of \(burst)) or one client's share of it (\(perClientPerSecond)/s, bursts of \(perClientBurst)), malformed, or sent from another site's page (cross_site).")
        for site in sites {
            for drop in Beacon.Drop.allCases {
                let value = site.counters.dropped(drop)
                if value > 0 || site.isDefault {
                    MetricName.beaconsDropped.sample([.site: site.label, .reason: drop.label], value, into: &text)
                }
            }
        }
    }
}
