import CFileSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder that holds private keys, open as a descriptor and trusted only when it deserves it.
///
/// The rule is OpenSSH's StrictModes: the folder must belong to the user linkhost runs as and be writable by
/// no one else, and every folder above it must belong to that user or root and be writable by no one else
/// (a sticky folder such as /tmp excepted: there others cannot rename what is ours). Otherwise someone else
/// can plant a symbolic link where linkhost writes a key, or swap the folder, and receive the key. Every
/// file is then reached relative to the checked descriptor (`openat`), never through a symbolic link, and
/// written by an exclusive create of a new temporary file renamed into place.
package final class TrustedFolder {
    /// Why a folder is not trusted or a file in it cannot be used, with the fix in words.
    package struct Problem: Error, CustomStringConvertible {
        /// The problem and its fix, naming the path.
        package let description: String
    }

    /// The folder's path, for messages.
    package let path: String
    /// The open folder; closed when this object goes away.
    package let descriptor: Int32
    /// The user the folder must belong to: the one linkhost runs as (or, for `validate --env-file`, will run as).
    package let user: UInt32

    private init(path: String, descriptor: Int32, user: UInt32) {
        self.path = path
        self.descriptor = descriptor
        self.user = user
    }

    deinit { close(descriptor) }

    /// Opens the folder at `path` (creating missing folders with mode 0700 when `create` is set), following
    /// the symbolic links its path holds (the operator wrote the path), then checks the folder and every
    /// folder above it as `user`'s (by default the one this process runs as).
    package static func open(_ path: String, create: Bool, user: UInt32 = cfs_effective_user()) throws(Problem) -> TrustedFolder {
        if create { try makeFolders(path) }
        let descriptor = cfs_open_folder(cfs_working_directory(), path, 0, 1)
        guard descriptor >= 0 else {
            let why = errno == ENOTDIR ? "is not a folder" : "cannot be opened (\(reason()))"
            throw Problem(description: "\(path) \(why)")
        }
        let folder = TrustedFolder(path: path, descriptor: descriptor, user: user)
        try folder.checkOwnership(what: "the folder \(path)")
        try checkAncestors(of: FileSystem.resolvingSymlinks(path), below: path, user: user)
        return folder
    }

    /// Checks the folders above `path`, which does not exist yet, as `open` will once it is created:
    /// `existingAncestor` (the nearest one that exists) and every folder above it, as `user`'s.
    package static func checkAncestors(ofMissing path: String, existingAncestor: String, user: UInt32 = cfs_effective_user()) throws(Problem) {
        try checkAncestors(of: FileSystem.resolvingSymlinks(existingAncestor) + "/-", below: path, user: user)
    }

    /// Opens the subfolder `name` (creating it with mode 0700 when `create` is set and it is missing), never
    /// through a symbolic link, and checks it as `open` checks its parent (`acceptingRoot`: or as root's).
    package func subfolder(_ name: String, create: Bool, acceptingRoot: Bool = false) throws(Problem) -> TrustedFolder {
        let shown = path + "/" + name
        let opened = cfs_open_folder(descriptor, name, create ? 1 : 0, 0)
        guard opened >= 0 else {
            var facts = cfs_file_facts()
            if errno == ELOOP || errno == ENOTDIR, cfs_facts_at(descriptor, name, &facts) == 0 {
                throw Problem(description: "\(shown) is \(FileSystem.kindName(facts.kind)), not a folder; linkhost makes its folders itself and never follows a link here: remove it")
            }
            throw Problem(description: "\(shown) cannot be opened (\(Self.reason()))")
        }
        let folder = TrustedFolder(path: shown, descriptor: opened, user: user)
        try folder.checkOwnership(what: "the folder \(shown)", acceptingRoot: acceptingRoot)
        return folder
    }

    /// Checks every entry of this folder that is a folder (or a symbolic link standing in for one) as
    /// `subfolder` would, so a weak folder is found before anything is written to it. A folder of root's
    /// passes too: root is trusted anyway, and a volume's own `lost+found` belongs to root.
    package func checkSubfolders() throws(Problem) {
        for name in FileSystem.contentsOfDirectory(path) ?? [] {
            var facts = cfs_file_facts()
            guard cfs_facts_at(descriptor, name, &facts) == 0 else { continue }
            if facts.kind == Int32(CFS_DIRECTORY.rawValue) || facts.kind == Int32(CFS_SYMLINK.rawValue) {
                _ = try subfolder(name, create: false, acceptingRoot: true)
            }
        }
    }

    /// The names in this folder whose entries are regular files, with their permission bits (not
    /// following links).
    package func files() -> [(name: String, mode: Int)] {
        (FileSystem.contentsOfDirectory(path) ?? []).sorted().compactMap { name in
            var facts = cfs_file_facts()
            guard cfs_facts_at(descriptor, name, &facts) == 0, facts.kind == Int32(CFS_REGULAR.rawValue) else { return nil }
            return (name, Int(facts.mode))
        }
    }

    /// The file `name`, at most `maximumSize` bytes, never through a symbolic link; nil when there is none.
    package func read(_ name: String, maximumSize: Int) throws(FileSystem.ReadError) -> [UInt8]? {
        do throws(FileSystem.ReadError) {
            return try FileSystem.readFile(in: descriptor, name, shownAs: path + "/" + name, following: false, maximumSize: maximumSize)
        } catch {
            if error.missing { return nil }
            throw error
        }
    }

    /// Replaces the file `name` with `bytes` (mode 0600) in one rename, through a new temporary file; flushed
    /// to disk with its folder unless `durable` is false (many files in a row, then `syncFileSystem` once).
    package func replace(_ name: String, with bytes: [UInt8], durable: Bool = true) throws(Problem) {
        let temporary = name + ".tmp"
        let result = bytes.withUnsafeBytes {
            durable ? cfs_replace_file(descriptor, name, temporary, $0.baseAddress, $0.count) : cfs_replace_file_unsynced(descriptor, name, temporary, $0.baseAddress, $0.count)
        }
        guard result != 0 else { return }
        let why = Self.reason()
        switch UInt32(-result) {
        case CFS_STEP_CREATE.rawValue: throw Problem(description: "cannot create \(path)/\(temporary): \(why)")
        case CFS_STEP_WRITE.rawValue: throw Problem(description: "cannot write \(path)/\(temporary): \(why)")
        case CFS_STEP_FLUSH.rawValue: throw Problem(description: "cannot flush \(path)/\(temporary) to disk: \(why)")
        default: throw Problem(description: "cannot rename \(path)/\(temporary) to \(name): \(why)")
        }
    }

    /// Flushes every file written to this folder's file system, once for many `replace(durable: false)`.
    package func syncFileSystem() throws(Problem) {
        guard cfs_sync_file_system(descriptor) == 0 else { throw Problem(description: "cannot flush \(path) to disk: \(Self.reason())") }
    }

    /// Removes the entry `name` (a link itself, never what it points to); nothing when there is none.
    package func remove(_ name: String) {
        unlinkat(descriptor, name, 0)
    }

    /// Opens (creating it when missing, mode 0600) the lock file `name`, never through a symbolic link;
    /// the caller closes the descriptor.
    package func openLock(_ name: String) throws(Problem) -> Int32 {
        let opened = cfs_open_lock(descriptor, name)
        guard opened >= 0 else { throw Problem(description: "cannot open the lock \(path)/\(name): \(Self.reason())") }
        return opened
    }

    /// The folder belongs to `user` and no one else may write to it.
    private func checkOwnership(what: String, acceptingRoot: Bool = false) throws(Problem) {
        var facts = cfs_file_facts()
        guard cfs_descriptor_facts(descriptor, &facts) == 0 else { throw Problem(description: "\(what) cannot be checked (\(Self.reason()))") }
        if facts.owner != user && !(acceptingRoot && facts.owner == 0) {
            throw Problem(description: "\(what) belongs to user \(facts.owner), not to user \(user) that linkhost runs as, so its owner could plant links that hand over the private keys: chown \(user) \(path) && chmod 700 \(path)")
        }
        if facts.mode & 0o022 != 0 {
            throw Problem(description: "\(what) is writable by \(FileSystem.whoMay(Int(facts.mode), write: true)) (mode \(String(facts.mode, radix: 8))), so they could plant links that hand over the private keys: chmod 700 \(path)")
        }
    }

    /// Every folder above `resolved` (which has no links left) belongs to root or `user` and is writable by
    /// no one else unless sticky.
    private static func checkAncestors(of resolved: String, below shown: String, user: UInt32) throws(Problem) {
        var ancestor = resolved
        while let slash = ancestor.lastIndex(of: "/"), ancestor != "/" {
            ancestor = slash == ancestor.startIndex ? "/" : String(ancestor[..<slash])
            var facts = cfs_file_facts()
            guard cfs_facts_at(cfs_working_directory(), ancestor, &facts) == 0 else { continue }
            if facts.owner != 0 && facts.owner != user {
                throw Problem(description: "\(ancestor), a folder above \(shown), belongs to user \(facts.owner), who could swap the folder for one of their own: use a folder whose parents belong to root or to user \(user)")
            }
            if facts.mode & 0o022 != 0 && facts.mode & 0o1000 == 0 {
                throw Problem(description: "\(ancestor), a folder above \(shown), is writable by \(FileSystem.whoMay(Int(facts.mode), write: true)) (mode \(String(facts.mode, radix: 8))), so they could swap the folder for one of their own: chmod go-w \(ancestor), or use another folder")
            }
        }
    }

    /// `mkdir -p` with mode 0700 for the parts that are missing.
    private static func makeFolders(_ path: String) throws(Problem) {
        var built = ""
        for (index, part) in path.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            built = index == 0 ? String(part) : built + "/" + part
            if part.isEmpty { continue }
            if mkdir(built, 0o700) != 0 && errno != EEXIST {
                throw Problem(description: "cannot create \(built): \(reason())")
            }
        }
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
