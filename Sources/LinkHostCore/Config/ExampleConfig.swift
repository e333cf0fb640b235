/// The shipped example config's identity: `config/linkhost.json` says `"example": true` and lists the
/// *Example Video* app (team `ABCDE12345`, `com.example.video`). Served on a real domain under a real
/// certificate, it would tell Apple's CDN (which caches what it fetched) that a stranger's app owns the
/// domain's links; these checks keep that from happening by accident.
public enum ExampleConfig {
    /// The example app's Team ID.
    public static let teamID = "ABCDE12345"
    /// The example app's bundle ID and Android package name.
    public static let package = "com.example.video"
    /// The example Android app's signing-certificate fingerprint (made up: no key has it).
    public static let fingerprint = "E5:44:CF:3F:B2:96:04:8A:A8:BE:1D:E6:42:83:A0:16:64:FC:34:2F:95:B9:EE:D8:50:06:73:C5:83:E9:6D:14"
    /// The host of the example's URLs (its `webJoinURL`).
    public static let urlHost = "app.example.com"
    /// What overrides the refusal: `LINKHOST_ALLOW_EXAMPLE=1`, for a deliberate demo on a real domain.
    public static let allowVariable = "LINKHOST_ALLOW_EXAMPLE"

    /// The line `serve` fails with (and `validate` reports, LH121) when automatic HTTPS would certify the
    /// example, or a config carrying any of its apps, packages, fingerprints or URLs, marked or not; nil when
    /// it may go on. Judged by content: deleting the marker must not be all it takes to go live as the example.
    public static func acmeRefusal(_ config: Config, environment: [String: String]) -> String? {
        guard config.server.acme != nil, environment[allowVariable] != "1" else { return nil }
        let found = exampleContent(config)
        guard config.isExample || !found.isEmpty else { return nil }
        let what = ((config.isExample ? ["\"example\": true"] : []) + found).joined(separator: "; ")
        return "the shipped example config (\"example\": true, the Example Video app of team \(teamID)) gets no "
            + "certificate, so that no real domain serves it, and this config is it or carries its identity (\(what)). "
            + "Mount your own config (docker run … -v \"$PWD/linkhost.json:/etc/linkhost/linkhost.json:ro\", or --config PATH; "
            + "linkhost init writes one), or set \(allowVariable)=1 to serve the example anyway"
    }

    /// Where the example's identity appears in `config`, each as `path value`: its app (by bundle ID), package,
    /// fingerprint, and URLs on its host; each place once.
    public static func exampleContent(_ config: Config) -> [String] {
        var found: [String] = []
        func note(_ item: String) { if !found.contains(item) { found.append(item) } }
        for site in config.sites {
            for (index, app) in site.apps.enumerated() where app.bundleID == package {
                note("\(site.sections.apps)[\(index)] \(app.appID)")
            }
            for (index, app) in site.android.enumerated() {
                if app.packageName == package { note("\(site.sections.android)[\(index)] \(package)") }
                if app.sha256CertFingerprints.contains(fingerprint) { note("\(site.sections.android)[\(index)].sha256CertFingerprints the example's fingerprint") }
            }
            let urls = [("baseURL", site.callLinks.baseURL), ("webJoinURL", site.callLinks.webJoinURL)]
            for case let (key, url?) in urls where isExampleURL(url) {
                note("\(site.sections.source("callLinks", key)) \(url)")
            }
        }
        return found
    }

    /// Whether `url` is on the example's host (`https://app.example.com/…`).
    static func isExampleURL(_ url: String) -> Bool {
        guard let start = url.firstRange(of: "://")?.upperBound else { return false }
        let host = url[start...].prefix { !"/?#:".contains($0) }
        return host.lowercased() == urlHost
    }

    /// True for an address that only this machine can reach: 127.0.0.0/8, ::1 and their IPv4-mapped form.
    public static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address == "localhost" || address.hasPrefix("127.") || address.hasPrefix("::ffff:127.")
    }

    /// Warnings for every place the example's Team ID or package name appears in `config` (LH121).
    public static func identityWarnings(_ config: Config) -> [ConfigDiagnostic] {
        var found: [ConfigDiagnostic] = []
        var seen = Set<String>()
        for site in config.sites {
            for (index, app) in site.apps.enumerated() where app.teamID == teamID || app.bundleID == package {
                let path = site.sections.apps + "[\(index)]"
                guard seen.insert(path).inserted else { continue }
                found.append(ConfigDiagnostic(.lh121, path: path, message: "\(app.appID) is the shipped example's app, not yours; iOS would hand its links to that app (put your own teamID and bundleID here)", severity: .warning))
            }
            for (index, app) in site.android.enumerated() where app.packageName == package {
                let path = site.sections.android + "[\(index)]"
                guard seen.insert(path).inserted else { continue }
                found.append(ConfigDiagnostic(.lh121, path: path, message: "\(package) is the shipped example's package, not yours; Android would hand its links to that app (put your own packageName and fingerprints here)", severity: .warning))
            }
        }
        if config.isExample, seen.isEmpty {
            found.append(ConfigDiagnostic(.lh121, path: "example", message: "is true: serve refuses automatic HTTPS for this config; remove \"example\" once the config is yours", severity: .warning))
        }
        return found
    }
}
