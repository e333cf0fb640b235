import CallLinks

/// Format rules for the identifiers a config names, each answering nil when valid or why not.
///
/// The answers complete a sentence that starts with the quoted value, e.g. `"abc" is not 10 characters …`.
enum Identifiers {
    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// Apple Team ID: exactly ten characters of A-Z and 0-9.
    static func teamID(_ value: String) -> String? {
        let bytes = Array(value.utf8)
        let valid = bytes.count == 10 && bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) }
        return valid ? nil : "is not 10 characters of A-Z and 0-9"
    }

    /// Bundle ID: reverse-DNS, at least two dot-separated parts of A-Z, a-z, 0-9 and "-".
    static func bundleID(_ value: String) -> String? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        let valid = value.utf8.count <= 155 && parts.count >= 2
            && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") } }
        return valid ? nil : "is not a reverse-DNS bundle ID of A-Z, a-z, 0-9, \"-\" and \".\" (e.g. com.example.app)"
    }

    /// App ID: `TEAMID.bundle.id`.
    static func appID(_ value: String) -> String? {
        guard let dot = value.firstIndex(of: ".") else { return "is not an app ID of the form TEAMID.bundle.id" }
        if teamID(String(value[..<dot])) != nil || bundleID(String(value[value.index(after: dot)...])) != nil {
            return "is not an app ID of the form TEAMID.bundle.id (10 characters of A-Z and 0-9, a dot, a bundle ID)"
        }
        return nil
    }

    /// App Store ID: the digits of `id123456789`.
    static func appStoreID(_ value: String) -> String? {
        let valid = (1...12).contains(value.utf8.count) && value.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        return valid ? nil : "is not an App Store ID of 1 to 12 digits (the number after \"id\" in the store URL)"
    }

    /// A custom URL scheme (RFC 3986), not a web scheme.
    static func urlScheme(_ value: String) -> String? {
        let bytes = Array(value.utf8)
        guard let first = bytes.first, (first >= 0x41 && first <= 0x5A) || (first >= 0x61 && first <= 0x7A),
              bytes.count <= 64,
              bytes.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else { return "is not a URL scheme (a letter, then letters, digits, \"+\", \"-\" or \".\"; no \"://\")" }
        if ["http", "https", "javascript", "data", "file"].contains(value.lowercased()) {
            return "is not a custom scheme of the app; http(s) and script schemes cannot reopen an app"
        }
        return nil
    }

    /// Android application ID: Java package name with at least two parts.
    static func packageName(_ value: String) -> String? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        let valid = parts.count >= 2 && parts.allSatisfy { part in
            guard let first = part.utf8.first, (first >= 0x41 && first <= 0x5A) || (first >= 0x61 && first <= 0x7A) else { return false }
            return part.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "_") }
        }
        return valid ? nil : "is not an Android package name (dot-separated parts, each a letter then letters, digits or \"_\")"
    }

    /// SHA-256 certificate fingerprint in either case; `normalizedFingerprint` gives the canonical form.
    static func fingerprint(_ value: String) -> String? {
        guard normalizedFingerprint(value) == nil else { return nil }
        if value.utf8.count == 64, value.allSatisfy(\.isHexDigit) {
            // Some tools print the digest without separators; Digital Asset Links compares the colon form.
            let digits = Array(value.uppercased())
            let paired = stride(from: 0, to: 64, by: 2).map { String(digits[$0..<$0 + 2]) }.joined(separator: ":")
            return "is 64 hex digits without colons; Android compares the 32 pairs joined by \":\": \"\(paired)\""
        }
        let pairs = value.split(separator: ":", omittingEmptySubsequences: false)
        // Hex pairs of the wrong count are usually another digest or a pair lost in copying: say which.
        guard pairs.allSatisfy({ $0.utf8.count == 2 && $0.allSatisfy(\.isHexDigit) }) else {
            return "is not a SHA-256 fingerprint (32 hex byte pairs joined by \":\")"
        }
        if pairs.count == 20 {
            return "has 20 hex byte pairs: it is a SHA-1 fingerprint; Android verifies the SHA-256 one (32 pairs), the \"SHA256:\" line of keytool -list -v or the Play Console's"
        }
        if pairs.count == 16 {
            return "has 16 hex byte pairs: it is an MD5 fingerprint; Android verifies the SHA-256 one (32 pairs), the \"SHA256:\" line of keytool -list -v or the Play Console's"
        }
        return "has \(pairs.count) hex byte pair\(pairs.count == 1 ? "" : "s"); a SHA-256 fingerprint has 32 (check that none was lost or added in copying)"
    }

    /// Uppercases a valid fingerprint, since Android compares them textually in uppercase.
    static func normalizedFingerprint(_ value: String) -> String? {
        // 32 pairs of ASCII hex digits joined by ":", read as bytes: two signing keys for each of ten thousand
        // tenants were split and checked a character at a time (5 % of a start, issue 42).
        let bytes = value.utf8
        guard bytes.count == 32 * 3 - 1 else { return nil }
        var upper: [UInt8] = []
        upper.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            if index % 3 == 2 {
                guard byte == UInt8(ascii: ":") else { return nil }
                upper.append(byte)
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte) {
                upper.append(byte)
            } else if (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) {
                upper.append(byte - 0x20)
            } else {
                return nil
            }
        }
        return String(decoding: upper, as: UTF8.self)
    }

    /// Call ID or call type: 1–64 characters of A-Z, a-z, 0-9, "_" and "-".
    static func callToken(_ value: String) -> String? {
        CallToken.isValid(value) ? nil : CallToken.expectation
    }

    /// Substitution variable name: letters, digits and "_".
    static func variableName(_ value: String) -> String? {
        let valid = !value.isEmpty && value.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "_") }
        return valid ? nil : "is not a substitution variable name (letters, digits and \"_\")"
    }

    /// The substitution variables iOS defines itself; a config may not redefine them.
    static let predefinedVariables = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]
}
