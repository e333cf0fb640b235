/// Text from elsewhere (a server's headers, a metrics body, a file someone sent) made safe to print.
///
/// A terminal acts on what it is sent: ESC starts a control sequence (retitle the window, move the cursor,
/// rewrite the line already shown), BEL rings, CR returns to the line's start so the rest overwrites it,
/// and the C1 controls (U+0080–U+009F) are escape sequences of their own to many terminals. Bidirectional
/// overrides and isolates (U+202A–U+202E, U+2066–U+2069) reorder what is shown without being seen. Each
/// is written as an escape anyone can read instead; printable text, line feeds and tabs pass as they are.
public enum TerminalText {
    /// How an escaped character is written.
    public enum Style: Sendable {
        /// `\x1B` for the ASCII controls, `\u{202E}` for the others: for people.
        case human
        /// `\u001b`: valid inside a JSON string, so JSON output stays JSON.
        case json
    }

    /// `text` with every control character escaped; line feeds kept unless `keepingLineFeeds` is false
    /// (a value printed inside one line of its own, such as a site label).
    public static func safe(_ text: String, style: Style = .human, keepingLineFeeds: Bool = true) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingLineFeeds: keepingLineFeeds) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar, keepingLineFeeds: keepingLineFeeds) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: style == .human)
            switch style {
            case .json: result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            case .human where scalar.value < 0x80: result += "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
            case .human: result += "\\u{" + hex + "}"
            }
        }
        return result
    }

    /// True for what a terminal would act on rather than show.
    static func needsEscape(_ scalar: Unicode.Scalar, keepingLineFeeds: Bool) -> Bool {
        switch scalar.value {
        case 0x0A: return !keepingLineFeeds
        case 0x09: return false
        case 0x00..<0x20, 0x7F, 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
