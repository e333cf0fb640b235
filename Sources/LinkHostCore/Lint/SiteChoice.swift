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

    /// Finds the site named `name`: by id or first host (`SiteConfig.label`), or by its site file's name with
    /// or without its extension (`customer0100.json`, `customer0100`); a site file that failed is found by the
    /// same names, its id being the one it was read with, else its last good version's or the state folder's
    /// record's, so a file broken beyond reading is still found by its id.
    init(_ name: String, in config: Config) {
        self.name = name
        path = config.sites.dropFirst().first { $0.label == name || $0.file == name }?.path
            ?? config.siteFileFailures.first { $0.site == name || $0.name == name }?.path
            ?? config.sites.dropFirst().first { $0.file.map(Self.stem) == name }?.path
            ?? config.siteFileFailures.first { Self.stem($0.name) == name }?.path
    }

    /// A file name without its extension: `customer0100.json` → `customer0100`.
    private static func stem(_ file: String) -> String {
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
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
