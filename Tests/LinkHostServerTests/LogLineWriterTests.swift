import Foundation
@testable import LinkHostServer
import Testing

/// The access log's JSON strings: printable ASCII only, and what a JSON reader decodes is what was sent.
@Suite("Log line writer")
struct LogLineWriterTests {
    /// `bytes` written as a JSON string value.
    static func json(_ bytes: [UInt8]) -> [UInt8] {
        let capacity = 6 * bytes.count + 2
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var writer = LogLineWriter(base: buffer, count: 0)
        bytes.withUnsafeBufferPointer { writer.jsonString($0) }
        #expect(writer.count <= capacity, "past the six bytes per byte that maximumLength reserves")
        return Array(UnsafeBufferPointer(start: buffer, count: writer.count))
    }

    /// What a strict JSON reader makes of the written string.
    static func decoded(_ written: [UInt8]) throws -> String {
        try #require(JSONSerialization.jsonObject(with: Data(written), options: .fragmentsAllowed) as? String)
    }

    @Test("every byte value alone: printable ASCII out, and it decodes to the byte's character or U+FFFD")
    func everyByte() throws {
        for byte in UInt8.min...UInt8.max {
            let written = Self.json([byte])
            #expect(written.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "byte \(byte): \(written)")
            let expected = byte < 0x80 ? String(UnicodeScalar(byte)) : "\u{FFFD}"
            #expect(try Self.decoded(written) == expected, "byte \(byte)")
        }
    }

    @Test("line separators, bidi controls, C1 controls and characters past U+FFFF are escaped and come back whole", arguments: [
        "\u{2028}", "\u{2029}", "\u{202E}x\u{202C}", "\u{2066}\u{2069}", "\u{200F}", "\u{0085}\u{009B}", "\u{1F600}", "b\u{FC}cher", "\u{061C}",
    ])
    func unicode(_ text: String) throws {
        let written = Self.json(Array(text.utf8))
        #expect(written.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "\(String(decoding: written, as: UTF8.self))")
        #expect(try Self.decoded(written) == text)
    }

    @Test("invalid UTF-8 (overlong, surrogate, past U+10FFFF, cut short, stray continuation) becomes one U+FFFD per byte", arguments: [
        [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x80], [0x80], [0xFF, 0xFE],
    ] as [[UInt8]])
    func invalid(_ bytes: [UInt8]) throws {
        #expect(try Self.decoded(Self.json(bytes)) == String(repeating: "\u{FFFD}", count: bytes.count))
    }

    @Test("quote, backslash and control characters cannot end the string or the line")
    func structure() throws {
        let text = "a\"b\\c\nd\re\u{0}f"
        let written = Self.json(Array(text.utf8))
        #expect(!written.contains(0x0A) && !written.contains(0x0D))
        #expect(try Self.decoded(written) == text)
    }
}
