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

    /// How diagnostics name the site: `site "customer6" (sites[6])`, `the default site`.
    package let siteName: String
    /// The iOS apps (`TEAM.bundle`) the AASA must open every URL of `callLinkURLs` in.
    package let iosApps: [String]
    /// The App Clips (`TEAM.bundle.Clip`) the AASA must list under `appclips`, as the config's AASA does.
    package let appClips: [String]
    /// One call link of each link template of the site on this host (both forms of a template with an
    /// optional `{callType}` item), as a person taps them: every app must open each.
    package let callLinkURLs: [String]
    /// The Android apps the assetlinks.json must verify, and whose dynamic rules must let every URL of
    /// `callLinkURLs` open the app.
    package let androidApps: [AndroidApp]

    /// The expectations of `site` served on `origin` (scheme and authority), so the call links are the
    /// URLs a person taps there.
    package init(site: SiteConfig, origin: String) {
        siteName = site.path.isEmpty ? "the default site" : "site \"\(site.label)\" (\(site.path))"
        iosApps = site.apps.map(\.appID)
        appClips = site.aasa.appclips
        callLinkURLs = site.servedCallLinkSamples.flatMap { $0 }.map { origin + $0 }
        androidApps = site.android.map { AndroidApp(packageName: $0.packageName, fingerprints: $0.sha256CertFingerprints) }
    }

    /// The expectations of the site that serves `host` (`authority` as the origin writes it).
    package init(config: Config, host: String, origin: String) {
        self.init(site: config.site(forHost: host), origin: origin)
    }

    /// Whether the AASA answering 404 is what the config means: the site has no iOS app and no App Clip.
    package var expectsNoAASA: Bool { iosApps.isEmpty && appClips.isEmpty }

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
