import Foundation
import Testing

/// The configs the docs show are files under config/examples: each one validates, and each block a doc marks
/// with `<!-- config: PATH -->` is that file byte for byte, so a doc cannot show a config nobody checked.
@Suite("Example config files and the docs that show them")
struct ExampleConfigFilesTests {
    private static let root = SiteFixture.repositoryRoot

    private static func examples() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root + "/config/examples").filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test("every file in config/examples validates with no error and no warning (ACME ones with the unit's environment)")
    func validate() async throws {
        let files = try Self.examples()
        #expect(files.count >= 3, "\(files)")
        let state = NSTemporaryDirectory() + "linkhost-examples-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: state) }
        for file in files {
            let text = try String(contentsOfFile: Self.root + "/config/examples/" + file, encoding: .utf8)
            // An ACME config is written for the systemd unit or the image, which give the ports and the folder.
            let environment = text.contains("\"acme\"")
                ? ["LINKHOST_PORT": "443", "LINKHOST_HTTP_PORT": "80", "LINKHOST_ACME_DEFAULT_STATE_DIRECTORY": state] : [:]
            let result = try await LinkHostCLI.run(["validate", "--config", "config/examples/" + file], environment: environment, directory: Self.root)
            #expect(result.exitCode == 0 && result.stdout.contains(": valid"), "\(file): \(result)")
            #expect(!result.stdout.contains("warning"), "\(file): \(result)")
        }
    }

    @Test("every config block the docs mark is the file it names, and the README shows at least two")
    func docsShowTheFiles() throws {
        let docs = try ["README.md"] + FileManager.default.contentsOfDirectory(atPath: Self.root + "/docs").filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        var shown: [String: Int] = [:]
        for doc in docs {
            let lines = try String(contentsOfFile: Self.root + "/" + doc, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.hasPrefix("<!-- config: ") {
                let path = String(line.dropFirst("<!-- config: ".count).prefix { $0 != " " })
                shown[doc, default: 0] += 1
                guard index + 1 < lines.count, lines[index + 1].hasPrefix("```") else {
                    Issue.record("\(doc):\(index + 1): the marker for \(path) is not followed by a code block")
                    continue
                }
                let block = lines[(index + 2)...].prefix { !$0.hasPrefix("```") }.joined(separator: "\n") + "\n"
                let file = try String(contentsOfFile: Self.root + "/" + path, encoding: .utf8)
                #expect(block == file, "\(doc):\(index + 1) shows \(path) otherwise than the file is")
            }
        }
        #expect((shown["README.md"] ?? 0) >= 2, "\(shown)")
    }
}
