import CallLinks
import LinkHostFiles

/// One site of a snapshot: the association files, static files, call page and 404 served on its hosts.
public final class Site: Sendable {
    /// The site's settings.
    public let config: SiteConfig
    /// The site's position in the snapshot (0: the default site), the first part of its page cache keys.
    public let index: Int
    /// The AASA bytes served at both AASA paths (empty when the site has no iOS app).
    public let aasaBytes: [UInt8]
    /// The assetlinks bytes (empty when the site has no Android app).
    public let assetLinksBytes: [UInt8]
    /// The association files, by exact path.
    @usableFromInline package let generated: ByteKeyedTable<Resource>
    /// The static files, by exact URL path (shared with every site that has the same static settings).
    @usableFromInline package let staticFiles: ByteKeyedTable<Resource>
    /// The URL paths of the static files, sorted, for the linter.
    public let staticPaths: [String]
    /// The answer for unknown paths and invalid call links: the static tree's 404.html in each page locale, or plain text.
    let notFoundPages: NotFoundPages
    /// The call-link page renderer.
    @usableFromInline package let callPage: CallPage
    /// True when the site has no `callLinks.baseURL`, so its pages' absolute URLs come from the Host (`PageHost`).
    @usableFromInline package let usesRequestHost: Bool

    /// The header sets of the site's call pages (`CallPage.headerSets`), so the server can keep them in its own form.
    package var callPageHeaders: [[HTTPHeader]] { callPage.headerSets }

    /// The paths at which the AASA is served; Apple's fetcher uses the first, older iOS the second.
    public static let aasaPaths = ["/.well-known/apple-app-site-association", "/apple-app-site-association"]
    /// The path of the Digital Asset Links file.
    public static let assetLinksPath = "/.well-known/assetlinks.json"

    /// What a site's build needs that depends on its settings alone, so many sites' are made side by side:
    /// its generated association files, and its call page's canonical links unless the site before it in
    /// the same chunk has the same templates (a thousand tenants of one template set make them once).
    struct Precomputed: Sendable {
        /// The AASA, empty without iOS apps.
        let aasa: [UInt8]
        /// assetlinks.json, empty without Android apps.
        let assetLinks: [UInt8]
        /// One per link template, or nil where the build's own table has them.
        let canonicalLinks: [CanonicalLink]?

        init(_ config: SiteConfig, after previous: Precomputed? = nil, shapes: inout DocumentShapes) {
            // In storage of their own size from the start: the documents are kept (by the build's key, then as the
            // prepared body), and the writer's buffer has room for up to as many bytes again. A document equal to
            // the site before's shares its storage: all sites' are held until the build has taken them, and
            // ten thousand tenants of one app and one template set serve the same AASA. Tenants of their own
            // apps and the same rules splice theirs from one shape (`DocumentShapes`).
            func kept(_ bytes: [UInt8], _ before: [UInt8]?) -> [UInt8] { bytes == before ? before! : Site.exactlySized(bytes) }
            aasa = config.apps.isEmpty ? [] : kept(shapes.aasaBytes(for: config), previous?.aasa)
            assetLinks = config.android.isEmpty ? [] : kept(shapes.assetLinksBytes(for: config), previous?.assetLinks)
            let templates = config.callLinks.links.templates
            canonicalLinks = templates == previous?.templates ? nil : templates.map(CanonicalLink.init)
            self.templates = templates
        }

        /// The link templates the canonical links were made for (the next site's are compared with them).
        private let templates: [CallLinkTemplate]

        /// Each of `sites`' parts, each made after the one before.
        static func of(_ sites: ArraySlice<SiteConfig>) -> [Precomputed] {
            var previous: Precomputed?
            var shapes = DocumentShapes()
            return sites.map { site in
                let made = Precomputed(site, after: previous, shapes: &shapes)
                previous = made
                return made
            }
        }
    }

    /// Builds a site, loading the files its settings name into `build`; throws with every problem found.
    init(_ config: SiteConfig, index: Int, precomputed made: Precomputed? = nil, build: inout SnapshotBuild) throws(ConfigError) {
        let sections = config.sections
        var shapes = DocumentShapes()
        let made = made ?? Precomputed(config, shapes: &shapes)
        let (aasa, assetLinks) = (made.aasa, made.assetLinks)
        if aasa.count > AASAGenerator.maximumSize {
            throw ConfigError(source: "aasa", diagnostics: [ConfigDiagnostic(.lh110, path: sections.aasa, message: "the generated file is \(aasa.count) bytes, more than Apple's limit of \(AASAGenerator.maximumSize) bytes; merge rules or use wildcards")])
        }
        let template = try Self.template(config, build: &build)
        let tree = try Self.staticTree(config, isDefault: index == 0, build: &build)
        let homeTemplate = try Self.homeTemplate(config, tree: tree, build: &build)
        let locales = try Self.locales(config, usedStrings: Self.usedStrings(config, template: template, tree: tree, home: homeTemplate, build: &build), build: &build)
        callPage = CallPage(site: config, baked: Self.bakedPages(config, template: template, locales: locales, build: &build), locales: locales,
                            headerSets: Self.pageHeaderSets(locales, maxAge: config.callLinks.cacheMaxAge, build: &build),
                            shared: Self.sharedPageParts(config, locales: locales, links: made.canonicalLinks, build: &build))
        notFoundPages = try Self.notFoundPages(config, tree: tree, locales: locales, build: &build)
        if let image = config.callLinks.previewImage, tree.resources.value(for: ("/" + image).utf8) == nil {
            throw ConfigError(source: config.staticFiles.root, diagnostics: [ConfigDiagnostic(.lh114, path: sections.source("callLinks", "previewImage"), message: "\"\(image)\" is not a file in \(config.staticFiles.root)")])
        }
        var generated = ByteKeyedTable<Resource>(foldsCase: false)
        var (aasaBody, assetLinksBody): ([UInt8], [UInt8]) = ([], [])
        let documents = (aasa.isEmpty ? [] : Self.aasaPaths.map { ($0, aasa, Route.aasa) })
            + (assetLinks.isEmpty ? [] : [(Self.assetLinksPath, assetLinks, Route.assetLinks)])
        for (path, bytes, route) in documents {
            if tree.resources.value(for: path.utf8) != nil {
                build.warnings.append(ConfigDiagnostic(.lh305, path: sections.source("static", "root"), message: "the file for \(path) is ignored; linkhost generates it from the config", severity: .warning))
            }
            // One prepared resource per document: both AASA paths, and every site serving the same file,
            // answer with the very same bytes and ETag.
            let key = SnapshotBuild.DocumentKey(bytes: bytes, route: route, maxAge: config.aasa.cacheMaxAge)
            let resource: Resource
            if let shared = build.documents[key] {
                resource = shared
            } else {
                resource = build.prepared.resource(body: bytes, contentType: "application/json", maxAge: config.aasa.cacheMaxAge, route: route,
                                                   preparesNotModified: false)
                build.documents[key] = resource
            }
            generated.insert(Array(path.utf8), resource)
            // The site's bytes are the prepared body's: one copy of a document, however many sites and paths serve it.
            if route == .aasa { aasaBody = resource.ok.body } else { assetLinksBody = resource.ok.body }
        }
        if let homeTemplate, let locale = locales.first {
            // `/` names the site's app and the next step, in the site's default language.
            // Each tenant's own (it names the app), and asked for rarely: rendered per request from the bake the
            // sites of this tree and locales share (a kilobyte and its two responses a tenant otherwise).
            let languages = locales.map(\.tag.text).joined(separator: " ")
            let key = SnapshotBuild.HomeKey(tree: tree.key, locale: BakedPages.Key.LocaleKey(tag: locale.tag.text, isRightToLeft: locale.isRightToLeft, strings: locale.strings),
                                            languages: languages)
            let bake = build.homeBakes[key] ?? HomePage.Bake(homeTemplate, locale: locale, languages: languages)
            build.homeBakes[key] = bake
            let resource = Resource(page: HomePage.Rendered(bake: bake, appName: config.appName ?? "", maxAge: config.staticFiles.cacheMaxAge))
            generated.insert(Array("/".utf8), resource)
            generated.insert(Array(HomePage.path.utf8), resource)
        }
        if config.callLinks.previewImage == nil {
            // One prepared image for every site without its own preview picture.
            let resource = build.defaultPreviewImage ?? build.prepared.resource(body: DefaultPreviewImage.png, contentType: "image/png", maxAge: 86_400, route: .staticFile)
            build.defaultPreviewImage = resource
            generated.insert(Array(DefaultPreviewImage.path.utf8), resource)
        }
        self.config = config
        self.index = index
        usesRequestHost = config.callLinks.baseURL == nil
        self.aasaBytes = aasaBody
        self.assetLinksBytes = assetLinksBody
        self.generated = generated
        self.staticFiles = tree.resources
        self.staticPaths = tree.paths
    }

    /// `bytes` in storage of their own size: a document written by appending has room for up to as many
    /// again, a few kilobytes a tenant kept for nothing.
    fileprivate static func exactlySized(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.capacity > bytes.count else { return bytes }
        var exact: [UInt8] = []
        exact.reserveCapacity(bytes.count)
        exact.append(contentsOf: bytes)
        return exact
    }

    /// The not-found page in the default locale, for answers that read no language.
    package var notFound: Response { notFoundPages.standard }

    /// The not-found page in the language a request asks for; `language` (`?lang=`) and `acceptLanguage`
    /// are read only when the page has more than one language.
    @usableFromInline
    package func notFound(language: () -> String?, acceptLanguage: () -> String?) -> Response {
        notFoundPages.response(chooser: callPage.chooser, language: language, acceptLanguage: acceptLanguage)
    }

    /// The locale strings the site's call page, not-found page and home page use, found once per template and
    /// static tree however many sites use them (each template walked for every tenant was 3 % of a start).
    private static func usedStrings(_ config: SiteConfig, template: PageTemplate, tree: SnapshotBuild.StaticTree, home: PageTemplate?,
                                    build: inout SnapshotBuild) -> Set<String> {
        let key = SnapshotBuild.UsedStringsKey(template: config.callLinks.template, tree: tree.key)
        if let known = build.usedStrings[key] { return known }
        let notFoundStrings = tree.notFoundTemplate?.usedStrings.subtracting(NotFoundPages.builtInStrings.keys) ?? []
        let homeStrings = home?.usedStrings.subtracting(HomePage.builtInStrings.keys) ?? []
        let used = template.usedStrings.union(notFoundStrings).union(homeStrings)
        build.usedStrings[key] = used
        return used
    }

    /// The site's page template, parsed once per snapshot however many sites use it.
    private static func template(_ config: SiteConfig, build: inout SnapshotBuild) throws(ConfigError) -> PageTemplate {
        let path = config.callLinks.template
        if let parsed = build.templates[path] { return parsed }
        let setting = config.sections.source("callLinks", "template")
        let parsed = try PageTemplate.load(path, inside: config.ownFolder(of: path), setting: setting)
        build.templates[path] = parsed
        if !parsed.missingScriptElements.isEmpty {
            build.warnings.append(ConfigDiagnostic(.lh606, path: setting, message: "\"\(path)\" has no element with the id \(parsed.missingScriptElements.map { "\"\($0)\"" }.joined(separator: ", ")), which /call.js uses to adapt the page to the device; that part of the page stays as written", severity: .warning))
        }
        return parsed
    }

    /// The site's page baked in its locales, once per snapshot for all sites that bake alike.
    private static func bakedPages(_ config: SiteConfig, template: PageTemplate, locales: [PageLocale], build: inout SnapshotBuild) -> BakedPages {
        let key = BakedPages.key(site: config, locales: locales)
        if let baked = build.bakedPages[key] { return baked }
        let baked = BakedPages(site: config, template: template, locales: locales)
        build.bakedPages[key] = baked
        return baked
    }

    /// The header sets of the site's call pages, made once per snapshot for all sites of the same locales and
    /// cache lifetime (fourteen arrays of a dozen fields with seven locales: kilobytes a tenant otherwise).
    private static func pageHeaderSets(_ locales: [PageLocale], maxAge: Int, build: inout SnapshotBuild) -> [[HTTPHeader]] {
        let key = "\(maxAge) " + locales.map(\.tag.text).joined(separator: " ")
        if let made = build.pageHeaderSets[key] { return made }
        let made = CallPage.headerSets(locales: locales, maxAge: maxAge)
        build.pageHeaderSets[key] = made
        return made
    }

    /// The canonical links of the site's templates and its language chooser, made once per snapshot for the
    /// sites of the same templates and locales (a tenant's own were about 3 KB).
    private static func sharedPageParts(_ config: SiteConfig, locales: [PageLocale], links made: [CanonicalLink]?, build: inout SnapshotBuild) -> ([CanonicalLink], LanguageChooser) {
        let templates = config.callLinks.links.templates
        let links = build.canonicalLinks[templates] ?? made ?? templates.map(CanonicalLink.init)
        build.canonicalLinks[templates] = links
        let tags = locales.map(\.tag.text)
        let chooser = build.choosers[tags] ?? LanguageChooser(tags: tags, defaultIndex: 0)
        build.choosers[tags] = chooser
        return (links, chooser)
    }

    /// The site's page locales, read against the strings its call page and not-found page use, once per
    /// snapshot however many sites share the folder; warnings are kept once.
    private static func locales(_ config: SiteConfig, usedStrings: Set<String>, build: inout SnapshotBuild) throws(ConfigError) -> [PageLocale] {
        let callLinks = config.callLinks
        let defaultTag = LanguageTag(callLinks.defaultLocale) ?? LanguageTag("en")!
        let key = SnapshotBuild.LocalesKey(folder: callLinks.locales, defaultTag: defaultTag.text, usedStrings: usedStrings)
        // Sites share their locale folder as a rule: read and checked once (a thousand sites read seven files each otherwise).
        if let cached = build.locales[key] { return cached }
        try SiteFileFolder.check(callLinks.locales, inside: config.ownFolder(of: callLinks.locales), setting: config.sections.source("callLinks", "locales"))
        let loaded = try PageLocaleLoader.load(folder: callLinks.locales, defaultTag: defaultTag, usedStrings: usedStrings,
                                              optionalStrings: Set(NotFoundPages.builtInStrings.keys).union(HomePage.builtInStrings.keys),
                                              setting: config.sections.source("callLinks", "locales"))
        for warning in loaded.warnings where !build.warnings.contains(warning) { build.warnings.append(warning) }
        // A folder with warnings is read again for each site, so each site's setting is named in them as before.
        if loaded.warnings.isEmpty { build.locales[key] = loaded.locales }
        return loaded.locales
    }

    /// The site's static tree, loaded once per snapshot however many sites share its settings.
    ///
    /// A site's `/.well-known/` comes only from its own folder (the generated AASA and assetlinks aside):
    /// domain-verification files (`webauthn`, Apple Pay's merchant file, `security.txt`) claim a domain for
    /// their owner, so the top level's must not answer on a tenant's host (issue 30, item 7). A tenant that
    /// shares the top level's folder, or lays its own over it, gets none of the top level's; LH310 says so.
    private static func staticTree(_ config: SiteConfig, isDefault: Bool, build: inout SnapshotBuild) throws(ConfigError) -> SnapshotBuild.StaticTree {
        // Templates and locale files are sources, not pages: no site serves the operator's raw, and a site file's
        // own are left out of its own folder only, so no tenant's template hides another tenant's file.
        let sharesTopLevel = !isDefault && config.staticFallbackRoot == nil
        let ownSources = Self.ownSources(config)
        let key = SnapshotBuild.StaticTreeKey(settings: config.staticFiles, fallbackRoot: config.staticFallbackRoot, withoutWellKnown: sharesTopLevel,
                                              ownSources: ownSources)
        if let tree = build.staticTrees[key] { return tree }
        let setting = config.sections.sectionPath(of: "static", "root")
        try SiteFileFolder.check(config.staticFiles.root, inside: config.ownFolder(of: config.staticFiles.root), setting: setting + ".root")
        var loaded = try StaticFiles.load(settings: config.staticFiles, setting: setting, excluded: build.pageSources.union(ownSources), store: &build.staticStore,
                                          into: &build.prepared)
        noteChallengeFolder(config.staticFiles.root, setting: setting, build: &build)
        var notFoundSource = config.staticFiles.root + NotFoundPages.path
        if sharesTopLevel {
            noteTopLevelWellKnown(loaded.map(\.path), build: &build)
            loaded = loaded.filter { !isOwnOnly($0.path) }
        }
        if let fallback = config.staticFallbackRoot {
            // An overlay: the top level's files fill in what the site's folder lacks, with the site's max-age.
            let own = Set(loaded.map(\.path))
            let below = StaticFileSettings(root: fallback, cacheMaxAge: config.staticFiles.cacheMaxAge)
            var belowFiles = build.overlaidFiles[below]
            if belowFiles == nil {
                belowFiles = try StaticFiles.load(settings: below, setting: "static", excluded: build.pageSources, store: &build.staticStore, into: &build.prepared)
                build.overlaidFiles[below] = belowFiles
            }
            if !own.contains(NotFoundPages.path) { notFoundSource = fallback + NotFoundPages.path }
            noteTopLevelWellKnown((belowFiles ?? []).map(\.path), build: &build)
            loaded += (belowFiles ?? []).filter { !own.contains($0.path) && !isOwnOnly($0.path) }
        }
        // 404.html is the not-found page's template, not a page of its own: served raw it would show its {{…}}.
        let files = loaded.filter { $0.path != NotFoundPages.path }
        var resources = ByteKeyedTable<Resource>(foldsCase: false)
        for (path, resource) in files { resources.insert(Array(path.utf8), resource) }
        let notFoundTemplate = try loaded.first { $0.path == NotFoundPages.path }.map { file throws(ConfigError) in
            try NotFoundPages.template(file.resource.ok.body, path: notFoundSource, setting: setting)
        }
        let tree = SnapshotBuild.StaticTree(key: key, resources: resources, paths: files.map(\.path).sorted(),
                                            notFoundTemplate: notFoundTemplate, notFoundPath: notFoundSource)
        build.staticTrees[key] = tree
        return tree
    }

    /// A site file's template and locale folder, resolved, where they lie in its own static folder: left out of
    /// that folder's files (the operator's are left out of every folder, `SnapshotBuild.pageSources`).
    private static func ownSources(_ config: SiteConfig) -> Set<String> {
        let written = [config.callLinks.template, config.callLinks.locales].filter { config.ownFolder(of: $0) != nil }
        guard !written.isEmpty else { return [] }
        let root = StaticFiles.resolve(config.staticFiles.root)
        return Set(written.map(StaticFiles.resolve).filter { FileSystem.isInside($0, root) })
    }

    /// A path only a site's own folder may answer: under `/.well-known/`, but for the association files.
    static func isOwnOnly(_ path: String) -> Bool {
        path.hasPrefix("/.well-known/") && !aasaPaths.contains(path) && path != assetLinksPath
    }

    /// LH136, once per folder: its `.well-known/acme-challenge/` is left out (`StaticFiles.acmeChallengeFolder`).
    private static func noteChallengeFolder(_ root: String, setting: String, build: inout SnapshotBuild) {
        let folder = root + "/" + StaticFiles.acmeChallengeFolder
        guard FileSystem.exists(folder), !build.warnings.contains(where: { $0.code == .lh136 && $0.message.hasPrefix("\"\(folder)\"") }) else { return }
        build.warnings.append(ConfigDiagnostic(.lh136, path: setting + ".root",
            message: "\"\(folder)\" is not served: /.well-known/acme-challenge/ is answered only by linkhost's own ACME responder (server.tls.acme), on the HTTP listener",
            severity: .warning))
    }

    /// LH310, once per snapshot: the top level's `/.well-known/` files answer on its own hosts only.
    private static func noteTopLevelWellKnown(_ paths: [String], build: inout SnapshotBuild) {
        let skipped = paths.filter(isOwnOnly)
        guard !skipped.isEmpty, !build.warnings.contains(where: { $0.code == .lh310 }) else { return }
        let shown = skipped.prefix(3).joined(separator: ", ") + (skipped.count > 3 ? " and \(skipped.count - 3) more" : "")
        build.warnings.append(ConfigDiagnostic(.lh310, path: "static.root",
            message: "\(shown) in the top level's folder answer only on the top level's hosts, not on the sites' (a site's /.well-known/ comes from its own static folder)",
            severity: .warning))
    }

    /// The static tree's `index.html` as the home page's template, or nil when it is a plain page (or none):
    /// parsed once per tree however many sites share it (a template that fails is parsed, and reported, per site).
    private static func homeTemplate(_ config: SiteConfig, tree: SnapshotBuild.StaticTree, build: inout SnapshotBuild) throws(ConfigError) -> PageTemplate? {
        if let parsed = build.homeTemplates[tree.key] { return parsed }
        guard let file = tree.resources.value(for: HomePage.path.utf8) else { return nil }
        let parsed = try HomePage.template(file.ok.body, diskPath: config.staticFiles.root + HomePage.path, setting: config.sections.sectionPath(of: "static", "root"))
        build.homeTemplates[tree.key] = .some(parsed)
        return parsed
    }

    /// The site's not-found page from the bake its static tree and locales share (`NotFoundBake`), whatever its
    /// app; a template that bake cannot take is baked per app name, as before it was for every site.
    private static func notFoundPages(_ config: SiteConfig, tree: SnapshotBuild.StaticTree, locales: [PageLocale],
                                      build: inout SnapshotBuild) throws(ConfigError) -> NotFoundPages {
        guard let template = tree.notFoundTemplate else {
            if let plain = build.plainNotFound { return plain }
            let plain = NotFoundPages.plain(prepared: &build.prepared)
            build.plainNotFound = plain
            return plain
        }
        let appName = config.appName ?? ""
        let localeKeys = locales.map { BakedPages.Key.LocaleKey(tag: $0.tag.text, isRightToLeft: $0.isRightToLeft, strings: $0.strings) }
        let shared = SnapshotBuild.NotFoundKey(tree: tree.key, appName: nil, locales: localeKeys)
        let setting = config.sections.sectionPath(of: "static", "root")
        if build.notFoundBakes[shared] == nil {
            build.notFoundBakes[shared] = .some(NotFoundBake(template: template, path: tree.notFoundPath, setting: setting, locales: locales, prepared: &build.prepared))
        }
        if case .some(let bake?) = build.notFoundBakes[shared] { return NotFoundPages(bake: bake, appName: appName) }
        let key = SnapshotBuild.NotFoundKey(tree: tree.key, appName: appName, locales: localeKeys)
        if let baked = build.notFoundPages[key] { return baked }
        let baked = try NotFoundPages(template: template, path: tree.notFoundPath, setting: setting, locales: locales, appName: appName,
                                      prepared: &build.prepared)
        build.notFoundPages[key] = baked
        return baked
    }
}
