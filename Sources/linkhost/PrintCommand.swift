import LinkHostCore
import LinkHostServer

/// `linkhost print`: a generated file exactly as served, or what the app needs from the same config.
enum PrintCommand: Command {
    static let name = "print"
    static let summary = "Print the AASA or assetlinks.json as served, or the app's entitlements, manifest or parser."
    static let help = """
    USAGE: linkhost print aasa|assetlinks [--host HOST] [--config PATH]
           linkhost print entitlements [--app APPID] [--host HOST] [--mode developer] [--config PATH]
           linkhost print android-manifest [--app PACKAGE] [--host HOST] [--config PATH]
           linkhost print info-plist [--app APPID] [--host HOST] [--config PATH]
           linkhost print swift-parser [--app APPID] [--host HOST] [--config PATH]
           linkhost print kotlin-parser [--app PACKAGE] [--package NAME] [--host HOST] [--config PATH]
           linkhost print hosts [--format lines|json] [--config PATH]

    aasa, assetlinks
        The generated file, byte for byte as the server sends it on HOST. assetlinks.json
        carries each Android app's dynamic rules (Android 15+), translated from aasa.rules
        or derived from the link templates, unless the app sets "dynamicRules": false.
    entitlements
        The com.apple.developer.associated-domains entitlement for the iOS app's
        .entitlements file: applinks: for every host of every site with iOS apps (the
        top level's: its baseURL's host and openInAppHost, where no site lists them), plus
        webcredentials: where aasa.webcredentials is set and appclips: for every exact
        host whose AASA lists the app's App Clip (Apple asks for appclips: in the app's
        entitlements and the clip's alike). With --app naming an App Clip
        (apps[].appClipBundleID), the clip target's own: appclips: for every exact host
        whose AASA lists the clip, and com.apple.developer.parent-application-identifiers
        naming the clip's app.
    android-manifest
        The <intent-filter android:autoVerify="true"> elements for the Android app's
        <activity>: VIEW, DEFAULT, BROWSABLE, https, every host of a site with Android
        apps, and a path claim per link template, broad enough for the dynamic rules
        to narrow (pathPrefix for a placeholder in the path, path for a query-only
        template). Where the page also links to a custom scheme (the app's urlScheme or
        callLinks.openInAppURL), a second <intent-filter> declares it.
    info-plist
        The CFBundleURLTypes entry for the iOS app's Info.plist that registers the
        custom scheme the page links to.
    swift-parser
        The one line of Swift that builds the app's CallLinkParser (import CallLinks)
        with the templates, default type and hosts the server uses; with --app naming
        an App Clip, the clip's (it reads its invocation URL with the same parser).
    kotlin-parser
        One self-contained Kotlin file (nothing beyond the JDK) for the Android app:
        CallLinks.parse(url) and CallLinks.takeDeferred(installReferrer, ...) with the
        templates, default type, hosts and custom scheme built in, deciding every link as
        the server and the Swift CallLinkParser do.
    hosts
        Every host the server answers by name, one per line as HOST SITE (a wildcard starts
        with *.), or with --format json [{"host", "site", "wildcard"}]: each site's hosts,
        and the top level's baseURL host, openInAppHost and server.tls.acme.hosts where no
        site lists them. What the TLS layer in front needs certificates for (cert-manager, an
        ingress, a CDN's custom hostnames); a wildcard needs a DNS-01 challenge. Exits 1
        when a site file fails (its hosts would be missing from the list).

    An app's files name exactly the hosts whose association files name that app. When
    the config serves several apps of the kind on different hosts, give --app; without
    it linkhost lists the apps and exits 2 rather than guess.

    OPTIONS:
      --app APPID     The app the files are for: an iOS app's TEAMID.bundle.id (or its
                      bundle ID) for entitlements, info-plist and swift-parser, or an App
                      Clip's for entitlements and swift-parser; an Android package for
                      android-manifest.
      --package NAME  The Kotlin file's package (default: the Android app's package and
                      .calllinks).
      --host HOST     The site that serves HOST, chosen as the server chooses it (default:
                      every site for entitlements and android-manifest; the default site
                      for aasa and assetlinks).
      --mode MODE     developer: entitlements with ?mode=developer, for development builds
                      only (devices in developer mode fetch the AASA from the server,
                      bypassing Apple's CDN); remove it before release.
      --format FORMAT lines (default) or json, for hosts.
      --config PATH   Config file (default: $LINKHOST_CONFIG or config/linkhost.json).
      -h, --help      Show this help.

    Check an app's real files against the config with linkhost validate --entitlements
    FILE or --android-manifest FILE.

    EXIT CODES: 0 printed, 1 nothing to print (no app of that kind, or no host named) or
    a site file failed (hosts), 2 usage or config error.
    """

    static let things = ["aasa", "assetlinks", "entitlements", "android-manifest", "info-plist", "swift-parser", "kotlin-parser", "hosts"]

    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32 {
        let arguments = try Arguments(words, command: name, options: ["--config", "--host", "--mode", "--app", "--package", "--format"], flags: [])
        if arguments.has("--help") { StandardStreams.output(help + "\n"); return 0 }
        guard arguments.positional.count == 1, let what = arguments.positional.first, things.contains(what) else {
            throw UsageError(message: "say what to print: \(things.map { "'\($0)'" }.joined(separator: ", "))", command: name)
        }
        if let mode = arguments["--mode"], mode != "developer" || what != "entitlements" {
            throw UsageError(message: what == "entitlements" ? "--mode takes developer, not '\(mode)'" : "--mode goes with 'print entitlements' only", command: name)
        }
        if arguments["--package"] != nil, what != "kotlin-parser" {
            throw UsageError(message: "--package goes with 'print kotlin-parser' only", command: name)
        }
        if let format = arguments["--format"], what != "hosts" || !["lines", "json"].contains(format) {
            throw UsageError(message: what == "hosts" ? "--format takes lines or json, not '\(format)'" : "--format goes with 'print hosts' only", command: name)
        }
        let path = configPath(arguments, environment: environment)
        guard let config = loadedConfig(path, environment: environment) else { return 2 }
        if what == "hosts" { return PrintHosts.run(config, json: arguments["--format"] == "json") }
        let text: String?
        switch what {
        case "aasa", "assetlinks":
            let site = try chosenSite(arguments, in: config, command: name)
            let bytes = what == "aasa"
                ? (site.apps.isEmpty ? [] : AASAGenerator.bytes(for: site))
                : (site.android.isEmpty ? [] : AssetLinksGenerator.bytes(for: site))
            guard !bytes.isEmpty else { return nothing(what == "aasa" ? "iOS app in \"apps\"" : "Android app in \"android\"", site: site) }
            text = String(decoding: bytes, as: UTF8.self)
        case "entitlements":
            let kind = ServedHosts.iOSKind(naming: arguments.all("--app"), config: config)
            let served = try hosts(arguments, config: config, kind: kind)
            if kind == .appClip {
                guard !AppClipEntitlements.entries(for: served).isEmpty else { return nothing("exact host (appclips: takes no wildcard) for the App Clip", site: nil) }
                text = AppClipEntitlements.fragment(for: served, developer: arguments["--mode"] == "developer", source: path)
                break
            }
            guard !EntitlementsGenerator.entries(for: served).app.isEmpty else { return nothing("iOS app in \"apps\" on a named host", site: nil) }
            text = EntitlementsGenerator.fragment(for: served, developer: arguments["--mode"] == "developer", source: path)
        case "android-manifest":
            let served = try hosts(arguments, config: config, kind: .android)
            guard served.entries.contains(where: { !$0.site.android.isEmpty }) else { return nothing("Android app in \"android\" on a named host", site: nil) }
            text = AndroidManifestGenerator.fragment(for: served, source: path)
        case "info-plist":
            if ServedHosts.iOSKind(naming: arguments.all("--app"), config: config) == .appClip {
                // Apple, "Choosing the right functionality for your App Clip": custom URL schemes are the full app's.
                throw UsageError(message: "an App Clip registers no custom URL scheme (Apple reserves them for the full app); give the app's ID with --app", command: name)
            }
            let served = try hosts(arguments, config: config, kind: .iOS)
            guard !URLTypesGenerator.schemes(for: served).isEmpty else { return nothing("custom URL scheme (an iOS app's \"urlScheme\" or \"callLinks.openInAppURL\") on a named host", site: nil) }
            text = URLTypesGenerator.fragment(for: served, source: path)
        case "kotlin-parser":
            text = try kotlinParser(arguments, config: config, source: path)
        default:
            text = try parserLine(arguments, config: config)
        }
        StandardStreams.output(text ?? "")
        return 0
    }

    private static func nothing(_ what: String, site: SiteConfig?) -> Int32 {
        let scope = site.map { $0.hosts.isEmpty ? "" : " for \($0.label)" } ?? ""
        StandardStreams.error("linkhost: no \(what) is configured\(scope)\n")
        return 1
    }

    /// The sites and hosts to print for: the site of `--host`, else every site that names hosts; of those,
    /// the ones whose association files name the app of `--app`.
    private static func hosts(_ arguments: Arguments, config: Config, kind: AppKind) throws(UsageError) -> ServedHosts {
        var served: ServedHosts
        if let host = arguments["--host"] {
            _ = try chosenSite(arguments, in: config, command: name)
            served = ServedHosts(config: config, host: host)
        } else {
            served = ServedHosts(config: config)
            if served.namesNoHost {
                throw UsageError(message: "the config names no host (no sites, no callLinks.baseURL); give the host links are served on with --host", command: name)
            }
        }
        do {
            served = try served.chosen(arguments.all("--app"), kind: kind, config: config)
        } catch {
            throw UsageError(message: error.description, command: name)
        }
        // On stderr, so stdout stays what to paste: whose hosts these are, when several sites could have given some.
        if let app = served.app, config.sites.count > 1 { StandardStreams.error("linkhost: \(app): the hosts of \(served.sitesDescription)\n") }
        return served
    }

    /// The parser line for the site of `--host`, or for every site when they share their templates.
    private static func parserLine(_ arguments: Arguments, config: Config) throws(UsageError) -> String {
        let (site, hosts, _) = try parserSite(arguments, config: config, kind: ServedHosts.iOSKind(naming: arguments.all("--app"), config: config))
        return SwiftParserLine.line(for: site, hosts: hosts)
    }

    /// The Kotlin parser file for the Android app's site, in the package of `--package`.
    private static func kotlinParser(_ arguments: Arguments, config: Config, source: String) throws(UsageError) -> String {
        let (site, hosts, app) = try parserSite(arguments, config: config, kind: .android)
        let package = arguments["--package"] ?? ((app ?? site.android.first?.packageName).map { $0 + ".calllinks" } ?? "calllinks")
        if let problem = KotlinParserGenerator.packageProblem(package) {
            throw UsageError(message: "package '\(package)' \(problem); give one with --package", command: name)
        }
        return KotlinParserGenerator.file(for: site, hosts: hosts, package: package, app: app, source: source)
    }

    /// The one site (and its hosts) a parser is built for: every chosen site must share its link templates.
    private static func parserSite(_ arguments: Arguments, config: Config, kind: AppKind) throws(UsageError) -> (site: SiteConfig, hosts: [String], app: String?) {
        let served = try hosts(arguments, config: config, kind: kind)
        guard let first = served.entries.first else {
            throw UsageError(message: "the config names no host; give it with --host", command: name)
        }
        let sameLinks = served.entries.allSatisfy { $0.site.callLinks.links == first.site.callLinks.links }
        guard sameLinks else {
            let hosts = served.entries.map { $0.hosts[0] }.map { "'\($0)'" }.joined(separator: ", ")
            throw UsageError(message: "the sites have different link templates; give --host for one of \(hosts) and build one parser per site", command: name)
        }
        return (first.site, served.hosts, served.app)
    }
}

/// The config at `path`, or nil after printing every problem that stops it loading.
func loadedConfig(_ path: String, environment: [String: String]) -> Config? {
    do {
        // Every core: ten thousand tenants' site files are read side by side, as serve reads them.
        return try ConfigLoader.load(path: path, environment: environment, cores: Server.processorCount())
    } catch {
        StandardStreams.error("\(error)\n")
        return nil
    }
}
