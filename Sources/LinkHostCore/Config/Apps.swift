import LinkHostJSON

/// One iOS app.
public struct AppleApp: Sendable, Equatable {
    /// Display name, shown on the call page.
    public var name: String
    /// Apple Developer Team ID: 10 characters of A-Z and 0-9.
    public var teamID: String
    /// Bundle identifier in reverse-DNS form.
    public var bundleID: String
    /// Numeric App Store ID, for store links and the Smart App Banner.
    public var appStoreID: String?
    /// Custom URL scheme that reopens the app from its own domain's page.
    public var urlScheme: String?
    /// Bundle ID of the app's App Clip (same team, the app's bundle ID as its prefix): the site's AASA lists
    /// it under `appclips` and the call page's Smart App Banner shows its card.
    public var appClipBundleID: String?
    /// Where an app outside the App Store is installed from (`installURL`); nil: the App Store (by `appStoreID`).
    public var installPage: InstallPage? = nil

    /// `TEAMID.bundleID`, the identifier iOS uses in the AASA.
    public var appID: String { "\(teamID).\(bundleID)" }

    /// `TEAMID.clipBundleID`, the App Clip's identifier in the AASA's `appclips.apps`.
    public var appClipID: String? { appClipBundleID.map { "\(teamID).\($0)" } }
}

/// One Android app for Digital Asset Links.
public struct AndroidApp: Sendable, Equatable {
    /// Application ID (package name).
    public var packageName: String
    /// SHA-256 fingerprints of the signing certificates, uppercase hex pairs joined by ":".
    public var sha256CertFingerprints: [String]
    /// Whether the app's statement carries the site's rules as Android 15+ dynamic rules
    /// (`dynamic_app_link_components`); off leaves the app's manifest alone to decide.
    public var dynamicRules: Bool = true
    /// Display name, shown on the call page of a site without iOS apps (an iOS app's name comes first).
    public var name: String?
    /// The lint warnings turned off for this app (`"lint": {"ignore": ["LH403"]}`).
    public var ignoredLints: [LintCode] = []
    /// Where an app outside Google Play is installed from (`installURL`); nil: Google Play.
    public var installPage: InstallPage? = nil
}

/// The install page of an app outside the stores (TestFlight, Firebase App Distribution, an internal build):
/// the page links there instead of a store listing that does not exist, or to nothing.
public enum InstallPage: Sendable, Hashable {
    /// `"installURL": "https://…"`: the app's own install page.
    case page(String)
    /// `"installURL": false`: no install link at all (a build handed out by device management).
    case none

    /// The link the page shows, or nil for none.
    public var url: String? {
        if case .page(let url) = self { return url }
        return nil
    }
}

/// Reads the `apps` and `android` sections (of the top level or of one site).
enum AppsReader {
    /// The iOS apps of the `apps` array at `path`.
    static func readApple(_ value: JSONValue, at path: String, reader: inout ConfigReader) -> [AppleApp] {
        guard let elements = reader.elements(value, at: path, expected: "an array of apps") else { return [] }
        var apps: [AppleApp] = []
        var seen: [String: String] = [:]
        for (value, path) in elements {
            guard let object = reader.object(value, at: path, allowed: ConfigKeys.members(of: "apps[]")) else { continue }
            let name = reader.string(object, "name", at: path, required: true, expected: "the app's display name", rule: displayNameRule)
            let teamID = reader.string(object, "teamID", at: path, required: true, expected: "a string of 10 characters A-Z and 0-9", code: .lh101, rule: Identifiers.teamID)
            let bundleID = reader.string(object, "bundleID", at: path, required: true, expected: "a reverse-DNS bundle ID", code: .lh102, rule: Identifiers.bundleID)
            let appStoreID = readAppStoreID(object, at: path, reader: &reader)
            let urlScheme = reader.string(object, "urlScheme", at: path, expected: "a custom URL scheme such as \"examplevideo\"", rule: Identifiers.urlScheme)
            let installPage = readInstallPage(object, at: path, reader: &reader)
            if installPage != nil && appStoreID != nil {
                reader.error(.lh109, ConfigReader.join(path, "installURL"), "is set with appStoreID; give appStoreID for an app in the App Store, installURL for one outside it (TestFlight, an internal build)")
            }
            guard let name, let teamID, let bundleID else { continue }
            var app = AppleApp(name: name, teamID: teamID, bundleID: bundleID, appStoreID: appStoreID, urlScheme: urlScheme)
            app.appClipBundleID = readAppClip(object, of: app, at: path, reader: &reader)
            app.installPage = installPage
            if let first = seen[app.appID] {
                reader.error(.lh104, path, "app ID \"\(app.appID)\" is already listed at \(first); list each app once")
                continue
            }
            seen[app.appID] = path
            apps.append(app)
        }
        return apps
    }

    private static func displayNameRule(_ name: String) -> String? {
        if name.allSatisfy(\.isWhitespace) { return "is empty; expected the app's display name" }
        if name.count > 100 { return "is longer than 100 characters" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "contains control characters" }
        return nil
    }

    /// App Store IDs are often pasted as numbers; accept both and keep the digits.
    private static func readAppStoreID(_ object: JSONObject, at path: String, reader: inout ConfigReader) -> String? {
        if case .number(let number)? = object["appStoreID"] {
            if let problem = Identifiers.appStoreID(number.text) {
                reader.error(.lh109, ConfigReader.join(path, "appStoreID"), "\(number.text) \(problem)")
                return nil
            }
            return number.text
        }
        return reader.string(object, "appStoreID", at: path, expected: "the App Store ID digits, e.g. \"1234567890\"", rule: Identifiers.appStoreID)
    }

    /// Every site's page names its app ("Open it in {appName} to join"): a site whose apps carry no name
    /// (Android apps only, none named) is an error at its `android` section, reported once per section.
    static func checkNames(_ sites: [SiteConfig], reader: inout ConfigReader) {
        var reported = Set<String>()
        // An iOS app that failed to load has its own error already; its name is then not missing.
        let failedApps = Set(reader.diagnostics.filter { $0.severity == .error }.map(\.path))
        for site in sites where site.appName == nil && !site.android.isEmpty && reported.insert(site.sections.android).inserted {
            if failedApps.contains(where: { $0.hasPrefix(site.sections.apps + "[") }) { continue }
            reader.error(.lh108, site.sections.android + "[0].name",
                         "missing; the call page names the app (\"Open it in … to join\") and this site has no iOS app, so set \"name\" on one of its Android apps")
        }
    }

    /// The Android apps of the `android` array at `path`.
    static func readAndroid(_ value: JSONValue, at path: String, reader: inout ConfigReader) -> [AndroidApp] {
        guard let elements = reader.elements(value, at: path, expected: "an array of Android apps") else { return [] }
        var apps: [AndroidApp] = []
        var seen: [String: String] = [:]
        for (value, path) in elements {
            guard let object = reader.object(value, at: path, allowed: ConfigKeys.members(of: "android[]")) else { continue }
            let name = reader.string(object, "name", at: path, expected: "the app's display name", rule: displayNameRule)
            let packageName = reader.string(object, "packageName", at: path, required: true, expected: "an Android package name", code: .lh401, rule: Identifiers.packageName)
            let fingerprints = readFingerprints(object, at: path, reader: &reader)
            let dynamicRules = reader.boolean(object, "dynamicRules", at: path) ?? true
            let ignoredLints = readIgnoredLints(object, at: path, reader: &reader)
            let installPage = readInstallPage(object, at: path, reader: &reader)
            guard let packageName else { continue }
            if let first = seen[packageName] {
                reader.error(.lh404, path, "package \"\(packageName)\" is already listed at \(first); put all its fingerprints in one entry")
                continue
            }
            seen[packageName] = path
            apps.append(AndroidApp(packageName: packageName, sha256CertFingerprints: fingerprints, dynamicRules: dynamicRules, name: name, ignoredLints: ignoredLints, installPage: installPage))
        }
        return apps
    }

    /// `installURL`: an https install page, or `false` for none; nil when the app is in its store.
    private static func readInstallPage(_ object: JSONObject, at path: String, reader: inout ConfigReader) -> InstallPage? {
        guard let value = object["installURL"] else { return nil }
        let expected = "the https URL of the app's install page (e.g. a TestFlight public link), or false for none"
        switch value {
        case .bool(false): return InstallPage.none
        case .string(let url):
            if let problem = URLTemplates.installPageRule(url) {
                reader.error(.lh109, ConfigReader.join(path, "installURL"), "\(ConfigReader.show(value)) \(problem); expected \(expected)")
                return nil
            }
            return .page(url)
        default:
            reader.typeMismatch(value, at: ConfigReader.join(path, "installURL"), expected: expected)
            return nil
        }
    }

    /// The lint warnings an Android app may turn off: the ones reported about one app alone.
    static let ignorableLints: [LintCode] = [.lh403]

    /// `"lint": {"ignore": ["LH403"]}`: warnings that do not apply to this app (a build Play never signs).
    private static func readIgnoredLints(_ object: JSONObject, at path: String, reader: inout ConfigReader) -> [LintCode] {
        guard let value = object["lint"] else { return [] }
        let lintPath = ConfigReader.join(path, "lint")
        guard let lint = reader.object(value, at: lintPath, allowed: ConfigKeys.members(of: "android[].lint")),
              let list = reader.array(lint, "ignore", at: lintPath, expected: "an array of lint codes, e.g. [\"LH403\"]")
        else { return [] }
        var codes: [LintCode] = []
        let allowed = ignorableLints.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        for (element, elementPath) in list {
            guard case .string(let text) = element else {
                reader.typeMismatch(element, at: elementPath, expected: "a lint code such as \"LH403\"")
                continue
            }
            guard let code = ignorableLints.first(where: { $0.rawValue == text.uppercased() }) else {
                reader.error(.lh109, elementPath, "\(ConfigReader.show(element)) cannot be ignored per Android app; the codes that can are \(allowed)")
                continue
            }
            if !codes.contains(code) { codes.append(code) }
        }
        return codes
    }

    private static func readFingerprints(_ object: JSONObject, at path: String, reader: inout ConfigReader) -> [String] {
        var fingerprints: [String] = []
        let fingerprintsPath = ConfigReader.join(path, "sha256CertFingerprints")
        guard let list = reader.array(object, "sha256CertFingerprints", at: path, required: true, expected: "an array of SHA-256 fingerprints") else { return [] }
        if list.isEmpty { reader.error(.lh402, fingerprintsPath, "is empty; expected at least one SHA-256 fingerprint") }
        for (element, elementPath) in list {
            guard case .string(let text) = element else {
                reader.typeMismatch(element, at: elementPath, expected: "a SHA-256 fingerprint string")
                continue
            }
            guard let normalized = Identifiers.normalizedFingerprint(text) else {
                reader.error(.lh402, elementPath, "\(ConfigReader.show(element)) \(Identifiers.fingerprint(text) ?? "")")
                continue
            }
            if fingerprints.contains(normalized) {
                reader.error(.lh404, elementPath, "\(ConfigReader.show(element)) is listed twice")
            } else {
                fingerprints.append(normalized)
            }
        }
        return fingerprints
    }
}
