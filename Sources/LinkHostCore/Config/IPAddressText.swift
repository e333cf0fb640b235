extension IPAddress {
    /// The canonical text of 4 or 16 address bytes: dotted decimal, or IPv6 as RFC 5952 §4 writes it
    /// (lowercase, no leading zeros, the longest run of two or more zero groups as `::`, the first of equal
    /// runs; an IPv4-mapped address with its IPv4 tail, §5). What a log shows of an address is made here
    /// from parsed bytes, never copied from what a client sent, so no zone, space or quote comes along.
    public static func text(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map { String($0) }.joined(separator: ".") }
        guard bytes.count == 16 else { return "" }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return "::ffff:" + text(Array(bytes[12..<16]))
        }
        let groups = (0..<8).map { Int(bytes[2 * $0]) << 8 | Int(bytes[2 * $0 + 1]) }
        var best = (start: -1, length: 0)
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else { index += 1; continue }
            var end = index
            while end < 8, groups[end] == 0 { end += 1 }
            if end - index > best.length { best = (index, end - index) }
            index = end
        }
        func hex(_ range: Range<Int>) -> String { range.map { String(groups[$0], radix: 16) }.joined(separator: ":") }
        guard best.length >= 2 else { return hex(0..<8) }
        return hex(0..<best.start) + "::" + hex((best.start + best.length)..<8)
    }
}
