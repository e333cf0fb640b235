/// Strict percent-decoding of request paths for file lookup.
enum PathDecoding {
    /// Decodes `%XX` escapes; nil for a malformed escape, an encoded "/", "\" or NUL, a raw "\" or control
    /// byte, or bytes that are not UTF-8 — anything that could make one path mean two files.
    static func decode(_ raw: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.utf8.count)
        var iterator = raw.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") { return nil }
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            let decoded = high << 4 | low
            if decoded < 0x20 || decoded == 0x7F || decoded == UInt8(ascii: "/") || decoded == UInt8(ascii: "\\") { return nil }
            bytes.append(decoded)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A hex digit's value (either case), or nil; IPv6 groups (`IPAddress`) read theirs here too.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
