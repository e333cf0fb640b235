import CFileSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
    /// A file that could not be written, with the reason in words.
    package struct WriteError: Error, CustomStringConvertible {
        /// What failed and why.
        package let description: String
    }

    /// Writes `bytes` to `path` (mode 0600) through a new temporary file beside it, flushed and renamed over
    /// it in one step: a crash or a full disk leaves the old file or none, never half of the new one.
    package static func replaceFile(at path: String, with bytes: [UInt8]) throws(WriteError) {
        let slash = path.lastIndex(of: "/")
        let folderPath = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty, name != ".", name != ".." else { throw WriteError(description: "\(path) names a folder, not a file") }
        let folder = cfs_open_folder(cfs_working_directory(), folderPath, 0, 1)
        guard folder >= 0 else { throw WriteError(description: "cannot open the folder \(folderPath): \(lastWriteError())") }
        defer { close(folder) }
        let temporary = ".\(name).tmp"
        let result = bytes.withUnsafeBytes { cfs_replace_file(folder, name, temporary, $0.baseAddress, $0.count) }
        guard result != 0 else { return }
        let why = lastWriteError()
        switch UInt32(-result) {
        case CFS_STEP_CREATE.rawValue: throw WriteError(description: "cannot create \(folderPath)/\(temporary): \(why)")
        case CFS_STEP_WRITE.rawValue: throw WriteError(description: "cannot write \(folderPath)/\(temporary): \(why)")
        case CFS_STEP_FLUSH.rawValue: throw WriteError(description: "cannot flush \(folderPath)/\(temporary) to disk: \(why)")
        default: throw WriteError(description: "cannot rename \(folderPath)/\(temporary) to \(path): \(why)")
        }
    }

    private static func lastWriteError() -> String {
        String(cString: strerror(errno)).lowercased()
    }
}
