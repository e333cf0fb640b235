/// A strict RFC 8259 JSON parser that reports where a document goes wrong, by line and column.
public struct JSONParser {
    /// A syntax error with its 1-based position in the source.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        /// 1-based line of the offending byte.
        public let line: Int
        /// 1-based column of the offending byte.
        public let column: Int
        /// What was expected or found.
        public let message: String
        /// "line:column: message".
        public var description: String { "\(line):\(column): \(message)" }
    }

    /// Deepest nesting accepted; hostile documents must not exhaust the stack.
    public static let maximumDepth = 128

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// Parses one JSON document from UTF-8 bytes; trailing non-space bytes are an error.
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        // A UTF-8 byte order mark is not JSON but editors write it; skip it rather than fail obscurely.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipSpace()
        let value = try parser.parseValue()
        parser.skipSpace()
        if parser.index < bytes.count { throw parser.error("unexpected \(parser.describeCurrent()) after the document") }
        return value
    }

    /// Parses one JSON document from a string.
    public static func parse(_ text: String) throws(SyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> SyntaxError {
        var line = 1
        var column = 1
        for byte in bytes[0..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return SyntaxError(line: line, column: column, message: message)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ literal: String, _ value: JSONValue) throws(SyntaxError) -> JSONValue {
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("invalid literal, expected '\(literal)'") }
            index += 1
        }
        return value
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONValue {
        try enter()
        index += 1
        var object = JSONObject()
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a member name in double quotes")
            }
            let key = try parseString()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':' after member name")
            }
            index += 1
            skipSpace()
            object.append(key, try parseValue())
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of input, expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; break }
            throw error("unexpected \(describeCurrent()), expected ',' or '}'")
        }
        depth -= 1
        return .object(object)
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try parseValue())
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of input, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; break }
            throw error("unexpected \(describeCurrent()), expected ',' or ']'")
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of input in \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { index += 1; break }
            if byte < 0x20 { throw error("control character \(describeCurrent()) in string; escape it") }
            if byte != UInt8(ascii: "\\") {
                utf8.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { throw error("unterminated escape") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): utf8.append(0x22)
            case UInt8(ascii: "\\"): utf8.append(0x5C)
            case UInt8(ascii: "/"): utf8.append(0x2F)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("unpaired surrogate in \\u escape")
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
            default:
                index -= 1
                throw error("invalid escape \\\(describeCurrent())")
            }
        }
        guard let string = String(validating: utf8, as: UTF8.self) else { throw error("string is not valid UTF-8") }
        return string
    }

    private mutating func parseNumber() throws(SyntaxError) -> JSONNumber {
        let start = index
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("invalid number: leading zero") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: digit expected after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: digit expected in exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return JSONNumber(text: String(decoding: bytes[start..<index], as: UTF8.self))
    }
}
