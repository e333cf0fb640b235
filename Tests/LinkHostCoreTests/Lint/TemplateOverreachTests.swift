import Testing
@testable import LinkHostCore
import LinkHostTestSupport

/// LH307: hand-written rules that open URLs no link template accepts, with two examples each that the real
/// matchers confirm.
@Suite("Rules wider than the templates (LH307)")
struct TemplateOverreachTests {
    static func site(rules: String?) throws -> SiteConfig {
        let aasa = rules.map { #", "aasa": {"rules": \#($0)}"# } ?? ""
        return try Fixtures.config("""
        {"apps": [{"name": "V", "teamID": "ABCDE12345", "bundleID": "com.example.video"}],
         "callLinks": {"links": ["/join/{callId}?type={callType}", "/call/{callType}:{callId}"], "baseURL": "https://meet.acmemeet.com"}\(aasa)}
        """).defaultSite
    }

    static func findings(_ site: SiteConfig) -> [LintDiagnostic] {
        TemplateOverreach.diagnostics(site: site, document: AASAGenerator.document(for: site)) { "rules[\($0.index)]" }
    }

    /// The URLs a finding names, in quotes.
    static func urls(_ message: String) -> [String] {
        message.split(separator: "\"").map(String.init).filter { $0.hasPrefix("https://") }
    }

    @Test("the issue's rules: each is named with two URLs of different lengths that open the app and that no template accepts")
    func issueRules() throws {
        let site = try Self.site(rules: #"[{"path": "/join/?*"}, {"path": "/call/?*"}]"#)
        let found = Self.findings(site)
        #expect(found.map(\.path) == ["rules[0]", "rules[1]"], "\(found)")
        let matcher = AASAMatcher(document: AASAGenerator.document(for: site))
        for finding in found {
            #expect(finding.code == .lh307 && finding.severity == .warning)
            let named = Self.urls(finding.message)
            #expect(named.count == 2 && named[0].count != named[1].count, "\(finding.message)")
            for url in named {
                #expect(matcher.match(url: url, appID: site.appIDs[0], domain: "").decision == .match, "\(url)")
                #expect(site.callLinks.links.match(pathAndQuery: String(url.dropFirst("https://meet.acmemeet.com".count))) == nil, "\(url)")
            }
        }
        #expect(Self.urls(found[0].message).allSatisfy { $0.hasPrefix("https://meet.acmemeet.com/join/") && $0.dropFirst(31).contains("/") })
        #expect(Self.urls(found[1].message).allSatisfy { !$0.dropFirst(31).contains(":") })
    }

    @Test("rules of the templates' shapes, and derived rules, get no finding; a missing `:` exclusion does")
    func exactShapes() throws {
        let exact = #"[{"path": "/join/*/?*", "exclude": true}, {"path": "/join/?*"}, {"path": "/call/*:*:*", "exclude": true}, {"path": "/call/*/?*", "exclude": true}, {"path": "/call/*:", "exclude": true}, {"path": "/call/?*:?*"}]"#
        #expect(Self.findings(try Self.site(rules: exact)).isEmpty)
        #expect(Self.findings(try Self.site(rules: nil)).isEmpty)
        let withoutEmptyID = exact.replacingOccurrences(of: #"{"path": "/call/*:", "exclude": true}, "#, with: "")
        let found = Self.findings(try Self.site(rules: withoutEmptyID))
        #expect(found.count == 1 && Self.urls(found.first?.message ?? "").contains { $0.hasSuffix(":") }, "\(found)")
    }

    @Test("a rule without the query item that carries the ID is named with the template's path alone")
    func queryID() throws {
        let site = try Fixtures.config("""
        {"apps": [{"name": "V", "teamID": "ABCDE12345", "bundleID": "com.example.video"}],
         "callLinks": {"links": ["/join?call_id={callId}"]}, "aasa": {"rules": [{"path": "/join"}]}}
        """).defaultSite
        let found = Self.findings(site)
        #expect(found.count == 1 && found[0].message.contains("\"https://example.com/join\""), "\(found)")
    }
}
