import LinkHostTestSupport
import Testing
@testable import LinkHostCore

/// Sites whose AASA has the same rules share its compiled rules and answers while linting, whatever their apps'
/// IDs and origins; a site that lists one more app gets its own, and every site still gets its own findings.
@Suite("Lint: shared matchers")
struct SharedMatcherTests {
    static let app = #"{"name": "Video", "teamID": "QRSTU67890", "bundleID": "com.acme.video"}"#
    static let other = #"{"name": "Other", "teamID": "QRSTU67890", "bundleID": "com.acme.other"}"#
    static let tenant = #"{"name": "Five", "teamID": "FIVEX12345", "bundleID": "com.five.video"}"#

    /// Five sites under one hand rule that opens the home page (LH303): one and two serve the same file,
    /// three lists one more app, four serves the same file as one on its own origin, five another app (a tenant).
    static func lint() throws -> ConfigLinter.Outcome {
        let folder = try Fixtures.temporaryFolder(files: ["call.html": "<!doctype html><title>call</title>\n", "public/index.html": "home\n"])
        defer { removeItem(folder) }
        let text = """
        {"server": {"host": "127.0.0.1", "port": 8080}, "apps": [\(app)], "aasa": {"rules": [{"path": "/*"}]},
         "callLinks": {"paths": ["call"], "template": "\(folder)/call.html", "locales": "\(folder)/locales"}, "static": {"root": "\(folder)/public"},
         "sites": [{"id": "one", "hosts": ["one.example"]}, {"id": "two", "hosts": ["two.example"]},
                   {"id": "three", "hosts": ["three.example"], "apps": [\(app), \(other)]}, {"id": "four", "hosts": ["four.example"]},
                   {"id": "five", "hosts": ["five.example"], "apps": [\(tenant)], "android": []}]}
        """
        return ConfigLinter.lint(bytes: Array(text.utf8), source: "c.json")
    }

    @Test("sites of the same rules share one set of answers, whatever their app's ID and origin; another app list gets its own")
    func sharing() throws {
        let snapshot = try #require(try Self.lint().snapshot)
        let shared = SharedAASAMatchers()
        let one = shared.entry(for: snapshot.sites[1]).answers
        #expect(shared.entry(for: snapshot.sites[2]).answers === one)
        #expect(shared.entry(for: snapshot.sites[3]).answers !== one)
        #expect(shared.entry(for: snapshot.sites[4]).answers === one)
        #expect(shared.entry(for: snapshot.sites[5]).answers === one)
    }

    @Test("each site's findings name its own origin and its own apps")
    func findings() throws {
        let messages = try Self.lint().report.diagnostics.filter { $0.code == .lh303 }.map(\.message)
        for host in ["one.example", "two.example", "four.example"] {
            #expect(messages.contains("matches the home page https://\(host)/ for \"QRSTU67890.com.acme.video\", so a link to it opens the app instead of the page"), "\(host): \(messages)")
        }
        #expect(messages.contains("matches the home page https://five.example/ for \"FIVEX12345.com.five.video\", so a link to it opens the app instead of the page"), "\(messages)")
        #expect(messages.contains("matches the home page https://three.example/ for \"QRSTU67890.com.acme.video\", \"QRSTU67890.com.acme.other\", so a link to it opens the app instead of the page"), "\(messages)")
    }

    @Test("tenants of the same rules share one compiled assetlinks.json whatever their package and key, and it answers as each own file does")
    func androidSharing() throws {
        let folder = try Fixtures.temporaryFolder(files: ["call.html": "<!doctype html><title>call</title>\n", "public/index.html": "home\n"])
        defer { removeItem(folder) }
        func android(_ package: String, _ byte: String) -> String {
            #"{"packageName": "\#(package)", "sha256CertFingerprints": ["\#(Array(repeating: byte, count: 32).joined(separator: ":"))"]}"#
        }
        let text = """
        {"server": {"host": "127.0.0.1", "port": 8080}, "apps": [\(Self.app)], "aasa": {"rules": [{"path": "/call/*"}, {"path": "/x/*", "exclude": true}]},
         "callLinks": {"paths": ["call"], "template": "\(folder)/call.html", "locales": "\(folder)/locales"}, "static": {"root": "\(folder)/public"},
         "sites": [{"id": "a", "hosts": ["a.example"], "apps": [\(Self.app)], "android": [\(android("com.a.video", "AA"))]},
                   {"id": "b", "hosts": ["b.example"], "apps": [\(Self.tenant)], "android": [\(android("com.b.video", "BB"))]},
                   {"id": "c", "hosts": ["c.example"], "apps": [\(Self.app)], "android": [\(android("com.c.one", "CC")), \(android("com.c.two", "DD"))]}]}
        """
        let snapshot = try #require(ConfigLinter.lint(bytes: Array(text.utf8), source: "c.json").snapshot)
        let shared = SharedAndroidMatchers()
        let entries = snapshot.sites.dropFirst().map { site in
            (site, shared.entry(for: site.config, origin: ServedConsistency.origin(of: site.config)))
        }
        #expect(entries[0].1.answers === entries[1].1.answers)
        #expect(entries[2].1.answers !== entries[0].1.answers)
        for (site, entry) in entries {
            let own = AndroidLinkMatcher(document: AssetLinksGenerator.document(for: site.config))
            let origin = ServedConsistency.origin(of: site.config)
            for package in site.config.android.map(\.packageName) + ["com.not.listed"] {
                for path in ["/call/a1", "/x/y", "/", "/other?q=1#f"] {
                    let expected = own.match(url: origin + path, packageName: package, domain: "")
                    let answer = entry.match(url: origin + path, packageName: package)
                    #expect(answer.opensApp == expected.opensApp && answer.rule == expected.rule, "\(site.config.label) \(package) \(path)")
                }
            }
        }
    }

    @Test("the generated AASA's lint, shared by tenants that differ in their app IDs, finds for each site what its own document's lint finds")
    func documentLint() throws {
        let folder = try Fixtures.temporaryFolder(files: ["call.html": "<!doctype html><title>call</title>\n", "public/index.html": "home\n"])
        defer { removeItem(folder) }
        let text = """
        {"server": {"host": "127.0.0.1", "port": 8080}, "apps": [\(Self.app)],
         "aasa": {"rules": [{"path": "/call/*"}, {"path": "/call/a1"}], "webcredentials": true},
         "callLinks": {"paths": ["call"], "template": "\(folder)/call.html", "locales": "\(folder)/locales"}, "static": {"root": "\(folder)/public"},
         "sites": [{"id": "one", "hosts": ["one.example"]}, {"id": "five", "hosts": ["five.example"], "apps": [\(Self.tenant)], "android": []},
                   {"id": "three", "hosts": ["three.example"], "apps": [\(Self.app), \(Self.other)]}]}
        """
        let snapshot = try #require(ConfigLinter.lint(bytes: Array(text.utf8), source: "c.json").snapshot)
        let lint = SharedAASALint()
        var codes: Set<LintCode> = []
        for site in snapshot.sites {
            let render: (DocumentPath) -> String = { ConfigLinter.configPath(for: $0, site: site.config) }
            let document = AASAGenerator.document(for: site.config)
            let expected = AASALinter.diagnostics(document: document, render: render, shadowing: true)
            #expect(lint.diagnostics(document: document, site: site.config, render: render, shadowing: true) == expected, "\(site.config.label)")
            codes.formUnion(expected.map(\.code))
        }
        #expect(!codes.isEmpty, "the rules have findings to share")
        // Twice the same app: the finding names it, so that document is linted as it is.
        var twice = snapshot.sites[1].config
        twice.apps.append(twice.apps[0])
        let document = AASAGenerator.document(for: twice)
        let render: (DocumentPath) -> String = { ConfigLinter.configPath(for: $0, site: twice) }
        let expected = AASALinter.diagnostics(document: document, render: render, shadowing: true)
        #expect(expected.contains { $0.code == .lh104 && $0.message.contains("QRSTU67890.com.acme.video") })
        #expect(lint.diagnostics(document: document, site: twice, render: render, shadowing: true) == expected)
    }
}
