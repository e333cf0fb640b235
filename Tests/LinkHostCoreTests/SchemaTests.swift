import Foundation
import Testing
@testable import LinkHostCore
import LinkHostTestSupport
import LinkHostJSON

/// config/linkhost.schema.json and the loader must accept the same keys, or editors mislead users.
@Suite("Config schema")
struct SchemaTests {
    private static func root() -> String {
        let file = #filePath
        return String(file[..<file.range(of: "/Tests/")!.lowerBound])
    }

    /// Every dotted key path the schema declares, descending into objects.
    private static func schemaPaths(_ schema: JSONValue, prefix: String = "") -> [String] {
        guard let properties = schema.objectValue?["properties"]?.objectValue else { return [] }
        return properties.members.flatMap { member -> [String] in
            let path = prefix.isEmpty ? member.key : "\(prefix).\(member.key)"
            return [path] + schemaPaths(member.value, prefix: path)
        }
    }

    @Test("every key in the schema is a key the loader knows")
    func schemaKeysAreKnown() throws {
        let schema = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: Self.root() + "/config/linkhost.schema.json"))))
        let paths = Self.schemaPaths(schema).filter { $0 != "$schema" }
        #expect(paths.count > 40)
        for path in paths {
            let text = try Fixtures.validConfig(setting: path, to: "null")
            let unknown = try Fixtures.diagnostics(text).filter { $0.message.hasPrefix("unknown key") }
            #expect(unknown.isEmpty, "schema key \(path) is unknown to the loader: \(unknown.map(\.description))")
        }
    }

    @Test("a key the loader does not know is unknown to the schema too")
    func unknownKeyIsUnknown() throws {
        let schema = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: Self.root() + "/config/linkhost.schema.json"))))
        #expect(!Self.schemaPaths(schema).contains("server.prot"))
        #expect(try Fixtures.diagnostics(try Fixtures.validConfig(setting: "server.prot", to: "1")).contains { $0.message.hasPrefix("unknown key") })
    }
}
