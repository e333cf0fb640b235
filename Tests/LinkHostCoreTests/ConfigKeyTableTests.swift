import Foundation
import Testing
@testable import LinkHostCore
import LinkHostTestSupport
import LinkHostJSON

/// `ConfigKeyTable` is the one list of config keys: the schema, docs/configuration.md and the readers must each have
/// exactly its keys, so a key added to one and forgotten in another fails here.
@Suite("Config key table")
struct ConfigKeyTableTests {
    private static let root: String = {
        let file = #filePath
        return String(file[..<file.range(of: "/Tests/")!.lowerBound])
    }()

    private static func schema() throws -> JSONValue {
        try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: root + "/config/linkhost.schema.json"))))
    }

    /// Every key the schema declares, as `[]`-paths, with its `default` as compact JSON; `$ref` members are
    /// returned apart (the site-level sections a `sites` entry points back to).
    private static func schemaKeys(_ node: JSONValue, prefix: String = "", into keys: inout [(path: String, defaultJSON: String?)], refs: inout [String]) {
        guard let object = node.objectValue else { return }
        if let properties = object["properties"]?.objectValue {
            for member in properties.members {
                let path = prefix.isEmpty ? member.key : "\(prefix).\(member.key)"
                if member.value.objectValue?["$ref"] != nil {
                    refs.append(path)
                    continue
                }
                keys.append((path, member.value.objectValue?["default"].map { JSONWriter.string($0, style: .compact) }))
                schemaKeys(member.value, prefix: path, into: &keys, refs: &refs)
            }
        }
        if let items = object["items"] { schemaKeys(items, prefix: prefix + "[]", into: &keys, refs: &refs) }
        for alternatives in ["oneOf", "anyOf"] {
            for alternative in object[alternatives]?.arrayValue ?? [] { schemaKeys(alternative, prefix: prefix, into: &keys, refs: &refs) }
        }
    }

    @Test("the schema declares exactly the table's keys, with the same defaults")
    func schemaMatchesTable() throws {
        var keys: [(path: String, defaultJSON: String?)] = []
        var refs: [String] = []
        Self.schemaKeys(try Self.schema(), into: &keys, refs: &refs)
        let schemaPaths = keys.map(\.path)
        let tablePaths = ConfigKeys.all.map(\.path)
        #expect(tablePaths.count > 80)
        let notInTable = schemaPaths.filter { ConfigKeys.key($0) == nil }
        let notInSchema = tablePaths.filter { !schemaPaths.contains($0) }
        #expect(notInTable.isEmpty, "in config/linkhost.schema.json but not in ConfigKeyTable: \(notInTable)")
        #expect(notInSchema.isEmpty, "in ConfigKeyTable but not in config/linkhost.schema.json: \(notInSchema)")
        #expect(Set(tablePaths).count == tablePaths.count, "a key is listed twice")
        for (path, schemaDefault) in keys {
            guard let key = ConfigKeys.key(path) else { continue }
            #expect(schemaDefault == key.defaultJSON, "\(path): the schema's default is \(schemaDefault ?? "none"), the table's \(key.defaultJSON ?? "none")")
        }
        #expect(refs == ConfigKeys.siteSections.map { "sites[].\($0)" }, "a sites entry's sections in the schema: \(refs)")
    }

    @Test("docs/configuration.md is the reference generated from the table, every key in it once")
    func configurationDoc() throws {
        let file = Self.root + "/" + ConfigKeyDocumentation.path
        // LINKHOST_RECORD_CONFIG_KEYS=1 (make config-doc) writes the file instead, like LINKHOST_RECORD_DIAGNOSTICS.
        if ProcessInfo.processInfo.environment["LINKHOST_RECORD_CONFIG_KEYS"] == "1" {
            try ConfigKeyDocumentation.markdown.write(toFile: file, atomically: true, encoding: .utf8)
        }
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { $0.split(separator: "`")[1] }
        let missing = ConfigKeys.all.map(\.path).filter { !rows.contains(Substring($0)) }
        let unknown = rows.filter { ConfigKeys.key(String($0)) == nil }
        #expect(missing.isEmpty, "docs/configuration.md has no row for \(missing)")
        #expect(unknown.isEmpty, "docs/configuration.md has rows for keys the table does not know: \(unknown)")
        #expect(rows.count == ConfigKeys.all.count, "a key has two rows")
        #expect(text == ConfigKeyDocumentation.markdown, "regenerate docs/configuration.md with `make config-doc`")
    }

    @Test("every link of docs/configuration.md names a file in docs/ and, with an anchor, one of its headings")
    func configurationDocLinks() throws {
        let text = ConfigKeyDocumentation.markdown
        var links: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "](") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: ")") else { break }
            links.append(String(after[..<close]))
            rest = after[close...]
        }
        #expect(links.count >= 8)
        for link in links where !link.hasPrefix("http") {
            let parts = link.split(separator: "#", maxSplits: 1).map(String.init)
            let target = Self.root + "/docs/" + parts[0]
            guard let document = try? String(contentsOfFile: target, encoding: .utf8) else {
                Issue.record("docs/configuration.md links to \(link), and docs/\(parts[0]) does not exist")
                continue
            }
            guard parts.count == 2 else { continue }
            let anchors = document.split(separator: "\n").filter { $0.hasPrefix("#") }.map(Self.anchor)
            #expect(anchors.contains(parts[1]), "docs/configuration.md links to \(link), and docs/\(parts[0]) has no such heading")
        }
    }

    /// GitHub's anchor of a Markdown heading: lowercased, punctuation dropped, spaces as hyphens.
    private static func anchor(_ heading: Substring) -> String {
        let title = heading.drop { $0 == "#" }.drop { $0 == " " }.lowercased()
        return String(title.compactMap { $0 == " " ? "-" : ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : nil })
    }

    /// A config with the key at `path` (`[]` as element 0, a `sites` entry added) set to raw JSON.
    private static func config(setting path: String, to json: String) throws -> String {
        var base = Fixtures.validConfig
        if path.hasPrefix("sites[]") { base = try Fixtures.validConfig(setting: "sites", to: #"[{"hosts": ["b.example.com"]}]"#) }
        // `links` beside `paths` is refused before `links` is read: the fixture's `paths` makes room.
        if path == "callLinks.links" { base = JSONWriter.string(Fixtures.replace(try JSONParser.parse(base), path: ["callLinks", "paths"], with: nil), style: .compact) }
        let parts = path.replacingOccurrences(of: "[]", with: ".0").split(separator: ".").map(String.init)
        return JSONWriter.string(Fixtures.replace(try JSONParser.parse(base), path: parts, with: try JSONParser.parse(json)), style: .compact)
    }

    @Test("the loader knows every key of the table and reads it: a value of the wrong type is reported at it")
    func readersUseEveryKey() throws {
        for key in ConfigKeys.all {
            let known = try Fixtures.diagnostics(try Self.config(setting: key.path, to: "null")).filter { $0.message.hasPrefix("unknown key") }
            #expect(known.isEmpty, "\(key.path) is unknown to the loader: \(known.map(\.description))")
            // `$schema` is for editors: allowed, never read.
            guard key.path != "$schema" else { continue }
            let concrete = key.path.replacingOccurrences(of: "[]", with: "[0]")
            let wrong = try Fixtures.diagnostics(try Self.config(setting: key.path, to: "[[]]"))
            #expect(wrong.contains { $0.severity == .error && $0.path.hasPrefix(concrete) }, "\(key.path) = [[]] is not reported at it, so nothing reads it: \(wrong.map(\.description))")
        }
    }

    @Test("a key the table does not know is unknown to the loader, with a suggestion from the table")
    func unknownKey() throws {
        let diagnostics = try Fixtures.diagnostics(try Fixtures.validConfig(setting: "callLinks.templat", to: #""x.html""#))
        #expect(diagnostics.contains { $0.path == "callLinks.templat" && $0.message == "unknown key; did you mean \"template\"?" })
        let site = try Fixtures.diagnostics(try Fixtures.validConfig(setting: "sites", to: #"[{"hosts": ["b.example.com"], "observability": {}}]"#))
        #expect(site.contains { $0.path == "sites[0].observability" && $0.message.hasPrefix("unknown key") })
    }

    @Test("the keys a site inherits by key are the ones the settings copy")
    func inheritedKeysAreCopied() {
        let copied = ["callLinks": CallLinkSettings.inheritedByKey.flatMap(\.keys), "aasa": AASASettings.inheritedByKey.flatMap(\.keys),
                      "static": StaticFileSettings.inheritedByKey.flatMap(\.keys)]
        for section in ConfigKeys.siteSections {
            #expect(Set(ConfigKeys.inheritedByKey(in: section)) == Set(copied[section] ?? []), "\(section)")
        }
        #expect(!ConfigKeys.inheritedByKey(in: "callLinks").isEmpty)
    }
}
