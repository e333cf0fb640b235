import Foundation
import Testing

/// The App Clip path from one config key (`apps[].appClipBundleID`) to the card, over the real binary: the
/// AASA lists the clip on its sites only, their call page carries the card's Smart App Banner, the clip's
/// entitlements and parser print and validate, and `match --app CLIP` answers (issue 34).
@Suite("App Clip")
struct AppClipTests {
    static let clipBundleID = "com.example.linkhost.Clip"
    static let clipID = "ABCDE12345.com.example.linkhost.Clip"
    static let legacyClipID = "ABCDE12345.com.example.linkhost.Legacy"
    static let kioskClipID = "BRAND12345.org.brand.video.Kiosk"

    /// The top level's app has a clip and serves links.example.com (its base URL); `join.example.org`
    /// inherits that app and adds a hand-written clip; `plain.example.net` has an app without a clip; and
    /// `kiosk.example.net` lists a clip by hand only.
    static func fixture() throws -> SiteFixture {
        var config = TestConfig()
        let site = try SiteFixture(config)
        config.extra = [
            "apps": [["name": config.name, "teamID": config.teamID, "bundleID": config.bundleID, "appStoreID": "1234567890", "appClipBundleID": clipBundleID]],
            "sites": [
                ["hosts": ["join.example.org"], "aasa": ["appclips": [clipID, legacyClipID]]],
                ["hosts": ["plain.example.net"], "apps": [["name": "Plain", "teamID": "BRAND12345", "bundleID": "org.brand.plain", "appStoreID": "42"]]],
                ["hosts": ["kiosk.example.net"], "apps": [["name": "Kiosk", "teamID": "BRAND12345", "bundleID": "org.brand.video", "appStoreID": "43"]],
                 "aasa": ["appclips": [kioskClipID]]],
            ],
        ]
        try site.writeConfig(config)
        return site
    }

    /// `appclips.apps` of an AASA document, nil when it has no `appclips`.
    static func appClips(_ document: Any?) -> [String]? {
        ((document as? [String: Any])?["appclips"] as? [String: Any])?["apps"] as? [String]
    }

    @Test("the AASA lists the clip on the sites whose apps name it, the app's clip first and hand-written ones after; other sites list none of it")
    func associationFiles() async throws {
        let server = try await InProcessServer.start(try Self.fixture())
        let expected: [(host: String, clips: [String]?)] = [
            ("links.example.com", [Self.clipID]),
            ("join.example.org", [Self.clipID, Self.legacyClipID]),
            ("plain.example.net", nil),
            ("kiosk.example.net", [Self.kioskClipID]),
        ]
        for (host, clips) in expected {
            let answer = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", host)])
            #expect(answer.status == 200, "\(host): \(answer)")
            #expect(Self.appClips(parseJSON(answer.body)) == clips, "\(host): \(answer.text)")
        }
    }

    @Test("the call page carries the card meta on the clip's sites only, the same bytes for every browser, its buttons and QR code kept")
    func cardMeta() async throws {
        let server = try await InProcessServer.start(try Self.fixture())
        let agents = ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1", "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120 Mobile", "Mozilla/5.0 (X11; Linux x86_64) Firefox/120"]
        var pages: [HTTPResponse] = []
        for agent in agents {
            pages.append(try await server.request("GET", "/call/abc?type=video", headers: [("User-Agent", agent), ("Host", "links.example.com")]))
        }
        #expect(pages.allSatisfy { $0.status == 200 && $0.body == pages[0].body && $0.header("ETag") == pages[0].header("ETag") }, "the page is the same for every User-Agent")
        let page = pages[0].text
        #expect(page.contains(#"<meta name="apple-itunes-app" content="app-id=1234567890, app-clip-bundle-id=\#(Self.clipBundleID), app-clip-display=card, app-argument=https://links.example.com/call/abc?type=video">"#), "\(page)")
        #expect(page.components(separatedBy: "apple-itunes-app").count == 2, "one banner meta")
        for id in ["open-app", "app-store", "play-store", "qr"] {
            #expect(page.contains("id=\"\(id)\""), "the page keeps #\(id) for browsers that show no card")
        }
        #expect(page.contains("srcset=\"/call/abc/qr.svg?type=video\""), "the QR code leads to the same call")

        let joined = try await server.request("GET", "/call/video:abc", headers: [("Host", "join.example.org")])
        #expect(joined.text.contains("app-clip-bundle-id=\(Self.clipBundleID), app-clip-display=card"), "the site inheriting the app shows its card: \(joined.text)")
        for host in ["plain.example.net", "kiosk.example.net"] {
            let other = try await server.request("GET", "/call/abc?type=video", headers: [("Host", host)])
            #expect(other.status == 200 && other.text.contains("name=\"apple-itunes-app\"") && !other.text.contains("app-clip"), "\(host) names no clip on its page: \(other.text)")
        }
    }

    @Test("the desktop QR code of a clip's page still decodes to the call's canonical URL")
    func qrCode() async throws {
        let server = try await LinkHostProcess.start(try Self.fixture())
        let png = server.site.directory + "/qr.png"
        // Chromium sends the loopback Host; the base URL puts links.example.com into the image anyway.
        _ = try await HeadlessChromium.visit("http://127.0.0.1:\(server.port)/call/abc/qr.svg?type=video", as: .desktop, screenshot: png)
        let scanned = try await runTool("zbarimg", ["-q", "--raw", png])
        #expect(scanned.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "https://links.example.com/call/abc?type=video", "\(scanned.stderr)")
    }

    @Test("print entitlements --app CLIP writes appclips: for each exact host of its sites; validate passes it and fails it with a host missing")
    func entitlements() async throws {
        let site = try Self.fixture()
        let printed = try await LinkHostCLI.run(["print", "entitlements", "--config", site.configPath, "--app", Self.clipBundleID])
        #expect(printed.exitCode == 0, "\(printed)")
        #expect(printed.stdout.contains("<string>appclips:links.example.com</string>\n\t<string>appclips:join.example.org</string>\n</array>"), "\(printed.stdout)")
        #expect(!printed.stdout.contains("applinks:") && !printed.stdout.contains("plain.example.net") && !printed.stdout.contains("kiosk."), "\(printed.stdout)")
        try site.write(printed.stdout, to: "clip.entitlements")
        let valid = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--entitlements", site.directory + "/clip.entitlements", "--app", Self.clipID])
        #expect(valid.exitCode == 0 && valid.stdout.contains("valid"), "\(valid)")

        try site.write(printed.stdout.replacingOccurrences(of: "\t<string>appclips:join.example.org</string>\n", with: ""), to: "missing.entitlements")
        let missing = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--entitlements", site.directory + "/missing.entitlements", "--app", Self.clipBundleID, "--format", "json"])
        let findings = missing.json as? [[String: Any]] ?? []
        #expect(missing.exitCode == 2, "\(missing)")
        #expect(findings.contains { $0["code"] as? String == "LH702" && $0["severity"] as? String == "error" && ($0["message"] as? String ?? "").contains("appclips:join.example.org") }, "\(missing)")
    }

    @Test("print swift-parser --app CLIP builds the clip's CallLinkParser with its sites' templates and hosts; info-plist has nothing for a clip")
    func swiftParser() async throws {
        let site = try Self.fixture()
        let parser = try await LinkHostCLI.run(["print", "swift-parser", "--config", site.configPath, "--app", Self.clipID])
        #expect(parser.exitCode == 0, "\(parser)")
        #expect(parser.stdout.hasPrefix("let parser = try CallLinkParser(templates: [\"/call/{callId}?type={callType}\", \"/call/{callType}:{callId}\"]"), "\(parser.stdout)")
        #expect(parser.stdout.hasSuffix(#"hosts: ["links.example.com", "join.example.org"])"# + "\n"), "\(parser.stdout)")
        let plist = try await LinkHostCLI.run(["print", "info-plist", "--config", site.configPath, "--app", Self.clipBundleID])
        #expect(plist.exitCode == 2 && plist.stderr.contains("custom URL scheme") && plist.stdout.isEmpty, "an App Clip has no scheme to register: \(plist)")
        try site.write("<plist version=\"1.0\"><dict></dict></plist>", to: "Info.plist")
        let checked = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--info-plist", site.directory + "/Info.plist", "--app", Self.clipBundleID])
        #expect(checked.exitCode == 2 && checked.stderr.contains("custom URL scheme"), "\(checked)")
    }

    @Test("match URL --app CLIP: invocation and card on the clip's hosts, the experience prefix that decides, no elsewhere")
    func match() async throws {
        let site = try Self.fixture()
        let home = try await LinkHostCLI.run(["match", "https://links.example.com/call/abc?type=video", "--config", site.configPath, "--app", Self.clipBundleID])
        #expect(home.exitCode == 0, "\(home)")
        #expect(home.stdout.contains("invocation: yes") && home.stdout.contains("reads call \"abc\", type \"video\""), "\(home.stdout)")
        #expect(home.stdout.contains("card: yes"), "\(home.stdout)")
        #expect(home.stdout.contains("experience: https://links.example.com/ decides (the default App Clip experience)"), "\(home.stdout)")
        #expect(home.stdout.contains("an advanced experience for https://join.example.org/"), "\(home.stdout)")

        let joined = try await LinkHostCLI.run(["match", "https://JOIN.example.org/call/video:abc", "--config", site.configPath, "--app", Self.clipID])
        #expect(joined.exitCode == 0 && joined.stdout.contains("experience: https://join.example.org/ decides (the advanced App Clip experience for this host)"), "\(joined)")

        let plain = try await LinkHostCLI.run(["match", "https://plain.example.net/call/abc", "--config", site.configPath, "--app", Self.clipBundleID])
        #expect(plain.exitCode == 1 && plain.stdout.contains("invocation: no: the AASA on this host does not list the clip") && plain.stdout.contains("card: no"), "\(plain)")

        let notACall = try await LinkHostCLI.run(["match", "https://links.example.com/", "--config", site.configPath, "--app", Self.clipBundleID])
        #expect(notACall.exitCode == 4 && notACall.stdout.contains("not a call link of the site"), "the clip would be launched with a URL it cannot read: \(notACall)")

        let unserved = try await LinkHostCLI.run(["match", "https://elsewhere.example.com/call/abc", "--config", site.configPath, "--app", Self.clipBundleID])
        #expect(unserved.exitCode == 3 && unserved.stdout.contains("not served"), "\(unserved)")

        // The full app's ID keeps match's universal-link answer.
        let app = try await LinkHostCLI.run(["match", "https://links.example.com/call/abc?type=video", "--config", site.configPath, "--app", TestConfig().appID])
        #expect(app.exitCode == 0 && app.stdout.contains("opens in the app") && !app.stdout.contains("App Clip"), "\(app)")
    }
}
