import CallLinks

/// Everything the server answers with, computed once from a config: the immutable snapshot of every site.
///
/// A reload builds a new `Snapshot` beside the old one and swaps it in only when the whole build
/// succeeded, so a bad config never replaces a good one, and all sites change at once or none does.
public final class Snapshot: Sendable {
    /// The config this snapshot was built from.
    public let config: Config
    /// Increases by one on every successful load; shown in metrics and logs.
    public let generation: Int
    /// SHA-256 (hex) of the config file's bytes this snapshot was built from, empty when not from a file:
    /// which config a replica serves, in `/healthz`, the metrics and the log.
    public let configSHA256: String
    /// The sites, in the order of `config.sites`: the default site first.
    public let sites: [Site]
    /// Every response computed at load, for every site, indexed by `Response.preparedID`.
    public let preparedResponses: [Response]
    /// Warnings found while building, e.g. a static file shadowed by a generated one.
    public let warnings: [ConfigDiagnostic]
    /// The answer for requests whose framing or Host is ambiguous; the connection is closed after it.
    public let badRequest: Response
    /// The answer for a call link asked for with a Host the config does not name (`PageHost.refused`): a
    /// 404 that no cache may keep, so a cache whose key leaves out the Host cannot hand it to the real host.
    public let hostRefused: Response
    /// 404 (`no-store`) for a host no site lists, while `server.strictHosts` is on.
    public let unknownHost: Response
    /// `server.strictHosts`, read on every request.
    @usableFromInline let strictHosts: Bool
    /// The answer for a request whose body is larger than the server reads, or of unknown size (chunked);
    /// the connection is closed after it.
    public let contentTooLarge: Response
    /// The answer for methods other than GET and HEAD on served paths, on every site.
    @usableFromInline package let methodNotAllowed: Response
    /// The answers on `Beacon.path`.
    package let beaconAnswers: BeaconAnswers
    /// The paths answered the same on every host: health, metrics and the beacon path (whose table entry
    /// answers any method but POST with its 405: `Router.decide` finds the beacon path by it).
    @usableFromInline package let shared: ByteKeyedTable<Resource>
    /// Which site answers which host.
    @usableFromInline package let directory: SiteDirectory
    /// The names the default site vouches for without a base URL: the hosts it gets certificates for.
    @usableFromInline let defaultSiteNames: ByteKeyedTable<Bool>

    /// Builds a snapshot, loading the files the config names; throws with every problem found. A site of a
    /// site file that fails to build fails alone (`SiteFileIsolation`): its `lastGood` version serves, or none.
    /// `cores` make what depends on each site alone (its association files, its canonical links) side by side.
    public init(config: Config, generation: Int = 1, configSHA256: String = "", lastGood: [String: SiteConfig] = [:], cores: Int = 1) throws(ConfigError) {
        var config = config
        // What depends on a site's settings alone is made for all sites at once on the cores.
        let configured = config.sites
        let precomputed = OrderedChunks.map(configured.count, chunks: OrderedChunks.chunkCount(for: configured.count, cores: cores)) { range in
            Site.Precomputed.of(configured[range])
        }.joined()
        var build = SnapshotBuild()
        build.staticStore = StaticFiles.Store(budget: config.server.staticFilesBytes)
        var sources = Self.resolvedPageSources(config)
        // The operator's sources are left out of every folder; a site file's only out of its own (`Site.ownSources`).
        build.pageSources = Set(zip(config.sites, sources).filter { $0.0.file == nil }.flatMap { [$0.1.template, $0.1.locales] })
        var sites: [Site] = []
        sites.reserveCapacity(config.sites.count)
        var failures: [ConfigDiagnostic] = []
        var isolation = SiteFileIsolation(config: config, lastGood: lastGood)
        for (site, made) in zip(configured, precomputed) {
            do {
                sites.append(try Site(site, index: sites.count, precomputed: made, build: &build))
                isolation.built(site)
            } catch {
                guard site.file != nil else { failures += error.diagnostics; continue }
                guard let fallback = isolation.failed(site, error.diagnostics) else { continue }
                do {
                    sites.append(try Site(fallback, index: sites.count, build: &build))
                    isolation.built(fallback)
                } catch {
                    isolation.fallbackFailed(fallback)
                }
            }
        }
        if isolation.changed {
            (config.sites, config.siteFileFailures) = (isolation.served, isolation.failures)
            sources = Self.resolvedPageSources(config)
        }
        // Every site's problems at once, so fixing one site does not just reveal the next.
        if !failures.isEmpty { throw ConfigError(source: "config", diagnostics: failures, siteNames: config.siteNames) }

        let observability = config.observability
        var shared = ByteKeyedTable<Resource>(foldsCase: false)
        let health = build.prepared.add(Response(status: 200, headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8"), HTTPHeader("Cache-Control", "no-store")],
                                                 body: Array(Self.healthBody(generation: generation, configSHA256: configSHA256).utf8), route: .health))
        shared.insert(Array(observability.healthPath.utf8), Resource(ok: health, notModified: health, etag: ""))
        if observability.metricsEnabled && observability.metricsPort == nil {
            // Not prepared: its body is new on every request.
            shared.insert(Array(observability.metricsPath.utf8), Resource(ok: Self.metricsResponse, notModified: Self.metricsResponse, etag: ""))
        }
        let beaconAnswers = BeaconAnswers(&build.prepared)
        shared.insert(Array(Beacon.path.utf8), Resource(ok: beaconAnswers.methodNotAllowed, notModified: beaconAnswers.methodNotAllowed, etag: ""))
        self.beaconAnswers = beaconAnswers
        self.shared = shared
        methodNotAllowed = build.methodNotAllowed
        badRequest = build.prepared.add(Response(
            status: 400,
            headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8"), HTTPHeader("Connection", "close")],
            body: Array("Bad Request\n".utf8), route: .badRequest))
        hostRefused = build.prepared.add(Response(
            status: 404,
            headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8"), HTTPHeader("Cache-Control", "no-store")],
            body: Array("Not Found: call links are served only on the hosts the config names\n".utf8), route: .notFound))
        unknownHost = build.prepared.add(Response(
            status: 404,
            headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8"), HTTPHeader("Cache-Control", "no-store")],
            body: Array("Not Found: no site of this server serves this host\n".utf8), route: .notFound))
        strictHosts = config.server.strictHosts
        contentTooLarge = build.prepared.add(Response(
            status: 413,
            headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8"), HTTPHeader("Connection", "close")],
            body: Array("Content Too Large: linkhost reads request bodies of at most 1024 bytes, sent with a Content-Length\n".utf8), route: .badRequest))
        self.config = config
        self.generation = generation
        self.configSHA256 = configSHA256
        self.sites = sites
        directory = SiteDirectory(sites: config.sites)
        var defaultNames = ByteKeyedTable<Bool>(foldsCase: true)
        for host in config.server.acme?.hosts ?? [] { _ = defaultNames.insert(Array(host.utf8), true) }
        defaultSiteNames = defaultNames
        preparedResponses = build.prepared.all
        warnings = build.warnings + Self.hiddenPageSources(config, sources: sources)
    }

    /// `ok`, then which config serves (so a probe's output tells replicas apart); the server appends live lines.
    static func healthBody(generation: Int, configSHA256: String) -> String {
        configSHA256.isEmpty ? "ok\n" : "ok\nconfig sha256:\(configSHA256) generation \(generation)\n"
    }

    /// The metrics page's headers; its body is filled per request by the server, which owns the counters.
    public static let metricsResponse = Response(
        status: 200,
        headers: PreparedResponses.commonHeaders + [HTTPHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), HTTPHeader("Cache-Control", "no-store")],
        route: .metrics)

    /// The site for a `Host` value (any case, port and trailing dot allowed); the default site when none names it.
    public func site(forHost host: String?) -> Site {
        sites[directory.siteIndex(forAuthority: host?.utf8)]
    }

    /// The site for a `Host` value's bytes, without a copy (`Router.decide`).
    @inlinable
    package func site<Bytes: BidirectionalCollection<UInt8>>(forAuthority authority: Bytes?) -> Site {
        sites[directory.siteIndex(forAuthority: authority)]
    }

    /// Each site's template and locale folder with links resolved, by site: each distinct path resolved once,
    /// however many sites name it.
    private static func resolvedPageSources(_ config: Config) -> [(template: String, locales: String)] {
        var resolved: [String: String] = [:]
        func resolve(_ path: String) -> String {
            if let known = resolved[path] { return known }
            let target = StaticFiles.resolve(path)
            resolved[path] = target
            return target
        }
        return config.sites.map { (resolve($0.callLinks.template), resolve($0.callLinks.locales)) }
    }

    /// LH306 for each of the operator's sites' template or locale folder (`sources`, resolved, by site) that lies
    /// inside a static folder one of whose sites uses another: the file is left out there (no site serves the
    /// operator's sources), which the site sharing the folder may not expect. A folder whose sites all use the
    /// same sources (the shipped layout) is fine. A site file's sources hide files in its own folder only.
    private static func hiddenPageSources(_ config: Config, sources: [(template: String, locales: String)]) -> [ConfigDiagnostic] {
        let operators = zip(config.sites, sources).filter { $0.0.file == nil }
        // Each distinct pair once per root: a thousand sites of one template and one locale folder are one pair.
        var sitesSources: [String: Set<Set<String>>] = [:]
        for (site, own) in operators {
            sitesSources[StaticFiles.resolve(site.staticFiles.root), default: []].insert([own.template, own.locales])
        }
        let roots = sitesSources.sorted { $0.key < $1.key }
        var diagnostics: [ConfigDiagnostic] = []
        var reported: Set<String> = []
        for (site, own) in operators {
            for (key, path, source) in [("template", site.callLinks.template, own.template), ("locales", site.callLinks.locales, own.locales)] {
                for (root, used) in roots
                where source.hasPrefix(root + "/") && used.contains(where: { !$0.contains(source) }) && reported.insert(source + "\n" + root).inserted {
                    diagnostics.append(ConfigDiagnostic(.lh306, path: site.sections.source("callLinks", key),
                                                        message: "\"\(path)\" lies inside the static folder \(root), which a site with other page sources serves; it is not served there as a file", severity: .warning))
                }
            }
        }
        return diagnostics
    }

    /// Which host `site`'s call pages and QR images name for a request with this `Host` value (`PageHost`).
    /// Asked by `Router.decide` alone (internal, so nothing else can choose a page's host another way).
    @inlinable
    func pageHost<Bytes: RandomAccessCollection<UInt8>>(authority: Bytes?, site: Site) -> PageHost where Bytes.Index == Int {
        PageHost.choose(authority: authority, site: site) { defaultSiteNames.value(for: $0) != nil }
    }

    /// True when the config names `host` (lowercase, without port) for `site`: a host the site lists (a site
    /// other than the default one is reached only through one), or one of the default site's certified names.
    package func namesHost<Bytes: Collection<UInt8>>(_ host: Bytes, site: Site) -> Bool {
        site.index != 0 || defaultSiteNames.value(for: host) != nil
    }

    /// The resource computed at load for exactly these path bytes on `site`: health and metrics first, then
    /// the site's generated files, then its static files.
    @inlinable
    package func exactResource<Bytes: Collection<UInt8>>(_ path: Bytes, on site: Site) -> Resource? {
        shared.value(for: path) ?? site.generated.value(for: path) ?? site.staticFiles.value(for: path)
    }

    /// `unknownHost` when `server.strictHosts` is on, `site` is the default one (no site lists the host),
    /// the host is not one of the top level's names (`server.tls.acme.hosts`) and `path` is not one every
    /// host answers (health, metrics: probes use the pod's address; beacons do come from pages); nil when the site answers.
    /// Asked by `Router.decide` alone, first for every request (internal, so no path can skip or repeat it).
    @inlinable
    func strictHostRefusal<Authority: BidirectionalCollection<UInt8>, Path: Collection<UInt8>>(authority: Authority?, site: Site, path: Path) -> Response? {
        guard strictHosts, site.index == 0, shared.value(for: path) == nil || path.elementsEqual(Beacon.path.utf8) else { return nil }
        if let authority, defaultSiteNames.value(for: HostName.host(ofAuthority: authority)) != nil { return nil }
        return unknownHost
    }

}

/// What the sites of one snapshot build share: the prepared responses, and files loaded once however
/// many sites name them.
struct SnapshotBuild {
    var prepared = PreparedResponses()
    var warnings: [ConfigDiagnostic] = []
    /// Every static file read, within `server.staticFilesBytes` (set from the config when the build starts).
    var staticStore = StaticFiles.Store(budget: ServerSettings().staticFilesBytes)
    /// Static trees by their settings (every tree leaves out the same sources).
    var staticTrees: [StaticTreeKey: StaticTree] = [:]
    /// The top level's files under a site's overlay, by their settings: read once however many sites'
    /// folders lie over them.
    var overlaidFiles: [StaticFileSettings: [(path: String, resource: Resource)]] = [:]
    /// The operator's sites' page templates and locale folders, resolved: sources, never served as static files
    /// by any site, so sites that share a folder cannot serve each other's raw template or strings (a site
    /// file's own are left out of its own folder only: `Site.ownSources`).
    var pageSources: Set<String> = []
    /// Home pages baked per static tree, default locale and languages, for every app.
    var homeBakes: [HomeKey: HomePage.Bake] = [:]
    /// Each static tree's `index.html` as the home page's template (nil: a plain page), parsed once.
    var homeTemplates: [StaticTreeKey: PageTemplate?] = [:]
    /// Page templates by path, parsed once.
    var templates: [String: PageTemplate] = [:]
    /// The locale strings a page template and a static tree's pages use, by template path and tree.
    var usedStrings: [UsedStringsKey: Set<String>] = [:]
    /// Page locales by folder, default and the strings the template uses, read once.
    var locales: [LocalesKey: [PageLocale]] = [:]
    /// Pages baked per app, template and locales, shared by the sites that bake alike.
    var bakedPages: [BakedPages.Key: BakedPages] = [:]
    /// Call pages' canonical links by link templates, shared by the sites of the same templates.
    var canonicalLinks: [[CallLinkTemplate]: [CanonicalLink]] = [:]
    /// Language choosers by locale tags, shared by the sites of the same locales.
    var choosers: [[String]: LanguageChooser] = [:]
    /// Call-page header sets by cache lifetime and locale tags, shared by the sites that have them alike.
    var pageHeaderSets: [String: [[HTTPHeader]]] = [:]
    /// Association documents by bytes, so sites that serve the same file share one prepared response.
    var documents: [DocumentKey: Resource] = [:]
    /// Not-found pages baked per static tree and locales for every app (nil: a template only an app's name bakes).
    var notFoundBakes: [NotFoundKey: NotFoundBake?] = [:]
    /// Not-found pages baked per static tree, app name and locales, for a template `notFoundBakes` could not take.
    var notFoundPages: [NotFoundKey: NotFoundPages] = [:]
    /// The plain-text 404 of every site whose static folder has no 404.html.
    var plainNotFound: NotFoundPages?
    /// `DefaultPreviewImage`, prepared once for every site that names no preview image.
    var defaultPreviewImage: Resource?
    /// The 405 of every site.
    let methodNotAllowed: Response

    init() {
        methodNotAllowed = prepared.add(Response(
            status: 405,
            headers: [HTTPHeader("Allow", "GET, HEAD"), HTTPHeader("Content-Type", "text/plain; charset=utf-8")],
            body: Array("Method Not Allowed\n".utf8), route: .methodNotAllowed))
    }

    /// What makes two static trees the same.
    struct StaticTreeKey: Hashable {
        let settings: StaticFileSettings
        /// The folder under the site's, for an overlay.
        let fallbackRoot: String?
        /// A tenant sharing the top level's folder: its `/.well-known/` files are left out (`Site.isOwnOnly`).
        let withoutWellKnown: Bool
        /// A site file's own template and locale folder inside its folder, left out of it besides the operator's.
        let ownSources: Set<String>
    }

    /// One loaded static tree: its resources and its 404.html parsed as the not-found page's template.
    struct StaticTree {
        let key: StaticTreeKey
        let resources: ByteKeyedTable<Resource>
        let paths: [String]
        let notFoundTemplate: PageTemplate?
        /// Where that 404.html is on disk, for messages: the site's folder or, in an overlay, the top level's.
        let notFoundPath: String
    }

    /// What makes two sites' not-found pages the same bytes.
    struct NotFoundKey: Hashable {
        let tree: StaticTreeKey
        /// Nil for the bake every app shares.
        let appName: String?
        let locales: [BakedPages.Key.LocaleKey]
    }

    /// What makes two sites' home-page bakes the same.
    struct HomeKey: Hashable {
        let tree: StaticTreeKey
        let locale: BakedPages.Key.LocaleKey
        let languages: String
    }

    /// What makes two sites' used locale strings the same: the page template (by path, parsed once per build)
    /// and the static tree whose 404.html and index.html are the other pages.
    struct UsedStringsKey: Hashable {
        let template: String
        let tree: StaticTreeKey
    }

    /// What makes two sites' page locales the same.
    struct LocalesKey: Hashable {
        let folder: String
        let defaultTag: String
        let usedStrings: Set<String>
    }

    /// What makes two generated documents the same response.
    struct DocumentKey: Hashable {
        let bytes: [UInt8]
        let route: Route
        let maxAge: Int
        /// A digest of every byte (`EntityTag.digest`, a word at a time), computed once: tenants' documents
        /// differ in a few bytes (a team ID), so a hash of some bytes made ten thousand of them collide (a
        /// quadratic start); equal keys still compare every byte.
        private let digest: UInt64

        init(bytes: [UInt8], route: Route, maxAge: Int) {
            (self.bytes, self.route, self.maxAge, self.digest) = (bytes, route, maxAge, EntityTag.digest(bytes.span))
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(digest)
            hasher.combine(route)
            hasher.combine(maxAge)
        }
    }
}
