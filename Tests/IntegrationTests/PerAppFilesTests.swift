import Foundation
import Testing

/// One app's files from a config serving two apps on different hosts (issue 23): the production app on
/// meet.acmemeet.com (the default site, by its base URL), the staging app on staging-meet.acmemeet.com.
@Suite("Per-app files")
struct PerAppFilesTests {
    static let production = "ABCDE12345.com.acmemeet.app"
    static let staging = "ABCDE12345.com.acmemeet.app.staging"

    static let config = """
    {
      "server": { "host": "127.0.0.1", "port": 0 },
      "apps": [ { "name": "Acme Meet", "teamID": "ABCDE12345", "bundleID": "com.acmemeet.app" } ],
      "android": [ { "packageName": "com.acmemeet.app", "sha256CertFingerprints": ["\(CheckSite.fingerprints[0])"] } ],
      "callLinks": { "template": "FOLDER/call.html", "baseURL": "https://meet.acmemeet.com",
                     "links": ["/join/{callId}?type={callType}", "/call/{callType}:{callId}"] },
      "static": { "root": "FOLDER/public" },
      "sites": [
        { "hosts": ["staging-meet.acmemeet.com"],
          "apps": [ { "name": "Acme Meet Staging", "teamID": "ABCDE12345", "bundleID": "com.acmemeet.app.staging" } ],
          "android": [ { "packageName": "com.acmemeet.app.staging", "sha256CertFingerprints": ["\(CheckSite.fingerprints[1])"] } ] }
      ]
    }
    """

    @Test("each app's printed files name only its own host, and validate with --app passes them; the other app's file fails")
    func perApp() async throws {
        let site = try CheckSite(config: Self.config)
        let prod = try await LinkHostCLI.run(["print", "entitlements", "--config", site.configPath, "--app", Self.production])
        #expect(prod.exitCode == 0 && prod.stdout.contains("<string>applinks:meet.acmemeet.com</string>") && !prod.stdout.contains("staging"), "\(prod)")
        let stage = try await LinkHostCLI.run(["print", "entitlements", "--config", site.configPath, "--app", Self.staging])
        #expect(stage.exitCode == 0 && stage.stdout.contains("<string>applinks:staging-meet.acmemeet.com</string>") && !stage.stdout.contains("applinks:meet."), "\(stage)")
        let stageManifest = try await LinkHostCLI.run(["print", "android-manifest", "--config", site.configPath, "--app", "com.acmemeet.app.staging"])
        #expect(stageManifest.exitCode == 0 && stageManifest.stdout.contains(#"android:host="staging-meet.acmemeet.com""#) && !stageManifest.stdout.contains(#"android:host="meet.acmemeet.com""#), "\(stageManifest)")
        let prodManifest = try await LinkHostCLI.run(["print", "android-manifest", "--config", site.configPath, "--app", "com.acmemeet.app"])
        #expect(prodManifest.exitCode == 0 && !prodManifest.stdout.contains("staging"), "\(prodManifest)")
        let stageParser = try await LinkHostCLI.run(["print", "swift-parser", "--config", site.configPath, "--app", "com.acmemeet.app.staging"])
        #expect(stageParser.stdout.hasSuffix(#"hosts: ["staging-meet.acmemeet.com"])"# + "\n"), "a bundle ID names the iOS app too: \(stageParser)")

        try site.write(prod.stdout, to: "prod.entitlements")
        try site.write(prodManifest.stdout, to: "prod.xml")
        let valid = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--entitlements", site.directory + "/prod.entitlements", "--android-manifest", site.directory + "/prod.xml",
                                               "--app", Self.production, "--app", "com.acmemeet.app"])
        #expect(valid.exitCode == 0 && !valid.stdout.contains("LH70"), "no false LH702/LH704 for the staging host: \(valid)")
        let wrongApp = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--entitlements", site.directory + "/prod.entitlements", "--app", Self.staging, "--format", "json"])
        let codes = (wrongApp.json as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(wrongApp.exitCode == 2 && codes.contains("LH702") && codes.contains("LH703"), "the production file is not the staging app's: \(wrongApp)")
    }

    @Test("without --app the apps are listed and nothing is guessed; an unknown --app lists them too")
    func ambiguous() async throws {
        let site = try CheckSite(config: Self.config)
        for words in [["print", "entitlements"], ["print", "android-manifest"], ["print", "swift-parser"]] {
            let run = try await LinkHostCLI.run(words + ["--config", site.configPath])
            let apps = words[1] == "android-manifest" ? ["'com.acmemeet.app'", "'com.acmemeet.app.staging'"] : ["'\(Self.production)'", "'\(Self.staging)'"]
            #expect(run.exitCode == 2 && apps.allSatisfy(run.stderr.contains) && run.stderr.contains("--app") && run.stdout.isEmpty, "\(run)")
        }
        try site.write("<key>com.apple.developer.associated-domains</key><array><string>applinks:meet.acmemeet.com</string></array>", to: "prod.entitlements")
        let validate = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--entitlements", site.directory + "/prod.entitlements"])
        #expect(validate.exitCode == 2 && validate.stderr.contains("'\(Self.staging)'"), "\(validate)")
        let unknown = try await LinkHostCLI.run(["print", "entitlements", "--config", site.configPath, "--app", "ABCDE12345.com.other"])
        #expect(unknown.exitCode == 2 && unknown.stderr.contains("'\(Self.production)'"), "\(unknown)")
    }

    @Test("print kotlin-parser: the app's hosts and the package built in; a bad package or --package elsewhere is a usage error")
    func kotlinParser() async throws {
        let site = try CheckSite(config: Self.config)
        let staging = try await LinkHostCLI.run(["print", "kotlin-parser", "--config", site.configPath, "--app", "com.acmemeet.app.staging"])
        #expect(staging.exitCode == 0 && staging.stdout.contains("package com.acmemeet.app.staging.calllinks\n"), "\(staging)")
        #expect(staging.stdout.contains(#"val HOSTS: List<String> = listOf("staging-meet.acmemeet.com")"#), "\(staging)")
        #expect(staging.stdout.contains(#"Template(listOf("call", TYPED_ID), listOf())"#) && staging.stdout.contains(#"Template(listOf("join", ID), listOf(QueryItem("type", false)))"#), "\(staging)")
        let named = try await LinkHostCLI.run(["print", "kotlin-parser", "--config", site.configPath, "--app", "com.acmemeet.app", "--package", "com.acmemeet.links"])
        #expect(named.exitCode == 0 && named.stdout.contains("package com.acmemeet.links\n") && named.stdout.contains(#"listOf("meet.acmemeet.com")"#), "\(named)")
        for (words, message) in [(["--app", "com.acmemeet.app", "--package", "com.in.links"], "keyword"), (["--app", "com.acmemeet.app", "--package", "1links"], "Kotlin package name"), ([], "--app")] {
            let run = try await LinkHostCLI.run(["print", "kotlin-parser", "--config", site.configPath] + words)
            #expect(run.exitCode == 2 && run.stderr.contains(message) && run.stdout.isEmpty, "\(words): \(run)")
        }
        let elsewhere = try await LinkHostCLI.run(["print", "entitlements", "--config", site.configPath, "--app", Self.production, "--package", "x"])
        #expect(elsewhere.exitCode == 2, "\(elsewhere)")
    }

    @Test("--host names the default site by its base URL's host")
    func hostOfBaseURL() async throws {
        let site = try CheckSite(config: Self.config)
        let run = try await LinkHostCLI.run(["print", "entitlements", "--config", site.configPath, "--host", "meet.acmemeet.com"])
        #expect(run.exitCode == 0 && run.stdout.contains("<string>applinks:meet.acmemeet.com</string>") && !run.stdout.contains("staging"), "\(run)")
        let other = try await LinkHostCLI.run(["print", "entitlements", "--config", site.configPath, "--host", "web.acmemeet.com"])
        #expect(other.exitCode == 2 && other.stderr.contains("no site serves"), "\(other)")
    }
}
