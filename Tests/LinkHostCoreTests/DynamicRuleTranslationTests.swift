import Testing
@testable import LinkHostCore
import LinkHostTestSupport
import LinkHostJSON

/// The AASA rules as Android dynamic rules: exact where Google's rule language can say the same, noted
/// (LH407) where it cannot, and then erring toward the app.
@Suite("AASA rules as Android dynamic rules")
struct DynamicRuleTranslationTests {
    /// A one-site config with `rules` (JSON) and one app per platform.
    static func site(rules: String, extra: String = "") throws -> SiteConfig {
        try Fixtures.config(#"{"apps": [{"name": "A", "teamID": "ABCDE12345", "bundleID": "com.example.a"}], "android": [{"packageName": "com.example.a", "sha256CertFingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}], "aasa": {"rules": \#(rules)\#(extra)}}"#).defaultSite
    }

    /// Whether iOS and Android open `path` (path, query, fragment) alike.
    static func decisions(_ site: SiteConfig, _ path: String) -> (iOS: Bool, android: Bool) {
        let url = "https://example.com" + path
        let iOS = AASAMatcher(document: AASAGenerator.document(for: site)).match(url: url, appID: site.appIDs[0], domain: "").decision == .match
        let android = AndroidLinkMatcher(document: AssetLinksGenerator.document(for: site)).match(url: url, packageName: "com.example.a", domain: "").opensApp
        return (iOS, android)
    }

    @Test("rules both languages say alike: no note, and every URL tried is decided the same", arguments: [
        #"[{"path": "/call/?*"}]"#,
        #"[{"path": "/call/admin*", "exclude": true}, {"path": "/call/*"}]"#,
        #"[{"path": "/join", "query": {"call_id": "?*"}}]"#,
        #"[{"path": "/call/*", "query": {"type": "video"}, "fragment": "x?"}, {"path": "*", "exclude": true}]"#,
        #"[{"path": "/c/$(digit)?"}]"#,
        #"[{"path": "/buy/*"}, {"path": "call/?*"}, {"path": "/a**"}]"#,
        #"[{"path": "/caf%C3%A9/*"}]"#,
        #"[{"path": "/call/?*", "query": {"debug": "*"}, "fragment": "*"}]"#,
    ])
    func exact(rules: String) throws {
        let site = try Self.site(rules: rules)
        #expect(AssetLinksGenerator.dynamicRules(for: site).notes.isEmpty, "\(AssetLinksGenerator.dynamicRules(for: site).notes)")
        let paths = ["/", "/call", "/call/", "/call/abc", "/call/abc/", "/call/admin", "/call/admin/x", "/call/x?type=video#xy", "/call/x?type=audio#xy",
                     "/call/x?type=video", "/join?call_id=a", "/join/?call_id=a", "/join?call_id=", "/join", "/c/1x", "/c/1", "/c/a1", "/buy", "/buy/",
                     "/buy/shoes", "/ab", "/axxbyy", "/café/menu", "/caf%C3%A9/menu", "/call/x?debug=1", "/call/x#f"]
        for path in paths {
            let (iOS, android) = Self.decisions(site, path)
            #expect(iOS == android, "\(rules) on \(path): iOS \(iOS), Android \(android)")
        }
    }

    @Test("what Android cannot say is noted with what it does instead", arguments: [
        (#"[{"path": "/u/*/profile"}]"#, "the path /u/x/x/profile", "/u/a/b/profile"),
        (#"[{"path": "/Call/*", "caseSensitive": false}]"#, "matches case as written", "/cALL/x"),
        (#"[{"path": "/call/*", "query": "type=video"}]"#, "also opens links that carry other items", ""),
        (#"[{"path": "/call/*", "query": "a=1&b=2"}]"#, "the condition is left out", ""),
        (#"[{"path": "/call/*", "query": "a=1&b=2", "exclude": true}, {"path": "/call/*"}]"#, "the exclusion is left out", "/call/x?a=1&b=2"),
        (#"[{"path": "/call/*", "query": {"x": ""}}]"#, "absent or empty", ""),
        (#"[{"path": "/$(lang)_$(region)/*"}]"#, "more than 100", ""),
        (#"[{"path": "/$(lang)_$(region)/*", "exclude": true}, {"path": "*"}]"#, "an exclusion cannot be widened", "/en_US/x"),
        (#"[{"path": "/v1.2/*/x"}]"#, "as any character", "/v1x2/a/x"),
        (#"[{"path": "/api/*/v1.json", "exclude": true}, {"path": "*"}]"#, "as any character", "/api/a/v1xjson"),
        (#"[{"path": "/s", "query": {"a*": "1"}}]"#, "is a wildcard there", "/s?ab=1"),
        (#"[{"path": "/s", "query": {"a.b": "x*y"}}]"#, "a \".\" of the name is any character", "/s?azb=xy"),
    ] as [(String, String, String)])
    func noted(rules: String, words: String, differing: String) throws {
        let site = try Self.site(rules: rules)
        let notes = AssetLinksGenerator.dynamicRules(for: site).notes
        #expect(notes.contains { $0.message.contains(words) && $0.rule == 0 }, "\(notes)")
        if !differing.isEmpty {
            let (iOS, android) = Self.decisions(site, differing)
            #expect(iOS != android, "\(differing) is named as differing but both platforms decide \(iOS)")
        }
    }

    @Test("where a condition cannot be kept, Android opens at least what iOS opens")
    func errsTowardTheApp() throws {
        let site = try Self.site(rules: #"[{"path": "/call/*", "query": "a=1&b=2", "exclude": true}, {"path": "/call/*", "query": {"x": ""}}, {"path": "/r/$(region)/*"}]"#)
        for path in ["/call/x?a=1&b=2", "/call/x", "/call/x?x=1", "/r/US/x", "/r/ZZ/x", "/other"] {
            let (iOS, android) = Self.decisions(site, path)
            #expect(!iOS || android, "\(path) opens on iOS but not on Android")
        }
    }

    @Test("rules that all fall away, or none at all, close with an exclusion rather than an empty list")
    func closingExclusion() throws {
        for rules in ["[]", #"[{"path": "/x/$(nope)"}]"#] {
            let set = AssetLinksGenerator.dynamicRules(for: try Self.site(rules: rules))
            #expect(set.rules == [DynamicAppLinkRule(path: "*", exclude: true)], "\(rules)")
            #expect(set.sources == [nil])
        }
    }

    @Test("only Google's keys are written: no comment, caseSensitive, percentEncoded, variables or empty values")
    func onlyDocumentedKeys() throws {
        let site = try Self.site(rules: #"[{"path": "/a/$(kind)", "comment": "c", "caseSensitive": true, "percentEncoded": false, "fragment": "*", "query": {"q": "*"}}, {"path": "/b", "exclude": false}]"#, extra: #", "defaults": {"caseSensitive": true}, "substitutionVariables": {"kind": ["x", "y"]}"#)
        let json = JSONWriter.string(AssetLinksGenerator.dynamicRules(for: site).json, style: .compact)
        #expect(json == #"[{"/":"/a/x"},{"/":"/a/x/"},{"/":"/a/y"},{"/":"/a/y/"},{"/":"/b"},{"/":"/b/"}]"#)
        for rule in AssetLinksGenerator.dynamicRules(for: site).json.arrayValue ?? [] {
            #expect(rule.objectValue?.keys.allSatisfy(AndroidRuleCompiler.ruleKeys.contains) == true)
        }
        let document = AssetLinksGenerator.document(for: site)
        let lint = AssetLinksLinter.diagnostics(bytes: JSONWriter.bytes(document, style: .pretty))
        #expect(!lint.contains { $0.code == .lh406 }, "the generated file passes the dynamic-rules lint: \(lint)")
    }

    @Test("no generated pattern is a form Android's code and Google's prose read differently: no **, *?, longer runs or empty values", arguments: [
        #"[{"path": "/a/**"}, {"path": "/b/*?"}, {"path": "/c/***/d"}, {"path": "/e/?**"}]"#,
        #"[{"path": "/a/*$(kind)"}, {"path": "/b/$(kind)*"}]"#,
        #"[{"path": "/call/*", "query": {"x": "", "y": "**", "z": "*?"}, "fragment": "*?"}]"#,
        #"[{"path": "/call/*", "query": "x=", "fragment": "a**"}]"#,
    ])
    func noDisputedForms(rules: String) throws {
        let site = try Self.site(rules: rules, extra: #", "substitutionVariables": {"kind": ["x", "y*"]}"#)
        let json = AssetLinksGenerator.dynamicRules(for: site).json
        var patterns: [String] = []
        for rule in json.arrayValue ?? [] {
            for member in rule.objectValue?.members ?? [] {
                if let text = member.value.stringValue { patterns.append(text) }
                for item in member.value.objectValue?.members ?? [] { patterns.append(item.key + "=" + (item.value.stringValue ?? "")) ; patterns.append(item.value.stringValue ?? "") }
            }
        }
        #expect(!patterns.isEmpty)
        for pattern in patterns {
            #expect(!pattern.isEmpty && !pattern.hasSuffix("="), "an empty value in \(JSONWriter.string(json, style: .compact))")
            #expect(!pattern.contains("**") && !pattern.contains("*?"), "\(pattern) in \(JSONWriter.string(json, style: .compact))")
        }
        let lint = AssetLinksLinter.diagnostics(bytes: JSONWriter.bytes(AssetLinksGenerator.document(for: site), style: .pretty))
        #expect(!lint.contains { $0.code == .lh406 || $0.code == .lh409 }, "\(lint)")
    }
}
