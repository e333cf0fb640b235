import Foundation
import Testing

/// Issue 32, item 4: `linkhost match`, the platforms and the printed parsers read a URL alike. iOS opens an
/// http universal link of a served host, so the Swift parser reads it as the https call; Android's filters
/// (print android-manifest) declare https only, so Android leaves it to the browser and the Kotlin parser
/// reads none; a custom-scheme URL is answered by the apps that declare the scheme, not as a host.
@Suite("match and the apps' parsers agree", .timeLimit(.minutes(2)))
struct MatchParserAgreementTests {
    /// The issue's production team: an iOS and an Android app on meet.acme-video.com, scheme acmevideo.
    static func site() throws -> SiteFixture {
        var config = TestConfig(name: "Acme Video", bundleID: "com.acme.video", packageName: "com.acme.video", urlScheme: "acmevideo")
        config.baseURL = nil
        config.extra = ["sites": [["hosts": ["meet.acme-video.com"]]]]
        return try SiteFixture(config)
    }

    @Test("an http link iOS opens is the https call to CallLinkParser; Android and the Kotlin parser leave it to the browser")
    func httpLink() async throws {
        let site = try Self.site()
        let url = "http://meet.acme-video.com/call/abc123?type=default"
        let both = try await LinkHostCLI.run(["match", url, "--platform", "both", "--config", site.configPath], directory: site.directory)
        #expect(both.stdout.contains("ABCDE12345.com.acme.video: match, opens in the app"), "\(both)")
        #expect(both.stdout.contains(#"app parser: CallLinkParser of ABCDE12345.com.acme.video (print swift-parser --app ABCDE12345.com.acme.video): call "abc123", type "default""#), "\(both)")
        #expect(both.stdout.contains("com.acme.video (Android): no_match, stays in the browser"), "\(both)")
        #expect(both.stdout.contains("app parser: Kotlin CallLinks of com.acme.video (print kotlin-parser --app com.acme.video): none: the App Links filters of print android-manifest declare https only"), "\(both)")
        #expect(both.exitCode == 1, "iOS opens it, Android does not: \(both)")

        // The parser the app is printed says the same: http on port 80 is the https call.
        let line = try await LinkHostCLI.run(["print", "swift-parser", "--config", site.configPath], directory: site.directory)
        #expect(line.stdout.contains(#"hosts: ["meet.acme-video.com"], schemes: ["acmevideo"]"#), "\(line)")
        let https = try await LinkHostCLI.run(["match", "https://meet.acme-video.com/call/abc123?type=default", "--platform", "both", "--config", site.configPath], directory: site.directory)
        #expect(https.exitCode == 0, "\(https)")
        #expect(https.stdout.contains(#"Kotlin CallLinks of com.acme.video (print kotlin-parser --app com.acme.video): call "abc123", type "default""#), "\(https)")
    }

    @Test("the Kotlin parser reads the web schemes the printed manifest declares, and no other")
    func kotlinSchemesAreTheManifests() async throws {
        let site = try Self.site()
        let manifest = try await LinkHostCLI.run(["print", "android-manifest", "--config", site.configPath], directory: site.directory)
        let kotlin = try await LinkHostCLI.run(["print", "kotlin-parser", "--config", site.configPath], directory: site.directory)
        // The autoVerify filters' schemes: each filter's first <data android:scheme>.
        let verified = manifest.stdout.components(separatedBy: "<intent-filter android:autoVerify=\"true\">").dropFirst()
            .compactMap { $0.firstMatch(of: /android:scheme="([^"]+)"/).map { String($0.1) } }
        #expect(Set(verified) == ["https"], "\(manifest.stdout)")
        #expect(kotlin.stdout.contains(#"val WEB_SCHEMES: List<String> = listOf("https")"#), "\(kotlin.stdout.prefix(1500))")
        #expect(kotlin.stdout.contains("parts.scheme !in WEB_SCHEMES"))
    }

    @Test("a custom-scheme URL names the apps that declare the scheme and the call their parsers read")
    func customScheme() async throws {
        let site = try Self.site()
        let read = try await LinkHostCLI.run(["match", "acmevideo://call/abc123", "--platform", "both", "--config", site.configPath], directory: site.directory)
        #expect(read.exitCode == 0, "today: host call: not served, exit 3: \(read)")
        #expect(!read.stdout.contains("not served"), "\(read)")
        #expect(read.stdout.contains("scheme acmevideo: declared by the iOS app ABCDE12345.com.acme.video (Info.plist CFBundleURLSchemes: print info-plist) and the Android app com.acme.video"), "\(read)")
        #expect(read.stdout.contains(#"CallLinkParser of ABCDE12345.com.acme.video (print swift-parser --app ABCDE12345.com.acme.video): call "abc123", type "default""#), "\(read)")
        #expect(read.stdout.contains(#"Kotlin CallLinks of com.acme.video (print kotlin-parser --app com.acme.video): call "abc123", type "default""#), "\(read)")

        let notACall = try await LinkHostCLI.run(["match", "acmevideo://settings", "--platform", "both", "--config", site.configPath], directory: site.directory)
        #expect(notACall.exitCode == 1, "\(notACall)")
        #expect(notACall.stdout.contains("none: not a call link"), "\(notACall)")

        // Production and staging each declare their own scheme: the staging scheme names the staging apps only.
        var team = TestConfig(name: "Acme Video", bundleID: "com.acme.video", packageName: "com.acme.video", urlScheme: "acmevideo")
        team.baseURL = nil
        let staging: [String: Any] = [
            "hosts": ["staging-meet.acme-video.com"],
            "apps": [["name": "Acme Video Staging", "teamID": "ABCDE12345", "bundleID": "com.acme.video.staging", "urlScheme": "acmevideo-staging"]],
            "android": [["packageName": "com.acme.video.staging", "sha256CertFingerprints": [team.fingerprint]]],
        ]
        team.extra = ["sites": [["hosts": ["meet.acme-video.com"]], staging]]
        try site.writeConfig(team)
        let stagingRead = try await LinkHostCLI.run(["match", "acmevideo-staging://join/abc123", "--platform", "both", "--config", site.configPath], directory: site.directory)
        #expect(stagingRead.exitCode == 1, "/join/ is no template of these sites: \(stagingRead)")
        let stagingCall = try await LinkHostCLI.run(["match", "ACMEVIDEO-STAGING://call/abc123?type=video", "--platform", "both", "--config", site.configPath], directory: site.directory)
        #expect(stagingCall.exitCode == 0, "\(stagingCall)")
        #expect(stagingCall.stdout.contains("declared by the iOS app ABCDE12345.com.acme.video.staging (Info.plist CFBundleURLSchemes: print info-plist) and the Android app com.acme.video.staging ("), "\(stagingCall)")
        #expect(!stagingCall.stdout.contains("of ABCDE12345.com.acme.video (") && !stagingCall.stdout.contains("of com.acme.video ("), "\(stagingCall)")
        #expect(stagingCall.stdout.contains(#"CallLinkParser of ABCDE12345.com.acme.video.staging (print swift-parser --app ABCDE12345.com.acme.video.staging): call "abc123", type "video""#), "\(stagingCall)")

        let undeclared = try await LinkHostCLI.run(["match", "othervideo://call/abc123", "--config", site.configPath], directory: site.directory)
        #expect(undeclared.exitCode == 1, "\(undeclared)")
        #expect(undeclared.stdout.contains("scheme othervideo: no site of \(site.configPath) writes it (the pages write acmevideo, acmevideo-staging)"), "\(undeclared)")
    }
}
