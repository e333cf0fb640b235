import Dispatch
import Synchronization
import LinkHostCore
import LinkHostCrypto
import LinkHostHTTPClient
import LinkHostJSON

#if canImport(Glibc)
import Glibc
#endif

/// What `linkhost check` is asked to verify.
package struct DeploymentCheckOptions: Sendable {
    /// The user agent of Apple's CDN fetcher, which some firewalls and bot filters treat differently.
    package static let appleUserAgent = "AASA-Bot/1.0.0"
    /// The user agent Android's App Links verifier sends for assetlinks.json: AOSP's StatementService fetches
    /// it with `HttpsURLConnection` and sets no `User-Agent` (`UrlFetcher.fetch`), so the request carries the
    /// process's `http.agent`, which `RuntimeInit.getDefaultUserAgent` makes `Dalvik/<java.vm.version>
    /// (Linux; U; Android <release>; <model> Build/<id>)`, ART's version being `2.1.0`
    /// (`Runtime::GetVersion`). The release, model and build vary by device; a filter that blocks Dalvik
    /// agents blocks verification on every one of them.
    package static let androidUserAgent = "Dalvik/2.1.0 (Linux; U; Android 15; Pixel 9 Build/AP4A.250105.002)"
    /// Where Apple's CDN serves its copy of a domain's AASA; the host name is appended.
    package static let appleCDNBase = "https://app-site-association.cdn-apple.com/a/v1/"

    /// The deployment.
    package var origin: FetchOrigin
    /// The `User-Agent` sent for the AASA (and Apple's CDN copy).
    package var userAgent: String
    /// The `User-Agent` sent for assetlinks.json.
    package var assetLinksUserAgent: String
    /// Whether to also fetch Apple's CDN copy and compare it.
    package var checkCDN: Bool
    /// The CDN prefix the host name is appended to (tests point it at a local server).
    package var cdnBase: String
    /// The AASA the config generates for this host's site, when a config was given: the served one must match.
    package var expectedAASA: [UInt8]?
    /// The assetlinks.json the config generates for this host's site, likewise.
    package var expectedAssetLinks: [UInt8]?
    /// What the host's live files must do for the config's apps (each app opens, each Android app verifies).
    package var expectations: HostExpectations?
    /// Unix seconds to judge certificate expiry against; nil is the system clock (tests fix it).
    package var now: Int?
    /// How long the host's whole exchange may take (`check --timeout`), connect to last byte: every request
    /// made for the host (the AASA, its HEAD and root copy, assetlinks.json and its HEAD, Apple's CDN copy)
    /// spends from it, so a host that answers some and trickles others costs this, not this per request.
    /// What is left when it runs out is not sent, and named (LH501). Nil: each request has only the
    /// fetcher's own timeout.
    package var timeout: Duration?
    /// A certificate expiring sooner than this many days is a warning (LH512).
    package static let expiryWarningDays = 14

    /// Makes options; `userAgent` is sent for every file, nil sends each file's fetcher's (Apple's for the
    /// AASA, Android's for assetlinks.json).
    package init(origin: FetchOrigin, userAgent: String? = nil, checkCDN: Bool = false, cdnBase: String = appleCDNBase) {
        self.origin = origin
        self.userAgent = userAgent ?? Self.appleUserAgent
        self.assetLinksUserAgent = userAgent ?? Self.androidUserAgent
        self.checkCDN = checkCDN
        self.cdnBase = cdnBase
    }
}

/// Checks a live deployment the way Apple's and Google's fetchers see it.
package enum DeploymentCheck {
    /// Runs every check with `fetch` (the real client, or canned responses in tests); `lint` is shared by
    /// the hosts of one run, so files of one rule set are linted once.
    package static func run(_ options: DeploymentCheckOptions, lint: ServedAASALint = ServedAASALint(), fetch: @escaping Fetcher) -> DeploymentReport {
        var run = DeploymentCheckRun(options: options, fetch: fetch, lint: lint)
        run.checkAASA()
        if !run.unreachable { run.checkAssetLinks() }
        if options.checkCDN { run.checkCDN() }
        run.reportUnsent()
        return DeploymentReport(target: options.origin.description, userAgent: options.userAgent, assetLinksUserAgent: options.assetLinksUserAgent,
                                requests: run.records, diagnostics: run.diagnostics, certificate: run.certificate, unreachable: run.outage)
    }

    /// How many hosts `check` has in flight at once: each is one connection at a time, and a fleet's hosts
    /// are mostly waiting on the network (five requests of a few round trips each), so 16 keep a
    /// thousand hosts within a minute while a linkhost in front of them sees at most 16 connections.
    package static let width = 16

    /// Runs the checks of several hosts at the same time, at most `width` at once (each on a thread of
    /// Dispatch's, blocked on its socket), so a host that hangs costs its own timeout, not everyone's: with
    /// each host's `timeout`, all of them end within about ⌈count / width⌉ × timeout. The reports come back
    /// in the order of `checks`, whatever order they finish in.
    package static func runAll(_ checks: [DeploymentCheckOptions], width: Int = width, fetch: @escaping Fetcher) -> [DeploymentReport] {
        let results = ReportSlots(count: checks.count)
        let slots = DispatchSemaphore(value: max(1, width))
        let group = DispatchGroup()
        let queue = DispatchQueue(label: "linkhost.check", attributes: .concurrent)
        let lint = ServedAASALint()
        for (index, options) in checks.enumerated() {
            slots.wait()
            queue.async(group: group) {
                let report = run(options, lint: lint, fetch: fetch)
                results.slots.withLock { $0[index] = report }
                slots.signal()
            }
        }
        group.wait()
        return results.slots.withLock { $0.compactMap { $0 } }
    }
}

/// The reports of `runAll`, filled from several threads.
private final class ReportSlots: Sendable {
    let slots: Mutex<[DeploymentReport?]>

    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }
}

/// One run of the deployment checks, collecting requests made and problems found.
struct DeploymentCheckRun {
    let options: DeploymentCheckOptions
    let fetch: Fetcher
    /// The AASA lint shared by the hosts of the run.
    let lint: ServedAASALint
    private(set) var records: [FetchRecord] = []
    private(set) var diagnostics: [LintDiagnostic] = []
    /// The origin could not be reached at all; further requests would only repeat the error.
    private(set) var unreachable = false
    /// Nothing answered: the name did not resolve, no connection, or silence until the timeout. A TLS
    /// failure is an answer (a wrong certificate is a broken deploy, not an outage).
    private(set) var outage = false
    /// The AASA bytes the origin served, to compare with the CDN's copy.
    private var originAASA: [UInt8]?
    /// The AASA answered 404 on a host whose site the config gives no iOS app or clip: as meant, so there
    /// is no copy for Apple's CDN to hold either.
    private var aasaAbsentAsConfigured = false
    /// The certificate the origin presented over HTTPS.
    private(set) var certificate: CertificateFacts?
    /// What is left of the host's `options.timeout`: each request may take at most this (its deadline), and
    /// what it took is spent. Only time spent on the host's requests counts, not linkhost's own work on the
    /// answers between them, so a busy machine does not fail a host that answered in time; nil: no limit.
    private var timeLeft: Duration?
    /// The requests not sent because `timeLeft` had run out, as `METHOD path-or-URL`.
    private var unsent: [String] = []

    init(options: DeploymentCheckOptions, fetch: @escaping Fetcher, lint: ServedAASALint) {
        self.options = options
        self.fetch = fetch
        self.lint = lint
        timeLeft = options.timeout
    }

    /// The host's time budget in words, for messages: `2 s`.
    private var budget: String {
        guard let timeout = options.timeout else { return "" }
        let (seconds, attoseconds) = timeout.components
        return attoseconds == 0 ? "\(seconds) s" : "\(seconds).\(attoseconds / 100_000_000_000_000_000) s"
    }

    /// One LH501 naming every request the host's timeout left unsent, so the report says what was not checked.
    mutating func reportUnsent() {
        guard !unsent.isEmpty else { return }
        add(.lh501, .error, options.origin.description,
            "not checked, as the host's --timeout of \(budget), shared by all its requests, ran out first: " + unsent.joined(separator: ", "))
    }

    private mutating func add(_ code: LintCode, _ severity: ConfigDiagnostic.Severity, _ path: String, _ message: String) {
        diagnostics.append(LintDiagnostic(code, severity, path: path, message))
    }

    /// Sends one request, records it, and turns a transport failure into LH501/LH502.
    private mutating func request(_ method: String, _ path: String, origin: FetchOrigin? = nil, userAgent: String? = nil) -> FetchedResponse? {
        let started = ContinuousClock.now
        let request = FetchRequest(method: method, origin: origin ?? options.origin, path: path, userAgent: userAgent ?? options.userAgent,
                                   timeAllowed: timeLeft)
        if let timeLeft, timeLeft <= .zero {
            records.append(FetchRecord(method: method, url: request.url, error: "not sent: the host's --timeout of \(budget) had run out"))
            unsent.append("\(method) \(origin == nil ? path : request.url)")
            return nil
        }
        let result = fetch(request)
        timeLeft = timeLeft.map { $0 - started.duration(to: .now) }
        switch result {
        case .success(let response):
            records.append(FetchRecord(method: method, url: request.url, response: response))
            return response
        case .failure(let error):
            records.append(FetchRecord(method: method, url: request.url, error: error.message))
            var message = error.message
            // The request's deadline was what was left of the host's: timing out means it is spent, even when
            // the clock read after the fetch (whose waits round down to whole milliseconds) shows a sliver left,
            // which would send the next request with nothing to spend and report it as a failure of its own.
            if error.kind == .timeout, timeLeft != nil { timeLeft = .zero }
            if error.kind == .timeout, let timeLeft, timeLeft <= .zero {
                message = "\(method) cut off: \(message); the host's --timeout of \(budget), shared by all its requests, ran out"
            }
            let code: LintCode = switch error.kind {
            case .certificate, .trustStore: .lh502
            // Larger than the client reads is far larger than Apple's 128 KB.
            case .tooLarge: .lh110
            default: .lh501
            }
            add(code, .error, origin == nil ? path : request.url, message)
            // When the very first request cannot connect, every other one would only repeat the error.
            if origin == nil && records.count == 1 && error.kind != .protocolError && error.kind != .tooLarge {
                unreachable = true
                outage = [.resolve, .connect, .timeout].contains(error.kind)
            }
            return nil
        }
    }

    /// `/.well-known/apple-app-site-association`: 200, JSON, ≤ 128 KB, lint-clean, same over HEAD, root copy identical.
    mutating func checkAASA() {
        let path = Site.aasaPaths[0]
        guard let response = request("GET", path) else { return }
        checkCertificate(response)
        if response.status == 404 || response.status == 410, options.expectations?.expectsNoAASA == true {
            aasaAbsentAsConfigured = true
            return
        }
        guard expectOK(response, path, severity: .error) else { return }
        expectJSONType(response, path, severity: .error)
        originAASA = response.body
        compareWithConfig(response.body, expected: options.expectedAASA, path)
        diagnostics += lint.diagnostics(bytes: response.body).map { located($0, under: path) }
        decideIOSApps(response.body, path)
        compareHead(with: response, path)

        let rootPath = Site.aasaPaths[1]
        guard let root = request("GET", rootPath), root.status != 404, root.status != 410 else { return }
        // Only iOS 9 read the root path; problems there are worth fixing but do not break current devices.
        guard expectOK(root, rootPath, severity: .warning) else { return }
        expectJSONType(root, rootPath, severity: .warning)
        if root.body != response.body {
            add(.lh506, .error, rootPath, "differs from \(path) (\(root.body.count) vs \(response.body.count) bytes); devices reading one and the other would disagree")
        }
    }

    /// `/.well-known/assetlinks.json`: 200, JSON, valid statements, same over HEAD.
    mutating func checkAssetLinks() {
        let path = Site.assetLinksPath
        let agent = options.assetLinksUserAgent
        guard let response = request("GET", path, userAgent: agent) else { return }
        if response.status == 404 {
            if let expectations = options.expectations {
                // A site without Android apps serves no assetlinks.json on purpose.
                guard !expectations.androidApps.isEmpty else { return }
                let packages = expectations.androidApps.map(\.packageName).joined(separator: ", ")
                add(.lh510, .error, path, "answers 404, but the config gives \(expectations.siteName) the Android app\(expectations.androidApps.count == 1 ? "" : "s") \(packages): App Links cannot verify for \(expectations.androidApps.count == 1 ? "it" : "them")")
            } else {
                add(.lh510, .warning, path, "answers 404, so Android App Links cannot verify on this domain (fine if it has no Android app)")
            }
            return
        }
        guard expectOK(response, path, severity: .error) else { return }
        expectJSONType(response, path, severity: .error)
        compareWithConfig(response.body, expected: options.expectedAssetLinks, path)
        diagnostics += AssetLinksLinter.diagnostics(bytes: response.body).map { located($0, under: path) }
        if let expectations = options.expectations, let statements = try? JSONParser.parse(response.body) {
            for finding in expectations.androidFindings(assetLinks: statements, domain: options.origin.authority) {
                add(finding.code, .error, path, finding.message)
            }
        }
        compareHead(with: response, path, userAgent: agent)
    }

    /// Apple's CDN copy: fetched, without failure headers, and the same as the origin's.
    mutating func checkCDN() {
        guard !aasaAbsentAsConfigured else { return }
        let url = options.cdnBase + options.origin.bareHost
        guard let origin = FetchOrigin(url: url), let split = try? SplitURL(url) else {
            add(.lh501, .error, url, "is not a URL the CDN can be fetched from")
            return
        }
        let target = split.path + (split.query.map { "?" + $0 } ?? "")
        guard let response = request("GET", target, origin: origin) else { return }
        let reason = response.header("Apple-Failure-Reason")
        let details = response.header("Apple-Failure-Details")
        if reason != nil || details != nil {
            let text = [reason, details].compactMap { $0 }.joined(separator: ": ")
            add(.lh509, .error, url, "Apple's CDN could not fetch the AASA from the origin (HTTP \(response.status)): \(text)")
            return
        }
        guard response.status == 200 else {
            add(.lh509, .error, url, "Apple's CDN answers \(response.status), so devices get no AASA for this domain")
            return
        }
        guard let originAASA else { return }
        if response.body != originAASA {
            let where_ = CopyDifference.describe(copy: response.body, original: originAASA, originalName: "the origin's").map { ": " + $0 } ?? ""
            add(.lh508, .warning, url, "Apple's CDN serves \(response.body.count) bytes that differ from the origin's \(originAASA.count)\(where_); devices get the CDN's copy until it refreshes")
        }
    }

    /// Reads the certificate the origin presented; LH512 when it expires within two weeks.
    private mutating func checkCertificate(_ response: FetchedResponse) {
        guard let chain = response.peerCertificates, let facts = CertificateFacts(pem: chain) else { return }
        certificate = facts
        let now = options.now ?? Int(time(nil))
        let left = facts.notAfter - now
        guard left < DeploymentCheckOptions.expiryWarningDays * 86_400 else { return }
        let when = left <= 0 ? "expired at \(TimeText.format(facts.notAfter))" : "expires at \(TimeText.format(facts.notAfter)), in \(left / 86_400) days \(left % 86_400 / 3600) hours"
        add(.lh512, .warning, options.origin.description, "the TLS certificate (issuer \(facts.issuer)) \(when); devices stop fetching the association files once it has expired")
    }

    /// Status 200, or LH503 for a redirect and LH504 for anything else; false when the body is not the file.
    private mutating func expectOK(_ response: FetchedResponse, _ path: String, severity: ConfigDiagnostic.Severity) -> Bool {
        if (300...399).contains(response.status) {
            let target = response.header("Location").map { " to \($0)" } ?? ""
            add(.lh503, severity, path, "answers \(response.status), redirecting\(target); Apple's and Google's fetchers follow no redirects, so they get no file")
            return false
        }
        guard response.status == 200 else {
            add(.lh504, severity, path, "answers \(response.status) \(response.reason), not 200")
            return false
        }
        return true
    }

    private mutating func expectJSONType(_ response: FetchedResponse, _ path: String, severity: ConfigDiagnostic.Severity) {
        guard response.mediaType != "application/json" else { return }
        let found = response.header("Content-Type").map { "is served as \"\($0)\"" } ?? "is served without a Content-Type"
        add(.lh505, severity, path, "\(found), not application/json")
    }

    /// LH511 when the deployment serves another file than the config generates for the host's site: an old
    /// deploy, another server in front, or the wrong site for the host. A warning, naming where the two
    /// differ: whether the difference matters to an app is decided by LH513–LH516.
    private mutating func compareWithConfig(_ served: [UInt8], expected: [UInt8]?, _ path: String) {
        guard let expected, served != expected else { return }
        let where_ = CopyDifference.describe(copy: served, original: expected, originalName: "the config's").map { "; " + $0 } ?? ""
        add(.lh511, .warning, path, "differs from the file the config generates for this host (\(served.count) vs \(expected.count) bytes)\(where_): an older deploy, a proxy's copy, or the host served by another site")
    }

    /// LH513 for each iOS app of the host's site that the live AASA would not open for a call link of one of
    /// the site's templates, LH516 for each App Clip of the config it does not list.
    private mutating func decideIOSApps(_ served: [UInt8], _ path: String) {
        guard let expectations = options.expectations, let document = try? JSONParser.parse(served) else { return }
        for finding in expectations.iosFindings(aasa: document, domain: options.origin.authority) {
            add(finding.code, .error, path, finding.message)
        }
    }

    /// HEAD must agree with GET: same status, Content-Type and length.
    private mutating func compareHead(with get: FetchedResponse, _ path: String, userAgent: String? = nil) {
        guard let head = request("HEAD", path, userAgent: userAgent) else { return }
        var differences: [String] = []
        if head.status != get.status { differences.append("status \(head.status) instead of \(get.status)") }
        if head.header("Content-Type") != get.header("Content-Type") {
            differences.append("Content-Type \(head.header("Content-Type").map { "\"\($0)\"" } ?? "none") instead of \(get.header("Content-Type").map { "\"\($0)\"" } ?? "none")")
        }
        let headLength = head.header("Content-Length").flatMap { Int(HTTPResponseParser.trim(Substring($0))) }
        if let headLength, headLength != get.body.count {
            differences.append("Content-Length \(headLength) instead of \(get.body.count)")
        } else if headLength == nil && get.header("Content-Length") != nil {
            differences.append("no Content-Length, while GET sends \(get.body.count)")
        }
        guard !differences.isEmpty else { return }
        add(.lh507, .error, path, "HEAD answers " + differences.joined(separator: ", ") + "; fetchers and caches that probe with HEAD see another file")
    }

    /// A diagnostic about a served document, located as `URL-path#JSON-path`.
    private func located(_ diagnostic: LintDiagnostic, under path: String) -> LintDiagnostic {
        diagnostic.relocated(to: diagnostic.path.isEmpty ? path : "\(path)#\(diagnostic.path)")
    }
}
