import Foundation
import LinkHostCore
import Testing

/// Issue 40: the docs name only what exists. Every dotted config key in backticks is a key of `ConfigKeyTable`,
/// every `Sources/`, `Tests/` and `scripts/` path cited is in the repository, every validate output a doc shows is
/// what the binary prints, and every `docker run` that publishes the image's ports sets them. Each failure names
/// the document, the line and what is wrong there, so a doc edited on another branch is fixed where it says.
@Suite("The docs name what exists")
struct DocConsistencyTests {
    private static let root = SiteFixture.repositoryRoot

    /// README.md and every docs/*.md, with their lines.
    static func documents() throws -> [(name: String, lines: [String])] {
        let names = try ["README.md"] + FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return try names.map { name in
            (name, try String(contentsOfFile: root + "/" + name, encoding: .utf8).components(separatedBy: "\n"))
        }
    }

    /// The inline code spans of `line` (the text between backticks).
    static func codeSpans(_ line: String) -> [String] {
        let parts = line.components(separatedBy: "`")
        return stride(from: 1, to: parts.count - 1, by: 2).map { parts[$0] }
    }

    /// A key path as the table writes it: element indices as `[]`, a `sites` entry's section as the section's
    /// own key (its rows are the top level's), a trailing `[]` (an element of a listed key) dropped.
    static func tablePath(_ span: String) -> String {
        var path = span.replacing(/\[\d*\]/, with: "[]")
        if path.hasPrefix("sites[]."), let section = path.dropFirst("sites[].".count).split(separator: ".").first,
           ConfigKeys.siteSections.contains(String(section.replacing("[]", with: ""))) {
            path = String(path.dropFirst("sites[].".count))
        }
        if ConfigKeys.key(path) == nil, path.hasSuffix("[]") { path = String(path.dropLast(2)) }
        return path
    }

    @Test("every dotted config key the docs name in backticks is a key of ConfigKeyTable")
    func keysExist() throws {
        let topLevel = Set(ConfigKeys.all.filter { $0.parent.isEmpty }.map(\.path))
        // Names of two characters or more (the shortest key is `id`): `sites.d`, a folder, is no key path.
        let shape = /[A-Za-z$][A-Za-z0-9]+(\[\d*\])?(\.[A-Za-z][A-Za-z0-9]+(\[\d*\])?)+/
        var checked = 0
        for (name, lines) in try Self.documents() {
            var fenced = false
            for (index, line) in lines.enumerated() {
                if line.hasPrefix("```") { fenced.toggle(); continue }
                guard !fenced else { continue }
                for span in Self.codeSpans(line) where span.wholeMatch(of: shape) != nil {
                    // Only a span whose first name is a top-level key of the config is a key path (not `Snapshot.namesHost`, `linkhost.json`).
                    let first = String(span.prefix { $0 != "." && $0 != "[" })
                    guard topLevel.contains(first) else { continue }
                    checked += 1
                    let path = Self.tablePath(span)
                    guard ConfigKeys.key(path) == nil else { continue }
                    let last = path.split(separator: ".").last.map(String.init) ?? path
                    let near = ConfigKeys.all.filter { $0.name == last }.map { "`\($0.path)`" }
                    let suggestion = near.isEmpty ? "" : "; did you mean \(near.joined(separator: " or "))?"
                    Issue.record(Comment(rawValue: "\(name):\(index + 1): `\(span)` is no key of the config (Sources/LinkHostCore/Config/ConfigKeyTable*.swift)\(suggestion)"))
                }
            }
        }
        #expect(checked > 100, "the docs' key names were not found: \(checked) checked")
    }

    @Test("every Sources/, Tests/ and scripts/ path the docs cite exists in the repository")
    func pathsExist() throws {
        // A citation starts the path: nothing of a path just before it (`docs/../Sources/…` counts, `.build/Sources` not).
        let citation = /(^|[^A-Za-z0-9_.\/-]|\.\.\/)((Sources|Tests|scripts)\/[A-Za-z0-9_.+*\/-]*)/
        var checked = 0
        for (name, lines) in try Self.documents() {
            for (index, line) in lines.enumerated() {
                for match in line.matches(of: citation) {
                    var path = String(match.output.2)
                    while let last = path.last, ".,:;-".contains(last) { path.removeLast() }
                    checked += 1
                    if !Self.exists(path) {
                        Issue.record("\(name):\(index + 1): cites \(path), which is not in the repository")
                    }
                }
            }
        }
        #expect(checked > 100, "the docs' paths were not found: \(checked) checked")
    }

    @Test("every `docker run` in the docs that publishes the image's 8443 and 8080 sets LINKHOST_PORT and LINKHOST_HTTP_PORT to them")
    func dockerRunsSetThePorts() throws {
        var checked = 0
        for (name, lines) in try Self.documents() {
            var command = "", start = 0
            for (index, line) in lines.enumerated() {
                if command.isEmpty { start = index }
                command += line
                if line.hasSuffix("\\") { command.removeLast(); continue }
                defer { command = "" }
                guard command.contains("docker run"), command.contains(":8443") else { continue }
                checked += 1
                // The README's linkhost.json names ports 443 and 80, which the image's unprivileged user cannot bind.
                let missing = ["-e LINKHOST_PORT=8443", "-e LINKHOST_HTTP_PORT=8080"].filter { !command.contains($0) }
                if !missing.isEmpty {
                    Issue.record("\(name):\(start + 1): this docker run publishes the image's 8443 and 8080 without \(missing.joined(separator: " ")): with the README's linkhost.json (ports 443 and 80) the image's unprivileged user cannot bind")
                }
            }
        }
        #expect(checked >= 4, "\(checked) docker runs with HTTPS found")
    }

    @Test("every validate output a doc shows (after `<!-- validate: FILE -->`, the ```json block, then the output) is what the binary prints")
    func validateSamples() async throws {
        var checked = 0
        for (name, lines) in try Self.documents() {
            for (index, line) in lines.enumerated() where line.hasPrefix("<!-- validate: ") {
                let file = String(line.dropFirst("<!-- validate: ".count).prefix { $0 != " " })
                let blocks = Self.fencedBlocks(lines, from: index + 1, count: 2)
                guard blocks.count == 2, blocks[0].fence == "```json" else {
                    Issue.record("\(name):\(index + 1): the marker is not followed by a ```json block (the config, as \(file)) and a ``` block (the output)")
                    continue
                }
                checked += 1
                let folder = NSTemporaryDirectory() + "linkhost-doc-sample-" + UUID().uuidString
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(atPath: folder) }
                try blocks[0].text.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
                try FileManager.default.createSymbolicLink(atPath: folder + "/public", withDestinationPath: Self.root + "/public")
                let run = try await LinkHostCLI.run(["validate", "--config", file], directory: folder)
                let printed = run.stdout + run.stderr
                #expect(printed == blocks[1].text, "\(name):\(blocks[1].line): not what `linkhost validate --config \(file)` prints for the config above it; it prints:\n\(printed)")
            }
        }
        #expect(checked >= 1, "docs/config-guide.md's sample is marked")
    }

    /// True when `path` (relative to the repository; `*` in its last part matches any run) names something there.
    static func exists(_ path: String) -> Bool {
        guard path.contains("*") else { return FileManager.default.fileExists(atPath: root + "/" + path) }
        let folder = (path as NSString).deletingLastPathComponent, pattern = (path as NSString).lastPathComponent
        let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []
        return names.contains { name in
            guard name.hasPrefix(pieces[0]), name.hasSuffix(pieces[pieces.count - 1]), name.count >= pieces[0].count + pieces[pieces.count - 1].count else { return false }
            var rest = name.dropFirst(pieces[0].count).dropLast(pieces[pieces.count - 1].count)
            for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
                guard let found = rest.range(of: piece) else { return false }
                rest = rest[found.upperBound...]
            }
            return true
        }
    }

    /// The first `count` fenced blocks from line `start` on: their opening fence, their first line's number and their text.
    static func fencedBlocks(_ lines: [String], from start: Int, count: Int) -> [(fence: String, line: Int, text: String)] {
        var blocks: [(fence: String, line: Int, text: String)] = []
        var index = start
        while index < lines.count, blocks.count < count {
            guard lines[index].hasPrefix("```") else { index += 1; continue }
            let body = lines[(index + 1)...].prefix { !$0.hasPrefix("```") }
            blocks.append((lines[index], index + 2, body.map { $0 + "\n" }.joined()))
            index += body.count + 2
        }
        return blocks
    }
}
