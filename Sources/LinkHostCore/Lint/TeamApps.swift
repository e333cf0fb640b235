/// What a team's apps on one site leave a guest without, or let a pre-release build take: an iPhone guest
/// without the app offered nothing (LH128), a pre-release build listed beside its release (LH127).
///
/// Both pass loading, and both break guests silently: the page's App Store button and Smart App Banner need
/// the first app's `appStoreID` (an app outside the store names its `installURL`), and a site that lists
/// `com.acme.video.staging` beside `com.acme.video` verifies the staging build for production's hosts,
/// whose printed entitlements and manifest then claim them, so it opens production's call links.
enum TeamApps {
    /// The last components that mark a pre-release build: the development ones `AssetLinksLinter` knows
    /// (builds their developers sign), and `beta`.
    static let prereleaseSuffixes = AssetLinksLinter.developmentSuffixes.union(["beta"])

    /// Every finding of the config, warnings all; sites that inherit the top level's apps share its findings,
    /// kept once.
    static func diagnostics(_ config: Config) -> [LintDiagnostic] {
        var seen = Set<String>()
        return config.sites.flatMap { noInstallOffer($0) + prereleaseBesideRelease($0) }
            .filter { seen.insert("\($0.code.rawValue) \($0.path) \($0.message)").inserted }
    }

    /// LH128: the first iOS app (the one the page offers) has no App Store ID, no install page, and no App
    /// Clip (whose card is LH716's to judge without an App Store ID).
    static func noInstallOffer(_ site: SiteConfig) -> [LintDiagnostic] {
        guard let app = site.apps.first, app.appStoreID == nil, app.installPage == nil, app.appClipBundleID == nil else { return [] }
        let openHost = site.callLinks.openInAppHost.map { ", and the open host's page (\($0)) says only that the app is missing" } ?? ""
        return [LintDiagnostic(.lh128, .warning, path: site.sections.apps + "[0]", "\"\(app.bundleID)\", the app the call page offers, has no appStoreID and no installURL: an iPhone guest without the app gets no App Store button and no Smart App Banner\(openHost); set appStoreID to the digits after \"id\" in its App Store URL, installURL to its install page (a TestFlight public link), or \"installURL\": false to say there is none")]
    }

    /// LH127: an ID that is another ID of the same site with a pre-release suffix.
    static func prereleaseBesideRelease(_ site: SiteConfig) -> [LintDiagnostic] {
        var found: [LintDiagnostic] = []
        let bundles = site.apps.map(\.bundleID)
        for (offset, bundle) in bundles.enumerated() {
            guard let (release, suffix) = release(of: bundle), bundles.contains(release) else { continue }
            found.append(LintDiagnostic(.lh127, .warning, path: "\(site.sections.apps)[\(offset)].bundleID", "\"\(bundle)\" is \"\(release)\" with the pre-release suffix \".\(suffix)\", listed on the same site: its AASA names that build for these hosts and linkhost print entitlements --app \(site.apps[offset].appID) claims them, so it opens the release's call links on a device that has it; list it on a site of its own (its own hosts) or remove it here"))
        }
        let packages = site.android.map(\.packageName)
        for (offset, package) in packages.enumerated() {
            guard let (release, suffix) = release(of: package), packages.contains(release) else { continue }
            found.append(LintDiagnostic(.lh127, .warning, path: "\(site.sections.android)[\(offset)].packageName", "\"\(package)\" is \"\(release)\" with the pre-release suffix \".\(suffix)\", listed on the same site: assetlinks.json verifies that build for these hosts and linkhost print android-manifest --app \(package) claims them, so Android opens the release's call links in it on a device that has both; list it on a site of its own (its own hosts) or remove it here"))
        }
        return found
    }

    /// The release ID and the suffix of a pre-release `id` (`com.acme.video.staging` → `com.acme.video`, `staging`).
    private static func release(of id: String) -> (String, String)? {
        guard let dot = id.lastIndex(of: ".") else { return nil }
        let suffix = String(id[id.index(after: dot)...])
        guard prereleaseSuffixes.contains(suffix.lowercased()) else { return nil }
        return (String(id[..<dot]), suffix)
    }
}
