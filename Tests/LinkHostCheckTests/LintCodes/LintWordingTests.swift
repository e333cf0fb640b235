import Testing
@testable import LinkHostCore
@testable import LinkHostCheck

/// The words of lint messages people tripped over (issue 23): each says what was found, not only the rule.
@Suite("Lint wording")
struct LintWordingTests {
    static let fingerprint = LintFixtures.fingerprints[0]

    /// The messages of `code` for `input`.
    static func messages(_ code: LintCode, _ input: LintInput) throws -> [String] {
        try LintFixtures.lint(input).diagnostics.filter { $0.code == code }.map(\.message)
    }

    @Test("a fingerprint of the wrong length says how many pairs it has; 20 pairs is a SHA-1, SHA-256 needed")
    func fingerprintLength() throws {
        let thirtyThree = Self.fingerprint + ":AB"
        let config = try Self.messages(.lh402, .config(["android.0.sha256CertFingerprints": "[\"\(thirtyThree)\"]"]))
        #expect(config.contains { $0.contains("has 33 hex byte pairs") && $0.contains("32") }, "\(config)")
        let sha1 = (0..<20).map { _ in "AB" }.joined(separator: ":")
        let sha1Config = try Self.messages(.lh402, .config(["android.0.sha256CertFingerprints": "[\"\(sha1)\"]"]))
        #expect(sha1Config.contains { $0.contains("has 20 hex byte pairs") && $0.contains("SHA-1") && $0.contains("SHA-256") }, "\(sha1Config)")
        let file = try Self.messages(.lh402, .assetlinks(LintFixtures.assetlinks.replacing(Self.fingerprint, with: sha1)))
        #expect(file.contains { $0.contains("SHA-1") }, "assetlinks.json says it too: \(file)")
        let garbage = try Self.messages(.lh402, .config(["android.0.sha256CertFingerprints": #"["SHA256:abc"]"#]))
        #expect(garbage.contains { $0.contains("is not a SHA-256 fingerprint") }, "\(garbage)")
    }

    @Test("a misspelled placeholder gets \"did you mean {callId}\"")
    func placeholderSpelling() throws {
        let found = try Self.messages(.lh115, .config(["callLinks.paths": nil, "callLinks.links": #"["/call/{callID}"]"#]))
        #expect(found.contains { $0.contains(#"did you mean "{callId}"?"#) } && !found.contains { $0.contains("fills a whole segment") }, "\(found)")
    }

    @Test("LH703 names the entitlement's own index, past an entry it could not read")
    func entitlementIndex() throws {
        let entries = "<string>applinks:$(LINK_HOST)</string><string>applinks:old.example.com</string></array>"
        let diagnostics = try LintFixtures.lint(.entitlements(LintFixtures.entitlements.replacing("</array>", with: entries))).diagnostics
        let foreign = try #require(diagnostics.first { $0.code == .lh703 })
        #expect(foreign.path == "com.apple.developer.associated-domains[2]", "\(diagnostics.map(\.description))")
    }

    @Test("LH403 stays quiet for .debug/.staging packages and for an app that ignores it; other codes cannot be ignored")
    func singleFingerprint() throws {
        let one = "[\"\(Self.fingerprint)\"]"
        #expect(try LintFixtures.lint(.config(["android.0.sha256CertFingerprints": one])).codes.contains(.lh403))
        for package in ["com.acme.video.debug", "com.acme.video.staging", "com.acme.video.Dev"] {
            let quiet = try LintFixtures.lint(.config(["android.0.sha256CertFingerprints": one, "android.0.packageName": "\"\(package)\""]))
            #expect(!quiet.codes.contains(.lh403) && !quiet.hasErrors, "\(package): \(quiet.diagnostics.map(\.description))")
        }
        let file = LintFixtures.assetlinks.replacing("\"\(Self.fingerprint)\", ", with: "").replacing("com.acme.video", with: "com.acme.video.debug")
        #expect(!(try LintFixtures.lint(.assetlinks(file)).codes.contains(.lh403)))
        let ignored = try LintFixtures.lint(.config(["android.0.sha256CertFingerprints": one, "android.0.lint": #"{"ignore": ["LH403"]}"#]))
        #expect(!ignored.codes.contains(.lh403) && !ignored.hasErrors, "\(ignored.diagnostics.map(\.description))")
        let wrong = try LintFixtures.lint(.config(["android.0.lint": #"{"ignore": ["LH402"]}"#]))
        #expect(wrong.hasErrors && wrong.diagnostics.contains { $0.path == "android[0].lint.ignore[0]" && $0.message.contains("LH403") }, "\(wrong.diagnostics.map(\.description))")
    }
}
