import CallLinks
import LinkHostCore

/// The apps' side of `linkhost match`: which app parser reads a URL, and as which call.
///
/// The same URL must mean the same call to iOS, to Android and to the parsers the apps are printed
/// (`print swift-parser`, `print kotlin-parser`): iOS opens `http` and `https` universal links, so
/// `CallLinkParser` reads both; Android hands the app only the schemes its printed manifest declares
/// (`KotlinParserGenerator.webSchemes` and the custom scheme), so the Kotlin parser reads those only.
/// `scripts/check-kotlin-parser.sh` holds the compiled Kotlin parser to the lines written here.
enum MatchParsers {
    /// The platforms a `--platform` value asks about.
    struct Platforms {
        let iOS: Bool
        let android: Bool

        init(_ platform: String) {
            iOS = platform != "android"
            android = platform != "ios"
        }
    }

    /// The lowercased scheme of `url` when it is a custom one (not http or https), else nil.
    static func customScheme(of url: String) -> String? {
        // ASCII only before lowercasing: Unicode lowercasing turns the Kelvin sign into k, which no app declares.
        guard let colon = url.firstIndex(of: ":"), url[..<colon].unicodeScalars.allSatisfy(\.isASCII) else { return nil }
        let scheme = url[..<colon].lowercased()
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first), scheme != "http", scheme != "https",
              scheme.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return scheme
    }

    /// `match` for a custom-scheme URL (`acmevideo://call/abc123`): which apps declare the scheme, and the
    /// call each one's parser reads; the exit code is 0 when a parser reads a call, else 1.
    static func customSchemeAnswer(_ url: String, scheme: String, config: Config, path: String, platforms: Platforms,
                                   app: String?, package: String?) -> (text: String, exitCode: Int32) {
        let sites = config.sites.filter { URLTypesGenerator.scheme(of: $0) == scheme }
        var text = "\(url)\n"
        guard !sites.isEmpty else {
            let written = unique(config.sites.compactMap(URLTypesGenerator.scheme(of:)))
            let others = written.isEmpty ? "no site writes a custom scheme" : "the pages write \(written.joined(separator: ", "))"
            text += "  scheme \(scheme): no site of \(path) writes it (\(others)), so no app linkhost prints files for declares it\n"
            return (text, 1)
        }
        let iOSApps = platforms.iOS ? unique(sites.flatMap(\.appIDs)).filter { names(app, iOSApp: $0) } : []
        let androidApps = platforms.android ? unique(sites.flatMap { $0.android.map(\.packageName) }).filter { package == nil || $0 == package } : []
        var declared: [String] = []
        if !iOSApps.isEmpty { declared.append("the iOS app\(iOSApps.count == 1 ? "" : "s") \(iOSApps.joined(separator: ", ")) (Info.plist CFBundleURLSchemes: print info-plist)") }
        if !androidApps.isEmpty { declared.append("the Android app\(androidApps.count == 1 ? "" : "s") \(androidApps.joined(separator: ", ")) (an intent filter of print android-manifest)") }
        guard !declared.isEmpty else {
            text += "  scheme \(scheme): written by the pages of \(sites.map(\.label).joined(separator: ", ")), but no app asked about declares it\n"
            return (text, 1)
        }
        text += "  scheme \(scheme): declared by \(declared.joined(separator: " and "))\n"
        var reads = false
        for app in iOSApps {
            let line = parserLine(url, app: app, kind: .iOS, config: config, hostOfURL: nil, schemeSites: sites)
            reads = reads || line.reads
            text += line.text
        }
        for app in androidApps {
            let line = parserLine(url, app: app, kind: .android, config: config, hostOfURL: nil, schemeSites: sites)
            reads = reads || line.reads
            text += line.text
        }
        return (text, reads ? 0 : 1)
    }

    /// The exit code of `match` when a platform opens an app with a URL its printed parser reads no call in:
    /// the app is handed a link it cannot join.
    static let deadEndExitCode: Int32 = 4

    /// One app's printed parser on a URL: the app, its `app parser:` line, whether it reads a call, and
    /// whether the app's files claim the URL's host (only then can a platform open the app with it).
    struct Reading {
        let app: String
        let text: String
        let reads: Bool
        let claimsHost: Bool
    }

    /// The parser readings of a web URL, per platform: per app of the site serving `host` (or the one
    /// `--app`/`--package` names).
    static func webReadings(_ url: String, host: String, site: SiteConfig, config: Config, platforms: Platforms,
                            app: String?, package: String?) -> (iOS: [Reading], android: [Reading]) {
        let iOS = platforms.iOS ? site.appIDs.filter { names(app, iOSApp: $0) }.map { parserLine(url, app: $0, kind: .iOS, config: config, hostOfURL: host) } : []
        let android = platforms.android ? site.android.map(\.packageName).filter { package == nil || $0 == package }
            .map { parserLine(url, app: $0, kind: .android, config: config, hostOfURL: host) } : []
        return (iOS, android)
    }

    /// The `dead end:` lines for the apps a platform opens (`opened`) on a host their files claim, whose
    /// parser reads no call in the URL. (On a host the app's entitlements or manifest do not name, such as a
    /// loopback name in development, no platform opens the app, whatever the association file says.)
    static func deadEnds(_ readings: [Reading], opened: [String], platform: String, parser: String) -> [String] {
        readings.filter { !$0.reads && $0.claimsHost && opened.contains($0.app) }.map { reading in
            "  dead end: \(platform) opens \(reading.app) with this URL, but its \(parser) reads no call in it, so the app is handed a link it cannot join\n"
        }
    }

    /// `names` in order, each once.
    private static func unique(_ names: [String]) -> [String] {
        var seen: [String] = []
        for name in names where !seen.contains(name) { seen.append(name) }
        return seen
    }

    /// Whether `--app` (nil: every app) names the iOS app `id`, by its app ID or its bundle ID alone.
    private static func names(_ app: String?, iOSApp id: String) -> Bool {
        guard let app else { return true }
        return app == id || id.split(separator: ".", maxSplits: 1).last.map(String.init) == app
    }

    /// Why Android leaves a web URL to the browser whatever its assetlinks.json says, or nil when the
    /// printed manifest's App Links filters declare its scheme.
    static func androidSchemeRefusal(_ scheme: String) -> String? {
        guard !KotlinParserGenerator.webSchemes.contains(scheme) else { return nil }
        let declared = KotlinParserGenerator.webSchemes.joined(separator: ", ")
        return "the App Links filters of print android-manifest declare \(declared) only, and Android matches a filter's schemes only, so an \(scheme) link stays in the browser"
    }

    /// One app's printed parser on `url`: `  app parser: NAME of APP (print …): call "ID", type "TYPE"` or `: none…`;
    /// its templates are those of the site serving `hostOfURL`, else of the first of `schemeSites` (the sites
    /// whose pages write the URL's custom scheme) that lists the app.
    private static func parserLine(_ url: String, app: String, kind: AppKind, config: Config, hostOfURL: String?,
                                   schemeSites: [SiteConfig] = []) -> Reading {
        // The hosts `print … --app` builds the parser with: every host whose files name the app; a config that
        // names no host is printed with --host, here the URL's.
        var served = ServedHosts(config: config)
        if served.namesNoHost, let hostOfURL { served = ServedHosts(config: config, host: hostOfURL) }
        let chosen = served.naming(app, kind: kind)
        let urlHost = hostOfURL.map { String($0.prefix { $0 != ":" }).lowercased() }
        let name = kind == .iOS ? "CallLinkParser" : "Kotlin CallLinks"
        let command = kind == .iOS ? "print swift-parser --app \(app)" : "print kotlin-parser --app \(app)"
        let prefix = "  app parser: \(name) of \(app) (\(command)): "
        let apps: (SiteConfig) -> [String] = kind == .iOS ? { $0.appIDs } : { $0.android.map(\.packageName) }
        let serving = chosen.entries.first { entry in urlHost.map { host in entry.hosts.contains { CallLinkHost.covers($0, host: host) } } ?? false }
        let declaring = schemeSites.first { apps($0).contains(app) }
        guard let site = serving?.site ?? declaring ?? chosen.entries.first?.site ?? config.sites.first(where: { apps($0).contains(app) }) else {
            return Reading(app: app, text: prefix + "none: no site serves the app\n", reads: false, claimsHost: false)
        }
        // The hosts do not matter to a custom-scheme URL; a parser needs one all the same.
        let hosts = chosen.hosts.isEmpty ? [hostOfURL ?? "localhost"] : chosen.hosts
        let scheme = URLTypesGenerator.scheme(of: site)
        guard let parser = try? CallLinkParser(templates: site.callLinks.links.templates.map(\.text), defaultType: site.callLinks.defaultType,
                                               hosts: hosts, schemes: scheme.map { [$0] } ?? [])
        else { return Reading(app: app, text: prefix + "none: the site's links make no parser\n", reads: false, claimsHost: serving != nil) }
        if kind == .android, customScheme(of: url) == nil, let colon = url.firstIndex(of: ":"),
           let refusal = androidSchemeRefusal(url[..<colon].lowercased()) {
            return Reading(app: app, text: prefix + "none: \(refusal)\n", reads: false, claimsHost: serving != nil)
        }
        guard let link = parser.parse(url) else {
            return Reading(app: app, text: prefix + "none: not a call link of \(hosts.joined(separator: ", "))\n", reads: false, claimsHost: serving != nil)
        }
        return Reading(app: app, text: prefix + "call \"\(link.callID)\", type \"\(link.callType)\"\n", reads: true, claimsHost: serving != nil)
    }
}
