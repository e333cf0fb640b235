

/// When to renew and when to retry: plain functions of the certificate and the failures so far.
package enum RenewalSchedule {
    /// The shortest wait after a failed order.
    package static let firstBackoff = 60
    /// The longest wait after failed orders: a broken setup asks the CA once a day.
    package static let longestBackoff = 86_400
    /// The longest `Retry-After` honoured as it is; a longer one is cut to this, so a typo at the CA cannot park renewals for months.
    package static let longestRetryAfter = 7 * 86_400

    /// When a certificate is due: when a third of its lifetime is left.
    package static func renewalTime(notBefore: Int, notAfter: Int) -> Int {
        notAfter - max(0, notAfter - notBefore) / 3
    }

    /// The due time given the CA's renewal window (RFC 9773 §4.2): a point in the window chosen by `fraction`
    /// (0..<1, random in production), when that is earlier than a third of the lifetime left.
    package static func renewalTime(notBefore: Int, notAfter: Int, window: RenewalWindow?, fraction: Double) -> Int {
        let regular = renewalTime(notBefore: notBefore, notAfter: notAfter)
        guard let window else { return regular }
        let chosen = window.start + Int(Double(window.end - window.start) * min(max(fraction, 0), 0.999))
        return min(regular, chosen)
    }

    /// Seconds to wait after `failures` failures in a row (1, 2, …): one minute, doubling, at most a day.
    package static func backoff(failures: Int) -> Int {
        guard failures > 0 else { return 0 }
        let exponent = min(failures - 1, 20)
        return min(firstBackoff << exponent, longestBackoff)
    }

    /// Seconds until the next attempt after a failure: the backoff, or the CA's `Retry-After` when longer.
    package static func retryDelay(failures: Int, retryAfter: Int?) -> Int {
        max(backoff(failures: failures), min(retryAfter ?? 0, longestRetryAfter))
    }
}
