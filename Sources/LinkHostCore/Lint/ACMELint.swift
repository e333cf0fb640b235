import LinkHostFiles

/// `validate`'s checks of an ACME config beyond loading: hosts no public CA can reach, and a state folder
/// that `serve` could not write its keys to or that others could read them from.
public enum ACMELint {
    /// The names whose last label no public CA issues for (RFC 6761, RFC 8375 and common private suffixes).
    static let privateSuffixes = ["localhost", "local", "test", "example", "invalid", "internal", "lan", "home.arpa", "corp", "intranet"]

    /// Every finding for `config`; none when ACME is off. With `service` (`validate --env-file UNIT`) the state
    /// folder is judged for the user the unit runs as, and as systemd makes it (`ServiceStateFolder`).
    public static func diagnostics(_ config: Config, service: ServiceAccount? = nil) -> [LintDiagnostic] {
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
        let problem = service.map { ServiceStateFolder.problem(acme.stateDirectory, service: $0) } ?? stateDirectoryProblem(acme.stateDirectory)
        if let problem { found.append(problem) }
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
    /// where `serve` refuses to start), and keep its keys from other users. Judged for `user` (the one a
    /// unit runs the service as), or for this process's user when nil.
    static func stateDirectoryProblem(_ folder: String, user: UInt32? = nil) -> LintDiagnostic? {
        let path = "server.tls.acme.stateDirectory"
        let judged = user ?? FileSystem.effectiveUser
        let who = user.map { "user \($0)" } ?? "this user"
        if FileSystem.exists(folder) {
            guard FileSystem.isDirectory(folder) else { return LintDiagnostic(.lh119, .error, path: path, "\"\(folder)\" is a file, not a folder") }
            guard writable(folder, by: user) else {
                // For the service's user the fix is that user's; for this process's, what the operator decides.
                let fix = user.map { ": chown \($0) \(folder) && chmod 700 \(folder)" } ?? ""
                return LintDiagnostic(.lh119, .error, path: path, "\"\(folder)\" cannot be written by \(who), so no certificate could be stored\(fix)")
            }
            if user == nil, let owner = FileSystem.owner(folder), owner != judged {
                // A service's folder checked from a shell: a chown to the shell's user would take it from the service.
                return LintDiagnostic(.lh119, .error, path: path, "\"\(folder)\" belongs to user \(owner), not to user \(judged) that this validate runs as, "
                    + "so serve started by this user would refuse it. If linkhost runs as user \(owner) (a systemd unit's User= or DynamicUser=), check it as the service does: "
                    + "linkhost validate --env-file UNIT, or run validate as that user; change the owner only if serve really runs as user \(judged)")
            }
            do throws(TrustedFolder.Problem) {
                try TrustedFolder.open(folder, create: false, user: judged).checkSubfolders()
            } catch {
                return LintDiagnostic(.lh119, .error, path: path, "serve refuses to keep private keys here: \(error)")
            }
            if let mode = FileSystem.permissions(folder), mode & 0o077 != 0 {
                return LintDiagnostic(.lh119, .warning, path: path, "\"\(folder)\" is open to other users (mode \(String(mode & 0o777, radix: 8))); it holds private keys, so make it 700")
            }
            return nil
        }
        let ancestor = nearestExisting(above: folder)
        if FileSystem.exists(ancestor), !FileSystem.isDirectory(ancestor) {
            return LintDiagnostic(.lh119, .error, path: path, "\"\(folder)\" cannot be created: \"\(ancestor)\" is a file")
        }
        guard writable(ancestor, by: user) else {
            return LintDiagnostic(.lh119, .error, path: path, "\"\(folder)\" does not exist and cannot be created (\"\(ancestor)\" is not writable by \(who))")
        }
        do throws(TrustedFolder.Problem) {
            try TrustedFolder.checkAncestors(ofMissing: folder, existingAncestor: ancestor, user: judged)
        } catch {
            return LintDiagnostic(.lh119, .error, path: path, "serve refuses to keep private keys here: \(error)")
        }
        return nil
    }

    /// The nearest folder above `folder` that exists (serve creates the rest), or "/" or ".".
    static func nearestExisting(above folder: String) -> String {
        var ancestor = folder
        while true {
            let parent = ancestor.contains("/") ? String(ancestor[..<ancestor.lastIndex(of: "/")!]) : "."
            ancestor = parent.isEmpty ? "/" : parent
            if FileSystem.exists(ancestor) || ancestor == "/" || ancestor == "." { return ancestor }
        }
    }

    /// Whether `user` (nil: this process's) may create files in `folder`: asked of the system for this process;
    /// for another user, root or the owner with write permission (its groups are not known here).
    private static func writable(_ folder: String, by user: UInt32?) -> Bool {
        guard let user, user != FileSystem.effectiveUser else { return FileSystem.isWritable(folder) }
        let mode = FileSystem.permissions(folder) ?? 0
        return user == 0 || (FileSystem.owner(folder) == user && mode & 0o200 != 0) || mode & 0o002 != 0
    }
}
