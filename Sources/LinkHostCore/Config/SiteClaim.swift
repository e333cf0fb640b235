/// One thing a site holds alone: a host, its name, or an app identity its own file lists.
///
/// A site file's site claims its hosts, its name (`SiteConfig.label`) and the apps it writes itself (an iOS
/// app ID, an App Clip's, an Android package); apps it inherits from the top level are the operator's and
/// claim nothing. Who holds each claim is decided in `SiteFileClaims`.
public enum SiteClaim: Hashable, Sendable, Comparable {
    /// A host name (lowercased; `*.example.com` as written).
    case host(String)
    /// A site's name: its id, else its first host.
    case name(String)
    /// An iOS app ID or App Clip ID, `TEAMID.bundle.id`.
    case iOSApp(String)
    /// An Android package.
    case androidApp(String)

    /// Every claim of `site`, each with the path inside the site where it was written (`hosts[0]`, `id`, `apps[1]`).
    public static func of(_ site: SiteConfig) -> [(claim: SiteClaim, at: String)] {
        var found: [(claim: SiteClaim, at: String)] = site.hosts.enumerated().map { (.host($1), "hosts[\($0)]") }
        if !site.hosts.isEmpty || site.id != nil { found.append((.name(site.label), site.id == nil ? "hosts[0]" : "id")) }
        if site.sections.apps.hasPrefix(site.path + ".") || site.sections.apps == site.path {
            for (index, app) in site.apps.enumerated() {
                found.append((.iOSApp(app.appID), "apps[\(index)]"))
                if let clip = app.appClipID { found.append((.iOSApp(clip), "apps[\(index)].appClipBundleID")) }
            }
        }
        if site.sections.android.hasPrefix(site.path + ".") || site.sections.android == site.path {
            for (index, app) in site.android.enumerated() { found.append((.androidApp(app.packageName), "android[\(index)]")) }
        }
        return found
    }

    /// The app identity, for an app claim (the key `sharedApps` is written with); nil for hosts and names.
    public var app: String? {
        switch self {
        case .host, .name: return nil
        case .iOSApp(let id), .androidApp(let id): return id
        }
    }

    /// The host, name or app identity itself.
    public var value: String {
        switch self {
        case .host(let value), .name(let value), .iOSApp(let value), .androidApp(let value): return value
        }
    }

    /// "host \"a.example\"", "name \"acme\"", "iOS app ABCDE12345.com.acme", "Android app com.acme": for messages.
    public var shown: String {
        switch self {
        case .host(let host): return "host \"\(host)\""
        case .name(let name): return "name \"\(name)\""
        case .iOSApp(let id): return "iOS app \(id)"
        case .androidApp(let package): return "Android app \(package)"
        }
    }

    /// The word the state record writes it under, and reads back.
    var kind: String {
        switch self {
        case .host: return "host"
        case .name: return "name"
        case .iOSApp: return "ios"
        case .androidApp: return "android"
        }
    }

    /// The claim of `kind` (as `kind` writes it) and `value`; nil for a kind not known.
    init?(kind: String, value: String) {
        switch kind {
        case "host": self = .host(value)
        case "name": self = .name(value)
        case "ios": self = .iOSApp(value)
        case "android": self = .androidApp(value)
        default: return nil
        }
    }
}
