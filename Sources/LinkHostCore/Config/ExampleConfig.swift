/// The shipped example config's identity: `config/linkhost.json` says `"example": true` and lists the
/// *Example Video* app (team `ABCDE12345`, `com.example.video`). Served on a real domain under a real
/// certificate, it would tell Apple's CDN (which caches what it fetched) that a stranger's app owns the
/// domain's links; these checks keep that from happening by accident.
public enum ExampleConfig {
    /// The example app's Team ID.
    public static let teamID = "ABCDE12345"
    /// The example app's bundle ID and Android package name.
    public static let package = "com.example.video"
    /// What overrides the refusal: `LINKHOST_ALLOW_EXAMPLE=1`, for a deliberate demo on a real domain.
    public static let allowVariable = "LINKHOST_ALLOW_EXAMPLE"

    /// The line `serve` fails with when automatic HTTPS would certify the example, or nil when it may go on.
    public static func acmeRefusal(_ config: Config, environment: [String: String]) -> String? {
        guard config.isExample, config.server.acme != nil, environment[allowVariable] != "1" else { return nil }
        return "the shipped example config (\"example\": true, the Example Video app of team \(teamID)) gets no "
            + "certificate, so that no real domain serves it. Mount your own config "
            + "(docker run … -v \"$PWD/linkhost.json:/etc/linkhost/linkhost.json:ro\", or --config PATH), "
            + "or set \(allowVariable)=1 to serve the example anyway"
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
