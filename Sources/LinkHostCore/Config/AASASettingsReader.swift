import LinkHostJSON

/// An `aasa` section as written, before it is completed for the site it serves: rules may still have to
/// be derived from that site's link templates, and `true` app lists name that site's apps.
struct AASADraft: Sendable {
    /// The settings read; `rules` holds the configured rules when `rulesGiven`.
    var settings = AASASettings()
    /// Whether the section lists rules of its own.
    var rulesGiven = false
    /// Where the section is, e.g. `aasa` or `sites[1].aasa`.
    var path = "aasa"
    /// `webcredentials: true`: every app of the site.
    var webcredentialsAll = false
    /// `activitycontinuation: true`: every app of the site.
    var activitycontinuationAll = false

    /// The settings for one site, with its apps and link templates (whose section is at `callLinksPath`).
    /// `appClipIDs` are the App Clips its apps name (`apps[].appClipBundleID`): listed first under
    /// `appclips`, then the section's hand-written `appclips` that are not among them. `derived`: settings this
    /// draft resolved for the same link templates and path, whose derived rules are taken as they are.
    func resolved(appIDs: [String], appClipIDs: [String] = [], callLinks: CallLinkSettings, callLinksPath: String,
                  derived shared: AASASettings? = nil) -> AASASettings {
        var resolved = settings
        resolved.appclips = appClipIDs + settings.appclips.filter { !appClipIDs.contains($0) }
        if webcredentialsAll { resolved.webcredentials = appIDs }
        if activitycontinuationAll { resolved.activitycontinuation = appIDs }
        if rulesGiven {
            resolved.rulesDerived = false
            resolved.ruleSources = settings.rules.indices.map { "\(path).rules[\($0)]" }
        } else if let shared, shared.rulesDerived {
            (resolved.rules, resolved.ruleSources, resolved.derivedAndroid) = (shared.rules, shared.ruleSources, shared.derivedAndroid)
            resolved.rulesDerived = true
        } else {
            let derived = DerivedAASARules.rules(for: callLinks)
            // Derived rules mean what they say only as written: bytes compared, case kept, whatever the defaults.
            resolved.rules = derived.map { entry in
                var rule = entry.rule
                if settings.defaultCaseSensitive == false { rule.caseSensitive = true }
                if settings.defaultPercentEncoded == false { rule.percentEncoded = true }
                return rule
            }
            // One string per template, shared by its rules (a site of ten templates has hundreds of rules).
            let templateSources = callLinks.linkSources.map { ConfigReader.join(callLinksPath, $0) }
            resolved.ruleSources = derived.map { templateSources[$0.template] }
            resolved.rulesDerived = true
            var firstOfTemplate: [Int: Int] = [:]
            for (index, entry) in derived.enumerated() where firstOfTemplate[entry.template] == nil { firstOfTemplate[entry.template] = index }
            resolved.derivedAndroid = DerivedAndroidRules(links: callLinks, firstAASARule: firstOfTemplate)
        }
        return resolved
    }
}

/// Reads an `aasa` section: format, ordered rules, defaults, variables and the extra sections.
enum AASASettingsReader {
    static func read(_ value: JSONValue?, at path: String, reader: inout ConfigReader) -> AASADraft {
        var draft = AASADraft()
        draft.path = path
        guard let value, let object = reader.object(value, at: path, allowed: ConfigKeys.members(of: "aasa")) else { return draft }
        if let format = reader.string(object, "format", at: path, expected: "\"modern\", \"legacy\" or \"both\"", rule: { AASAFormat(rawValue: $0) == nil ? "is not a format; expected \"modern\", \"legacy\" or \"both\"" : nil }) {
            draft.settings.format = AASAFormat(rawValue: format) ?? .modern
        }
        let format = draft.settings.format
        if let list = reader.array(object, "rules", at: path, expected: "an array of rules") {
            draft.settings.rules = list.compactMap { readRule($0.value, at: $0.path, format: format, reader: &reader) }
            draft.rulesGiven = true
            if list.isEmpty { reader.warning(.lh208, ConfigReader.join(path, "rules"), "is empty: no link on this domain will open the app") }
        }
        if let defaults = object["defaults"] {
            let defaultsPath = ConfigReader.join(path, "defaults")
            if let defaultsObject = reader.object(defaults, at: defaultsPath, allowed: ConfigKeys.members(of: "aasa.defaults"), unknownKey: .lh111, wrongType: .lh111) {
                draft.settings.defaultCaseSensitive = reader.boolean(defaultsObject, "caseSensitive", at: defaultsPath, code: .lh111)
                draft.settings.defaultPercentEncoded = reader.boolean(defaultsObject, "percentEncoded", at: defaultsPath, code: .lh111)
                if format == .legacy, !defaultsObject.members.isEmpty {
                    reader.error(.lh112, defaultsPath, "cannot be expressed in the legacy format; use \"format\": \"modern\"")
                }
            }
        }
        if let variables = object["substitutionVariables"] {
            draft.settings.substitutionVariables = readVariables(variables, at: ConfigReader.join(path, "substitutionVariables"), format: format, reader: &reader)
        }
        (draft.settings.webcredentials, draft.webcredentialsAll) = readAppList(object, "webcredentials", at: path, allowsAll: true, reader: &reader)
        (draft.settings.activitycontinuation, draft.activitycontinuationAll) = readAppList(object, "activitycontinuation", at: path, allowsAll: true, reader: &reader)
        draft.settings.appclips = readAppList(object, "appclips", at: path, allowsAll: false, reader: &reader).ids
        draft.settings.cacheMaxAge = reader.integer(object, "cacheMaxAge", at: path, in: 0...31_536_000) ?? draft.settings.cacheMaxAge
        return draft
    }

    private static func readRule(_ value: JSONValue, at path: String, format: AASAFormat, reader: inout ConfigReader) -> AASARule? {
        guard let object = reader.object(value, at: path, allowed: ConfigKeys.members(of: "aasa.rules[]")) else { return nil }
        var rule = AASARule()
        rule.path = reader.string(object, "path", at: path, expected: "a path pattern such as \"/call/*\"", code: .lh209, rule: patternRule)
        rule.fragment = reader.string(object, "fragment", at: path, expected: "a fragment pattern", code: .lh209, rule: patternRule)
        rule.exclude = reader.boolean(object, "exclude", at: path) ?? false
        rule.caseSensitive = reader.boolean(object, "caseSensitive", at: path)
        rule.percentEncoded = reader.boolean(object, "percentEncoded", at: path)
        rule.comment = reader.string(object, "comment", at: path, expected: "a note for people")
        if let query = object["query"] {
            rule.query = readQuery(query, at: ConfigReader.join(path, "query"), reader: &reader)
        }
        if format != .modern {
            for key in ["query", "fragment", "caseSensitive", "percentEncoded"] where object[key] != nil {
                reader.error(.lh112, ConfigReader.join(path, key), "cannot be expressed in the \(format.rawValue) format, whose paths match the path only; use \"format\": \"modern\"")
            }
        }
        if format != .modern, rule.path == nil {
            reader.error(.lh112, path, "has no \"path\"; the \(format.rawValue) format needs one for every rule")
        }
        return rule
    }

    private static func patternRule(_ pattern: String) -> String? {
        if pattern.isEmpty { return "is empty; use \"*\" to match anything" }
        if pattern.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "contains control characters" }
        return nil
    }

    private static func readQuery(_ value: JSONValue, at path: String, reader: inout ConfigReader) -> AASARule.Query? {
        switch value {
        case .string(let pattern):
            if let problem = patternRule(pattern) { reader.error(.lh209, path, "\(ConfigReader.show(value)) \(problem)"); return nil }
            return .whole(pattern)
        case .object(let object):
            var items: [(name: String, pattern: String)] = []
            for member in object.members {
                let memberPath = ConfigReader.join(path, member.key)
                guard case .string(let pattern) = member.value else {
                    // iOS ignores the whole dictionary when one value is not a string; refuse it here instead.
                    reader.typeMismatch(member.value, at: memberPath, expected: "a pattern string (iOS ignores the whole query dictionary otherwise)")
                    continue
                }
                if member.key.isEmpty { reader.error(.lh209, memberPath, "query item name is empty") }
                items.append((member.key, pattern))
            }
            return .items(items)
        default:
            reader.typeMismatch(value, at: path, expected: "a pattern string or an object of query item name → pattern")
            return nil
        }
    }

    private static func readVariables(_ value: JSONValue, at path: String, format: AASAFormat, reader: inout ConfigReader) -> [(name: String, values: [String])] {
        guard case .object(let object) = value else {
            reader.typeMismatch(value, at: path, expected: "an object of variable name → array of strings", code: .lh206)
            return []
        }
        if format == .legacy { reader.error(.lh112, path, "cannot be expressed in the legacy format; use \"format\": \"modern\"") }
        var variables: [(name: String, values: [String])] = []
        for member in object.members {
            let memberPath = ConfigReader.join(path, member.key)
            if let problem = Identifiers.variableName(member.key) {
                reader.error(.lh206, memberPath, "\"\(member.key)\" \(problem)")
                continue
            }
            if Identifiers.predefinedVariables.contains(member.key) {
                reader.error(.lh206, memberPath, "\"\(member.key)\" is predefined by iOS and cannot be redefined")
                continue
            }
            guard case .array(let elements) = member.value, !elements.isEmpty,
                  let strings = Optional(elements.compactMap(\.stringValue)), strings.count == elements.count else {
                reader.typeMismatch(member.value, at: memberPath, expected: "a non-empty array of strings", code: .lh206)
                continue
            }
            variables.append((member.key, strings))
        }
        return variables
    }

    /// `true` lists every app of the site (when `allowsAll`), an array the given app IDs, `false` or absent none.
    private static func readAppList(_ object: JSONObject, _ key: String, at section: String, allowsAll: Bool, reader: inout ConfigReader) -> (ids: [String], all: Bool) {
        let path = ConfigReader.join(section, key)
        guard let value = object[key] else { return ([], false) }
        switch value {
        case .bool(let flag) where allowsAll:
            return ([], flag)
        case .array(let elements):
            var result: [String] = []
            for (offset, element) in elements.enumerated() {
                let elementPath = "\(path)[\(offset)]"
                guard case .string(let appID) = element else {
                    reader.typeMismatch(element, at: elementPath, expected: "an app ID string TEAMID.bundle.id")
                    continue
                }
                if let problem = Identifiers.appID(appID) {
                    reader.error(.lh103, elementPath, "\(ConfigReader.show(element)) \(problem)")
                } else if !result.contains(appID) {
                    result.append(appID)
                }
            }
            return (result, false)
        default:
            reader.typeMismatch(value, at: path, expected: allowsAll ? "true, false or an array of app IDs" : "an array of app IDs")
            return ([], false)
        }
    }
}
