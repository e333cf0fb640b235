import Foundation

/// One row of `HostileExpectations.tsv`: raw request bytes for a fresh connection and what may come back.
struct HostileCase: Sendable {
    /// Unique name, e.g. `frame-cl-conflict`.
    let id: String
    /// Accepted outcomes, each in the notation of `HostileOutcome.text` (e.g. `400:mhd close`); an
    /// alternative written `known ID: OUTCOME` is a known defect, reported as a known issue when it shows.
    let expected: [String]
    /// The request column as written in the table (escapes intact), for messages and re-recording.
    let source: String
    /// The bytes to send.
    let bytes: [UInt8]
    /// Why the case exists and, once reviewed, why its outcome is right (or which bug it shows).
    let note: String
    /// Line number in the table, for messages.
    let line: Int

    /// The method of each request line in `bytes`, in order, so HEAD responses are read without a body.
    /// (Lines are split on LF bytes: as Characters, "\r\n" is one grapheme and never equals "\n".)
    var methods: [String] {
        bytes.split(separator: 10).compactMap { rawLine -> String? in
            let line = rawLine.last == 13 ? rawLine.dropLast() : rawLine
            let words = line.split(separator: 32, omittingEmptySubsequences: false)
            guard words.count == 3, words[2].starts(with: Array("HTTP/".utf8)), !words[0].isEmpty,
                  words[0].allSatisfy({ (65...90).contains($0) }) else { return nil }
            return String(decoding: words[0], as: UTF8.self)
        }
    }

    /// The outcomes that are right, without the `known` ones.
    var correct: [String] { expected.filter { !$0.hasPrefix("known ") } }

    /// Outcomes that show a known defect the server cannot fix itself (e.g. inside libmicrohttpd):
    /// `known M1: 400:other garbage close` → ("M1", "400:other garbage close").
    var knownDefects: [(id: String, outcome: String)] {
        expected.compactMap { alternative in
            guard alternative.hasPrefix("known "), let colon = alternative.firstIndex(of: ":") else { return nil }
            let id = alternative[alternative.index(alternative.startIndex, offsetBy: 6)..<colon]
            return (String(id), alternative[alternative.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }
}

/// What one case got: the responses in order (status and which known body), then how the connection ended.
struct HostileOutcome: Sendable, Equatable {
    /// `STATUS:TAG` for each complete response, e.g. `200:style`, `400:mhd`; then `garbage` if bytes
    /// came that are not a well-formed response.
    var tokens: [String] = []
    /// True when the server closed (or reset) the connection; false when it was still open at the end.
    var closed = false

    /// The notation used in the table: tokens, then `close` or `open`.
    var text: String { (tokens + [closed ? "close" : "open"]).joined(separator: " ") }
}

/// Reads and writes the expected-results table.
///
/// Format: tab-separated `id`, `expect`, `request`, `note`; `#` starts a comment line. `expect` lists
/// accepted outcomes separated by ` | `; `known ID: OUTCOME` marks what a known defect produces. `request` is text with the escapes `\r \n \t \0 \\ \{ \}`,
/// `\xHH` for any byte, and `{N*TEXT}` for TEXT repeated N times (TEXT may hold escapes and repeats),
/// so oversize and binary requests stay one readable line.
enum HostileTable {
    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    /// The table's path, beside this file (read at run time, so no resource bundle is needed).
    static let path: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/HostileExpectations.tsv"

    /// Parses the whole table; throws naming the line of the first problem.
    static func load(_ text: String) throws -> [HostileCase] {
        var cases: [HostileCase] = []
        var seen = Set<String>()
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            if rawLine.isEmpty || rawLine.hasPrefix("#") { continue }
            let columns = rawLine.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 3 else {
                throw ParseError(description: "line \(line): want id, expect, request and note separated by tabs, found \(columns.count) columns")
            }
            let id = columns[0]
            guard !id.isEmpty, seen.insert(id).inserted else {
                throw ParseError(description: "line \(line): the id \"\(id)\" is empty or used twice")
            }
            let expected = columns[1].components(separatedBy: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !expected.isEmpty else { throw ParseError(description: "line \(line) (\(id)): no expected outcome") }
            let bytes: [UInt8]
            do {
                bytes = try decode(columns[2])
            } catch {
                throw ParseError(description: "line \(line) (\(id)): \(error)")
            }
            cases.append(HostileCase(id: id, expected: expected, source: columns[2], bytes: bytes,
                                     note: columns.count > 3 ? columns[3...].joined(separator: "\t") : "", line: line))
        }
        return cases
    }

    /// Turns the request notation into bytes.
    static func decode(_ text: String) throws -> [UInt8] {
        var input = Array(text.utf8)[...]
        let bytes = try decodeSequence(&input, nested: false)
        return bytes
    }

    private static func decodeSequence(_ input: inout ArraySlice<UInt8>, nested: Bool) throws -> [UInt8] {
        var output: [UInt8] = []
        while let byte = input.first {
            input = input.dropFirst()
            switch byte {
            case UInt8(ascii: "\\"):
                guard let escape = input.first else { throw ParseError(description: "a lone \\ at the end") }
                input = input.dropFirst()
                switch escape {
                case UInt8(ascii: "r"): output.append(13)
                case UInt8(ascii: "n"): output.append(10)
                case UInt8(ascii: "t"): output.append(9)
                case UInt8(ascii: "0"): output.append(0)
                case UInt8(ascii: "\\"), UInt8(ascii: "{"), UInt8(ascii: "}"): output.append(escape)
                case UInt8(ascii: "x"):
                    let digits = input.prefix(2)
                    guard digits.count == 2, let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) else {
                        throw ParseError(description: "\\x needs two hex digits")
                    }
                    input = input.dropFirst(2)
                    output.append(value)
                default:
                    throw ParseError(description: "unknown escape \\\(Character(Unicode.Scalar(escape)))")
                }
            case UInt8(ascii: "{"):
                let digits = input.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                input = input.dropFirst(digits.count)
                guard let count = Int(String(decoding: digits, as: UTF8.self)), count <= 1_000_000, input.first == UInt8(ascii: "*") else {
                    throw ParseError(description: "a repeat is written {COUNT*TEXT} with COUNT at most 1000000 (write \\{ for a literal brace)")
                }
                input = input.dropFirst()
                let unit = try decodeSequence(&input, nested: true)
                for _ in 0..<count { output += unit }
            case UInt8(ascii: "}"):
                guard nested else { throw ParseError(description: "a } without its { (write \\} for a literal brace)") }
                return output
            default:
                output.append(byte)
            }
        }
        if nested { throw ParseError(description: "a {COUNT*TEXT} repeat is not closed") }
        return output
    }

    /// The table text with each case's `expect` column replaced by what it got; comments and notes kept.
    static func rewrite(_ text: String, outcomes: [String: HostileOutcome]) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { rawLine -> String in
            guard !rawLine.isEmpty, !rawLine.hasPrefix("#") else { return String(rawLine) }
            var columns = rawLine.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 3, let outcome = outcomes[columns[0]] else { return String(rawLine) }
            columns[1] = outcome.text
            return columns.joined(separator: "\t")
        }.joined(separator: "\n")
    }
}
