/// Compares an App Clip target's `.entitlements` with the config: every exact host of the sites whose AASA
/// lists the clip needs its `appclips:` entry (LH702), an `appclips:` entry for a host where no AASA lists
/// the clip leads nowhere (LH703), a wildcard is not Apple's format for `appclips:` (LH701), and the clip
/// names its app in `com.apple.developer.parent-application-identifiers` (LH717 when missing or not one
/// entry, LH718 when it names another app).
public enum AppClipEntitlementsLinter {
    /// Lints the clip's `.entitlements` (or the fragment `print entitlements --app CLIP` writes) against
    /// `served`, the hosts chosen for the clip (`ServedHosts.chosen(_:kind: .appClip, config:)`).
    public static func lint(entitlements bytes: [UInt8], source: String, served: ServedHosts) -> LintReport {
        switch EntitlementsFile.read(bytes) {
        case .failure(let problem): return LintReport(source: source, diagnostics: [problem])
        case .success(let file): return LintReport(source: source, diagnostics: file.problems + diagnostics(file, served: served) + parentDiagnostics(file, served: served))
        }
    }

    /// The findings for a read file: missing hosts first, then the entries that lead nowhere.
    static func diagnostics(_ file: EntitlementsFile, served: ServedHosts) -> [LintDiagnostic] {
        let clip = served.app ?? "the App Clip"
        let written = file.domains.filter { $0.service == "appclips" }
        let expected = AppClipEntitlements.entries(for: served)
        var found: [LintDiagnostic] = []
        for entry in served.entries {
            let location = entry.site.hosts.isEmpty ? ConfigReader.join(entry.site.sections.callLinks, "baseURL") : ConfigReader.join(entry.site.path, "hosts")
            for host in entry.hosts where !host.hasPrefix("*.") && !written.contains(where: { $0.host == host }) {
                found.append(LintDiagnostic(.lh702, .error, path: location, "\(host) lists \(clip) under appclips in its AASA, but the entitlements have no appclips:\(host), so iOS shows no card and invokes no clip there"))
            }
        }
        for domain in written {
            let path = "\(EntitlementsGenerator.key)[\(domain.index)]"
            if domain.host.hasPrefix("*.") {
                found.append(LintDiagnostic(.lh701, .error, path: path, "\"\(domain.text)\" is a wildcard; appclips: takes a fully qualified domain only (Apple: no wildcard, slash, path or query)"))
            } else if !expected.contains("appclips:\(domain.host)") {
                found.append(LintDiagnostic(.lh703, .warning, path: path, "\"\(domain.text)\" names a domain whose AASA does not list \(clip) (\(served.hosts.joined(separator: ", "))), so iOS refuses the clip there"))
            }
        }
        return found
    }

    /// The findings on the clip's parent app: Apple asks for "exactly one entry, the corresponding app's
    /// application identifier", and a clip's identifier is its app's followed by a dot and a name.
    static func parentDiagnostics(_ file: EntitlementsFile, served: ServedHosts) -> [LintDiagnostic] {
        guard let clip = served.app else { return [] }
        let key = AppClipEntitlements.parentKey
        let parent = AppClipEntitlements.parent(for: served)
        let wanted = parent.map { "<array><string>\($0)</string></array>" } ?? "an array of the app's TEAMID.bundle.id"
        guard let value = file.parentApplicationIdentifiers else {
            return [LintDiagnostic(.lh717, .error, path: key, "missing: \(clip) does not name its app, which Apple requires of every App Clip (Xcode adds it to a clip target; linkhost print entitlements --app \(clip) writes it: \(wanted))")]
        }
        guard case .array(let items) = value, items.count == 1, case .string(let written) = items[0] else {
            return [LintDiagnostic(.lh717, .error, path: key, "is not an array of exactly one app ID, as Apple requires (an App Clip belongs to exactly one app): write \(wanted)")]
        }
        guard let named = resolved(written, clip: clip) else {
            return [LintDiagnostic(.lh701, .warning, path: "\(key)[0]", "\"\(written)\" uses a build setting other than $(AppIdentifierPrefix), which only Xcode can resolve; give the entitlements with their values (or a file per build configuration)")]
        }
        if let parent {
            guard named != parent else { return [] }
            return [LintDiagnostic(.lh718, .error, path: "\(key)[0]", "\"\(written)\" names \(named), but \(clip) is the App Clip of \(parent) (its ID is that app's, a dot and a name), so the clip is not tied to its app: write \(parent)")]
        }
        guard !AppClipEntitlements.isClip(clip, of: named) else { return [] }
        return [LintDiagnostic(.lh718, .error, path: "\(key)[0]", "\"\(written)\" names \(named), but an App Clip's ID is its app's ID, a dot and a name, and \(clip) does not start with \(named) and a dot: write the ID of the clip's app")]
    }

    /// The app ID `written` names once Xcode resolves it: `$(AppIdentifierPrefix)` (what Xcode writes) and
    /// `$(TeamIdentifierPrefix)` are the clip's team and a dot; nil for another build setting.
    static func resolved(_ written: String, clip: String) -> String? {
        let team = clip.prefix { $0 != "." }
        for prefix in ["$(AppIdentifierPrefix)", "$(TeamIdentifierPrefix)"] where written.hasPrefix(prefix) {
            let rest = written.dropFirst(prefix.count)
            return rest.contains("$(") ? nil : "\(team).\(rest)"
        }
        return written.contains("$(") ? nil : written
    }
}
