/// The entitlements of an App Clip target: `appclips:<host>` for every host of the sites whose AASA lists
/// the clip under `appclips`, and the app the clip belongs to (the full app keeps its `applinks:`).
///
/// Apple: "add its domain to the Associated Domains capability using the pattern: `appclips:<fully
/// qualified domain>` … Don't include a trailing slash (`/`), wildcard (`*`), or path and query components"
/// (Associating your App Clip with your website,
/// https://developer.apple.com/documentation/appclip/associating-your-app-clip-with-your-website). A site
/// host `*.example.com` therefore gives the clip no entry: each subdomain that shows the card must be a
/// host of its own. The same page asks for the entry "on both your app and App Clip targets", so the full
/// app's entitlements carry it too (`EntitlementsGenerator`).
///
/// The clip names its app in `com.apple.developer.parent-application-identifiers`, "exactly one entry, the
/// corresponding app's application identifier", and a clip's own identifier is its app's followed by a
/// string (Parent Application Identifiers Entitlement,
/// https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.parent-application-identifiers).
public enum AppClipEntitlements {
    /// The entitlement in which an App Clip names its app (an array of one app ID).
    public static let parentKey = "com.apple.developer.parent-application-identifiers"

    /// The `appclips:` entries for the clip `served` was chosen for (`ServedHosts.naming(_:kind: .appClip)`),
    /// in host order, each once.
    public static func entries(for served: ServedHosts) -> [String] {
        EntitlementsGenerator.unique(served.entries.flatMap { entry in
            entry.hosts.filter { !$0.hasPrefix("*.") }.map { "appclips:\($0)" }
        })
    }

    /// The wildcard hosts of the clip's sites, which no `appclips:` entry can name.
    public static func wildcardHosts(for served: ServedHosts) -> [String] {
        EntitlementsGenerator.unique(served.entries.flatMap { $0.hosts.filter { $0.hasPrefix("*.") } })
    }

    /// Whether `clip` is an App Clip ID of the app `app` (both `TEAMID.bundle`): Apple builds a clip's
    /// identifier from its app's, a dot and a name.
    public static func isClip(_ clip: String, of app: String) -> Bool {
        clip.count > app.count + 1 && clip.hasPrefix(app + ".")
    }

    /// The app ID of the parent of the clip `served` was chosen for: the app of its sites whose
    /// `appClipBundleID` it is, else (a clip listed by hand in `aasa.appclips`) the longest app ID of those
    /// sites that the clip's ID extends; nil when no app of the config is its parent.
    public static func parent(for served: ServedHosts) -> String? {
        guard let clip = served.app else { return nil }
        let apps = served.entries.flatMap(\.site.apps)
        if let own = apps.first(where: { $0.appClipID == clip }) { return own.appID }
        return apps.map(\.appID).filter { isClip(clip, of: $0) }.max { $0.count < $1.count }
    }

    /// The `<key>`s and `<array>`s to paste into the App Clip target's `.entitlements`; `source` names the config.
    public static func fragment(for served: ServedHosts, developer: Bool, source: String) -> String {
        let suffix = developer ? EntitlementsGenerator.developerMode : ""
        let clip = served.app.map { " " + XMLText.comment($0) } ?? ""
        var lines = ["<!-- linkhost print entitlements: the Associated Domains and parent app of the App Clip\(clip) for \(XMLText.comment(source)); paste into the App Clip target's .entitlements -->"]
        if developer {
            lines.append("<!-- ?mode=developer is for development builds only: remove it before release. -->")
        }
        lines.append("<key>\(EntitlementsGenerator.key)</key>")
        lines.append("<array>")
        lines += entries(for: served).map { "\t<string>\(XMLText.escaped($0 + suffix))</string>" }
        let wildcards = wildcardHosts(for: served)
        if !wildcards.isEmpty {
            lines.append("\t<!-- no entry for \(XMLText.comment(wildcards.joined(separator: ", "))): appclips: takes exact hosts only, so no card shows there -->")
        }
        lines.append("</array>")
        if let parent = parent(for: served) {
            lines.append("<!-- the clip's app; Xcode writes it as $(AppIdentifierPrefix) and the bundle ID, the same ID once signed -->")
            lines.append("<key>\(parentKey)</key>")
            lines.append("<array>")
            lines.append("\t<string>\(XMLText.escaped(parent))</string>")
            lines.append("</array>")
        } else {
            lines.append("<!-- \(parentKey): no app of the config is this clip's app (a clip's ID is its app's ID, a dot and a name); give the app's TEAMID.bundle.id there -->")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
