import LinkHostJSON

/// Lints an `apple-app-site-association` document: its structure and types as iOS reads them, app IDs,
/// patterns and substitution variables, and rules that never decide.
///
/// iOS ignores what it cannot use instead of rejecting the file, so most mistakes here are silent on a
/// device: a misspelled `"exclude"` turns an exclusion into a rule that opens the app.
public enum AASALinter {
    /// Lints the bytes of a file as served; `source` names it in the report.
    public static func lint(bytes: [UInt8], source: String) -> LintReport {
        LintReport(source: source, diagnostics: diagnostics(bytes: bytes))
    }

    /// The problems of AASA bytes, paths in the document's own terms (`applinks.details[0]…`).
    public static func diagnostics(bytes: [UInt8]) -> [LintDiagnostic] {
        let document: JSONValue
        switch LintDiagnostic.parseDocument(bytes) {
        case .success(let parsed): document = parsed
        case .failure(let problem): return [problem]
        }
        return (bytes.count > AASAGenerator.maximumSize ? sizeDiagnostic(bytes.count) : []) + diagnostics(document: document) { $0.description }
    }

    /// LH110 for a file of `size` bytes, over Apple's limit.
    static func sizeDiagnostic(_ size: Int) -> [LintDiagnostic] {
        [LintDiagnostic(.lh110, .error, path: "", "the file is \(size) bytes, more than Apple's limit of \(AASAGenerator.maximumSize) bytes; Apple's CDN refuses it")]
    }

    /// The problems of a parsed document; `render` names a location (a config maps generated paths to its own).
    /// `shadowing: false` skips the pairwise comparison of rules (LH201–LH203), for rules linkhost derived
    /// itself, which are exact by construction (`DerivedRulesFuzzTests`) and many.
    static func diagnostics(document: JSONValue, render: @escaping (DocumentPath) -> String, shadowing: Bool = true) -> [LintDiagnostic] {
        var run = AASALintRun(render: render)
        run.checksShadowing = shadowing
        run.lintDocument(document)
        return run.diagnostics
    }
}

/// One pass over a document, collecting diagnostics.
struct AASALintRun {
    let render: (DocumentPath) -> String
    private(set) var diagnostics: [LintDiagnostic] = []
    /// Whether rules are compared pairwise for shadowing.
    var checksShadowing = true
    /// Custom variables referenced by some pattern, for LH207.
    var usedVariables = Set<String>()
    /// The document's custom variables, for LH204.
    var variables = SubstitutionVariables()

    init(render: @escaping (DocumentPath) -> String) {
        self.render = render
    }

    mutating func add(_ code: LintCode, _ severity: ConfigDiagnostic.Severity, _ path: DocumentPath, _ message: String) {
        diagnostics.append(LintDiagnostic(code, severity, path: render(path), message))
    }

    mutating func typeMismatch(_ value: JSONValue, _ path: DocumentPath, expected: String, _ consequence: String, severity: ConfigDiagnostic.Severity = .error) {
        add(.lh105, severity, path, "found \(Self.describe(value)), expected \(expected); \(consequence)")
    }

    /// "a number 5", or just "null", for what a value was found to be.
    static func describe(_ value: JSONValue) -> String {
        value == .null ? "null" : "\(value.typeDescription) \(ConfigReader.show(value))"
    }

    /// Checks an object's keys against `known`; unknown keys are warnings since iOS skips them.
    mutating func checkKeys(_ object: JSONObject, _ path: @autoclosure () -> DocumentPath, known: [String], code: LintCode = .lh106, hints: [String: String] = [:]) {
        // Most objects hold only known keys (a generated AASA: hundreds of components): no set of keys to make.
        guard object.members.contains(where: { !known.contains($0.key) }) else { return }
        for key in object.keys where !known.contains(key) {
            var message = "is not a key iOS reads here, so it is ignored"
            if let hint = hints[key] {
                message += "; \(hint)"
            } else if let suggestion = Suggestion.closest(to: key, among: known) {
                message += "; did you mean \"\(suggestion)\"?"
            } else {
                message += "; expected one of " + known.map { "\"\($0)\"" }.joined(separator: ", ")
            }
            add(code, .warning, path().key(key), message)
        }
    }

    mutating func lintDocument(_ document: JSONValue) {
        findDuplicateKeys(document, .root)
        guard let root = document.objectValue else {
            typeMismatch(document, .root, expected: "an object", "iOS finds no universal links in it")
            return
        }
        checkKeys(root, .root, known: ["applinks", "webcredentials", "appclips", "activitycontinuation"])
        for section in ["webcredentials", "appclips", "activitycontinuation"] {
            if let value = root[section] { lintAppList(value, DocumentPath.root.key(section)) }
        }
        guard let applinks = root["applinks"] else {
            add(.lh113, .warning, .root, "has no \"applinks\", so it defines no universal links")
            return
        }
        lintAppLinks(applinks, DocumentPath.root.key("applinks"))
    }

    /// `webcredentials`, `appclips`, `activitycontinuation`: `{"apps": [app IDs]}`.
    private mutating func lintAppList(_ value: JSONValue, _ path: DocumentPath) {
        guard let object = value.objectValue else {
            typeMismatch(value, path, expected: "an object {\"apps\": [...]}", "iOS ignores the section")
            return
        }
        checkKeys(object, path, known: ["apps"])
        guard let apps = object["apps"] else {
            add(.lh108, .error, path, "has no \"apps\" array naming the app IDs")
            return
        }
        guard let list = apps.arrayValue else {
            typeMismatch(apps, path.key("apps"), expected: "an array of app IDs", "iOS ignores the section")
            return
        }
        for (offset, element) in list.enumerated() { lintAppID(element, path.key("apps").index(offset)) }
    }

    private mutating func lintAppLinks(_ value: JSONValue, _ path: DocumentPath) {
        guard let applinks = value.objectValue else {
            typeMismatch(value, path, expected: "an object", "iOS finds no universal links")
            return
        }
        checkKeys(applinks, path, known: ["apps", "details", "defaults", "substitutionVariables"])
        if let apps = applinks["apps"] {
            if let list = apps.arrayValue {
                if !list.isEmpty { add(.lh109, .warning, path.key("apps"), "must be an empty array; app IDs belong in details") }
            } else {
                typeMismatch(apps, path.key("apps"), expected: "an empty array []", "iOS 12 and earlier may reject the file")
            }
        }
        if let defaults = applinks["defaults"] { lintDefaults(defaults, path.key("defaults")) }
        if let variablesValue = applinks["substitutionVariables"] {
            lintVariableDefinitions(variablesValue, path.key("substitutionVariables"))
        }
        variables = SubstitutionVariables(json: applinks["substitutionVariables"])

        guard let detailsValue = applinks["details"] else {
            add(.lh113, .warning, path, "has no \"details\", so it defines no universal links")
            return
        }
        var details: [(value: JSONValue, path: DocumentPath, key: String?)] = []
        switch detailsValue {
        case .array(let elements):
            details = elements.enumerated().map { ($0.element, path.key("details").index($0.offset), nil) }
        case .object(let object):
            // The oldest form keys each detail by its app ID.
            details = object.members.map { ($0.value, path.key("details").key($0.key), $0.key) }
        default:
            typeMismatch(detailsValue, path.key("details"), expected: "an array of details", "iOS finds no universal links")
            return
        }
        if details.isEmpty { add(.lh113, .warning, path.key("details"), "is empty, so the file defines no universal links") }
        var firstListing: [String: DocumentPath] = [:]
        var usesPaths = false
        for detail in details {
            let appIDs = lintDetail(detail.value, detail.path, key: detail.key)
            usesPaths = usesPaths || detail.value.objectValue?["paths"] != nil
            for appID in appIDs {
                if let first = firstListing[appID], first != detail.path {
                    add(.lh104, .warning, detail.path, "lists \"\(appID)\", already listed in \(render(first)); iOS reads this detail's rules only when the earlier ones do not decide, so merge them into one")
                } else {
                    firstListing[appID] = detail.path
                }
            }
        }
        if usesPaths && applinks["apps"] == nil {
            add(.lh112, .warning, path, "has legacy \"paths\" but no \"apps\": [], which iOS 12 and earlier need to read them")
        }
        lintRules(applinks)
    }

    /// Checks one detail; returns the app IDs it lists (once each).
    private mutating func lintDetail(_ value: JSONValue, _ path: DocumentPath, key: String?) -> [String] {
        guard let detail = value.objectValue else {
            typeMismatch(value, path, expected: "an object with appIDs and components", "iOS skips it")
            return []
        }
        checkKeys(detail, path, known: ["appIDs", "appID", "components", "paths", "defaults"])
        var appIDs: [String] = []
        if let key {
            lintAppID(.string(key), path)
            appIDs.append(key)
        }
        if let list = detail["appIDs"] {
            if let elements = list.arrayValue {
                for (offset, element) in elements.enumerated() {
                    lintAppID(element, path.key("appIDs").index(offset))
                    guard let appID = element.stringValue else { continue }
                    if appIDs.contains(appID) {
                        add(.lh104, .warning, path.key("appIDs").index(offset), "\"\(appID)\" is listed twice in this detail")
                    } else {
                        appIDs.append(appID)
                    }
                }
            } else {
                typeMismatch(list, path.key("appIDs"), expected: "an array of app IDs", "iOS sees no app in this detail")
            }
        }
        if let single = detail["appID"] {
            lintAppID(single, path.key("appID"))
            if let appID = single.stringValue, !appIDs.contains(appID) { appIDs.append(appID) }
        }
        if key == nil && detail["appIDs"] == nil && detail["appID"] == nil {
            add(.lh108, .error, path, "names no app: add \"appIDs\": [\"TEAMID.bundle.id\"]")
        }
        if let defaults = detail["defaults"] { lintDefaults(defaults, path.key("defaults")) }

        let components = detail["components"]
        let paths = detail["paths"]
        if let components { lintComponents(components, path.key("components")) }
        if let paths { lintLegacyPaths(paths, path.key("paths")) }
        let ruleCount = (components?.arrayValue?.count ?? 0) + (paths?.arrayValue?.count ?? 0)
        if ruleCount == 0 && !appIDs.isEmpty {
            add(.lh208, .warning, path, "lists apps but no rules (components or paths), so no URL opens them")
        }
        if detail["appIDs"] != nil && paths != nil && components == nil && detail["appID"] == nil {
            add(.lh112, .warning, path, "pairs the iOS 13+ \"appIDs\" with legacy \"paths\": iOS 12 and earlier read only \"appID\", so they see no app here; use \"components\", or add \"appID\" for iOS 12")
        }
        if detail["appID"] != nil && components != nil && paths == nil && detail["appIDs"] == nil {
            add(.lh112, .warning, path, "pairs the legacy \"appID\" with iOS 13+ \"components\": iOS 12 and earlier read only \"paths\", so they see no rules here; use \"appIDs\", or add \"paths\" for iOS 12")
        }
        return appIDs
    }

    /// Checks `TEAMID.bundle.id`, naming which half is wrong.
    mutating func lintAppID(_ value: JSONValue, _ path: DocumentPath) {
        guard let appID = value.stringValue else {
            typeMismatch(value, path, expected: "an app ID string TEAMID.bundle.id", "iOS ignores it")
            return
        }
        let shown = ConfigReader.show(value)
        guard let dot = appID.firstIndex(of: ".") else {
            add(.lh103, .error, path, "\(shown) is not an app ID of the form TEAMID.bundle.id")
            return
        }
        let team = String(appID[..<dot])
        let bundle = String(appID[appID.index(after: dot)...])
        if let problem = Identifiers.teamID(team) {
            add(.lh101, .error, path, "\(shown): the Team ID \"\(team)\" \(problem)")
        }
        if let problem = Identifiers.bundleID(bundle) {
            add(.lh102, .error, path, "\(shown): the bundle ID \"\(bundle)\" \(problem)")
        }
    }

    /// `defaults` at the applinks or detail level: only the two booleans.
    mutating func lintDefaults(_ value: JSONValue, _ path: DocumentPath) {
        guard let object = value.objectValue else {
            typeMismatch(value, path, expected: "an object {\"caseSensitive\": …, \"percentEncoded\": …}", "iOS ignores it")
            return
        }
        checkKeys(object, path, known: ["caseSensitive", "percentEncoded"], code: .lh111)
        for key in ["caseSensitive", "percentEncoded"] {
            if let flag = object[key] { lintBoolean(flag, path.key(key)) }
        }
    }

    /// A boolean as iOS reads it: numbers pass through the property-list bridge, anything else is ignored.
    mutating func lintBoolean(_ value: JSONValue, _ path: @autoclosure () -> DocumentPath) {
        switch value {
        case .bool:
            break
        case .number:
            typeMismatch(value, path(), expected: "true or false", "iOS reads a number as a boolean, but write true or false", severity: .warning)
        default:
            typeMismatch(value, path(), expected: "true or false", "iOS ignores it and keeps the default")
        }
    }

    /// Objects anywhere in the document must not repeat a key.
    private mutating func findDuplicateKeys(_ value: JSONValue, _ path: DocumentPath) {
        var steps = path.steps
        findDuplicateKeys(value, steps: &steps)
    }

    /// The same, the path kept as steps pushed and popped: a path is made only for a finding, not for
    /// each of the thousands of members of a generated AASA.
    private mutating func findDuplicateKeys(_ value: JSONValue, steps: inout [DocumentPath.Step]) {
        switch value {
        case .object(let object):
            let members = object.members
            // A handful of keys (a rule's) are compared with those before them; a larger object keeps a set.
            var seen = members.count > 8 ? Set<String>(minimumCapacity: members.count) : nil
            for index in members.indices {
                let key = members[index].key
                let repeated: Bool
                if seen != nil {
                    repeated = !seen!.insert(key).inserted
                } else {
                    repeated = members[..<index].contains { $0.key == key }
                }
                steps.append(.key(key))
                if repeated {
                    add(.lh107, .error, DocumentPath(steps: steps), "appears twice in one object; JSON readers disagree on which one wins, so keep one")
                }
                findDuplicateKeys(members[index].value, steps: &steps)
                steps.removeLast()
            }
        case .array(let elements):
            for (offset, element) in elements.enumerated() {
                steps.append(.index(offset))
                findDuplicateKeys(element, steps: &steps)
                steps.removeLast()
            }
        default:
            break
        }
    }

    /// The rule-level analyses that need the whole document: unused variables and unreachable rules.
    private mutating func lintRules(_ applinks: JSONObject) {
        if let defined = applinks["substitutionVariables"]?.objectValue {
            for name in defined.keys where !usedVariables.contains(name) {
                add(.lh207, .warning, DocumentPath.root.key("applinks").key("substitutionVariables").key(name), "is never used by a pattern")
            }
        }
        guard checksShadowing else { return }
        let details = AASARuleCompiler.compile(.object(JSONObject([JSONMember("applinks", .object(applinks))]))) ?? []
        let render = self.render
        var shadowing = RuleShadowing(variables: variables) { render($0.documentPath) }
        for finding in shadowing.findings(in: details) {
            add(finding.code, finding.severity, finding.rule.documentPath, finding.message)
        }
    }
}
