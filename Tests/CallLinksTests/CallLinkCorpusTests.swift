import CallLinks
import Foundation
import Testing

/// `CallLinkParser` and `DeferredCallLink` over the shared corpus: every row's answer is its expected column,
/// the column the printed Kotlin parser and the server are held to by scripts/check-kotlin-parser.sh.
@Suite("Call-link corpus")
struct CallLinkCorpusTests {
    @Test("every row of the corpus: the parser's call is the expected one")
    func corpus() throws {
        let corpus = try CallLinkCorpus()
        let parser = try CallLinkParser(templates: corpus.templates, defaultType: corpus.defaultType, hosts: corpus.hosts, schemes: corpus.schemes)
        let deferred = DeferredCallLink(parser: parser)
        var answers: [Int: String] = [:]
        for row in corpus.rows {
            let link: CallLink?
            switch row.kind {
            case "url": link = parser.parse(row.input)
            case "referrer": link = deferred.take(row.input, secondsSinceInstall: 60, alreadyTaken: false)
            default: Issue.record("line \(row.line): unknown kind \(row.kind)"); continue
            }
            let answer = CallLinkCorpus.column(link.map { ($0.callID, $0.callType) })
            answers[row.line] = answer
            #expect(answer == row.expected || Self.recording, "line \(row.line) \(row.kind) \(row.input.debugDescription): parser \(answer), table \(row.expected)")
        }
        if Self.recording {
            var lines = corpus.lines
            for (line, answer) in answers {
                var fields = lines[line - 1].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                fields[2] = answer
                lines[line - 1] = fields.joined(separator: "\t")
            }
            try lines.joined(separator: "\n").write(toFile: CallLinkCorpus.path, atomically: true, encoding: .utf8)
        }
        let calls = corpus.rows.filter { $0.expected != "-" }.count
        #expect(corpus.rows.count >= 300, "a few hundred inputs")
        #expect(calls >= 60 && calls <= corpus.rows.count - 300, "calls and near misses both: \(calls) of \(corpus.rows.count)")
    }

    @Test("hand-checked rows: what the corpus records for them is what the templates say")
    func handChecked() throws {
        let corpus = try CallLinkCorpus()
        let expected: [(String, String)] = [
            ("https://links.example.com/call/abc123?type=video", "abc123 video"),
            ("https://LINKS.Example.COM/call/abc123", "abc123 default"),
            ("https://x.links.example.com/call/abc123", "abc123 default"),
            ("https://links.example.com.evil.com/call/abc123", "-"),
            ("https://links.example.com:8443/call/abc123?type=video", "-"),
            ("https://lin\u{212A}s.example.com/call/abc123?type=video", "-"),
            ("https://links.example.com/call/abc123?\u{301}type=video", "abc123 default"),
            ("https://links.example.com/join?call_id=abc&\u{301}call_type=video", "abc default"),
            ("examplevideo://call/abc123?type=video", "abc123 video"),
            ("examplevideo://call/abc#\u{301}", "abc default"),
            ("https://links.example.com/call/%61bc", "-"),
        ]
        for (input, answer) in expected {
            let row = try #require(corpus.rows.first { $0.kind == "url" && $0.input == input }, "\(input.debugDescription) is in the corpus")
            #expect(row.expected == answer, "\(input.debugDescription)")
        }
    }

    static var recording: Bool { ProcessInfo.processInfo.environment["LINKHOST_RECORD_CORPUS"] == "1" }
}
