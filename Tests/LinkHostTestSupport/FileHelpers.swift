import Foundation

/// Creates a folder and its parents.
public func createFolder(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
}

/// Writes text to a file.
public func writeFile(_ path: String, _ contents: String) throws {
    try contents.write(toFile: path, atomically: true, encoding: .utf8)
}

/// Removes a file or folder tree, ignoring absence.
public func removeItem(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

/// The text of a golden file beside the tests.
public func golden(_ name: String, file: String = #filePath) throws -> String {
    let folder = String(file[..<file.lastIndex(of: "/")!])
    return try String(contentsOfFile: folder + "/Golden/" + name, encoding: .utf8)
}
