import Testing
@testable import LinkHostJSON

@Suite("JSON")
struct JSONTests {
    @Test("round trip keeps member order and number text")
    func roundTrip() throws {
        let text = #"{"b":1.50,"a":[true,false,null],"c":{"x":"y\n\"z\""}}"#
        let value = try JSONParser.parse(text)
        #expect(JSONWriter.string(value, style: .compact) == text)
    }

    @Test("pretty output is indented and ends with a newline")
    func pretty() throws {
        let value = try JSONParser.parse(#"{"a":[1,2],"b":{}}"#)
        #expect(JSONWriter.string(value) == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}\n")
    }

    @Test("unicode escapes and surrogate pairs decode")
    func unicode() throws {
        #expect(try JSONParser.parse(#""\u00e9\ud83d\ude00""#) == .string("é😀"))
    }

    @Test("syntax errors name the line and column", arguments: [
        ("{\n  \"a\": 1,\n}", 3, 1),
        ("[1 2]", 1, 4),
        ("{\"a\" 1}", 1, 6),
        ("\"abc", 1, 5),
        ("01", 1, 2),
        ("[1] x", 1, 5),
        ("\"\\ud800\"", 1, 8),
    ])
    func syntaxErrors(text: String, line: Int, column: Int) {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.line == line)
            #expect(error.column == column)
        }
    }

    @Test("nesting beyond the limit is refused, not a stack overflow")
    func depthLimit() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(deep) }
    }

    @Test("invalid UTF-8 in a string is an error")
    func invalidUTF8() {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test("control characters are escaped on output")
    func escapes() {
        #expect(JSONWriter.string(.string("a\u{1}b/c"), style: .compact) == #""a\u0001b/c""#)
    }
}
