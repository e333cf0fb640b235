import LinkHostJSON

/// Reads the `aasa` section: format, ordered rules, defaults, variables and the extra sections.
enum AASASettingsReader {
    static let ruleKeys = ["path", "query", "fragment", "exclude", "caseSensitive", "percentEncoded", "comment"]

    static func read(_ value: JSONValue?, appIDs: [String], callLinks: CallLinkSettings, reader: inout ConfigReader) -> AASASettings {
        var settings = AASASettings()
        let keys = ["format", "rules", "defaults", "substitutionVariables", "webcredentials", "appclips", "activitycontinuation", "cacheMaxAge"]
        guard let value, let object = reader.object(value, at: "aasa", allowed: keys) else {
            settings.rules = defaultRules(for: callLinks)
            return settings
        }
        if let format = reader.string(object, "format", at: "aasa", expected: "\"modern\", \"legacy\" or \"both\"", rule: { AASAFormat(rawValue: $0) == nil ? "is not a format; expected \"modern\", \"legacy\" or \"both\"" : nil }) {
            settings.format = AASAFormat(rawValue: format) ?? .modern
        }
        if let list = reader.array(object, "rules", at: "aasa", expected: "an array of rules") {
            settings.rules = list.compactMap { readRule($0.value, at: $0.path, format: settings.format, reader: &reader) }
            if list.isEmpty { reader.warning("aasa.rules", "is empty: no link on this domain will open the app") }
        } else {
            settings.rules = defaultRules(for: callLinks)
        }
        if let defaults = object["defaults"], let defaultsObject = reader.object(defaults, at: "aasa.defaults", allowed: ["caseSensitive", "percentEncoded"]) {
            settings.defaultCaseSensitive = reader.boolean(defaultsObject, "caseSensitive", at: "aasa.defaults")
            settings.defaultPercentEncoded = reader.boolean(defaultsObject, "percentEncoded", at: "aasa.defaults")
            if settings.format == .legacy, !defaultsObject.members.isEmpty {
                reader.error("aasa.defaults", "cannot be expressed in the legacy format; use \"format\": \"modern\"")
            }
        }
        if let variables = object["substitutionVariables"] {
            settings.substitutionVariables = readVariables(variables, format: settings.format, reader: &reader)
        }
        settings.webcredentials = readAppList(object, "webcredentials", appIDs: appIDs, reader: &reader)
        settings.activitycontinuation = readAppList(object, "activitycontinuation", appIDs: appIDs, reader: &reader)
        settings.appclips = readAppList(object, "appclips", appIDs: nil, reader: &reader)
        settings.cacheMaxAge = reader.integer(object, "cacheMaxAge", at: "aasa", in: 0...31_536_000) ?? settings.cacheMaxAge
        return settings
    }

    /// With no rules configured, exactly the call links open the app and nothing else on the domain does.
    static func defaultRules(for callLinks: CallLinkSettings) -> [AASARule] {
        callLinks.paths.map { AASARule(path: "/\($0)/?*", comment: "call links") }
    }

    private static func readRule(_ value: JSONValue, at path: String, format: AASAFormat, reader: inout ConfigReader) -> AASARule? {
        guard let object = reader.object(value, at: path, allowed: ruleKeys) else { return nil }
        var rule = AASARule()
        rule.path = reader.string(object, "path", at: path, expected: "a path pattern such as \"/call/*\"", rule: patternRule)
        rule.fragment = reader.string(object, "fragment", at: path, expected: "a fragment pattern", rule: patternRule)
        rule.exclude = reader.boolean(object, "exclude", at: path) ?? false
        rule.caseSensitive = reader.boolean(object, "caseSensitive", at: path)
        rule.percentEncoded = reader.boolean(object, "percentEncoded", at: path)
        rule.comment = reader.string(object, "comment", at: path, expected: "a note for people")
        if let query = object["query"] {
            rule.query = readQuery(query, at: ConfigReader.join(path, "query"), reader: &reader)
        }
        if format != .modern {
            for key in ["query", "fragment", "caseSensitive", "percentEncoded"] where object[key] != nil {
                reader.error(ConfigReader.join(path, key), "cannot be expressed in the \(format.rawValue) format, whose paths match the path only; use \"format\": \"modern\"")
            }
        }
        if format != .modern, rule.path == nil {
            reader.error(path, "has no \"path\"; the \(format.rawValue) format needs one for every rule")
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
            if let problem = patternRule(pattern) { reader.error(path, "\(ConfigReader.show(value)) \(problem)"); return nil }
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
                if member.key.isEmpty { reader.error(memberPath, "query item name is empty") }
                items.append((member.key, pattern))
            }
            return .items(items)
        default:
            reader.typeMismatch(value, at: path, expected: "a pattern string or an object of query item name → pattern")
            return nil
        }
    }

    private static func readVariables(_ value: JSONValue, format: AASAFormat, reader: inout ConfigReader) -> [(name: String, values: [String])] {
        let path = "aasa.substitutionVariables"
        guard case .object(let object) = value else {
            reader.typeMismatch(value, at: path, expected: "an object of variable name → array of strings")
            return []
        }
        if format == .legacy { reader.error(path, "cannot be expressed in the legacy format; use \"format\": \"modern\"") }
        var variables: [(name: String, values: [String])] = []
        for member in object.members {
            let memberPath = ConfigReader.join(path, member.key)
            if let problem = Identifiers.variableName(member.key) {
                reader.error(memberPath, "\"\(member.key)\" \(problem)")
                continue
            }
            if Identifiers.predefinedVariables.contains(member.key) {
                reader.error(memberPath, "\"\(member.key)\" is predefined by iOS and cannot be redefined")
                continue
            }
            guard case .array(let elements) = member.value, !elements.isEmpty,
                  let strings = Optional(elements.compactMap(\.stringValue)), strings.count == elements.count else {
                reader.typeMismatch(member.value, at: memberPath, expected: "a non-empty array of strings")
                continue
            }
            variables.append((member.key, strings))
        }
        return variables
    }

    /// `true` lists every configured app, an array lists the given app IDs, `false` or absent lists none.
    private static func readAppList(_ object: JSONObject, _ key: String, appIDs: [String]?, reader: inout ConfigReader) -> [String] {
        let path = ConfigReader.join("aasa", key)
        guard let value = object[key] else { return [] }
        switch value {
        case .bool(let flag) where appIDs != nil:
            return flag ? appIDs ?? [] : []
        case .array(let elements):
            var result: [String] = []
            for (offset, element) in elements.enumerated() {
                let elementPath = "\(path)[\(offset)]"
                guard case .string(let appID) = element else {
                    reader.typeMismatch(element, at: elementPath, expected: "an app ID string TEAMID.bundle.id")
                    continue
                }
                if let problem = Identifiers.appID(appID) {
                    reader.error(elementPath, "\(ConfigReader.show(element)) \(problem)")
                } else if !result.contains(appID) {
                    result.append(appID)
                }
            }
            return result
        default:
            reader.typeMismatch(value, at: path, expected: appIDs == nil ? "an array of app IDs" : "true, false or an array of app IDs")
            return []
        }
    }
}
