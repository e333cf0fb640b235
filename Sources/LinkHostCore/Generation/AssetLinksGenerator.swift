import LinkHostJSON

/// Builds `/.well-known/assetlinks.json` (Digital Asset Links) for a site's Android apps.
public enum AssetLinksGenerator {
    /// The relation that lets an Android app open this domain's links.
    public static let relation = "delegate_permission/common.handle_all_urls"

    /// The statement list: one statement per app, fingerprints as configured (already uppercase), and for
    /// every app with `dynamicRules` on, the site's AASA rules as Android 15+ dynamic rules.
    public static func document(for site: SiteConfig) -> JSONValue {
        document(for: site, rules: site.android.contains(where: \.dynamicRules) ? DynamicRuleTranslation.translate(site.aasa) : nil)
    }

    /// The statement list with `rules` (`dynamicRules(for:)` of the site, translated once by a caller that
    /// has them) for the apps with `dynamicRules` on.
    static func document(for site: SiteConfig, rules ruleSet: DynamicRuleSet?) -> JSONValue {
        document(apps: site.android, rules: ruleSet)
    }

    /// The statement list of `apps`, with `rules` for the apps with `dynamicRules` on.
    static func document(apps: [AndroidApp], rules ruleSet: DynamicRuleSet?) -> JSONValue {
        let rules = apps.contains(where: \.dynamicRules) ? ruleSet?.json : nil
        return .array(apps.map { app in
            var statement = JSONObject([
                JSONMember("relation", .array([.string(relation)])),
                JSONMember("target", .object(JSONObject([
                    JSONMember("namespace", .string("android_app")),
                    JSONMember("package_name", .string(app.packageName)),
                    JSONMember("sha256_cert_fingerprints", .array(app.sha256CertFingerprints.map(JSONValue.string))),
                ]))),
            ])
            if app.dynamicRules, let rules {
                // One dynamic_app_link_components per site, relation and app, as Google asks.
                statement.append("relation_extensions", .object(JSONObject([
                    JSONMember(relation, .object(JSONObject([JSONMember("dynamic_app_link_components", rules)]))),
                ])))
            }
            return .object(statement)
        })
    }

    /// The dynamic rules a site's apps get, with where Android will decide differently from iOS.
    public static func dynamicRules(for site: SiteConfig) -> DynamicRuleSet {
        DynamicRuleTranslation.translate(site.aasa)
    }

    /// The bytes served at `/.well-known/assetlinks.json`.
    public static func bytes(for site: SiteConfig) -> [UInt8] {
        JSONWriter.bytes(document(for: site), style: .pretty)
    }
}
