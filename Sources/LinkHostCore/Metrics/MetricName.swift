/// The name of each family of series `/metrics` shows, defined once: the server writes them (`Metrics`,
/// `BeaconCounters`, the status boards) and `linkhost stats` reads them back (`PageStats`), so a renamed family
/// is renamed on both sides or the build fails. The names are an interface dashboards use: docs/operating.md.
package enum MetricName: String, Sendable, CaseIterable {
    /// Requests answered, by site, route and status class.
    case requests = "linkhost_requests_total"
    /// AASA and assetlinks fetches, by site, file and fetcher.
    case associationFetches = "linkhost_association_fetches_total"
    /// Call pages shown, by site and platform, as the page's script reports them.
    case pageViews = "linkhost_page_views_total"
    /// Taps on the call page's actions, by site, action and platform.
    case pageActions = "linkhost_page_actions_total"
    /// Beacons not counted, by site and reason.
    case beaconsDropped = "linkhost_beacons_dropped_total"
    /// Request durations, by route (and site).
    case requestDuration = "linkhost_request_duration_seconds"
    /// Connections open now.
    case connections = "linkhost_connections"
    /// Bytes held by rendered pages and QR images.
    case pageCacheBytes = "linkhost_page_cache_bytes"
    /// Config reloads, by result.
    case reloads = "linkhost_reloads_total"
    /// Reloads still running when the watchdog's limit passed.
    case stuckReloads = "linkhost_reloads_stuck_total"
    /// The generation of the config serving.
    case configGeneration = "linkhost_config_generation"
    /// The config file serving, by its SHA-256.
    case configInfo = "linkhost_config_info"
    /// Whether the last reload failed.
    case configReloadFailed = "linkhost_config_reload_failed"
    /// The sites whose site file failed.
    case siteConfigFailed = "linkhost_site_config_failed"
    /// Each site served, by the SHA-256 of its file.
    case siteConfigInfo = "linkhost_site_config_info"
    /// Seconds until each host's certificate expires.
    case certificateExpiry = "linkhost_certificate_expiry_seconds"
    /// Hosts with no certificate to serve.
    case certificateMissing = "linkhost_certificate_missing"
    /// ACME orders, by result.
    case acmeOrders = "linkhost_acme_orders_total"
    /// The process's start time (the name Prometheus' client libraries use).
    case processStartTime = "process_start_time_seconds"

    /// The family's type, for its `# TYPE` line.
    package var type: String {
        switch self {
        case .requests, .associationFetches, .pageViews, .pageActions, .beaconsDropped, .reloads, .stuckReloads, .acmeOrders:
            return "counter"
        case .requestDuration:
            return "histogram"
        case .connections, .pageCacheBytes, .configGeneration, .configInfo, .configReloadFailed, .siteConfigFailed, .siteConfigInfo,
             .certificateExpiry, .certificateMissing, .processStartTime:
            return "gauge"
        }
    }

    /// The family's `# HELP` and `# TYPE` lines, which the format wants before its samples.
    package func header(_ help: String) -> String {
        "# HELP \(rawValue) \(help)\n# TYPE \(rawValue) \(type)\n"
    }

    /// Appends one sample line, `name{label="value",…} value` (`suffix` after the name: a histogram's
    /// `_bucket`, `_sum`, `_count`); the label values are already escaped (`MetricLabel.escape`).
    package func sample(_ labels: KeyValuePairs<MetricLabel, String>, _ value: String, suffix: String = "", into text: inout String) {
        text += rawValue
        text += suffix
        if !labels.isEmpty {
            text += "{"
            for (index, label) in labels.enumerated() {
                if index > 0 { text += "," }
                text += label.key.rawValue
                text += "=\""
                text += label.value
                text += "\""
            }
            text += "}"
        }
        text += " "
        text += value
        text += "\n"
    }

    /// `sample` of a whole number.
    package func sample(_ labels: KeyValuePairs<MetricLabel, String>, _ value: Int, into text: inout String) {
        sample(labels, String(value), into: &text)
    }

    /// `sample` of a series with no labels.
    package func sample(_ value: Int, into text: inout String) {
        sample([:], String(value), into: &text)
    }
}

/// The label names of the series `/metrics` shows (`MetricName`), shared by the server and `linkhost stats`.
package enum MetricLabel: String, Sendable, CaseIterable {
    /// The site's label (`SiteConfig.label`).
    case site
    /// `Route.label`.
    case route
    /// `StatusClass.label`.
    case status
    /// The association file fetched: `aasa` or `assetlinks`.
    case file
    /// Who fetched it (`Metrics.Fetcher`).
    case fetcher
    /// `Beacon.Platform.label`.
    case platform
    /// `Beacon.Event.label` of a tap.
    case action
    /// `Beacon.Drop.label`.
    case reason
    /// How a reload or an ACME order ended.
    case result
    /// A certified host.
    case host
    /// A file's SHA-256, in hex.
    case sha256
    /// A histogram bucket's upper bound.
    case le

    /// A label value as the exposition format writes it: `\`, `"` and line feeds escaped (a site named by its
    /// file's name may hold them); `PageStats` reads them back.
    package static func escape(_ value: String) -> String {
        value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
    }
}
