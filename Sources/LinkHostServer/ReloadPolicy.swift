import LinkHostCore

/// Which `server.*` and `observability.*` changes a SIGHUP applies and which it refuses (README,
/// "Reload"): everything a new snapshot or a new daemon on the same listening socket can carry is
/// applied; what would need another socket or a rebuilt log writer refuses the whole reload, so the
/// running config keeps serving unchanged rather than half of a new one.
enum ReloadPolicy {
    /// One setting, how to read it for comparison, and what a reload does with a change to it.
    struct Rule: Sendable {
        /// The config key, e.g. `server.port`.
        let key: String
        /// True: a change is applied; false: a change refuses the reload.
        let applies: Bool
        /// How a change is applied, or why it cannot be.
        let how: String
        /// The setting's value in a config, as text: equal text, no change. Compared only, never printed:
        /// values (the ACME binding's `hmacKey` among them) stay out of the log and `/healthz` (issue 30).
        let value: @Sendable (Config) -> String
    }

    /// The table, in the README's order.
    static let rules: [Rule] = [
        Rule(key: "server.host", applies: false, how: "the listening socket stays bound where it is; restart (or change the .socket unit)") { $0.server.host },
        Rule(key: "server.port", applies: false, how: "the listening socket stays bound where it is; restart (or change the .socket unit)") { "\($0.server.port)" },
        Rule(key: "server.httpPort", applies: false, how: "the HTTP listener beside HTTPS stays bound where it is; restart") { $0.server.httpPort.map(String.init) ?? "none" },
        Rule(key: "server.tls.acme", applies: false, how: "automatic HTTPS and its certificate manager are set up at start; restart") { $0.server.acme.map { "\($0)" } ?? "off" },
        Rule(key: "server.threads", applies: true, how: "a new daemon on the same socket") { "\($0.server.threads)" },
        Rule(key: "server.connectionTimeout", applies: true, how: "a new daemon on the same socket") { "\($0.server.connectionTimeout)" },
        Rule(key: "server.connectionLimit", applies: true, how: "a new daemon on the same socket") { "\($0.server.connectionLimit)" },
        Rule(key: "server.perIPConnectionLimit", applies: true, how: "a new daemon on the same socket") { "\($0.server.perIPConnectionLimit)" },
        Rule(key: "server.connectionMemoryLimit", applies: true, how: "a new daemon on the same socket") { "\($0.server.connectionMemoryLimit)" },
        Rule(key: "server.headerTimeout", applies: true, how: "a new daemon on the same socket") { "\($0.server.headerTimeout)" },
        Rule(key: "server.pageCacheBytes", applies: true, how: "the new snapshot (its caches start empty)") { "\($0.server.pageCacheBytes)" },
        Rule(key: "server.staticFilesBytes", applies: true, how: "the new snapshot, whose static files are read within it") { "\($0.server.staticFilesBytes)" },
        Rule(key: "server.shutdownTimeout", applies: true, how: "the next drain") { "\($0.server.shutdownTimeout)" },
        Rule(key: "server.tls", applies: true, how: "a new daemon on the same socket, only if the new pair works") { $0.server.tls.map { "\($0.certificateFile), \($0.privateKeyFile)" } ?? "off" },
        Rule(key: "server.tls.hsts", applies: true, how: "the new snapshot") { $0.server.hsts?.fieldValue ?? "off" },
        Rule(key: "server.watchConfig", applies: true, how: "the watcher reads it every second") { "\($0.server.watchConfig)" },
        Rule(key: "server.stateDirectory", applies: false, how: "the state writer is set up at start; restart") { $0.server.stateDirectory ?? "none" },
        Rule(key: "server.trustedProxies", applies: true, how: "the new snapshot") { $0.server.trustedProxies.map(\.description).joined(separator: ", ") },
        Rule(key: "observability.accessLog", applies: false, how: "the log writer is set up at start; restart") { $0.observability.accessLog.rawValue },
        Rule(key: "observability.healthPath", applies: true, how: "the new snapshot") { $0.observability.healthPath },
        Rule(key: "observability.metrics.path", applies: true, how: "the new snapshot") { $0.observability.metricsPath },
        Rule(key: "observability.metrics.enabled", applies: true, how: "the new snapshot (on the public port)") { "\($0.observability.metricsEnabled)" },
        Rule(key: "observability.metrics.port", applies: false, how: "the metrics listener stays bound where it is; restart") { $0.observability.metricsPort.map(String.init) ?? "none" },
        Rule(key: "observability.metrics.host", applies: false, how: "the metrics listener stays bound where it is; restart") { $0.observability.metricsHost },
        Rule(key: "observability.metrics.perSiteLatency", applies: true, how: "the next request (per-site histograms start from zero)") { "\($0.observability.metricsPerSiteLatency)" },
    ]

    /// The parts of `server.tls.acme` a refusal names one by one, so the operator sees which key changed
    /// without any value being printed.
    static let acmeParts: [(key: String, value: @Sendable (ACMESettings?) -> String)] = [
        ("server.tls.acme", { $0 == nil ? "off" : "on" }),
        ("server.tls.acme.email", { $0?.email ?? "" }),
        ("server.tls.acme.directory", { $0?.directory ?? "" }),
        ("server.tls.acme.caFile", { $0?.caFile ?? "" }),
        ("server.tls.acme.stateDirectory", { $0?.stateDirectory ?? "" }),
        ("server.tls.acme.hosts", { $0?.hosts.joined(separator: ",") ?? "" }),
        ("server.tls.acme.externalAccountBinding.keyID", { $0?.externalAccountBinding?.keyID ?? "" }),
        ("server.tls.acme.externalAccountBinding.hmacKey", { $0?.externalAccountBinding?.hmacKey ?? "" }),
    ]

    /// "server.port changed" for every refused change from `old` to `new`, keys only; empty when the reload may go on.
    ///
    /// `metrics.enabled` is refused while a private metrics port is set before or after: that listener
    /// exists only if it was started with the process.
    static func refusedChanges(from old: Config, to new: Config) -> [String] {
        var refused: [String] = []
        for rule in rules where !rule.applies && rule.value(old) != rule.value(new) {
            guard rule.key == "server.tls.acme" else {
                refused.append("\(rule.key) changed")
                continue
            }
            let parts = acmeParts.filter { $0.value(old.server.acme) != $0.value(new.server.acme) }
            // Turning ACME on or off names the section; otherwise each key that differs.
            let named = parts.first?.key == "server.tls.acme" || parts.isEmpty ? ["server.tls.acme"] : parts.map(\.key)
            refused += named.map { "\($0) changed" }
        }
        let privatePort = old.observability.metricsPort != nil || new.observability.metricsPort != nil
        if privatePort, old.observability.metricsEnabled != new.observability.metricsEnabled {
            refused.append("observability.metrics.enabled changed (with a metrics port)")
        }
        return refused
    }
}
