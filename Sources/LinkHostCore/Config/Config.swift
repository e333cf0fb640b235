/// The whole validated configuration of one linkhost instance: its listener and observability, and
/// the sites it serves.
///
/// Values here are already checked: code that receives a `Config` never re-validates it.
public struct Config: Sendable, Equatable {
    /// Where and how the server listens.
    public var server: ServerSettings
    /// Access logs, health probe and metrics; the same on every host.
    public var observability: ObservabilitySettings
    /// Every site, the default site first: the top level of the config, which also answers every
    /// `Host` that no other site names. The others follow in the order of `sites`.
    public var sites: [SiteConfig]
    /// True for the shipped example (`"example": true`): `serve` gets it no certificate and says so
    /// loudly when it answers beyond loopback, so the example's apps never go live on a real domain.
    public var isExample = false
    /// `siteFiles`, read: the folder and name pattern of the files that each hold one site; nil without.
    public var siteFiles: SiteFilePattern? = nil
    /// Site files that failed at this load: their sites serve their last good version or are left out.
    public var siteFileFailures: [SiteFileFailure] = []
    /// Each site file read at this load, by name: its size and content hash (`SiteFiles.digest`), what the
    /// reload line and the watcher compare (`SiteFileChanges`).
    public var siteFileDigests: [String: String] = [:]

    /// The part of the config's identity that lies outside the main file: one `name size:hash` line per site
    /// file, in the folder's order (empty without `siteFiles`).
    public var siteFilesDigest: String {
        siteFileDigests.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { "\($0.key) \($0.value)\n" }.joined()
    }
    /// `sharedApps`: for each app identity (iOS app ID or Android package) the operator shares, the names of
    /// the sites that may list it; an app it lists belongs to those sites only (`SiteFileClaims`).
    public var sharedApps: [String: Set<String>] = [:]

    /// The site of the config's top level.
    public var defaultSite: SiteConfig { sites[0] }

    /// Each site's name (`SiteConfig.label`) by its path, `sites[6]` → `customer6`, for diagnostics.
    public var siteNames: [String: String] {
        // A site file left out is still named where its problems are reported.
        Dictionary(sites.dropFirst().map { ($0.path, $0.label) } + siteFileFailures.map { ($0.path, $0.site) }, uniquingKeysWith: { first, _ in first })
    }

    /// Makes a config; `sites` must hold the default site first.
    public init(server: ServerSettings, observability: ObservabilitySettings, sites: [SiteConfig]) {
        precondition(!sites.isEmpty, "a config has at least its default site")
        self.server = server
        self.observability = observability
        self.sites = sites
    }

    /// The site that answers `host` (a `Host` value: any case, a port allowed) exactly as the server
    /// chooses it; the default site when no site names it.
    public func site(forHost host: String?) -> SiteConfig {
        sites[SiteDirectory(sites: sites).siteIndex(forAuthority: host?.utf8)]
    }
}

/// One site: the hosts it answers and everything served on them.
///
/// A site's `apps`, `android`, `callLinks`, `aasa` and `static` are its own where it sets them and the top
/// level's where it does not, and inside a section it writes, each key `ConfigKeyTable` inherits by key is
/// the top level's unless the site writes it; resolved at load. `sections` records which, so problems name
/// the key the user actually wrote.
public struct SiteConfig: Sendable, Equatable {
    /// Host names, lowercased, matched without port; `*.example.com` matches any subdomain. Empty for the
    /// default site.
    public var hosts: [String]
    /// The site's `id` as written (`sites[].id`); nil names it by its first host.
    public var id: String? = nil
    /// The name of the site file it was read from (`acme.json`), nil for the config's own sites: a failing
    /// file's last good version is kept under it.
    public var file: String? = nil
    /// The size and content hash (`1234:9f0c…`, `SiteFiles.digest`) of the site file's bytes this version was
    /// read from; nil for the config's own sites. The state folder keeps those bytes as its last good version.
    public var fileDigest: String? = nil
    /// The SHA-256 (hex) of the bytes of the file the site is written in: its site file, or the config file for
    /// the top level and `sites`; a version an operator compares with `sha256sum`. Nil when the loader was given
    /// no hash (`ConfigLoader.parse`'s `fileHash`: only `serve` shows it).
    public var fileSHA256: String? = nil
    /// The iOS apps that may open links on these hosts.
    public var apps: [AppleApp]
    /// The Android apps that may open links on these hosts.
    public var android: [AndroidApp]
    /// The call links and their page.
    public var callLinks: CallLinkSettings
    /// How the apple-app-site-association file is generated and served.
    public var aasa: AASASettings
    /// How the site's static files are served.
    public var staticFiles: StaticFileSettings
    /// The top level's static folder, when the site's is another: a file the site's folder lacks is served
    /// from it, so a brand folder holds only what differs (an overlay). Nil for the default site.
    public var staticFallbackRoot: String? = nil
    /// The site file's own folder (`SiteFileFolder`), nil for the operator's sites: the paths the file wrote
    /// lie in it and are checked again at load, so a link put in their way since cannot lead out.
    public var ownFolder: String? = nil
    /// Where each of the site-level keys was read from.
    public var sections: SiteSections

    /// The site file's folder when `path` is one the file wrote (it lies in that folder as written); nil for a
    /// path the site inherited from the top level, and for the operator's sites.
    public func ownFolder(of path: String) -> String? {
        guard let ownFolder, path == ownFolder || path.hasPrefix(ownFolder + "/") else { return nil }
        return ownFolder
    }

    /// The app identifiers (`TEAMID.bundle.id`) of every iOS app, in config order.
    public var appIDs: [String] { apps.map(\.appID) }

    /// The app name the call page shows: the first iOS app's, else the first named Android app's.
    public var appName: String? { apps.first?.name ?? android.first { $0.name != nil }?.name }

    /// The name of the site in metrics, logs and diagnostics: its `id`, else its first host, or `default`
    /// for the top level.
    public var label: String { id ?? hosts.first ?? "default" }

    /// Where the site itself is in the config: empty for the default site, `sites[N]` otherwise.
    public var path: String { sections.site }

    /// Where the site's link template `index` was written, e.g. `sites[1].callLinks.links[2]`.
    public func linkSource(_ index: Int) -> String {
        ConfigReader.join(sections.sectionPath(of: "callLinks", "links"), callLinks.linkSources[index])
    }
}

/// The JSON path each site-level key of a site was read from: the site's own (`sites[1].callLinks`) or,
/// when the site leaves it out, the top level's (`callLinks`).
public struct SiteSections: Sendable, Equatable {
    /// The site's own path: empty for the default site, `sites[N]` otherwise.
    public var site: String
    /// Where `apps` was read from.
    public var apps: String
    /// Where `android` was read from.
    public var android: String
    /// Where `callLinks` was read from.
    public var callLinks: String
    /// Where `aasa` was read from.
    public var aasa: String
    /// Where `static` was read from.
    public var staticFiles: String
    /// The section (`callLinks`) each key a site inherited by key was written in, by `section.key`
    /// (`callLinks.template`): the top level's, while the rest of the section is the site's own.
    public var keySections: [String: String] = [:]

    /// Makes the record of a site's sections, every key read where its section was.
    public init(site: String, apps: String, android: String, callLinks: String, aasa: String, staticFiles: String) {
        (self.site, self.apps, self.android, self.callLinks, self.aasa, self.staticFiles) = (site, apps, android, callLinks, aasa, staticFiles)
    }

    /// Where `key` of `section` (`callLinks`, `aasa`, `static`) was read from: `sites[1].callLinks`, or
    /// `callLinks` when the site inherits the section or the key.
    public func sectionPath(of section: String, _ key: String) -> String {
        if let inherited = keySections["\(section).\(key)"] { return inherited }
        switch section {
        case "callLinks": return callLinks
        case "aasa": return aasa
        case "static": return staticFiles
        default: return ConfigReader.join(site, section)
        }
    }

    /// The JSON path of `key` of `section` as it was read (or would be written), e.g. `sites[1].callLinks.template`.
    public func source(_ section: String, _ key: String) -> String {
        ConfigReader.join(sectionPath(of: section, key), key)
    }

    /// The sections of the default site: every key at the top level.
    public static let topLevel = SiteSections(site: "", apps: "apps", android: "android", callLinks: "callLinks", aasa: "aasa", staticFiles: "static")
}
