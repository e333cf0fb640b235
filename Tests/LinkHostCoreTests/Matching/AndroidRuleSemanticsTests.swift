import Testing
@testable import LinkHostCore
import LinkHostJSON

@Suite("Android dynamic rules: the case table, decided as AOSP's code decides")
struct AndroidRuleSemanticsTests {
    /// A fingerprint: Android's AndroidAppAsset.create refuses a target without one, and then the whole file.
    static let fingerprint = (0..<32).map { _ in "AB" }.joined(separator: ":")

    /// An assetlinks.json granting App Links to one app, with `components` as its dynamic rules.
    static func document(_ components: String) throws -> JSONValue {
        try JSONParser.parse(#"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["\#(Self.fingerprint)"]}, "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": \#(components)}}}]"#)
    }

    @Test("every case of the table is decided as its source says", arguments: AndroidRuleCase.all)
    func semantic(_ testCase: AndroidRuleCase) throws {
        let matcher = AndroidLinkMatcher(document: try Self.document(testCase.components))
        let result = matcher.match(url: testCase.url, packageName: "com.example.app", domain: "example.com")
        #expect(result.decision == testCase.expected, "\(testCase.components) on \(testCase.url): \(result.reason)")
    }

    @Test("every semantic rule has a source and at least two cases, and every case names a known rule")
    func tableCoversEveryRule() {
        for (rule, source) in AndroidRuleCase.sources {
            let cases = AndroidRuleCase.all.filter { $0.rule == rule }
            #expect(cases.count >= 2, "\(rule) (\(source)) needs a case either side")
            #expect(Set(cases.map(\.expected)).count >= 2, "\(rule) (\(source)) needs cases with different decisions")
        }
        for testCase in AndroidRuleCase.all {
            #expect(AndroidRuleCase.sources[testCase.rule] != nil, "\(testCase) names no source")
        }
    }

    @Test("a statement without dynamic rules leaves the decision to the manifest; an unknown app is not listed")
    func withoutRules() throws {
        let plain = try JSONParser.parse(#"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["\#(Self.fingerprint)"]}}]"#)
        let matcher = AndroidLinkMatcher(document: plain)
        #expect(matcher.match(url: "https://example.com/x", packageName: "com.example.app", domain: "").decision == .manifestOnly)
        #expect(matcher.match(url: "https://example.com/x", packageName: "com.example.other", domain: "").decision == .notListed)
        #expect(matcher.packageNames == ["com.example.app"])
    }

    @Test("a URL on another host than the file's is never an App Link of it")
    func otherHost() throws {
        let matcher = AndroidLinkMatcher(document: try Self.document(#"[{"/": "*"}]"#))
        #expect(matcher.match(url: "https://other.example/x", packageName: "com.example.app", domain: "example.com").decision == .noMatch)
        #expect(matcher.match(url: "https://example.com/x", packageName: "com.example.app", domain: "example.com").decision == .match)
    }

    @Test("the lazy star: what Google's wording means, against iOS's backtracking star", arguments: [
        ("/a/*/b", "/a/x/b", true), ("/a/*/b", "/a/x/y/b", false), ("*", "", true), ("?*", "", false),
        ("a*b*", "ab", true), ("*c", "xcxc", false), ("*c", "xxc", true), ("/?*/call/?*", "/us/call/abc", true),
    ])
    func lazyStar(pattern: String, text: String, matches: Bool) {
        #expect(AndroidPattern(pattern).matches(text) == matches, "\(pattern) on \(text)")
    }
}
