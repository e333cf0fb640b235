import LinkHostJSON

/// Lints the Android 15+ dynamic rules of an `assetlinks.json` (LH406): what Google calls malformed or
/// empty (Android then drops every dynamic rule of the app), what it does not document, and a second set
/// of rules for one app (Android does not guarantee which it uses).
enum DynamicRulesLint {
    static func diagnostics(document: JSONValue) -> [LintDiagnostic] {
        var found: [LintDiagnostic] = []
        var declared: [String: DocumentPath] = [:]
        for (offset, statement) in AndroidRuleCompiler.statements(document) {
            let path = DocumentPath.root.index(offset)
            guard let package = AndroidRuleCompiler.packageName(of: statement),
                  let (value, valuePath) = AndroidRuleCompiler.components(of: statement, at: path) else { continue }
            for problem in AndroidRuleCompiler.problems(value, at: valuePath) {
                let consequence = problem.dropsRules ? "; Android drops all dynamic rules of \"\(package)\" and its manifest alone decides" : ""
                found.append(LintDiagnostic(.lh406, problem.dropsRules ? .error : .warning, path: problem.path.description, problem.message + consequence))
            }
            if let first = declared[package] {
                found.append(LintDiagnostic(.lh406, .warning, path: valuePath.description, "is a second dynamic_app_link_components for \"\(package)\" (the first is at \(first)); Android does not guarantee which one it uses"))
            } else {
                declared[package] = valuePath
            }
        }
        return found
    }
}
