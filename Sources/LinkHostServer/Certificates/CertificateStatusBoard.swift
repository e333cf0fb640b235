import LinkHostCore
import Synchronization

/// What every certified host's certificate is doing, for `/healthz`'s body and the metrics; written by the
/// certificate manager, read by requests.
package final class CertificateStatusBoard: Sendable {
    /// One host's certificate as last seen.
    package struct Entry: Sendable, Equatable {
        /// Start of validity (Unix seconds), nil while there is none.
        package var notBefore: Int?
        /// End of validity (Unix seconds), nil while there is none.
        package var notAfter: Int?
        /// When renewal is due (Unix seconds).
        package var renewAt: Int?
        /// The last failure, cleared by a success.
        package var lastError: String?
        /// When the next order is tried after a failure (Unix seconds).
        package var retryAt: Int?
    }

    /// The outcomes `linkhost_acme_orders_total` counts.
    package enum OrderResult: String, Sendable, CaseIterable {
        /// A certificate was issued and stored.
        case ok
        /// The order failed (and will be retried with backoff).
        case failed
        /// The CA refused for its rate limit (retried after its `Retry-After`).
        case rateLimited = "rate_limited"
    }

    private let entries = Mutex<[(host: String, entry: Entry)]>([])
    private let orders = Mutex<[OrderResult: Int]>([:])
    private let active = Atomic<Bool>(false)

    /// Makes an empty board; it shows nothing until `track` is called.
    package init() {}

    /// True once hosts are tracked: `/healthz` then shows them.
    package var isActive: Bool { active.load(ordering: .relaxed) }

    /// Tracks exactly `hosts` (in order), keeping what is known of hosts tracked before.
    package func track(_ hosts: [String]) {
        entries.withLock { list in
            list = hosts.map { host in (host, list.first { $0.host == host }?.entry ?? Entry()) }
        }
        active.store(!hosts.isEmpty, ordering: .relaxed)
    }

    /// Changes the entries of `hosts`.
    package func update(_ hosts: [String], _ change: (inout Entry) -> Void) {
        entries.withLock { list in
            for index in list.indices where hosts.contains(list[index].host) { change(&list[index].entry) }
        }
    }

    /// Counts one order outcome.
    package func count(_ result: OrderResult) {
        orders.withLock { $0[result, default: 0] += 1 }
    }

    /// The entry of `host`, for tests and logs.
    package func entry(_ host: String) -> Entry? {
        entries.withLock { list in list.first { $0.host == host }?.entry }
    }

    /// `linkhost_certificate_expiry_seconds{host}` (seconds until expiry: negative once expired, absent while
    /// there is none; `linkhost_certificate_missing{host}` says which) and `linkhost_acme_orders_total{result}`.
    package func metricsText(now: Int) -> String {
        guard isActive else { return "" }
        let list = entries.withLock { $0 }
        var text = MetricName.certificateExpiry.header("Seconds until each host's certificate expires; negative once expired.")
        for (host, entry) in list {
            if let notAfter = entry.notAfter { MetricName.certificateExpiry.sample([.host: host], notAfter - now, into: &text) }
        }
        text += MetricName.certificateMissing.header("1 while a host has no certificate to serve.")
        for (host, entry) in list { MetricName.certificateMissing.sample([.host: host], entry.notAfter == nil ? 1 : 0, into: &text) }
        let counts = orders.withLock { $0 }
        text += MetricName.acmeOrders.header("ACME certificate orders, by result.")
        for result in OrderResult.allCases { MetricName.acmeOrders.sample([.result: result.rawValue], counts[result] ?? 0, into: &text) }
        return text
    }

    /// The tracked hosts with no certificate to serve yet, in order: for systemd's status line.
    package func missingHosts() -> [String] {
        entries.withLock { list in list.filter { $0.entry.notAfter == nil }.map(\.host) }
    }

    /// `serving generation 3`, and which hosts HTTPS cannot serve yet: what READY's STATUS= says, so a green
    /// `systemctl status` is not read as "HTTPS works" while certificates are still being ordered.
    package func serviceStatus(generation: Int) -> String {
        let missing = missingHosts()
        guard !missing.isEmpty else { return "serving generation \(generation)" }
        let shown = missing.prefix(5).joined(separator: ", ") + (missing.count > 5 ? " and \(missing.count - 5) more" : "")
        return "serving generation \(generation); HTTPS has no certificate yet for \(shown) (being ordered)"
    }

    /// One line per host for `/healthz`: `certificate HOST: valid until …`, `expired …`, `missing …`.
    package func healthLines(now: Int) -> String {
        let list = entries.withLock { $0 }
        var text = ""
        for (host, entry) in list {
            var line = "certificate \(host): "
            if let notAfter = entry.notAfter {
                line += notAfter <= now ? "EXPIRED since \(TimeText.format(notAfter))" : "valid until \(TimeText.format(notAfter)) (\((notAfter - now) / 86_400) days)"
                if let renewAt = entry.renewAt, notAfter > now { line += ", renewal \(renewAt <= now ? "due now" : "from \(TimeText.format(renewAt))")" }
            } else {
                line += "MISSING (being ordered)"
            }
            if let error = entry.lastError {
                line += "; last order failed: \(error)"
                if let retryAt = entry.retryAt { line += "; next try \(TimeText.format(retryAt))" }
            }
            text += line + "\n"
        }
        return text
    }
}
