import LinkHostCore
import LinkHostJSON

/// What `linkhost stats` shows of one site, read from a running server's metrics: the views its call pages
/// reported by platform, the taps on their actions, and the pages it served itself.
package struct SiteStats: Sendable, Equatable {
    /// The site's label (`sites[].id`, else its first host; `default` for the top level).
    package let site: String
    /// Page views by platform, as the page's script reported them.
    package var views: [Beacon.Platform: Int] = [:]
    /// Taps by action, then platform.
    package var actions: [Beacon.Event: [Beacon.Platform: Int]] = [:]
    /// Beacons not counted, by reason (`rate`, `malformed`).
    package var dropped: [String: Int] = [:]
    /// Call pages the server answered with 200 itself (a cache in front answers the rest).
    package var pagesServed = 0

    /// Makes empty stats for a site.
    package init(site: String) { self.site = site }

    /// All views.
    package var totalViews: Int { views.values.reduce(0, PageStats.sum) }
    /// All taps of one action.
    package func taps(_ event: Beacon.Event) -> Int { actions[event]?.values.reduce(0, PageStats.sum) ?? 0 }
    /// All taps.
    package var totalTaps: Int { Beacon.Event.allCases.reduce(0) { PageStats.sum($0, taps($1)) } }
}

/// Reads the metrics exposition into per-site stats and writes them as tables or JSON.
package enum PageStats {
    /// `a + b`, or Int.max where that would overflow: the body is the server's (or whoever answers the URL),
    /// and a counter of 8e17 summed with a few others must print, not trap.
    package static func sum(_ a: Int, _ b: Int) -> Int {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : total
    }

    /// The sites of a Prometheus text exposition (linkhost's `/metrics`), sorted with `default` first;
    /// lines of other metrics, labels with words this version does not know, and values that no counter
    /// has (negative, NaN, infinite, past 9e18) are skipped.
    package static func read(_ text: String) -> [SiteStats] {
        var sites: [String: SiteStats] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let sample = Sample(line), let name = sample.name, let site = sample.labels[.site] else { continue }
            var stats = sites[site] ?? SiteStats(site: site)
            switch name {
            case .pageViews:
                if let platform = platform(sample.labels[.platform]) { stats.views[platform] = sum(stats.views[platform] ?? 0, sample.value) }
            case .pageActions:
                if let event = Beacon.Event.allCases.first(where: { $0.label == sample.labels[.action] }), let platform = platform(sample.labels[.platform]) {
                    stats.actions[event, default: [:]][platform] = sum(stats.actions[event]?[platform] ?? 0, sample.value)
                }
            case .beaconsDropped:
                if let reason = sample.labels[.reason] { stats.dropped[reason] = sum(stats.dropped[reason] ?? 0, sample.value) }
            case .requests:
                guard sample.labels[.route] == Route.callPage.label && sample.labels[.status] == StatusClass.success.label else { continue }
                stats.pagesServed = sum(stats.pagesServed, sample.value)
            case .associationFetches, .requestDuration, .connections, .pageCacheBytes, .reloads, .stuckReloads, .configGeneration, .configInfo,
                 .configReloadFailed, .siteConfigFailed, .siteConfigInfo, .certificateExpiry, .certificateMissing, .acmeOrders, .processStartTime:
                continue
            }
            sites[site] = stats
        }
        return sites.values.sorted { ($0.site == "default" ? "" : $0.site) < ($1.site == "default" ? "" : $1.site) }
    }

    private static func platform(_ label: String?) -> Beacon.Platform? {
        Beacon.Platform.allCases.first { $0.label == label }
    }

    /// How a platform reads in the table.
    static func name(_ platform: Beacon.Platform) -> String {
        switch platform {
        case .ios: return "iOS"
        case .android: return "Android"
        case .desktop: return "desktop"
        case .inApp: return "in-app browser"
        case .bot: return "bot"
        case .other: return "other"
        }
    }

    /// One table per site: a row per platform that reported anything, a column per action, and a bar of the
    /// platform's share of the views (`barWidth` characters at 100 %). Site labels and reasons are the
    /// server's bytes and are printed through `TerminalText`.
    package static func table(_ sites: [SiteStats], barWidth: Int = 20) -> String {
        let events = Beacon.Event.allCases
        // A column as wide as its longest word, so a new event's word never runs into its neighbour.
        let width = max(7, (events.map(\.label.count).max() ?? 0) + 1)
        var text = ""
        for stats in sites {
            if !text.isEmpty { text += "\n" }
            text += "site \(TerminalText.safe(stats.site, keepingLineFeeds: false)): \(stats.totalViews) page views, \(stats.totalTaps) taps; \(stats.pagesServed) pages served by this server\n"
            let dropped = stats.dropped.filter { $0.value > 0 }.sorted { $0.key < $1.key }
            if !dropped.isEmpty {
                text += "  not counted: " + dropped.map { "\($0.value) \($0.key == Beacon.Drop.rate.label ? "over the rate" : TerminalText.safe($0.key, keepingLineFeeds: false))" }.joined(separator: ", ") + "\n"
            }
            let rows = Beacon.Platform.allCases.filter { platform in
                (stats.views[platform] ?? 0) > 0 || events.contains { (stats.actions[$0]?[platform] ?? 0) > 0 }
            }
            guard !rows.isEmpty else {
                text += "  no page has reported a view yet\n"
                continue
            }
            text += "  " + pad("", 16) + events.map { pad($0.label, width, right: true) }.joined() + "\n"
            for platform in rows {
                let cells = events.map { event in event == .view ? stats.views[platform] ?? 0 : stats.actions[event]?[platform] ?? 0 }
                let share = barLength(stats.views[platform] ?? 0, of: stats.totalViews, width: barWidth)
                text += "  " + pad(name(platform), 16) + cells.map { pad(String($0), width, right: true) }.joined()
                    + "  " + String(repeating: "█", count: share) + "\n"
            }
            text += "  " + pad("all", 16) + events.map { pad(String($0 == .view ? stats.totalViews : stats.taps($0)), width, right: true) }.joined() + "\n"
        }
        return text
    }

    /// Characters of a bar `width` long at 100 % for `part` of `whole`: in floating point, since `part * width`
    /// overflows for a counter near Int.max, and within 0...width whatever the counts say.
    static func barLength(_ part: Int, of whole: Int, width: Int) -> Int {
        guard whole > 0, part > 0, width > 0 else { return 0 }
        let length = (Double(part) / Double(whole) * Double(width)).rounded(.down)
        return length.isFinite ? Int(min(Double(width), max(0, length))) : 0
    }

    /// The stats as JSON: an array of sites with `views` and `actions` by platform label, `dropped` and `pagesServed`.
    package static func json(_ sites: [SiteStats]) -> String {
        let array = sites.map { stats -> JSONValue in
            var object = JSONObject()
            object.append("site", .string(stats.site))
            object.append("views", counts(stats.views))
            var actions = JSONObject()
            for event in Beacon.Event.allCases where event != .view { actions.append(event.label, counts(stats.actions[event] ?? [:])) }
            object.append("actions", .object(actions))
            var dropped = JSONObject()
            for (reason, value) in stats.dropped.sorted(by: { $0.key < $1.key }) { dropped.append(reason, .number(JSONNumber(value))) }
            object.append("dropped", .object(dropped))
            object.append("pagesServed", .number(JSONNumber(stats.pagesServed)))
            return .object(object)
        }
        return JSONWriter.string(.array(array))
    }

    private static func counts(_ values: [Beacon.Platform: Int]) -> JSONValue {
        var object = JSONObject()
        for platform in Beacon.Platform.allCases { object.append(platform.label, .number(JSONNumber(values[platform] ?? 0))) }
        return .object(object)
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let space = String(repeating: " ", count: max(0, width - text.count))
        return right ? space + text : text + space
    }
}

/// One sample line of the exposition: `name{label="value",…} number`; a name or label linkhost does not write is nil
/// or left out.
struct Sample {
    let name: MetricName?
    let labels: [MetricLabel: String]
    let value: Int

    init?(_ line: Substring) {
        let characters = Array(line)
        var index = 0
        while index < characters.count, characters[index] != "{", characters[index] != " " { index += 1 }
        name = MetricName(rawValue: String(characters[0..<index]))
        var labels: [MetricLabel: String] = [:]
        if index < characters.count, characters[index] == "{" {
            index += 1
            while index < characters.count, characters[index] != "}" {
                var key = ""
                while index < characters.count, characters[index] != "=" { key.append(characters[index]); index += 1 }
                index += 2  // `="`
                var value = ""
                while index < characters.count, characters[index] != "\"" {
                    if characters[index] == "\\", index + 1 < characters.count {
                        index += 1
                        value.append(characters[index] == "n" ? "\n" : characters[index])
                    } else {
                        value.append(characters[index])
                    }
                    index += 1
                }
                index += 1  // closing quote
                if index < characters.count, characters[index] == "," { index += 1 }
                if let label = MetricLabel(rawValue: key.trimmingSpaces) { labels[label] = value }
            }
            index += 1
        }
        guard index <= characters.count, let number = Double(String(characters[min(index, characters.count)...]).trimmingSpaces),
              number.isFinite, number >= 0, number < 9e18 else { return nil }
        self.labels = labels
        value = Int(number)
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
