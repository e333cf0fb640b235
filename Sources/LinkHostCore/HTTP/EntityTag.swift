/// Strong entity tags and the `If-None-Match` check (RFC 9110 §8.8.3, §13.1.2).
public enum EntityTag {
    /// A strong, quoted tag derived from the bytes: same bytes, same tag, on every replica.
    public static func strong(for bytes: [UInt8]) -> String {
        // FNV-1a (64-bit) is enough to tell versions apart; it is not a security boundary.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        let length = String(bytes.count, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "-" + length + "\""
    }

    /// True when an `If-None-Match` field value names `tag` (weak comparison) or is `*`.
    public static func ifNoneMatch(_ field: String, matches tag: String) -> Bool {
        let opaque = tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
        for candidate in field.split(separator: ",") {
            var item = candidate.drop(while: { $0 == " " || $0 == "\t" })
            while let last = item.last, last == " " || last == "\t" { item = item.dropLast() }
            if item == "*" { return true }
            if item.hasPrefix("W/") { item = item.dropFirst(2) }
            if item == opaque { return true }
        }
        return false
    }
}
