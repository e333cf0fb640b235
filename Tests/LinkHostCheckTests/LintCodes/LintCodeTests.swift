import Foundation
import Testing
@testable import LinkHostCore
@testable import LinkHostCheck

@Suite("Lint codes")
struct LintCodeTests {
    @Test("each code is reported for its failing input and not for its passing one", arguments: LintCodeCase.all)
    func code(_ testCase: LintCodeCase) throws {
        let failing = try LintFixtures.lint(testCase.failing)
        #expect(failing.codes.contains(testCase.code), "\(testCase.code.rawValue) missing; got \(failing.diagnostics.map(\.description))")
        let passing = try LintFixtures.lint(testCase.passing)
        #expect(!passing.codes.contains(testCase.code), "\(testCase.code.rawValue) reported for the passing input: \(passing.diagnostics.map(\.description))")
        #expect(!passing.hasErrors, "the passing input has errors: \(passing.diagnostics.map(\.description))")
    }

    @Test("every code has a failing and a passing case")
    func everyCodeIsCovered() {
        let covered = Set(LintCodeCase.all.map(\.code))
        let missing = LintCode.allCases.filter { !covered.contains($0) }
        #expect(missing.isEmpty, "no case for \(missing.map(\.rawValue))")
    }

    @Test("the base inputs are clean: no diagnostic at all")
    func baseInputsAreClean() throws {
        for input in [LintCodeCase.base, .aasa(LintFixtures.aasa), .assetlinks(LintFixtures.assetlinks), .deployment([:], cdn: true),
                      .entitlements(LintFixtures.entitlements), .androidManifest(LintFixtures.androidManifest), .infoPlist(LintFixtures.infoPlist),
                      .appClipEntitlements(LintFixtures.clipEntitlements)] {
            let result = try LintFixtures.lint(input)
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        }
    }

    @Test("docs/diagnostics.md is the table generated from the codes")
    func documentation() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let file = root.path + "/docs/diagnostics.md"
        // LINKHOST_RECORD_DIAGNOSTICS=1 (make diagnostics-doc) writes the table instead, like HOSTILE_RECORD.
        if ProcessInfo.processInfo.environment["LINKHOST_RECORD_DIAGNOSTICS"] == "1" {
            try LintCode.markdown.write(toFile: file, atomically: true, encoding: .utf8)
        }
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text == LintCode.markdown, "regenerate docs/diagnostics.md with `make diagnostics-doc`")
        for code in LintCode.allCases {
            #expect(text.contains("| \(code.rawValue) |"))
        }
    }

    @Test("the JSON form is an array of code, severity, path and message, in that order")
    func jsonShape() throws {
        let report = LintReport(source: "x", diagnostics: [LintDiagnostic(.lh101, .error, path: "apps[0].teamID", "\"abc\" is wrong")])
        #expect(report.jsonText == """
        [
          {
            "code": "LH101",
            "severity": "error",
            "path": "apps[0].teamID",
            "message": "\\"abc\\" is wrong"
          }
        ]

        """)
        #expect(LintReport(source: "x", diagnostics: []).jsonText == "[]\n")
    }

    @Test("human output: a heading with the counts, errors before warnings")
    func humanShape() {
        let report = LintReport(source: "c.json", diagnostics: [
            LintDiagnostic(.lh403, .warning, path: "android[0].sha256CertFingerprints", "one"),
            LintDiagnostic(.lh101, .error, path: "apps[0].teamID", "bad"),
        ])
        #expect(report.humanText(validSummary: "") == "c.json: 1 error, 1 warning\n  error LH101 apps[0].teamID: bad\n  warning LH403 android[0].sha256CertFingerprints: one\n")
        let clean = LintReport(source: "c.json", diagnostics: [])
        #expect(clean.humanText(validSummary: "1 iOS app") == "c.json: valid (1 iOS app)\n")
    }

    @Test("loader diagnostics keep their path and message and gain a code")
    func loaderDiagnosticsKeepTheirWords() throws {
        let result = try LintFixtures.lint(.config(["apps.0.teamID": #""abc""#]))
        let diagnostic = try #require(result.diagnostics.first { $0.code == .lh101 })
        #expect(diagnostic.path == "apps[0].teamID")
        #expect(diagnostic.message == "\"abc\" is not 10 characters of A-Z and 0-9")
        #expect(diagnostic.severity == .error)
    }

    @Test("findings about the generated AASA are located at the config rule they come from")
    func generatedPathsNameConfigRules() throws {
        let result = try LintFixtures.lint(LintCodeCase.rules(##"[{"path": "/call/*"}, {"path": "/call/x", "fragment": "#top"}]"##))
        let shadowed = try #require(result.diagnostics.first { $0.code == .lh201 })
        #expect(shadowed.path == "aasa.rules[1]")
        #expect(shadowed.message.contains("aasa.rules[0]"))
        #expect(result.diagnostics.contains { $0.code == .lh209 && $0.path == "aasa.rules[1].fragment" })

        let defaulted = try LintFixtures.lint(.config(["aasa.rules": nil, "callLinks.paths": #"["call", "c"]"#, "aasa.substitutionVariables": #"{"unused": ["x"]}"#]))
        #expect(defaulted.diagnostics.map(\.path) == ["aasa.substitutionVariables.unused"], "\(defaulted.diagnostics)")
    }

    @Test("a detail shared by two apps is unreachable only for the app whose earlier detail covers it")
    func sharedDetailShadowing() throws {
        let aasa = #"""
        {"applinks": {"details": [
          {"appIDs": ["ABCDE12345.com.example.one"], "components": [{"/": "*"}]},
          {"appIDs": ["ABCDE12345.com.example.one", "ABCDE12345.com.example.two"], "components": [{"/": "/call/*"}]}
        ]}}
        """#
        let result = try LintFixtures.lint(.aasa(aasa))
        let finding = try #require(result.diagnostics.first { $0.code == .lh201 })
        #expect(finding.path == "applinks.details[1].components[0]")
        #expect(finding.message.contains("for \"ABCDE12345.com.example.one\""))
        #expect(!finding.message.contains("example.two"))
    }
}
