import LinkHostJSON

/// Builds a site's apple-app-site-association document, deterministically.
public enum AASAGenerator {
    /// Apple's CDN refuses AASA files larger than this.
    public static let maximumSize = 128 * 1024

    /// The document as JSON: same site, same value, members in a fixed order.
    public static func document(for site: SiteConfig) -> JSONValue {
        document(settings: site.aasa, appIDs: site.appIDs)
    }

    /// The document of `settings` for the apps `appIDs` (none: no details).
    static func document(settings: AASASettings, appIDs: [String]) -> JSONValue {
        var applinks = JSONObject()
        if settings.format != .modern {
            // iOS 12 and earlier require an empty "apps" array.
            applinks.append("apps", .array([]))
        }
        var defaults = JSONObject()
        if let flag = settings.defaultCaseSensitive { defaults.append("caseSensitive", .bool(flag)) }
        if let flag = settings.defaultPercentEncoded { defaults.append("percentEncoded", .bool(flag)) }
        if !defaults.members.isEmpty { applinks.append("defaults", .object(defaults)) }
        if !settings.substitutionVariables.isEmpty {
            let variables = settings.substitutionVariables.map { JSONMember($0.name, .array($0.values.map(JSONValue.string))) }
            applinks.append("substitutionVariables", .object(JSONObject(variables)))
        }
        applinks.append("details", .array(details(rules: settings.rules, format: settings.format, appIDs: appIDs)))

        var document = JSONObject()
        document.append("applinks", .object(applinks))
        for (key, appIDs) in [("webcredentials", settings.webcredentials), ("appclips", settings.appclips), ("activitycontinuation", settings.activitycontinuation)] where !appIDs.isEmpty {
            document.append(key, .object(JSONObject([JSONMember("apps", .array(appIDs.map(JSONValue.string)))])))
        }
        return .object(document)
    }

    /// The bytes served at both AASA paths.
    public static func bytes(for site: SiteConfig) -> [UInt8] {
        JSONWriter.bytes(document(for: site), style: .pretty)
    }

    private static func details(rules: [AASARule], format: AASAFormat, appIDs: [String]) -> [JSONValue] {
        switch format {
        case .modern:
            guard !appIDs.isEmpty else { return [] }
            return [.object(JSONObject([
                JSONMember("appIDs", .array(appIDs.map(JSONValue.string))),
                JSONMember("components", .array(rules.map(component))),
            ]))]
        case .legacy:
            return appIDs.map { appID in
                .object(JSONObject([JSONMember("appID", .string(appID)), JSONMember("paths", .array(legacyPaths(rules)))]))
            }
        case .both:
            // iOS 13+ reads appIDs/components and ignores paths; iOS 12 reads appID/paths.
            return appIDs.map { appID in
                .object(JSONObject([
                    JSONMember("appID", .string(appID)),
                    JSONMember("appIDs", .array([.string(appID)])),
                    JSONMember("components", .array(rules.map(component))),
                    JSONMember("paths", .array(legacyPaths(rules))),
                ]))
            }
        }
    }

    /// One rule as an iOS 13+ component dictionary.
    static func component(_ rule: AASARule) -> JSONValue {
        var object = JSONObject()
        // Room for every member at once: a derived AASA has hundreds of components.
        let present = [rule.path != nil, rule.query != nil, rule.fragment != nil, rule.exclude, rule.caseSensitive != nil, rule.percentEncoded != nil, rule.comment != nil]
        object.members.reserveCapacity(present.reduce(0) { $0 + ($1 ? 1 : 0) })
        if let path = rule.path { object.append("/", .string(path)) }
        switch rule.query {
        case .whole(let pattern)?: object.append("?", .string(pattern))
        case .items(let items)?: object.append("?", .object(JSONObject(items.map { JSONMember($0.name, .string($0.pattern)) })))
        case nil: break
        }
        if let fragment = rule.fragment { object.append("#", .string(fragment)) }
        if rule.exclude { object.append("exclude", .bool(true)) }
        if let flag = rule.caseSensitive { object.append("caseSensitive", .bool(flag)) }
        if let flag = rule.percentEncoded { object.append("percentEncoded", .bool(flag)) }
        if let comment = rule.comment { object.append("comment", .string(comment)) }
        return .object(object)
    }

    /// Rules as iOS 9–12 path strings, exclusions written with the `NOT ` prefix.
    /// An exclusion with a query or fragment condition is left out: as a bare path it would exclude every
    /// URL of that path.
    static func legacyPaths(_ rules: [AASARule]) -> [JSONValue] {
        rules.filter { !$0.exclude || ($0.query == nil && $0.fragment == nil) }.map { rule in .string((rule.exclude ? "NOT " : "") + (rule.path ?? "*")) }
    }
}
