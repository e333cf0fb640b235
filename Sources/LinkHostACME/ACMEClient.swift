import LinkHostCore
import LinkHostCrypto
import LinkHostHTTPClient
import LinkHostJSON

/// What the ACME client needs from the server it runs in: where to publish HTTP-01 answers, how to wait,
/// and where to log.
package struct ACMEHooks: Sendable {
    /// Publishes (`keyAuthorization` non-nil) or withdraws the answer for a challenge token.
    package var publish: @Sendable (_ token: String, _ keyAuthorization: String?) -> Void
    /// Waits `seconds`; false when the server is stopping, which ends the order.
    package var wait: @Sendable (_ seconds: Double) -> Bool
    /// Writes one log line.
    package var log: @Sendable (String) -> Void
    /// Unix seconds now.
    package var now: @Sendable () -> Int

    /// Makes hooks.
    package init(publish: @escaping @Sendable (String, String?) -> Void, wait: @escaping @Sendable (Double) -> Bool,
                log: @escaping @Sendable (String) -> Void, now: @escaping @Sendable () -> Int) {
        self.publish = publish
        self.wait = wait
        self.log = log
        self.now = now
    }
}

/// A certificate as the CA issued it: the PEM chain and what it says.
package struct IssuedCertificate: Sendable {
    /// The chain, leaf first, PEM.
    package let chain: [UInt8]
    /// What the leaf says.
    package let facts: CertificateFacts
}

/// The CA's suggestion of when to renew (RFC 9773 §4.2).
package struct RenewalWindow: Sendable, Equatable {
    /// Start of the window, Unix seconds.
    package let start: Int
    /// End of the window, Unix seconds.
    package let end: Int
    /// When to ask again, Unix seconds (the answer's `Retry-After`, else six hours on).
    package let checkAgain: Int
}

/// The ACME protocol (RFC 8555) for one CA, one account key and HTTP-01: directory, account, order,
/// authorizations, challenges, finalization and download, and ACME Renewal Information (RFC 9773).
///
/// Blocking: it runs on the certificate manager's own thread. Every loop is bounded in count.
package struct ACMEClient {
    /// Most polls of one authorization or order before the order counts as failed.
    package static let maximumPolls = 10
    /// Seconds before the first poll when the CA sends no `Retry-After` (doubling to 8 s), and the bounds of
    /// a `Retry-After` it does send.
    package static let pollInterval = 1.0, shortestPoll = 0.5, longestPoll = 30.0

    let directoryURL: String
    let accountKey: P256Key
    let hooks: ACMEHooks
    var connection: ACMEConnection
    /// The directory, read on first use.
    private(set) var directory: ACMEDirectory?
    /// The account URL (`kid`), found on first use.
    private(set) var account: String?

    /// Makes a client for the CA at `directoryURL` that sends through `fetch`.
    package init(directoryURL: String, accountKey: P256Key, fetch: @escaping Fetcher, hooks: ACMEHooks) {
        self.directoryURL = directoryURL
        self.accountKey = accountKey
        self.hooks = hooks
        connection = ACMEConnection(fetch: fetch, now: hooks.now, log: hooks.log)
    }

    /// Reads the directory (once).
    package mutating func loadDirectory() throws(ACMEError) -> ACMEDirectory {
        if let directory { return directory }
        let answer = try connection.getJSON(directoryURL)
        let read = try ACMEDirectory(.object(answer.json ?? JSONObject()))
        directory = read
        return read
    }

    /// Finds or creates the account of the key (RFC 8555 §7.3): the same key always gets the same account.
    package mutating func register(email: String?, binding: (keyID: String, macKey: [UInt8])?) throws(ACMEError) -> String {
        if let account { return account }
        let directory = try loadDirectory()
        var payload = JSONObject([JSONMember("termsOfServiceAgreed", .bool(true))])
        if let email { payload.append("contact", .array([.string("mailto:\(email)")])) }
        if let binding {
            payload.append("externalAccountBinding", JWS.externalAccountBinding(keyID: binding.keyID, macKey: binding.macKey, accountKey: accountKey, url: directory.newAccount))
        } else if directory.externalAccountRequired {
            throw ACMEError(.problem, "the CA requires an external account binding; set server.tls.acme.externalAccountBinding (keyID and hmacKey from the CA)")
        }
        let answer = try connection.post(directory.newAccount, payload: .object(payload), key: accountKey, signer: .key, newNonce: directory.newNonce)
        guard let location = answer.location, ACMEURL.isUsable(location) else {
            throw ACMEError(.malformed, "the CA created an account but named no account URL (Location)")
        }
        let status = answer.json?["status"]?.stringValue ?? "valid"
        guard status == "valid" else { throw ACMEError(.notValid, "the CA says the account is \(ACMEProblem.line(status))") }
        account = location
        return location
    }

    /// Orders, proves and downloads a certificate for `hosts` with a new key `certificateKey`; `replaces` is
    /// the ARI identifier of the certificate it succeeds (RFC 9773 §5).
    package mutating func obtain(hosts: [String], certificateKey: P256Key, replaces: String?) throws(ACMEError) -> IssuedCertificate {
        let directory = try loadDirectory()
        let account = try register(email: nil, binding: nil)
        var payload = JSONObject([JSONMember("identifiers", .array(hosts.map { .object(JSONObject([JSONMember("type", .string("dns")), JSONMember("value", .string($0))])) }))])
        if let replaces { payload.append("replaces", .string(replaces)) }
        var created: ACMEAnswer
        do {
            created = try connection.post(directory.newOrder, payload: .object(payload), key: accountKey, signer: .account(account), newNonce: directory.newNonce)
        } catch let error where error.kind == .problem && replaces != nil {
            // A CA may refuse `replaces` (already replaced, unknown); the order itself is still wanted.
            hooks.log("the CA refused the order as a replacement (\(error.message)); ordering anew")
            payload.members.removeAll { $0.key == "replaces" }
            created = try connection.post(directory.newOrder, payload: .object(payload), key: accountKey, signer: .account(account), newNonce: directory.newNonce)
        }
        guard let orderURL = created.location, ACMEURL.isUsable(orderURL) else { throw ACMEError(.malformed, "the CA created an order but named no order URL (Location)") }
        var order = try ACMEOrder(created.json)
        try authorize(order.authorizations, account: account, directory: directory)
        order = try poll(orderURL, account: account, directory: directory, what: "the order for \(hosts.joined(separator: ", "))", until: ["ready", "valid"], from: order)
        if order.status == "ready" {
            let request: [UInt8]
            do { request = try certificateKey.certificateRequest(for: hosts) } catch { throw ACMEError(.crypto, error.description) }
            let finalized = try connection.post(order.finalize, payload: .object(JSONObject([JSONMember("csr", .string(Base64URL.encode(request)))])),
                                                key: accountKey, signer: .account(account), newNonce: directory.newNonce)
            order = try poll(orderURL, account: account, directory: directory, what: "the finalized order for \(hosts.joined(separator: ", "))", until: ["valid"], from: try ACMEOrder(finalized.json), retryAfter: finalized.retryAfter)
        }
        guard let certificateURL = order.certificate else { throw ACMEError(.malformed, "the CA's valid order names no certificate URL") }
        let download = try connection.post(certificateURL, payload: nil, key: accountKey, signer: .account(account), newNonce: directory.newNonce, accept: .certificateChain)
        return try Self.check(download.body, key: certificateKey, hosts: hosts, now: hooks.now())
    }

    /// Asks the CA when to renew the certificate with ARI identifier `id`; nil when the CA offers no ARI.
    package mutating func renewalWindow(for id: String) throws(ACMEError) -> RenewalWindow? {
        guard let base = try loadDirectory().renewalInfo else { return nil }
        let answer = try connection.getJSON(base.hasSuffix("/") ? base + id : base + "/" + id)
        guard let window = answer.json?["suggestedWindow"]?.objectValue,
              let start = window["start"]?.stringValue.flatMap(TimeText.rfc3339), let end = window["end"]?.stringValue.flatMap(TimeText.rfc3339), start <= end else {
            throw ACMEError(.malformed, "the CA's renewal information has no readable suggestedWindow")
        }
        let now = hooks.now()
        let again = now + min(max(answer.retryAfter ?? 6 * 3600, 60), 86_400)
        return RenewalWindow(start: start, end: end, checkAgain: again)
    }

    /// Proves every authorization with HTTP-01 (unless the CA already holds it valid): all challenges are
    /// answered first, then each authorization is polled, so several hosts validate at the same time.
    private mutating func authorize(_ urls: [String], account: String, directory: ACMEDirectory) throws(ACMEError) {
        var pending: [(url: String, token: String, retryAfter: Int?)] = []
        defer { for item in pending { hooks.publish(item.token, nil) } }
        for url in urls {
            let answer = try connection.post(url, payload: nil, key: accountKey, signer: .account(account), newNonce: directory.newNonce)
            let authorization = try ACMEAuthorization(answer.json)
            if authorization.status == "valid" { continue }
            guard authorization.status == "pending" else {
                throw ACMEError(.notValid, "the authorization for \(authorization.host) is \(authorization.status)\(authorization.error.map { ": \($0)" } ?? "")")
            }
            guard let challenge = authorization.http01 else {
                throw ACMEError(.notValid, "the CA offers no http-01 challenge for \(authorization.host), the only kind linkhost answers")
            }
            hooks.publish(challenge.token, challenge.token + "." + accountKey.thumbprint)
            pending.append((url, challenge.token, answer.retryAfter))
            _ = try connection.post(challenge.url, payload: .object(JSONObject()), key: accountKey, signer: .account(account), newNonce: directory.newNonce)
        }
        for item in pending {
            var polls = 0
            var delay = item.retryAfter.map(Double.init) ?? Self.pollInterval
            while true {
                polls += 1
                guard hooks.wait(Self.clamp(delay)) else { throw ACMEError(.cancelled, "stopped while the CA validated") }
                let polled = try connection.post(item.url, payload: nil, key: accountKey, signer: .account(account), newNonce: directory.newNonce)
                let state = try ACMEAuthorization(polled.json)
                if state.status == "valid" {
                    hooks.log("the CA validated \(state.host) over HTTP-01")
                    break
                }
                guard state.status == "pending" || state.status == "processing" else {
                    throw ACMEError(.notValid, "the CA could not validate \(state.host) (\(state.status))\(state.error.map { ": \($0)" } ?? "")")
                }
                guard polls < Self.maximumPolls else {
                    throw ACMEError(.notValid, "the authorization for \(state.host) is still \(state.status) after \(polls) polls")
                }
                delay = polled.retryAfter.map(Double.init) ?? min(delay * 2, 8)
            }
        }
    }

    /// Polls an order until its status is one of `wanted`; any other final status or too many polls fail.
    private mutating func poll(_ url: String, account: String, directory: ACMEDirectory, what: String, until wanted: Set<String>,
                               from start: ACMEOrder, retryAfter: Int? = nil) throws(ACMEError) -> ACMEOrder {
        var order = start
        var polls = 0
        var delay = retryAfter.map(Double.init) ?? Self.pollInterval
        while !wanted.contains(order.status) {
            guard ["pending", "processing", "ready"].contains(order.status) else {
                throw ACMEError(.notValid, "\(what) is \(order.status)\(order.error.map { ": \($0)" } ?? "")")
            }
            polls += 1
            guard polls <= Self.maximumPolls else { throw ACMEError(.notValid, "\(what) is still \(order.status) after \(Self.maximumPolls) polls") }
            guard hooks.wait(Self.clamp(delay)) else { throw ACMEError(.cancelled, "stopped while waiting for \(what)") }
            let answer = try connection.post(url, payload: nil, key: accountKey, signer: .account(account), newNonce: directory.newNonce)
            order = try ACMEOrder(answer.json)
            delay = answer.retryAfter.map(Double.init) ?? min(delay * 2, 8)
        }
        return order
    }

    private static func clamp(_ seconds: Double) -> Double { min(max(seconds, shortestPoll), longestPoll) }

    /// The downloaded chain must be readable, for this key, name every host, and be valid now.
    static func check(_ chain: [UInt8], key: P256Key, hosts: [String], now: Int) throws(ACMEError) -> IssuedCertificate {
        guard let facts = CertificateFacts(pem: chain) else { throw ACMEError(.badCertificate, "the CA sent a certificate chain GnuTLS cannot read") }
        guard key.matches(certificateChain: chain) else { throw ACMEError(.badCertificate, "the CA sent a certificate for another key") }
        let missing = hosts.filter { !facts.covers($0) }
        guard missing.isEmpty else { throw ACMEError(.badCertificate, "the CA's certificate does not name \(missing.joined(separator: ", "))") }
        guard facts.notAfter > now, facts.notBefore <= now + 300 else {
            throw ACMEError(.badCertificate, "the CA's certificate is not valid now (\(TimeText.format(facts.notBefore)) to \(TimeText.format(facts.notAfter)))")
        }
        return IssuedCertificate(chain: chain, facts: facts)
    }
}
