/// Escapes text for the place it stands in an HTML document.
public enum HTMLEscaping {
    /// Where a value stands in the template.
    public enum Context: Sendable, Equatable {
        /// Between tags.
        case text
        /// Inside a quoted attribute value; `url` when the attribute holds a URL (href, src, …).
        case attribute(name: String, url: Bool)
    }

    /// Appends `value` escaped for HTML text and quoted attributes alike: `& < > " '` become references.
    /// One escaping serves both contexts because every attribute in a template must be quoted.
    public static func append(_ value: String, to output: inout [UInt8]) {
        let bytes = value.utf8
        // Copy runs of plain bytes at once; only the few special bytes are handled one by one.
        var runStart = bytes.startIndex
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let replacement: [UInt8]
            switch bytes[index] {
            case UInt8(ascii: "&"): replacement = ampersand
            case UInt8(ascii: "<"): replacement = lessThan
            case UInt8(ascii: ">"): replacement = greaterThan
            case UInt8(ascii: "\""): replacement = quote
            case UInt8(ascii: "'"): replacement = apostrophe
            case 0x00..<0x09, 0x0A..<0x20, 0x7F: replacement = [] // control characters, line breaks included, never reach the page
            default:
                bytes.formIndex(after: &index)
                continue
            }
            output.append(contentsOf: bytes[runStart..<index])
            output.append(contentsOf: replacement)
            bytes.formIndex(after: &index)
            runStart = index
        }
        output.append(contentsOf: bytes[runStart...])
    }

    private static let ampersand = Array("&amp;".utf8)
    private static let lessThan = Array("&lt;".utf8)
    private static let greaterThan = Array("&gt;".utf8)
    private static let quote = Array("&#34;".utf8)
    private static let apostrophe = Array("&#39;".utf8)

    /// `value` escaped, as a string.
    public static func escape(_ value: String) -> String {
        var output: [UInt8] = []
        append(value, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Percent-encodes everything but unreserved characters, for a URL nested inside another URL.
    /// Used at load: a page's URLs are encoded then, in every form it writes them (`URLText`).
    public static func percentEncode(_ value: String) -> String {
        var output: [UInt8] = []
        for byte in value.utf8 {
            if isUnreserved(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(upperHex[Int(byte >> 4)])
                output.append(upperHex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// RFC 3986's unreserved characters: letters, digits, `-`, `_`, `.`, `~`.
    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~")
    }

    private static let upperHex = Array("0123456789ABCDEF".utf8)
}
