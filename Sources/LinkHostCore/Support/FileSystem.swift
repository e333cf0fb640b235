#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The few file operations linkhost needs, with errors worded for people.
package enum FileSystem {
    /// A file that could not be read, with the reason in words.
    package struct ReadError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        package var description: String { reason }
    }

    /// True when `path` names a folder (following symbolic links).
    package static func isDirectory(_ path: String) -> Bool {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.type] as? FileAttributeType) == .typeDirectory
            || (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil
    }

    /// Reads a whole regular file.
    package static func readFile(_ path: String) throws(ReadError) -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ReadError(path: path, reason: "no such file")
        }
        if isDirectory(path) { throw ReadError(path: path, reason: "is a folder, not a file") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ReadError(path: path, reason: "permission denied")
        }
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            // The system's reason matters: "too many open files" calls for a different fix than a bad path.
            throw ReadError(path: path, reason: "cannot be read (\(error))")
        }
    }
}
