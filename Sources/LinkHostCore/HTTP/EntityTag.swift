/// Strong entity tags and the `If-None-Match` check (RFC 9110 §8.8.3, §13.1.2).
public enum EntityTag {
    /// A strong, quoted tag derived from the bytes: same bytes, same tag, on every replica.
    public static func strong(for bytes: [UInt8]) -> String {
        strong(for: bytes.span)
    }

    /// `strong(for:)` of the bytes a span shows (a page rendered straight into the server's buffer).
    public static func strong(for bytes: Span<UInt8>) -> String {
        strong(digest: digest(bytes), length: bytes.count)
    }

    /// `strong(for:)`'s form for a digest computed elsewhere (a page's, from what decides its bytes).
    package static func strong(digest: UInt64, length: Int) -> String {
        var text = [UInt8](repeating: 0, count: maximumLength)
        var span = text.mutableSpan
        let count = writeTag(digest: digest, length: length, into: &span)
        return String(decoding: text[..<count], as: UTF8.self)
    }

    /// Folds `value` into `hash`, so a digest can cover several parts without copying them together.
    package static func combine(_ hash: UInt64, _ value: UInt64) -> UInt64 {
        var mixed = (hash ^ value) &* 0x9E37_79B9_7F4A_7C15
        mixed ^= mixed >> 29
        return mixed
    }

    /// The most bytes a tag from `writeTag` takes: quotes, 16 digits, a dash and 16 more.
    package static let maximumLength = 36

    /// Writes the quoted tag of a digest and a byte count, e.g. `"0123456789abcdef-f0d"`, at the start of
    /// `text` (at least `maximumLength` bytes) and returns how many bytes it took: the server writes a
    /// rendered page's tag into its own buffer with this, without making a `String`.
    package static func writeTag(digest: UInt64, length: Int, into text: inout MutableSpan<UInt8>) -> Int {
        let hex: StaticString = "0123456789abcdef"
        return hex.withUTF8Buffer { digits in
            text[0] = UInt8(ascii: "\"")
            for index in 0..<16 { text[1 + index] = digits[Int(digest >> (60 - 4 * UInt64(index)) & 0xF)] }
            text[17] = UInt8(ascii: "-")
            var count = 18
            var shift = 60
            while shift > 0 && length >> shift == 0 { shift -= 4 }
            while shift >= 0 {
                text[count] = digits[(length >> shift) & 0xF]
                count += 1
                shift -= 4
            }
            text[count] = UInt8(ascii: "\"")
            return count + 1
        }
    }

    /// A 64-bit digest of the bytes, enough to tell versions apart (it is not a security boundary).
    ///
    /// Four lanes of 8-byte words, each mixed with a multiply and a shift, then the tail byte by byte:
    /// a rendered page is hashed on every request, and the byte-at-a-time FNV-1a this replaced cost about
    /// four instructions a byte. Words are read little-endian from the bytes, so every machine agrees.
    package static func digest(_ bytes: Span<UInt8>) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4, 0x2545_F491_4F6C_DD1D, 0x1405_7B7E_F767_814F)
        let count = bytes.count
        var offset = 0
        while offset + 32 <= count {
            let block = bytes.extracting(offset..<(offset + 32))
            // Tells the optimizer the 32 reads below are in bounds, so it drops their checks.
            guard block.count == 32 else { break }
            @inline(__always) func word(_ at: Int) -> UInt64 {
                UInt64(block[at]) | UInt64(block[at + 1]) << 8 | UInt64(block[at + 2]) << 16 | UInt64(block[at + 3]) << 24
                    | UInt64(block[at + 4]) << 32 | UInt64(block[at + 5]) << 40 | UInt64(block[at + 6]) << 48 | UInt64(block[at + 7]) << 56
            }
            lanes.0 = (lanes.0 ^ word(0)) &* multiplier; lanes.0 ^= lanes.0 >> 29
            lanes.1 = (lanes.1 ^ word(8)) &* multiplier; lanes.1 ^= lanes.1 >> 29
            lanes.2 = (lanes.2 ^ word(16)) &* multiplier; lanes.2 ^= lanes.2 >> 29
            lanes.3 = (lanes.3 ^ word(24)) &* multiplier; lanes.3 ^= lanes.3 >> 29
            offset += 32
        }
        var hash = lanes.0 ^ (lanes.1 &* 3) ^ (lanes.2 &* 5) ^ (lanes.3 &* 7) ^ UInt64(count)
        while offset < count {
            hash = (hash ^ UInt64(bytes[offset])) &* 0x0000_0100_0000_01B3
            offset += 1
        }
        hash ^= hash >> 33
        hash = hash &* multiplier
        hash ^= hash >> 29
        return hash
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
