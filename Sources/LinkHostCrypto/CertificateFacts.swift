import CCrypto

/// What a certificate says about itself: validity, issuer, names, and the identifiers ACME Renewal
/// Information uses; read from the first certificate of a PEM chain.
package struct CertificateFacts: Sendable, Hashable {
    /// Start of validity, Unix seconds.
    package let notBefore: Int
    /// End of validity, Unix seconds.
    package let notAfter: Int
    /// The issuer's distinguished name, e.g. "CN=R11,O=Let's Encrypt,C=US".
    package let issuer: String
    /// The DNS names it is valid for (subject alternative names), lower-cased.
    package let names: [String]
    /// The serial number's bytes, as hex.
    package let serialHex: String
    /// The authority key identifier's bytes, as hex; empty when the certificate has none.
    package let authorityKeyIDHex: String
    /// How many certificates the PEM holds (leaf and intermediates).
    package let chainLength: Int

    /// Reads a PEM chain; nil when it holds no certificate GnuTLS can read.
    package init?(pem: [UInt8]) {
        var text = [UInt8](repeating: 0, count: 32 * 1024)
        let length = lhcrypto_certificate_facts(pem, Int32(pem.count), &text, Int32(text.count))
        guard length > 0 else { return nil }
        var values: [String: String] = [:]
        var names: [String] = []
        for line in String(decoding: text[0..<Int(length)], as: UTF8.self).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals]), value = String(line[line.index(after: equals)...])
            if key == "name" { names.append(value.lowercased()) } else { values[key] = value }
        }
        guard let notBefore = values["notBefore"].flatMap({ Int($0) }), let notAfter = values["notAfter"].flatMap({ Int($0) }) else { return nil }
        self.notBefore = notBefore
        self.notAfter = notAfter
        issuer = values["issuer"] ?? ""
        self.names = names
        serialHex = values["serial"] ?? ""
        authorityKeyIDHex = values["authorityKeyID"] ?? ""
        chainLength = values["chain"].flatMap { Int($0) } ?? 1
    }

    /// Seconds of validity in all.
    package var lifetime: Int { max(0, notAfter - notBefore) }

    /// True when the certificate names `host` exactly or by a `*.` wildcard one label deep.
    package func covers(_ host: String) -> Bool {
        let host = host.lowercased()
        return names.contains { name in
            if name == host { return true }
            guard name.hasPrefix("*."), let dot = host.firstIndex(of: ".") else { return false }
            return host[host.index(after: dot)...] == name.dropFirst(2)
        }
    }

    /// The certificate's ARI identifier (RFC 9773 §4.1): base64url of the authority key identifier, a dot,
    /// base64url of the serial number's bytes; nil without an authority key identifier.
    package var renewalInfoID: String? {
        guard let keyID = Self.bytes(hex: authorityKeyIDHex), !keyID.isEmpty, let serial = Self.bytes(hex: serialHex), !serial.isEmpty else { return nil }
        return Base64URL.encode(keyID) + "." + Base64URL.encode(serial)
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let value = UInt8(String(decoding: digits[index..<(index + 2)], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            index += 2
        }
        return bytes
    }
}
