import LinkHostFiles
import LinkHostJSON

/// Lints a config the way `serve` would load it, and then beyond: the generated AASA's rules, and whether
/// what the server answers agrees with what the AASA sends into the app.
public enum ConfigLinter {
    /// What linting a config found, and the snapshot built from it when it loaded.
    public struct Outcome: Sendable {
        /// Every problem, with codes.
        public let report: LintReport
        /// The snapshot `serve` would serve; nil when the config has errors that stop loading.
        public let snapshot: Snapshot?
        /// The name `--site` gave when no site of the loaded config has it (nothing was checked).
        public var unknownSite: String? = nil
    }

    /// Lints the config file at `path` with the environment overrides `serve` would apply; with `site` (an id,
    /// a first host or a site file's name), that one site in the context of the rest (`SiteChoice`); with `service`
    /// (a systemd unit's), the ACME state folder is judged for the user it runs as; `cores` is how
    /// many the deep checks of many sites may use.
    public static func lint(path: String, environment: [String: String] = [:], site: String? = nil, service: ServiceAccount? = nil, cores: Int = 1) -> Outcome {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path)
        } catch {
            return Outcome(report: LintReport(source: path, diagnostics: [LintDiagnostic(.lh100, .error, path: "", "cannot read the config file: \(error)")]), snapshot: nil)
        }
        let outcome = lint(bytes: bytes, source: path, environment: environment, configPath: path, site: site, service: service, cores: cores)
        let found = outcome.report.diagnostics + (site == nil ? FilePermissionLint.configFileDiagnostics(path: path) : [])
        return Outcome(report: LintReport(source: path, diagnostics: found, siteNames: outcome.report.siteNames), snapshot: outcome.snapshot, unknownSite: outcome.unknownSite)
    }

    /// Lints config bytes; `source` names them in the report, `configPath` is where `siteFiles` is read from.
    public static func lint(bytes: [UInt8], source: String, environment: [String: String] = [:], configPath configFile: String? = nil, site chosen: String? = nil,
                            service: ServiceAccount? = nil, cores: Int = 1) -> Outcome {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            let diagnostic = LintDiagnostic(.lh100, .error, path: "", "not valid JSON at line \(error.line), column \(error.column): \(error.message)")
            return Outcome(report: LintReport(source: source, diagnostics: [diagnostic]), snapshot: nil)
        }
        let (config, loaderDiagnostics) = ConfigLoader.validate(document, environment: environment, configPath: configFile, cores: cores)
        var found = loaderDiagnostics.map(LintDiagnostic.init)
        if let config {
            let loadErrors = loaderDiagnostics.filter { $0.severity == .error }.map(\.path)
            found += config.sites.flatMap { AssetLinksLinter.configWarnings($0, loadErrors: loadErrors) } + ACMELint.diagnostics(config, service: service) + FilePermissionLint.keyDiagnostics(config)
            found += ExampleConfig.identityWarnings(config).map(LintDiagnostic.init)
            // Under the same environment serve would refuse the config: say so in serve's words.
            if let refusal = ExampleConfig.acmeRefusal(config, environment: environment) { found.append(LintDiagnostic(.lh121, .error, path: "", refusal)) }
            let coherence = SiteCoherence.diagnostics(config, loadErrors: loadErrors)
            // An open host another site answers is LH126, which names that site: the loader's LH116 at the same
            // key ("add it to its hosts") would advise taking another site's host.
            let namedHolder = Set(coherence.filter { $0.code == .lh126 }.map(\.path))
            found.removeAll { $0.code == .lh116 && namedHolder.contains($0.path) }
            found += coherence + TeamApps.diagnostics(config)
        }
        guard let config, !found.contains(where: { $0.severity == .error }) else {
            let failed = config.map { failureDiagnostics($0.siteFileFailures) } ?? []
            return Outcome(report: report(source, found + failed, config: config, chosen: chosen), snapshot: nil)
        }
        let snapshot: Snapshot
        do {
            snapshot = try Snapshot(config: config, cores: cores)
        } catch {
            found += error.diagnostics.map(LintDiagnostic.init) + failureDiagnostics(config.siteFileFailures)
            return Outcome(report: report(source, found, config: config, chosen: chosen), snapshot: nil)
        }
        let served = snapshot.config
        let choice = chosen.map { SiteChoice($0, in: served) }
        found += snapshot.warnings.map(LintDiagnostic.init)
        // Each site's AASA and assetlinks.json are compiled for matching once for all the passes, and once for
        // sites of the same rules whatever their apps (`SharedAASAMatchers`, `SharedAndroidMatchers`); the
        // platform findings come after every site's others. Sites are checked in chunks on the machine's cores,
        // each chunk with its own shared matchers, and the findings joined in site order.
        let checked = snapshot.sites.filter { choice?.includes($0.config) ?? true }
        let chunks = OrderedChunks.map(checked.count, chunks: OrderedChunks.chunkCount(for: checked.count, cores: cores)) { range in
            deepDiagnostics(of: checked[range], in: snapshot)
        }
        found += chunks.flatMap(\.site) + chunks.flatMap(\.platform)
        found += failureDiagnostics(served.siteFileFailures)
        // Sites that inherit a setting share its findings; the report keeps each once.
        return Outcome(report: report(source, found, config: served, chosen: chosen), snapshot: snapshot, unknownSite: choice?.path == nil ? chosen : nil)
    }

    /// The deep checks of consecutive `sites`: each one's generated AASA, what the server answers against it, and
    /// the platform findings (which the report lists after every site's others).
    private static func deepDiagnostics(of sites: ArraySlice<Site>, in snapshot: Snapshot) -> (site: [LintDiagnostic], platform: [LintDiagnostic]) {
        var found: [LintDiagnostic] = []
        var platform: [LintDiagnostic] = []
        let shared = SharedAASAMatchers()
        let androidMatchers = SharedAndroidMatchers()
        let documentLint = SharedAASALint()
        for site in sites {
            let render: (DocumentPath) -> String = { configPath(for: $0, site: site.config) }
            let matcher = shared.entry(for: site)
            let generated = matcher.document
            let foundIn = site.index == 0 ? nil : site.config.path
            if !site.config.apps.isEmpty {
                // The loader already warns about a config without rules (LH208); its generated detail would repeat it.
                found += documentLint.diagnostics(document: generated, site: site.config, render: render, shadowing: !site.config.aasa.rulesDerived).filter { $0.code != .lh208 }
                found += ServedConsistency.diagnostics(site: site, in: snapshot, matcher: matcher, androidMatchers: androidMatchers) { render($0.documentPath) }.map { $0.found(in: foundIn) }
                found += TemplateOverreach.diagnostics(site: site.config, document: generated) { render($0.documentPath) }.map { $0.found(in: foundIn) }
            }
            platform += PlatformConsistency.diagnostics(site: site, matcher: matcher, androidMatchers: androidMatchers) { render($0.documentPath) }.map { $0.found(in: foundIn) }
        }
        return (found, platform)
    }

    /// Each failed site file's errors, then the LH133 line that says what became of its site.
    private static func failureDiagnostics(_ failures: [SiteFileFailure]) -> [LintDiagnostic] {
        failures.flatMap { $0.diagnostics.map(LintDiagnostic.init) + [LintDiagnostic($0.summary)] }
    }

    /// The report of `found`, kept to one site's problems (and the main file's errors) when one was chosen.
    private static func report(_ source: String, _ found: [LintDiagnostic], config: Config?, chosen: String?) -> LintReport {
        guard let config, let chosen else { return LintReport(source: source, diagnostics: found, siteNames: config?.siteNames ?? [:]) }
        return LintReport(source: source, diagnostics: SiteChoice(chosen, in: config).kept(found), siteNames: config.siteNames)
    }

    /// Names a location in the generated AASA by the config setting it came from: `aasa.rules[2].path`.
    ///
    /// Every generated detail carries the same rules (one detail per app in the legacy form), so the rule's
    /// index names its source: a configured rule (`aasa.rules[2]`) or the link template it was derived from.
    static func configPath(for path: DocumentPath, site: SiteConfig) -> String {
        let steps = path.steps
        let section = site.sections.aasa
        guard steps.count >= 2, steps[0] == .key("applinks") else { return section }
        switch steps[1] {
        case .key("details"):
            guard steps.count >= 5, case .index(let rule) = steps[4], steps[3] == .key("components") || steps[3] == .key("paths") else {
                return ConfigReader.join(section, "rules")
            }
            let base = site.aasa.ruleSources.indices.contains(rule) ? site.aasa.ruleSources[rule] : ConfigReader.join(section, "rules[\(rule)]")
            var rest = Array(steps.dropFirst(5))
            if steps[3] == .key("paths") {
                rest.insert(.key("path"), at: 0)
            } else if case .key(let key)? = rest.first, let word = ["/": "path", "?": "query", "#": "fragment"][key] {
                rest[0] = .key(word)
            }
            return DocumentPath.render(rest[...], after: base)
        case .key("substitutionVariables"):
            return DocumentPath.render(steps.dropFirst(2), after: ConfigReader.join(section, "substitutionVariables"))
        case .key("defaults"):
            return DocumentPath.render(steps.dropFirst(2), after: ConfigReader.join(section, "defaults"))
        default:
            return section
        }
    }

    /// "1 iOS app, 1 Android app, AASA 412 bytes": what a valid config serves; with several sites, their
    /// count first and the default site's figures.
    public static func summary(of snapshot: Snapshot) -> String {
        let site = snapshot.sites[0]
        let figures = "\(LintReport.plural(site.config.apps.count, "iOS app")), \(LintReport.plural(site.config.android.count, "Android app")), AASA \(site.aasaBytes.count) bytes"
        return snapshot.sites.count == 1 ? figures : "\(LintReport.plural(snapshot.sites.count, "site")); default site: \(figures)"
    }
}
