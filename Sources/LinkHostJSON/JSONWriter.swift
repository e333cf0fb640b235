/// Writes `JSONValue`s as deterministic UTF-8: same value, same bytes, members in their order.
public enum JSONWriter {
    /// Layout of the output.
    public enum Style: Sendable {
        /// One line, no spaces.
        case compact
        /// Two-space indentation, one member per line, a newline at the end; what people read with curl.
        case pretty
    }

    /// The value's bytes in the given style.
    public static func bytes(_ value: JSONValue, style: Style = .pretty) -> [UInt8] {
        var output: [UInt8] = []
        write(value, style: style, indent: 0, into: &output)
        if style == .pretty { output.append(0x0A) }
        return output
    }

    /// The value as a string in the given style.
    public static func string(_ value: JSONValue, style: Style = .pretty) -> String {
        String(decoding: bytes(value, style: style), as: UTF8.self)
    }

    private static func newline(_ style: Style, _ indent: Int, into output: inout [UInt8]) {
        guard style == .pretty else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(0x20, count: indent * 2))
    }

    private static func write(_ value: JSONValue, style: Style, indent: Int, into output: inout [UInt8]) {
        switch value {
        // The bytes appended as they are, not through an array made for each (a generated AASA has hundreds of `true`s).
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.text.utf8)
        case .string(let string): writeString(string, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                newline(style, indent + 1, into: &output)
                write(element, style: style, indent: indent + 1, into: &output)
            }
            if !elements.isEmpty { newline(style, indent, into: &output) }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (offset, member) in object.members.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                newline(style, indent + 1, into: &output)
                writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                if style == .pretty { output.append(0x20) }
                write(member.value, style: style, indent: indent + 1, into: &output)
            }
            if !object.members.isEmpty { newline(style, indent, into: &output) }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Escapes only what JSON requires; "/" stays as is because AASA paths are full of it.
    private static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied whole, not byte by byte.
        guard string.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 || $0 == 0x7F }) else {
            output.append(contentsOf: string.utf8)
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                           hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
