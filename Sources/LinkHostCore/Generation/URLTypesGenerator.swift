/// The custom URL scheme a site's page links to, and the iOS `Info.plist` entry that registers it
/// (`CFBundleURLTypes`): everything the page links to, the app must accept.
public enum URLTypesGenerator {
    /// The custom scheme of a site's open-in-app URL, lowercased: `callLinks.openInAppURL`'s, else the
    /// first iOS app's `urlScheme`; nil when the page writes none.
    public static func scheme(of site: SiteConfig) -> String? {
        if let template = site.callLinks.openInAppURL { return URLTemplates.scheme(of: template) }
        return site.apps.first?.urlScheme?.lowercased()
    }

    /// The schemes of every site with iOS apps, each once; for one app (`served.app`) only the schemes the
    /// page writes for it: `openInAppURL`'s, which every app of the site answers, or its own `urlScheme`
    /// where it is the site's first app (the one whose scheme the page writes). Another app's scheme is not
    /// this app's to declare: two apps declaring one scheme leave iOS to pick either.
    public static func schemes(for served: ServedHosts) -> [String] {
        EntitlementsGenerator.unique(served.entries.filter { !$0.site.apps.isEmpty }.compactMap { scheme(of: $0.site, for: served.app) })
    }

    /// The scheme the page of `site` links to that `app` (an app ID or package; nil for any) must declare.
    static func scheme(of site: SiteConfig, for app: String?) -> String? {
        guard let app, site.callLinks.openInAppURL == nil, site.appIDs.contains(app) else { return scheme(of: site) }
        return site.apps.first?.appID == app ? scheme(of: site) : nil
    }

    /// The `CFBundleURLTypes` key and array to paste into the app's `Info.plist`; `source` names the config.
    public static func fragment(for served: ServedHosts, source: String) -> String {
        let chosen = served.entries.lazy.flatMap(\.site.apps).first { $0.appID == served.app }
        let bundleID = chosen?.bundleID ?? served.entries.lazy.compactMap { $0.site.apps.first?.bundleID }.first ?? ""
        var lines = [
            "<!-- linkhost print info-plist: the URL scheme the call page of \(XMLText.comment(source)) links to; paste into the app's Info.plist -->",
            "<key>CFBundleURLTypes</key>",
            "<array>",
            "\t<dict>",
            "\t\t<key>CFBundleURLName</key>",
            "\t\t<string>\(XMLText.escaped(bundleID))</string>",
            "\t\t<key>CFBundleURLSchemes</key>",
            "\t\t<array>",
        ]
        lines += schemes(for: served).map { "\t\t\t<string>\(XMLText.escaped($0))</string>" }
        lines += ["\t\t</array>", "\t</dict>", "</array>"]
        return lines.joined(separator: "\n") + "\n"
    }
}
