import Foundation
import Synchronization
import Testing

/// Issue #30 (round four), item 2, against the real binary: a static file swapped for a symbolic link to a
/// file outside the folder, between the listing and the read of a reload, is never served.
@Suite("Hardening round four: files swapped while a reload reads them", .timeLimit(.minutes(2)))
struct HardeningRoundFourFileTests {
    /// Renames a link to the outside secret and a regular file over `public/aaa.txt` in turn, as fast as it
    /// can, until told to stop: whoever can write a tenant's static folder can do this during any reload.
    final class Swapper: Sendable {
        let stop = Mutex(false)
        let swaps = Mutex(0)
        let done = DispatchSemaphore(value: 0)

        func start(publicPath: String, secretPath: String) {
            Thread.detachNewThread { [self] in
                let target = publicPath + "/aaa.txt", link = publicPath + "/.swap-link", file = publicPath + "/.swap-file"
                while !stop.withLock({ $0 }) {
                    unlink(link)
                    symlink(secretPath, link)
                    rename(link, target)
                    _ = FileManager.default.createFile(atPath: file, contents: Data("public text\n".utf8))
                    rename(file, target)
                    swaps.withLock { $0 += 1 }
                }
                done.signal()
            }
        }

        func finish() {
            stop.withLock { $0 = true }
            done.wait()
        }
    }

    /// How many reloads have ended, either way.
    static func reloadsEnded(_ server: LinkHostProcess) -> (succeeded: Int, failed: Int) {
        let stderr = server.stderr
        return (stderr.components(separatedBy: "linkhost: reloaded ").count - 1, stderr.components(separatedBy: "reload failed, ").count - 1)
    }

    @Test("Item 2: a swapper renaming a link to an outside secret over a listed file, racing 30 reloads, never gets the secret served")
    func swappedLinkNeverServed() async throws {
        let site = try SiteFixture(TestConfig())
        try site.write("public text\n", to: "public/aaa.txt")
        // Many files after aaa.txt in the listing: the time between listing a file and reading it is what the
        // swapper needs, and a tenant's real folder has as many.
        try FileManager.default.createDirectory(atPath: site.publicPath + "/filler", withIntermediateDirectories: true)
        for index in 0..<1_500 { try site.write("filler \(index)\n", to: "public/filler/\(index).txt") }
        let server = try await LinkHostProcess.start(site)
        let swapper = Swapper()
        swapper.start(publicPath: site.publicPath, secretPath: site.directory + "/secret.txt")
        var served: [String] = []
        for round in 1...30 {
            let before = Self.reloadsEnded(server)
            server.signal(SIGHUP)
            let ended = try await eventually { let now = Self.reloadsEnded(server); return now.succeeded + now.failed > before.succeeded + before.failed }
            #expect(ended, "reload \(round) did not end: \(server.stderr)")
            let answer = try await server.request("GET", "/aaa.txt")
            served.append(String(decoding: answer.body, as: UTF8.self))
        }
        swapper.finish()
        let outcome = Self.reloadsEnded(server)
        #expect(swapper.swaps.withLock { $0 } > 30, "the swapper ran")
        #expect(!served.contains { $0.contains(SiteFixture.outsideSecret) }, "the outside secret was served: \(served)")
        #expect(outcome.succeeded > 0, "no reload succeeded, so nothing was shown: \(server.stderr)")
        // A swap the read caught is a failed reload that names the file, and the old snapshot goes on serving.
        if outcome.failed > 0 { #expect(server.stderr.contains("aaa.txt is reached through a symbolic link"), "\(server.stderr)") }
        let after = try await server.request("GET", "/style.css")
        #expect(after.status == 200)
    }

    @Test("Item 2: a template or locale file that is a link out of its folder is refused, one inside it is read")
    func templateLinkLeavingItsFolder() async throws {
        let site = try SiteFixture(TestConfig())
        let manager = FileManager.default
        try manager.moveItem(atPath: site.publicPath + "/call.html", toPath: site.publicPath + "/call-real.html")
        try manager.createSymbolicLink(atPath: site.publicPath + "/call.html", withDestinationPath: "call-real.html")
        let inside = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(inside.exitCode == 0, "a link to a file inside the template's folder is read: \(inside)")

        try manager.removeItem(atPath: site.publicPath + "/call.html")
        try manager.createSymbolicLink(atPath: site.publicPath + "/call.html", withDestinationPath: "../secret.txt")
        let outside = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(outside.exitCode != 0 && outside.stderr.contains("leads out of"), "\(outside)")
        #expect(!(outside.stdout + outside.stderr).contains(SiteFixture.outsideSecret), "\(outside)")

        try manager.removeItem(atPath: site.publicPath + "/call.html")
        try manager.moveItem(atPath: site.publicPath + "/call-real.html", toPath: site.publicPath + "/call.html")
        let locale = site.publicPath + "/locales/de.json"
        try manager.removeItem(atPath: locale)
        try manager.createSymbolicLink(atPath: locale, withDestinationPath: "../../secret.txt")
        let localeOutside = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(localeOutside.exitCode != 0 && localeOutside.stderr.contains("leads out of"), "\(localeOutside)")
    }
}
