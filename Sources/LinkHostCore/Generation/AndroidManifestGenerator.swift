import CallLinks

/// Writes the App Links intent filters an Android app needs for a config's sites, as an XML fragment for
/// the `<activity>` of its `AndroidManifest.xml`: one `<intent-filter android:autoVerify="true">` per site
/// with `VIEW`, `DEFAULT`, `BROWSABLE`, scheme `https`, each host, and a path claim per link template.
///
/// The claims are deliberately broad, as Google recommends: the manifest sets the widest scope and
/// Android 15+'s dynamic rules (assetlinks.json) narrow it, so a new template or rule under a claimed
/// prefix needs no app update. A template with a placeholder in its path is claimed with `pathPrefix` of
/// its literal segments (`/call/`); a query-only template with `path` (`/join` and `/join/`, as iOS and the
/// server accept the trailing slash). `pathPattern` is not written: its `*` is lazy like Android's dynamic
/// rules and its escapes must be doubled in XML, and `pathAdvancedPattern` needs API 31; a prefix says the
/// same for every link shape, on every Android version. Before Android 15 the manifest alone decides, so
/// such a device also opens `/call/` or `/call/a/b` in the app, which `CallLinkParser` returns nil for.
public enum AndroidManifestGenerator {
    /// The namespace of Android's manifest attributes.
    public static let namespace = "http://schemas.android.com/apk/res/android"

    /// A `<data>` path attribute: its name (`pathPrefix`, `path`) and value.
    public struct PathClaim: Sendable, Equatable {
        /// `pathPrefix` or `path`.
        public let attribute: String
        /// The path or prefix.
        public let value: String
    }

    /// The path claims covering every template, each once.
    public static func paths(for templates: [CallLinkTemplate]) -> [PathClaim] {
        var claims: [PathClaim] = []
        for template in templates {
            let literal = "/" + template.literalPrefix.joined(separator: "/")
            let hasPlaceholder = template.segments.contains { $0 == .callID || $0 == .typedCallID }
            let new = hasPlaceholder
                ? [PathClaim(attribute: "pathPrefix", value: literal == "/" ? "/" : literal + "/")]
                : [PathClaim(attribute: "path", value: literal), PathClaim(attribute: "path", value: literal + "/")]
            for claim in new where !claims.contains(claim) { claims.append(claim) }
        }
        return claims
    }

    /// The intent filters for every site with Android apps; `source` names the config.
    public static func fragment(for served: ServedHosts, source: String) -> String {
        let sites = served.entries.filter { !$0.site.android.isEmpty }
        let packages = served.app.map { [$0] } ?? EntitlementsGenerator.unique(sites.flatMap { $0.site.android.map(\.packageName) })
        var lines = [
            "<!-- linkhost print android-manifest: App Links of \(XMLText.comment(source)) for \(packages.joined(separator: ", ")). -->",
            "<!-- Put them inside the <activity> that opens call links (android:exported=\"true\"); Android 15+ narrows them with the dynamic rules of /.well-known/assetlinks.json. -->",
        ]
        for entry in sites {
            lines.append("<intent-filter android:autoVerify=\"true\">")
            lines.append("    <action android:name=\"android.intent.action.VIEW\" />")
            lines.append("    <category android:name=\"android.intent.category.DEFAULT\" />")
            lines.append("    <category android:name=\"android.intent.category.BROWSABLE\" />")
            lines.append("    <data android:scheme=\"https\" />")
            lines += entry.hosts.map { "    <data android:host=\"\(XMLText.escaped($0))\" />" }
            lines += paths(for: entry.site.callLinks.links.templates).map { "    <data android:\($0.attribute)=\"\(XMLText.escaped($0.value))\" />" }
            lines.append("</intent-filter>")
        }
        // The page opens the app through the https filter; a site whose page also writes a custom scheme
        // gets that scheme declared too (no autoVerify: a scheme cannot be verified).
        let schemes = EntitlementsGenerator.unique(sites.compactMap { URLTypesGenerator.scheme(of: $0.site) })
        if !schemes.isEmpty {
            lines.append("<intent-filter>")
            lines.append("    <action android:name=\"android.intent.action.VIEW\" />")
            lines.append("    <category android:name=\"android.intent.category.DEFAULT\" />")
            lines.append("    <category android:name=\"android.intent.category.BROWSABLE\" />")
            lines += schemes.map { "    <data android:scheme=\"\(XMLText.escaped($0))\" />" }
            lines.append("</intent-filter>")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The one line of Swift that builds an app's `CallLinkParser` from the config, so the app reads links
/// with the templates the server serves.
public enum SwiftParserLine {
    /// `let parser = try CallLinkParser(templates: [...], defaultType: "...", hosts: [...])`, with
    /// `schemes: [...]` when the page also links to the app's custom scheme.
    public static func line(for site: SiteConfig, hosts: [String]) -> String {
        let templates = site.callLinks.links.templates.map { literal($0.text) }.joined(separator: ", ")
        let hostList = hosts.map { literal($0) }.joined(separator: ", ")
        let schemes = URLTypesGenerator.scheme(of: site).map { ", schemes: [\(literal($0))]" } ?? ""
        return "let parser = try CallLinkParser(templates: [\(templates)], defaultType: \(literal(site.callLinks.defaultType)), hosts: [\(hostList)]\(schemes))\n"
    }

    /// A Swift string literal; `escaping` names more characters to put a backslash before (Kotlin's `$`).
    static func literal(_ text: String, escaping extra: Set<Unicode.Scalar> = []) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "\"" || extra.contains(scalar) { result += "\\" }
            result.unicodeScalars.append(scalar)
        }
        return result + "\""
    }
}
