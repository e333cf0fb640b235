import CallLinks
import LinkHostJSON

/// The rules that let exactly a site's call links open the app, derived from its link templates, for iOS
/// (AASA components) and Android (dynamic rules).
///
/// Neither platform's patterns can say "a call token" (1–64 of `A-Z a-z 0-9 _ -`) or "one segment", so
/// each template becomes a block: exclusions for every way a URL can fit the wildcard but not the template
/// (a `/` inside the placeholder, a character no token has, a token over 64 characters, a second `:`, an
/// empty ID, a bound query item given twice), then the one inclusion. A URL the inclusion decides has
/// passed its own block's exclusions, so it is a link of that template: the rules are never wider than the
/// templates, in any order. Blocks are ordered so that no block's exclusions shut out a later template's
/// links (longer templates first, `type:id` before a plain ID at the same place).
///
/// What the patterns cannot say is left to the platform (see docs/derived-rules.md): a raw `*` (and in a
/// query value `?`) is a wildcard in every pattern, so it cannot be excluded; iOS reads `/call/abc//` and
/// `//call/abc` as `/call/abc/`; Android compares decoded URLs (`%41` is `A`) and splits the query at `;`.
enum DerivedAASARules {
    /// The rules and, for each, the index of the first template that gave it; a rule that a block repeats
    /// from an earlier one is kept once, where it first decides.
    static func rules(for links: CallLinkSettings) -> [(rule: AASARule, template: Int)] {
        firstDeciding(links.links.templates, \.aasaRules, key: RuleKey.init)
    }

    /// Each template's rules in block order, a rule a later block repeats kept once with its first template.
    /// The same rule from two blocks differs in its comment only; the first decides, the second never would.
    /// Kept by key, so a site of many templates is not compared rule by rule.
    private static func firstDeciding<Rule>(_ templates: [CallLinkTemplate], _ rules: (TemplateRules) -> [Rule],
                                           key: (Rule) -> RuleKey) -> [(rule: Rule, template: Int)] {
        var result: [(rule: Rule, template: Int)] = []
        var seen = Set<RuleKey>(minimumCapacity: 64 * templates.count)
        for index in order(templates) {
            for rule in rules(TemplateRules(templates[index])) where seen.insert(key(rule)).inserted {
                result.append((rule, index))
            }
        }
        return result
    }

    /// What the written rule says but its comment: two rules with one key are written alike
    /// (`AASAGenerator.component`, `DynamicAppLinkRule.json`), and comparing keys costs no writing.
    struct RuleKey: Hashable {
        let path: String?
        /// `[pattern]` for a whole-query pattern; names and patterns in turn for items; nil for no query.
        let query: [String]?
        let queryIsWhole: Bool
        let fragment: String?
        let exclude: Bool
        let caseSensitive: Bool?
        let percentEncoded: Bool?

        /// The key of an AASA rule.
        init(_ rule: AASARule) {
            path = rule.path
            switch rule.query {
            case .whole(let pattern)?: (query, queryIsWhole) = ([pattern], true)
            case .items(let items)?: (query, queryIsWhole) = (items.flatMap { [$0.name, $0.pattern] }, false)
            case nil: (query, queryIsWhole) = (nil, false)
            }
            (fragment, exclude, caseSensitive, percentEncoded) = (rule.fragment, rule.exclude, rule.caseSensitive, rule.percentEncoded)
        }

        /// The key of an Android rule; a rule that constrains nothing is written with the path `*`.
        init(_ rule: DynamicAppLinkRule) {
            let unconstrained = rule.path == nil && rule.query.isEmpty && rule.fragment == nil
            path = unconstrained ? "*" : rule.path
            (query, queryIsWhole) = (rule.query.isEmpty ? nil : rule.query.flatMap { [$0.name, $0.pattern] }, false)
            (fragment, exclude, caseSensitive, percentEncoded) = (rule.fragment, rule.exclude, nil, nil)
        }
    }

    /// Whether iOS and Android read a URL's path and query (raw) alike under derived rules: not when it has
    /// an escape (Android decodes it), a `;` in the query (Android splits there) or a bound query item twice
    /// (iOS excludes it, Android cannot say so). docs/derived-rules.md lists these.
    static func platformsReadAlike(_ pathAndQuery: String, boundNames: [String]) -> Bool {
        let parts = pathAndQuery.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query = parts.count > 1 ? parts[1] : ""
        guard !pathAndQuery.contains("%"), !query.contains(";") else { return false }
        let names = query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0] }
        return !boundNames.contains { name in names.filter { $0 == name }.count > 1 }
    }

    /// The Android dynamic rules of the same templates and, for each, the index of its template.
    static func androidRules(for templates: [CallLinkTemplate]) -> [(rule: DynamicAppLinkRule, template: Int)] {
        firstDeciding(templates, \.androidRules, key: RuleKey.init)
    }

    /// Template indices in block order: more path segments first, then a `type:id` segment before a plain
    /// ID, then the config's order. A block's exclusions name only URLs with at least its own segments,
    /// and a plain ID's exclude the `:` that a `type:id` template needs.
    static func order(_ templates: [CallLinkTemplate]) -> [Int] {
        templates.indices.sorted { a, b in
            let (left, right) = (templates[a], templates[b])
            if left.segments.count != right.segments.count { return left.segments.count > right.segments.count }
            let (leftTyped, rightTyped) = (left.segments.contains(.typedCallID), right.segments.contains(.typedCallID))
            if leftTyped != rightTyped { return leftTyped }
            return a < b
        }
    }
}

/// One template's block of rules, on both platforms.
struct TemplateRules {
    /// Characters a raw URL path may hold (RFC 3986 `pchar`) that no call token has, but `*`, which every
    /// pattern reads as a wildcard.
    static let pathCharacters: [Character] = [".", "~", "%", "!", "$", "&", "'", "(", ")", "+", ",", ";", "=", ":", "@"]
    /// The same for a raw query value, which may also hold `/` (and `?`, a wildcard too) but never `&`.
    static let queryCharacters: [Character] = pathCharacters.filter { $0 != "&" } + ["/"]
    /// `?` repeated one past the longest token: a run at least that long is no token.
    static let tooLong = String(repeating: "?", count: CallToken.maximumLength + 1)

    let template: CallLinkTemplate
    /// The path up to the placeholder, with its `/`: `/call/`; the whole path when there is none.
    let prefix: String
    /// The path after the placeholder, with its leading `/`, or empty.
    let suffix: String
    /// Whether the path has a placeholder segment, and whether it is `type:id`.
    let placeholder: CallLinkTemplate.Segment?

    init(_ template: CallLinkTemplate) {
        self.template = template
        var before: [String] = [], after: [String] = []
        var found: CallLinkTemplate.Segment?
        for segment in template.segments {
            switch segment {
            case .literal(let text): if found == nil { before.append(text) } else { after.append(text) }
            case .callID, .typedCallID: found = segment
            }
        }
        placeholder = found
        prefix = "/" + before.joined(separator: "/") + (found == nil ? "" : "/")
        suffix = after.map { "/" + $0 }.joined()
    }

    private var typed: Bool { placeholder == .typedCallID }
    private var last: Bool { placeholder != nil && suffix.isEmpty }

    /// The placeholder's pattern: `?*` or `?*:?*`.
    private var slot: String { typed ? "?*:?*" : "?*" }

    /// The patterns of the path exclusions, as iOS reads them (a matched path ends in one `/`, which a
    /// placeholder's trailing `?*` takes) or, for Android, as the path is (no trailing `/` counted).
    private func pathExclusions(android: Bool) -> [String] {
        guard placeholder != nil else { return [] }
        // What follows the placeholder's own text: its end on iOS, where the normalized path's `/` is part of
        // a trailing `?*`; the rest of the path otherwise.
        func around(_ middle: String) -> String { prefix + middle + (last ? "" : "*" + suffix) }
        var patterns = [last ? prefix + "*/?*" : prefix + "*/*" + suffix]
        // Android's inclusion may take a `/` as the placeholder's first character (`/call//`), where its lazy
        // `*` of the exclusion above finds no second `/`; iOS drops that trailing `/` and never matches.
        if android { patterns.append(prefix + "/*") }
        let characters = Self.pathCharacters.filter { !(typed && $0 == ":") }
        patterns += characters.map { around("*" + String($0)) + (last ? "*" : "") }
        // A token over 64: iOS counts the trailing `/` of the matched path in a last placeholder.
        let extra = last && !android ? "?" : ""
        if typed {
            // Android's lazy `*` of the inclusion runs to the first `:` across any `/`, and its `?` after the `:`
            // may be a `/`: a `/` before the `:`, or right after it, is no link.
            if android, !last { patterns += [prefix + "*/*:*", prefix + "*:/*"] }
            patterns.append(around("*:*:") + (last ? "*" : ""))
            if last { patterns.append(prefix + "*:") }
            patterns.append(prefix + Self.tooLong + "*:" + (last ? "*" : "*" + suffix))
            patterns.append(prefix + "*:" + Self.tooLong + extra + "*" + suffix)
        } else {
            patterns.append(prefix + Self.tooLong + extra + "*" + suffix)
        }
        return patterns
    }

    /// The path of the inclusion (and of the query exclusions), as iOS reads it.
    private var includedPath: String { placeholder == nil ? prefix : prefix + slot + suffix }

    /// The query exclusions: per bound item, a value with a character no token has or over 64 characters.
    private var itemExclusions: [(name: String, pattern: String)] {
        template.queryItems.flatMap { item in
            Self.queryCharacters.map { (item.name, "*" + String($0) + "*") } + [(item.name, Self.tooLong + "*")]
        }
    }

    /// Whole-query patterns of a bound item given twice, the first time with a value: the template reads
    /// the first, iOS requires every one to match (a first empty value is the template's default type, or
    /// no ID, whatever follows). The second may be `name=…`, a bare `name` at the end, or one followed by more.
    private var repeatedItems: [String] {
        template.queryItems.flatMap { item in
            let name = item.name
            return ["", "*&"].flatMap { before in
                ["&\(name)=*", "&\(name)", "&\(name)&*"].map { before + name + "=?*" + $0 }
            }
        }
    }

    /// The iOS block: exclusions, then the inclusion; the first exclusion says whose they are.
    var aasaRules: [AASARule] {
        var rules = pathExclusions(android: false).map { AASARule(path: $0, exclude: true) }
        rules += repeatedItems.map { AASARule(path: includedPath, query: .whole($0), exclude: true) }
        rules += itemExclusions.map { AASARule(path: includedPath, query: .items([$0]), exclude: true) }
        if !rules.isEmpty { rules[0].comment = "not links of \(template.text), up to its call links rule" }
        let required = template.queryItems.filter { $0.binding == .callID }.map { (name: $0.name, pattern: "?*") }
        rules.append(AASARule(path: includedPath, query: required.isEmpty ? nil : .items(required), comment: "call links: \(template.text)"))
        return rules
    }

    /// The Android paths a pattern stands for: Android does not drop a trailing `/` as iOS does, and the
    /// template allows one, so a pattern that does not end in a wildcard is given with and without it.
    private static func androidPaths(_ pattern: String) -> [String] {
        pattern.hasSuffix("*") ? [pattern] : [pattern, pattern + "/"]
    }

    /// The Android block: exclusions, then the inclusion. Android matches a query item if any item of that
    /// name matches, so an excluded value anywhere excludes. A required item given empty and again with a
    /// value (`?call_id=&call_id=abc`) is not excluded: only an empty pattern could say `name=`, which
    /// Google's format calls malformed and AOSP's `DalComponentParser` refuses ("must be a non-empty
    /// string"), so a device might keep no rule of the host at all; it is one of the repeated items iOS
    /// excludes and Android cannot (`platformsReadAlike`, docs/derived-rules.md).
    var androidRules: [DynamicAppLinkRule] {
        var rules = pathExclusions(android: true).flatMap(Self.androidPaths).map { DynamicAppLinkRule(path: $0, exclude: true) }
        let paths = Self.androidPaths(includedPath)
        let items = itemExclusions.map { DynamicAppLinkRule.QueryItem(name: $0.name, pattern: $0.pattern) }
        let required = template.queryItems.filter { $0.binding == .callID }.map { DynamicAppLinkRule.QueryItem(name: $0.name, pattern: "?*") }
        for item in items {
            rules += paths.map { DynamicAppLinkRule(path: $0, query: [item], exclude: true) }
        }
        rules += paths.map { DynamicAppLinkRule(path: $0, query: required) }
        return rules
    }
}
