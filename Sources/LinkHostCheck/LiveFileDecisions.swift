import LinkHostCore
import LinkHostJSON

/// What the live association files decide for the config's apps, with the platforms' own matchers (Apple's
/// on the AASA, AOSP's on the dynamic rules) on one call link of each template: a file that drops an app or
/// clip, or keeps a call link out of an app, is an error whatever its bytes, since guests stay in the
/// browser (LH513–LH516).
extension HostExpectations {
    /// One problem a live file causes for the config's apps.
    package struct Finding: Sendable, Equatable {
        /// LH513–LH516.
        package let code: LintCode
        /// What the file does to which app, and what a guest sees.
        package let message: String
    }

    /// How many call links one finding names before "and N more".
    static let namedURLs = 3

    /// LH513 for each iOS app the live AASA does not open some call link in, LH516 for each App Clip of the
    /// config it does not list under `appclips` (iOS then offers no App Clip card for the link).
    package func iosFindings(aasa document: JSONValue, domain: String) -> [Finding] {
        var found: [Finding] = []
        let matcher = AASAMatcher(document: document)
        for app in iosApps {
            let refused = callLinkURLs.compactMap { url -> (url: String, why: String)? in
                let result = matcher.match(url: url, appID: app, domain: domain)
                guard result.decision != .match else { return nil }
                let rule = result.rule.map { " by \($0.label) \(JSONWriter.string($0.json, style: .compact))" } ?? ""
                return (url, result.decision.rawValue + rule)
            }
            guard !refused.isEmpty else { continue }
            found.append(Finding(code: .lh513, message: "does not open \(app) of \(siteName) for its call link\(refused.count == 1 ? "" : "s") \(Self.named(refused)): iOS shows the page instead of the app"))
        }
        let listed = Set((document.objectValue?["appclips"]?.objectValue?["apps"]?.arrayValue ?? []).compactMap(\.stringValue))
        for clip in appClips where !listed.contains(clip) {
            found.append(Finding(code: .lh516, message: "does not list the App Clip \(clip) of \(siteName) under appclips.apps: iOS offers no App Clip card for its call links, so a guest without the app gets only the page"))
        }
        return found
    }

    /// LH514 for each Android app the live assetlinks.json does not verify with every fingerprint, LH515 for
    /// each app whose live dynamic rules keep a call link in the browser on Android 15+ (an app whose file
    /// has no rules is decided by its manifest, which `validate --android-manifest` checks).
    package func androidFindings(assetLinks document: JSONValue, domain: String) -> [Finding] {
        let unverifiedApps = unverifiedAndroidApps(in: document)
        var found = unverifiedApps.map { app, missing in
            Finding(code: .lh514, message: "does not verify \(app.packageName) of \(siteName): \(missing)")
        }
        let unverified = Set(unverifiedApps.map(\.app.packageName))
        let matcher = AndroidLinkMatcher(document: document)
        for app in androidApps where !unverified.contains(app.packageName) {
            let refused = callLinkURLs.compactMap { url -> (url: String, why: String)? in
                let result = matcher.match(url: url, packageName: app.packageName, domain: domain)
                switch result.decision {
                case .match, .manifestOnly, .notListed: return nil
                case .exclude, .noMatch:
                    guard let index = result.rule, let json = result.ruleJSON else { return (url, result.decision.rawValue + ": no rule matches") }
                    return (url, result.decision.rawValue + " by dynamic_app_link_components[\(index)] \(JSONWriter.string(json, style: .compact))")
                }
            }
            guard !refused.isEmpty else { continue }
            found.append(Finding(code: .lh515, message: "has dynamic rules that keep \(app.packageName) of \(siteName) from its call link\(refused.count == 1 ? "" : "s") \(Self.named(refused)): Android 15+ shows the page instead of the app"))
        }
        return found
    }

    /// `"https://h/a" (exclude by …), "https://h/b" (no_match) and 2 more`.
    private static func named(_ refused: [(url: String, why: String)]) -> String {
        var text = refused.prefix(namedURLs).map { "\($0.url) (\($0.why))" }.joined(separator: ", ")
        if refused.count > namedURLs { text += " and \(refused.count - namedURLs) more" }
        return text
    }
}
