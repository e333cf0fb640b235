/// Who `serve` runs as when a systemd unit starts it, and which folders systemd makes for it: what
/// `validate --env-file UNIT` reads from the unit (`User=`, `DynamicUser=`, `StateDirectory=`,
/// `StateDirectoryMode=`; systemd.exec(5)), so a shell's check judges the ACME state folder as the service
/// will find it rather than as the shell's user.
public struct ServiceAccount: Sendable, Equatable {
    /// The user a unit's processes run as.
    public enum User: Sendable, Equatable {
        /// Neither `User=` nor `DynamicUser=`: root.
        case root
        /// `User=NAME` (a name or a number) without `DynamicUser=`.
        case named(String)
        /// `DynamicUser=yes`: a user systemd allocates at each start (UID 61184–65519), which owns only the
        /// folders systemd makes for the service.
        case dynamic
    }

    /// The unit file the account was read from, for messages.
    public var unit: String
    /// Who the service runs as.
    public var user: User
    /// `StateDirectory=` as the service sees it: `/var/lib/NAME` for each name.
    public var stateDirectories: [String]
    /// `StateDirectoryMode=`, which systemd gives each of them at every start (its default is 0755).
    public var stateDirectoryMode: Int

    /// An account read from `unit`.
    public init(unit: String, user: User, stateDirectories: [String] = [], stateDirectoryMode: Int = 0o755) {
        self.unit = unit
        self.user = user
        self.stateDirectories = stateDirectories
        self.stateDirectoryMode = stateDirectoryMode
    }

    /// The state directory that holds `folder` (or is it), as written or as its links resolve: with
    /// `DynamicUser=` systemd keeps `/var/lib/NAME` in `/var/lib/private/NAME` and links it (systemd.exec(5),
    /// "StateDirectory="). Nil when the folder is none of systemd's.
    public func stateDirectory(holding folder: String, resolved: String) -> String? {
        stateDirectories.first { directory in
            let names = [directory, directory.replacing("/var/lib/", with: "/var/lib/private/", maxReplacements: 1)]
            return [folder, resolved].contains { path in names.contains { path == $0 || path.hasPrefix($0 + "/") } }
        }
    }

    /// How the unit names its user, for messages: `User=linkhost`, `DynamicUser=yes`, or root.
    public var userText: String {
        switch user {
        case .root: return "root (the unit sets no User=)"
        case .named(let name): return "User=\(name)"
        case .dynamic: return "DynamicUser=yes"
        }
    }
}
