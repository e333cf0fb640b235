import LinkHostTestSupport
import Testing
@testable import LinkHostCore

/// Sites that serve the same AASA share its compiled rules and answers while linting; a site that differs in
/// one app, or the same file on another origin, must still get its own findings.
@Suite("Lint: shared matchers")
struct SharedMatcherTests {
    static let app = #"{"name": "Video", "teamID": "QRSTU67890", "bundleID": "com.acme.video"}"#
    static let other = #"{"name": "Other", "teamID": "QRSTU67890", "bundleID": "com.acme.other"}"#

    /// Four sites under one hand rule that opens the home page (LH303): one and two serve the same file,
    /// three lists one more app, four serves the same file as one on its own origin.
    static func lint() throws -> ConfigLinter.Outcome {
        let folder = try Fixtures.temporaryFolder(files: ["call.html": "<!doctype html><title>call</title>\n", "public/index.html": "home\n"])
        defer { removeItem(folder) }
        let text = """
        {"server": {"host": "127.0.0.1", "port": 8080}, "apps": [\(app)], "aasa": {"rules": [{"path": "/*"}]},
         "callLinks": {"paths": ["call"], "template": "\(folder)/call.html", "locales": "\(folder)/locales"}, "static": {"root": "\(folder)/public"},
         "sites": [{"id": "one", "hosts": ["one.example"]}, {"id": "two", "hosts": ["two.example"]},
                   {"id": "three", "hosts": ["three.example"], "apps": [\(app), \(other)]}, {"id": "four", "hosts": ["four.example"]}]}
        """
        return ConfigLinter.lint(bytes: Array(text.utf8), source: "c.json")
    }

    @Test("sites serving the same bytes share one entry; another app or another file gets its own")
    func sharing() throws {
        let snapshot = try #require(try Self.lint().snapshot)
        let shared = SharedAASAMatchers()
        let one = shared.entry(for: snapshot.sites[1])
        #expect(shared.entry(for: snapshot.sites[2]) === one)
        #expect(shared.entry(for: snapshot.sites[3]) !== one)
        #expect(shared.entry(for: snapshot.sites[4]) === one)
    }

    @Test("each site's findings name its own origin and its own apps")
    func findings() throws {
        let messages = try Self.lint().report.diagnostics.filter { $0.code == .lh303 }.map(\.message)
        for host in ["one.example", "two.example", "four.example"] {
            #expect(messages.contains("matches the home page https://\(host)/ for \"QRSTU67890.com.acme.video\", so a link to it opens the app instead of the page"), "\(host): \(messages)")
        }
        #expect(messages.contains("matches the home page https://three.example/ for \"QRSTU67890.com.acme.video\", \"QRSTU67890.com.acme.other\", so a link to it opens the app instead of the page"), "\(messages)")
    }
}
