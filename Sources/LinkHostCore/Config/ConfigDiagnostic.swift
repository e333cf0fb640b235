/// One problem found in a configuration: its stable code, where it is (a JSON path) and what it is.
public struct ConfigDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// Whether the problem stops the config from loading.
    public enum Severity: String, Sendable {
        /// The config is refused.
        case error
        /// The config loads, but something is likely wrong.
        case warning
    }

    /// The stable code, given where the problem is found.
    public let code: LintCode
    /// Where the problem is, e.g. `apps[0].teamID`; empty for the document itself.
    public let path: String
    /// What was found and what is expected.
    public let message: String
    /// Error or warning.
    public let severity: Severity

    /// Makes a diagnostic.
    public init(_ code: LintCode, path: String, message: String, severity: Severity = .error) {
        self.code = code
        self.path = path
        self.message = message
        self.severity = severity
    }

    /// `path: message`, the form printed to people.
    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }

    /// `path: message` with the site named: `site "customer6" (sites[6]) apps[0].teamID: message`.
    public func description(siteNames: [String: String]) -> String {
        path.isEmpty ? message : "\(Self.location(path, siteNames: siteNames)): \(message)"
    }

    /// A path inside `sites[N]` as people read it, `site "customer6" (sites[6]) apps[0].teamID`, when
    /// `siteNames` names the site (`Config.siteNames`); the path unchanged otherwise.
    public static func location(_ path: String, siteNames: [String: String]) -> String {
        guard path.hasPrefix("sites["), let close = path.firstIndex(of: "]") else { return path }
        let site = String(path[...close])
        guard let name = siteNames[site] else { return path }
        var rest = path[path.index(after: close)...]
        if rest.hasPrefix(".") { rest = rest.dropFirst() }
        return "site \"\(name)\" (\(site))" + (rest.isEmpty ? "" : " \(rest)")
    }
}

/// A configuration that cannot be used, with every problem found in it.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    /// The file (or other source) the problems are in.
    public let source: String
    /// Every problem, in document order; errors and warnings alike.
    public let diagnostics: [ConfigDiagnostic]
    /// The sites' names by path (`Config.siteNames`), so the report says which tenant a problem is in.
    public let siteNames: [String: String]

    /// Makes an error for a source with its problems.
    public init(source: String, diagnostics: [ConfigDiagnostic], siteNames: [String: String] = [:]) {
        self.source = source
        self.diagnostics = diagnostics
        self.siteNames = siteNames
    }

    /// The problems that are errors.
    public var errors: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// A multi-line report: a heading naming the file and count, then one problem per line.
    public var description: String {
        if diagnostics.count == 1, let only = diagnostics.first, only.path.isEmpty {
            return "\(source): \(only.message)"
        }
        let count = errors.count
        var lines = ["\(source): \(count) error\(count == 1 ? "" : "s")"]
        for diagnostic in diagnostics {
            lines.append("  \(diagnostic.severity.rawValue): \(diagnostic.description(siteNames: siteNames))")
        }
        return lines.joined(separator: "\n")
    }
}
