import CallLinks
import LinkHostJSON

/// The site-level keys of one object of the config — the top level or one entry of `sites` — as written,
/// before inheritance fills in what a site leaves out.
struct SiteDraft {
    var apps: [AppleApp]?
    var android: [AndroidApp]?
    var callLinks: CallLinkSettings?
    var aasa: AASADraft?
    var staticFiles: StaticFileSettings?
    /// Where this object is: empty for the top level, `sites[N]` for a site.
    var path: String
    /// The members each section (`callLinks`, `aasa`, `static`) wrote, `null` ones included.
    var written: [String: Set<String>] = [:]
    /// The top level's `aasa` as resolved for the default site: a site that writes neither `callLinks` nor
    /// `aasa` resolves to the same rules, so it shares these (derived once, stored once, however many tenants).
    var resolvedAASA: AASASettings?
    /// The link templates `resolvedAASA`'s rules were derived from, and the setting that names them: a site
    /// whose own `callLinks` (an operator's tenant writes its `baseURL`) keeps these shares the derived rules.
    var resolvedAASALinks: (templates: [CallLinkTemplate], path: String)?

    /// Reads the site-level keys present in `object`, at `path`.
    init(_ object: JSONObject, at path: String, reader: inout ConfigReader) {
        self.path = path
        func section(_ key: String) -> (value: JSONValue, path: String)? {
            guard let value = object[key] else { return nil }
            return (withoutClearedKeys(value, section: key), ConfigReader.join(path, key))
        }
        if let value = object["apps"] { apps = AppsReader.readApple(value, at: ConfigReader.join(path, "apps"), reader: &reader) }
        if let value = object["android"] { android = AppsReader.readAndroid(value, at: ConfigReader.join(path, "android"), reader: &reader) }
        if let (value, at) = section("callLinks") { callLinks = CallLinkSettingsReader.read(value, at: at, reader: &reader) }
        if let (value, at) = section("aasa") { aasa = AASASettingsReader.read(value, at: at, reader: &reader) }
        if let (value, at) = section("static") { staticFiles = StaticFileSettingsReader.read(value, at: at, reader: &reader) }
    }

    /// Records the members of a section and, in a site, drops the `null` ones of keys inherited by key: a
    /// site's `null` clears what it would inherit, so its reader sees the key left out and uses the default.
    private mutating func withoutClearedKeys(_ value: JSONValue, section: String) -> JSONValue {
        guard case .object(var object) = value else { return value }
        written[section] = Set(object.keys)
        guard !path.isEmpty else { return value }
        let inherited = ConfigKeys.inheritedByKey(in: section)
        object.members.removeAll { $0.value == .null && inherited.contains($0.key) }
        return .object(object)
    }

    /// The site these keys make, taking what they leave out from `inherited` (the top level) or the defaults:
    /// a section the site leaves out whole, and in a section it writes each key `ConfigKeyTable` inherits by key.
    func site(hosts: [String], inheriting inherited: SiteDraft?) -> SiteConfig {
        func source(_ own: Bool, _ key: String) -> String {
            own ? ConfigReader.join(path, key) : ConfigReader.join(inherited?.path ?? "", key)
        }
        var sections = SiteSections(
            site: path,
            apps: source(apps != nil, "apps"), android: source(android != nil, "android"),
            callLinks: source(callLinks != nil, "callLinks"), aasa: source(aasa != nil, "aasa"),
            staticFiles: source(staticFiles != nil, "static"))
        // A site's apps are one unit: a site that writes either platform's list takes neither from the top
        // level, so one tenant's iOS apps never come with another tenant's Android app (`"android": []` says
        // "none" in words; SiteCoherence asks for it, LH125).
        let writesApps = self.apps != nil || self.android != nil
        let apps = self.apps ?? (writesApps ? [] : inherited?.apps ?? [])
        var callLinks = self.callLinks ?? inherited?.callLinks ?? CallLinkSettings()
        var aasaDraft = self.aasa ?? inherited?.aasa ?? AASADraft()
        var staticFiles = self.staticFiles ?? inherited?.staticFiles ?? StaticFileSettings()
        if let inherited {
            inherit("callLinks", into: &callLinks, mine: self.callLinks, theirs: inherited.callLinks, from: inherited, copies: CallLinkSettings.inheritedByKey, sections: &sections)
            inherit("aasa", into: &aasaDraft.settings, mine: self.aasa?.settings, theirs: inherited.aasa?.settings, from: inherited, copies: AASASettings.inheritedByKey, sections: &sections)
            inherit("static", into: &staticFiles, mine: self.staticFiles, theirs: inherited.staticFiles, from: inherited, copies: StaticFileSettings.inheritedByKey, sections: &sections)
        }
        // A site that writes neither callLinks nor aasa shares the top level's resolved AASA settings (its derived
        // rules made once for all tenants), unless its apps name other App Clips than the top level's.
        let appClipIDs = apps.compactMap(\.appClipID)
        let aasa: AASASettings
        if let shared = inherited?.resolvedAASA, self.callLinks == nil, self.aasa == nil, !aasaDraft.webcredentialsAll, !aasaDraft.activitycontinuationAll,
           appClipIDs == (inherited?.apps ?? []).compactMap(\.appClipID) {
            aasa = shared
        } else {
            // Rules derived from the same templates, named by the same setting, are the top level's: derived once
            // for every tenant that writes a `callLinks` of its own (its origin) but keeps the templates.
            let linksPath = sections.sectionPath(of: "callLinks", "links")
            let shared = self.aasa == nil ? inherited?.resolvedAASA.flatMap { settings in
                inherited?.resolvedAASALinks.map { $0 == (callLinks.links.templates, linksPath) } == true ? settings : nil
            } : nil
            aasa = aasaDraft.resolved(appIDs: apps.map(\.appID), appClipIDs: appClipIDs, callLinks: callLinks, callLinksPath: linksPath, derived: shared)
        }
        var site = SiteConfig(
            hosts: hosts, apps: apps, android: android ?? (writesApps ? [] : inherited?.android ?? []), callLinks: callLinks, aasa: aasa,
            staticFiles: staticFiles, sections: sections)
        let topLevelRoot = (inherited?.staticFiles ?? StaticFileSettings()).root
        if inherited != nil, staticFiles.root != topLevelRoot { site.staticFallbackRoot = topLevelRoot }
        return site
    }

    /// Copies into a section the site wrote (`mine`) each key group it left out from the top level's
    /// section (`theirs`), when the top level wrote one, and notes where each copied key was written.
    private func inherit<Settings>(
        _ section: String, into settings: inout Settings, mine: Settings?, theirs: Settings?, from inherited: SiteDraft,
        copies: [InheritedKeys<Settings>], sections: inout SiteSections
    ) {
        guard mine != nil, let theirs else { return }
        let own = written[section] ?? []
        let topLevel = inherited.written[section] ?? []
        for group in copies where !group.keys.contains(where: own.contains) {
            group.copy(&settings, theirs)
            guard group.keys.contains(where: topLevel.contains) else { continue }
            for key in group.keys { sections.keySections["\(section).\(key)"] = ConfigReader.join(inherited.path, section) }
        }
    }
}

/// Keys of a section that a site inherits by key, and how one copies them from the top level's settings;
/// `keys` are one group when writing any of them replaces all (`links` and `paths`). `ConfigKeyTableTests`
/// checks the groups against the table's `byKey` rows.
struct InheritedKeys<Settings>: Sendable {
    /// The keys, as the table names them.
    let keys: [String]
    /// Copies their value from the top level's settings (second) into the site's (first).
    let copy: @Sendable (inout Settings, Settings) -> Void
}

/// Reads `sites`: each entry's hosts and site-level keys, completed from the top level.
enum SitesReader {
    /// The sites of `value`; with more than one core, each is read on its own (`Unclaimed`) in chunks on `cores`
    /// and joined in order, so a site's problems and the claims on its hosts are as if read one after another.
    static func read(_ value: JSONValue?, topLevel: SiteDraft, cores: Int = 1, reader: inout ConfigReader) -> [SiteConfig] {
        guard let value, let elements = reader.elements(value, at: "sites", expected: "an array of sites, each with \"hosts\"") else { return [] }
        let alone = OrderedChunks.map(elements.count, chunks: OrderedChunks.chunkCount(for: elements.count, cores: cores)) { range in
            elements[range].map { Unclaimed($0.value, at: $0.path, topLevel: topLevel) }
        }.joined()
        var sites: [SiteConfig] = []
        var claimed: [String: String] = [:]
        for (read, (element, path)) in zip(alone, elements) {
            if let site = read.joined(element, at: path, topLevel: topLevel, claimed: &claimed, reader: &reader) { sites.append(site) }
        }
        checkIDs(sites, reader: &reader)
        return sites
    }

    /// One site read as if no other site held a host: the same site, problems and claims as `readSite` gives
    /// whenever none of `claims` is an earlier site's.
    struct Unclaimed: Sendable {
        let site: SiteConfig?
        let diagnostics: [ConfigDiagnostic]
        let claims: [String: String]

        /// The folder of the site file `element` is (`SiteFileFolder`), nil for the config's own sites.
        let folder: SiteFileFolder?

        init(_ element: JSONValue, at path: String, topLevel: SiteDraft, folder: SiteFileFolder? = nil) {
            var (claims, reader) = ([String: String](), ConfigReader())
            site = SitesReader.readSite(element, at: path, topLevel: topLevel, claimed: &claims, folder: folder, reader: &reader)
            (diagnostics, self.claims, self.folder) = (reader.diagnostics, claims, folder)
        }

        /// The site of `element` (which this read) after the sites that hold `claimed`: this read, its claims
        /// added, when none of its hosts is held; else `element` read again against the claims, which name the
        /// earlier holder.
        func joined(_ element: JSONValue, at path: String, topLevel: SiteDraft, claimed: inout [String: String], reader: inout ConfigReader) -> SiteConfig? {
            guard !claims.keys.contains(where: { claimed[$0] != nil }) else {
                return SitesReader.readSite(element, at: path, topLevel: topLevel, claimed: &claimed, folder: folder, reader: &reader)
            }
            claimed.merge(claims) { earlier, _ in earlier }
            reader.append(diagnostics)
            return site
        }
    }

    /// One site object (an entry of `sites`, or a site file's whole document) at `path`; `claimed` holds the
    /// hosts earlier sites took, and takes this one's. A site file's paths lie in its `folder`.
    static func readSite(_ element: JSONValue, at path: String, topLevel: SiteDraft, claimed: inout [String: String], folder: SiteFileFolder? = nil,
                         reader: inout ConfigReader) -> SiteConfig? {
        guard let object = reader.object(element, at: path, allowed: ConfigKeys.members(of: "sites[]") + ConfigKeys.siteSections) else { return nil }
        let hosts = readHosts(object, at: path, claimed: &claimed, reader: &reader)
        var site = SiteDraft(object, at: path, reader: &reader).site(hosts: hosts, inheriting: topLevel)
        folder?.confine(&site, object: object, at: path, topLevelRoot: (topLevel.staticFiles ?? StaticFileSettings()).root, reader: &reader)
        site.id = reader.string(object, "id", at: path, expected: "a name such as \"customer6\"", rule: idRule)
        if let host = site.callLinks.openInAppHost, !site.hosts.contains(where: { CallLinkHost.covers($0, host: host) }) {
            // Another host serves another site (or none): the open button would lead away from this app's page.
            reader.error(.lh116, ConfigReader.join(site.sections.callLinks, "openInAppHost"), "\"\(host)\" is not one of the hosts of \(path) (\(site.hosts.joined(separator: ", "))); add it to its \"hosts\" so its AASA and the entitlements cover it")
        }
        if site.apps.isEmpty && site.android.isEmpty {
            reader.error(.lh108, path, "has no app: set \"apps\" or \"android\" here, or at the top level for every site")
        }
        return site
    }

    /// An id is a metrics label and a log field: short, and of characters no log or label needs to escape.
    private static func idRule(_ id: String) -> String? {
        let valid = (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { HostName.isLetterOrDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
        return valid ? nil : "is not 1–64 of A-Z, a-z, 0-9, \".\", \"_\", \"-\""
    }

    /// Every site's name (its id, else its first host; the top level's is `default`) names one site only.
    private static func checkIDs(_ sites: [SiteConfig], reader: inout ConfigReader) {
        var named: [String: String] = ["default": "the top level"]
        // Written ids after first hosts: an id repeating a host is the mistake, not the host.
        for site in sites.filter({ $0.id == nil }) + sites.filter({ $0.id != nil }) where !site.hosts.isEmpty || site.id != nil {
            let name = site.label
            if let first = named[name] {
                let what = site.id == nil ? "first host" : "id"
                reader.error(.lh122, ConfigReader.join(site.path, site.id == nil ? "hosts[0]" : "id"), "\"\(name)\" (its \(what)) already names \(first); give each site an \"id\" of its own")
                continue
            }
            named[name] = site.path
        }
    }

    /// A site's hosts, lowercased; a host another site already claims is an error naming both.
    private static func readHosts(_ object: JSONObject, at path: String, claimed: inout [String: String], reader: inout ConfigReader) -> [String] {
        guard let list = reader.array(object, "hosts", at: path, required: true, expected: "an array of host names such as [\"links.example.com\"]") else { return [] }
        if list.isEmpty { reader.error(.lh116, ConfigReader.join(path, "hosts"), "is empty; expected at least one host name such as \"links.example.com\"") }
        var hosts: [String] = []
        for (element, elementPath) in list {
            guard case .string(let text) = element else {
                reader.typeMismatch(element, at: elementPath, expected: "a host name string such as \"links.example.com\"")
                continue
            }
            if let problem = HostName.problem(siteHost: text) {
                reader.error(.lh116, elementPath, "\(ConfigReader.show(element)) \(problem)")
                continue
            }
            let host = text.lowercased()
            if let first = claimed[host] {
                reader.error(.lh116, elementPath, "\(ConfigReader.show(element)) is already a host of \(first); a host belongs to one site")
                continue
            }
            claimed[host] = elementPath
            hosts.append(host)
        }
        return hosts
    }
}
