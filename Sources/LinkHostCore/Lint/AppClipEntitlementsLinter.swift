/// Compares an App Clip target's `.entitlements` with the config: every exact host of the sites whose AASA
/// lists the clip needs its `appclips:` entry (LH702), an `appclips:` entry for a host where no AASA lists
/// the clip leads nowhere (LH703), and a wildcard is not Apple's format for `appclips:` (LH701).
public enum AppClipEntitlementsLinter {
    /// Lints the clip's `.entitlements` (or the fragment `print entitlements --app CLIP` writes) against
    /// `served`, the hosts chosen for the clip (`ServedHosts.chosen(_:kind: .appClip, config:)`).
    public static func lint(entitlements bytes: [UInt8], source: String, served: ServedHosts) -> LintReport {
        switch EntitlementsFile.read(bytes) {
        case .failure(let problem): return LintReport(source: source, diagnostics: [problem])
        case .success(let file): return LintReport(source: source, diagnostics: file.problems + diagnostics(file, served: served))
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
}
