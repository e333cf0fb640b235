@testable import LinkHostCore
import LinkHostTestSupport
import Testing

/// Site files in `validate`, without a server: one tenant's mistake repeated across tenants reads as one line,
/// and `--site` checks one tenant in the context of the rest.
@Suite("Site files lint")
struct SiteFilesLintTests {
    /// The lint fixtures' base config with `members` added (JSON object members, no braces), and its site files.
    static func lint(_ members: String, siteFiles: [String: String], site: String? = nil) throws -> ConfigLinter.Outcome {
        var files = LintFixtures.files
        for (name, text) in siteFiles { files["sites.d/" + name] = text }
        let folder = try Fixtures.temporaryFolder(files: files)
        defer { removeItem(folder) }
        var text = LintFixtures.config.replacing("FOLDER", with: folder)
        text.insert(contentsOf: "  \(members),\n", at: text.index(after: text.firstIndex(of: "\n")!))
        try writeFile(folder + "/linkhost.json", text)
        return ConfigLinter.lint(path: folder + "/linkhost.json", site: site)
    }

    /// `count` tenants that inherit the top level's hand-written rules, each with its own host.
    static func tenants(_ count: Int) -> [String: String] {
        Dictionary(uniqueKeysWithValues: (0..<count).map { index in
            ("t" + String(10000 + index).dropFirst() + ".json", #"{"id": "t\#(index)", "hosts": ["t\#(index).example.com"]}"#)
        })
    }

    @Test("LH307 repeated in 150 tenants' checks (each naming its own host) is one line naming them; JSON keeps one entry per tenant")
    func groupedAcrossSites() throws {
        let outcome = try Self.lint(#""siteFiles": "sites.d/*.json", "aasa": {"rules": [{"path": "/call/?*"}]}"#, siteFiles: Self.tenants(150))
        let report = outcome.report
        let inTenants = report.diagnostics.filter { $0.code == .lh307 && $0.sitePath != nil }
        #expect(inTenants.count == 150, "one finding per tenant, each in its own words: \(report.diagnostics.filter { $0.code == .lh307 }.count)")
        let lines = report.humanText(validSummary: "").split(separator: "\n")
        let grouped = lines.filter { $0.contains("LH307") }
        #expect(grouped.count == 2, "the top level's own and one for the tenants: \(grouped.prefix(4))")
        #expect(grouped.contains { $0.contains("LH307 in 150 sites (t0, t1, t2 … t148, t149), at aasa.rules[0]; first:") }, "\(grouped)")
        #expect(lines.count <= 10, "\(lines.count) lines")
        #expect(report.jsonText.components(separatedBy: "\"LH307\"").count - 1 == 151)
        #expect(report.jsonText.contains("\"site\": \"t149\""))
    }

    @Test("--site checks one tenant with the rest: its own problems, a host another tenant claims (both files named, both fail without a record), nothing of the others")
    func oneSite() throws {
        let files = [
            "a.json": #"{"id": "a", "hosts": ["a.example.com"]}"#,
            "b.json": #"{"id": "b", "hosts": ["a.example.com"]}"#,
            "c.json": #"{"id": "c", "hosts": ["c.example.com"], "apps": [{"name": "C", "teamID": "bad", "bundleID": "com.c.video"}]}"#,
        ]
        let b = try Self.lint(#""siteFiles": "sites.d/*.json""#, siteFiles: files, site: "b")
        #expect(b.unknownSite == nil)
        #expect(Set(b.report.codes) == [.lh140, .lh133], "\(b.report.diagnostics)")
        #expect(b.report.diagnostics.allSatisfy { $0.path.hasPrefix("sites[b.json]") })
        #expect(b.report.diagnostics.contains { $0.message.contains("also claimed by sites[a.json]") })
        // No record of who held a.example.com (no server.stateDirectory): the name order decides nothing, a fails too.
        let a = try Self.lint(#""siteFiles": "sites.d/*.json""#, siteFiles: files, site: "a.json")
        #expect(Set(a.report.codes) == [.lh140, .lh133], "c's errors are not a's: \(a.report.diagnostics)")
        #expect(a.report.diagnostics.allSatisfy { $0.path.hasPrefix("sites[a.json]") })
        let whole = try Self.lint(#""siteFiles": "sites.d/*.json""#, siteFiles: files)
        #expect(whole.report.codes.filter { $0 == .lh133 }.count == 3, "\(whole.report.diagnostics)")
        #expect(try Self.lint(#""siteFiles": "sites.d/*.json""#, siteFiles: files, site: "d").unknownSite == "d")
    }

    @Test("the pattern: * and ? in the file name only, dot-names never, byte order")
    func pattern() {
        let (parsed, _) = SiteFilePattern.parse("sites.d/*.json", configPath: "/etc/linkhost/linkhost.json")
        let pattern = try! #require(parsed)
        #expect(pattern.folder == "/etc/linkhost/sites.d")
        #expect(pattern.matches("acme.json") && pattern.matches(".json") == false && !pattern.matches("..data") && !pattern.matches("acme.json.tmp"))
        #expect(SiteFilePattern.parse("t?.json", configPath: "linkhost.json").pattern?.matches("t1.json") == true)
        #expect(SiteFilePattern.parse("t?.json", configPath: "linkhost.json").pattern?.matches("t12.json") == false)
        #expect(SiteFilePattern.parse("a*b*c", configPath: "x").pattern?.matches("aXbYbZc") == true)
        #expect(SiteFilePattern.parse("*/x.json", configPath: "x").problem != nil)
        #expect(SiteFilePattern.parse("[ab].json", configPath: "x").problem != nil)
    }
}

