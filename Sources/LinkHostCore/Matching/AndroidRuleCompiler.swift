import LinkHostJSON

/// One app of an `assetlinks.json`, as Android reads it for Dynamic App Links.
struct CompiledAndroidApp: Sendable {
    /// What the app's statement gives Android's intent resolution.
    enum Dynamic: Sendable {
        /// No rules Android reads: the manifest alone decides.
        case none
        /// Building the rules threw, so none is stored for the host and the manifest alone decides.
        case unusable(String)
        /// The rules, in order (`UriRelativeFilterGroup`s), and which of them a path may match.
        case rules([CompiledDynamicRule], AndroidRuleIndex)
    }

    let packageName: String
    let dynamic: Dynamic
}

/// One dynamic rule as the `UriRelativeFilterGroup` the StatementService builds from it (StatementUtils'
/// `createUriRelativeFilterGroup`): `exclude` makes it a block group, and each condition one
/// `UriRelativeFilter`, a query item `name: pattern` being the single filter `name=pattern` that
/// `UriRelativeFilter.matchQuery` tries on each parameter.
struct CompiledDynamicRule: Sendable {
    let path: AndroidPatternMatcher?
    let query: [(name: String, expression: String, matcher: AndroidPatternMatcher)]
    let fragment: AndroidPatternMatcher?
    let exclude: Bool
    let json: JSONValue

    /// Builds the group, or says which pattern `parseMatchingExpression` refuses (an empty one).
    static func build(_ component: AndroidStatementReader.Component) -> Result<CompiledDynamicRule, EmptyPattern> {
        func matcher(_ expression: String?, _ what: String) -> Result<AndroidPatternMatcher?, EmptyPattern> {
            guard let expression else { return .success(nil) }
            guard let built = AndroidPatternMatcher(expression: expression) else { return .failure(EmptyPattern(what: what)) }
            return .success(built)
        }
        let path: AndroidPatternMatcher?, fragment: AndroidPatternMatcher?
        switch matcher(component.path, "\"/\"") {
        case .failure(let empty): return .failure(empty)
        case .success(let built): path = built
        }
        switch matcher(component.fragment, "\"#\"") {
        case .failure(let empty): return .failure(empty)
        case .success(let built): fragment = built
        }
        let query = (component.query ?? []).compactMap { item -> (String, String, AndroidPatternMatcher)? in
            let expression = item.name + "=" + item.pattern
            return AndroidPatternMatcher(expression: expression).map { (item.name, expression, $0) }
        }
        return .success(CompiledDynamicRule(path: path, query: query, fragment: fragment, exclude: component.exclude, json: component.json))
    }

    /// A pattern `parseMatchingExpression` throws on.
    struct EmptyPattern: Error {
        let what: String
    }

    /// True when the rule has no condition: `UriRelativeFilterGroup.matchData` is false for a group
    /// without filters, so it never matches.
    var isEmpty: Bool { path == nil && query.isEmpty && fragment == nil }

    /// The comparisons made when every condition matches `uri` (`UriRelativeFilterGroup.matchData`), or
    /// nil when one does not or the rule has none.
    func checks(_ uri: AndroidURI) -> [String]? {
        guard !isEmpty else { return nil }
        var made: [String] = []
        if let path {
            guard path.matches(units: uri.units.path) else { return nil }
            made.append("path \(show(uri.path)) against \(path.description)")
        }
        for item in query {
            guard let found = uri.units.parameters?.firstIndex(where: { item.matcher.matches(units: $0) }), let parameter = uri.queryParameters?[found] else { return nil }
            made.append("query parameter \(show(parameter)) against \(item.matcher.description)")
        }
        if let fragment {
            guard fragment.matches(units: uri.units.fragment) else { return nil }
            made.append("fragment \(show(uri.fragment)) against \(fragment.description)")
        }
        return made
    }

    private func show(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "(none)" }
}

/// Compiles the Android statements of an `assetlinks.json` as Android's StatementService reads them
/// (`AndroidStatementReader`), and checks their dynamic rules against Google's documented format.
enum AndroidRuleCompiler {
    /// The keys of a rule: Google's four, and `comments`, which the StatementService reads and ignores.
    static let ruleKeys = ["/", "?", "#", "exclude", "comments"]

    /// One problem of a `dynamic_app_link_components` value.
    struct Problem: Equatable {
        /// Where, inside the statement list.
        let path: DocumentPath
        /// What is wrong, and what Android does about it.
        let message: String
        /// True for what makes Android drop the rules or the file, false for what it reads otherwise than written.
        let isError: Bool
    }

    /// What Android verifies from a document: every app granted App Links, once, with the rules of its
    /// first statement (`DomainVerifier.verifyHost` takes the first statement whose relation and target
    /// match), or why Android reads no statement at all.
    static func compile(_ document: JSONValue) -> Result<[CompiledAndroidApp], Unreadable> {
        var ignored: [AndroidStatementReader.Misreading] = []
        let statements: [AndroidStatementReader.Statement]
        switch AndroidStatementReader.read(document, misreadings: &ignored) {
        case .unreadable(let path, let reason): return .failure(Unreadable(path: path, reason: reason))
        case .statements(let read): statements = read
        }
        var apps: [CompiledAndroidApp] = []
        for statement in statements where statement.relations.contains(AssetLinksGenerator.relation) {
            guard let package = statement.packageName, !apps.contains(where: { $0.packageName == package }) else { continue }
            apps.append(CompiledAndroidApp(packageName: package, dynamic: dynamic(statement.components)))
        }
        return .success(apps)
    }

    /// Why Android's StatementService reads nothing from a document.
    struct Unreadable: Error, Sendable {
        let path: DocumentPath
        let reason: String
    }

    /// The groups of one statement; any empty pattern throws while they are built, and none is stored.
    private static func dynamic(_ components: [AndroidStatementReader.Component]) -> CompiledAndroidApp.Dynamic {
        guard !components.isEmpty else { return .none }
        var rules: [CompiledDynamicRule] = []
        for (index, component) in components.enumerated() {
            switch CompiledDynamicRule.build(component) {
            case .failure(let empty): return .unusable("dynamic_app_link_components[\(index)] has an empty \(empty.what) pattern, on which DalComponentParser.parseMatchingExpression throws")
            case .success(let rule): rules.append(rule)
            }
        }
        return .rules(rules, AndroidRuleIndex(rules))
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

    /// The problems of a `dynamic_app_link_components` value against Google's documented format, each
    /// with what Android's code does with it (LH406; LH409 reports what breaks the whole file).
    static func problems(_ value: JSONValue, at path: DocumentPath) -> [Problem] {
        var found: [Problem] = []
        func add(_ where: DocumentPath, _ message: String, error: Bool = true) {
            found.append(Problem(path: `where`, message: message, isError: error))
        }
        let manifestDecides = "Android reads no dynamic rule of the app, so its manifest alone decides"
        guard let rules = value.arrayValue else {
            add(path, "is \(value.typeDescription), not an array of rules; \(manifestDecides)")
            return found
        }
        if rules.isEmpty { add(path, "is empty; \(manifestDecides)") }
        for (index, element) in rules.enumerated() {
            let rulePath = path.index(index)
            // Types Android coerces or refuses are LH409's (AndroidStatementReader); this is Google's format.
            guard let rule = element.objectValue else { continue }
            let members = AndroidStatementReader.javaObject(rule)
            if !members.keys.contains(where: { $0 == "/" || $0 == "#" }), members["?"]?.objectValue?.members.isEmpty ?? true {
                add(rulePath, "has no condition; Android never matches a rule without one (a UriRelativeFilterGroup without filters), so write {\"/\": \"*\"} to match every URL")
            }
            for member in rule.members {
                let memberPath = rulePath.key(member.key)
                switch member.key {
                case "/", "#":
                    guard let pattern = member.value.stringValue else { continue }
                    guard !pattern.isEmpty else {
                        add(memberPath, "is empty; Android's DalComponentParser throws on an empty pattern, so no dynamic rule of the app is stored and its manifest alone decides")
                        continue
                    }
                    undocumentedRun(pattern, at: memberPath, into: &found)
                case "?":
                    guard let items = member.value.objectValue else { continue }
                    if items.members.isEmpty { add(memberPath, "is empty and adds no condition", error: false) }
                    for item in items.members {
                        let itemPath = memberPath.key(item.key)
                        guard let pattern = item.value.stringValue else { continue }
                        if pattern.isEmpty || item.key.isEmpty {
                            add(itemPath, "has an empty name or pattern, which Google calls malformed; Android keeps it and matches only the parameter \(ConfigReader.show(.string(item.key + "=" + pattern))) exactly", error: false)
                        }
                        undocumentedRun(pattern, at: itemPath, into: &found)
                    }
                case "exclude", "comments":
                    break
                default:
                    add(memberPath, "is not a key Google documents for dynamic rules (\(ruleKeys.joined(separator: ", "))); Android ignores it", error: false)
                }
            }
        }
        return found
    }

    /// `**`, `*?` and longer runs: Google's prose and Android's code read them differently.
    private static func undocumentedRun(_ pattern: String, at path: DocumentPath, into found: inout [Problem]) {
        let compiled = AndroidPattern(pattern)
        guard compiled.hasUndocumentedRun, let matcher = AndroidPatternMatcher(expression: pattern) else { return }
        found.append(Problem(path: path, message: "\(ConfigReader.show(.string(pattern))) has a * followed by another wildcard, which Google does not define; Android builds the \(matcher.description), whose .* stops at the next pattern character taken literally (a \".\" for **, *?), so write \(ConfigReader.show(.string(compiled.normalizedSource))) instead", isError: false))
    }
}
