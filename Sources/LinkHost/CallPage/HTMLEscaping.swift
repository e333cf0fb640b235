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
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: [0x26, 0x61, 0x6D, 0x70, 0x3B]) // &amp;
            case UInt8(ascii: "<"): output.append(contentsOf: [0x26, 0x6C, 0x74, 0x3B]) // &lt;
            case UInt8(ascii: ">"): output.append(contentsOf: [0x26, 0x67, 0x74, 0x3B]) // &gt;
            case UInt8(ascii: "\""): output.append(contentsOf: [0x26, 0x23, 0x33, 0x34, 0x3B]) // &#34;
            case UInt8(ascii: "'"): output.append(contentsOf: [0x26, 0x23, 0x33, 0x39, 0x3B]) // &#39;
            case 0x00..<0x09, 0x0A..<0x20, 0x7F: continue // control characters, line breaks included, never reach the page
            default: output.append(byte)
            }
        }
    }

    /// `value` escaped, as a string.
    public static func escape(_ value: String) -> String {
        var output: [UInt8] = []
        append(value, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Percent-encodes everything but unreserved characters, for a URL nested inside another URL.
    public static func percentEncode(_ value: String) -> String {
        var output = ""
        for byte in value.utf8 {
            let isUnreserved = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~")
            if isUnreserved {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                output.unicodeScalars.append("%")
                output.unicodeScalars.append(hex[Int(byte >> 4)])
                output.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return output
    }
}
