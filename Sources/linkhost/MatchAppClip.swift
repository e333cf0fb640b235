import CallLinks
import LinkHostCore
import LinkHostServer
import LinkHostJSON

/// The App Clip half of `linkhost match`: with `--app` naming an App Clip of the config, whether iOS
/// invokes the clip for the URL, whether the call page shows its card, and which App Clip experience decides.
///
/// The clip is invoked for a URL when the AASA of its host lists the clip under `appclips.apps` and the
/// clip's entitlements can name the host (`appclips:` takes exact hosts only); it then receives the URL as
/// its invocation URL and reads it with `CallLinkParser`, so only the site's call links get it anywhere.
/// Safari shows the card on a page whose Smart App Banner names the clip with `app-clip-display=card`
/// (Supporting invocations from your website and the Messages app,
/// https://developer.apple.com/documentation/appclip/supporting-invocations-from-your-website-and-the-messages-app).
enum MatchAppClip {
    /// Answers `match URL --app CLIP` and returns the exit code, or nil when `--app` names no App Clip of the
    /// config (or files, not a config, are given): then `match` reads `--app` as an iOS app.
    static func answer(_ url: String, split: SplitURL, arguments: Arguments, environment: [String: String]) -> Int32? {
        guard let name = arguments["--app"], arguments["--aasa"] == nil, arguments["--assetlinks"] == nil,
              (arguments["--platform"] ?? "ios") == "ios" else { return nil }
        let path = configPath(arguments, environment: environment)
        guard let config = try? ConfigLoader.load(path: path, environment: environment),
              ServedHosts.iOSKind(naming: [name], config: config) == .appClip,
              let served = try? ServedHosts(config: config).chosen([name], kind: .appClip, config: config),
              let clip = served.app
        else { return nil }
        let authority = split.host + (split.port.map { ":\($0)" } ?? "")
        let server = MatchHost(config: config, path: path)
        if let strict = server.strictHostAnswer(url, authority: authority, urlPath: split.path) {
            StandardStreams.output(TerminalText.safe(strict))
            return MatchHost.unservedExitCode
        }
        let unserved = server.unservedNote(authority)
        let site = config.site(forHost: authority)
        let listed = appClips(site.apps.isEmpty ? nil : AASAGenerator.document(for: site)).contains(clip)
        let exact = AppClipEntitlements.entries(for: served).contains("appclips:\(split.host)")
        let query = QueryItems.firstValues(split.query ?? "")
        let link = site.callLinks.links.match(path: split.path.utf8, query: { query[$0] })?.link

        var text = "\(url)\n" + (unserved ?? "")
        text += "  App Clip \(clip) on \(split.host), by the AASA generated from \(path)\(MatchCommand.siteName(site, in: config))\n"
        let invoked = listed && exact && link != nil
        // Verified for the host, the clip is launched for any URL an App Clip experience covers (linkhost
        // proposes one per host, https://HOST/), call link or not; only its parser tells a call from the rest.
        let deadEnd = listed && exact && link == nil
        let invocation: String
        if !listed {
            invocation = "no: the AASA on this host does not list the clip under appclips.apps (the clip's hosts: \(served.hosts.joined(separator: ", ")))"
        } else if !exact {
            invocation = "no: \(split.host) is served only through a wildcard host, and appclips: takes exact hosts, so iOS cannot verify the clip here; add the host to the site's hosts"
        } else if let link {
            invocation = "yes: the AASA lists the clip under appclips.apps and its entitlements name appclips:\(split.host); iOS launches it with this URL (an NSUserActivityTypeBrowsingWeb activity) and its CallLinkParser reads call \"\(link.callID)\", type \"\(link.callType)\""
        } else {
            invocation = "a dead end: the AASA lists the clip, so iOS launches it for this URL where an App Clip experience covers it (a QR code or NFC tag), but this is not a call link of the site: its CallLinkParser reads no call, so the clip is handed a link it cannot join"
        }
        text += "  invocation: \(invocation)\n"
        let bannerClip = site.apps.first?.appClipID
        let card = invoked && bannerClip == clip
        if deadEnd {
            text += "  card: no: linkhost serves no call page here, so no page carries the clip's banner\n"
        } else if !invoked {
            text += "  card: no: the clip is not invoked for this URL\n"
        } else if !card {
            text += "  card: no: the call page's Smart App Banner names \(bannerClip.map { "the App Clip \($0)" } ?? "no App Clip") (the banner shows the site's first app and its clip)\n"
        } else {
            text += "  card: yes: the call page's Smart App Banner carries app-clip-bundle-id=\(site.apps.first?.appClipBundleID ?? ""), app-clip-display=card; Safari and SFSafariViewController on iOS 15+ show the card over the page when the app is not installed (with it, iOS opens the app); other browsers keep the page's buttons\n"
        }
        text += "  experience: \(experienceLine(split, served: served))\n"
        text += "  linkhost: \(server.servedLine(split, authority: authority, site: site))\n"
        StandardStreams.output(TerminalText.safe(text))
        if unserved != nil { return MatchHost.unservedExitCode }
        if deadEnd { return MatchParsers.deadEndExitCode }
        return card ? 0 : 1
    }

    /// Which App Clip experience's URL prefix decides the invocation, and what App Store Connect needs when
    /// the config names several hosts for the clip.
    private static func experienceLine(_ split: SplitURL, served: ServedHosts) -> String {
        let experiences = AppClipExperiences(served: served)
        let invocationURL = "https://\(split.host)\(split.path.isEmpty ? "/" : split.path)"
        var line: String
        if let deciding = experiences.deciding(invocationURL) {
            line = "\(deciding.prefix) decides (the \(deciding.isDefault ? "default App Clip experience" : "advanced App Clip experience for this host"))"
        } else {
            line = "none: no experience of the clip's hosts covers \(split.host)"
        }
        if experiences.experiences.count > 1 {
            let advanced = experiences.experiences.filter { !$0.isDefault }.map(\.prefix).joined(separator: ", ")
            line += "; the config names \(experiences.experiences.count) hosts for the clip, so App Store Connect needs the default experience on \(experiences.experiences[0].prefix) and an advanced experience for \(advanced): iOS chooses the experience with the most specific matching URL prefix"
        }
        return line
    }

    /// The IDs under `appclips.apps` of an AASA document.
    private static func appClips(_ document: JSONValue?) -> [String] {
        document?.objectValue?["appclips"]?.objectValue?["apps"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}
