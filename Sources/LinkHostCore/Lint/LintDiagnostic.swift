import LinkHostJSON

/// One problem the linter or the deployment check found: a stable code, a severity, where, and what.
public struct LintDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The stable code, e.g. `LH101`.
    public let code: LintCode
    /// Errors fail `validate` (exit 2) and `check` (exit 1); warnings are reported only.
    public let severity: ConfigDiagnostic.Severity
    /// Where: a JSON path in the config or file (`apps[0].teamID`), or a URL path for `check`.
    public let path: String
    /// What was found and why it matters.
    public let message: String
    /// The site (`sites[6]`) whose check found it, when `path` is a setting it inherits from the top level:
    /// so the same mistake found in many sites is grouped as one line naming them.
    public let sitePath: String?

    /// Makes a diagnostic.
    public init(_ code: LintCode, _ severity: ConfigDiagnostic.Severity, path: String, _ message: String, sitePath: String? = nil) {
        self.code = code
        self.severity = severity
        self.path = path
        self.message = message
        self.sitePath = sitePath
    }

    /// The same problem, found while checking the site at `sitePath` (nil: none).
    public func found(in sitePath: String?) -> LintDiagnostic {
        LintDiagnostic(code, severity, path: path, message, sitePath: sitePath)
    }

    /// A config loader's diagnostic, which carries its code from where it was found.
    public init(_ diagnostic: ConfigDiagnostic) {
        self.init(diagnostic.code, diagnostic.severity, path: diagnostic.path, diagnostic.message)
    }

    /// `error LH101 apps[0].teamID: message`, one line for people.
    public var description: String {
        let location = path.isEmpty ? "" : " \(path):"
        return "\(severity.rawValue) \(code.rawValue)\(location) \(message)"
    }

    /// The same line with the site named, `error LH101 site "customer6" (sites[6]) apps[0].teamID: message`.
    public func description(siteNames: [String: String]) -> String {
        let location = path.isEmpty ? "" : " \(ConfigDiagnostic.location(path, siteNames: siteNames)):"
        return "\(severity.rawValue) \(code.rawValue)\(location) \(message)"
    }

    /// `{"code", "severity", "path", "message"}` in that order, the machine-readable form.
    public var json: JSONValue { json(site: nil) }

    /// The machine-readable form with `"site"` (the tenant's name) after `path` when the problem is in one.
    public func json(site: String?) -> JSONValue {
        var members = [
            JSONMember("code", .string(code.rawValue)),
            JSONMember("severity", .string(severity.rawValue)),
            JSONMember("path", .string(path)),
        ]
        if let site { members.append(JSONMember("site", .string(site))) }
        members.append(JSONMember("message", .string(message)))
        return .object(JSONObject(members))
    }

    /// The same problem with its path replaced, e.g. to prefix the URL a checked document came from.
    package func relocated(to path: String) -> LintDiagnostic {
        LintDiagnostic(code, severity, path: path, message, sitePath: sitePath)
    }
}

/// Everything found in one config or file, and its renderings for people and for CI.
public struct LintReport: Sendable, Equatable {
    /// What was linted: a file path or a URL.
    public let source: String
    /// The problems, in the order found, without repeats.
    public let diagnostics: [LintDiagnostic]
    /// The sites' names by path (`Config.siteNames`): the human text names the tenant of each problem.
    public let siteNames: [String: String]

    /// Makes a report, dropping exact repeats (one config rule can surface through several generated details,
    /// and sites that inherit a setting share its findings: the same words at the same path are kept once,
    /// whichever site's check found them).
    public init(source: String, diagnostics: [LintDiagnostic], siteNames: [String: String] = [:]) {
        self.source = source
        self.siteNames = siteNames
        // A set, not a scan of what was kept: a config of 1,000 sites can raise 10,000 diagnostics.
        var seen: Set<LintDiagnostic> = []
        self.diagnostics = diagnostics.filter { seen.insert($0.found(in: nil)).inserted }
    }

    /// The problems that are errors.
    public var errors: [LintDiagnostic] { diagnostics.filter { $0.severity == .error } }
    /// The problems that are warnings.
    public var warnings: [LintDiagnostic] { diagnostics.filter { $0.severity == .warning } }
    /// Whether any problem is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    /// The codes found, for tests and summaries.
    public var codes: [LintCode] { diagnostics.map(\.code) }

    /// "2 errors, 1 warning"; counts of zero are left out.
    public var counts: String {
        var parts: [String] = []
        if !errors.isEmpty { parts.append(Self.plural(errors.count, "error")) }
        if !warnings.isEmpty { parts.append(Self.plural(warnings.count, "warning")) }
        return parts.joined(separator: ", ")
    }

    /// The report for people: a heading, then one problem per line, errors first.
    ///
    /// `validSummary` describes what was found valid, shown in the heading when there is no error.
    public func humanText(validSummary: String) -> String {
        var heading = "\(source): "
        if hasErrors {
            heading += counts
        } else {
            heading += "valid" + (validSummary.isEmpty ? "" : " (\(validSummary))")
            if !warnings.isEmpty { heading += ", " + counts }
        }
        let lines = [heading] + Self.grouped(errors + warnings, siteNames: siteNames).map { "  " + $0 }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per problem, except a problem repeated in three or more sites, which is one line with the
    /// count, the sites and the first one's words: a mistake in a shared section shows once, not a thousand
    /// times. Repeated means the same code and severity at `sites[N]…` paths that differ only in N, or at one
    /// path outside the sites (a top-level setting they inherit) as found in each site's check (`sitePath`),
    /// in other words (each names its own host). `--format json` keeps every one.
    static func grouped(_ diagnostics: [LintDiagnostic], siteNames: [String: String] = [:]) -> [String] {
        // In order of first appearance: a problem outside the sites and found for none stands alone; others
        // gather by code, severity and the path after `sites[N]` (or the inherited path).
        var order: [String] = []
        var members: [String: [LintDiagnostic]] = [:]
        for (index, diagnostic) in diagnostics.enumerated() {
            let heading = "\(diagnostic.severity.rawValue) \(diagnostic.code.rawValue)"
            // LH133 says what became of one tenant: each keeps its line, its file and its site named.
            let key = diagnostic.code == .lh133 ? "#\(index)" : siteAndRest(diagnostic.path).map { "\(heading) \($0.rest)" } ?? diagnostic.sitePath.map { _ in "\(heading) @\(diagnostic.path)" } ?? "#\(index)"
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(diagnostic)
        }
        return order.map { key in
            let group = members[key]!
            let sites = group.compactMap { siteAndRest($0.path)?.site ?? $0.sitePath }.map { siteNames[$0] ?? $0 }
            guard group.count >= 3, sites.count == group.count else {
                return group.map { $0.description(siteNames: siteNames) }.joined(separator: "\n  ")
            }
            let place = siteAndRest(group[0].path).map { "sites[N]\($0.rest)" } ?? group[0].path
            let names = sites.count <= 6 ? sites.joined(separator: ", ") : sites.prefix(3).joined(separator: ", ") + " … " + sites.suffix(2).joined(separator: ", ")
            return "\(group[0].severity.rawValue) \(group[0].code.rawValue) in \(sites.count) sites (\(names)), at \(place); first: \(group[0].message)"
        }
    }

    /// `sites[12]` and the rest of `sites[12].callLinks.links[0]`; nil for a path outside the sites.
    private static func siteAndRest(_ path: String) -> (site: String, rest: String)? {
        guard path.hasPrefix("sites["), let close = path.firstIndex(of: "]") else { return nil }
        return (String(path[...close]), String(path[path.index(after: close)...]))
    }

    /// The problems as a JSON array of `{"code", "severity", "path", "site", "message"}`, errors and warnings
    /// in order found; `site` (the tenant's name, `Config.siteNames`) only for a problem inside `sites[N]`.
    public var jsonText: String { Self.jsonText(of: [self]) }

    /// Several reports as one JSON array; with more than one, each path is prefixed by its report's source.
    public static func jsonText(of reports: [LintReport]) -> String {
        let values = reports.flatMap { report in
            report.diagnostics.map { diagnostic in
                let site = (siteAndRest(diagnostic.path)?.site ?? diagnostic.sitePath).flatMap { report.siteNames[$0] }
                let shown = reports.count == 1 ? diagnostic : diagnostic.relocated(to: report.source + (diagnostic.path.isEmpty ? "" : ": " + diagnostic.path))
                return shown.json(site: site)
            }
        }
        return JSONWriter.string(.array(values), style: .pretty)
    }

    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}

/// A location inside a JSON document, kept as steps so one finding can be named in the AASA's own terms or,
/// for a generated AASA, in the config's.
struct DocumentPath: Hashable, Sendable, CustomStringConvertible {
    /// One step: a member key or an array index.
    enum Step: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    /// The steps from the document's root.
    var steps: [Step] = []

    /// The root.
    static let root = DocumentPath()

    /// This path and one member further.
    func key(_ key: String) -> DocumentPath { DocumentPath(steps: steps + [.key(key)]) }

    /// This path and one element further.
    func index(_ index: Int) -> DocumentPath { DocumentPath(steps: steps + [.index(index)]) }

    /// `applinks.details[0].components[1]["/"]`: dotted keys, brackets for indices and for keys that are not words.
    var description: String { Self.render(steps[...]) }

    /// Renders steps; keys that are not plain words are quoted in brackets so `/`, `?` and `#` stay readable.
    static func render(_ steps: ArraySlice<Step>, after prefix: String = "") -> String {
        var text = prefix
        for step in steps {
            switch step {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                let isWord = !key.isEmpty && key.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "$"
                }
                if isWord {
                    text += text.isEmpty ? key : ".\(key)"
                } else {
                    text += "[\(JSONWriter.string(.string(key), style: .compact))]"
                }
            }
        }
        return text
    }
}

extension LintDiagnostic: Error {
    /// Parses a file being linted; a syntax error becomes its one LH100 diagnostic.
    static func parseDocument(_ bytes: [UInt8]) -> Result<JSONValue, LintDiagnostic> {
        do {
            return .success(try JSONParser.parse(bytes))
        } catch {
            return .failure(LintDiagnostic(.lh100, .error, path: "", "not valid JSON at line \(error.line), column \(error.column): \(error.message)"))
        }
    }
}
