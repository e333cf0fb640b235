/// The Associated Domains entitlement of an App Clip target: `appclips:<host>` for every host of the sites
/// whose AASA lists the clip under `appclips`, and nothing else (the full app keeps its `applinks:`).
///
/// Apple: "add its domain to the Associated Domains capability using the pattern: `appclips:<fully
/// qualified domain>` … Don't include a trailing slash (`/`), wildcard (`*`), or path and query components"
/// (Associating your App Clip with your website,
/// https://developer.apple.com/documentation/appclip/associating-your-app-clip-with-your-website). A site
/// host `*.example.com` therefore gives the clip no entry: each subdomain that shows the card must be a
/// host of its own.
public enum AppClipEntitlements {
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

    /// The `<key>` and `<array>` to paste into the App Clip target's `.entitlements`; `source` names the config.
    public static func fragment(for served: ServedHosts, developer: Bool, source: String) -> String {
        let suffix = developer ? EntitlementsGenerator.developerMode : ""
        let clip = served.app.map { " " + XMLText.comment($0) } ?? ""
        var lines = ["<!-- linkhost print entitlements: the Associated Domains of the App Clip\(clip) for \(XMLText.comment(source)); paste into the App Clip target's .entitlements -->"]
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
        return lines.joined(separator: "\n") + "\n"
    }
}
