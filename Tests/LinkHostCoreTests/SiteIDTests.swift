import Testing
@testable import LinkHostCore
import LinkHostJSON
import LinkHostTestSupport

/// A site's `id`: its name in diagnostics, metrics and logs.
@Suite("Site ids")
struct SiteIDTests {
    static let apps = #""apps": [{"name": "A", "teamID": "ABCDE12345", "bundleID": "com.example.a"}]"#

    @Test("a site is named by its id, else its first host; the top level is default")
    func labels() throws {
        let config = try Fixtures.config(#"{\#(Self.apps), "sites": [{"hosts": ["a.example.com", "b.example.com"]}, {"id": "customer6", "hosts": ["c.example.com"]}]}"#)
        #expect(config.sites.map(\.label) == ["default", "a.example.com", "customer6"])
        #expect(config.siteNames == ["sites[0]": "a.example.com", "sites[1]": "customer6"])
    }

    @Test("an id is 1–64 of letters, digits, dot, underscore and hyphen", arguments: ["", "a b", "ü", "x/y", String(repeating: "a", count: 65)])
    func badID(id: String) throws {
        let diagnostics = try Fixtures.diagnostics(#"{\#(Self.apps), "sites": [{"id": "\#(id)", "hosts": ["c.example.com"]}]}"#)
        #expect(diagnostics.contains { $0.path == "sites[0].id" && $0.code == .lh109 }, "\(diagnostics)")
    }

    @Test("two sites with one name are refused (LH122), whether the name is an id, a first host or default", arguments: [
        (#"[{"id": "x", "hosts": ["a.example"]}, {"id": "x", "hosts": ["b.example"]}]"#, "sites[1].id"),
        (#"[{"hosts": ["a.example"]}, {"id": "a.example", "hosts": ["b.example"]}]"#, "sites[1].id"),
        (#"[{"id": "a.example", "hosts": ["b.example"]}, {"hosts": ["a.example"]}]"#, "sites[0].id"),
        (#"[{"id": "default", "hosts": ["b.example"]}]"#, "sites[0].id"),
    ])
    func duplicate(sites: String, path: String) throws {
        let diagnostics = try Fixtures.diagnostics(#"{\#(Self.apps), "sites": \#(sites)}"#)
        #expect(diagnostics.filter { $0.code == .lh122 }.map(\.path) == [path], "\(diagnostics)")
    }

    @Test("distinct names pass")
    func distinct() throws {
        let diagnostics = try Fixtures.diagnostics(#"{\#(Self.apps), "sites": [{"id": "x", "hosts": ["a.example"]}, {"hosts": ["x.example"]}]}"#)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
    }

    @Test("a refused config names each site's problems by the site's name and index")
    func errorNamesTheSite() throws {
        let text = #"{\#(Self.apps), "sites": [{"id": "customer6", "hosts": ["c.example.com"], "apps": [{"name": "C", "teamID": "abc", "bundleID": "com.c"}]}]}"#
        let error = try #require(throws: ConfigError.self) { try Fixtures.config(text) }
        #expect(error.description.contains("  error: site \"customer6\" (sites[0]) apps[0].teamID: \"abc\" is not 10 characters"), "\(error)")
        #expect(error.diagnostics.contains { $0.path == "sites[0].apps[0].teamID" }, "the path itself stays the JSON path")
        let report = LintReport(source: "c.json", diagnostics: error.diagnostics.map(LintDiagnostic.init), siteNames: ["sites[0]": "customer6"])
        #expect(report.humanText(validSummary: "").contains("  error LH101 site \"customer6\" (sites[0]) apps[0].teamID: "))
        #expect(ConfigDiagnostic.location("sites[3]", siteNames: ["sites[3]": "x"]) == "site \"x\" (sites[3])")
        #expect(ConfigDiagnostic.location("apps[0]", siteNames: ["sites[3]": "x"]) == "apps[0]")
    }

    @Test("validate's JSON names the site of a problem inside sites[N] and leaves it out for the top level")
    func jsonNamesTheSite() throws {
        let text = #"{"apps": [{"name": "A", "teamID": "xyz", "bundleID": "com.a"}], "sites": [{"id": "customer6", "hosts": ["c.example.com"], "apps": [{"name": "C", "teamID": "abc", "bundleID": "com.c"}]}, {"hosts": ["d.example.com"], "apps": [{"name": "D", "teamID": "abd", "bundleID": "com.d"}]}]}"#
        let report = ConfigLinter.lint(bytes: Array(text.utf8), source: "c.json").report
        let objects = try #require(JSONParser.parse(report.jsonText).arrayValue).compactMap(\.objectValue)
        func entry(_ path: String) throws -> JSONObject { try #require(objects.first { $0["path"]?.stringValue == path }, "\(report.jsonText)") }
        #expect(try entry("sites[0].apps[0].teamID")["site"]?.stringValue == "customer6")
        #expect(try entry("sites[1].apps[0].teamID")["site"]?.stringValue == "d.example.com", "without an id, the first host names it")
        #expect(try entry("apps[0].teamID")["site"] == nil)
        #expect(try entry("sites[0].apps[0].teamID").keys == ["code", "severity", "path", "site", "message"])
        let two = LintReport.jsonText(of: [report, LintReport(source: "other.json", diagnostics: [])])
        #expect(two.contains("\"path\": \"c.json: sites[0].apps[0].teamID\",\n    \"site\": \"customer6\""), "\(two)")
    }
}
