import CFileSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who owns files and who a process runs as: what `validate` needs to judge a key folder for the user a
/// service will run as rather than the shell's.
extension FileSystem {
    /// The user this process runs as (effective user ID).
    package static var effectiveUser: UInt32 { cfs_effective_user() }

    /// The owner of `path`, following symbolic links; nil when it does not exist.
    package static func owner(_ path: String) -> UInt32? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_uid : nil
    }

    /// The user ID `name` stands for: a number as it is, else the system's user database's entry; nil for
    /// a name no user has.
    package static func userID(_ name: String) -> UInt32? {
        if let number = UInt32(name) { return number }
        let found = cfs_user_id(name)
        return found >= 0 ? UInt32(found) : nil
    }
}
