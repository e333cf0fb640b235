/// Writes the Associated Domains entitlement an iOS app needs for a config's hosts, as a property-list
/// fragment for its `.entitlements` file.
///
/// Every host of a site with iOS apps gets `applinks:`; `webcredentials:` where the site's AASA lists
/// shared web credentials; `appclips:` (exact hosts only: Apple allows no wildcard there) where it lists
/// App Clips, marked for the App Clip target's own entitlements.
public enum EntitlementsGenerator {
    /// The entitlement's key.
    public static let key = "com.apple.developer.associated-domains"
    /// What developer mode appends: devices in developer mode fetch the AASA from the server directly,
    /// bypassing Apple's CDN.
    public static let developerMode = "?mode=developer"

    /// The entries, for the app and for its App Clip, in host order.
    public static func entries(for served: ServedHosts) -> (app: [String], appClip: [String]) {
        var app: [String] = []
        var clip: [String] = []
        for entry in served.entries where !entry.site.apps.isEmpty {
            for host in entry.hosts {
                app.append("applinks:\(host)")
                if sharesCredentials(entry.site, app: served.app) { app.append("webcredentials:\(host)") }
                if !entry.site.aasa.appclips.isEmpty, !host.hasPrefix("*.") { clip.append("appclips:\(host)") }
            }
        }
        return (unique(app), unique(clip))
    }

    /// Whether the site's AASA lists shared web credentials for `app` (for any app when nil).
    static func sharesCredentials(_ site: SiteConfig, app: String?) -> Bool {
        app.map(site.aasa.webcredentials.contains) ?? !site.aasa.webcredentials.isEmpty
    }

    /// The `<key>` and `<array>` to paste into the app's `.entitlements` plist; `source` names the config.
    public static func fragment(for served: ServedHosts, developer: Bool, source: String) -> String {
        let (app, clip) = entries(for: served)
        let suffix = developer ? developerMode : ""
        var lines = ["<!-- linkhost print entitlements: the Associated Domains of \(XMLText.comment(source)); paste into the app's .entitlements -->"]
        if developer {
            lines.append("<!-- ?mode=developer is for development builds only: remove it before release. Devices fetch the AASA from the server directly, bypassing Apple's CDN, once Settings > Developer > Associated Domains Development is on. -->")
        }
        lines.append("<key>\(key)</key>")
        lines.append("<array>")
        lines += app.map { "\t<string>\(XMLText.escaped($0 + suffix))</string>" }
        if !clip.isEmpty {
            lines.append("\t<!-- appclips: entries belong in the App Clip target's .entitlements -->")
            lines += clip.map { "\t<string>\(XMLText.escaped($0 + suffix))</string>" }
        }
        lines.append("</array>")
        return lines.joined(separator: "\n") + "\n"
    }

    static func unique(_ items: [String]) -> [String] {
        var seen: [String] = []
        for item in items where !seen.contains(item) { seen.append(item) }
        return seen
    }
}

/// Escaping for text and attribute values of the XML linkhost writes.
enum XMLText {
    /// `&`, `<`, `>` and `"` as entities.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Text that can stand inside a comment: no `--`.
    static func comment(_ text: String) -> String {
        var result = text
        while result.contains("--") { result = result.replacing("--", with: "- -") }
        return result
    }
}
