import Testing
@testable import LinkHostCore
import LinkHostTestSupport

/// `check` lints a fleet's AASA files once per rule set: what it reports must be what linting each file
/// alone reports, the file's own app IDs included.
@Suite("The served AASA's lint, shared by files of one rule set")
struct ServedAASALintTests {
    /// An AASA of `apps` whose second rule an earlier one shadows (LH201), so the shared findings are not empty.
    static func document(_ apps: [String], size: Int = 0) -> [UInt8] {
        let ids = apps.map { "\"\($0)\"" }.joined(separator: ", ")
        let padding = String(repeating: " ", count: size)
        return Array(#"{"applinks": {"details": [{"appIDs": [\#(ids)], "components": [{"/": "/call/*"}, {"/": "/call/x"}]}]}}"#.utf8) + Array(padding.utf8)
    }

    @Test("files that differ only in valid app IDs are linted once, each reported as if linted alone; an app listed twice, an invalid ID, broken JSON and an oversize file are linted as they are")
    func sameAsAlone() throws {
        let lint = ServedAASALint()
        let files = (0..<5).map { Self.document(["TEAM00000\($0).com.tenant\($0).video"]) } + [
            Self.document(["TEAM000009.com.twice", "TEAM000009.com.twice"]),
            Self.document(["not-an-app-id"]),
            Array(#"{"applinks": {"details": [}"#.utf8),
            Self.document(["TEAM000008.com.big"], size: AASAGenerator.maximumSize),
        ]
        for file in files {
            let shared = lint.diagnostics(bytes: file)
            #expect(shared == AASALinter.diagnostics(bytes: file), "\(String(decoding: file.prefix(120), as: UTF8.self))")
        }
        #expect(AASALinter.diagnostics(bytes: files[0]).contains { $0.code == .lh201 }, "the rule set has a finding to share")
        #expect(AASALinter.diagnostics(bytes: files[5]).contains { $0.code == .lh104 }, "the app listed twice is named")
        #expect(lint.keptDocuments == 1, "one rule set, one lint: \(lint.keptDocuments)")
    }
}
