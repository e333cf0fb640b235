import Foundation
import Testing
@testable import LinkHostFiles

@Suite("File system")
struct FileSystemTests {
    /// A fresh folder under the system's temporary folder, removed by the caller.
    private func makeFolder() throws -> String {
        let path = NSTemporaryDirectory() + "linkhost-files-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    /// Creates the file at `path` holding `contents` (empty when nil), failing the test when it cannot.
    private func write(_ path: String, _ contents: Data?) throws {
        try #require(FileManager.default.createFile(atPath: path, contents: contents))
    }

    @Test("a folder lists the names Foundation lists, without . and ..")
    func listsNames() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["a.json", "é.txt", ".hidden", "sub"] {
            try write(folder + "/" + name, Data("x".utf8))
        }
        let listed = try #require(FileSystem.contentsOfDirectory(folder))
        #expect(listed.sorted() == ["a.json", "é.txt", ".hidden", "sub"].sorted())
    }

    @Test("names larger than the first buffer are all listed")
    func listsLargeFolders() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 400 names of 200 bytes are 80 kB: five times the first buffer, so the retry path runs.
        let names = (0..<400).map { String(format: "%03d-", $0) + String(repeating: "n", count: 196) }
        for name in names { try write(folder + "/" + name, nil) }
        let listed = try #require(FileSystem.contentsOfDirectory(folder))
        #expect(listed.sorted() == names)
    }

    @Test("a missing folder or a file lists nothing")
    func refusesNonFolders() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(folder + "/file", Data("x".utf8))
        #expect(FileSystem.contentsOfDirectory(folder + "/missing") == nil)
        #expect(FileSystem.contentsOfDirectory(folder + "/file") == nil)
        #expect(FileSystem.contentsOfDirectory(folder) == ["file"])
    }

    @Test("a file reads back byte for byte; a folder or missing file says why")
    func readsFiles() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try write(folder + "/big", Data(bytes))
        #expect(try FileSystem.readFile(folder + "/big") == bytes)
        #expect(throws: FileSystem.ReadError.self) { try FileSystem.readFile(folder) }
        do {
            _ = try FileSystem.readFile(folder + "/missing")
            Issue.record("a missing file was read")
        } catch {
            #expect(error.description == "no such file")
        }
    }
}
