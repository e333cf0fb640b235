import LinkHostJSON

/// Lints the Android 15+ dynamic rules of an `assetlinks.json`.
///
/// LH406: the rules against Google's documented format, each message saying what Android's code does
/// with the deviation. LH409: what Android's StatementService reads otherwise than written: a value that
/// makes it read nothing from the file (`null`, a number, a rule that is not an object…), a type it
/// coerces (`"exclude": "true"`, a pattern that is not a string, a `?` that is not an object), and a second
/// statement for an app, whose rules it never uses.
enum DynamicRulesLint {
    static func diagnostics(document: JSONValue) -> [LintDiagnostic] {
        var found: [LintDiagnostic] = []
        for (offset, statement) in AndroidRuleCompiler.statements(document) {
            let path = DocumentPath.root.index(offset)
            guard let package = AndroidRuleCompiler.packageName(of: statement),
                  let (value, valuePath) = AndroidRuleCompiler.components(of: statement, at: path) else { continue }
            for problem in AndroidRuleCompiler.problems(value, at: valuePath) {
                found.append(LintDiagnostic(.lh406, problem.isError ? .error : .warning, path: problem.path.description, problem.message + " (\"\(package)\")"))
            }
        }
        return found + androidReading(document)
    }

    /// LH409: the file as Android's StatementService reads it.
    static func androidReading(_ document: JSONValue) -> [LintDiagnostic] {
        var misreadings: [AndroidStatementReader.Misreading] = []
        let statements: [AndroidStatementReader.Statement]
        switch AndroidStatementReader.read(document, misreadings: &misreadings) {
        case .unreadable(let path, let reason):
            return [LintDiagnostic(.lh409, .error, path: path.description, "\(reason); Android's StatementService then reads nothing from this assetlinks.json, so the host verifies for no app")]
        case .statements(let read):
            statements = read
        }
        var found = misreadings.map { LintDiagnostic(.lh409, .warning, path: $0.path.description, $0.message) }
        var first: [String: Int] = [:]
        for statement in statements where statement.relations.contains(AssetLinksGenerator.relation) {
            guard let package = statement.packageName else { continue }
            guard let earlier = first[package] else {
                first[package] = statement.offset
                continue
            }
            let rules = statement.components.isEmpty ? "" : " and its \(statement.components.count) dynamic rules are never used"
            let earlierRules = statements.first(where: { $0.offset == earlier })?.components.isEmpty == true ? " (which has no dynamic rules, so the manifest alone decides)" : ""
            found.append(LintDiagnostic(.lh409, .warning, path: DocumentPath.root.index(statement.offset).description, "is a second statement granting App Links to \"\(package)\"; Android uses the first, [\(earlier)]\(earlierRules),\(rules.isEmpty ? " and ignores this one" : rules)"))
        }
        return found
    }
}
