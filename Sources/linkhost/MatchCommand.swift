import CallLinks
import LinkHostCore
import LinkHostServer
import LinkHostJSON

/// `linkhost match`: what iOS (and Android 15+) does with a URL, per app, and the rule that decides it.
enum MatchCommand: Command {
    static let name = "match"
    static let summary = "Say whether a URL opens the app, and which AASA or Android rule decides it."
    static let help = """
    USAGE: linkhost match URL [--platform ios|android|both] [--app APPID] [--package NAME]
                              [--config PATH | --aasa FILE --assetlinks FILE] [--domain HOST]
           linkhost match --jsonl

    Decides, with iOS's universal-link rules, what tapping URL does: open the app
    (match), stay in the browser because an exclusion matched (exclude), or stay in
    the browser because no rule matched (no_match). Prints, per app, the decision and
    the rule that made it: where it sits in the AASA, its JSON, and why it matched.
    With --platform android it decides with Android 15+'s Dynamic App Links rules
    (dynamic_app_link_components of assetlinks.json) as Android's own code (AOSP's
    StatementService, UriRelativeFilterGroup, PatternMatcher, Uri) reads and matches
    them: match, exclude, no_match, manifest_only (no rules Android reads, or an empty
    pattern: the manifest decides) or not_listed (no statement for the app, or a file
    Android cannot read, e.g. with a null or a number in it). With both it shows
    the two decisions one after the other and whether they agree.

    The files are the ones linkhost generates from the config for the site that serves
    the URL's host (as the server chooses it), unless --aasa or --assetlinks names a
    file (e.g. one saved from a live server). With a config, the last line says what
    linkhost itself answers for the URL: which call page, by which link template, or
    none. When the config has sites and none of them lists the URL's host (nor is it
    the default site's callLinks.baseURL host, a name of server.acme.hosts or a
    loopback name), the answer says so first ("not
    served") and what follows is marked as what the default site would serve; the
    exit code is then 3 whatever the decision. With server.strictHosts the server
    answers such a host 404, association files included, and match says so instead,
    asking the snapshot the server would build.

    With a config, "app parser" lines say which printed parser reads the URL, per
    app: CallLinkParser (print swift-parser) for iOS, which opens http and https
    universal links alike, and the Kotlin CallLinks (print kotlin-parser) for Android,
    which hands the app only the schemes the printed manifest declares (an http link
    stays in the browser there). When a platform opens an app with the URL on a host
    the app's files claim but that app's parser reads no call in it, a "dead end:"
    line says so and the exit code is 4. A custom-scheme URL (examplevideo://call/abc)
    is answered by the apps that declare the scheme and the call their parsers read:
    exit 0 when one reads a call, 1 when none does.

    OPTIONS:
      --platform P      ios (default), android, or both.
      --app APPID       Only this iOS app (TEAMID.bundle.id); default: every app the AASA lists.
                        An App Clip of the config (apps[].appClipBundleID): whether iOS
                        invokes it for the URL, whether the page shows its card, and which
                        App Clip experience URL prefix decides (exit 0 when both apply).
      --package NAME    Only this Android app; default: every app the assetlinks.json lists.
      --config PATH     Config to generate the files from (default: $LINKHOST_CONFIG or
                        config/linkhost.json).
      --aasa FILE       An apple-app-site-association file to read instead of a config.
      --assetlinks FILE An assetlinks.json file to read instead of a config, e.g. the
                        one a server serves; read as Android reads it.
      --domain HOST     The domain the files are served for (default: the URL's host); a URL
                        on another host never opens the app.
      --jsonl           Answer the shared conformance line protocol: one JSON case per line
                        on standard input, one JSON answer per line on standard output.
      -h, --help        Show this help.

    ANDROID: dynamic rules only narrow what the app's AndroidManifest.xml claims; the
    decision assumes the manifest claims the URL (check it with validate
    --android-manifest). Devices before Android 15 ignore dynamic rules.

    JSONL:
      in   {"id":0,"aasa":{...},"domain":"example.com","appId":"ABCDE12345.com.example.app","url":"https://example.com/x"}
      out  {"id":0,"decision":"match"}   (decision: match, exclude or no_match)
      A line that cannot be decided is answered {"id":0,"error":"..."}; "explain":true
      in a case adds an "explanation".

    EXIT CODES: 0 the URL opens the app (with several apps: at least one of them; with
    both: on both platforms), 1 it does not, 2 usage, config or file error, 3 no site
    of the config lists the URL's host (with server.strictHosts: the server's 404),
    4 a dead end: the platform opens an app with the URL but the app's printed parser
    reads no call in it (a "dead end:" line names the app; with --app CLIP, the clip
    would be launched with a URL its CallLinkParser rejects).
    """

    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32 {
        let arguments = try Arguments(words, command: name, options: ["--app", "--package", "--config", "--aasa", "--assetlinks", "--domain", "--platform"], flags: ["--jsonl"])
        if arguments.has("--help") { StandardStreams.output(help + "\n"); return 0 }
        if arguments.has("--jsonl") {
            guard arguments.positional.isEmpty, arguments.values.isEmpty else {
                throw UsageError(message: "--jsonl reads its cases from standard input; give no URL or other option", command: name)
            }
            answerLines()
            return 0
        }
        guard arguments.positional.count == 1, let url = arguments.positional.first else {
            throw UsageError(message: arguments.positional.isEmpty ? "give the URL to decide" : "give one URL, not \(arguments.positional.count)", command: name)
        }
        let platform = arguments["--platform"] ?? "ios"
        guard ["ios", "android", "both"].contains(platform) else {
            throw UsageError(message: "--platform takes ios, android or both, not '\(platform)'", command: name)
        }
        if arguments["--config"] != nil && (arguments["--aasa"] != nil || arguments["--assetlinks"] != nil) {
            throw UsageError(message: "give --config or the files (--aasa, --assetlinks), not both", command: name)
        }
        if let scheme = MatchParsers.customScheme(of: url), arguments["--aasa"] == nil, arguments["--assetlinks"] == nil {
            // No association file decides a custom scheme: the apps that declare it and their parsers do.
            let path = configPath(arguments, environment: environment)
            guard let config = loadedConfig(path, environment: environment) else { return 2 }
            let answer = MatchParsers.customSchemeAnswer(url, scheme: scheme, config: config, path: path, platforms: .init(platform),
                                                         app: arguments["--app"], package: arguments["--package"])
            StandardStreams.output(answer.text)
            return answer.exitCode
        }
        let split: SplitURL
        do {
            split = try SplitURL(url)
        } catch {
            throw UsageError(message: error.message, command: name)
        }
        if let clipAnswer = MatchAppClip.answer(url, split: split, arguments: arguments, environment: environment) { return clipAnswer }
        let authority = split.host + (split.port.map { ":\($0)" } ?? "")
        let domain = arguments["--domain"] ?? authority
        var text = "\(url)\n"
        let usesConfig = (platform != "android" && arguments["--aasa"] == nil) || (platform != "ios" && arguments["--assetlinks"] == nil)
        let path = configPath(arguments, environment: environment)
        let config = usesConfig ? try? ConfigLoader.load(path: path, environment: environment) : nil
        let server = config.map { MatchHost(config: $0, path: path) }
        if let strict = server?.strictHostAnswer(url, authority: authority, urlPath: split.path) {
            StandardStreams.output(TerminalText.safe(strict))
            return MatchHost.unservedExitCode
        }
        let unserved = server?.unservedNote(authority)
        text += unserved ?? ""
        var opens: [Bool] = []
        var opened: (iOS: [String], android: [String]) = ([], [])
        var site: SiteConfig?
        if platform != "android" {
            guard let (document, source, loaded) = loadDocument(arguments, host: authority, environment: environment) else { return 2 }
            let apps = arguments["--app"].map { [$0] } ?? AASAAppIDs.applinks(document)
            guard !apps.isEmpty else {
                StandardStreams.error("linkhost match: \(source) lists no app in applinks.details, so no URL opens an app\n")
                return 1
            }
            let matcher = AASAMatcher(document: document)
            text += "  on \(domain), by the AASA \(source)\n"
            let results = apps.map { matcher.match(url: url, appID: $0, domain: domain) }
            text += results.map(describe).joined()
            opened.iOS = results.filter { $0.decision == .match }.map(\.appID)
            opens.append(!opened.iOS.isEmpty)
            site = loaded
        }
        if platform != "ios" {
            guard let (document, source, loaded) = MatchAndroid.loadDocument(arguments, host: authority, environment: environment) else { return 2 }
            let matcher = AndroidLinkMatcher(document: document)
            let packages = arguments["--package"].map { [$0] } ?? (matcher.unreadableReason == nil ? matcher.packageNames : matcher.writtenPackageNames)
            guard !packages.isEmpty else {
                StandardStreams.error("linkhost match: \(source) grants App Links to no Android app, so no URL opens one\n")
                return 1
            }
            text += "  on \(domain), by the assetlinks.json \(source)\n"
            if let refusal = MatchParsers.androidSchemeRefusal(split.scheme) {
                text += packages.map { "\($0) (Android): no_match, stays in the browser\n  why:  \(refusal)\n" }.joined()
                opens.append(false)
            } else {
                let results = packages.map { matcher.match(url: url, packageName: $0, domain: domain) }
                text += results.map(MatchAndroid.describe).joined()
                opened.android = results.filter(\.opensApp).map(\.packageName)
                opens.append(!opened.android.isEmpty)
            }
            site = site ?? loaded
        }
        if platform == "both" { text += "  platforms: \(MatchAndroid.agreement(iOS: opens[0], android: opens[1]))\n" }
        var deadEnds: [String] = []
        if let site, let config {
            let readings = MatchParsers.webReadings(url, host: authority, site: site, config: config, platforms: .init(platform), app: arguments["--app"], package: arguments["--package"])
            text += (readings.iOS + readings.android).map(\.text).joined()
            deadEnds = MatchParsers.deadEnds(readings.iOS, opened: opened.iOS, platform: "iOS", parser: "CallLinkParser")
                + MatchParsers.deadEnds(readings.android, opened: opened.android, platform: "Android", parser: "Kotlin CallLinks")
            text += deadEnds.joined()
        }
        if let site, let server { text += "  linkhost: \(server.servedLine(split, authority: authority, site: site))\n" }
        // The URL and the documents' app IDs and paths may come from anywhere: no control character reaches the terminal.
        StandardStreams.output(TerminalText.safe(text))
        if unserved != nil { return MatchHost.unservedExitCode }
        if !deadEnds.isEmpty { return MatchParsers.deadEndExitCode }
        return opens.allSatisfy { $0 } ? 0 : 1
    }

    /// The decision for one app in three parts: the verdict, the deciding rule, and the matcher's explanation.
    static func describe(_ result: MatchResult) -> String {
        let verdict: String
        switch result.decision {
        case .match: verdict = "opens in the app"
        case .exclude: verdict = "stays in the browser: an exclusion matches"
        case .noMatch:
            if case .noRuleMatched? = result.reason {
                verdict = "stays in the browser: no rule matches"
            } else {
                verdict = "stays in the browser"
            }
        }
        var text = "\(result.appID): \(result.decision.rawValue), \(verdict)\n"
        if let rule = result.rule {
            text += "  rule: \(rule.label) (\(rule.source == .components ? "component" : "path") \(rule.index + 1) of \(rule.detailLabel)) \(JSONWriter.string(rule.json, style: .compact))\n"
        }
        text += "  why:  \(reason(result))\n"
        return text
    }

    /// The matcher's explanation without what the lines above already say (the decision, the rule and its JSON).
    private static func reason(_ result: MatchResult) -> String {
        var explanation = Substring(result.explain())
        var prefix = "\(result.decision.rawValue): "
        if let rule = result.rule { prefix += "\(rule.label) \(JSONWriter.string(rule.json, style: .compact)) " }
        if explanation.hasPrefix(prefix) { explanation = explanation.dropFirst(prefix.count) }
        return explanation.hasPrefix("matches: ") ? "the rule " + explanation : String(explanation)
    }

    /// What the server answers for the URL's path and query on `site`: decided by the site's link templates,
    /// with the same matching code the server runs.
    static func servedAs(_ url: SplitURL, on site: SiteConfig) -> String {
        let links = site.callLinks.links
        let query = QueryItems.firstValues(url.query ?? "")
        guard let (link, index) = links.match(path: url.path.utf8, query: { query[$0] }) else {
            return "not a call link of this site (\(links.templates.map { "\"\($0.text)\"" }.joined(separator: ", ")))"
        }
        let source = site.linkSource(index)
        return "the call page of call \"\(link.callID)\", type \"\(link.callType)\" (template \(source) \"\(links.templates[index].text)\"; canonical \(links.canonicalPath(for: link)))"
    }

    /// The AASA to decide with, a name for it, and the site it was generated for: from the config (the site
    /// serving `host`), or read from `--aasa`; nil after printing why not.
    private static func loadDocument(_ arguments: Arguments, host: String, environment: [String: String]) -> (JSONValue, String, SiteConfig?)? {
        loadDocument(file: arguments["--aasa"], arguments, host: host, environment: environment) { site in
            site.apps.isEmpty ? nil : AASAGenerator.document(for: site)
        } missing: { "configures no iOS app in \"apps\"\($0), so it generates no AASA" }
    }

    /// A document to decide with, a name for it, and the site it was generated for: read from `file`, or
    /// generated from the config for the site serving `host` (`generate` gives nil when that site has no
    /// app of the kind, and `missing` says so after the config path); nil after printing why not.
    static func loadDocument(
        file: String?, _ arguments: Arguments, host: String, environment: [String: String],
        generate: (SiteConfig) -> JSONValue?, missing: (String) -> String
    ) -> (JSONValue, String, SiteConfig?)? {
        if let file {
            switch DocumentFile.json(at: file, fromCommandLine: true) {
            case .success(let document): return (document, file, nil)
            case .failure(let failure):
                StandardStreams.error(TerminalText.safe("linkhost match: \(failure.message)\n"))
                return nil
            }
        }
        let path = configPath(arguments, environment: environment)
        do {
            let config = try ConfigLoader.load(path: path, environment: environment)
            let site = config.site(forHost: host)
            let name = siteName(site, in: config)
            guard let document = generate(site) else {
                StandardStreams.error("linkhost match: \(path) \(missing(name))\n")
                return nil
            }
            return (document, "generated from \(path)\(name)", site)
        } catch {
            StandardStreams.error("\(error)\n")
            return nil
        }
    }

    /// " for the site links.example.com (sites[0])", or " for the default site" when there are several.
    static func siteName(_ site: SiteConfig, in config: Config) -> String {
        site.hosts.isEmpty ? (config.sites.count > 1 ? " for the default site" : "") : " for the site \(site.label) (\(site.path))"
    }

    /// The line protocol: every non-blank input line gets one answer line, written at once.
    private static func answerLines() {
        while let line = readLine(strippingNewline: true) {
            let trimmed = line.hasSuffix("\r") ? String(line.dropLast()) : line
            guard trimmed.contains(where: { $0 != " " && $0 != "\t" }) else { continue }
            // StandardStreams writes straight to the descriptor, so each answer leaves before the next line is read.
            StandardStreams.output(TerminalText.safe(MatchLineProtocol.respond(toLine: trimmed), style: .json, keepingLineFeeds: false) + "\n")
        }
    }
}
