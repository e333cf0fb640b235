import Testing
@testable import LinkHostCore
import LinkHostTestSupport
import LinkHostJSON

@Suite("AASA and assetlinks generation")
struct GenerationTests {
    private func config(_ name: String) throws -> Config {
        try Fixtures.config(try golden(name))
    }

    @Test("each AASA format matches its golden file", arguments: ["modern", "legacy", "both"])
    func aasaGolden(format: String) throws {
        let generated = String(decoding: AASAGenerator.bytes(for: try config("aasa-\(format).config.json").defaultSite), as: UTF8.self)
        #expect(generated == (try golden("aasa-\(format).json")))
    }

    @Test("assetlinks matches its golden file, fingerprints uppercased", arguments: ["assetlinks", "assetlinks-static", "assetlinks-rules"])
    func assetLinksGolden(name: String) throws {
        let generated = String(decoding: AssetLinksGenerator.bytes(for: try config("\(name).config.json").defaultSite), as: UTF8.self)
        #expect(generated == (try golden("\(name).json")))
        #expect(!generated.contains("6d:e9"))
    }

    @Test("with dynamicRules off the bytes are those of the statements alone, as before dynamic rules existed")
    func assetLinksWithoutDynamicRules() throws {
        let generated = String(decoding: AssetLinksGenerator.bytes(for: try config("assetlinks-static.config.json").defaultSite), as: UTF8.self)
        #expect(!generated.contains("relation_extensions"))
        // The same apps with the switch on differ only by each statement's relation_extensions.
        let dynamic = try JSONParser.parse(AssetLinksGenerator.bytes(for: try config("assetlinks.config.json").defaultSite))
        let stripped = JSONValue.array((dynamic.arrayValue ?? []).map { statement in
            .object(JSONObject((statement.objectValue?.members ?? []).filter { $0.key != "relation_extensions" }))
        })
        #expect(JSONWriter.string(stripped, style: .pretty) == generated)
    }

    @Test("each site of a config gets its own dynamic rules", arguments: [("links.example.com", "links"), ("meet.example.org", "meet")])
    func assetLinksPerSite(host: String, name: String) throws {
        let site = try config("assetlinks-sites.config.json").site(forHost: host)
        #expect(String(decoding: AssetLinksGenerator.bytes(for: site), as: UTF8.self) == (try golden("assetlinks-sites-\(name).json")))
    }

    @Test("the same config always gives the same bytes")
    func deterministic() throws {
        let first = AASAGenerator.bytes(for: try config("aasa-modern.config.json").defaultSite)
        let second = AASAGenerator.bytes(for: try config("aasa-modern.config.json").defaultSite)
        #expect(first == second)
        #expect(EntityTag.strong(for: first) == EntityTag.strong(for: second))
    }

    @Test("generated documents are valid JSON that names every app")
    func parsesBack() throws {
        let site = try config("aasa-modern.config.json").defaultSite
        let document = try JSONParser.parse(AASAGenerator.bytes(for: site))
        let details = document.objectValue?["applinks"]?.objectValue?["details"]?.arrayValue
        #expect(details?.first?.objectValue?["appIDs"]?.arrayValue?.compactMap(\.stringValue) == site.appIDs)
    }

    @Test("legacy paths carry NOT for exclusions and * for a rule without a path")
    func legacyPaths() {
        let rules = [AASARule(path: "/a/*", exclude: true), AASARule(path: nil), AASARule(path: "/b")]
        #expect(AASAGenerator.legacyPaths(rules) == [.string("NOT /a/*"), .string("*"), .string("/b")])
    }

    @Test("an AASA over 128 KB is a config error")
    func sizeLimit() throws {
        var config = try Fixtures.config(Fixtures.validConfig)
        config.sites[0].aasa.rules = (0..<3000).map { AASARule(path: "/call/some-long-path-number-\($0)/*", comment: "rule number \($0)") }
        config.sites[0].staticFiles.root = try Fixtures.temporaryFolder(files: [:])
        defer { removeItem(config.sites[0].staticFiles.root) }
        #expect(throws: ConfigError.self) { try Snapshot(config: config) }
    }
}
