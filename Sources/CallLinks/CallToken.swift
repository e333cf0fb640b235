/// The one shape of a call ID or call type: 1–64 characters of `A-Z a-z 0-9 _ -`.
///
/// Such values never need escaping in a URL, a header or HTML, and never contain `%`, so a
/// percent-encoded or otherwise disguised value can be refused without being decoded.
public enum CallToken {
    /// The longest call ID or type accepted.
    public static let maximumLength = 64

    /// True when `bytes` are a valid call ID or type.
    ///
    /// Inlinable, as every generic function on the request path: a caller in another module then gets a
    /// version specialized for its byte collection instead of one going through witness tables.
    @inlinable
    public static func isValid<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        (1...maximumLength).contains(bytes.count) && bytes.allSatisfy(isTokenByte)
    }

    /// True when `text` is a valid call ID or type.
    @inlinable
    public static func isValid(_ text: String) -> Bool { isValid(text.utf8) }

    /// The clause that completes "\"x\" …" for an invalid value, used by every error about one.
    public static let expectation = "is not 1 to 64 characters of A-Z, a-z, 0-9, \"_\" and \"-\""

    /// One byte of a call token.
    @inlinable @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
