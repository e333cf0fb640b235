import CallLinks
import LinkHostJSON

/// The site-level keys of one object of the config — the top level or one entry of `sites` — as written,
/// before inheritance fills in what a site leaves out.
struct SiteDraft {
    /// The keys a site may set; each replaces the top level's key of the same name for that site.
    static let keys = ["apps", "android", "callLinks", "aasa", "static"]

    var apps: [AppleApp]?
    var android: [AndroidApp]?
    var callLinks: CallLinkSettings?
    var aasa: AASADraft?
    var staticFiles: StaticFileSettings?
    /// Where this object is: empty for the top level, `sites[N]` for a site.
    var path: String

    /// Reads the site-level keys present in `object`, at `path`.
    init(_ object: JSONObject, at path: String, reader: inout ConfigReader) {
        self.path = path
        if let value = object["apps"] { apps = AppsReader.readApple(value, at: ConfigReader.join(path, "apps"), reader: &reader) }
        if let value = object["android"] { android = AppsReader.readAndroid(value, at: ConfigReader.join(path, "android"), reader: &reader) }
        if let value = object["callLinks"] { callLinks = CallLinkSettingsReader.read(value, at: ConfigReader.join(path, "callLinks"), reader: &reader) }
        if let value = object["aasa"] { aasa = AASASettingsReader.read(value, at: ConfigReader.join(path, "aasa"), reader: &reader) }
        if let value = object["static"] { staticFiles = StaticFileSettingsReader.read(value, at: ConfigReader.join(path, "static"), reader: &reader) }
    }

    /// The site these keys make, taking what they leave out from `inherited` (the top level) or the defaults.
    func site(hosts: [String], inheriting inherited: SiteDraft?) -> SiteConfig {
        func source(_ own: Bool, _ key: String) -> String {
            own ? ConfigReader.join(path, key) : ConfigReader.join(inherited?.path ?? "", key)
        }
        let sections = SiteSections(
            site: path,
            apps: source(apps != nil, "apps"), android: source(android != nil, "android"),
            callLinks: source(callLinks != nil, "callLinks"), aasa: source(aasa != nil, "aasa"),
            staticFiles: source(staticFiles != nil, "static"))
        let apps = self.apps ?? inherited?.apps ?? []
        var callLinks = self.callLinks ?? inherited?.callLinks ?? CallLinkSettings()
        // A site's own callLinks replaces the top level's, except for the preview image: a brand's picture
        // is the same on every host unless the site names another.
        if callLinks.previewImage == nil { callLinks.previewImage = inherited?.callLinks?.previewImage }
        let aasa = (self.aasa ?? inherited?.aasa ?? AASADraft())
            .resolved(appIDs: apps.map(\.appID), callLinks: callLinks, callLinksPath: sections.callLinks)
        return SiteConfig(
            hosts: hosts, apps: apps, android: android ?? inherited?.android ?? [], callLinks: callLinks, aasa: aasa,
            staticFiles: staticFiles ?? inherited?.staticFiles ?? StaticFileSettings(), sections: sections)
    }
}

/// Reads `sites`: each entry's hosts and site-level keys, completed from the top level.
enum SitesReader {
    static func read(_ value: JSONValue?, topLevel: SiteDraft, reader: inout ConfigReader) -> [SiteConfig] {
        guard let value, let elements = reader.elements(value, at: "sites", expected: "an array of sites, each with \"hosts\"") else { return [] }
        var sites: [SiteConfig] = []
        var claimed: [String: String] = [:]
        for (element, path) in elements {
            guard let object = reader.object(element, at: path, allowed: ["hosts"] + SiteDraft.keys) else { continue }
            let hosts = readHosts(object, at: path, claimed: &claimed, reader: &reader)
            let site = SiteDraft(object, at: path, reader: &reader).site(hosts: hosts, inheriting: topLevel)
            if let host = site.callLinks.openInAppHost, !site.hosts.contains(where: { CallLinkHost.covers($0, host: host) }) {
                // Another host serves another site (or none): the open button would lead away from this app's page.
                reader.error(.lh116, ConfigReader.join(site.sections.callLinks, "openInAppHost"), "\"\(host)\" is not one of the hosts of \(path) (\(site.hosts.joined(separator: ", "))); add it to its \"hosts\" so its AASA and the entitlements cover it")
            }
            if site.apps.isEmpty && site.android.isEmpty {
                reader.error(.lh108, path, "has no app: set \"apps\" or \"android\" here, or at the top level for every site")
            }
            sites.append(site)
        }
        return sites
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
