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

    @Test("assetlinks matches its golden file, fingerprints uppercased")
    func assetLinksGolden() throws {
        let generated = String(decoding: AssetLinksGenerator.bytes(for: try config("assetlinks.config.json").defaultSite.android), as: UTF8.self)
        #expect(generated == (try golden("assetlinks.json")))
        #expect(!generated.contains("6d:e9"))
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
