/// A site file that could not be used as it is now: one broken tenant, kept from harming the others.
///
/// On a reload the site serves its last good version (`servesLastGood`); at start, or with no good version
/// to fall back on, it is left out and its hosts answer as hosts no site lists.
public struct SiteFileFailure: Sendable, Equatable {
    /// The file's name in the `siteFiles` folder: the key a last good version is kept under.
    public var name: String
    /// The file as people see it, `sites.d/acme.json`.
    public var file: String
    /// The site's name: the id or first host it was read with, else its last good version's, else the file name.
    public var site: String
    /// Why: every error found in the file, each with its code and path (`sites[acme.json].apps[0].teamID`).
    public var diagnostics: [ConfigDiagnostic]
    /// True when the site's last good version serves instead; false when it is left out.
    public var servesLastGood: Bool

    /// The site's path in diagnostics, `sites[acme.json]`.
    public var path: String { SiteFiles.sitePath(name) }

    /// The LH133 line that says what became of the site, with the first reason.
    public var summary: ConfigDiagnostic {
        let errors = diagnostics.filter { $0.severity == .error }
        let first = errors.first.map { " First: \($0.code.rawValue) \($0.description)" } ?? ""
        let fate = servesLastGood ? "its last good version serves until the file is fixed" : "it is left out: its hosts answer as hosts no site lists"
        return ConfigDiagnostic(.lh133, path: path, message: "site file \(file) failed with \(errors.count) error\(errors.count == 1 ? "" : "s"); \(fate); every other site is unaffected.\(first)")
    }

    /// One line for stderr and `/healthz`: `site "acme" (sites.d/acme.json): LH133 …`.
    public var line: String {
        "site \"\(site)\" (\(file)): \(summary.code.rawValue) \(summary.message)"
    }
}
