import LinkHostFiles

/// Files whose permissions give linkhost away: a config others may change (it decides what is served and
/// where keys are kept) and private keys others may read (they can then impersonate the site). Reported
/// by `validate` and, as warnings, by `serve` at start; neither stops anything, as the files may be
/// deliberately shared on a machine of one user.
public enum FilePermissionLint {
    /// The finding for the config file at `path` when others may change it.
    public static func configFileDiagnostics(path: String) -> [LintDiagnostic] {
        guard let mode = FileSystem.permissions(path), mode & 0o022 != 0 else { return [] }
        return [LintDiagnostic(.lh120, .warning, path: "", "the config file \"\(path)\" is writable by \(FileSystem.whoMay(mode, write: true)) (mode \(octal(mode))); whoever can change it decides what linkhost serves and where it keeps its keys: chmod go-w \(path)")]
    }

    /// Every finding for the keys `config` names (`server.tls.privateKeyFile`) or keeps (the ACME store).
    public static func keyDiagnostics(_ config: Config) -> [LintDiagnostic] {
        var found: [LintDiagnostic] = []
        if let key = config.server.tls?.privateKeyFile, let problem = readableKey(key) {
            found.append(LintDiagnostic(.lh120, .warning, path: "server.tls.privateKeyFile", problem))
        }
        if let acme = config.server.acme, FileSystem.isDirectory(acme.storeFolder) {
            for name in (FileSystem.contentsOfDirectory(acme.storeFolder) ?? []).sorted() where name.hasSuffix(".pem") {
                if let problem = readableKey(acme.storeFolder + "/" + name) {
                    found.append(LintDiagnostic(.lh120, .warning, path: "server.tls.acme.stateDirectory", problem))
                }
            }
        }
        return found
    }

    /// Why the key file at `path` is open to others, or nil when it is not (or does not exist).
    static func readableKey(_ path: String) -> String? {
        guard let mode = FileSystem.permissions(path), mode & 0o044 != 0 else { return nil }
        return "the private key \"\(path)\" is readable by \(FileSystem.whoMay(mode, write: false)) (mode \(octal(mode))); anyone who reads it can impersonate the site: chmod 600 \(path)"
    }

    private static func octal(_ mode: Int) -> String { String(mode & 0o777, radix: 8) }
}
