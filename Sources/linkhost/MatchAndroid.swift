import LinkHostCore
import LinkHostJSON

/// The Android half of `linkhost match`: the assetlinks.json to decide with, and the words for a decision.
enum MatchAndroid {
    /// The assetlinks.json to decide with, a name for it, and the site it was generated for: from
    /// `--assetlinks`, or generated from the config for the site serving `host`; nil after printing why not.
    static func loadDocument(_ arguments: Arguments, host: String, environment: [String: String]) -> (JSONValue, String, SiteConfig?)? {
        MatchCommand.loadDocument(file: arguments["--assetlinks"], arguments, host: host, environment: environment) { site in
            site.android.isEmpty ? nil : AssetLinksGenerator.document(for: site)
        } missing: { "configures no Android app in \"android\"\($0), so it generates no assetlinks.json" }
    }

    /// The decision for one Android app: the verdict, the deciding rule, and why.
    static func describe(_ result: AndroidMatchResult) -> String {
        let verdict: String
        switch result.decision {
        case .match: verdict = "opens in the app on Android 15+ (where the manifest claims the URL)"
        case .exclude: verdict = "stays in the browser: an exclusion matches"
        case .noMatch: verdict = "stays in the browser: no dynamic rule matches"
        case .manifestOnly: verdict = "no dynamic rules: the app's manifest alone decides"
        case .notListed: verdict = "stays in the browser: assetlinks.json verifies no App Links for the app"
        }
        var text = "\(result.packageName) (Android): \(result.decision.rawValue), \(verdict)\n"
        if let rule = result.rule, let json = result.ruleJSON {
            text += "  rule: dynamic_app_link_components[\(rule)] (rule \(rule + 1)) \(JSONWriter.string(json, style: .compact))\n"
        }
        var reason = Substring(result.reason)
        if let rule = result.rule, reason.hasPrefix("dynamic_app_link_components[\(rule)] ") {
            reason = "the rule " + reason.dropFirst("dynamic_app_link_components[\(rule)] ".count)
        }
        text += "  why:  \(reason)\n"
        return text
    }

    /// Whether the two platforms agree, in words.
    static func agreement(iOS: Bool, android: Bool) -> String {
        switch (iOS, android) {
        case (true, true): return "agree: the URL opens the app on iOS and on Android"
        case (false, false): return "agree: the URL stays in the browser on iOS and on Android"
        case (true, false): return "DISAGREE: the URL opens the app on iOS but not on Android"
        case (false, true): return "DISAGREE: the URL opens the app on Android but not on iOS"
        }
    }
}
