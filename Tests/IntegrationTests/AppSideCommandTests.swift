import Foundation
import Testing

/// The app's side from the command line, with the real binary: print entitlements, android-manifest and
/// swift-parser; validate the app's files; match on Android and on both platforms.
@Suite("App side commands")
struct AppSideCommandTests {
    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    /// Two sites: the five shapes on links.example.com (and its subdomains), two shapes on meet.example.org.
    static let config = """
    {
      "server": { "host": "127.0.0.1", "port": 0 },
      "apps": [ { "name": "Example Video", "teamID": "ABCDE12345", "bundleID": "com.example.video" } ],
      "android": [ { "packageName": "com.example.video", "sha256CertFingerprints": ["\(fingerprint)"] } ],
      "callLinks": { "template": "FOLDER/call.html" },
      "static": { "root": "FOLDER/public" },
      "sites": [
        { "hosts": ["links.example.com", "*.links.example.com"],
          "callLinks": { "template": "FOLDER/call.html", "links": ["/call/{callId}?type={callType}", "/join/{callType}:{callId}", "/join/{callId}", "/video/demos/join/{callId}", "/join?call_id={callId}&call_type={callType}"] } },
        { "hosts": ["meet.example.org"], "callLinks": { "template": "FOLDER/call.html", "paths": ["m"] },
          "aasa": { "rules": [ { "path": "/m/*/admin", "exclude": true }, { "path": "/m/?*" } ] } }
      ]
    }
    """

    static func site() throws -> CheckSite { try CheckSite(config: config) }

    @Test("print entitlements and android-manifest write what validate then finds complete; the parser line names the site")
    func printThenValidate() async throws {
        let site = try Self.site()
        let entitlements = try await LinkHostCLI.run(["print", "entitlements", "--config", site.configPath])
        #expect(entitlements.exitCode == 0, "\(entitlements)")
        #expect(entitlements.stdout.contains("<key>com.apple.developer.associated-domains</key>"))
        for host in ["links.example.com", "*.links.example.com", "meet.example.org"] {
            #expect(entitlements.stdout.contains("<string>applinks:\(host)</string>"), "\(entitlements)")
        }
        let manifest = try await LinkHostCLI.run(["print", "android-manifest", "--config", site.configPath])
        #expect(manifest.exitCode == 0, "\(manifest)")
        #expect(manifest.stdout.contains(#"<intent-filter android:autoVerify="true">"#) && manifest.stdout.contains(#"<data android:pathPrefix="/video/demos/join/" />"#), "\(manifest)")
        try site.write(entitlements.stdout, to: "app.entitlements")
        try site.write(manifest.stdout, to: "AndroidManifest.xml")
        let validated = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--entitlements", site.directory + "/app.entitlements", "--android-manifest", site.directory + "/AndroidManifest.xml"])
        #expect(validated.exitCode == 0, "\(validated)")
        #expect(validated.stdout.contains("app.entitlements: valid") && validated.stdout.contains("AndroidManifest.xml: valid"), "\(validated)")

        let line = try await LinkHostCLI.run(["print", "swift-parser", "--config", site.configPath, "--host", "meet.example.org"])
        #expect(line.stdout == #"let parser = try CallLinkParser(templates: ["/m/{callId}?type={callType}", "/m/{callType}:{callId}"], defaultType: "default", hosts: ["meet.example.org"])"# + "\n", "\(line)")
        let ambiguous = try await LinkHostCLI.run(["print", "swift-parser", "--config", site.configPath])
        #expect(ambiguous.exitCode == 2 && ambiguous.stderr.contains("give --host"), "\(ambiguous)")
    }

    @Test("developer mode is marked and warned about; another mode is a usage error")
    func developerMode() async throws {
        let site = try Self.site()
        let run = try await LinkHostCLI.run(["print", "entitlements", "--config", site.configPath, "--host", "meet.example.org", "--mode", "developer"])
        #expect(run.exitCode == 0 && run.stdout.contains("<string>applinks:meet.example.org?mode=developer</string>") && run.stdout.contains("before release"), "\(run)")
        #expect(!run.stdout.contains("links.example.com"), "--host prints the one site: \(run)")
        try site.write(run.stdout, to: "dev.entitlements")
        let validated = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--entitlements", site.directory + "/dev.entitlements", "--format", "json"])
        let codes = (validated.json as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(validated.exitCode == 2, "links.example.com is missing: \(validated)")
        #expect(codes.contains("LH706") && codes.contains("LH702"), "\(validated)")
        let bad = try await LinkHostCLI.run(["print", "entitlements", "--config", site.configPath, "--mode", "debug"])
        #expect(bad.exitCode == 2, "\(bad)")
        let wrongThing = try await LinkHostCLI.run(["print", "aasa", "--config", site.configPath, "--mode", "developer"])
        #expect(wrongThing.exitCode == 2, "\(wrongThing)")
    }

    @Test("a manifest missing a template and claiming a foreign host: exit 2 with LH704 and LH705")
    func manifestMismatch() async throws {
        let site = try Self.site()
        // The printed filters, wrapped into a whole manifest, less one template's claim and with a foreign host.
        let printed = try await LinkHostCLI.run(["print", "android-manifest", "--config", site.configPath])
        let filters = printed.stdout
            .replacingOccurrences(of: "    <data android:pathPrefix=\"/video/demos/join/\" />\n", with: "")
            .replacingOccurrences(of: "    <data android:host=\"meet.example.org\" />", with: "    <data android:host=\"meet.example.org\" />\n    <data android:host=\"old.example.com\" />")
        #expect(filters != printed.stdout)
        try site.write("""
        <?xml version="1.0" encoding="utf-8"?>
        <manifest xmlns:android="http://schemas.android.com/apk/res/android">
          <application>
            <activity android:name=".Call" android:exported="true">
        \(filters)
            </activity>
          </application>
        </manifest>
        """, to: "AndroidManifest.xml")
        let run = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--android-manifest", site.directory + "/AndroidManifest.xml", "--format", "json"])
        #expect(run.exitCode == 2, "\(run)")
        let found = (run.json as? [[String: Any]] ?? []).map { ($0["code"] as? String ?? "", $0["message"] as? String ?? "") }
        #expect(found.contains { $0.0 == "LH704" && $0.1.contains("/video/demos/join/{callId}") }, "\(run)")
        #expect(found.contains { $0.0 == "LH705" && $0.1.contains("old.example.com") }, "\(run)")
        #expect(!found.contains { $0.0 == "LH704" && $0.1.contains("meet.example.org") }, "meet.example.org's templates are claimed: \(run)")
    }

    @Test("match on Android and on both platforms: decisions, the deciding rule, agreement and exit codes")
    func matchPlatforms() async throws {
        let site = try Self.site()
        let android = try await LinkHostCLI.run(["match", "https://links.example.com/video/demos/join/abc", "--platform", "android", "--config", site.configPath])
        #expect(android.exitCode == 0, "\(android)")
        #expect(android.stdout.contains("com.example.video (Android): match"), "\(android)")
        #expect(android.stdout.contains(#"rule: dynamic_app_link_components[18] (rule 19) {"/":"/video/demos/join/?*"}"#), "\(android)")
        #expect(!android.stdout.contains("ABCDE12345.com.example.video:"), "android only: \(android)")

        let both = try await LinkHostCLI.run(["match", "https://meet.example.org/m/x/y/admin", "--platform", "both", "--config", site.configPath])
        #expect(both.exitCode == 4, "iOS excludes it, Android opens the app with a URL its parser reads no call in (a dead end): \(both)")
        #expect(both.stdout.contains("dead end: Android opens com.example.video with this URL"), "\(both)")
        #expect(both.stdout.contains("ABCDE12345.com.example.video: exclude") && both.stdout.contains("com.example.video (Android): match"), "\(both)")
        #expect(both.stdout.contains("DISAGREE: the URL opens the app on Android but not on iOS"), "\(both)")

        let agree = try await LinkHostCLI.run(["match", "https://x.links.example.com/join?call_id=abc", "--platform", "both", "--config", site.configPath])
        #expect(agree.exitCode == 0 && agree.stdout.contains("agree: the URL opens the app on iOS and on Android"), "\(agree)")

        let validated = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--format", "json"])
        let codes = (validated.json as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(codes.contains("LH407") && codes.contains("LH408"), "validate warns about /m/*/admin: \(validated)")
        #expect(validated.exitCode == 0, "warnings only: \(validated)")

        let bad = try await LinkHostCLI.run(["match", "https://a.example/x", "--platform", "windows"])
        #expect(bad.exitCode == 2, "\(bad)")
    }

    @Test("match --assetlinks decides with a saved file as Android reads it: no rules leave the manifest to decide, a null verifies no app, ** looks for a literal .")
    func matchFile() async throws {
        let site = try Self.site()
        let statement = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.video", "sha256_cert_fingerprints": ["\#(Self.fingerprint)"]}, "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": RULES}}}]"#
        try site.write(statement.replacingOccurrences(of: "RULES", with: #"[{"/": "/call/*", "exclude": true}, {"/": "*"}]"#), to: "assetlinks.json")
        try site.write(statement.replacingOccurrences(of: "RULES", with: "[]"), to: "empty.json")
        let excluded = try await LinkHostCLI.run(["match", "https://links.example.com/call/abc", "--platform", "android", "--assetlinks", site.directory + "/assetlinks.json"])
        #expect(excluded.exitCode == 1 && excluded.stdout.contains("exclude, stays in the browser"), "\(excluded)")
        let empty = try await LinkHostCLI.run(["match", "https://links.example.com/call/abc", "--platform", "android", "--assetlinks", site.directory + "/empty.json"])
        #expect(empty.stdout.contains("manifest_only") && empty.stdout.contains("no dynamic rules Android reads"), "\(empty)")
        try site.write(statement.replacingOccurrences(of: "RULES", with: #"[{"/": "/call/*", "comments": null}]"#), to: "null.json")
        let unreadable = try await LinkHostCLI.run(["match", "https://links.example.com/call/abc", "--platform", "android", "--assetlinks", site.directory + "/null.json"])
        #expect(unreadable.exitCode == 1 && unreadable.stdout.contains("com.example.video (Android): not_listed") && unreadable.stdout.contains("cannot read"), "\(unreadable)")
        let nullLint = try await LinkHostCLI.run(["validate", "--assetlinks", site.directory + "/null.json", "--format", "json"])
        #expect(nullLint.exitCode == 2 && nullLint.stdout.contains("LH409"), "\(nullLint)")
        try site.write(statement.replacingOccurrences(of: "RULES", with: #"[{"/": "/call/**"}]"#), to: "runs.json")
        let runs = try await LinkHostCLI.run(["match", "https://links.example.com/call/abc", "--platform", "android", "--assetlinks", site.directory + "/runs.json"])
        #expect(runs.exitCode == 1 && runs.stdout.contains("no_match"), "\(runs)")
        let lint = try await LinkHostCLI.run(["validate", "--assetlinks", site.directory + "/empty.json", "--format", "json"])
        #expect(lint.exitCode == 2 && lint.stdout.contains("LH406"), "\(lint)")
    }

    @Test("--help of print, validate and match names the new options")
    func help() async throws {
        let print = try await LinkHostCLI.run(["print", "--help"])
        for word in ["entitlements", "android-manifest", "swift-parser", "--mode"] { #expect(print.stdout.contains(word), "print --help lacks \(word)") }
        let validate = try await LinkHostCLI.run(["validate", "--help"])
        for word in ["--entitlements", "--android-manifest"] { #expect(validate.stdout.contains(word), "validate --help lacks \(word)") }
        let match = try await LinkHostCLI.run(["match", "--help"])
        for word in ["--platform", "--package", "--assetlinks"] { #expect(match.stdout.contains(word), "match --help lacks \(word)") }
    }
}
