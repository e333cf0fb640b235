import Dispatch
import LinkHostACME
import LinkHostCore
import LinkHostCrypto
import LinkHostHTTPClient
import Synchronization

/// Obtains and renews the certificates of every certified site on a thread of its own: stored ones are
/// served at once, missing ones are ordered, each is renewed when a third of its lifetime is left (or
/// earlier when the CA's renewal information says so), and failures wait with exponential backoff.
package final class CertificateManager: Sendable {
    /// Where a target stands between passes of the loop.
    struct TargetState: Sendable {
        var target: CertificateTarget
        var current: StoredCertificate?
        /// When to act next (Unix seconds): renew, retry, or ask the CA's renewal information.
        var nextAttempt: Int = 0
        var failures = 0
        var window: RenewalWindow?
        /// Set once the lock was found held, so the wait is logged once.
        var waitingForLock = false
    }

    private let settings: ACMESettings
    private let store: CertificateStore
    private let challenges: ChallengeResponses
    private let board: CertificateStatusBoard
    private let clock: @Sendable () -> Int
    private let states = Mutex<[TargetState]>([])
    private let stopping = Atomic<Bool>(false)
    private let wakeup = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Makes a manager for `targets`; nothing happens until `start`.
    package init(settings: ACMESettings, targets: [CertificateTarget], challenges: ChallengeResponses, board: CertificateStatusBoard,
                clock: (@Sendable () -> Int)? = nil) {
        self.settings = settings
        store = CertificateStore(stateDirectory: settings.stateDirectory, directory: settings.directory)
        self.challenges = challenges
        self.board = board
        self.clock = clock ?? { LogTime.now().seconds }
        states.withLock { $0 = targets.map { TargetState(target: $0) } }
        board.track(targets.flatMap(\.hosts))
    }

    /// Creates the state folder where missing and checks that it deserves trust; `serve` refuses to start
    /// when it does not (a folder others can write to would hand them the private keys).
    package func prepare() throws(StoreError) {
        try store.prepare()
    }

    /// Serves what the state folder holds, then starts the thread that orders and renews.
    package func start() {
        loadStored()
        let thread = DispatchQueue(label: "linkhost.certificates")
        thread.async { [self] in
            run()
            finished.signal()
        }
    }

    /// Replaces the targets after a reload: new hosts are ordered, unchanged ones keep their state.
    package func update(_ targets: [CertificateTarget]) {
        states.withLock { list in
            list = targets.map { target in list.first { $0.target == target } ?? TargetState(target: target) }
        }
        board.track(targets.flatMap(\.hosts))
        loadStored()
        wakeup.signal()
    }

    /// Ends the loop: an order under way stops at its next wait; returns within `timeout` seconds.
    package func stop(timeout: Double) {
        stopping.store(true, ordering: .releasing)
        wakeup.signal()
        _ = finished.wait(timeout: .now() + timeout)
    }

    /// Installs every stored certificate that fits its target, and schedules each target.
    private func loadStored() {
        let now = clock()
        let list = states.withLock { $0 }
        var updated: [TargetState] = []
        for var state in list where state.current == nil {
            if let stored = store.certificate(state.target.name, problem: { Lifecycle.warning("ACME: \($0)") }) {
                let missing = state.target.hosts.filter { !stored.facts.covers($0) }
                if missing.isEmpty {
                    serve(stored, for: &state, source: "stored", now: now)
                } else {
                    Lifecycle.info("ACME: the stored certificate \(state.target.name) does not name \(missing.joined(separator: ", ")); ordering a new one")
                }
            } else {
                Lifecycle.info("ACME: no certificate yet for \(state.target.hosts.joined(separator: ", ")); ordering one from \(settings.directory)")
            }
            updated.append(state)
        }
        states.withLock { list in
            for state in updated { if let index = list.firstIndex(where: { $0.target == state.target }) { list[index] = state } }
        }
    }

    /// Puts a certificate in the SNI table and on the board, and schedules its renewal.
    private func serve(_ certificate: StoredCertificate, for state: inout TargetState, source: String, now: Int) {
        let target = state.target
        guard SNICertificates.install(hosts: target.hosts, isDefault: target.isDefault, chain: certificate.chain, key: certificate.key) else {
            Lifecycle.error("ACME: GnuTLS refused the \(source) certificate for \(target.hosts.joined(separator: ", "))")
            return
        }
        state.current = certificate
        let facts = certificate.facts
        let renewAt = renewalTime(certificate, state.window)
        // A stored certificate gets a first look at the CA's renewal information at once; a certificate issued
        // already due (a CA's odd lifetime, a wrong clock) waits an hour rather than being ordered again at once.
        let firstLook = facts.renewalInfoID == nil ? renewAt : now
        state.nextAttempt = source == "new" ? max(min(renewAt, firstLook), now + 3600) : min(renewAt, firstLook)
        if facts.notAfter <= now {
            Lifecycle.error("ACME: the \(source) certificate for \(target.hosts.joined(separator: ", ")) EXPIRED at \(TimeText.format(facts.notAfter)); serving it until a new one is issued")
        } else {
            Lifecycle.info("ACME: serving the \(source) certificate for \(target.hosts.joined(separator: ", ")) (issuer \(facts.issuer), valid until \(TimeText.format(facts.notAfter)), renewal from \(TimeText.format(renewAt)))")
        }
        board.update(target.hosts) { entry in
            entry.notBefore = facts.notBefore
            entry.notAfter = facts.notAfter
            entry.renewAt = renewAt
        }
        // A certificate that arrives after READY changes what `systemctl status` should say (issue 30, item 14).
        if source == "new" {
            let missing = board.missingHosts()
            SystemdNotifier.status(missing.isEmpty ? "serving; HTTPS has a certificate for every host" : "serving; HTTPS has no certificate yet for \(missing.joined(separator: ", "))")
        }
    }

    /// The loop: act on every target that is due, then sleep until the next one is (at most an hour).
    private func run() {
        var accountKey: P256Key?
        while !stopping.load(ordering: .acquiring) {
            let now = clock()
            let due = states.withLock { $0.filter { $0.nextAttempt <= now }.map(\.target) }
            for target in due where !stopping.load(ordering: .acquiring) {
                if accountKey == nil {
                    do {
                        try store.prepare()
                        accountKey = try store.accountKey()
                    } catch {
                        fail(target, ACMEError(.transport, error.description), now: clock())
                        continue
                    }
                }
                if let accountKey { process(target, accountKey: accountKey) }
            }
            let next = states.withLock { $0.map(\.nextAttempt).min() } ?? (clock() + 3600)
            let seconds = min(max(next - clock(), 1), 3600)
            _ = wakeup.wait(timeout: .now() + .seconds(seconds))
        }
    }

    /// One due target: under its lock, adopt what another process may have stored, ask the CA's renewal
    /// information when renewal is not yet due, or order.
    private func process(_ target: CertificateTarget, accountKey: P256Key) {
        do {
            try store.withLock(target.name, wait: 0) { () throws(StoreError) in
                var state = states.withLock { list in list.first { $0.target == target } } ?? TargetState(target: target)
                state.waitingForLock = false
                let now = clock()
                // Another process on the same folder may have renewed while this one waited.
                if let stored = store.certificate(target.name), stored.facts.serialHex != state.current?.facts.serialHex,
                   target.hosts.allSatisfy(stored.facts.covers), RenewalSchedule.renewalTime(notBefore: stored.facts.notBefore, notAfter: stored.facts.notAfter) > now {
                    serve(stored, for: &state, source: "stored (renewed by another process)", now: now)
                    save(state)
                    return
                }
                var client = ACMEClient(directoryURL: settings.directory, accountKey: accountKey, fetch: fetcher, hooks: hooks)
                do throws(ACMEError) {
                    if let current = state.current, now < renewalTime(current, state.window) {
                        checkRenewalInfo(&state, current, client: &client, now: now)
                    } else {
                        try order(&state, client: &client)
                    }
                    save(state)
                } catch {
                    save(state)
                    if error.kind != .cancelled { fail(target, error, now: clock()) }
                }
            }
        } catch {
            // The lock is held: another process on this folder is ordering; look again shortly.
            states.withLock { list in
                guard let index = list.firstIndex(where: { $0.target == target }) else { return }
                if !list[index].waitingForLock { Lifecycle.info("ACME: \(error); waiting for it before ordering \(target.name)") }
                list[index].waitingForLock = true
                list[index].nextAttempt = clock() + 5
            }
        }
    }

    /// Orders, stores and serves a new certificate for the state's target.
    private func order(_ state: inout TargetState, client: inout ACMEClient) throws(ACMEError) {
        let target = state.target
        _ = try client.register(email: settings.email, binding: try binding())
        Lifecycle.info("ACME: ordering a certificate for \(target.hosts.joined(separator: ", "))\(state.current == nil ? "" : " (renewal)")")
        let key: P256Key
        do { key = try P256Key.generate() } catch { throw ACMEError(.crypto, error.description) }
        let issued = try client.obtain(hosts: target.hosts, certificateKey: key, replaces: state.current?.facts.renewalInfoID)
        do { try store.store(target.name, key: key.pem, chain: issued.chain) } catch { throw ACMEError(.transport, "the certificate was issued but cannot be stored: \(error)") }
        board.count(.ok)
        state.failures = 0
        state.window = nil
        board.update(target.hosts) { $0.lastError = nil; $0.retryAt = nil }
        serve(StoredCertificate(key: key.pem, chain: issued.chain, facts: issued.facts), for: &state, source: "new", now: clock())
    }

    /// Asks the CA's renewal information (RFC 9773) and moves the renewal to the CA's window when it is
    /// earlier; without ARI at the CA, the next wake is the regular renewal.
    private func checkRenewalInfo(_ state: inout TargetState, _ current: StoredCertificate, client: inout ACMEClient, now: Int) {
        let facts = current.facts
        let regular = RenewalSchedule.renewalTime(notBefore: facts.notBefore, notAfter: facts.notAfter)
        guard let id = facts.renewalInfoID else {
            state.nextAttempt = regular
            return
        }
        do {
            guard let window = try client.renewalWindow(for: id) else {
                state.nextAttempt = regular
                return
            }
            state.window = window
            let renewAt = renewalTime(current, window)
            state.nextAttempt = min(renewAt, window.checkAgain)
            board.update(state.target.hosts) { $0.renewAt = renewAt }
            if renewAt < regular {
                Lifecycle.info("ACME: the CA's renewal information moves the renewal of \(state.target.name) to \(TimeText.format(renewAt)) (window \(TimeText.format(window.start)) to \(TimeText.format(window.end)))")
            }
        } catch {
            Lifecycle.warning("ACME: cannot read the CA's renewal information for \(state.target.name): \(error.message); asking again in an hour")
            state.nextAttempt = min(regular, now + 3600)
        }
    }

    /// When the certificate is due, given the CA's window if one was read; the point in the window is fixed
    /// per window, so repeated looks agree.
    private func renewalTime(_ certificate: StoredCertificate, _ window: RenewalWindow?) -> Int {
        let facts = certificate.facts
        let fraction = Double(UInt64(facts.serialHex.utf8.reduce(UInt64(5381)) { ($0 &* 33) &+ UInt64($1) } % 1000)) / 1000
        return RenewalSchedule.renewalTime(notBefore: facts.notBefore, notAfter: facts.notAfter, window: window, fraction: fraction)
    }

    /// Records a failure: loudly in the log, on the board, counted, and retried after the backoff.
    private func fail(_ target: CertificateTarget, _ error: ACMEError, now: Int) {
        let (failures, hasCertificate) = states.withLock { list -> (Int, Bool) in
            guard let index = list.firstIndex(where: { $0.target == target }) else { return (1, false) }
            list[index].failures += 1
            let delay = RenewalSchedule.retryDelay(failures: list[index].failures, retryAfter: error.retryAfter)
            list[index].nextAttempt = now + delay
            return (list[index].failures, list[index].current.map { $0.facts.notAfter > now } ?? false)
        }
        let delay = RenewalSchedule.retryDelay(failures: failures, retryAfter: error.retryAfter)
        board.count(error.kind == .rateLimited ? .rateLimited : .failed)
        board.update(target.hosts) { entry in
            entry.lastError = error.message
            entry.retryAt = now + delay
        }
        let state = hasCertificate ? "the current certificate keeps serving" : "HTTPS has NO valid certificate for these hosts; HTTP keeps serving"
        let wait = error.retryAfter.map { $0 >= delay ? " (the CA's Retry-After)" : "" } ?? ""
        Lifecycle.error("ACME: the order for \(target.hosts.joined(separator: ", ")) failed (\(failures) in a row): \(error.message); \(state); next try in \(delay) s\(wait)")
    }

    private func save(_ state: TargetState) {
        states.withLock { list in
            if let index = list.firstIndex(where: { $0.target == state.target }) { list[index] = state }
        }
    }

    private func binding() throws(ACMEError) -> (keyID: String, macKey: [UInt8])? {
        guard let binding = settings.externalAccountBinding else { return nil }
        guard let key = Base64URL.decode(binding.hmacKey) else { throw ACMEError(.crypto, "server.tls.acme.externalAccountBinding.hmacKey is not base64url") }
        return (binding.keyID, key)
    }

    private var fetcher: Fetcher { HTTPClient(timeoutSeconds: 15, maximumResponseSize: ACMEConnection.maximumAnswerSize + 16 * 1024, caFile: settings.caFile).fetcher }

    private var hooks: ACMEHooks {
        let challenges = self.challenges
        let clock = self.clock
        return ACMEHooks(
            publish: { token, answer in challenges.set(token, answer) },
            wait: { [self] seconds in
                _ = wakeup.wait(timeout: .now() + .milliseconds(Int(seconds * 1000)))
                return !stopping.load(ordering: .acquiring)
            },
            log: { Lifecycle.info("ACME: \($0)") },
            now: clock)
    }
}
