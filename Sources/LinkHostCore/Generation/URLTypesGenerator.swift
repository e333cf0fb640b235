/// The custom URL scheme a site's page links to, and the iOS `Info.plist` entry that registers it
/// (`CFBundleURLTypes`): everything the page links to, the app must accept.
public enum URLTypesGenerator {
    /// The custom scheme of a site's open-in-app URL, lowercased: `callLinks.openInAppURL`'s, else the
    /// first iOS app's `urlScheme`; nil when the page writes none.
    public static func scheme(of site: SiteConfig) -> String? {
        if let template = site.callLinks.openInAppURL { return URLTemplates.scheme(of: template) }
        return site.apps.first?.urlScheme?.lowercased()
    }

    /// The schemes of every site with iOS apps, each once.
    public static func schemes(for served: ServedHosts) -> [String] {
        EntitlementsGenerator.unique(served.entries.filter { !$0.site.apps.isEmpty }.compactMap { scheme(of: $0.site) })
    }

    /// The `CFBundleURLTypes` key and array to paste into the app's `Info.plist`; `source` names the config.
    public static func fragment(for served: ServedHosts, source: String) -> String {
        let bundleID = served.entries.lazy.compactMap { $0.site.apps.first?.bundleID }.first ?? ""
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
