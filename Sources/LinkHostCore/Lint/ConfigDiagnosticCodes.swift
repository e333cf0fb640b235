/// Gives the config loader's diagnostics their stable codes.
///
/// The loader words its findings for people and locates them by JSON path; the code follows from the
/// path (which field) and the shape of the finding (wrong type, unknown key, …). Classifying here keeps
/// `ConfigDiagnostic` and its many call sites unchanged; the table-driven tests pin every mapping, so a
/// reworded loader message that would change a code fails a test rather than CI configurations.
enum ConfigDiagnosticCodes {
    /// The code of one loader or site diagnostic.
    static func code(for diagnostic: ConfigDiagnostic) -> LintCode {
        let path = diagnostic.path
        let message = diagnostic.message
        if path.isEmpty && (message.hasPrefix("not valid JSON") || message.hasPrefix("cannot read")) { return .lh100 }
        if message.hasPrefix("unknown key") { return path.hasPrefix("aasa.defaults.") ? .lh111 : .lh106 }
        if message.hasPrefix("appears twice") { return .lh107 }
        if message.hasPrefix("missing;") { return .lh108 }
        if message.contains("cannot be expressed in the") || message.contains("format needs one for every rule") { return .lh112 }
        if path.hasPrefix("aasa.defaults") { return .lh111 }
        if path.hasPrefix("aasa.substitutionVariables") { return .lh206 }
        if message.contains("is already listed at") { return path.hasPrefix("android") ? .lh404 : .lh104 }
        if path.hasPrefix("static.root") && diagnostic.severity == .warning { return .lh305 }
        if message.hasPrefix("found ") { return .lh105 }
        let field = lastKey(of: path)
        switch field {
        case "teamID": return .lh101
        case "bundleID": return .lh102
        case "packageName": return .lh401
        case "sha256CertFingerprints": return message.contains("is listed twice") ? .lh404 : .lh402
        default: break
        }
        if ["aasa.webcredentials", "aasa.appclips", "aasa.activitycontinuation"].contains(where: path.hasPrefix),
           message.contains("is not an app ID") {
            return .lh103
        }
        if path == "aasa.rules" && diagnostic.severity == .warning { return .lh208 }
        if path.hasPrefix("aasa.rules[") { return .lh209 }
        if path == "aasa" && message.contains("more than Apple's limit") { return .lh110 }
        if path.hasPrefix("callLinks.template") || path.hasPrefix("static.root") { return .lh114 }
        if path == "callLinks.previewImage" && message.contains("is not a file in") { return .lh114 }
        return .lh109
    }

    /// A loader diagnostic as a lint diagnostic.
    static func diagnostic(_ diagnostic: ConfigDiagnostic) -> LintDiagnostic {
        LintDiagnostic(code(for: diagnostic), diagnostic.severity, path: diagnostic.path, diagnostic.message)
    }

    /// The last member name of a path, ignoring array indices: `android[0].sha256CertFingerprints[1]` → `sha256CertFingerprints`.
    private static func lastKey(of path: String) -> String {
        var last = Substring(path.split(separator: ".").last ?? "")
        if let bracket = last.firstIndex(of: "[") { last = last[..<bracket] }
        return String(last)
    }
}
