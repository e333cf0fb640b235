import LinkHostCore

/// The count `linkhost stats` ranks sites by (`--by`).
package enum StatsMeasure: String, Sendable, CaseIterable {
    /// Page views, every platform.
    case views
    /// Taps on every action.
    case taps
    /// Call pages the server answered with 200 itself.
    case pages
    /// Beacons not counted, every reason.
    case dropped

    /// How the count reads in a sentence: `page views`.
    package var words: String {
        switch self {
        case .views: return "page views"
        case .taps: return "taps"
        case .pages: return "pages served by this server"
        case .dropped: return "beacons not counted"
        }
    }

    /// The count of one site.
    package func count(_ stats: SiteStats) -> Int {
        switch self {
        case .views: return stats.totalViews
        case .taps: return stats.totalTaps
        case .pages: return stats.pagesServed
        case .dropped: return stats.dropped.values.reduce(0, PageStats.sum)
        }
    }
}

extension PageStats {
    /// The `top` sites with the most of `measure`, most first; equal counts in name order.
    package static func busiest(_ sites: [SiteStats], by measure: StatsMeasure, top: Int) -> [SiteStats] {
        let counted = sites.map { (count: measure.count($0), stats: $0) }
        let sorted = counted.sorted { $0.count != $1.count ? $0.count > $1.count : $0.stats.site < $1.stats.site }
        return sorted.prefix(max(0, top)).map(\.stats)
    }

    /// Two lines before the tables: how many sites, how many have any of `measure`, the totals, and the three
    /// busiest by `measure`.
    ///
    ///     1001 sites, 1000 with page views: 500500 page views, 49600 taps; 2000 pages served by this server
    ///     busiest by page views: s1000 (1000), s0999 (999), s0998 (998)
    package static func summary(_ sites: [SiteStats], by measure: StatsMeasure) -> String {
        let total = { (measure: StatsMeasure) in sites.reduce(0) { sum($0, measure.count($1)) } }
        let active = sites.filter { measure.count($0) > 0 }.count
        var text = "\(sites.count) site\(sites.count == 1 ? "" : "s"), \(active) with \(measure.words): "
        text += "\(total(.views)) page views, \(total(.taps)) taps; \(total(.pages)) pages served by this server"
        let dropped = total(.dropped)
        text += dropped > 0 ? "; \(dropped) beacons not counted\n" : "\n"
        let busiest = busiest(sites, by: measure, top: 3).filter { measure.count($0) > 0 }
        text += "busiest by \(measure.words): "
        text += busiest.isEmpty ? "none has any yet\n"
            : busiest.map { "\(TerminalText.safe($0.site, keepingLineFeeds: false)) (\(measure.count($0)))" }.joined(separator: ", ") + "\n"
        return text
    }
}
