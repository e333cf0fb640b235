import LinkHostFiles

/// `validate`'s checks of an ACME config beyond loading: hosts no public CA can reach, and a state folder
/// that `serve` could not write its keys to or that others could read them from.
public enum ACMELint {
    /// The names whose last label no public CA issues for (RFC 6761, RFC 8375 and common private suffixes).
    static let privateSuffixes = ["localhost", "local", "test", "example", "invalid", "internal", "lan", "home.arpa", "corp", "intranet"]

    /// Every finding for `config`; none when ACME is off.
    public static func diagnostics(_ config: Config) -> [LintDiagnostic] {
        guard let acme = config.server.acme else { return [] }
        var found: [LintDiagnostic] = []
        for (index, host) in acme.hosts.enumerated() {
            if let reason = unreachable(host) { found.append(warning(host, reason, at: "server.tls.acme.hosts[\(index)]")) }
        }
        for site in config.sites.dropFirst() {
            for (index, host) in site.hosts.enumerated() where !host.hasPrefix("*.") {
                if let reason = unreachable(host) { found.append(warning(host, reason, at: ConfigReader.join(site.path, "hosts[\(index)]"))) }
            }
        }
        if let problem = stateDirectoryProblem(acme.stateDirectory) { found.append(problem) }
        return found
    }

    /// Why a CA's validation servers cannot reach `host`, or nil when they may.
    static func unreachable(_ host: String) -> String? {
        let labels = host.split(separator: ".")
        if labels.count == 4, labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) {
            return "is an IP address; public CAs certify DNS names through HTTP-01 here"
        }
        if labels.count < 2 { return "is a single-label name that no public DNS resolves" }
        for suffix in privateSuffixes where host == suffix || host.hasSuffix("." + suffix) {
            return "ends in .\(suffix), a name no public DNS resolves, so no public CA can validate it (fine for a test CA such as Pebble)"
        }
        return nil
    }

    private static func warning(_ host: String, _ reason: String, at path: String) -> LintDiagnostic {
        LintDiagnostic(.lh118, .warning, path: path, "\"\(host)\" \(reason)")
    }

    /// The folder must exist or be creatable, be writable, deserve trust as `serve` checks it (an error
    /// where `serve` refuses to start), and keep its keys from other users.
    static func stateDirectoryProblem(_ folder: String) -> LintDiagnostic? {
        let path = "server.tls.acme.stateDirectory"
        if FileSystem.exists(folder) {
            guard FileSystem.isDirectory(folder) else { return LintDiagnostic(.lh119, .error, path: path, "\"\(folder)\" is a file, not a folder") }
            guard FileSystem.isWritable(folder) else {
                return LintDiagnostic(.lh119, .error, path: path, "\"\(folder)\" cannot be written by this user, so no certificate could be stored")
            }
            do throws(TrustedFolder.Problem) {
                try TrustedFolder.open(folder, create: false).checkSubfolders()
            } catch {
                return LintDiagnostic(.lh119, .error, path: path, "serve refuses to keep private keys here: \(error)")
            }
            if let mode = FileSystem.permissions(folder), mode & 0o077 != 0 {
                return LintDiagnostic(.lh119, .warning, path: path, "\"\(folder)\" is open to other users (mode \(String(mode & 0o777, radix: 8))); it holds private keys, so make it 700")
            }
            return nil
        }
        // The nearest existing ancestor decides whether serve can create it.
        var ancestor = folder
        while true {
            let parent = ancestor.contains("/") ? String(ancestor[..<ancestor.lastIndex(of: "/")!]) : "."
            ancestor = parent.isEmpty ? "/" : parent
            if FileSystem.exists(ancestor) || ancestor == "/" || ancestor == "." { break }
        }
        if FileSystem.exists(ancestor), !FileSystem.isDirectory(ancestor) {
            return LintDiagnostic(.lh119, .error, path: path, "\"\(folder)\" cannot be created: \"\(ancestor)\" is a file")
        }
        guard FileSystem.isWritable(ancestor) else {
            return LintDiagnostic(.lh119, .error, path: path, "\"\(folder)\" does not exist and cannot be created (\"\(ancestor)\" is not writable)")
        }
        do throws(TrustedFolder.Problem) {
            try TrustedFolder.checkAncestors(ofMissing: folder, existingAncestor: ancestor)
        } catch {
            return LintDiagnostic(.lh119, .error, path: path, "serve refuses to keep private keys here: \(error)")
        }
        return nil
    }
}
