import Foundation

/// The shared call-link corpus (`Corpus/call-links.tsv`): the parser's settings and every row, decoded.
/// `scripts/check-kotlin-parser.sh` reads the same file for the Kotlin parser and the server.
struct CallLinkCorpus {
    /// One input and the call expected from it.
    struct Row {
        /// `url` or `referrer`.
        let kind: String
        /// The input, decoded.
        let input: String
        /// The expected column as written: `ID TYPE` or `-`.
        let expected: String
        /// What the printed Kotlin parser answers: the android column where the row has one, else `expected`.
        let android: String
        /// The row's line in the file.
        let line: Int
    }

    let templates: [String]
    let defaultType: String
    let hosts: [String]
    let schemes: [String]
    let rows: [Row]
    /// The file's lines, to write the expected column back when recording.
    let lines: [String]

    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Corpus/call-links.tsv"

    init() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var settings: [String: [String]] = [:]
        var rows: [Row] = []
        for (index, line) in lines.enumerated() where !line.isEmpty && !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if line.hasPrefix("@") {
                settings[String(fields[0].dropFirst())] = Array(fields.dropFirst())
            } else {
                guard fields.count == 3 || fields.count == 4 else { throw CorpusError(line: index + 1, problem: "has \(fields.count) columns, not 3 or 4") }
                rows.append(Row(kind: fields[0], input: try Self.decoded(fields[1], line: index + 1), expected: fields[2],
                                android: fields.count == 4 ? fields[3] : fields[2], line: index + 1))
            }
        }
        templates = settings["templates"] ?? []
        defaultType = settings["defaultType"]?.first ?? "default"
        hosts = settings["hosts"] ?? []
        schemes = settings["schemes"] ?? []
        self.rows = rows
    }

    /// `\\` and `\u{HEX}` undone.
    static func decoded(_ field: String, line: Int) throws -> String {
        var result = ""
        var scalars = field.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\" else { result.unicodeScalars.append(scalar); continue }
            switch scalars.next() {
            case "\\"?: result += "\\"
            case "u"?:
                guard scalars.next() == "{" else { throw CorpusError(line: line, problem: "has \\u without {") }
                var hex = ""
                while let digit = scalars.next(), digit != "}" { hex.unicodeScalars.append(digit) }
                guard let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) else { throw CorpusError(line: line, problem: "has \\u{\(hex)}") }
                result.unicodeScalars.append(decoded)
            default: throw CorpusError(line: line, problem: "has a \\ that escapes nothing")
            }
        }
        return result
    }

    /// The expected column for an answer.
    static func column(_ link: (callID: String, callType: String)?) -> String {
        link.map { "\($0.callID) \($0.callType)" } ?? "-"
    }
}

/// A line of the corpus that cannot be read.
struct CorpusError: Error, CustomStringConvertible {
    let line: Int
    let problem: String
    var description: String { "call-links.tsv line \(line) \(problem)" }
}
