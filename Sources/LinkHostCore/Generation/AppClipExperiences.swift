/// The App Clip experiences App Store Connect needs for a clip's hosts, and which one an invocation URL gets.
///
/// One default App Clip experience covers the website associated with the clip; "an additional website
/// that uses a different subdomain or domain" needs an advanced experience, and on invocation "the system
/// chooses the App Clip experience with the URL that has the most specific matching prefix" (Configuring
/// App Clip experiences,
/// https://developer.apple.com/documentation/appclip/configuring-the-launch-experience-of-your-app-clip).
/// linkhost proposes one experience per exact host, `https://<host>/`, the first host's as the default: every
/// call link of the host then falls under its host's prefix, whatever its shape.
public struct AppClipExperiences: Sendable, Equatable {
    /// One experience: its URL prefix and whether it is the default one.
    public struct Experience: Sendable, Equatable {
        /// `https://<host>/`.
        public let prefix: String
        /// True for the default App Clip experience (the first host), false for an advanced one.
        public let isDefault: Bool
    }

    /// The experiences, the default first, in host order.
    public let experiences: [Experience]

    /// The experiences for the clip `served` was chosen for: one per exact host (wildcards get no
    /// `appclips:` entry, so no experience of theirs could verify).
    public init(served: ServedHosts) {
        let hosts = AppClipEntitlements.entries(for: served).map { String($0.dropFirst("appclips:".count)) }
        experiences = hosts.enumerated().map { Experience(prefix: "https://\($0.element)/", isDefault: $0.offset == 0) }
    }

    /// The experience whose prefix is the longest one `url` starts with (Apple's URL prefix matching), or nil.
    /// Scheme and host compare without case, as URLs do.
    public func deciding(_ url: String) -> Experience? {
        let lowered = Self.loweredOrigin(url)
        return experiences.filter { lowered.hasPrefix($0.prefix) }.max { $0.prefix.utf8.count < $1.prefix.utf8.count }
    }

    /// `url` with its scheme and host lowercased and its port dropped, the path as it is.
    private static func loweredOrigin(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let afterScheme = url[schemeEnd.upperBound...]
        let pathStart = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? afterScheme.endIndex
        var authority = afterScheme[..<pathStart].lowercased()
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") { authority = String(authority[..<colon]) }
        let rest = afterScheme[pathStart...]
        return url[..<schemeEnd.lowerBound].lowercased() + "://" + authority + (rest.hasPrefix("/") ? String(rest) : "/" + rest)
    }
}

extension ServedHosts {
    /// The kind of app `--app` names for the iOS app files (entitlements, parser): `.appClip` when the names
    /// name an App Clip one of the config's AASAs lists and no iOS app, else `.iOS`.
    public static func iOSKind(naming names: [String], config: Config) -> AppKind {
        guard !names.isEmpty else { return .iOS }
        let all = ServedHosts(config: config)
        let apps = all.apps(.iOS, config: config)
        let clips = all.apps(.appClip, config: config)
        if names.contains(where: { name in apps.contains { AppKind.iOS.names(name, app: $0) } }) { return .iOS }
        return names.contains(where: { name in clips.contains { AppKind.appClip.names(name, app: $0) } }) ? .appClip : .iOS
    }
}
