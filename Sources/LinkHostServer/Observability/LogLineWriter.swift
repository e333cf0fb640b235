import LinkHostCore

/// What one access-log line says, as bytes libmicrohttpd holds until the request completes.
struct LogFields {
    let remote: UnsafeBufferPointer<UInt8>
    /// The request's Host field as sent (empty without one).
    let host: UnsafeBufferPointer<UInt8>
    /// The label of the site that answered.
    let site: UnsafeBufferPointer<UInt8>
    let method: UnsafeBufferPointer<UInt8>
    let path: UnsafeBufferPointer<UInt8>
    let status: Int
    let bytes: Int
    let durationMicroseconds: Int
    let userAgent: UnsafeBufferPointer<UInt8>
    let referer: UnsafeBufferPointer<UInt8>
}

/// The text of the current second in both log formats, made once a second per thread instead of once a line.
struct LogClock {
    private var second = Int.min
    /// `2026-12-01T10:25:09.` (JSON's ISO 8601, before the milliseconds).
    fileprivate var iso = InlineArray<20, UInt8>(repeating: 0)
    /// `01/Dec/2026:10:25:09 +0000` (Common Log Format).
    fileprivate var common = InlineArray<26, UInt8>(repeating: 0)

    private static let months: StaticString = "JanFebMarAprMayJunJulAugSepOctNovDec"

    /// Brings both texts to `seconds` since the Unix epoch, when the second changed.
    fileprivate mutating func update(_ seconds: Int) {
        guard seconds != second else { return }
        second = seconds
        let (year, month, day) = CivilDate.date(days: seconds / 86_400)
        let secondOfDay = seconds % 86_400
        let (hour, minute, sec) = (secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
        func digits<let count: Int>(_ value: Int, _ width: Int, into text: inout InlineArray<count, UInt8>, at offset: Int) {
            var value = value
            for position in (0..<width).reversed() {
                text[offset + position] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        digits(year, 4, into: &iso, at: 0); iso[4] = UInt8(ascii: "-")
        digits(month, 2, into: &iso, at: 5); iso[7] = UInt8(ascii: "-")
        digits(day, 2, into: &iso, at: 8); iso[10] = UInt8(ascii: "T")
        digits(hour, 2, into: &iso, at: 11); iso[13] = UInt8(ascii: ":")
        digits(minute, 2, into: &iso, at: 14); iso[16] = UInt8(ascii: ":")
        digits(sec, 2, into: &iso, at: 17); iso[19] = UInt8(ascii: ".")
        digits(day, 2, into: &common, at: 0); common[2] = UInt8(ascii: "/")
        Self.months.withUTF8Buffer { names in
            for index in 0..<3 { common[3 + index] = names[(month - 1) * 3 + index] }
        }
        common[6] = UInt8(ascii: "/")
        digits(year, 4, into: &common, at: 7); common[11] = UInt8(ascii: ":")
        digits(hour, 2, into: &common, at: 12); common[14] = UInt8(ascii: ":")
        digits(minute, 2, into: &common, at: 15); common[17] = UInt8(ascii: ":")
        digits(sec, 2, into: &common, at: 18)
        for (index, byte) in " +0000".utf8.enumerated() { common[20 + index] = byte }
    }
}

/// Formats one access-log line into a buffer with room for it (`maximumLength`), escaping everything
/// that came from the client. Bytes go straight into memory: no per-byte capacity or uniqueness checks.
///
/// Nothing outside printable ASCII reaches the log raw: a request cannot forge a line, a terminal escape,
/// or text that a bidi control reorders, and every line is JSON any reader accepts.
struct LogLineWriter {
    let base: UnsafeMutablePointer<UInt8>
    private(set) var count: Int

    init(base: UnsafeMutablePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    private static let hex: StaticString = "0123456789abcdef"
    private static let upperHex: StaticString = "0123456789ABCDEF"

    /// The most bytes a line of these fields can take in any format: every client byte escaped at most
    /// six times over (`\u00XX`), plus the fixed text and three numbers.
    static func maximumLength(of fields: LogFields) -> Int {
        6 * (fields.remote.count + fields.host.count + fields.site.count + fields.method.count + fields.path.count + fields.userAgent.count + fields.referer.count) + 256
    }

    mutating func write(format: ObservabilitySettings.AccessLogFormat, _ fields: LogFields, clock: inout LogClock) {
        let (seconds, milliseconds) = LogTime.now()
        clock.update(seconds)
        switch format {
        case .json, .off:
            literal("{\"time\":\"")
            for index in 0..<20 { put(clock.iso[index]) }
            digits(milliseconds, width: 3)
            literal("Z\",\"remote\":")
            jsonString(fields.remote)
            literal(",\"host\":")
            jsonString(fields.host)
            literal(",\"site\":")
            jsonString(fields.site)
            literal(",\"method\":")
            jsonString(fields.method)
            literal(",\"path\":")
            jsonString(fields.path)
            literal(",\"status\":")
            number(fields.status)
            literal(",\"bytes\":")
            number(fields.bytes)
            literal(",\"duration_us\":")
            number(fields.durationMicroseconds)
            literal(",\"user_agent\":")
            jsonString(fields.userAgent)
            literal("}\n")
        case .common, .combined:
            quoted(fields.remote)
            literal(" - - [")
            for index in 0..<26 { put(clock.common[index]) }
            literal("] \"")
            quoted(fields.method)
            literal(" ")
            quoted(fields.path)
            literal(" HTTP/1.1\" ")
            number(fields.status)
            literal(" ")
            number(fields.bytes)
            if format == .combined {
                literal(" \"")
                if fields.referer.isEmpty { literal("-") } else { quoted(fields.referer) }
                literal("\" \"")
                if fields.userAgent.isEmpty { literal("-") } else { quoted(fields.userAgent) }
                literal("\"")
            }
            literal("\n")
        }
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    private mutating func literal(_ text: StaticString) {
        text.withUTF8Buffer { bytes in
            (base + count).update(from: bytes.baseAddress!, count: bytes.count)
            count += bytes.count
        }
    }

    /// A non-negative number in decimal, or with a minus sign: digit count first, then written backwards.
    mutating func number(_ value: Int) {
        guard value >= 0 else {
            put(UInt8(ascii: "-"))
            // The magnitude of Int.min does not fit an Int; a log number never gets there.
            return number(value == Int.min ? Int.max : -value)
        }
        var width = 1
        var limit = 10
        while width < 19 && value >= limit { width += 1; limit &*= 10 }
        digits(value, width: width)
    }

    /// `value` in exactly `width` digits, zero-padded on the left.
    private mutating func digits(_ value: Int, width: Int) {
        var value = value
        var position = count + width - 1
        while position >= count {
            base[position] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
            position -= 1
        }
        count += width
    }

    /// A JSON string in printable ASCII only: quote and backslash escaped, every other byte outside
    /// 0x20–0x7E written as `\uXXXX` (C0, DEL, C1, U+2028/2029, bidi controls and every other non-ASCII
    /// character alike; a surrogate pair above U+FFFF), and each byte of invalid UTF-8 as `\ufffd`. So every
    /// JSON reader, however strict, reads the line, and no client byte can reorder or hide text in a terminal.
    /// At most six bytes out per byte in, as `maximumLength` counts.
    mutating func jsonString(_ text: UnsafeBufferPointer<UInt8>) {
        put(UInt8(ascii: "\""))
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte >= 0x20, byte < 0x7F {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { put(0x5C) }
                put(byte)
                index += 1
                continue
            }
            guard let (scalar, length) = Self.decodeScalar(text, at: index) else {
                unicodeEscape(0xFFFD)
                index += 1
                continue
            }
            if scalar > 0xFFFF {
                let offset = scalar - 0x10000
                unicodeEscape(0xD800 + (offset >> 10))
                unicodeEscape(0xDC00 + (offset & 0x3FF))
            } else {
                unicodeEscape(scalar)
            }
            index += length
        }
        put(UInt8(ascii: "\""))
    }

    /// `\uXXXX` for a UTF-16 code unit.
    private mutating func unicodeEscape(_ unit: UInt32) {
        put(0x5C); put(UInt8(ascii: "u"))
        Self.hex.withUTF8Buffer { digits in
            for shift in stride(from: 12, through: 0, by: -4) { put(digits[Int((unit >> UInt32(shift)) & 0xF)]) }
        }
    }

    /// The scalar of the well-formed UTF-8 sequence at `index` and its length (an ASCII byte is one), or nil
    /// for a byte that does not start one: overlong forms, surrogates and values past U+10FFFF are not UTF-8.
    static func decodeScalar(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int)? {
        let first = text[index]
        let length: Int
        var scalar: UInt32
        var lowest: UInt32
        switch first {
        case 0x00..<0x80: return (UInt32(first), 1)
        case 0xC2...0xDF: length = 2; scalar = UInt32(first & 0x1F); lowest = 0x80
        case 0xE0...0xEF: length = 3; scalar = UInt32(first & 0x0F); lowest = 0x800
        case 0xF0...0xF4: length = 4; scalar = UInt32(first & 0x07); lowest = 0x10000
        default: return nil
        }
        guard index + length <= text.count else { return nil }
        for offset in 1..<length {
            let next = text[index + offset]
            guard next & 0xC0 == 0x80 else { return nil }
            scalar = scalar << 6 | UInt32(next & 0x3F)
        }
        guard scalar >= lowest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return nil }
        return (scalar, length)
    }

    /// A Common Log Format field: quotes, backslashes, control and non-ASCII bytes become `\xHH`.
    mutating func quoted(_ text: UnsafeBufferPointer<UInt8>) {
        for byte in text {
            if byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                put(0x5C); put(UInt8(ascii: "x"))
                Self.upperHex.withUTF8Buffer { digits in
                    put(digits[Int(byte >> 4)])
                    put(digits[Int(byte & 0x0F)])
                }
            } else {
                put(byte)
            }
        }
    }
}
