@testable import LinkHostCore

/// One URL case of Android's Dynamic App Links semantics: the rules, the URL, what Android does, and where
/// that expectation comes from.
struct AndroidRuleCase: Sendable, CustomStringConvertible {
    /// The semantic rule the case illustrates (a key of `AndroidRuleCase.sources`).
    let rule: String
    /// The `dynamic_app_link_components` array, as JSON.
    let components: String
    let url: String
    let expected: AndroidMatchDecision

    var description: String { "\(rule): \(url) → \(expected.rawValue)" }

    init(_ rule: String, _ components: String, _ url: String, _ expected: AndroidMatchDecision) {
        self.rule = rule
        self.components = components
        self.url = url
        self.expected = expected
    }

    /// Where each semantic rule's expectation comes from. "Google" is developer.android.com, "Configure
    /// website associations and dynamic rules", where Android's code agrees with it; "AOSP" names the file
    /// and method of Android's own code that decides the case (frameworks/base: `core/java/android/os/
    /// PatternMatcher.java`, `core/java/android/content/UriRelativeFilter.java`, `UriRelativeFilterGroup
    /// .java`, `core/java/android/net/Uri.java`, `UriCodec.java`; the StatementService app in
    /// `packages/StatementService`: `StatementParser.kt`, `JsonParser.java`, `DalComponentParser.kt`,
    /// `DomainVerifier.kt`, `StatementUtils.kt`).
    static let sources: [String: String] = [
        "keys": "Google, Declare dynamic rules: \"/\" path, \"#\" fragment, \"?\" query dictionary; all optional",
        "star": "AOSP DalComponentParser.parseMatchingExpression: * is .* of PatternMatcher.matchGlobPattern, which skips to the next pattern character and never backtracks; a lone trailing * is PATTERN_PREFIX",
        "any": "AOSP DalComponentParser.parseMatchingExpression: ? is . (any one UTF-16 unit)",
        "one-or-more": "AOSP DalComponentParser.parseMatchingExpression: ?* is ..* in PatternMatcher.matchGlobPattern",
        "query": "AOSP UriRelativeFilter.matchQuery: each item is the filter name=pattern, tried on each &-separated parameter; every item must match (UriRelativeFilterGroup.matchData)",
        "query-decoded": "AOSP Uri.getQuery decodes the whole query, then UriRelativeFilter.matchQuery splits on & (or ; when & gives one piece, Java split dropping trailing empties)",
        "order": "AOSP UriRelativeFilterGroup.matchGroupsToUri: the first group that matches decides, allow or block",
        "unmatched": "AOSP UriRelativeFilterGroup.matchGroupsToUri: no group matches, false: the URL stays in the browser",
        "no-rules": "AOSP StatementParser.parseDynamicAppLinkComponents: a missing, non-array or empty list gives no groups, and DomainVerificationService applies none (the manifest decides)",
        "empty-pattern": "AOSP DalComponentParser.parseMatchingExpression throws on an empty pattern while StatementUtils.createUriRelativeFilterGroup builds the groups: none is stored, the manifest decides",
        "no-filter": "AOSP UriRelativeFilterGroup.matchData: a group without filters never matches, and it still counts as a rule",
        "query-not-object": "AOSP StatementParser.parseComponent: optJSONObject(\"?\") is null for a non-object, so only that condition is dropped",
        "types": "AOSP StatementParser.parseComponent: optBoolean(\"exclude\") takes true/false strings in any case, getString turns booleans and objects into their JSON text",
        "unreadable": "AOSP JsonParser.parse refuses null and numbers (and booleans in arrays), AssetFactory.create unknown targets, getJSONObject non-object rules: parseStatementList throws and DomainVerifier.verifyHost verifies nothing",
        "path-empty": "AOSP Uri.StringUri.parsePath: a URL without a path has the path \"\", which no /-pattern matches",
        "decoded": "AOSP UriRelativeFilter.matchData on Uri.getPath/getQuery/getFragment, decoded by Uri.decode (UriCodec.decode without + to space)",
        "lone-percent": "AOSP UriCodec.appendDecoded: a % without two hex digits gives U+FFFD (and, for a bad digit, the byte read so far)",
        "case": "AOSP PatternMatcher compares UTF-16 units exactly",
        "fragment-absent": "AOSP UriRelativeFilter.matchData: no # gives getFragment() null, which PatternMatcher.match refuses",
        "repeated": "AOSP UriRelativeFilter.matchQuery: any one matching parameter is enough",
        "runs": "AOSP DalComponentParser: ** is .*.* and *? is .*., whose .* looks for a literal \".\"",
        "example": "Google, Configure dynamic rules: the page's example file, which Android's code decides alike",
    ]

    static let all: [AndroidRuleCase] = [
        AndroidRuleCase("keys", #"[{"/": "/a"}]"#, "https://example.com/a", .match),
        AndroidRuleCase("keys", #"[{"/": "/a"}]"#, "https://example.com/b", .noMatch),
        AndroidRuleCase("keys", ##"[{"#": "top"}]"##, "https://example.com/any/path#top", .match),
        AndroidRuleCase("keys", ##"[{"#": "top"}]"##, "https://example.com/any/path#bottom", .noMatch),
        AndroidRuleCase("keys", ##"[{"/": "/a", "#": "top"}]"##, "https://example.com/b#top", .noMatch),
        AndroidRuleCase("keys", #"[{"/": "/a", "exclude": true}, {"/": "*"}]"#, "https://example.com/a", .exclude),

        AndroidRuleCase("star", #"[{"/": "/call/*"}]"#, "https://example.com/call/", .match),
        AndroidRuleCase("star", #"[{"/": "/call/*"}]"#, "https://example.com/call/a/b/c", .match),
        AndroidRuleCase("star", #"[{"/": "/u/*/profile"}]"#, "https://example.com/u/ann/profile", .match),
        AndroidRuleCase("star", #"[{"/": "/u/*/profile"}]"#, "https://example.com/u/ann/x/profile", .noMatch),
        AndroidRuleCase("star", #"[{"/": "*.pdf"}]"#, "https://example.com/a.b.pdf", .noMatch),
        AndroidRuleCase("star", #"[{"/": "/*.pdf"}]"#, "https://example.com/report.pdf", .match),
        AndroidRuleCase("star", #"[{"/": "/*.pdf"}]"#, "https://example.com/v1.2/report.pdf", .noMatch),
        AndroidRuleCase("star", #"[{"/": "/a*"}]"#, "https://example.com/a", .match),
        AndroidRuleCase("star", #"[{"/": "/v1.2/*/x"}]"#, "https://example.com/v1x2/a/x", .match),
        AndroidRuleCase("star", #"[{"/": "/v1.2/*"}]"#, "https://example.com/v1x2/a", .noMatch),

        AndroidRuleCase("any", #"[{"/": "/c?t"}]"#, "https://example.com/cat", .match),
        AndroidRuleCase("any", #"[{"/": "/c?t"}]"#, "https://example.com/ct", .noMatch),
        AndroidRuleCase("any", #"[{"/": "/c?t"}]"#, "https://example.com/coat", .noMatch),

        AndroidRuleCase("one-or-more", #"[{"/": "/call/?*"}]"#, "https://example.com/call/abc", .match),
        AndroidRuleCase("one-or-more", #"[{"/": "/call/?*"}]"#, "https://example.com/call/", .noMatch),
        AndroidRuleCase("one-or-more", #"[{"/": "/call/?*"}]"#, "https://example.com/call", .noMatch),
        AndroidRuleCase("one-or-more", #"[{"/": "/call/?*"}]"#, "https://example.com/call/video:abc", .match),

        AndroidRuleCase("query", #"[{"?": {"dl": "*", "in_app": "true"}}]"#, "https://example.com/x?in_app=true&dl=abc", .match),
        AndroidRuleCase("query", #"[{"?": {"dl": "*", "in_app": "true"}}]"#, "https://example.com/x?lang=en&in_app=true&tz=pst&dl=abc", .match),
        AndroidRuleCase("query", #"[{"?": {"dl": "*", "in_app": "true"}}]"#, "https://example.com/x?lang=en&tz=pst&dl=abc", .noMatch),
        AndroidRuleCase("query", #"[{"/": "/join", "?": {"call_id": "?*"}}]"#, "https://example.com/join?call_id=", .noMatch),
        AndroidRuleCase("query", #"[{"/": "/join", "?": {"call_id": "?*"}}]"#, "https://example.com/join", .noMatch),
        AndroidRuleCase("query", #"[{"/": "/join", "?": {"call_id": "?*"}}]"#, "https://example.com/join?call_type=video&call_id=abc", .match),
        AndroidRuleCase("query", #"[{"?": {"a": ""}}]"#, "https://example.com/x?a=", .match),
        AndroidRuleCase("query", #"[{"?": {"a": ""}}]"#, "https://example.com/x?a=1", .noMatch),
        AndroidRuleCase("query", #"[{"?": {"a.b": "1"}}]"#, "https://example.com/x?a.b=1", .match),

        AndroidRuleCase("query-decoded", #"[{"?": {"b": "1"}}]"#, "https://example.com/x?a=x%26b=1", .match),
        AndroidRuleCase("query-decoded", #"[{"?": {"a": "x&b=1"}}]"#, "https://example.com/x?a=x%26b=1", .noMatch),
        AndroidRuleCase("query-decoded", #"[{"?": {"b": "1"}}]"#, "https://example.com/x?a=x;b=1", .match),
        AndroidRuleCase("query-decoded", #"[{"?": {"b": "1"}}]"#, "https://example.com/x?a=x&c=2;b=1", .noMatch),
        AndroidRuleCase("query-decoded", #"[{"?": {"b": "1&"}}]"#, "https://example.com/x?b=1&", .match),
        AndroidRuleCase("query-decoded", #"[{"?": {"q": "a+b"}}]"#, "https://example.com/x?q=a+b", .match),
        AndroidRuleCase("query-decoded", #"[{"?": {"q": "a b"}}]"#, "https://example.com/x?q=a+b", .noMatch),

        AndroidRuleCase("order", #"[{"/": "*", "exclude": true}, {"/": "/path1"}]"#, "https://example.com/path1", .exclude),
        AndroidRuleCase("order", #"[{"/": "/path1"}, {"/": "*", "exclude": true}]"#, "https://example.com/path1", .match),
        AndroidRuleCase("order", #"[{"/": "/path1"}, {"/": "*", "exclude": true}]"#, "https://example.com/path2", .exclude),

        AndroidRuleCase("unmatched", #"[{"/": "/path1"}, {"/": "/path2"}]"#, "https://example.com/path3", .noMatch),
        AndroidRuleCase("unmatched", #"[{"/": "/path1", "exclude": true}]"#, "https://example.com/path2", .noMatch),
        AndroidRuleCase("unmatched", #"[{"/": "/path1", "exclude": true}, {"/": "*"}]"#, "https://example.com/path2", .match),

        AndroidRuleCase("no-rules", #"[]"#, "https://example.com/call/abc", .manifestOnly),
        AndroidRuleCase("no-rules", #"{"/": "/call/*"}"#, "https://example.com/call/abc", .manifestOnly),
        AndroidRuleCase("no-rules", #""/call/*""#, "https://example.com/call/abc", .manifestOnly),
        AndroidRuleCase("no-rules", #"[{"/": "/other"}]"#, "https://example.com/call/abc", .noMatch),

        AndroidRuleCase("empty-pattern", #"[{"/": ""}]"#, "https://example.com/call/abc", .manifestOnly),
        AndroidRuleCase("empty-pattern", ##"[{"/": "/call/*"}, {"#": ""}]"##, "https://example.com/elsewhere", .manifestOnly),
        AndroidRuleCase("empty-pattern", ##"[{"/": "/call/*", "#": "x"}]"##, "https://example.com/call/abc", .noMatch),

        AndroidRuleCase("no-filter", #"[{"comments": "x"}, {"/": "/a"}]"#, "https://example.com/b", .noMatch),
        AndroidRuleCase("no-filter", #"[{"comments": "x"}, {"/": "/a"}]"#, "https://example.com/a", .match),
        AndroidRuleCase("no-filter", #"[{"exclude": true}, {"/": "*"}]"#, "https://example.com/a", .match),
        AndroidRuleCase("no-filter", #"[{"?": {}}]"#, "https://example.com/a?x=1", .noMatch),
        AndroidRuleCase("no-filter", #"[{"/": "/call/*"}, {"?": {}}]"#, "https://example.com/call/abc", .match),

        AndroidRuleCase("query-not-object", #"[{"/": "/p", "?": "a=1"}]"#, "https://example.com/p", .match),
        AndroidRuleCase("query-not-object", #"[{"/": "/p", "?": ["a"]}]"#, "https://example.com/q", .noMatch),
        AndroidRuleCase("query-not-object", #"[{"?": "a=1"}]"#, "https://example.com/p?a=1", .noMatch),

        AndroidRuleCase("types", #"[{"/": "/a", "exclude": "true"}, {"/": "*"}]"#, "https://example.com/a", .exclude),
        AndroidRuleCase("types", #"[{"/": "/a", "exclude": "TRUE"}, {"/": "*"}]"#, "https://example.com/a", .exclude),
        AndroidRuleCase("types", #"[{"/": "/a", "exclude": "yes"}, {"/": "*"}]"#, "https://example.com/a", .match),
        AndroidRuleCase("types", #"[{"/": "/a", "exclude": "False"}]"#, "https://example.com/a", .match),
        AndroidRuleCase("types", #"[{"/": "/a", "exclude": ["true"]}]"#, "https://example.com/a", .match),
        AndroidRuleCase("types", ##"[{"#": true}]"##, "https://example.com/x#true", .match),
        AndroidRuleCase("types", ##"[{"#": true}]"##, "https://example.com/x#false", .noMatch),
        AndroidRuleCase("types", ##"[{"#": {"a": "b/c"}}]"##, "https://example.com/x#%7B%22a%22:%22b%5C/c%22%7D", .match),
        AndroidRuleCase("types", ##"[{"#": {"a": "b/c"}}]"##, "https://example.com/x#%7B%22a%22:%22b/c%22%7D", .noMatch),
        AndroidRuleCase("types", #"[{"?": {"on": false}}]"#, "https://example.com/x?on=false", .match),

        AndroidRuleCase("unreadable", #"[{"/": "/p", "comments": null}]"#, "https://example.com/p", .notListed),
        AndroidRuleCase("unreadable", #"[{"/": "/p", "exclude": 0}]"#, "https://example.com/p", .notListed),
        AndroidRuleCase("unreadable", #"[{"/": "/p"}, "/q"]"#, "https://example.com/p", .notListed),
        AndroidRuleCase("unreadable", #"[{"/": "/p", "?": {"a": [true]}}]"#, "https://example.com/p", .notListed),
        AndroidRuleCase("unreadable", #"[{"/": "/p", "?": {"a": ["1"]}}]"#, "https://example.com/p?a=%5B%221%22%5D", .match),

        AndroidRuleCase("path-empty", #"[{"/": "/*"}]"#, "https://example.com", .noMatch),
        AndroidRuleCase("path-empty", #"[{"/": "*"}]"#, "https://example.com", .match),
        AndroidRuleCase("path-empty", #"[{"/": "/*"}]"#, "https://example.com/", .match),
        AndroidRuleCase("path-empty", #"[{"/": "/*"}]"#, "https://example.com?a=1", .noMatch),
        AndroidRuleCase("path-empty", #"[{"/": "?*"}]"#, "https://example.com#top", .noMatch),

        AndroidRuleCase("decoded", #"[{"/": "/café/*"}]"#, "https://example.com/caf%C3%A9/menu", .match),
        AndroidRuleCase("decoded", #"[{"/": "/a b"}]"#, "https://example.com/a%20b", .match),
        AndroidRuleCase("decoded", #"[{"?": {"q": "a b"}}]"#, "https://example.com/s?q=a%20b", .match),
        AndroidRuleCase("decoded", #"[{"/": "/a/b"}]"#, "https://example.com/a%2Fb", .match),
        AndroidRuleCase("decoded", #"[{"/": "/a%20b"}]"#, "https://example.com/a%20b", .noMatch),

        AndroidRuleCase("lone-percent", #"[{"/": "/x\ufffd"}]"#, "https://example.com/x%", .match),
        AndroidRuleCase("lone-percent", #"[{"/": "/x%"}]"#, "https://example.com/x%", .noMatch),
        AndroidRuleCase("lone-percent", #"[{"/": "/x\ufffd"}]"#, "https://example.com/x%4", .match),
        AndroidRuleCase("lone-percent", #"[{"/": "/x\ufffd\u0000z"}]"#, "https://example.com/x%zz", .match),
        AndroidRuleCase("lone-percent", #"[{"/": "/x\ufffd"}]"#, "https://example.com/x%C3", .match),

        AndroidRuleCase("case", #"[{"/": "/call/*"}]"#, "https://example.com/CALL/abc", .noMatch),
        AndroidRuleCase("case", #"[{"/": "/Call/*"}]"#, "https://example.com/Call/abc", .match),

        AndroidRuleCase("fragment-absent", ##"[{"#": "*"}]"##, "https://example.com/x", .noMatch),
        AndroidRuleCase("fragment-absent", ##"[{"#": "*"}]"##, "https://example.com/x#", .match),

        AndroidRuleCase("repeated", #"[{"?": {"type": "video"}}]"#, "https://example.com/x?type=audio&type=video", .match),
        AndroidRuleCase("repeated", #"[{"?": {"type": "video"}}]"#, "https://example.com/x?type=audio&type=audio", .noMatch),

        AndroidRuleCase("runs", #"[{"/": "/a/**"}]"#, "https://example.com/a/x", .noMatch),
        AndroidRuleCase("runs", #"[{"/": "/a/**"}]"#, "https://example.com/a/x.*", .match),
        AndroidRuleCase("runs", #"[{"/": "/a/*?"}]"#, "https://example.com/a/", .noMatch),
        AndroidRuleCase("runs", #"[{"/": "/a/*?"}]"#, "https://example.com/a/b", .noMatch),
        AndroidRuleCase("runs", #"[{"/": "/a/*?"}]"#, "https://example.com/a/b.", .match),
        AndroidRuleCase("runs", #"[{"/": "/a/*?"}]"#, "https://example.com/a/b.c", .noMatch),
        AndroidRuleCase("runs", #"[{"/": "/a/***"}]"#, "https://example.com/a/b", .noMatch),
        AndroidRuleCase("runs", #"[{"/": "/a/?*"}]"#, "https://example.com/a/b", .match),

        AndroidRuleCase("example", Self.googleExample, "https://example.com/anything?dl=x", .match),
        AndroidRuleCase("example", Self.googleExample, "https://example.com/anything#app", .match),
        AndroidRuleCase("example", Self.googleExample, "https://example.com/products/123", .match),
        AndroidRuleCase("example", Self.googleExample, "https://example.com/shoes?in_app=true", .match),
        AndroidRuleCase("example", Self.googleExample, "https://example.com/shoes?in_app=false", .exclude),
        AndroidRuleCase("example", Self.googleExample, "https://example.com/about", .exclude),
    ]

    static let googleExample = ##"[{"?": {"dl": "*"}}, {"#": "app"}, {"/": "/products/*"}, {"/": "/shoes", "?": {"in_app": "true"}}, {"/": "*", "exclude": true}]"##
}
