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
    /// website associations and dynamic rules" (section "Configure dynamic rules"); "AOSP" is the Android 15
    /// platform code that dynamic rules merge into (`android.content.UriRelativeFilter`,
    /// `android.os.PatternMatcher`), used where Google's page says nothing; "linkhost" marks a decision made
    /// where neither says anything, documented in README ("Android 15+ dynamic rules").
    static let sources: [String: String] = [
        "keys": "Google, Declare dynamic rules: \"/\" path, \"#\" fragment, \"?\" query dictionary; all optional",
        "star": "Google, Declare dynamic rules: \"*\" matches zero or more characters up until the character after the wildcard in the pattern is found",
        "any": "Google, Declare dynamic rules: \"?\" matches any single character",
        "one-or-more": "Google, Declare dynamic rules: \"?*\" matches 1 or more characters",
        "query": "Google, Declare dynamic rules: order of pairs does not matter, other pairs may be present, a match must be found for every dictionary entry (its own three examples)",
        "order": "Google, Order dynamic rules: rules are evaluated in order until one matches (its two /path1 examples)",
        "unmatched": "Google, Order dynamic rules: if no rule matches, the URL won't open the app (the /path3 example and the exclusions-then-\"*\" example)",
        "malformed": "Google, Key points: if any field is malformed or empty, Android discards the dynamic rules and the manifest decides",
        "example": "Google, Configure dynamic rules: the page's example file",
        "decoded": "AOSP UriRelativeFilter.matchData matches Uri.getPath()/getQuery()/getFragment(), which are decoded (Google: silent)",
        "case": "AOSP PatternMatcher compares characters exactly (Google: silent)",
        "fragment-absent": "AOSP UriRelativeFilter: a URL without a fragment has getFragment() == null, which no pattern matches (Google: silent)",
        "repeated": "AOSP UriRelativeFilter.matchQuery: any one matching parameter is enough (Google: silent)",
        "runs": "linkhost: Google does not define \"*\" before another wildcard; \"**\" is read as \"*\" and \"*?\" as \"?*\", as iOS reads them",
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

        AndroidRuleCase("order", #"[{"/": "*", "exclude": true}, {"/": "/path1"}]"#, "https://example.com/path1", .exclude),
        AndroidRuleCase("order", #"[{"/": "/path1"}, {"/": "*", "exclude": true}]"#, "https://example.com/path1", .match),
        AndroidRuleCase("order", #"[{"/": "/path1"}, {"/": "*", "exclude": true}]"#, "https://example.com/path2", .exclude),

        AndroidRuleCase("unmatched", #"[{"/": "/path1"}, {"/": "/path2"}]"#, "https://example.com/path3", .noMatch),
        AndroidRuleCase("unmatched", #"[{"/": "/path1", "exclude": true}]"#, "https://example.com/path2", .noMatch),
        AndroidRuleCase("unmatched", #"[{"/": "/path1", "exclude": true}, {"/": "*"}]"#, "https://example.com/path2", .match),

        AndroidRuleCase("malformed", #"[]"#, "https://example.com/call/abc", .manifestOnly),
        AndroidRuleCase("malformed", #"[{"/": ""}]"#, "https://example.com/call/abc", .manifestOnly),
        AndroidRuleCase("malformed", #"[{"/": "/call/*"}, {"?": {}}]"#, "https://example.com/call/abc", .manifestOnly),
        AndroidRuleCase("malformed", #"[{"/": "/call/*", "exclude": "yes"}]"#, "https://example.com/call/abc", .manifestOnly),
        AndroidRuleCase("malformed", #"{"/": "/call/*"}"#, "https://example.com/call/abc", .manifestOnly),

        AndroidRuleCase("example", Self.googleExample, "https://example.com/anything?dl=x", .match),
        AndroidRuleCase("example", Self.googleExample, "https://example.com/anything#app", .match),
        AndroidRuleCase("example", Self.googleExample, "https://example.com/products/123", .match),
        AndroidRuleCase("example", Self.googleExample, "https://example.com/shoes?in_app=true", .match),
        AndroidRuleCase("example", Self.googleExample, "https://example.com/shoes?in_app=false", .exclude),
        AndroidRuleCase("example", Self.googleExample, "https://example.com/about", .exclude),

        AndroidRuleCase("decoded", #"[{"/": "/café/*"}]"#, "https://example.com/caf%C3%A9/menu", .match),
        AndroidRuleCase("decoded", #"[{"/": "/a b"}]"#, "https://example.com/a%20b", .match),
        AndroidRuleCase("decoded", #"[{"?": {"q": "a b"}}]"#, "https://example.com/s?q=a%20b", .match),

        AndroidRuleCase("case", #"[{"/": "/call/*"}]"#, "https://example.com/CALL/abc", .noMatch),
        AndroidRuleCase("case", #"[{"/": "/Call/*"}]"#, "https://example.com/Call/abc", .match),

        AndroidRuleCase("fragment-absent", ##"[{"#": "*"}]"##, "https://example.com/x", .noMatch),
        AndroidRuleCase("fragment-absent", ##"[{"#": "*"}]"##, "https://example.com/x#", .match),

        AndroidRuleCase("repeated", #"[{"?": {"type": "video"}}]"#, "https://example.com/x?type=audio&type=video", .match),
        AndroidRuleCase("repeated", #"[{"?": {"type": "video"}}]"#, "https://example.com/x?type=audio&type=audio", .noMatch),

        AndroidRuleCase("runs", #"[{"/": "/a/**"}]"#, "https://example.com/a/b", .match),
        AndroidRuleCase("runs", #"[{"/": "/a/*?"}]"#, "https://example.com/a/", .noMatch),
        AndroidRuleCase("runs", #"[{"/": "/a/*?"}]"#, "https://example.com/a/b", .match),
    ]

    static let googleExample = ##"[{"?": {"dl": "*"}}, {"#": "app"}, {"/": "/products/*"}, {"/": "/shoes", "?": {"in_app": "true"}}, {"/": "*", "exclude": true}]"##
}
