import CFileSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations linkhost needs, with errors worded for people.
///
/// Plain POSIX calls rather than Foundation's FileManager: this is all linkhost ever asks of the file
/// system, and leaving Foundation out keeps it out of the release binary (3.6 MB of code; 2.4 MB less
/// resident at start). Buffers are Swift arrays handed to libc by `&`; the folder listing, whose names
/// `readdir` keeps in its own storage, is copied out by the CFileSystem shim, so no pointer is read here.
package enum FileSystem {
    /// A file that could not be read, with the reason in words.
    package struct ReadError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        /// The file does not exist.
        package var missing = false
        /// The file is larger than the reader's limit (nothing of it was read).
        package var tooLarge = false
        package var description: String { reason }
    }

    /// True when `path` names a folder (following symbolic links).
    package static func isDirectory(_ path: String) -> Bool {
        mode(path).map { $0 & S_IFMT == S_IFDIR } ?? false
    }

    /// True when something exists at `path` (following symbolic links).
    package static func exists(_ path: String) -> Bool {
        mode(path) != nil
    }

    /// True unless `path` is certainly absent: nothing by that name (`ENOENT`), symbolic links not followed,
    /// so a dangling link or a folder that cannot be searched counts as something there.
    package static func hasEntry(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 || errno != ENOENT
    }

    /// The size in bytes of what `path` names (following symbolic links); nil when it does not exist.
    package static func size(_ path: String) -> Int? {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : nil
    }

    /// True when this process may write to `path` (a folder: create files in it).
    package static func isWritable(_ path: String) -> Bool {
        access(path, W_OK) == 0
    }

    /// The permission bits of `path` (e.g. 0o700), following symbolic links; nil when it does not exist.
    package static func permissions(_ path: String) -> Int? {
        mode(path).map { Int($0 & 0o7777) }
    }

    /// "its group", "others" or "its group and others": who besides the owner may write (or read) a file
    /// with permission bits `mode`, for messages.
    package static func whoMay(_ mode: Int, write: Bool) -> String {
        let (group, other) = write ? (0o020, 0o002) : (0o040, 0o004)
        switch (mode & group != 0, mode & other != 0) {
        case (true, true): return "its group and others"
        case (true, false): return "its group"
        default: return "others"
        }
    }

    /// The names in a folder, without `.` and `..`, in no particular order; nil when it cannot be listed.
    package static func contentsOfDirectory(_ path: String) -> [String]? {
        var capacity = 16_384
        // Twice at most as a rule: the first answer says how large the buffer must be; a folder growing
        // in between only asks again.
        for _ in 0..<4 {
            var buffer = [CChar](repeating: 0, count: capacity)
            var needed = 0
            let written = cfs_directory_names(path, &buffer, buffer.count, &needed)
            if written == -1 { return nil }
            if written == -2 { capacity = needed + 1_024; continue }
            return buffer[..<Int(written)].split(separator: 0, omittingEmptySubsequences: true).map {
                String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        return nil
    }

    /// The working directory, or "." when it cannot be read.
    package static var currentDirectory: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return text(buffer)
    }

    /// The absolute path of `path` with symbolic links, `.` and `..` resolved; for a path that does not
    /// exist, the absolute path as written.
    package static func resolvingSymlinks(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(absolute, &buffer) != nil else { return absolute }
        return text(buffer)
    }

    /// The text before the first NUL of a C string buffer.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Largest file `readFile` reads unless told otherwise: far above any config, template or key, and a
    /// bound on what one mistaken path (a disk image, a log) can make a load allocate.
    package static let defaultMaximumFileSize = 64 * 1024 * 1024

    /// Reads a whole regular file of at most `maximumSize` bytes.
    ///
    /// The file is opened without blocking and checked with `fstat` before a byte is read: a FIFO would
    /// block the reading thread until a writer came (forever, for a reload), a device or a socket has no end,
    /// and a huge (even sparse) file would be read whole before any size check after the fact.
    ///
    /// `acceptingStreams` lets a FIFO, socket or character device through (still held to the limit) for a
    /// file a person names on the command line, such as `validate --aasa <(curl …)`; never at load.
    package static func readFile(_ path: String, maximumSize: Int = defaultMaximumFileSize, acceptingStreams: Bool = false) throws(ReadError) -> [UInt8] {
        try readFile(in: cfs_working_directory(), path, shownAs: path, following: true, maximumSize: maximumSize, acceptingStreams: acceptingStreams)
    }

    /// `readFile` relative to the open folder `folder`, following a final symbolic link only when `following`.
    package static func readFile(in folder: Int32, _ name: String, shownAs path: String, following: Bool, maximumSize: Int,
                                 acceptingStreams: Bool = false) throws(ReadError) -> [UInt8] {
        var facts = cfs_file_facts()
        // A stream a person named is opened as a shell would, waiting for its writer.
        let descriptor = cfs_open_for_reading(folder, name, following ? 1 : 0, acceptingStreams ? 1 : 0, &facts)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: throw ReadError(path: path, reason: "no such file", missing: true)
            case EACCES: throw ReadError(path: path, reason: "permission denied")
            case ELOOP where !following: throw ReadError(path: path, reason: "is reached through a symbolic link, which is not followed here")
            // The system's reason matters: "too many open files" calls for a different fix than a bad path.
            default: throw ReadError(path: path, reason: "cannot be read (\(lastError()))")
            }
        }
        defer { close(descriptor) }
        let isStream = [CFS_FIFO, CFS_SOCKET, CFS_DEVICE].contains { facts.kind == Int32($0.rawValue) }
        guard facts.kind == Int32(CFS_REGULAR.rawValue) || (acceptingStreams && isStream) else {
            throw ReadError(path: path, reason: facts.kind == Int32(CFS_DIRECTORY.rawValue) ? "is a folder, not a file" : "is \(kindName(facts.kind)), not a regular file; only regular files are read")
        }
        guard facts.size <= maximumSize else {
            throw ReadError(path: path, reason: "is \(facts.size) bytes, more than the \(sizeText(maximumSize)) read here", tooLarge: true)
        }
        var bytes: [UInt8] = []
        if !isStream { bytes.reserveCapacity(Int(facts.size)) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(path: path, reason: "cannot be read (\(lastError()))")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            // A file growing after fstat is still held to the limit.
            if bytes.count > maximumSize {
                throw ReadError(path: path, reason: "grew past the \(sizeText(maximumSize)) read here while it was read", tooLarge: true)
            }
        }
    }

    /// Reads the regular file at `path` without following any symbolic link put in its way while it is read.
    ///
    /// The path is resolved once (the links the operator wrote, such as a Kubernetes `..data` link or
    /// certbot's `live/` links, are followed here); with `folder` given, the result must lie inside that
    /// folder (resolved too), so a link someone with write access to it planted cannot lead the read to a
    /// file elsewhere (a template or locale file swapped for a link to a private key). The resolved path is
    /// then opened one component at a time with O_NOFOLLOW, and what was opened is checked with fstat
    /// (a regular file, at most `maximumSize` bytes): a link renamed into place after the resolution fails
    /// the read instead of being followed.
    package static func readFileWithoutLinks(_ path: String, inside folder: String? = nil,
                                             maximumSize: Int = defaultMaximumFileSize) throws(ReadError) -> [UInt8] {
        let resolved = resolvingSymlinks(path)
        if let folder, !isInside(resolved, resolvingSymlinks(folder)) {
            throw ReadError(path: path, reason: "leads out of \(folder) through a symbolic link; links are followed only inside that folder, so name the file itself")
        }
        return try readFile(in: cfs_working_directory(), resolved, shownAs: path, following: false, maximumSize: maximumSize)
    }

    /// The folder part of `path` ("." for a bare name, "/" for a file at the root).
    package static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// True when the resolved path `path` is `folder` or lies below it.
    package static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }


    /// "a FIFO (named pipe)": a file kind in words, for errors.
    static func kindName(_ kind: Int32) -> String {
        switch UInt32(kind) {
        case CFS_FIFO.rawValue: return "a FIFO (named pipe)"
        case CFS_SOCKET.rawValue: return "a socket"
        case CFS_DEVICE.rawValue: return "a device"
        case CFS_SYMLINK.rawValue: return "a symbolic link"
        case CFS_DIRECTORY.rawValue: return "a folder"
        case CFS_REGULAR.rawValue: return "a file"
        default: return "a special file"
        }
    }

    /// "16 MiB" or "1000 bytes".
    static func sizeText(_ bytes: Int) -> String {
        bytes >= 1_048_576 && bytes % 1_048_576 == 0 ? "\(bytes / 1_048_576) MiB" : "\(bytes) bytes"
    }

    /// The file type and permission bits of `path`, following symbolic links.
    private static func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode : nil
    }

    private static func lastError() -> String {
        String(cString: strerror(errno)).lowercased()
    }
}
