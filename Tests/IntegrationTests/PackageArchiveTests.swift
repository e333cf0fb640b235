import Foundation
import Testing

/// Issue 40, item 5: `make package`'s archive names root (0:0) as the owner of every file, whoever built them: the
/// README's recipe unpacks it as root, and GNU tar run as root keeps the owners an archive names.
@Suite("make package")
struct PackageArchiveTests {
    @Test("the archive of files owned by another user lists every entry as 0/0",
          skipsOutsideCI(unless: getuid() == 0, "needs root to give the packed files another owner"))
    func rootOwnsEverything() async throws {
        let root = SiteFixture.repositoryRoot
        let folder = NSTemporaryDirectory() + "linkhost-package-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for item in ["public", "deploy"] { try FileManager.default.copyItem(atPath: root + "/" + item, toPath: folder + "/" + item) }
        try FileManager.default.copyItem(atPath: try LinkHostCLI.binaryPath(), toPath: folder + "/linkhost")
        // The files of a build user's checkout: another owner than the root that unpacks them.
        let chown = try await runTool("chown", ["-R", "4321:4321", folder])
        try #require(chown.status == 0, "\(chown)")
        // The release target counts as made (-o), as in the recipes' stand-in: the rule under test is the archive's.
        let made = try await runTool("make", ["-C", root, "-o", "release", "package", "PACKAGE_BINARY=\(folder)/linkhost", "PACKAGE_FROM=\(folder)",
                                              "PACKAGE_OUT=\(folder)/linkhost.tar.gz"], timeout: .seconds(60))
        try #require(made.status == 0, "\(made)")
        let listed = try await runTool("tar", ["--numeric-owner", "-tvzf", folder + "/linkhost.tar.gz"])
        let entries = listed.stdout.split(separator: "\n")
        #expect(entries.contains { $0.hasSuffix(" linkhost") } && entries.contains { $0.hasSuffix(" deploy/linkhost-https.service") } && entries.contains { $0.hasSuffix(" public/call.html") }, "\(listed.stdout)")
        let notRoot = entries.filter { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first != "0/0" }
        #expect(notRoot.isEmpty, "entries not owned by 0/0:\n\(notRoot.prefix(5).joined(separator: "\n"))")
    }
}
