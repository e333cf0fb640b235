/// Writes the Associated Domains entitlement an iOS app needs for a config's hosts, as a property-list
/// fragment for its `.entitlements` file.
///
/// Every host of a site with iOS apps gets `applinks:`; `webcredentials:` where the site's AASA lists
/// shared web credentials; `appclips:` (exact hosts only: Apple allows no wildcard there) where it lists
/// the app's App Clip. Apple asks for the `appclips:` entry "on both your app and App Clip targets"
/// (Associating your App Clip with your website,
/// https://developer.apple.com/documentation/appclip/associating-your-app-clip-with-your-website); the
/// clip's own file is `AppClipEntitlements`'.
public enum EntitlementsGenerator {
    /// The entitlement's key.
    public static let key = "com.apple.developer.associated-domains"
    /// What developer mode appends: devices in developer mode fetch the AASA from the server directly,
    /// bypassing Apple's CDN.
    public static let developerMode = "?mode=developer"

    /// The app's entries in host order: `applinks:` and `webcredentials:`, then `appclips:` for the hosts
    /// whose AASA lists its clip.
    public static func entries(for served: ServedHosts) -> (app: [String], appClips: [String]) {
        var app: [String] = []
        var clip: [String] = []
        for entry in served.entries where !entry.site.apps.isEmpty {
            let listsClip = !clips(of: entry.site, app: served.app).isEmpty
            for host in entry.hosts {
                app.append("applinks:\(host)")
                if sharesCredentials(entry.site, app: served.app) { app.append("webcredentials:\(host)") }
                if listsClip, !host.hasPrefix("*.") { clip.append("appclips:\(host)") }
            }
        }
        return (unique(app), unique(clip))
    }

    /// The App Clips the site's AASA lists under `appclips` that belong to `app` (to any of the site's apps
    /// when nil): a clip's ID is its app's ID, a dot and a name.
    static func clips(of site: SiteConfig, app: String?) -> [String] {
        let apps = app.map { [$0] } ?? site.appIDs
        return site.aasa.appclips.filter { clip in apps.contains { AppClipEntitlements.isClip(clip, of: $0) } }
    }

    /// Whether the site's AASA lists shared web credentials for `app` (for any app when nil).
    static func sharesCredentials(_ site: SiteConfig, app: String?) -> Bool {
        app.map(site.aasa.webcredentials.contains) ?? !site.aasa.webcredentials.isEmpty
    }

    /// The `<key>` and `<array>` to paste into the app's `.entitlements` plist; `source` names the config.
    public static func fragment(for served: ServedHosts, developer: Bool, source: String) -> String {
        let (app, clip) = entries(for: served)
        let clipIDs = unique(served.entries.flatMap { clips(of: $0.site, app: served.app) })
        let suffix = developer ? developerMode : ""
        var lines = ["<!-- linkhost print entitlements: the Associated Domains of \(XMLText.comment(source)); paste into the app's .entitlements -->"]
        if developer {
            lines.append("<!-- ?mode=developer is for development builds only: remove it before release. Devices fetch the AASA from the server directly, bypassing Apple's CDN, once Settings > Developer > Associated Domains Development is on. -->")
        }
        lines.append("<key>\(key)</key>")
        lines.append("<array>")
        lines += app.map { "\t<string>\(XMLText.escaped($0 + suffix))</string>" }
        if !clip.isEmpty {
            lines.append("\t<!-- appclips: the hosts whose AASA lists the App Clip \(XMLText.comment(clipIDs.joined(separator: ", "))); Apple asks for them in the app's entitlements and the clip's alike -->")
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
