import Synchronization

/// How often the metrics page is rendered: its cost grows with the sites (60 sites, 826 KB), so scrapes
/// faster than a collector's are answered from the last rendering instead of a new one (issue 30, item 9).
///
/// A few fresh renderings may come back to back (`burst`, so a person or a test reading the counters after
/// a request sees them move), then about one a second however often the page is asked for; a scrape that
/// comes while another is rendering gets the last page rather than a second rendering beside it.
final class MetricsRenderBudget: Sendable {
    /// Fresh renderings allowed back to back.
    static let burst = 20
    /// Nanoseconds that earn one more fresh rendering.
    static let refillNanoseconds: UInt64 = 1_000_000_000

    private struct State {
        var page: [UInt8] = []
        var credit = MetricsRenderBudget.burst
        var refilled: UInt64 = 0
        var rendering = false
    }

    private let state = Mutex(State())

    /// Makes a budget with its whole burst available.
    init() {}

    /// The metrics page: rendered now by `render` when the budget allows, else the last one rendered.
    func page(now: UInt64, render: () -> [UInt8]) -> [UInt8] {
        let fresh = state.withLock { state -> Bool in
            if state.refilled == 0 || now < state.refilled { state.refilled = now }
            let earned = Int(min((now - state.refilled) / Self.refillNanoseconds, UInt64(Self.burst)))
            if earned > 0 {
                state.credit = min(Self.burst, state.credit + earned)
                state.refilled = now
            }
            guard !state.rendering, state.credit > 0 || state.page.isEmpty else { return false }
            state.credit -= 1
            state.rendering = true
            return true
        }
        guard fresh else {
            let last = state.withLock { $0.page }
            // The very first scrapes may all come while the first rendering runs: they render too.
            return last.isEmpty ? render() : last
        }
        let page = render()
        state.withLock { state in
            state.page = page
            state.rendering = false
        }
        return page
    }
}
