import LinkHostCore
import LinkHostCrypto
import LinkHostHTTPClient
import LinkHostJSON

/// One request `check` made and what came back, for the report.
package struct FetchRecord: Sendable, Equatable {
    /// `GET` or `HEAD`.
    package let method: String
    /// The full URL.
    package let url: String
    /// The status, or nil when no response came.
    package let status: Int?
    /// The `Content-Type` header as sent.
    package let contentType: String?
    /// The body's length for GET, the `Content-Length` header for HEAD.
    package let length: Int?
    /// Why no response came.
    package let error: String?

    /// Records a response.
    package init(method: String, url: String, response: FetchedResponse) {
        self.method = method
        self.url = url
        status = response.status
        contentType = response.header("Content-Type")
        length = method == "HEAD" ? response.header("Content-Length").flatMap { Int(HTTPResponseParser.trim(Substring($0))) } : response.body.count
        error = nil
    }

    /// Records a failed request.
    package init(method: String, url: String, error: String) {
        self.method = method
        self.url = url
        status = nil
        contentType = nil
        length = nil
        self.error = error
    }

    /// `GET  https://host/path: 200, application/json, 412 bytes`.
    package var line: String {
        let verb = method.count < 4 ? method + " " : method
        guard let status else { return "\(verb) \(url): no response (\(error ?? "failed"))" }
        var parts = ["\(status)", contentType ?? "no Content-Type"]
        if let length { parts.append(method == "HEAD" ? "Content-Length \(length)" : "\(length) bytes") }
        return "\(verb) \(url): " + parts.joined(separator: ", ")
    }

    /// The record as JSON, members in a fixed order.
    package var json: JSONValue {
        var object = JSONObject([JSONMember("method", .string(method)), JSONMember("url", .string(url))])
        if let status { object.append("status", .number(JSONNumber(status))) }
        if let contentType { object.append("contentType", .string(contentType)) }
        if let length { object.append("length", .number(JSONNumber(length))) }
        if let error { object.append("error", .string(error)) }
        return .object(object)
    }
}

/// What `check` found: the requests made and the problems, with renderings for people and CI.
package struct DeploymentReport: Sendable, Equatable {
    /// The origin checked.
    package let target: String
    /// The user agent sent for the AASA (and Apple's CDN copy).
    package let userAgent: String
    /// The user agent sent for assetlinks.json.
    package let assetLinksUserAgent: String
    /// Every request, in order.
    package let requests: [FetchRecord]
    /// Every problem, in order found.
    package let diagnostics: [LintDiagnostic]
    /// The certificate the origin presented, over HTTPS.
    package let certificate: CertificateFacts?
    /// True when nothing answered at all (no name, no connection, or silence until the timeout).
    package let unreachable: Bool

    /// Makes a report.
    package init(target: String, userAgent: String, assetLinksUserAgent: String? = nil, requests: [FetchRecord], diagnostics: [LintDiagnostic],
                certificate: CertificateFacts? = nil, unreachable: Bool = false) {
        self.target = target
        self.userAgent = userAgent
        self.assetLinksUserAgent = assetLinksUserAgent ?? userAgent
        self.requests = requests
        self.diagnostics = diagnostics
        self.certificate = certificate
        self.unreachable = unreachable
    }

    /// `certificate: issuer CN=R11,…, valid until 2026-03-01T00:00:00Z, names a.example.com, b.example.com`.
    package var certificateLine: String? {
        guard let certificate else { return nil }
        let names = certificate.names.isEmpty ? "no DNS names" : "names " + certificate.names.joined(separator: ", ")
        return "certificate: issuer \(certificate.issuer), valid until \(TimeText.format(certificate.notAfter)), \(names)"
    }

    /// True when no problem is an error.
    package var passed: Bool { !diagnostics.contains { $0.severity == .error } }

    /// The codes found, for tests.
    package var codes: [LintCode] { diagnostics.map(\.code) }

    /// The report for people: the requests, a verdict, then one problem per line, errors first.
    package var humanText: String { humanText(certificateShownBefore: nil) }

    /// Several reports for people, one after the other; a certificate shared by several hosts (one with many
    /// names) has its line once, and later hosts name the first that showed it.
    package static func humanText(of reports: [DeploymentReport]) -> String {
        var shown: [CertificateFacts: String] = [:]
        return reports.map { report in
            let earlier = report.certificate.flatMap { shown[$0] }
            if let certificate = report.certificate, earlier == nil { shown[certificate] = report.target }
            return report.humanText(certificateShownBefore: earlier)
        }.joined(separator: "\n")
    }

    private func humanText(certificateShownBefore earlier: String?) -> String {
        let agents = assetLinksUserAgent == userAgent ? "\"\(userAgent)\"" : "\"\(userAgent)\", assetlinks.json as \"\(assetLinksUserAgent)\""
        var lines = ["Checking \(target) as \(agents)"]
        lines += requests.map { "  " + $0.line }
        if let earlier {
            lines.append("  certificate: the one shown for \(earlier)")
        } else if let certificateLine {
            lines.append("  " + certificateLine)
        }
        let report = LintReport(source: target, diagnostics: diagnostics)
        let counts = report.counts
        lines.append(passed
            ? "\(target): passed" + (counts.isEmpty ? "" : " with \(counts)")
            : "\(target): failed with \(counts)")
        lines += (report.errors + report.warnings).map { "  " + $0.description }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{"target", "userAgent", "assetLinksUserAgent", "passed", "requests": […], "diagnostics": [{"code", "severity", "path", "message"}]}`.
    package var jsonText: String {
        JSONWriter.string(json, style: .pretty)
    }

    /// Several reports as one JSON array, for a check of several deployments.
    package static func jsonText(of reports: [DeploymentReport]) -> String {
        JSONWriter.string(.array(reports.map(\.json)), style: .pretty)
    }

    /// The report as a JSON object.
    package var json: JSONValue {
        var object = JSONObject([
            JSONMember("target", .string(target)),
            JSONMember("userAgent", .string(userAgent)),
            JSONMember("assetLinksUserAgent", .string(assetLinksUserAgent)),
            JSONMember("passed", .bool(passed)),
            JSONMember("requests", .array(requests.map(\.json))),
        ])
        if let certificate {
            object.append("certificate", .object(JSONObject([
                JSONMember("issuer", .string(certificate.issuer)),
                JSONMember("notBefore", .string(TimeText.format(certificate.notBefore))),
                JSONMember("notAfter", .string(TimeText.format(certificate.notAfter))),
                JSONMember("names", .array(certificate.names.map { .string($0) })),
            ])))
        }
        object.append("diagnostics", .array(diagnostics.map(\.json)))
        return .object(object)
    }
}

/// The outcome of a whole `check` run: one line for people and alerts, and the exit code.
package struct DeploymentSummary: Sendable {
    /// Hosts whose every check passed.
    package let passed: [String]
    /// Hosts that answered, with a check that failed.
    package let failed: [String]
    /// Hosts that could not be reached.
    package let unreachable: [String]
    /// Warnings over every host.
    package let warnings: Int

    /// Sums up `reports`.
    package init(_ reports: [DeploymentReport]) {
        unreachable = reports.filter(\.unreachable).map(\.target)
        failed = reports.filter { !$0.unreachable && !$0.passed }.map(\.target)
        passed = reports.filter { !$0.unreachable && $0.passed }.map(\.target)
        warnings = reports.reduce(0) { $0 + $1.diagnostics.filter { $0.severity == .warning }.count }
    }

    /// 0 all passed, 1 a check failed on a host that answered, 3 only unreachable hosts (README, `check --help`).
    package var exitCode: Int32 { !failed.isEmpty ? 1 : !unreachable.isEmpty ? 3 : 0 }

    /// `check: 25 hosts, 23 passed, 1 failed (a.example), 1 unreachable (b.example); 4 warnings`.
    package var line: String {
        let total = passed.count + failed.count + unreachable.count
        var parts = ["\(passed.count) passed"]
        if !failed.isEmpty { parts.append("\(failed.count) failed (\(Self.names(failed)))") }
        if !unreachable.isEmpty { parts.append("\(unreachable.count) unreachable (\(Self.names(unreachable)))") }
        return "check: \(total) host\(total == 1 ? "" : "s"), " + parts.joined(separator: ", ") + "; \(warnings) warning\(warnings == 1 ? "" : "s")"
    }

    private static func names(_ targets: [String]) -> String {
        targets.count <= 10 ? targets.joined(separator: ", ") : targets.prefix(10).joined(separator: ", ") + " and \(targets.count - 10) more"
    }
}
