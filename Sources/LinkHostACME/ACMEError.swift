import LinkHostJSON

/// Why an ACME exchange failed: every answer from the CA is untrusted, and each way it can be wrong ends here
/// with words for the log and, where the CA said so, how long to wait before trying again.
package struct ACMEError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure, for retry decisions and metrics.
    package enum Kind: String, Sendable, Equatable {
        /// The CA could not be reached, or the connection broke.
        case transport
        /// The CA answered with a redirect; ACME clients follow none.
        case redirect
        /// The answer was larger than the client reads.
        case tooLarge
        /// The answer had the wrong media type.
        case contentType
        /// The answer was not the JSON the protocol needs.
        case malformed
        /// The CA answered with a problem document (RFC 8555 §6.7) other than the ones below.
        case problem
        /// The CA refused fresh nonces again and again.
        case badNonce
        /// The CA's rate limit: wait `retryAfter`.
        case rateLimited
        /// An authorization or order ended invalid, or never became valid within the polls allowed.
        case notValid
        /// The certificate the CA sent is unusable (unreadable, another key, missing names, expired).
        case badCertificate
        /// A key or signature could not be made.
        case crypto
        /// The server is stopping.
        case cancelled
    }

    /// The kind.
    package let kind: Kind
    /// What happened, in one line.
    package let message: String
    /// Seconds the CA asked to wait (its `Retry-After`), when it said.
    package let retryAfter: Int?

    /// Makes an error.
    package init(_ kind: Kind, _ message: String, retryAfter: Int? = nil) {
        self.kind = kind
        self.message = message
        self.retryAfter = retryAfter
    }

    /// The message.
    package var description: String { message }
}

/// A problem document (RFC 7807) as ACME CAs send them.
package struct ACMEProblem: Sendable, Equatable {
    /// The error namespace of RFC 8555 §6.7.
    package static let namespace = "urn:ietf:params:acme:error:"

    /// The full type URI, e.g. `urn:ietf:params:acme:error:badNonce`.
    package let type: String
    /// The CA's explanation, cut to a log line's length.
    package let detail: String

    /// Reads a problem object; nil when the value is not one.
    package init?(_ value: JSONValue?) {
        guard let object = value?.objectValue, let type = object["type"]?.stringValue else { return nil }
        self.type = String(type.prefix(200))
        detail = Self.line(object["detail"]?.stringValue ?? "")
    }

    /// The type without the ACME namespace: `badNonce`, `rateLimited`, `unauthorized`.
    package var shortType: String { type.hasPrefix(Self.namespace) ? String(type.dropFirst(Self.namespace.count)) : type }

    /// `badNonce: JWS has an invalid anti-replay nonce`.
    package var summary: String { detail.isEmpty ? shortType : "\(shortType): \(detail)" }

    /// A CA's text made safe for one log line: no control characters, at most 300 characters.
    static func line(_ text: String) -> String {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
        return cleaned.count > 300 ? String(cleaned.prefix(297)) + "..." : cleaned
    }
}
