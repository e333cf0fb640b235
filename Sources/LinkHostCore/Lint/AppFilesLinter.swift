import CallLinks

/// Compares an app's own files with the config: the hosts (and link templates) the server serves that the
/// app would not claim, and the claims the server does not serve (LH702–LH705).
public enum AppFilesLinter {
    /// Lints an `.entitlements` file (or fragment) against `config`; `served` narrows it to one app's hosts.
    public static func lint(entitlements bytes: [UInt8], source: String, config: Config, served: ServedHosts? = nil) -> LintReport {
        switch EntitlementsFile.read(bytes) {
        case .failure(let problem): return LintReport(source: source, diagnostics: [problem])
        case .success(let file): return LintReport(source: source, diagnostics: file.problems + diagnostics(file, config: config, served: served ?? ServedHosts(config: config)))
        }
    }

    /// Lints an `AndroidManifest.xml` (or fragment) against `config`; `served` narrows it to one app's hosts.
    public static func lint(androidManifest bytes: [UInt8], source: String, config: Config, served: ServedHosts? = nil) -> LintReport {
        switch AndroidManifestFile.read(bytes) {
        case .failure(let problem): return LintReport(source: source, diagnostics: [problem])
        case .success(let file): return LintReport(source: source, diagnostics: otherPackage(file, app: served?.app) + file.problems + diagnostics(file, config: config, served: served ?? ServedHosts(config: config)) + undeclaredSchemes(file, config: config, served: served) + AppLinksFilterOverlap.diagnostics(file))
        }
    }

    /// LH709: a manifest whose `package` is not `app` (the package `--app` names). The merged manifest carries
    /// the build's applicationId there, the ID Android verifies App Links for and Play lists ("Configure the
    /// app module", developer.android.com/build/configure-app-module); a source manifest may carry its
    /// namespace instead, which a build's `applicationIdSuffix` extends: that case is a warning.
    static func otherPackage(_ file: AndroidManifestFile, app: String?) -> [LintDiagnostic] {
        guard let app, let package = file.package, package != app else { return [] }
        if app.hasPrefix(package + ".") {
            return [LintDiagnostic(.lh709, .warning, path: "manifest", "package=\"\(package)\" is not --app \(app), which extends it: if this is the source manifest of a build with applicationIdSuffix, give the merged manifest (app/build/intermediates/merged_manifests/…), whose package is the applicationId Android verifies")]
        }
        return [LintDiagnostic(.lh709, .error, path: "manifest", "package=\"\(package)\" is not --app \(app): in the merged manifest package is the build's applicationId, the app Android verifies App Links for, so either this is another app's manifest or the applicationId (or the config's packageName) is misspelled")]
    }

    /// Lints an app's `Info.plist` (or the fragment `print info-plist` writes) against `config`: the custom
    /// schemes the page links to must be in `CFBundleURLTypes`.
    /// `served` narrows it to one app: the schemes the page writes for that app.
    public static func lint(infoPlist bytes: [UInt8], source: String, config: Config, served: ServedHosts? = nil) -> LintReport {
        switch EntitlementsFile.plist(bytes) {
        case .failure(let problem): return LintReport(source: source, diagnostics: [problem])
        case .success(let plist):
            var declared: [String] = []
            if case .array(let types)? = plist["CFBundleURLTypes"] {
                for type in types {
                    guard case .array(let schemes)? = type["CFBundleURLSchemes"] else { continue }
                    for case .string(let scheme) in schemes { declared.append(scheme.lowercased()) }
                }
            }
            let needed = served.flatMap { $0.app == nil ? nil : URLTypesGenerator.schemes(for: $0) } ?? EntitlementsGenerator.unique(config.sites.filter { !$0.apps.isEmpty }.compactMap(URLTypesGenerator.scheme(of:)))
            return LintReport(source: source, diagnostics: needed.filter { !declared.contains($0) }.map { scheme in
                LintDiagnostic(.lh707, .error, path: "CFBundleURLTypes", "the call page links to \(scheme):// but no CFBundleURLSchemes entry declares it, so iOS opens no app for it (linkhost print info-plist writes the entry)")
            })
        }
    }

    /// The custom schemes the config's pages link to that no VIEW/BROWSABLE filter of the manifest declares;
    /// with `served` chosen for one app, only the pages of the sites that name it.
    static func undeclaredSchemes(_ file: AndroidManifestFile, config: Config, served: ServedHosts? = nil) -> [LintDiagnostic] {
        let sites = served?.app == nil ? config.sites : served?.entries.map(\.site) ?? []
        let needed = EntitlementsGenerator.unique(sites.filter { !$0.android.isEmpty }.compactMap(URLTypesGenerator.scheme(of:)))
        let declared = file.filters.filter { $0.exported && $0.actions.contains("android.intent.action.VIEW") && $0.categories.contains("android.intent.category.BROWSABLE") }.flatMap(\.schemes)
        return needed.filter { !declared.contains($0) }.map { scheme in
            LintDiagnostic(.lh707, .error, path: "android", "the call page links to \(scheme):// but no exported intent filter with VIEW and BROWSABLE declares it, so Android opens no app for it (linkhost print android-manifest writes the filter)")
        }
    }

    /// Whether `entries` claim `host`: the same name, or (unless `exactOnly`: `appclips:` takes no wildcard)
    /// a wildcard covering an exact host.
    private static func claimed(_ host: String, by entries: [EntitlementsFile.Domain], exactOnly: Bool = false) -> Bool {
        entries.contains { $0.host == host || (!exactOnly && !host.hasPrefix("*.") && CallLinkHost.covers($0.host, host: host)) }
    }

    static func diagnostics(_ file: EntitlementsFile, config: Config, served: ServedHosts) -> [LintDiagnostic] {
        var found: [LintDiagnostic] = []
        let applinks = file.domains.filter { $0.service == "applinks" }
        if served.namesNoHost, !config.defaultSite.apps.isEmpty, applinks.isEmpty {
            found.append(LintDiagnostic(.lh702, .error, path: "apps", "the config serves iOS apps, but the entitlements have no applinks: entry, so iOS opens no link in the app"))
        }
        if file.parentApplicationIdentifiers != nil {
            found.append(LintDiagnostic(.lh719, .warning, path: AppClipEntitlements.parentKey, "names a parent app, which only an App Clip's entitlements do (Apple: \"Add it only to an App Clip target\"); this file is checked as \(served.app ?? "an iOS app")'s"))
        }
        for entry in served.entries where !entry.site.apps.isEmpty {
            let where_ = entry.site.hosts.isEmpty ? ConfigReader.join(entry.site.sections.callLinks, "baseURL") : ConfigReader.join(entry.site.path, "hosts")
            let clips = EntitlementsGenerator.clips(of: entry.site, app: served.app)
            for host in entry.hosts {
                var services = ["applinks"]
                if EntitlementsGenerator.sharesCredentials(entry.site, app: served.app) { services.append("webcredentials") }
                if !clips.isEmpty, !host.hasPrefix("*.") { services.append("appclips") }
                for service in services where !claimed(host, by: file.domains.filter { $0.service == service }, exactOnly: service == "appclips") {
                    let consequence: String
                    switch service {
                    case "applinks": consequence = "so iOS never opens the app from its links"
                    case "webcredentials": consequence = "so iOS offers no shared web credentials for it"
                    default: consequence = "though its AASA lists the App Clip \(clips.joined(separator: ", ")): Apple asks for appclips: in the app's entitlements as in the clip's, and verifies both before it invokes the clip"
                    }
                    found.append(LintDiagnostic(.lh702, .error, path: where_, "\(host) serves iOS apps, but the entitlements have no \(service):\(host), \(consequence)"))
                }
            }
        }
        guard !served.namesNoHost else { return found }
        for domain in file.domains where domain.service != "activitycontinuation" {
            let servedHere = served.entries.contains { entry in
                !entry.site.apps.isEmpty && entry.hosts.contains { $0 == domain.host || CallLinkHost.covers($0, host: domain.host) }
                    && (domain.service != "appclips" || !EntitlementsGenerator.clips(of: entry.site, app: served.app).isEmpty)
            }
            guard !servedHere else { continue }
            let path = "\(EntitlementsGenerator.key)[\(domain.index)]"
            if domain.service == "appclips" {
                let hosts = EntitlementsGenerator.entries(for: served).appClips.map { $0.dropFirst("appclips:".count) }
                let clipHosts = hosts.isEmpty ? "none does" : "those that do: " + hosts.joined(separator: ", ")
                found.append(LintDiagnostic(.lh703, .warning, path: path, "\"\(domain.text)\" names a domain whose AASA lists no App Clip of \(served.app ?? "the config's iOS apps") (\(clipHosts)), so iOS invokes no clip there"))
            } else {
                found.append(LintDiagnostic(.lh703, .warning, path: path, "\"\(domain.text)\" names a domain no site of the config serves \(served.app ?? "iOS apps") on (\(served.hosts.joined(separator: ", "))); iOS fetches its AASA from another server, or finds none"))
            }
        }
        return found
    }

    static func diagnostics(_ file: AndroidManifestFile, config: Config, served: ServedHosts) -> [LintDiagnostic] {
        let web = file.filters.filter(\.handlesWebLinks)
        var found: [LintDiagnostic] = []
        var entries = served.entries.filter { !$0.site.android.isEmpty }.map { (site: $0.site, hosts: $0.hosts) }
        if served.namesNoHost, !config.defaultSite.android.isEmpty {
            // A config answering every host: check its templates on every host the manifest claims.
            let hosts = EntitlementsGenerator.unique(web.flatMap(\.hosts).filter { !$0.hasPrefix("*") })
            if hosts.isEmpty {
                found.append(LintDiagnostic(.lh704, .error, path: "android", "no intent filter of the manifest claims an https host with VIEW, DEFAULT and BROWSABLE, so Android opens no link in the app"))
            }
            entries = [(config.defaultSite, hosts)]
        }
        for (site, hosts) in entries {
            for host in hosts {
                // One finding per host and cause, naming its templates.
                var causes: [(cause: String, templates: [Int], url: String)] = []
                for (index, template) in site.callLinks.links.templates.enumerated() {
                    guard let (url, cause) = unclaimed(template, host: deviceHost(host), site: site, web: web) else { continue }
                    if let existing = causes.firstIndex(where: { $0.cause == cause }) {
                        causes[existing].templates.append(index)
                    } else {
                        causes.append((cause, [index], url))
                    }
                }
                for entry in causes {
                    let templates = entry.templates.map { "\"\(site.callLinks.links.templates[$0].text)\"" }.joined(separator: ", ")
                    let path = entry.templates.count == 1 ? site.linkSource(entry.templates[0]) : site.sections.source("callLinks", site.callLinks.linkSources[0].hasPrefix("paths") ? "paths" : "links")
                    let subject = entry.templates.count == 1 ? "the link template \(templates) (e.g. \(entry.url)) is" : "the link templates \(templates) (e.g. \(entry.url)) are"
                    found.append(LintDiagnostic(.lh704, .error, path: path, "on \(host), \(subject) \(entry.cause)"))
                }
            }
        }
        return found + reverse(web, served: served, entries: entries)
    }

    /// A host a device could have for a site host: itself, or `x.example.com` for `*.example.com`.
    private static func deviceHost(_ host: String) -> String {
        host.hasPrefix("*.") ? "x" + host.dropFirst(1) : host
    }

    /// A link of `template` the manifest does not open in the app on `host`, and why; nil when it opens all.
    private static func unclaimed(_ template: CallLinkTemplate, host: String, site: SiteConfig, web: [AndroidManifestFile.IntentFilter]) -> (url: String, cause: String)? {
        for sample in ServedConsistency.samples(of: template, defaultType: site.callLinks.defaultType) {
            let path = String(sample[..<(sample.firstIndex(of: "?") ?? sample.endIndex)])
            let claiming = web.filter { $0.claims(host: host, path: path) }
            let url = "https://\(host)\(sample)"
            if claiming.isEmpty {
                return (url, "claimed by no App Links intent filter of the manifest, so Android opens such links in the browser")
            }
            if !claiming.contains(where: { $0.autoVerify && $0.exported }) {
                let filter = claiming[0]
                let why = filter.exported ? "without android:autoVerify=\"true\"" : "of an activity with android:exported=\"false\""
                return (url, "claimed only by the intent filter of \(filter.activity) (line \(filter.line)) \(why), so Android does not open such links in the app as verified App Links")
            }
        }
        return nil
    }

    /// Verified claims the config serves nothing for: hosts of no site with Android apps, paths of no template.
    private static func reverse(_ web: [AndroidManifestFile.IntentFilter], served: ServedHosts, entries: [(site: SiteConfig, hosts: [String])]) -> [LintDiagnostic] {
        var found: [LintDiagnostic] = []
        for filter in web where filter.autoVerify {
            let location = "\(filter.activity) <intent-filter> (line \(filter.line))"
            for host in filter.hosts where !served.namesNoHost {
                let covered = entries.contains { $0.hosts.contains { $0 == host || CallLinkHost.covers($0, host: host) } }
                if !covered {
                    found.append(LintDiagnostic(.lh705, .warning, path: location, "claims the host \(host), which no site of the config serves \(served.app ?? "Android apps") on, so Android cannot verify it with linkhost's assetlinks.json"))
                }
            }
            let servesAHost = filter.hosts.contains { host in entries.contains { $0.hosts.contains { $0 == host || CallLinkHost.covers($0, host: host) } } }
            for pattern in filter.paths where servesAHost || served.namesNoHost {
                let used = entries.contains { entry in
                    entry.hosts.contains { host in filter.hosts.contains { AndroidManifestFile.IntentFilter.covers($0, deviceHost(host)) } }
                        && PlatformConsistency.templatePaths(entry.site).contains(where: pattern.matches)
                }
                if !used {
                    found.append(LintDiagnostic(.lh705, .warning, path: location, "android:\(pattern.attribute)=\"\(pattern.value)\" claims paths on which the config serves no call link"))
                }
            }
        }
        return found
    }
}
