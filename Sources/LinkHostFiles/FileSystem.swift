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

    /// True when this process may write to `path` (a folder: create files in it).
    package static func isWritable(_ path: String) -> Bool {
        access(path, W_OK) == 0
    }

    /// The permission bits of `path` (e.g. 0o700), following symbolic links; nil when it does not exist.
    package static func permissions(_ path: String) -> Int? {
        mode(path).map { Int($0 & 0o7777) }
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

    /// Reads a whole regular file.
    package static func readFile(_ path: String) throws(ReadError) -> [UInt8] {
        guard exists(path) else {
            throw ReadError(path: path, reason: "no such file")
        }
        if isDirectory(path) { throw ReadError(path: path, reason: "is a folder, not a file") }
        guard access(path, R_OK) == 0 else {
            throw ReadError(path: path, reason: "permission denied")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        // The system's reason matters: "too many open files" calls for a different fix than a bad path.
        guard descriptor >= 0 else { throw ReadError(path: path, reason: "cannot be read (\(lastError()))") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(path: path, reason: "cannot be read (\(lastError()))")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
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
