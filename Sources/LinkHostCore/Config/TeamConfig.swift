import CallLinks
import LinkHostJSON

/// What `linkhost init` asks a team, and the config it writes from the answers: production (and staging)
/// as sites of their own, each with its link host, its open-in-app host and its apps on both platforms
/// (docs/team-config.md explains the shape; `config/examples/team.json` is one).
public struct TeamAnswers: Sendable, Equatable {
    /// One Android app: its package and signing-certificate fingerprints (normalized).
    public struct AndroidAnswer: Sendable, Equatable {
        /// The package name.
        public var package: String
        /// Uppercase hex pairs joined by ":".
        public var fingerprints: [String]
    }

    /// The hosts and apps of one environment (production or staging).
    public struct Environment: Sendable, Equatable {
        /// The host call links are on, lowercased.
        public var host: String
        /// The host the iPhone's open button leads to; nil for none.
        public var openHost: String?
        /// The iOS apps' bundle IDs.
        public var ios: [String] = []
        /// The Android apps.
        public var android: [AndroidAnswer] = []
        /// The App Store ID of the first iOS app (the one the page offers); nil for none.
        public var appStoreID: String?
        /// The bundle ID of the first iOS app's App Clip; nil for none.
        public var appClip: String?

        /// Makes an environment's answers.
        public init(host: String, openHost: String?, ios: [String], android: [AndroidAnswer], appStoreID: String? = nil, appClip: String? = nil) {
            (self.host, self.openHost, self.ios, self.android) = (host, openHost, ios, android)
            (self.appStoreID, self.appClip) = (appStoreID, appClip)
        }
    }

    /// The Apple Developer Team ID of every iOS app.
    public var teamID: String
    /// The name the call page shows; nil derives it from the production host.
    public var name: String?
    /// The production environment: the top level and the `production` site.
    public var production: Environment
    /// The staging environment: the `staging` site; nil for none.
    public var staging: Environment?
    /// The web-join URL template; nil for none.
    public var webJoinURL: String?

    /// Makes the answers.
    public init(teamID: String, name: String?, production: Environment, staging: Environment?, webJoinURL: String?) {
        (self.teamID, self.name, self.production, self.staging, self.webJoinURL) = (teamID, name, production, staging, webJoinURL)
    }

    /// Reads `PACKAGE=SHA256[,SHA256…]`; the error names what is wrong with it.
    public static func android(_ text: String) -> Result<AndroidAnswer, TeamAnswerError> {
        guard let equals = text.firstIndex(of: "=") else {
            return .failure(TeamAnswerError("'\(text)' is not PACKAGE=SHA256[,SHA256…], e.g. com.acme.video=14:6D:…:E5"))
        }
        let package = String(text[..<equals])
        if let problem = Identifiers.packageName(package) { return .failure(TeamAnswerError("package '\(package)' \(problem)")) }
        var fingerprints: [String] = []
        for written in text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false) {
            // 64 hex digits without colons (as some tools print it) is the same fingerprint.
            var part = String(written)
            if part.utf8.count == 64, part.allSatisfy(\.isHexDigit) {
                let digits = Array(part)
                part = stride(from: 0, to: 64, by: 2).map { String(digits[$0..<$0 + 2]) }.joined(separator: ":")
            }
            guard let normalized = Identifiers.normalizedFingerprint(part) else {
                return .failure(TeamAnswerError("fingerprint '\(part)' of \(package) \(Identifiers.fingerprint(String(part)) ?? "is not a SHA-256 fingerprint")"))
            }
            if !fingerprints.contains(normalized) { fingerprints.append(normalized) }
        }
        return .success(AndroidAnswer(package: package, fingerprints: fingerprints))
    }

    /// Every answer that cannot go into a config, each naming its option; empty when the config can be written.
    public func problems() -> [String] {
        var found: [String] = []
        if let problem = Identifiers.teamID(teamID) { found.append("--team-id '\(teamID)' \(problem)") }
        if let name, name.isEmpty || name.count > 100 { found.append("--name must be 1 to 100 characters") }
        if let webJoinURL, let problem = URLTemplates.webJoinRule(webJoinURL) { found.append("--web-join '\(webJoinURL)' \(problem)") }
        var hosts: [String: String] = [:]
        for (prefix, environment) in [("", production)] + (staging.map { [("staging-", $0)] } ?? []) {
            if environment.ios.isEmpty && environment.android.isEmpty {
                found.append(prefix.isEmpty ? "give the apps: --ios BUNDLE and/or --android PACKAGE=SHA256" : "give the staging apps: --staging-ios BUNDLE and/or --staging-android PACKAGE=SHA256")
            }
            for (option, host) in [("--\(prefix)host", environment.host), ("--\(prefix)open-host", environment.openHost)] {
                guard let host else { continue }
                if let problem = CallLinkHost.problem(host) ?? (host.hasPrefix("*.") ? "is a wildcard; name one host" : nil) {
                    found.append("\(option) '\(host)' \(problem)")
                } else if let first = hosts[host] {
                    // Only an open host repeating its own environment's link host breaks the open button.
                    let why = first == "--\(prefix)host" ? "the open host must differ from the link host (iOS opens no app for a tap on a link to the page's own host)" : "every host serves one environment"
                    found.append("\(option) '\(host)' is already given as \(first); \(why)")
                } else {
                    hosts[host] = option
                }
            }
            found += storeProblems(environment, prefix: prefix)
            for bundle in environment.ios {
                if let problem = Identifiers.bundleID(bundle) { found.append("--\(prefix)ios '\(bundle)' \(problem)") }
            }
            let bundles = environment.ios.map { $0.lowercased() }
            if Set(bundles).count != bundles.count { found.append("--\(prefix)ios lists one bundle ID twice") }
            let packages = environment.android.map(\.package)
            if Set(packages).count != packages.count { found.append("--\(prefix)android lists one package twice") }
        }
        return found
    }

    /// The problems of an environment's App Store ID and App Clip, each naming its option.
    private func storeProblems(_ environment: Environment, prefix: String) -> [String] {
        var found: [String] = []
        if let id = environment.appStoreID {
            if environment.ios.isEmpty { found.append("--\(prefix)app-store-id is the \(prefix.isEmpty ? "" : "staging ")iOS app's: give the app with --\(prefix)ios") }
            if let problem = Identifiers.appStoreID(id) { found.append("--\(prefix)app-store-id '\(id)' \(problem)") }
        }
        guard let clip = environment.appClip else { return found }
        guard let app = environment.ios.first else { return found + ["--\(prefix)app-clip is an iOS app's App Clip: give the app with --\(prefix)ios"] }
        if let problem = Identifiers.bundleID(clip) {
            found.append("--\(prefix)app-clip '\(clip)' \(problem)")
        } else if !clip.hasPrefix(app + ".") || clip.utf8.count == app.utf8.count + 1 {
            // Apple requires the app's identifier as the clip's prefix (AppClipReader, LH715).
            found.append("--\(prefix)app-clip '\(clip)' does not start with the first --\(prefix)ios '\(app)' and a dot; Apple requires the app's ID as the clip's prefix, e.g. '\(app).Clip'")
        }
        return found
    }

    /// The display name: `name`, else the production host's domain in words (`meet.acme-video.com` → "Acme Video").
    public var displayName: String {
        if let name { return name }
        let labels = production.host.split(separator: ".")
        let domain = labels.count >= 2 ? labels[labels.count - 2] : labels.first ?? "calls"
        return domain.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    /// The config, members in the order docs/team-config.md explains them.
    public var document: JSONValue {
        var root = JSONObject()
        // A host no site lists gets 404, never production's AASA: what staging and tenants need.
        root.append("server", .object(JSONObject([JSONMember("strictHosts", .bool(true))])))
        root.members += apps(production, name: displayName).members
        var callLinks = JSONObject([JSONMember("paths", .array([.string("call")])), JSONMember("defaultType", .string("default"))])
        callLinks.members += hostLinks(production).members
        if let webJoinURL { callLinks.append("webJoinURL", .string(webJoinURL)) }
        root.append("callLinks", .object(callLinks))
        var sites: [JSONValue] = [.object(JSONObject([JSONMember("id", .string("production")), JSONMember("hosts", hostList(production))]))]
        if let staging {
            var site = JSONObject([JSONMember("id", .string("staging")), JSONMember("hosts", hostList(staging))])
            site.members += apps(staging, name: displayName + " Staging", staging: true).members
            site.append("callLinks", .object(hostLinks(staging)))
            sites.append(.object(site))
        }
        root.append("sites", .array(sites))
        return .object(root)
    }

    /// The config file's text.
    public var text: String { JSONWriter.string(document) }

    private func hostList(_ environment: Environment) -> JSONValue {
        .array(([environment.host] + (environment.openHost.map { [$0] } ?? [])).map { .string($0) })
    }

    /// `baseURL` and `openInAppHost`: the keys a site gets only with its own `callLinks` section.
    private func hostLinks(_ environment: Environment) -> JSONObject {
        var object = JSONObject([JSONMember("baseURL", .string("https://\(environment.host)"))])
        if let open = environment.openHost { object.append("openInAppHost", .string(open)) }
        return object
    }

    /// Both platforms' lists, always written: a site's apps are its own on both (LH125), `[]` says "none".
    /// `staging`: an app without a store ID of its own gets `"installURL": false`, since the page would
    /// otherwise link a store listing that does not exist (its install page goes there once it has one).
    private func apps(_ environment: Environment, name: String, staging: Bool = false) -> JSONObject {
        let ios: [JSONValue] = environment.ios.enumerated().map { offset, bundle in
            var object = JSONObject([JSONMember("name", .string(name)), JSONMember("teamID", .string(teamID)), JSONMember("bundleID", .string(bundle))])
            // The page offers a site's first iOS app: its store ID and clip are that app's.
            if offset == 0, let id = environment.appStoreID { object.append("appStoreID", .string(id)) }
            if offset == 0, let clip = environment.appClip { object.append("appClipBundleID", .string(clip)) }
            if staging, offset != 0 || environment.appStoreID == nil { object.append("installURL", .bool(false)) }
            return .object(object)
        }
        let android: [JSONValue] = environment.android.map { app in
            var object = JSONObject()
            // The page takes the name of an iOS app first; an Android-only site needs one here (LH108).
            if environment.ios.isEmpty { object.append("name", .string(name)) }
            object.append("packageName", .string(app.package))
            object.append("sha256CertFingerprints", .array(app.fingerprints.map { .string($0) }))
            if staging { object.append("installURL", .bool(false)) }
            return .object(object)
        }
        return JSONObject([JSONMember("apps", .array(ios)), JSONMember("android", .array(android))])
    }

    /// A release package given one fingerprint: `validate` warns (LH403) until the Play app-signing key's is
    /// added, which `init` never silences, since a missing Play key is the most common App Links mistake.
    public func singleFingerprint(_ app: AndroidAnswer) -> Bool {
        app.fingerprints.count == 1 && !AssetLinksLinter.isDevelopmentBuild(app.package)
    }
}

/// An answer to `linkhost init` that cannot go into a config.
public struct TeamAnswerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sentence for the user.
    public let description: String

    init(_ description: String) { self.description = description }
}
