import CallLinks
import LinkHostCore
import LinkHostJSON

/// What the config says a host's live association files must do for its apps, so `check` decides rather
/// than only compares: a file may differ in bytes and still work, or match an old deploy byte for byte
/// and still leave an app out.
package struct HostExpectations: Sendable, Equatable {
    /// An Android app and the certificate fingerprints the config lists for it.
    package struct AndroidApp: Sendable, Equatable {
        /// The package name.
        package let packageName: String
        /// SHA-256 fingerprints, upper-case colon form as the config writes them.
        package let fingerprints: [String]
    }

    /// How diagnostics name the site: `site "meet.customer6.com" (sites[6])`.
    package let siteName: String
    /// The iOS apps (`TEAM.bundle`) the AASA must open `callLinkURL` in.
    package let iosApps: [String]
    /// A call link of the site on this host, in the site's canonical shape.
    package let callLinkURL: String
    /// The Android apps the assetlinks.json must verify.
    package let androidApps: [AndroidApp]

    /// The expectations of the site that serves `host` (`authority` as the origin writes it); the call link
    /// is built on `origin` (scheme and authority) so it is the URL a person taps.
    package init(config: Config, host: String, origin: String) {
        let site = config.site(forHost: host)
        let index = config.sites.firstIndex(of: site) ?? 0
        siteName = index == 0 ? "the default site" : "site \"\(site.hosts.first ?? "?")\" (sites[\(index - 1)])"
        iosApps = site.apps.map(\.appID)
        let links = site.callLinks.links
        callLinkURL = origin + links.canonicalPath(for: CallLink(callID: "linkhost-check", callType: links.defaultType))
        androidApps = site.android.map { AndroidApp(packageName: $0.packageName, fingerprints: $0.sha256CertFingerprints) }
    }

    /// The apps of `androidApps` that `statements` (a served assetlinks.json, parsed) do not grant App Links
    /// with every listed fingerprint, each with what is missing.
    func unverifiedAndroidApps(in statements: JSONValue) -> [(app: AndroidApp, missing: String)] {
        var granted: [String: Set<String>] = [:]
        for statement in statements.arrayValue ?? [] {
            guard let object = statement.objectValue,
                  object["relation"]?.arrayValue?.contains(.string("delegate_permission/common.handle_all_urls")) == true,
                  let target = object["target"]?.objectValue, target["namespace"]?.stringValue == "android_app",
                  let package = target["package_name"]?.stringValue else { continue }
            let prints = (target["sha256_cert_fingerprints"]?.arrayValue ?? []).compactMap(\.stringValue).map { $0.uppercased() }
            granted[package, default: []].formUnion(prints)
        }
        return androidApps.compactMap { app in
            guard let prints = granted[app.packageName] else { return (app, "no statement grants it App Links (delegate_permission/common.handle_all_urls)") }
            let missing = app.fingerprints.filter { !prints.contains($0.uppercased()) }
            return missing.isEmpty ? nil : (app, "its fingerprint\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") not listed")
        }
    }
}

/// Where two JSON documents differ, as JSON paths (`applinks.details[0].appIDs[1]`), at most `limit`.
enum JSONDifference {
    static func paths(_ served: JSONValue, _ expected: JSONValue, limit: Int = 5) -> [String] {
        var found: [String] = []
        collect(served, expected, path: "", into: &found, limit: limit)
        return found
    }

    private static func collect(_ served: JSONValue, _ expected: JSONValue, path: String, into found: inout [String], limit: Int) {
        guard found.count < limit, served != expected else { return }
        switch (served, expected) {
        case (.object(let a), .object(let b)):
            for key in b.keys + a.keys.filter({ !b.keys.contains($0) }) {
                let child = path.isEmpty ? key : path + "." + key
                switch (a[key], b[key]) {
                case (let x?, let y?): collect(x, y, path: child, into: &found, limit: limit)
                case (nil, _?): if found.count < limit { found.append(child + " (missing)") }
                case (_?, nil): if found.count < limit { found.append(child + " (not in the config's)") }
                default: break
                }
            }
        case (.array(let a), .array(let b)) where a.count == b.count:
            for (index, pair) in zip(a, b).enumerated() { collect(pair.0, pair.1, path: path + "[\(index)]", into: &found, limit: limit) }
        default:
            found.append(path.isEmpty ? "the whole document" : path)
        }
    }
}
