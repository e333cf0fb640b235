/// `validate --site ID`: one tenant checked in the context of the rest.
///
/// The whole config loads (so a host or id another site claims is found), the deep checks run for the
/// chosen site alone, and the report keeps its problems and the main file's errors; a name that matches no
/// site is a usage error (`ConfigLinter.Outcome.unknownSite`), so a typo in a CI job cannot pass as "no problems".
struct SiteChoice {
    /// The name asked for.
    let name: String
    /// The chosen site's path (`sites[3]`, `sites[acme.json]`); nil when no site has that name.
    let path: String?

    /// Finds the site named `name`: by id or first host (`SiteConfig.label`), or by its site file's name;
    /// a site file that failed is found by the same names.
    init(_ name: String, in config: Config) {
        self.name = name
        path = config.sites.dropFirst().first { $0.label == name || $0.file == name }?.path
            ?? config.siteFileFailures.first { $0.site == name || $0.name == name }?.path
    }

    /// Whether the deep checks run for `site`.
    func includes(_ site: SiteConfig) -> Bool { site.path == path && path != nil }

    /// The chosen site's problems and the main file's errors (those alone when no site has the name).
    func kept(_ found: [LintDiagnostic]) -> [LintDiagnostic] {
        let path = self.path ?? "\u{0}"
        return found.filter { diagnostic in
            diagnostic.sitePath == path || diagnostic.path == path || diagnostic.path.hasPrefix(path + ".")
                || (diagnostic.severity == .error && !Self.isInSite(diagnostic))
        }
    }

    /// Whether a problem belongs to one site rather than to the main file.
    private static func isInSite(_ diagnostic: LintDiagnostic) -> Bool {
        diagnostic.sitePath != nil || diagnostic.path.hasPrefix("sites[")
    }
}
