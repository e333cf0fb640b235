import LinkHostCore

/// Formats one access-log line into a byte buffer, escaping everything that came from the client.
///
/// Control characters can never reach the log raw: a request cannot forge a line or a terminal escape.
struct LogLineWriter {
    var buffer: [UInt8]

    private static let hex = Array("0123456789abcdef".utf8)
    private static let upperHex = Array("0123456789ABCDEF".utf8)
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map { Array($0.utf8) }

    mutating func write(format: ObservabilitySettings.AccessLogFormat, remote: Span<UInt8>, method: Span<UInt8>, path: Span<UInt8>,
                        status: Int, bytes: Int, durationMicroseconds: Int, userAgent: Span<UInt8>, referer: Span<UInt8>) {
        let (seconds, milliseconds) = LogTime.now()
        switch format {
        case .json, .off:
            literal("{\"time\":\"")
            isoTime(seconds: seconds, milliseconds: milliseconds)
            literal("\",\"remote\":")
            jsonString(remote)
            literal(",\"method\":")
            jsonString(method)
            literal(",\"path\":")
            jsonString(path)
            literal(",\"status\":")
            number(status)
            literal(",\"bytes\":")
            number(bytes)
            literal(",\"duration_us\":")
            number(durationMicroseconds)
            literal(",\"user_agent\":")
            jsonString(userAgent)
            literal("}\n")
        case .common, .combined:
            quoted(remote)
            literal(" - - [")
            commonTime(seconds: seconds)
            literal("] \"")
            quoted(method)
            literal(" ")
            quoted(path)
            literal(" HTTP/1.1\" ")
            number(status)
            literal(" ")
            number(bytes)
            if format == .combined {
                literal(" \"")
                if referer.isEmpty { literal("-") } else { quoted(referer) }
                literal("\" \"")
                if userAgent.isEmpty { literal("-") } else { quoted(userAgent) }
                literal("\"")
            }
            literal("\n")
        }
    }

    private mutating func literal(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    mutating func number(_ value: Int, width: Int = 0) {
        var value = value
        if value < 0 { buffer.append(UInt8(ascii: "-")); value = -value }
        var digits = 1
        var scale = 1
        while scale <= value / 10 { scale *= 10; digits += 1 }
        for _ in digits..<max(width, digits) { buffer.append(UInt8(ascii: "0")) }
        while scale > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(value / scale % 10))
            scale /= 10
        }
    }

    /// A JSON string; bytes below 0x20, DEL, quote and backslash are escaped, invalid UTF-8 passes as bytes
    /// that JSON readers replace, never as structure.
    mutating func jsonString(_ text: Span<UInt8>) {
        buffer.append(UInt8(ascii: "\""))
        for index in text.indices {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [0x5C, 0x5C])
            case 0x00..<0x20, 0x7F:
                buffer.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0x0F)]])
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// A Common Log Format field: quotes, backslashes, control and non-ASCII bytes become `\xHH`.
    mutating func quoted(_ text: Span<UInt8>) {
        for index in text.indices {
            let byte = text[index]
            if byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                buffer.append(contentsOf: [0x5C, UInt8(ascii: "x"), Self.upperHex[Int(byte >> 4)], Self.upperHex[Int(byte & 0x0F)]])
            } else {
                buffer.append(byte)
            }
        }
    }

    private mutating func isoTime(seconds: Int, milliseconds: Int) {
        let (year, month, day) = CivilDate.date(days: seconds / 86_400)
        let secondOfDay = seconds % 86_400
        number(year, width: 4); buffer.append(UInt8(ascii: "-"))
        number(month, width: 2); buffer.append(UInt8(ascii: "-"))
        number(day, width: 2); buffer.append(UInt8(ascii: "T"))
        number(secondOfDay / 3600, width: 2); buffer.append(UInt8(ascii: ":"))
        number(secondOfDay / 60 % 60, width: 2); buffer.append(UInt8(ascii: ":"))
        number(secondOfDay % 60, width: 2); buffer.append(UInt8(ascii: "."))
        number(milliseconds, width: 3); buffer.append(UInt8(ascii: "Z"))
    }

    private mutating func commonTime(seconds: Int) {
        let (year, month, day) = CivilDate.date(days: seconds / 86_400)
        let secondOfDay = seconds % 86_400
        number(day, width: 2); buffer.append(UInt8(ascii: "/"))
        buffer.append(contentsOf: Self.months[month - 1]); buffer.append(UInt8(ascii: "/"))
        number(year, width: 4); buffer.append(UInt8(ascii: ":"))
        number(secondOfDay / 3600, width: 2); buffer.append(UInt8(ascii: ":"))
        number(secondOfDay / 60 % 60, width: 2); buffer.append(UInt8(ascii: ":"))
        number(secondOfDay % 60, width: 2)
        literal(" +0000")
    }
}
