import Foundation
import Testing

/// The team mistakes that passed `validate` (issue 41 items 4 and 8), each on the shape the issue found it in:
/// `config/examples/team.json` (what `linkhost init` writes) changed the way a team changes it by hand, run
/// through the real binary from the repository, as a user runs it beside `public/`.
@Suite("Team mistakes validate catches", .timeLimit(.minutes(3)))
struct TeamMistakesTests {
    /// One finding of `validate --format json`.
    struct Finding: CustomStringConvertible {
        let code: String, severity: String, path: String, message: String
        var description: String { "\(severity) \(code) \(path): \(message)" }
    }

    /// `validate --format json` on `config`, written to a file of its own, from the repository root.
    private func validate(_ config: String, _ extra: [String] = []) async throws -> (exit: Int32?, found: [Finding], run: Termination) {
        let folder = NSTemporaryDirectory() + "linkhost-team-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(config.utf8).write(to: URL(fileURLWithPath: folder + "/linkhost.json"))
        let run = try await LinkHostCLI.run(["validate", "--config", folder + "/linkhost.json", "--format", "json"] + extra.map { $0.replacingOccurrences(of: "FOLDER", with: folder) },
                                            directory: SiteFixture.repositoryRoot)
        let found = (run.json as? [[String: Any]] ?? []).map {
            Finding(code: $0["code"] as? String ?? "", severity: $0["severity"] as? String ?? "", path: $0["path"] as? String ?? "", message: $0["message"] as? String ?? "")
        }
        return (run.exitCode, found, run)
    }

    /// config/examples/team.json, with each `(old, new)` replaced once (each must be there).
    private func team(_ edits: [(String, String)] = []) throws -> String {
        var text = try String(contentsOfFile: SiteFixture.repositoryRoot + "/config/examples/team.json", encoding: .utf8)
        for (old, new) in edits {
            guard let range = text.range(of: old) else { throw HarnessError("config/examples/team.json has no \(old)") }
            text.replaceSubrange(range, with: new)
        }
        return text
    }

    @Test("LH128: an iOS app with no appStoreID and no installURL names the iPhone guest's dead end; installURL false says it is meant")
    func noInstallOffer() async throws {
        let missing = try await validate(try team([(#""appStoreID": "1456789012","#, ""), (#""appClipBundleID": "com.acme.video.Clip""#, #""urlScheme": "acmevideo""#)]))
        let warning = missing.found.filter { $0.code == "LH128" }
        #expect(missing.exit == 0 && warning.count == 1 && warning[0].severity == "warning" && warning[0].path == "apps[0]"
                && warning[0].message.contains("no App Store button") && warning[0].message.contains("open.acme-video.com"), "\(missing.found)")
        let meant = try await validate(try team([(#""appStoreID": "1456789012","#, #""installURL": false,"#), (#""appClipBundleID": "com.acme.video.Clip""#, #""urlScheme": "acmevideo""#)]))
        #expect(meant.exit == 0 && meant.found.isEmpty, "\(meant.found)")
    }

    @Test("LH126: a staging site whose baseURL or openInAppHost is production's host is an error naming production (and no LH116 advising to take the host)")
    func anotherSitesHost() async throws {
        let base = try await validate(try team([(#""baseURL": "https://staging-meet.acme-video.com""#, #""baseURL": "https://meet.acme-video.com""#)]))
        let baseError = base.found.filter { $0.code == "LH126" }
        #expect(base.exit == 2 && baseError.count == 1 && baseError[0].path == "sites[1].callLinks.baseURL"
                && baseError[0].message.contains("production (sites[0])") && baseError[0].message.contains("QR codes"), "\(base.found)")
        let open = try await validate(try team([(#""openInAppHost": "staging-open.acme-video.com""#, #""openInAppHost": "open.acme-video.com""#)]))
        #expect(open.exit == 2 && open.found.map(\.code) == ["LH126"] && open.found[0].path == "sites[1].callLinks.openInAppHost", "\(open.found)")

        // Production at the top level alone: its own baseURL names the host.
        let top = try await validate(try team([(#""id": "production","#, #""id": "production-old","#), ("\"meet.acme-video.com\",\n        \"open.acme-video.com\"", "\"old.acme-video.com\""),
                                                (#""baseURL": "https://staging-meet.acme-video.com""#, #""baseURL": "https://meet.acme-video.com""#)]))
        #expect(top.found.contains { $0.code == "LH126" && $0.message.contains("the top level (its callLinks.baseURL)") }, "\(top.found)")
    }

    @Test("LH127: the staging package listed on the production site is a warning; the config init wrote has none")
    func prereleaseBesideRelease() async throws {
        let staging = #"{"packageName": "com.acme.video.staging", "sha256CertFingerprints": ["C4:19:0E:7A:52:D3:8B:61:F0:2C:95:47:AE:13:D8:6B:30:E9:74:5F:A1:0C:B8:26:D5:93:4E:17:6A:F2:08:BD"]}"#
        let config = try team([("      ]\n    }\n  ],\n  \"callLinks\"", "      ]\n    }, \(staging)\n  ],\n  \"callLinks\"")])
        let run = try await validate(config)
        let warning = run.found.filter { $0.code == "LH127" }
        #expect(run.exit == 0 && warning.count == 1 && warning[0].severity == "warning" && warning[0].path == "android[1].packageName"
                && warning[0].message.contains("\"com.acme.video.staging\" is \"com.acme.video\" with the pre-release suffix \".staging\""), "\(run.found)")
        #expect(try await validate(try team()).found.isEmpty)
    }

    @Test("LH709: validate --android-manifest --app compares the manifest's package with --app")
    func manifestPackage() async throws {
        let printed = try await LinkHostCLI.run(["print", "android-manifest", "--config", "config/examples/team.json", "--app", "com.acme.video"], directory: SiteFixture.repositoryRoot)
        let filters = printed.stdout.split(separator: "\n").filter { !$0.hasPrefix("<!--") }.joined(separator: "\n")
        func manifest(_ package: String) -> String {
            #"<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="\#(package)"><application><activity android:name=".Call" android:exported="true">"#
                + filters + "</activity></application></manifest>\n"
        }
        let folder = NSTemporaryDirectory() + "linkhost-manifest-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (package, code) in [("com.acme.vidoe", "LH709"), ("com.acme.video", nil)] as [(String, String?)] {
            try Data(manifest(package).utf8).write(to: URL(fileURLWithPath: folder + "/m.xml"))
            let run = try await LinkHostCLI.run(["validate", "--config", "config/examples/team.json", "--android-manifest", folder + "/m.xml", "--app", "com.acme.video"],
                                                directory: SiteFixture.repositoryRoot)
            if code != nil {
                #expect(run.exitCode == 2 && run.stderr.contains("error LH709") && run.stderr.contains(#"package="com.acme.vidoe" is not --app com.acme.video"#), "\(run)")
            } else {
                #expect(run.exitCode == 0 && !run.stdout.contains("warning") && !run.stderr.contains("LH709"), "\(run)")
            }
        }
    }

    @Test("LH301 names both platforms when the dynamic rules keep the call link in the browser too, iOS alone when Android opens it")
    func bothPlatformsStay() async throws {
        let excluded = #""aasa": {"rules": [{"path": "/call/*", "query": {"type": "default"}, "exclude": true}, {"path": "/call/*"}]}, "sites""#
        let both = try await validate(try team([("\"sites\"", excluded)]))
        let error = both.found.filter { $0.code == "LH301" }
        #expect(!error.isEmpty && error.allSatisfy { $0.message.contains("so iOS and Android 15+ (\"com.acme.video") }, "\(both.found)")
        let iOSOnly = try await validate(try team([("\"sites\"", excluded), ("      ]\n    }\n  ],\n  \"callLinks\"", "      ],\n      \"dynamicRules\": false\n    }\n  ],\n  \"callLinks\"")]))
        // Production's package reads no dynamic rules (its manifest alone decides); staging's still does.
        let production = iOSOnly.found.filter { $0.code == "LH301" && $0.message.contains("\"ACME123456.com.acme.video\"") }
        #expect(production.count == 1 && production[0].message.contains("so iOS shows the web page"), "\(iOSOnly.found)")
    }

    @Test("LH403 counts valid fingerprints: two written, one without colons, is LH402 with the colon form and no false \"lists one fingerprint\"")
    func fingerprintCount() async throws {
        let run = try await validate(try team([("\"B2:07:6D:E1:44:9A:3C:F8:10:5B:7E:C2:29:86:D0:4F:A3:15:68:BB:0E:72:C9:3D:56:E4:1A:8F:27:90:DC:43\"",
                                                 "\"B2076DE1449A3CF8105B7EC22986D04FA31568BB0E72C93D56E41A8F2790DC43\"")]))
        #expect(run.found.map(\.code) == ["LH402"] && run.found[0].message.contains("\"B2:07:6D:E1:44:9A"), "\(run.found)")
    }

    @Test("item 8: an openInAppHost that is the link host is one LH124; a staging site listing production's host is LH116 alone")
    func item8Messages() async throws {
        let once = try await validate(try team([("\"meet.acme-video.com\",\n        \"open.acme-video.com\"", "\"meet.acme-video.com\""),
                                                (#""openInAppHost": "open.acme-video.com""#, #""openInAppHost": "meet.acme-video.com""#)]))
        #expect(once.found.filter { $0.code == "LH124" }.count == 1, "\(once.found)")
        let listed = try await validate(try team([("\"staging-meet.acme-video.com\",\n        \"staging-open", "\"meet.acme-video.com\",\n        \"staging-open")]))
        #expect(listed.exit == 2 && listed.found.map(\.code) == ["LH116"] && listed.found[0].path == "sites[1].hosts[0]", "\(listed.found)")
    }

    @Test("the shipped configs report none of LH126-LH128 (config/examples are checked clean by ExampleConfigFilesTests)")
    func shippedConfigs() async throws {
        for path in ["config/linkhost.json", "deploy/multi-tenant/linkhost.json"] {
            let run = try await LinkHostCLI.run(["validate", "--config", path, "--format", "json"], directory: SiteFixture.repositoryRoot)
            let codes = (run.json as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            #expect(run.exitCode == 0 && !codes.contains { ["LH126", "LH127", "LH128"].contains($0) }, "\(path): \(run)")
        }
    }
}
