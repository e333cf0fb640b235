import LinkHostJSON

/// Access logs, health probe and metrics.
public struct ObservabilitySettings: Sendable, Equatable {
    /// The access-log line format.
    public enum AccessLogFormat: String, Sendable, CaseIterable {
        /// One JSON object per line (the default): what log shippers parse without configuration.
        case json
        /// NCSA Common Log Format.
        case common
        /// NCSA Combined Log Format (Common plus referer and user agent).
        case combined
        /// No access log.
        case off
    }

    /// Access-log format; lines go to stdout.
    public var accessLog: AccessLogFormat = .json
    /// Path of the health probe, answering 200 `ok` while serving.
    public var healthPath: String = "/healthz"
    /// Whether `/metrics` is served at all.
    public var metricsEnabled: Bool = true
    /// Path of the Prometheus metrics page.
    public var metricsPath: String = "/metrics"
    /// A separate port for metrics; when set, the public listener does not serve them.
    public var metricsPort: Int?
    /// The address of the separate metrics listener.
    public var metricsHost: String = "127.0.0.1"
    /// Whether the latency histograms carry a `site` label too: off, they are per route only, so ten thousand
    /// tenants cost no 45 series each.
    public var metricsPerSiteLatency = false
}

/// Reads the `observability` section.
enum ObservabilitySettingsReader {
    static func read(_ value: JSONValue?, reader: inout ConfigReader) -> ObservabilitySettings {
        var settings = ObservabilitySettings()
        guard let value, let object = reader.object(value, at: "observability", allowed: ConfigKeys.members(of: "observability")) else { return settings }
        let formats = ObservabilitySettings.AccessLogFormat.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        if let format = reader.string(object, "accessLog", at: "observability", expected: "one of \(formats)", rule: { ObservabilitySettings.AccessLogFormat(rawValue: $0) == nil ? "is not a log format; expected one of \(formats)" : nil }) {
            settings.accessLog = ObservabilitySettings.AccessLogFormat(rawValue: format) ?? .json
        }
        settings.healthPath = reader.string(object, "healthPath", at: "observability", expected: "a path such as \"/healthz\"", rule: pathRule) ?? settings.healthPath
        if let metrics = object["metrics"], let metricsObject = reader.object(metrics, at: "observability.metrics", allowed: ConfigKeys.members(of: "observability.metrics")) {
            settings.metricsEnabled = reader.boolean(metricsObject, "enabled", at: "observability.metrics") ?? true
            settings.metricsPath = reader.string(metricsObject, "path", at: "observability.metrics", expected: "a path such as \"/metrics\"", rule: pathRule) ?? settings.metricsPath
            settings.metricsPort = reader.integer(metricsObject, "port", at: "observability.metrics", in: 1...65535)
            settings.metricsHost = reader.string(metricsObject, "host", at: "observability.metrics", expected: "an address such as \"127.0.0.1\"") ?? settings.metricsHost
            settings.metricsPerSiteLatency = reader.boolean(metricsObject, "perSiteLatency", at: "observability.metrics") ?? false
        }
        if settings.healthPath == settings.metricsPath {
            reader.error(.lh109, "observability.healthPath", "is the same as observability.metrics.path; give them different paths")
        }
        return settings
    }

    /// A request path of unreserved characters starting with "/".
    private static func pathRule(_ path: String) -> String? {
        let valid = path.hasPrefix("/") && path.utf8.count <= 128
            && path.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || "/-_.~".utf8.contains($0) }
        return valid ? nil : "is not a path of letters, digits and - _ . ~ starting with \"/\""
    }
}
