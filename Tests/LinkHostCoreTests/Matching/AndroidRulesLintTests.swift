import Testing
@testable import LinkHostCore
import LinkHostJSON

/// The linter on a served assetlinks.json whose dynamic rules Android's code drops or reads otherwise:
/// LH409 for what the StatementService reads, LH406 for Google's documented format.
@Suite("Android dynamic rules: the linter warns as Android's code reads")
struct AndroidRulesLintTests {
    static func lint(_ statements: [String]) -> [LintDiagnostic] {
        AssetLinksLinter.diagnostics(bytes: Array(("[" + statements.joined(separator: ", ") + "]").utf8))
    }

    static func rules(_ components: String) -> [LintDiagnostic] {
        lint([AndroidReadingTests.statement("com.example.app", components)])
    }

    @Test("what makes Android read nothing from the file is an LH409 error at its place", arguments: [
        (#"[{"/": "/p", "comments": null}]"#, "comments", "null"),
        (#"[{"/": "/p", "exclude": 1}]"#, "exclude", "the number 1"),
        (#"[{"/": "/p", "?": {"a": [true]}}]"#, "[0]", "a boolean in an array"),
        (#"[{"/": "/p"}, "/q"]"#, "[1]", "not an object"),
    ])
    func unreadable(components: String, place: String, words: String) {
        let found = Self.rules(components).filter { $0.code == .lh409 }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.severity == .error)
        #expect(found.first.map { $0.path.hasSuffix(place) && $0.message.contains(words) && $0.message.contains("verifies for no app") } == true, "\(found)")
    }

    @Test("a value Android coerces is an LH409 warning saying how it reads it", arguments: [
        (#"[{"/": "/a", "exclude": "true"}, {"/": "*"}]"#, "reads it as true"),
        (#"[{"/": "/a", "exclude": "TRUE"}, {"/": "*"}]"#, "reads it as true"),
        (#"[{"/": "/a", "exclude": "yes"}, {"/": "*"}]"#, "reads it as false"),
        (#"[{"/": true}]"#, "the pattern \"true\""),
        (##"[{"#": {"a": "b/c"}}]"##, "reads it as the pattern"),
        (#"[{"/": "/p", "?": "a=1"}]"#, "drops this condition"),
        (#"[{"?": {"on": false}}]"#, "the pattern \"false\""),
    ])
    func coerced(components: String, words: String) {
        let found = Self.rules(components).filter { $0.code == .lh409 }
        #expect(found.contains { $0.severity == .warning && $0.message.contains(words) }, "\(found)")
    }

    @Test("well-typed rules draw no LH409", arguments: [
        #"[{"/": "/a", "exclude": true}, {"/": "*", "comments": "all"}]"#,
        ##"[{"/": "/p", "?": {"a": "1"}, "#": "f"}]"##,
    ])
    func clean(components: String) {
        #expect(!Self.rules(components).contains { $0.code == .lh409 || $0.code == .lh406 }, "\(Self.rules(components))")
    }

    @Test("a second statement for the same app is an LH409 warning: Android uses the first")
    func secondStatement() {
        let first = AndroidReadingTests.statement("com.example.app", nil)
        let second = AndroidReadingTests.statement("com.example.app", #"[{"/": "/second"}]"#)
        let found = Self.lint([first, second]).filter { $0.code == .lh409 }
        #expect(found.count == 1 && found[0].path == "[1]" && found[0].message.contains("uses the first, [0]"), "\(found)")
        #expect(found.first?.message.contains("manifest alone decides") == true)
        let other = AndroidReadingTests.statement("com.example.other", #"[{"/": "/second"}]"#)
        #expect(!Self.lint([first, other]).contains { $0.code == .lh409 })
    }

    @Test("Google's format (LH406) says what Android's code does", arguments: [
        (#"[{"/": ""}]"#, true, "throws on an empty pattern"),
        (#"[]"#, true, "manifest alone decides"),
        (#"[{"comments": "x"}, {"/": "/a"}]"#, true, "never matches a rule without one"),
        (#"[{"?": {"a": ""}}]"#, false, "\"a=\" exactly"),
        (#"[{"/": "/a/**"}]"#, false, "write \"/a/*\" instead"),
        (#"[{"/": "/a", "caseSensitive": false}]"#, false, "Android ignores it"),
    ])
    func documentedFormat(components: String, error: Bool, words: String) {
        let found = Self.rules(components).filter { $0.code == .lh406 }
        #expect(found.contains { ($0.severity == .error) == error && $0.message.contains(words) }, "\(found)")
    }
}
