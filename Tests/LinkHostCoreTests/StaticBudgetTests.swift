import LinkHostJSON
import Testing
@testable import LinkHostCore
import LinkHostTestSupport

/// `server.staticFilesBytes` (issue 39): every site's static files together, each file on disk counted once
/// however many sites, overlays and cache lifetimes serve it; the operator's sites over it refuse the config.
@Suite("Static files budget")
struct StaticBudgetTests {
    /// The valid fixture serving `root` with `budget`, and `sites` (JSON array text).
    static func config(root: String, budget: Int, sites: String) throws -> Config {
        var document = try JSONParser.parse(Fixtures.validConfig)
        for (path, json) in [("static", #"{"root": "\#(root)"}"#), ("server.staticFilesBytes", "\(budget)"), ("sites", sites)] {
            document = Fixtures.replace(document, path: path.split(separator: ".").map(String.init), with: try JSONParser.parse(json))
        }
        return try Fixtures.config(JSONWriter.string(document, style: .compact))
    }

    @Test("a folder the top level, a site sharing it and a site with another cache lifetime serve counts once")
    func sharedFolderCountsOnce() throws {
        let root = try Fixtures.temporaryFolder(files: ["a.bin": String(repeating: "a", count: 1_000)])
        defer { removeItem(root) }
        let config = try Self.config(root: root, budget: 1_500, sites: #"[{"hosts": ["a.example"]}, {"hosts": ["b.example"], "static": {"root": "\#(root)", "cacheMaxAge": 60}}]"#)
        let snapshot = try Snapshot(config: config)
        for host in ["localhost", "a.example", "b.example"] {
            #expect(snapshot.site(forHost: host).staticFiles.value(for: "/a.bin".utf8)?.ok.body.count == 1_000, "\(host)")
        }
    }

    @Test("the operator's second folder past the budget refuses the config, naming the folder and the budget")
    func operatorOverBudget() throws {
        let root = try Fixtures.temporaryFolder(files: ["a.bin": String(repeating: "a", count: 1_000)])
        let other = try Fixtures.temporaryFolder(files: ["b.bin": String(repeating: "b", count: 1_000)])
        defer { removeItem(root); removeItem(other) }
        let config = try Self.config(root: root, budget: 1_500, sites: #"[{"hosts": ["b.example"], "static": {"root": "\#(other)"}}]"#)
        #expect {
            try Snapshot(config: config)
        } throws: { error in
            let diagnostics = (error as? ConfigError)?.diagnostics ?? []
            return diagnostics.contains { $0.code == .lh135 && $0.path == "sites[0].static.root" && $0.message.contains(other) && $0.message.contains("1500 bytes") }
        }
    }
}
