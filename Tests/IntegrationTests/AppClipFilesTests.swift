import Foundation
import Testing

/// Issue 41 item 5: the App Clip's files as Apple documents them, over the real binary. Apple asks for the
/// `appclips:` entry "on both your app and App Clip targets" (Associating your App Clip with your website),
/// and a clip names its app in `com.apple.developer.parent-application-identifiers`, "exactly one entry,
/// the corresponding app's application identifier" (Parent Application Identifiers Entitlement).
@Suite("App Clip files as Apple documents them")
struct AppClipFilesTests {
    static let appID = TestConfig().appID

    /// `print entitlements` for `app`, written to `name` in the fixture's folder; returns the printed text.
    static func printed(_ app: String, to name: String, in site: SiteFixture) async throws -> String {
        let printed = try await LinkHostCLI.run(["print", "entitlements", "--config", site.configPath, "--app", app])
        #expect(printed.exitCode == 0, "\(printed)")
        try site.write(printed.stdout, to: name)
        return printed.stdout
    }

    /// `validate --entitlements` of the fixture's file `name` as `app`'s, in JSON.
    static func validate(_ name: String, as app: String, in site: SiteFixture) async throws -> (exitCode: Int32, findings: [[String: Any]], text: String) {
        let run = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--entitlements", site.directory + "/" + name, "--app", app, "--format", "json"])
        return (run.exitCode ?? -1, run.json as? [[String: Any]] ?? [], "\(run)")
    }

    @Test("the full app's entitlements list appclips: for the hosts whose AASA lists its clip, with no comment sending them elsewhere; without them validate fails (LH702)")
    func fullApp() async throws {
        let site = try AppClipTests.fixture()
        let text = try await Self.printed(Self.appID, to: "app.entitlements", in: site)
        for host in ["links.example.com", "join.example.org"] {
            #expect(text.contains("<string>appclips:\(host)</string>"), "\(host): \(text)")
        }
        // kiosk.example.net lists another app's clip, plain.example.net none: not this app's hosts.
        #expect(!text.contains("kiosk.example.net") && !text.contains("plain.example.net"), "\(text)")
        #expect(!text.contains("belong in the App Clip target"), "today: the appclips: entries are marked as the clip's only: \(text)")
        #expect(!text.contains(AppClipTests.clipID.replacingOccurrences(of: ".Clip", with: "") + "</string>"), "the app's file names no parent: \(text)")
        let clean = try await Self.validate("app.entitlements", as: Self.appID, in: site)
        #expect(clean.exitCode == 0 && clean.findings.isEmpty, "\(clean.text)")

        try site.write(text.replacingOccurrences(of: "\t<string>appclips:join.example.org</string>\n", with: ""), to: "no-clip.entitlements")
        let missing = try await Self.validate("no-clip.entitlements", as: Self.appID, in: site)
        #expect(missing.exitCode == 2, "today: a full app's file without appclips: passes: \(missing.text)")
        #expect(missing.findings.contains { $0["code"] as? String == "LH702" && ($0["message"] as? String ?? "").contains("appclips:join.example.org") }, "\(missing.text)")
    }

    @Test("the clip's entitlements name its app; validate refuses a wrong parent (LH718) and a missing one (LH717), and takes Xcode's $(AppIdentifierPrefix) form")
    func parent() async throws {
        let site = try AppClipTests.fixture()
        let text = try await Self.printed(AppClipTests.clipBundleID, to: "clip.entitlements", in: site)
        #expect(text.contains("<key>com.apple.developer.parent-application-identifiers</key>\n<array>\n\t<string>\(Self.appID)</string>\n</array>"), "today: no parent printed: \(text)")
        let clean = try await Self.validate("clip.entitlements", as: AppClipTests.clipID, in: site)
        #expect(clean.exitCode == 0 && clean.findings.isEmpty, "\(clean.text)")

        try site.write(text.replacingOccurrences(of: "<string>\(Self.appID)</string>", with: "<string>A1B2C3D4E5.com.other.app</string>"), to: "wrong.entitlements")
        let wrong = try await Self.validate("wrong.entitlements", as: AppClipTests.clipBundleID, in: site)
        #expect(wrong.exitCode == 2, "today: another app as parent passes: \(wrong.text)")
        #expect(wrong.findings.contains { $0["code"] as? String == "LH718" && ($0["message"] as? String ?? "").contains(Self.appID) }, "\(wrong.text)")

        // The Associated Domains alone: the fragment up to the end of its first array.
        let domainsOnly = text.components(separatedBy: "</array>\n")[0] + "</array>\n"
        try site.write(domainsOnly, to: "orphan.entitlements")
        let orphan = try await Self.validate("orphan.entitlements", as: AppClipTests.clipBundleID, in: site)
        #expect(orphan.exitCode == 2 && orphan.findings.contains { $0["code"] as? String == "LH717" }, "today: a clip naming no app passes: \(orphan.text)")

        // What Xcode writes into a new clip target: the same ID once signed.
        try site.write(text.replacingOccurrences(of: "<string>\(Self.appID)</string>", with: "<string>$(AppIdentifierPrefix)\(TestConfig().bundleID)</string>"), to: "xcode.entitlements")
        let xcode = try await Self.validate("xcode.entitlements", as: AppClipTests.clipBundleID, in: site)
        #expect(xcode.exitCode == 0 && xcode.findings.isEmpty, "\(xcode.text)")

        // A clip listed by hand (aasa.appclips) has the app its ID extends as parent.
        let kiosk = try await Self.printed(AppClipTests.kioskClipID, to: "kiosk.entitlements", in: site)
        #expect(kiosk.contains("<string>BRAND12345.org.brand.video</string>"), "\(kiosk)")
    }

    @Test("the clip's file checked as the app's is a warning naming the clip's key (LH719)")
    func clipFileAsApp() async throws {
        let site = try AppClipTests.fixture()
        let app = try await Self.printed(Self.appID, to: "app.entitlements", in: site)
        let withParent = app.replacingOccurrences(of: "</array>\n", with: "</array>\n<key>com.apple.developer.parent-application-identifiers</key><array><string>\(Self.appID)</string></array>\n")
        try site.write(withParent, to: "pasted.entitlements")
        let pasted = try await Self.validate("pasted.entitlements", as: Self.appID, in: site)
        #expect(pasted.exitCode == 0, "\(pasted.text)")
        #expect(pasted.findings.contains { $0["code"] as? String == "LH719" && $0["severity"] as? String == "warning" }, "\(pasted.text)")
    }
}
