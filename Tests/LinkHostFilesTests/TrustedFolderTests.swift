import Foundation
import Testing
@testable import LinkHostFiles

#if canImport(Glibc)
import Glibc
#endif

@Suite("Trusted folders and careful reads")
struct TrustedFolderTests {
    /// A fresh folder with exactly `mode` under the system's temporary folder (sticky, so it is a fine parent).
    private func makeFolder(mode: mode_t = 0o700) throws -> String {
        let path = NSTemporaryDirectory() + "linkhost-trust-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        try #require(chmod(path, mode) == 0)
        return path
    }

    /// What `body` threw, in words; nil when it threw nothing.
    private func problem(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return "\(error)" }
    }

    @Test("a folder of this user's that no one else may write is trusted; group- or world-writable ones are not")
    func ownership() throws {
        let good = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: good) }
        #expect(problem { _ = try TrustedFolder.open(good, create: false) } == nil)
        for mode: mode_t in [0o770, 0o702, 0o777] {
            try #require(chmod(good, mode) == 0)
            let found = problem { _ = try TrustedFolder.open(good, create: false) }
            #expect(found?.contains("chmod 700 \(good)") == true, "mode \(String(mode, radix: 8)): \(found ?? "trusted")")
        }
    }

    // Only root can give a folder away (chown).
    @Test("a folder of another user's is not trusted, nor one below a parent of another user's, nor a subfolder of another user's",
          .enabled(if: geteuid() == 0))
    func otherOwners() throws {
        let user = geteuid()
        let other: uid_t = user == 65534 ? 65533 : 65534
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/inner", withIntermediateDirectories: false)
        try #require(chmod(folder + "/inner", 0o700) == 0)
        try #require(chown(folder, other, other) == 0)
        let found = problem { _ = try TrustedFolder.open(folder, create: false) }
        #expect(found?.contains("belongs to user \(other), not to user \(user)") == true && found?.contains("chown \(user) \(folder)") == true, "\(found ?? "trusted")")
        let below = problem { _ = try TrustedFolder.open(folder + "/inner", create: false) }
        #expect(below?.contains("\(folder), a folder above \(folder)/inner, belongs to user \(other)") == true, "\(below ?? "trusted")")
        try #require(chown(folder, user, user) == 0)
        #expect(problem { try TrustedFolder.open(folder, create: false).checkSubfolders() } == nil)
        try #require(chown(folder + "/inner", other, other) == 0)
        let inner = problem { try TrustedFolder.open(folder, create: false).checkSubfolders() }
        #expect(inner?.contains("the folder \(folder)/inner belongs to user \(other)") == true, "\(inner ?? "trusted")")
    }

    @Test("a folder below a world-writable parent without the sticky bit is not trusted")
    func ancestors() throws {
        let parent = try makeFolder(mode: 0o777)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let found = problem { _ = try TrustedFolder.open(parent + "/state", create: true) }
        #expect(found?.contains("\(parent), a folder above \(parent)/state, is writable by its group and others") == true, "\(found ?? "trusted")")
        let missing = problem { try TrustedFolder.checkAncestors(ofMissing: parent + "/new/state", existingAncestor: parent) }
        #expect(missing?.contains("\(parent), a folder above \(parent)/new/state, is writable by its group and others") == true, "\(missing ?? "trusted")")
        try #require(chmod(parent, 0o1777) == 0)
        #expect(problem { _ = try TrustedFolder.open(parent + "/state", create: true) } == nil)
        #expect(problem { try TrustedFolder.checkAncestors(ofMissing: parent + "/new/state", existingAncestor: parent) } == nil)
    }

    @Test("a subfolder is never reached through a link, and a weak one is refused by checkSubfolders")
    func subfolders() throws {
        let state = try makeFolder()
        let elsewhere = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: state); try? FileManager.default.removeItem(atPath: elsewhere) }
        try FileManager.default.createSymbolicLink(atPath: state + "/ca", withDestinationPath: elsewhere)
        let folder = try TrustedFolder.open(state, create: false)
        #expect(problem { _ = try folder.subfolder("ca", create: true) }?.contains("is a symbolic link, not a folder") == true)
        #expect(problem { try folder.checkSubfolders() }?.contains("is a symbolic link") == true)
        try FileManager.default.removeItem(atPath: state + "/ca")
        try FileManager.default.createDirectory(atPath: state + "/ca", withIntermediateDirectories: false)
        try #require(chmod(state + "/ca", 0o775) == 0)
        #expect(problem { try folder.checkSubfolders() }?.contains("chmod 700 \(state)/ca") == true)
    }

    @Test("replace never opens a planted temporary entry: the link's target stays, the file is new, 0600")
    func replaceIgnoresPlantedLink() throws {
        let state = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let victim = state + "-victim"
        try "victim".write(toFile: victim, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: victim) }
        try FileManager.default.createSymbolicLink(atPath: state + "/key.pem.tmp", withDestinationPath: victim)
        let folder = try TrustedFolder.open(state, create: false)
        try folder.replace("key.pem", with: Array("secret".utf8))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "victim")
        #expect(try String(contentsOfFile: state + "/key.pem", encoding: .utf8) == "secret")
        #expect(try FileManager.default.attributesOfItem(atPath: state + "/key.pem")[.posixPermissions] as? Int == 0o600)
        #expect(try folder.read("key.pem", maximumSize: 100) == Array("secret".utf8))
        #expect(try folder.read("missing.pem", maximumSize: 100) == nil)
        try FileManager.default.createSymbolicLink(atPath: state + "/linked.pem", withDestinationPath: victim)
        #expect(throws: FileSystem.ReadError.self) { try folder.read("linked.pem", maximumSize: 100) }
    }

    @Test("readFile refuses a FIFO at once and a file over the limit before reading it")
    func careful() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(mkfifo(folder + "/pipe", 0o600) == 0)
        do {
            _ = try FileSystem.readFile(folder + "/pipe")
            Issue.record("a FIFO was read")
        } catch {
            #expect(error.description == "is a FIFO (named pipe), not a regular file; only regular files are read")
        }
        try #require(FileManager.default.createFile(atPath: folder + "/sparse", contents: nil))
        try #require(truncate(folder + "/sparse", 1 << 30) == 0)
        do {
            _ = try FileSystem.readFile(folder + "/sparse", maximumSize: 1 << 20)
            Issue.record("a file over the limit was read")
        } catch {
            #expect(error.tooLarge && error.description == "is 1073741824 bytes, more than the 1 MiB read here")
        }
        try Data("small".utf8).write(to: URL(fileURLWithPath: folder + "/small"))
        #expect(try FileSystem.readFile(folder + "/small", maximumSize: 5) == Array("small".utf8))
        #expect(throws: FileSystem.ReadError.self) { try FileSystem.readFile(folder + "/small", maximumSize: 4) }
    }
}
