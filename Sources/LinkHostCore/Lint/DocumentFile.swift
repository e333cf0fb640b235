import LinkHostFiles
import LinkHostJSON

/// Reads the JSON files the command line names (`--aasa`, `--assetlinks`) with errors worded for people.
public enum DocumentFile {
    /// Why a file could not be used.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The stable code: LH100 for an unreadable file or one that is not JSON.
        public let code: LintCode
        /// What went wrong, naming the file.
        public let message: String
        /// The message.
        public var description: String { message }
    }

    /// The bytes of the file at `path`; `fromCommandLine` also reads a pipe or device a person named
    /// (`--aasa <(curl …)`), which a load must never block on. With `folder`, the file is read as
    /// `FileSystem.readFileWithoutLinks` reads it: links followed only inside that folder, none at read time.
    public static func bytes(at path: String, fromCommandLine: Bool = false, inside folder: String? = nil) -> Result<[UInt8], Failure> {
        do {
            if let folder { return .success(try FileSystem.readFileWithoutLinks(path, inside: folder)) }
            return .success(try FileSystem.readFile(path, acceptingStreams: fromCommandLine))
        } catch {
            return .failure(Failure(code: .lh100, message: "cannot read \(path): \(error)"))
        }
    }

    /// The parsed JSON of the file at `path` (`fromCommandLine` and `folder` as for `bytes`).
    public static func json(at path: String, fromCommandLine: Bool = false, inside folder: String? = nil) -> Result<JSONValue, Failure> {
        switch self.bytes(at: path, fromCommandLine: fromCommandLine, inside: folder) {
        case .success(let read): json(read, shownAs: path)
        case .failure(let failure): .failure(failure)
        }
    }

    /// `bytes` parsed as JSON, errors naming them `path` (a file built into linkhost, say).
    public static func json(_ bytes: [UInt8], shownAs path: String) -> Result<JSONValue, Failure> {
        do {
            return .success(try JSONParser.parse(bytes))
        } catch {
            return .failure(Failure(code: .lh100, message: "\(path) is not valid JSON at line \(error.line), column \(error.column): \(error.message)"))
        }
    }
}
