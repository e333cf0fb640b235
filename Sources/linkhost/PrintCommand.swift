import LinkHostCore
import LinkHostServer

/// `linkhost print`: a generated file exactly as served, or what the app needs from the same config.
enum PrintCommand: Command {
    static let name = "print"
    static let summary = "Print the AASA or assetlinks.json as served, or the app's entitlements, manifest or parser."
    static let help = """
    USAGE: linkhost print aasa|assetlinks [--host HOST] [--config PATH]
           linkhost print entitlements [--host HOST] [--mode developer] [--config PATH]
           linkhost print android-manifest [--host HOST] [--config PATH]
           linkhost print info-plist [--host HOST] [--config PATH]
           linkhost print swift-parser [--host HOST] [--config PATH]

    aasa, assetlinks
        The generated file, byte for byte as the server sends it on HOST. assetlinks.json
        carries each Android app's dynamic rules (Android 15+), translated from aasa.rules
        or derived from the link templates, unless the app sets "dynamicRules": false.
    entitlements
        The com.apple.developer.associated-domains entitlement for the iOS app's
        .entitlements file: applinks: for every host of every site with iOS apps, plus
        webcredentials: where aasa.webcredentials is set and appclips: (for the App
        Clip's own entitlements) where aasa.appclips is.
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
        with the templates, default type and hosts the server uses.

    OPTIONS:
      --host HOST     The site that serves HOST, chosen as the server chooses it (default:
                      every site for entitlements and android-manifest; the default site
                      for aasa and assetlinks).
      --mode MODE     developer: entitlements with ?mode=developer, for development builds
                      only (devices in developer mode fetch the AASA from the server,
                      bypassing Apple's CDN); remove it before release.
      --config PATH   Config file (default: $LINKHOST_CONFIG or config/linkhost.json).
      -h, --help      Show this help.

    Check an app's real files against the config with linkhost validate --entitlements
    FILE or --android-manifest FILE.

    EXIT CODES: 0 printed, 1 nothing to print (no app of that kind, or no host named),
    2 usage or config error.
    """

    static let things = ["aasa", "assetlinks", "entitlements", "android-manifest", "info-plist", "swift-parser"]

    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32 {
        let arguments = try Arguments(words, command: name, options: ["--config", "--host", "--mode"], flags: [])
        if arguments.has("--help") { StandardStreams.output(help + "\n"); return 0 }
        guard arguments.positional.count == 1, let what = arguments.positional.first, things.contains(what) else {
            throw UsageError(message: "say what to print: \(things.map { "'\($0)'" }.joined(separator: ", "))", command: name)
        }
        if let mode = arguments["--mode"], mode != "developer" || what != "entitlements" {
            throw UsageError(message: what == "entitlements" ? "--mode takes developer, not '\(mode)'" : "--mode goes with 'print entitlements' only", command: name)
        }
        let path = configPath(arguments, environment: environment)
        guard let config = loadedConfig(path, environment: environment) else { return 2 }
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
            let served = try hosts(arguments, config: config)
            guard !EntitlementsGenerator.entries(for: served).app.isEmpty else { return nothing("iOS app in \"apps\" on a named host", site: nil) }
            text = EntitlementsGenerator.fragment(for: served, developer: arguments["--mode"] == "developer", source: path)
        case "android-manifest":
            let served = try hosts(arguments, config: config)
            guard served.entries.contains(where: { !$0.site.android.isEmpty }) else { return nothing("Android app in \"android\" on a named host", site: nil) }
            text = AndroidManifestGenerator.fragment(for: served, source: path)
        case "info-plist":
            let served = try hosts(arguments, config: config)
            guard !URLTypesGenerator.schemes(for: served).isEmpty else { return nothing("custom URL scheme (an iOS app's \"urlScheme\" or \"callLinks.openInAppURL\") on a named host", site: nil) }
            text = URLTypesGenerator.fragment(for: served, source: path)
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

    /// The sites and hosts to print for: the site of `--host`, else every site that names hosts.
    private static func hosts(_ arguments: Arguments, config: Config) throws(UsageError) -> ServedHosts {
        if let host = arguments["--host"] {
            _ = try chosenSite(arguments, in: config, command: name)
            return ServedHosts(config: config, host: host)
        }
        let served = ServedHosts(config: config)
        if served.namesNoHost {
            throw UsageError(message: "the config names no host (no sites, no callLinks.baseURL); give the host links are served on with --host", command: name)
        }
        return served
    }

    /// The parser line for the site of `--host`, or for every site when they share their templates.
    private static func parserLine(_ arguments: Arguments, config: Config) throws(UsageError) -> String {
        let served = try hosts(arguments, config: config)
        guard let first = served.entries.first else {
            throw UsageError(message: "the config names no host; give it with --host", command: name)
        }
        let sameLinks = served.entries.allSatisfy { $0.site.callLinks.links == first.site.callLinks.links }
        guard sameLinks else {
            let hosts = served.entries.map { $0.hosts[0] }.map { "'\($0)'" }.joined(separator: ", ")
            throw UsageError(message: "the sites have different link templates; give --host for one of \(hosts) and build one parser per site", command: name)
        }
        return SwiftParserLine.line(for: first.site, hosts: served.hosts)
    }
}

/// The config at `path`, or nil after printing every problem that stops it loading.
func loadedConfig(_ path: String, environment: [String: String]) -> Config? {
    do {
        return try ConfigLoader.load(path: path, environment: environment)
    } catch {
        StandardStreams.error("\(error)\n")
        return nil
    }
}
