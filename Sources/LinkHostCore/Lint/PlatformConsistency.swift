import LinkHostJSON

/// Checks that iOS and Android 15+ decide a site's URLs alike: LH407 for every AASA rule whose meaning the
/// dynamic rules cannot keep, LH408 for the URLs that open the app on one platform and not the other.
///
/// The URLs tried are the ones that matter and the ones where the two rule languages part: every link
/// template's samples (with and without a trailing slash), `/`, the association files, the static files,
/// and for every rule a few URLs its patterns match (wildcards filled with nothing and with `x/x`, letters
/// swapped in case for a case-insensitive rule).
enum PlatformConsistency {
    /// How many URLs one finding names before "and N more".
    static let namedURLs = 4

    /// The findings of one site, whose generated AASA `iOS` holds; `name` renders a rule of it in the config's terms.
    /// `androidMatchers` holds the sites' generated assetlinks.json, shared by sites of the same rules.
    static func diagnostics(site: Site, matcher iOS: SharedAASAMatchers.Entry, androidMatchers: SharedAndroidMatchers = SharedAndroidMatchers(),
                            name: (AASARuleReference) -> String) -> [LintDiagnostic] {
        let config = site.config
        guard let package = config.android.first(where: \.dynamicRules)?.packageName else { return [] }
        let rules = androidMatchers.dynamicRules(for: config)
        var found = rules.notes.map { note in
            LintDiagnostic(.lh407, .warning, path: source(note.rule, in: config), note.message)
        }
        guard let appID = config.appIDs.first else { return found }
        let origin = ServedConsistency.origin(of: config)
        let android = androidMatchers.entry(for: config, origin: origin)
        var groups: [(path: String, iOSOpens: Bool, urls: [String])] = []
        let bound = config.callLinks.links.queryItemNames
        // Rules derived from the templates differ between the platforms only where a platform reads the URL
        // otherwise (docs/derived-rules.md); those URLs are no finding.
        for path in samplePaths(site) where !config.aasa.rulesDerived || androidMatchers.platformsReadAlike(path, boundNames: bound) {
            let url = origin + path
            let apple = iOS.match(url: url, appID: appID)
            let google = android.match(url: url, packageName: package)
            let iOSOpens = apple.decision == .match
            guard iOSOpens != google.opensApp else { continue }
            let where_ = apple.rule.map(name) ?? google.rule.flatMap { rules.sources[$0] }.map { source($0, in: config) } ?? config.sections.aasa
            if let index = groups.firstIndex(where: { $0.path == where_ && $0.iOSOpens == iOSOpens }) {
                if !groups[index].urls.contains(url) { groups[index].urls.append(url) }
            } else {
                groups.append((where_, iOSOpens, [url]))
            }
        }
        for group in groups {
            var shown = group.urls.prefix(namedURLs).map { "\"\($0)\"" }.joined(separator: ", ")
            if group.urls.count > namedURLs { shown += " and \(group.urls.count - namedURLs) more" }
            let (yes, no) = group.iOSOpens ? ("iOS", "Android 15+") : ("Android 15+", "iOS")
            found.append(LintDiagnostic(.lh408, .warning, path: group.path, "\(shown) \(group.urls.count == 1 ? "opens" : "open") the app on \(yes) but not on \(no) (\"\(package)\"); check with linkhost match URL --platform both"))
        }
        return found
    }

    /// Where AASA rule `index` of the site is written in the config.
    private static func source(_ index: Int, in config: SiteConfig) -> String {
        config.aasa.ruleSources.indices.contains(index) ? config.aasa.ruleSources[index] : ConfigReader.join(config.sections.aasa, "rules[\(index)]")
    }

    /// The paths (without query) of every link template's samples, with and without a trailing slash.
    static func templatePaths(_ site: SiteConfig) -> [String] {
        var paths: [String] = []
        for template in site.callLinks.links.templates {
            for sample in ServedConsistency.samples(of: template, defaultType: site.callLinks.defaultType) {
                let path = String(sample[..<(sample.firstIndex(of: "?") ?? sample.endIndex)])
                for variant in [path, path + "/"] where !paths.contains(variant) { paths.append(variant) }
            }
        }
        return paths
    }

    /// Paths (with query and fragment) to decide on both platforms, each once.
    static func samplePaths(_ site: Site) -> [String] {
        let config = site.config
        var paths: [String] = []
        func add(_ path: String) { if !paths.contains(path) { paths.append(path) } }
        let links = config.callLinks.links
        for template in links.templates {
            for sample in ServedConsistency.samples(of: template, defaultType: links.defaultType) {
                add(sample)
                let question = sample.firstIndex(of: "?") ?? sample.endIndex
                add(String(sample[..<question]) + "/" + String(sample[question...]))
            }
        }
        for path in ["/"] + Site.aasaPaths + [Site.assetLinksPath] + site.staticPaths { add(path) }
        let variables = SubstitutionVariables(custom: Dictionary(config.aasa.substitutionVariables.map { ($0.name, $0.values) }) { first, _ in first })
        // Derived rules' own URLs are where the platforms read URLs otherwise by design; DerivedRulesFuzzTests
        // compares both platforms with the templates instead.
        for rule in config.aasa.rulesDerived ? [] : config.aasa.rules {
            for fill in ["", "x/x"] {
                guard let path = instance(of: rule, starsAs: fill, variables: variables) else { continue }
                add(path)
                if rule.caseSensitive == false || (rule.caseSensitive == nil && config.aasa.defaultCaseSensitive == false),
                   let swapped = DynamicPatternTranslation.caseVariant(path) {
                    add(swapped)
                }
            }
        }
        return paths
    }

    /// A path, query and fragment that `rule`'s patterns match, wildcards filled: `?` with `x`, `*` with
    /// `starsAs`; nil when a variable cannot be filled.
    private static func instance(of rule: AASARule, starsAs fill: String, variables: SubstitutionVariables) -> String? {
        var patterns = [rule.path ?? "/", rule.fragment ?? ""]
        switch rule.query {
        case .whole(let pattern)?: patterns.append(pattern)
        case .items(let items)?: patterns += items.map(\.pattern)
        case nil: break
        }
        guard case .variants(let variants) = VariableExpansion.expand(patterns, variables: variables), let first = variants.first else { return nil }
        let filled = first.map { pattern in
            pattern.map { $0 == "?" ? "x" : $0 == "*" ? fill : String($0) }.joined()
        }
        var text = filled[0].hasPrefix("/") ? filled[0] : "/" + filled[0]
        switch rule.query {
        case .whole?: text += "?" + filled[2]
        case .items(let items)?: text += "?" + zip(items, filled.dropFirst(2)).map { "\($0.name)=\($1)" }.joined(separator: "&")
        case nil: break
        }
        if rule.fragment != nil { text += "#" + filled[1] }
        return text
    }
}
