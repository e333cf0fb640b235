import LinkHostFiles

/// The ACME state folder as a systemd unit's service will find it, for `validate --env-file UNIT` run from a
/// shell (often as root, while the service runs as another user).
///
/// systemd.exec(5): a `StateDirectory=` folder is created at every start if missing, owned by the unit's
/// `User=` (its contents too, when the folder belonged to someone else) and given `StateDirectoryMode=`; with
/// `DynamicUser=yes` it lives in `/var/lib/private/NAME` (mode 0700, root's), linked from `/var/lib/NAME`,
/// owned by a user allocated at each start, which owns nothing else. So a started service's folder belongs to
/// another user than the shell's, and that is right: it is judged for the service's user, and no advice hands
/// it to the shell's user (which would stop renewals).
enum ServiceStateFolder {
    /// The key every finding names.
    static let path = "server.tls.acme.stateDirectory"

    /// What keeps `service` from keeping its keys in `folder`, or nil.
    static func problem(_ folder: String, service: ServiceAccount) -> LintDiagnostic? {
        if let directory = service.stateDirectory(holding: folder, resolved: FileSystem.resolvingSymlinks(folder)) {
            return managedProblem(folder, directory: directory, service: service)
        }
        switch service.user {
        case .dynamic:
            return LintDiagnostic(.lh119, .error, path: path, "\"\(folder)\" is not a StateDirectory= of \(service.unit), which runs with DynamicUser=yes: "
                + "its user exists only while the service runs and owns only the folders systemd makes for it (systemd.exec(5), DynamicUser=), so serve could not keep keys here; "
                + "leave stateDirectory out (the unit's default, \(service.stateDirectories.first ?? "/var/lib/linkhost")) or name a folder in it")
        case .root:
            return ACMELint.stateDirectoryProblem(folder, user: 0)
        case .named(let name):
            guard let user = FileSystem.userID(name) else {
                return LintDiagnostic(.lh119, .error, path: path, "\(service.unit) runs the service as User=\(name), which is no user on this machine (getent passwd \(name)): create the user, or judge the folder without --env-file")
            }
            return ACMELint.stateDirectoryProblem(folder, user: user)
        }
    }

    /// A folder systemd makes for the service (`directory`, or one inside it): its mode comes from the unit,
    /// its owner is the service's; what is inside is judged for that owner.
    private static func managedProblem(_ folder: String, directory: String, service: ServiceAccount) -> LintDiagnostic? {
        let mode = service.stateDirectoryMode
        if mode & 0o022 != 0 {
            return LintDiagnostic(.lh119, .error, path: path, "\(service.unit) makes \(directory) with StateDirectoryMode=\(String(mode, radix: 8)), writable by \(FileSystem.whoMay(mode, write: true)): "
                + "serve refuses to keep private keys there; set StateDirectoryMode=0700")
        }
        let open = mode & 0o077 != 0
            ? LintDiagnostic(.lh119, .warning, path: path, "\(service.unit) makes \(directory) with StateDirectoryMode=\(String(mode, radix: 8)), readable by \(FileSystem.whoMay(mode, write: false)); it holds private keys, so set StateDirectoryMode=0700")
            : nil
        // Not made yet (the service has not started): systemd makes it at the first start, serve the rest.
        guard let owner = FileSystem.owner(directory) else { return open }
        // Someone else's until the next start, when systemd gives it and all inside to User= (recursively).
        if case .named(let name) = service.user, let user = FileSystem.userID(name), user != owner { return open }
        return ACMELint.stateDirectoryProblem(folder, user: owner).flatMap { $0.severity == .error ? $0 : nil } ?? open
    }
}
