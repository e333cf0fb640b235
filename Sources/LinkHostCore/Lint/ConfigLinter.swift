import LinkHostJSON

/// Lints a config the way `serve` would load it, and then beyond: the generated AASA's rules, and whether
/// what the server answers agrees with what the AASA sends into the app.
public enum ConfigLinter {
    /// What linting a config found, and the snapshot built from it when it loaded.
    public struct Outcome: Sendable {
        /// Every problem, with codes.
        public let report: LintReport
        /// The snapshot `serve` would serve; nil when the config has errors that stop loading.
        public let site: Site?
    }

    /// Lints the config file at `path` with the environment overrides `serve` would apply.
    public static func lint(path: String, environment: [String: String] = [:]) -> Outcome {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path)
        } catch {
            return Outcome(report: LintReport(source: path, diagnostics: [LintDiagnostic(.lh100, .error, path: "", "cannot read the config file: \(error)")]), site: nil)
        }
        return lint(bytes: bytes, source: path, environment: environment)
    }

    /// Lints config bytes; `source` names them in the report.
    public static func lint(bytes: [UInt8], source: String, environment: [String: String] = [:]) -> Outcome {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            let diagnostic = LintDiagnostic(.lh100, .error, path: "", "not valid JSON at line \(error.line), column \(error.column): \(error.message)")
            return Outcome(report: LintReport(source: source, diagnostics: [diagnostic]), site: nil)
        }
        let (config, loaderDiagnostics) = ConfigLoader.validate(document, environment: environment)
        var found = loaderDiagnostics.map(ConfigDiagnosticCodes.diagnostic)
        if let config { found += AssetLinksLinter.configWarnings(config) }
        guard let config, !found.contains(where: { $0.severity == .error }) else {
            return Outcome(report: LintReport(source: source, diagnostics: found), site: nil)
        }
        let site: Site
        do {
            site = try Site(config: config)
        } catch {
            found += error.diagnostics.map(ConfigDiagnosticCodes.diagnostic)
            return Outcome(report: LintReport(source: source, diagnostics: found), site: nil)
        }
        found += site.warnings.map(ConfigDiagnosticCodes.diagnostic)
        if !config.apps.isEmpty {
            let rulesDefaulted = document.objectValue?["aasa"]?.objectValue?["rules"] == nil
            let render: (DocumentPath) -> String = { configPath(for: $0, rulesDefaulted: rulesDefaulted) }
            let generated = AASAGenerator.document(for: config)
            // The loader already warns about a config without rules (LH208); its generated detail would repeat it.
            found += AASALinter.diagnostics(document: generated, render: render).filter { $0.code != .lh208 }
            found += ServedConsistency.diagnostics(site: site, document: generated) { render($0.documentPath) }
        }
        return Outcome(report: LintReport(source: source, diagnostics: found), site: site)
    }

    /// Names a location in the generated AASA by the config setting it came from: `aasa.rules[2].path`.
    ///
    /// Every generated detail carries the same rules (one detail per app in the legacy form), so the rule's
    /// index is the config rule's index; with no rules configured, rule N is the default for `callLinks.paths[N]`.
    static func configPath(for path: DocumentPath, rulesDefaulted: Bool) -> String {
        let steps = path.steps
        guard steps.count >= 2, steps[0] == .key("applinks") else { return "aasa" }
        switch steps[1] {
        case .key("details"):
            guard steps.count >= 5, case .index(let rule) = steps[4], steps[3] == .key("components") || steps[3] == .key("paths") else {
                return "aasa.rules"
            }
            let base = rulesDefaulted ? "callLinks.paths[\(rule)]" : "aasa.rules[\(rule)]"
            var rest = Array(steps.dropFirst(5))
            if steps[3] == .key("paths") {
                rest.insert(.key("path"), at: 0)
            } else if case .key(let key)? = rest.first, let word = ["/": "path", "?": "query", "#": "fragment"][key] {
                rest[0] = .key(word)
            }
            return DocumentPath.render(rest[...], after: base)
        case .key("substitutionVariables"):
            return DocumentPath.render(steps.dropFirst(2), after: "aasa.substitutionVariables")
        case .key("defaults"):
            return DocumentPath.render(steps.dropFirst(2), after: "aasa.defaults")
        default:
            return "aasa"
        }
    }

    /// "1 iOS app, 1 Android app, AASA 412 bytes": what a valid config serves.
    public static func summary(of site: Site) -> String {
        let config = site.config
        return "\(LintReport.plural(config.apps.count, "iOS app")), \(LintReport.plural(config.android.count, "Android app")), AASA \(site.aasaBytes.count) bytes"
    }
}
