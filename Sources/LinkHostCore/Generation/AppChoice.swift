/// The kind of app an app-side file is for: the iOS files name Team.bundle IDs, the Android ones packages.
public enum AppKind: Sendable {
    /// An iOS app, named by its app ID (`TEAMID.bundle.id`) or bundle ID.
    case iOS
    /// An Android app, named by its package.
    case android
    /// An App Clip, named by its app ID (`TEAMID.clip.bundle.id`) or bundle ID: its sites are the ones whose
    /// AASA lists it under `appclips`.
    case appClip

    /// The apps of this kind a site's association file names.
    func apps(of site: SiteConfig) -> [String] {
        switch self {
        case .iOS: return site.appIDs
        case .android: return site.android.map(\.packageName)
        case .appClip: return site.aasa.appclips
        }
    }

    /// Whether `name` (what the user typed) names `app`: an iOS app or App Clip also by its bundle ID alone.
    func names(_ name: String, app: String) -> Bool {
        guard self != .android, name != app else { return name == app }
        return app.split(separator: ".", maxSplits: 1).last.map(String.init) == name
    }
}

extension AppKind {
    /// What the kind is called in a message: "iOS app", "Android app", "App Clip".
    var noun: String {
        switch self {
        case .iOS: return "iOS app"
        case .android: return "Android app"
        case .appClip: return "App Clip"
        }
    }
}

/// Why no one app could be chosen: the message names the apps there are.
public struct AppChoiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sentence for the user.
    public let description: String
}

extension ServedHosts {
    /// Every app of `kind` whose association files these entries serve, in config order, each once; for a
    /// config answering every host, the default site's.
    public func apps(_ kind: AppKind, config: Config) -> [String] {
        let sites = namesNoHost ? [config.defaultSite] : entries.map(\.site)
        return EntitlementsGenerator.unique(sites.flatMap(kind.apps(of:)))
    }

    /// The entries whose association files name `app` and that own it (`owns`), marked as chosen for it:
    /// exactly the hosts the app's own entitlements or manifest must claim.
    public func naming(_ app: String, kind: AppKind) -> ServedHosts {
        ServedHosts(entries: entries.filter { kind.apps(of: $0.site).contains(app) && owns($0.site, app) }, namesNoHost: namesNoHost, app: app, shared: shared)
    }

    /// The entries for the app `--app` names (one of `names`, the first naming an app of `kind`), or all
    /// of them when no name is given and every app of `kind` is served on the same hosts.
    ///
    /// Without a name, apps served on different hosts are an error listing them: guessing one would print
    /// (or check) files with another app's hosts, the very mismatch these files exist to prevent.
    public func chosen(_ names: [String], kind: AppKind, config: Config) throws(AppChoiceError) -> ServedHosts {
        let apps = apps(kind, config: config)
        let listed = apps.map { "'\($0)'" }.joined(separator: ", ")
        let noun = kind.noun
        guard !names.isEmpty else {
            let hostSets = apps.map { app in naming(app, kind: kind).hosts }
            guard hostSets.allSatisfy({ $0 == hostSets.first }) else {
                throw AppChoiceError(description: "the config serves \(apps.count) \(noun)s on different hosts: \(listed); say which with --app")
            }
            return self
        }
        for name in names {
            if let app = apps.first(where: { kind.names(name, app: $0) }) { return naming(app, kind: kind) }
        }
        let given = names.map { "'\($0)'" }.joined(separator: ", ")
        throw AppChoiceError(description: apps.isEmpty
            ? "--app \(given) names no \(noun): the config serves none on these hosts"
            : "--app \(given) names no \(noun) of the config; its \(noun)s are \(listed)")
    }
}
