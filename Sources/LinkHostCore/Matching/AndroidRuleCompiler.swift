import LinkHostJSON

/// One app of an `assetlinks.json`, as Android reads it for Dynamic App Links.
struct CompiledAndroidApp: Sendable {
    /// What the app's statement says about dynamic rules.
    enum Dynamic: Sendable {
        /// No `dynamic_app_link_components`.
        case none
        /// Present but malformed or empty: Android drops them all.
        case malformed(String)
        /// The rules, in order.
        case rules([CompiledDynamicRule])
    }

    let packageName: String
    let dynamic: Dynamic
}

/// One dynamic rule, compiled.
struct CompiledDynamicRule: Sendable {
    let path: AndroidPattern?
    let query: [(name: String, pattern: AndroidPattern)]
    let fragment: AndroidPattern?
    let exclude: Bool
    let json: JSONValue

    /// The comparisons made when every given component matches `url`, or nil when one does not.
    func checks(_ url: AndroidURL) -> [String]? {
        var made: [String] = []
        if let path {
            guard path.matches(url.path) else { return nil }
            made.append("path \"\(url.path)\" against \"\(path.source)\"")
        }
        for (name, pattern) in query {
            guard let item = url.items.first(where: { $0.name == name && pattern.matches($0.value) }) else { return nil }
            made.append("query item \(name)=\"\(item.value)\" against \"\(pattern.source)\"")
        }
        if let fragment {
            guard let text = url.fragment, fragment.matches(text) else { return nil }
            made.append("fragment \"\(text)\" against \"\(fragment.source)\"")
        }
        return made
    }
}

/// Reads the Android statements of an `assetlinks.json` and checks their dynamic rules as Google
/// documents them; the linter reports the same problems the matcher acts on.
enum AndroidRuleCompiler {
    /// The keys Google documents for a rule.
    static let ruleKeys = ["/", "?", "#", "exclude"]

    /// One problem of a `dynamic_app_link_components` value.
    struct Problem: Equatable {
        /// Where, inside the statement list.
        let path: DocumentPath
        /// What is wrong, and what Android does about it.
        let message: String
        /// True when Android drops every dynamic rule of the app for it.
        let dropsRules: Bool
    }

    /// Every app granted App Links, once, with the dynamic rules of its first statement that has any.
    static func compile(_ document: JSONValue) -> [CompiledAndroidApp] {
        var apps: [CompiledAndroidApp] = []
        for (_, statement) in statements(document) {
            guard let package = packageName(of: statement) else { continue }
            let dynamic = dynamicRules(statement, at: .root)
            if let existing = apps.firstIndex(where: { $0.packageName == package }) {
                if case .none = apps[existing].dynamic { apps[existing] = CompiledAndroidApp(packageName: package, dynamic: dynamic) }
            } else {
                apps.append(CompiledAndroidApp(packageName: package, dynamic: dynamic))
            }
        }
        return apps
    }

    /// The statements of a document that grant App Links to an Android app, with their index.
    static func statements(_ document: JSONValue) -> [(offset: Int, statement: JSONObject)] {
        guard let list = document.arrayValue else { return [] }
        return list.enumerated().compactMap { offset, value in
            guard let object = value.objectValue, packageName(of: object) != nil,
                  object["relation"]?.arrayValue?.contains(.string(AssetLinksGenerator.relation)) == true else { return nil }
            return (offset, object)
        }
    }

    static func packageName(of statement: JSONObject) -> String? {
        guard let target = statement["target"]?.objectValue, target["namespace"]?.stringValue == "android_app" else { return nil }
        return target["package_name"]?.stringValue
    }

    /// The `dynamic_app_link_components` value of a statement, and where it is.
    static func components(of statement: JSONObject, at path: DocumentPath) -> (JSONValue, DocumentPath)? {
        guard let value = statement["relation_extensions"]?.objectValue?[AssetLinksGenerator.relation]?.objectValue?["dynamic_app_link_components"] else { return nil }
        return (value, path.key("relation_extensions").key(AssetLinksGenerator.relation).key("dynamic_app_link_components"))
    }

    private static func dynamicRules(_ statement: JSONObject, at path: DocumentPath) -> CompiledAndroidApp.Dynamic {
        guard let (value, valuePath) = components(of: statement, at: path) else { return .none }
        if let problem = problems(value, at: valuePath).first(where: \.dropsRules) { return .malformed(problem.message) }
        let rules = (value.arrayValue ?? []).compactMap(\.objectValue).map { rule in
            CompiledDynamicRule(
                path: rule["/"]?.stringValue.map(AndroidPattern.init),
                query: (rule["?"]?.objectValue?.members ?? []).compactMap { member in member.value.stringValue.map { (member.key, AndroidPattern($0)) } },
                fragment: rule["#"]?.stringValue.map(AndroidPattern.init),
                exclude: rule["exclude"]?.boolValue ?? false,
                json: .object(rule))
        }
        return .rules(rules)
    }

    /// The problems of a `dynamic_app_link_components` value: Google's "malformed or empty" (Android then
    /// drops all the app's dynamic rules), and what Google does not document.
    static func problems(_ value: JSONValue, at path: DocumentPath) -> [Problem] {
        var found: [Problem] = []
        func add(_ where: DocumentPath, _ message: String, drops: Bool = true) {
            found.append(Problem(path: `where`, message: message, dropsRules: drops))
        }
        guard let rules = value.arrayValue else {
            add(path, "is \(value.typeDescription), not an array of rules")
            return found
        }
        if rules.isEmpty { add(path, "is empty") }
        for (index, element) in rules.enumerated() {
            let rulePath = path.index(index)
            guard let rule = element.objectValue else {
                add(rulePath, "is \(element.typeDescription), not a rule object")
                continue
            }
            if rule.members.isEmpty { add(rulePath, "is an empty rule; write {\"/\": \"*\"} to match every URL") }
            for member in rule.members {
                let memberPath = rulePath.key(member.key)
                switch member.key {
                case "/", "#":
                    guard let pattern = member.value.stringValue, !pattern.isEmpty else {
                        add(memberPath, "must be a non-empty pattern string")
                        continue
                    }
                    undocumentedRun(pattern, at: memberPath, into: &found)
                case "?":
                    guard let items = member.value.objectValue, !items.members.isEmpty else {
                        add(memberPath, "must be a non-empty object of query item name → pattern")
                        continue
                    }
                    for item in items.members {
                        guard !item.key.isEmpty, let pattern = item.value.stringValue, !pattern.isEmpty else {
                            add(memberPath.key(item.key), "must be a non-empty query item name with a non-empty pattern string")
                            continue
                        }
                        undocumentedRun(pattern, at: memberPath.key(item.key), into: &found)
                    }
                case "exclude":
                    if member.value.boolValue == nil { add(memberPath, "must be true or false") }
                default:
                    add(memberPath, "is not a key Google documents for dynamic rules (\(ruleKeys.joined(separator: ", "))); Android may ignore it or drop the rules", drops: false)
                }
            }
        }
        return found
    }

    private static func undocumentedRun(_ pattern: String, at path: DocumentPath, into found: inout [Problem]) {
        let compiled = AndroidPattern(pattern)
        guard compiled.hasUndocumentedRun else { return }
        found.append(Problem(path: path, message: "\"\(pattern)\" has a * followed by another wildcard, which Google does not define; linkhost reads it as \"\(compiled.normalizedSource)\"", dropsRules: false))
    }
}
