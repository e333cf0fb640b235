import Foundation
import Testing

/// One team's config put together as a real team writes it (issue 32): the open-in-app host, per-app
/// schemes, whose apps a site publishes, and one filter per host, each through the real binary.
@Suite("Team config coherence", .timeLimit(.minutes(2)))
struct TeamConfigTests {
    static let production = "QRSTU67890.com.acme.video"
    static let staging = "QRSTU67890.com.acme.video.staging"

    /// Production at the top level (meet + open), staging as a site; both apps with a scheme of their own.
    static func team(topCallLinks: String = #""baseURL": "https://meet.acme-video.com", "openInAppHost": "open.acme-video.com""#, server: String = "", sites: String? = nil) -> String {
        """
        {
          "server": { "host": "127.0.0.1", "port": 0 \(server) },
          "apps": [ { "name": "Acme Video", "teamID": "QRSTU67890", "bundleID": "com.acme.video", "appStoreID": "1456789012", "urlScheme": "acmevideo" } ],
          "android": [ { "packageName": "com.acme.video", "sha256CertFingerprints": ["\(CheckSite.fingerprints[0])", "\(CheckSite.fingerprints[1])"] } ],
          "callLinks": { "template": "FOLDER/call.html", "paths": ["call"], \(topCallLinks) },
          "static": { "root": "FOLDER/public" },
          "sites": \(sites ?? """
            [ { "id": "staging", "hosts": ["staging-meet.acme-video.com", "staging-open.acme-video.com"],
                "apps": [ { "name": "Acme Video Staging", "teamID": "QRSTU67890", "bundleID": "com.acme.video.staging", "urlScheme": "acmevideo-staging", "installURL": false } ],
                "android": [ { "packageName": "com.acme.video.staging", "sha256CertFingerprints": ["\(CheckSite.fingerprints[1])"] } ],
                "callLinks": { "baseURL": "https://staging-meet.acme-video.com", "openInAppHost": "staging-open.acme-video.com" } } ]
            """)
        }
        """
    }

    /// The codes of `validate --format json` on the site's config.
    private func codes(_ site: CheckSite, environment: [String: String] = [:]) async throws -> (exit: Int32?, codes: [String], run: Termination) {
        let run = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--format", "json"], environment: environment)
        return (run.exitCode, (run.json as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }, run)
    }

    @Test("item 1: a top-level openInAppHost is in every app's printed entitlements, which then validate clean; where the apps could not claim it, validate says LH123")
    func openHostClaimed() async throws {
        let site = try CheckSite(config: Self.team())
        let printed = try await LinkHostCLI.run(["print", "entitlements", "--config", site.configPath, "--app", Self.production])
        #expect(printed.exitCode == 0 && printed.stdout.contains("<string>applinks:meet.acme-video.com</string>")
                && printed.stdout.contains("<string>applinks:open.acme-video.com</string>") && !printed.stdout.contains("staging"), "\(printed)")
        try site.write(printed.stdout, to: "app.entitlements")
        let valid = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--entitlements", site.directory + "/app.entitlements", "--app", Self.production])
        #expect(valid.exitCode == 0 && !valid.stdout.contains("warning"), "\(valid)")
        let clean = try await codes(site)
        #expect(clean.exit == 0 && clean.codes.isEmpty, "\(clean.run)")

        // No baseURL: the top level names no host, so print cannot write the open host: LH123.
        let unnamed = try CheckSite(config: Self.team(topCallLinks: #""openInAppHost": "open.acme-video.com""#))
        let noBase = try await codes(unnamed)
        #expect(noBase.exit == 2 && noBase.codes.contains("LH123") && noBase.run.stdout.contains("callLinks.baseURL"), "\(noBase.run)")
        // strictHosts: the top level answers only server.tls.acme.hosts, so nothing answers the open host.
        let strict = try CheckSite(config: Self.team(server: #", "strictHosts": true"#))
        let strictRun = try await codes(strict)
        #expect(strictRun.exit == 2 && strictRun.codes.contains("LH123"), "\(strictRun.run)")
        // Another site answers the open host with its own apps.
        let elsewhere = try CheckSite(config: Self.team(sites: """
            [ { "hosts": ["open.acme-video.com"], "apps": [ { "name": "Other", "teamID": "QRSTU67890", "bundleID": "com.other.app" } ], "android": [] } ]
            """))
        let elsewhereRun = try await codes(elsewhere)
        #expect(elsewhereRun.exit == 2 && elsewhereRun.codes.contains("LH123"), "\(elsewhereRun.run)")
    }

    @Test("item 2: an openInAppHost that is the link host itself is an error (LH124), at the top level and in a site of one host")
    func openHostIsLinkHost() async throws {
        let top = try CheckSite(config: Self.team(topCallLinks: #""baseURL": "https://meet.acme-video.com", "openInAppHost": "meet.acme-video.com""#))
        let topRun = try await codes(top)
        #expect(topRun.exit == 2 && topRun.codes.contains("LH124") && topRun.run.stdout.contains("open.meet.acme-video.com"), "\(topRun.run)")
        let single = try CheckSite(config: Self.team(sites: """
            [ { "hosts": ["staging-meet.acme-video.com"], "callLinks": { "openInAppHost": "staging-meet.acme-video.com" } } ]
            """))
        let singleRun = try await codes(single)
        #expect(singleRun.exit == 2 && singleRun.codes.contains("LH124"), "\(singleRun.run)")
    }

    @Test("item 3: every app's printed info-plist, entitlements and manifest validate clean for that app (LH707 judges the --app given)")
    func perAppFilesValidate() async throws {
        let site = try CheckSite(config: Self.team())
        let apps: [(app: String, kinds: [(print: String, option: String)])] = [
            (Self.production, [("info-plist", "--info-plist"), ("entitlements", "--entitlements")]),
            (Self.staging, [("info-plist", "--info-plist"), ("entitlements", "--entitlements")]),
            ("com.acme.video", [("android-manifest", "--android-manifest")]),
            ("com.acme.video.staging", [("android-manifest", "--android-manifest")]),
        ]
        for (app, kinds) in apps {
            for kind in kinds {
                let printed = try await LinkHostCLI.run(["print", kind.print, "--config", site.configPath, "--app", app])
                #expect(printed.exitCode == 0, "\(app) \(kind.print): \(printed)")
                let file = site.directory + "/\(app).\(kind.print)"
                try site.write(printed.stdout, to: "\(app).\(kind.print)")
                let checked = try await LinkHostCLI.run(["validate", "--config", site.configPath, kind.option, file, "--app", app])
                #expect(checked.exitCode == 0 && !checked.stdout.contains("warning"), "\(app) \(kind.print) fails its own validation: \(checked)\n\(printed.stdout)")
            }
        }
        let plist = try await LinkHostCLI.run(["print", "info-plist", "--config", site.configPath, "--app", Self.production])
        #expect(plist.stdout.contains("<string>acmevideo</string>") && !plist.stdout.contains("acmevideo-staging"), "\(plist)")
        // The production file is not the staging app's: its scheme is missing there.
        let wrong = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--info-plist", site.directory + "/\(Self.production).info-plist", "--app", Self.staging])
        #expect(wrong.exitCode == 2 && wrong.stderr.contains("LH707") && wrong.stderr.contains("acmevideo-staging://"), "\(wrong)")
    }

    @Test("item 5: a site with its own apps and no android publishes no other tenant's Android app (assetlinks, page), and validate says LH125 until it writes \"android\": []")
    func noInheritedAndroid() async throws {
        let tenant = #"{ "hosts": ["meet.tenant.example"], "callLinks": { "paths": ["call"] }, "apps": [ { "name": "Tenant Meet", "teamID": "TENANT1234", "bundleID": "com.tenant.meet" } ] }"#
        let site = try CheckSite(config: Self.team(sites: "[\(tenant)]"))
        let assetlinks = try await LinkHostCLI.run(["print", "assetlinks", "--config", site.configPath, "--host", "meet.tenant.example"])
        #expect(assetlinks.exitCode == 1 && !assetlinks.stdout.contains("com.acme.video"), "the tenant's domain verifies no other company's app: \(assetlinks)")
        let run = try await codes(site)
        #expect(run.exit == 2 && run.codes.contains("LH125") && run.run.stdout.contains(#"\"android\": []"#), "\(run.run)")

        let explicit = try CheckSite(config: Self.team(sites: "[\(tenant.replacingOccurrences(of: "} ] }", with: #"} ], "android": [] }"#))]"))
        let explicitRun = try await codes(explicit)
        #expect(explicitRun.exit == 0 && !explicitRun.codes.contains("LH125"), "\(explicitRun.run)")

        let served = try SiteFixture()
        try served.writeConfigText(Self.team(sites: "[\(tenant)]").replacingOccurrences(of: "FOLDER", with: served.directory + "/public").replacingOccurrences(of: "/public/public", with: "/public"))
        let server = try await LinkHostProcess.start(served)
        let links = try await server.request("GET", "/.well-known/assetlinks.json", headers: [("Host", "meet.tenant.example")])
        #expect(links.status == 404 || !links.text.contains("com.acme.video"), "\(links.status) \(links.text)")
        let page = try await server.request("GET", "/call/abc123", headers: [("Host", "meet.tenant.example")])
        #expect(page.status == 200 && page.text.contains("Tenant Meet") && !page.text.contains("com.acme.video"), "the page's intent and Play links name no other company's package: \(page.text)")
    }

    @Test("item 6: the top level's link host listed by a site gets one verified filter in the printed manifest; a manifest claiming it twice alike gets LH708")
    func oneFilterPerHost() async throws {
        let site = try CheckSite(config: Self.team(sites: #"[ { "id": "production", "hosts": ["meet.acme-video.com", "open.acme-video.com"] } ]"#))
        let manifest = try await LinkHostCLI.run(["print", "android-manifest", "--config", site.configPath, "--app", "com.acme.video"])
        let meetClaims = manifest.stdout.components(separatedBy: #"android:host="meet.acme-video.com""#).count - 1
        #expect(manifest.exitCode == 0 && meetClaims == 1 && manifest.stdout.components(separatedBy: "autoVerify").count - 1 == 1, "\(manifest)")
        try site.write(manifest.stdout, to: "printed.xml")
        let valid = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--android-manifest", site.directory + "/printed.xml", "--app", "com.acme.video"])
        #expect(valid.exitCode == 0 && !valid.stdout.contains("warning"), "\(valid)")
        let entitlements = try await LinkHostCLI.run(["print", "entitlements", "--config", site.configPath, "--app", Self.production])
        #expect(entitlements.stdout.components(separatedBy: "applinks:meet.acme-video.com<").count - 1 == 1, "\(entitlements)")

        let filter = manifest.stdout.components(separatedBy: "\n").filter { !$0.hasPrefix("<!--") }.joined(separator: "\n")
        try site.write("<!-- twice -->\n" + filter + filter, to: "twice.xml")
        let twice = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--android-manifest", site.directory + "/twice.xml", "--app", "com.acme.video"])
        #expect(twice.exitCode == 0 && twice.stdout.contains("warning LH708"), "\(twice)")
    }
}
