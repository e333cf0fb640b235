import Testing
import CallLinks

@Suite("Call tokens")
struct CallTokenTests {
    @Test("1 to 64 of A-Z a-z 0-9 _ - are valid", arguments: ["a", "Z9", "abc_DEF-123", String(repeating: "x", count: 64)])
    func valid(token: String) {
        #expect(CallToken.isValid(token))
    }

    @Test("empty, too long, escaped, spaced or non-ASCII values are not", arguments: ["", String(repeating: "x", count: 65), "a%41", "a b", "a/b", "a.b", "é", "a:b", "a\u{0}"])
    func invalid(token: String) {
        #expect(!CallToken.isValid(token))
    }
}
