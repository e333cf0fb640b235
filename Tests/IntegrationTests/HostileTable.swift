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

    /// Every accepted outcome, known defects and every library series included (for the exchange's waits).
    var allOutcomes: [String] { expected.map { HostileAlternative($0).outcome } }

    /// The outcomes that are right on `series` (e.g. "0.9", "1.0"), without the `known` ones.
    func correct(on series: String) -> [String] {
        expected.map(HostileAlternative.init).filter { $0.applies(to: series) && $0.knownID == nil }.map(\.outcome)
    }

    /// Outcomes that show a known defect the server cannot fix itself (inside libmicrohttpd 0.9.75), on
    /// `series`: `@0.9 known M1: 400:other garbage close` → ("M1", "400:other garbage close") on 0.9 only.
    func knownDefects(on series: String) -> [(id: String, outcome: String)] {
        expected.map(HostileAlternative.init).filter { $0.applies(to: series) }.compactMap { alternative in
            alternative.knownID.map { ($0, alternative.outcome) }
        }
    }
}

/// One alternative of the `expect` column: `[@SERIES ][known ID: ]OUTCOME`.
///
/// `@0.9` and `@1.0` limit it to a libmicrohttpd series (0.9.x, or 1.0 and later): the 1.0 parser
/// answers some malformed heads differently (and rightly), and the M1/M2 defects exist only in 0.9.75.
struct HostileAlternative: Sendable, Equatable {
    /// The series it is limited to, or nil for every one.
    let series: String?
    /// The known defect it shows (`M1`), or nil for a right outcome.
    let knownID: String?
    let outcome: String

    init(_ text: String) {
        var rest = Substring(text)
        if rest.hasPrefix("@"), let space = rest.firstIndex(of: " ") {
            series = String(rest[rest.index(after: rest.startIndex)..<space])
            rest = rest[rest.index(after: space)...]
        } else {
            series = nil
        }
        if rest.hasPrefix("known "), let colon = rest.firstIndex(of: ":") {
            knownID = String(rest[rest.index(rest.startIndex, offsetBy: 6)..<colon])
            rest = rest[rest.index(after: colon)...]
        } else {
            knownID = nil
        }
        outcome = rest.trimmingCharacters(in: .whitespaces)
    }

    /// Whether it counts on a server that runs `series`.
    func applies(to running: String) -> Bool { series == nil || series == running }
}

/// The libmicrohttpd series a running server loaded, from its start-up line
/// ("linkhost: libmicrohttpd 1.0.1: …"): "0.9" or "1.0" (1.0 and later), as the table's `@` names them.
struct LibrarySeries: Sendable, CustomStringConvertible {
    /// The full version, e.g. "1.0.1".
    let version: String
    /// "0.9" or "1.0".
    var series: String { version.hasPrefix("0.") ? "0.9" : "1.0" }
    var description: String { "libmicrohttpd \(version)" }

    /// Waits for the server's start-up line and reads the version from it.
    static func of(_ server: LinkHostProcess) async throws -> LibrarySeries {
        try await server.waitForStderr(containing: "libmicrohttpd ")
        let text = server.stderr
        guard let start = text.range(of: "libmicrohttpd ")?.upperBound else { throw HarnessError("no libmicrohttpd line in \(text)") }
        let version = text[start...].prefix { $0.isNumber || $0 == "." }
        guard !version.isEmpty else { throw HarnessError("no version after libmicrohttpd in \(text)") }
        return LibrarySeries(version: String(version))
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
/// accepted outcomes separated by ` | `; `known ID: OUTCOME` marks what a known defect produces, and a leading
/// `@0.9 ` or `@1.0 ` limits an alternative to that libmicrohttpd series (see `HostileAlternative`). `request` is text with the escapes `\r \n \t \0 \\ \{ \}`,
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

    /// The table text with what each differing case got on `series` added to its `expect` column as
    /// `@SERIES OUTCOME` (for review: keep it, or turn it into a plain or `known` alternative); comments
    /// and notes kept.
    static func rewrite(_ text: String, outcomes: [String: HostileOutcome], series: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { rawLine -> String in
            guard !rawLine.isEmpty, !rawLine.hasPrefix("#") else { return String(rawLine) }
            var columns = rawLine.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 3, let outcome = outcomes[columns[0]] else { return String(rawLine) }
            columns[1] += " | @\(series) \(outcome.text)"
            return columns.joined(separator: "\t")
        }.joined(separator: "\n")
    }
}
