import Testing
@testable import LinkHostCore
import LinkHostJSON

/// How Android's code reads the file, a URL and a pattern: the statement chosen, the files it cannot read,
/// `Uri.parse` with `Uri.decode`, and `parseMatchingExpression` with `PatternMatcher.matchGlobPattern`.
@Suite("Android dynamic rules: AOSP's reading")
struct AndroidReadingTests {
    static let fingerprint = AndroidRuleSemanticsTests.fingerprint

    /// A statement granting `relation` to `package`, with `components` as its dynamic rules (nil: none).
    static func statement(_ package: String, _ components: String?, relation: String = "delegate_permission/common.handle_all_urls") -> String {
        let extensions = components.map { #", "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": \#($0)}}"# } ?? ""
        return #"{"relation": ["\#(relation)"], "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": ["\#(fingerprint)"]}\#(extensions)}"#
    }

    static func decide(_ statements: [String], _ url: String, package: String = "com.example.app") throws -> AndroidMatchDecision {
        let document = try JSONParser.parse("[" + statements.joined(separator: ", ") + "]")
        return AndroidLinkMatcher(document: document).match(url: url, packageName: package, domain: "example.com").decision
    }

    @Test("the first statement for the app decides, with its rules or without")
    func firstStatementDecides() throws {
        let withoutRules = Self.statement("com.example.app", nil)
        let second = Self.statement("com.example.app", #"[{"/": "/second"}]"#)
        let first = Self.statement("com.example.app", #"[{"/": "/first"}]"#)
        #expect(try Self.decide([withoutRules, second], "https://example.com/second") == .manifestOnly)
        #expect(try Self.decide([first, second], "https://example.com/second") == .noMatch)
        #expect(try Self.decide([first, second], "https://example.com/first") == .match)
        let otherRelation = Self.statement("com.example.app", #"[{"/": "/first"}]"#, relation: "delegate_permission/common.get_login_creds")
        #expect(try Self.decide([otherRelation, second], "https://example.com/second") == .match)
        let otherApp = Self.statement("com.example.other", #"[{"/": "/first"}]"#)
        #expect(try Self.decide([otherApp, second], "https://example.com/second") == .match)
        #expect(try Self.decide([otherApp, second], "https://example.com/first") == .noMatch)
    }

    @Test("a file Android cannot read verifies no app, whichever statement holds the fault", arguments: [
        #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "ios_app", "appid": "X"}}"#,
        #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.other", "sha256_cert_fingerprints": []}}"#,
        #"{"relation": ["Delegate_Permission/x"], "target": {"namespace": "web", "site": "https://example.com"}}"#,
        #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "web", "site": "https://example.com/path"}}"#,
        #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "web", "site": "https://example.com"}, "note": 1}"#,
        #"[]"#,
    ])
    func unreadable(_ faulty: String) throws {
        let good = Self.statement("com.example.app", #"[{"/": "*"}]"#)
        #expect(try Self.decide([good, faulty], "https://example.com/a") == .notListed)
        #expect(try Self.decide([good], "https://example.com/a") == .match)
    }

    @Test("statements Android skips or follows elsewhere leave the rest readable", arguments: [
        #"{"include": "https://example.com/other.json"}"#,
        #"{"include": true, "target": "x"}"#,
        #"{"relation": ["delegate_permission/common.handle_all_urls"]}"#,
        #"{"target": {"namespace": "web", "site": "https://example.com"}}"#,
        #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "web", "site": "https://example.com/"}}"#,
    ])
    func skipped(_ statement: String) throws {
        let good = Self.statement("com.example.app", #"[{"/": "/a"}]"#)
        #expect(try Self.decide([statement, good], "https://example.com/a") == .match)
        #expect(try Self.decide([statement, good], "https://example.com/b") == .noMatch)
    }

    @Test("a repeated key keeps its last value, as JSONObject.put does")
    func repeatedKey() throws {
        let rules = #"[{"/": "/first", "/": "/last"}]"#
        #expect(try Self.decide([Self.statement("com.example.app", rules)], "https://example.com/last") == .match)
        #expect(try Self.decide([Self.statement("com.example.app", rules)], "https://example.com/first") == .noMatch)
    }

    @Test("Uri.parse cuts path, query and fragment as StringUri does", arguments: [
        ("https://example.com", "", nil, nil),
        ("https://example.com/", "/", nil, nil),
        ("https://example.com?a=1", "", "a=1", nil),
        ("https://example.com#f", "", nil, "f"),
        ("https://example.com/p?#", "/p", "", ""),
        ("https://example.com/p#f?x", "/p", nil, "f?x"),
        ("https://example.com\\a/b", "\\a/b", nil, nil),
        ("https://example.com/a%2Fb?q=%26", "/a/b", "q=&", nil),
        ("https://example.com/a+b", "/a+b", nil, nil),
    ] as [(String, String?, String?, String?)])
    func uriParts(url: String, path: String?, query: String?, fragment: String?) {
        let uri = AndroidURI(url)
        #expect(uri.path == path)
        #expect(uri.query == query)
        #expect(uri.fragment == fragment)
    }

    @Test("Uri.decode keeps +, turns a broken % into U+FFFD and bad UTF-8 into U+FFFD", arguments: [
        ("a+b", "a+b"), ("%41", "A"), ("x%", "x\u{FFFD}"), ("x%4", "x\u{FFFD}"), ("x%4z", "x\u{FFFD}\u{4}"),
        ("x%zz", "x\u{FFFD}\u{0}z"), ("%C3%A9", "é"), ("%C3", "\u{FFFD}"), ("%FFa", "\u{FFFD}a"), ("%e2%82%ac", "€"),
    ])
    func decode(encoded: String, decoded: String) {
        #expect(AndroidURI.decode(encoded) == decoded)
    }

    @Test("matchQuery splits on &, else on ;, dropping trailing empty pieces", arguments: [
        ("a=1&b=2", ["a=1", "b=2"]), ("a=1;b=2", ["a=1", "b=2"]), ("a=1&b=2;c=3", ["a=1", "b=2;c=3"]),
        ("a=1&", ["a=1&"]), ("&&", []), ("", [""]), ("&a", ["", "a"]),
    ])
    func querySplit(query: String, parameters: [String]) {
        #expect(AndroidURI("https://example.com/?" + query).queryParameters == parameters)
    }

    @Test("parseMatchingExpression chooses the PatternMatcher type and pattern", arguments: [
        ("/a", AndroidPatternMatcher.Kind.literal, "/a"), ("/a.b", .literal, "/a.b"), ("/a/*", .prefix, "/a/"),
        ("*", .prefix, ""), ("*x", .glob, ".*x"), ("/a/**", .glob, "/a/.*.*"), ("/a?", .glob, "/a."),
        ("/v1.2/*/x", .glob, "/v1\\.2/.*/x"), ("a\\*", .prefix, "a\\"), ("?*", .glob, "..*"),
    ])
    func expression(expression: String, kind: AndroidPatternMatcher.Kind, pattern: String) {
        let matcher = AndroidPatternMatcher(expression: expression)
        #expect(matcher?.kind == kind)
        #expect(matcher.map { String(decoding: $0.pattern, as: UTF16.self) } == pattern)
        #expect(AndroidPatternMatcher(expression: "") == nil)
    }

    @Test("matchGlobPattern: .* skips to the next pattern character taken literally, with no backtracking", arguments: [
        ("*.bar", "foo.bar", true), ("*.bar", "foo.b.bar", false), ("*foo*bar", "xfoozbar", true), ("*foo*bar", "ffoobar", false),
        ("foo*?bar", "foo.bar", true), ("foo*?bar", "foobar", false), ("?*bar", "bar", false), ("?*bar", "xbar", true),
        ("a*b*", "ab", true), ("*c", "xcxc", false), ("foo?*bar.*", "foo.bar", false), ("foo?*bar.*", "foodbar.x", true),
        ("/v1.2/*/x", "/v1x2/a/x", true), ("/a/**", "/a/x.*", true), ("/a/**", "/a/x", false),
    ])
    func glob(expression: String, text: String, matches: Bool) {
        #expect(AndroidPatternMatcher(expression: expression)?.matches(text) == matches, "\(expression) on \(text)")
    }
}
