import Synchronization

/// The HTTP-01 answers of pending orders (RFC 8555 §8.3), by token: what the plain-HTTP listener serves at
/// `/.well-known/acme-challenge/<token>` while the CA validates.
package final class ChallengeResponses: Sendable {
    /// The path prefix of challenge answers.
    package static let pathPrefix = "/.well-known/acme-challenge/"
    private let answers = Mutex<[String: String]>([:])

    /// Makes an empty table.
    package init() {}

    /// Publishes (`keyAuthorization` non-nil) or withdraws a token's answer.
    package func set(_ token: String, _ keyAuthorization: String?) {
        answers.withLock { $0[token] = keyAuthorization }
    }

    /// The key authorization for a request path under `pathPrefix`; nil for an unknown token.
    package func answer(forPath path: String) -> String? {
        guard path.hasPrefix(Self.pathPrefix) else { return nil }
        let token = String(path.dropFirst(Self.pathPrefix.count))
        return answers.withLock { $0[token] }
    }

    /// How many answers are published now.
    package var count: Int { answers.withLock { $0.count } }
}
