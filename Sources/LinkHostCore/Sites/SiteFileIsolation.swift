/// While a snapshot builds: a site of a site file whose build fails (a template, a static folder, a page
/// that cannot be made) fails alone, as one whose file could not be read does in the loader (`SiteFiles`).
///
/// Its last good version builds instead when it differs and still claims no host or name of another site;
/// else the site is left out. Either way the failure joins `Config.siteFileFailures`.
struct SiteFileIsolation {
    /// The sites that built, in order: the snapshot's `config.sites`.
    private(set) var served: [SiteConfig] = []
    /// The loader's failures and those of the build.
    private(set) var failures: [SiteFileFailure]
    /// Whether any site failed here: only then does the snapshot's config differ from the one it was given.
    private(set) var changed = false
    private let lastGood: [String: SiteConfig]
    private let pattern: SiteFilePattern?
    /// The site path holding each host, name and own app, for every site of the config.
    private var holders: [SiteClaim: String] = [:]

    init(config: Config, lastGood: [String: SiteConfig]) {
        failures = config.siteFileFailures
        pattern = config.siteFiles
        self.lastGood = lastGood
        guard config.siteFiles != nil else { return }
        for site in config.sites {
            for (claim, _) in SiteClaim.of(site) where claim.app.flatMap({ config.sharedApps[$0] }) == nil { holders[claim] = site.path }
        }
    }

    /// A site that built.
    mutating func built(_ site: SiteConfig) { served.append(site) }

    /// Records that the site of a file failed to build; returns its last good version to build instead, if any.
    mutating func failed(_ site: SiteConfig, _ diagnostics: [ConfigDiagnostic]) -> SiteConfig? {
        changed = true
        guard let name = site.file else { return nil }
        let candidate = lastGood[name].flatMap { $0 != site && isFree($0) ? $0 : nil }
        let errors = diagnostics.filter { $0.severity == .error }
        if let index = failures.firstIndex(where: { $0.name == name }) {
            // The loader already fell back to this last good version, which no longer builds either.
            failures[index].diagnostics += errors
            failures[index].servesLastGood = false
            return nil
        }
        failures.append(SiteFileFailure(name: name, file: pattern?.shown(name) ?? name, site: site.label, diagnostics: errors, servesLastGood: candidate != nil))
        return candidate
    }

    /// The last good version `failed` offered did not build either: the site is left out.
    mutating func fallbackFailed(_ fallback: SiteConfig) {
        guard let index = failures.lastIndex(where: { $0.name == fallback.file }) else { return }
        failures[index].servesLastGood = false
    }

    /// Whether a last good version still claims only its own hosts, name and apps.
    private func isFree(_ site: SiteConfig) -> Bool {
        SiteClaim.of(site).allSatisfy { (holders[$0.claim] ?? site.path) == site.path }
    }
}
