import LinkHostJSON

/// An IPv4 or IPv6 address, or a CIDR block of them: one entry of `server.trustedProxies`.
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    /// The network's bytes: 4 for IPv4, 16 for IPv6, the bits past the prefix cleared.
    public let network: [UInt8]
    /// Leading bits that must match: 32 or 128 for one address.
    public let prefixLength: Int
    /// The entry as the config wrote it.
    public let description: String

    /// Reads `198.51.100.7`, `10.0.0.0/8`, `2001:db8::/32` or `::1`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress.parse(parts[0].utf8) else { return nil }
        let bits = address.count * 8
        var length = bits
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...bits).contains(given), parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            length = given
        }
        network = address.enumerated().map { index, byte in
            let kept = max(0, min(8, length - index * 8))
            return kept == 8 ? byte : byte & ~(UInt8(0xFF) >> kept)
        }
        prefixLength = length
        description = text
    }

    /// True when `address` (4 or 16 bytes, an IPv4-mapped IPv6 address taken as IPv4) is in the range.
    public func contains(_ address: [UInt8]) -> Bool {
        let address = IPAddress.unmapped(address)
        guard address.count == network.count else { return false }
        for index in 0..<network.count {
            let kept = max(0, min(8, prefixLength - index * 8))
            if kept == 0 { return true }
            let mask = kept == 8 ? UInt8(0xFF) : ~(UInt8(0xFF) >> kept)
            if address[index] & mask != network[index] { return false }
        }
        return true
    }
}

/// IP address text to bytes: IPv4 dotted decimal, IPv6 (RFC 4291 2.2, with `::` and a dotted IPv4 tail).
public enum IPAddress {
    /// 4 or 16 bytes, or nil. A zone (`fe80::1%eth0`) is ignored; leading zeros in IPv4 are refused (some
    /// readers take them as octal).
    public static func parse<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
        var bytes = Array(text)
        if let zone = bytes.firstIndex(of: UInt8(ascii: "%")) { bytes.removeSubrange(zone...) }
        return bytes.contains(UInt8(ascii: ":")) ? ipv6(bytes[...]) : ipv4(bytes[...])
    }

    /// An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) as its 4 IPv4 bytes; anything else as it is.
    public static func unmapped(_ address: [UInt8]) -> [UInt8] {
        guard address.count == 16, address[0..<10].allSatisfy({ $0 == 0 }), address[10] == 0xFF, address[11] == 0xFF else { return address }
        return Array(address[12..<16])
    }

    private static func ipv4(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), part.count == 1 || part.first != 0x30 else { return nil }
            let value = part.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard value <= 255 else { return nil }
            bytes.append(UInt8(value))
        }
        return bytes
    }

    private static func ipv6(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        // Split at the one `::` if there is one; each side is groups of 1–4 hex digits, the last may be IPv4.
        var head = text, tail: ArraySlice<UInt8> = []
        var compressed = false
        if let gap = firstDoubleColon(text) {
            (head, tail, compressed) = (text[text.startIndex..<gap], text[(gap + 2)...], true)
            if firstDoubleColon(tail) != nil { return nil }
        }
        guard let front = groups(head), let back = groups(tail) else { return nil }
        let count = front.count + back.count
        guard compressed ? count <= 14 : count == 16 else { return nil }
        return front + [UInt8](repeating: 0, count: 16 - count) + back
    }

    private static func firstDoubleColon(_ text: ArraySlice<UInt8>) -> Int? {
        var index = text.startIndex
        while index + 1 < text.endIndex {
            if text[index] == UInt8(ascii: ":") && text[index + 1] == UInt8(ascii: ":") { return index }
            index += 1
        }
        return nil
    }

    /// `2001:db8` → bytes; a dotted IPv4 last group gives 4 bytes; empty text gives none.
    private static func groups(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        if text.isEmpty { return [] }
        let parts = text.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        var bytes: [UInt8] = []
        for (index, part) in parts.enumerated() {
            if index == parts.count - 1, part.contains(UInt8(ascii: ".")) {
                guard let v4 = ipv4(part) else { return nil }
                bytes += v4
                continue
            }
            guard (1...4).contains(part.count) else { return nil }
            var value = 0
            for digit in part {
                guard let nibble = PathDecoding.hexValue(digit) else { return nil }
                value = value * 16 + Int(nibble)
            }
            bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
        }
        return bytes
    }
}

/// Reads `server.trustedProxies`: a list of addresses and CIDR blocks.
enum TrustedProxiesReader {
    static func read(_ object: JSONObject, reader: inout ConfigReader) -> [AddressRange] {
        guard let items = reader.array(object, "trustedProxies", at: "server", expected: "a list of addresses or CIDR blocks, e.g. [\"10.0.0.0/8\", \"2001:db8::/32\"]") else { return [] }
        var ranges: [AddressRange] = []
        for (value, path) in items {
            guard case .string(let text) = value, let range = AddressRange(text) else {
                reader.error(.lh109, path, "is not an IPv4 or IPv6 address or CIDR block (e.g. \"10.0.0.0/8\", \"::1\", \"2001:db8::/32\")")
                continue
            }
            ranges.append(range)
        }
        return ranges
    }
}
