import CTestSupport
import Foundation
import Synchronization
import Testing

/// The requests an attacker writes, sent as raw bytes: every row of `HostileExpectations.tsv` must get
/// exactly its recorded outcome, and on top of that no response may leak a file from outside
/// `public/`, reflect an injected marker or carry a header the server never sets, and the server must
/// answer a plain health probe after each case.
///
/// Re-recording: `HOSTILE_RECORD=/tmp/table.tsv swift test --filter HostileRequestTests` writes the
/// table with the outcomes this run got (rows that matched are left as written) and does not fail on
/// differences; review every changed row by hand before copying it over the committed table.
@Suite("Hostile requests", .timeLimit(.minutes(2)))
struct HostileRequestTests {
    /// Text no response may contain, whatever the request: content from outside `public/`, the fixture's
    /// folder (the config names it, so it shows up only if the config or a disk path leaks), the raw page
    /// template, and the marker every injection case carries (compared case-insensitively).
    static let forbidden: [(what: String, text: String)] = [
        ("the secret file beside public/", SiteFixture.outsideSecret),
        ("the hidden dotfile inside public/", SiteFixture.hiddenSecret),
        ("the fixture's folder path (config contents or a disk path)", "linkhost-integ-"),
        ("raw page-template markup", "{{"),
        ("an injected marker", "evilmark"),
    ]

    /// Every header name linkhost or libmicrohttpd ever sends (lowercased); anything else in a response
    /// came from the request.
    static let allowedHeaders: Set<String> = [
        "date", "connection", "content-length", "content-type", "content-language", "server", "cache-control", "etag", "vary",
        "x-content-type-options", "x-robots-tag", "content-security-policy", "referrer-policy",
        "x-frame-options", "allow",
    ]

    /// Cases run at once, each on its own connection: enough to finish in seconds, far below the
    /// per-IP limit (256), and cases never share a connection, so they cannot disturb each other.
    static let width = 16

    @Test("Every row of HostileExpectations.tsv gets its outcome; nothing leaks or is reflected; the server stays up")
    func expectedResultsTable() async throws {
        let tableText = try String(contentsOfFile: HostileTable.path, encoding: .utf8)
        let cases = try HostileTable.load(tableText)
        #expect(cases.count >= 100, "the table should hold the full hostile catalogue, found \(cases.count) rows")
        let server = try await LinkHostProcess.start(SiteFixture())
        let library = try await LibrarySeries.of(server)
        let series = library.series
        let tags = try await Self.knownBodies(server)
        let recordPath = ProcessInfo.processInfo.environment["HOSTILE_RECORD"].flatMap { $0.isEmpty ? nil : $0 }
        var timing = HostileTiming()
        if recordPath != nil {
            // Recording knows nothing in advance: wait long enough for any answer or close to show.
            timing.noResponse = .seconds(3)
            timing.settle = .seconds(1)
        }
        let (host, port, waits) = (server.host, server.port, timing)
        let started = ContinuousClock.now

        let results = await onThreads(cases, width: Self.width) { testCase in
            CaseResult(testCase: testCase, host: host, port: port, tags: tags, timing: waits)
        }

        var differing: [String: HostileOutcome] = [:]
        var knownIssues = 0
        for result in results {
            let testCase = result.testCase
            let label = "\(testCase.id) (line \(testCase.line))"
            guard let exchange = result.exchange else {
                Issue.record("\(label): the exchange failed: \(result.error ?? "?")")
                continue
            }
            let got = exchange.outcome.text
            let correct = testCase.correct(on: series)
            if let known = testCase.knownDefects(on: series).first(where: { $0.outcome == got }) {
                // A defect the server cannot fix on its own (see docs/hardening.md): shown, not failed.
                // When it goes away the row no longer matches `known` and simply passes on its correct outcome.
                knownIssues += 1
                withKnownIssue("\(label): known defect \(known.id) of \(library)") {
                    Issue.record("\(label) got \(got) (known defect \(known.id)); correct: \(correct.joined(separator: " | "))")
                }
            } else if !correct.contains(got) {
                differing[testCase.id] = exchange.outcome
                if recordPath == nil {
                    Issue.record("""
                        \(label): expected \(correct.joined(separator: " | ")) on \(library), got \(got)
                        request: \(testCase.source)
                        note: \(testCase.note)
                        sent: \(exchange.sendError ?? "all \(testCase.bytes.count) bytes")
                        received: \(Self.show(exchange.received))
                        """)
                }
            }
            let lowered = String(decoding: exchange.received, as: UTF8.self).lowercased()
            for (what, text) in Self.forbidden where lowered.contains(text.lowercased()) {
                Issue.record("\(label): a response contains \(what) (\"\(text)\"): \(Self.show(exchange.received))")
            }
            for response in exchange.responses {
                let unknown = response.headers.map { $0.name.lowercased() }.filter { !Self.allowedHeaders.contains($0) }
                #expect(unknown.isEmpty, "\(label): response headers the server never sets: \(unknown) in \(response)")
            }
            if let health = result.healthError {
                Issue.record("\(label): the server did not answer GET /healthz afterwards: \(health)")
            }
        }
        let elapsed = ContinuousClock.now - started

        #expect(server.isRunning, "the server died during the table: \(server.stderr)")
        // The access log is JSON lines on stdout: hostile paths and headers must never break a line. Every line
        // is out once a later request's line is (the log is written in order): no sleep for the flusher.
        try await server.flushAccessLog()
        let logLines = server.stdout.split(separator: "\n").dropFirst()
        for line in logLines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "an access-log line is not JSON: \(line)")
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "a raw control character reached the access log: \(line)")
        }
        #expect(logLines.count >= cases.count, "the access log holds \(logLines.count) lines for \(cases.count) cases and as many health probes")
        #expect(!server.stderr.localizedCaseInsensitiveContains("fatal"), "\(server.stderr)")

        print("hostile table (\(library)): \(cases.count) cases, \(cases.count - differing.count - knownIssues) as expected, \(knownIssues) known issues, \(differing.count) different, in \(elapsed)")
        if let recordPath {
            try HostileTable.rewrite(tableText, outcomes: differing, series: series).write(toFile: recordPath, atomically: true, encoding: .utf8)
            print("hostile table: wrote this run's outcomes to \(recordPath); \(differing.count) rows changed: \(differing.keys.sorted().joined(separator: ", "))")
        }
    }

    /// The bodies of the plain documents, so each response in the table is named by what it is.
    static func knownBodies(_ server: LinkHostProcess) async throws -> HostileExchange.BodyTags {
        let documents: [(String, String, String)] = [
            ("aasa", "GET", "/.well-known/apple-app-site-association"), ("assetlinks", "GET", "/.well-known/assetlinks.json"),
            ("style", "GET", "/style.css"), ("index", "GET", "/"), ("sub", "GET", "/sub/"), ("space", "GET", "/a%20b.txt"),
            ("health", "GET", "/healthz"), ("notfound", "GET", "/no-such-page"), ("notallowed", "POST", "/style.css"),
        ]
        var tags: HostileExchange.BodyTags = []
        for (tag, method, path) in documents {
            let response = try await server.request(method, path)
            #expect(!response.body.isEmpty, "\(method) \(path) has an empty body, so it cannot name responses: \(response)")
            #expect(!tags.contains { $0.body == response.body }, "\(path) has the same body as another known document")
            tags.append((tag, response.body))
        }
        return tags
    }

    /// Bytes as readable text: printable ASCII as is, everything else escaped.
    static func show(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "nothing" }
        var text = ""
        for byte in bytes.prefix(700) {
            switch byte {
            case 13: text += "\\r"
            case 10: text += "\\n\n"
            case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return "\"" + text + (bytes.count > 700 ? "\"… (\(bytes.count) bytes)" : "\"")
    }
}

/// What one case produced, and whether the server still answered afterwards.
struct CaseResult: Sendable {
    let testCase: HostileCase
    var exchange: HostileExchangeResult?
    var error: String?
    var healthError: String?

    /// Runs the case on a fresh connection, then probes `/healthz` on another. Blocking: made inside `onThreads`.
    init(testCase: HostileCase, host: String, port: Int, tags: HostileExchange.BodyTags, timing: HostileTiming) {
        self.testCase = testCase
        do {
            exchange = try HostileExchange.run(testCase, host: host, port: port, tags: tags, timing: timing)
        } catch {
            self.error = "\(error)"
        }
        do {
            let health = try RawHTTPClient(host: host, port: port).request("GET", "/healthz")
            if health.status != 200 || !health.text.hasPrefix("ok\n") { healthError = "\(health)" }
        } catch {
            healthError = "\(error)"
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
