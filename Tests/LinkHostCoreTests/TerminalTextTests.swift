import LinkHostCore
import Testing

/// What `check`, `stats` and `match` print of remote text: control characters escaped, the rest as it is.
@Suite("Terminal text")
struct TerminalTextTests {
    @Test("ESC, BEL, CR, DEL, C1 and bidirectional controls are escaped; text, tabs and line feeds pass")
    func escapes() {
        #expect(TerminalText.safe("a\u{1B}]0;x\u{07}b\rc\u{7F}\u{9B}d\u{202E}e\tf\ng") == "a\\x1B]0;x\\x07b\\x0Dc\\x7F\\u{9B}d\\u{202E}e\tf\ng")
        #expect(TerminalText.safe("line\nbreak", keepingLineFeeds: false) == "line\\x0Abreak")
        #expect(TerminalText.safe("plain café ✓") == "plain café ✓")
    }

    @Test("the JSON style writes \\u escapes, so JSON output stays valid JSON")
    func json() {
        #expect(TerminalText.safe("{\"a\": \"x\u{9B}y\u{202E}\"}", style: .json) == "{\"a\": \"x\\u009by\\u202e\"}")
    }
}
