import Foundation
import LinkHostCore
import Testing

/// Issue 40: config/linkhost.schema.json and the loader agree on `null`. A site's `null` clears a key it would
/// inherit by key (ConfigKeyTable's "inherited by key": the key's default, or none); anywhere else `null` is no
/// value, for both. The schema is asked as an editor's validator would (jsonschema, `scripts/schema-check.py`), so
/// an editor flags no config linkhost accepts, and accepts none linkhost refuses.
@Suite("The schema and the loader agree on null")
struct SchemaNullTests {
    private static let root = SiteFixture.repositoryRoot

    @Test("every site-level key of the key table set to null, at the top level and in a site: the schema accepts it exactly when the loader does, and a site's null clears every key inherited by key")
    func nullAgrees() async throws {
        // The README's smallest config; relative paths (public/) resolve against the test's working directory, the repository.
        let base = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.root + "/config/examples/minimal.json"))) as? [String: Any])
        var cases: [(key: ConfigKey, inSite: Bool, json: String)] = []
        for key in ConfigKeys.all where key.inheritance != .topLevelOnly && key.inheritance != .siteOnly && !key.path.contains("[]") {
            for inSite in [false, true] {
                var document = base
                var target: [String: Any] = inSite ? ["hosts": ["site.example"]] : document
                target = Self.setting(key.path.split(separator: ".").map(String.init), to: NSNull(), in: target)
                if inSite { document["sites"] = [target] } else { document = target }
                let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
                cases.append((key, inSite, String(decoding: data, as: UTF8.self)))
            }
        }
        #expect(cases.count >= 50, "\(cases.count) cases")
        let schema = try await runTool("python3", [Self.root + "/scripts/schema-check.py"], input: cases.map(\.json).joined(separator: "\n") + "\n")
        let answers = schema.stdout.split(separator: "\n").map(String.init)
        try #require(schema.status == 0 && answers.count == cases.count, "scripts/schema-check.py: \(schema)")
        for (index, testCase) in cases.enumerated() {
            let place = testCase.inSite ? "sites[0].\(testCase.key.path)" : testCase.key.path
            var loader = "accepts it"
            do {
                _ = try ConfigLoader.parse(Array(testCase.json.utf8), source: "null-test", environment: [:])
            } catch {
                loader = "refuses it (\(error.diagnostics.filter { $0.severity == .error }.map(\.description).joined(separator: "; ")))"
            }
            let schemaAnswer = answers[index] == "ok" ? "accepts it" : "refuses it (\(answers[index]))"
            #expect(loader.hasPrefix("accepts") == schemaAnswer.hasPrefix("accepts"),
                    "\(place): null — the loader \(loader), config/linkhost.schema.json \(schemaAnswer)")
            if testCase.inSite && testCase.key.inheritance == .byKey {
                #expect(loader.hasPrefix("accepts"), "\(place): null must clear the inherited key; the loader \(loader)")
            }
        }
    }

    /// `object` with the member at `path` (keys, creating objects on the way) set to `value`.
    private static func setting(_ path: [String], to value: Any, in object: [String: Any]) -> [String: Any] {
        var object = object
        guard let first = path.first else { return object }
        object[first] = path.count == 1 ? value : setting(Array(path.dropFirst()), to: value, in: object[first] as? [String: Any] ?? [:])
        return object
    }
}
