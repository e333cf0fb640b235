import CCrypto
import LinkHostJSON

/// Why a key, a signature or a certificate request could not be made.
package struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed, in words.
    package let description: String
}

/// An ECDSA P-256 private key, kept as its PEM text: the ACME account key and each certificate's key.
///
/// Every operation hands the PEM to GnuTLS, which parses it again; a few signatures per order cost nothing,
/// and no GnuTLS object has to outlive a call.
package struct P256Key: Sendable, Equatable {
    /// The key as unencrypted PKCS#8 PEM.
    package let pem: [UInt8]
    /// The public point, 32 bytes each.
    package let x: [UInt8], y: [UInt8]

    /// Makes a new random key.
    package static func generate() throws(CryptoError) -> P256Key {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let length = lhcrypto_generate_p256_key(&buffer, Int32(buffer.count))
        guard length > 0 else { throw CryptoError(description: "GnuTLS could not make an ECDSA P-256 key") }
        return try P256Key(pem: Array(buffer[0..<Int(length)]))
    }

    /// Reads a PEM key; throws when it is not a P-256 key.
    package init(pem: [UInt8]) throws(CryptoError) {
        var x = [UInt8](repeating: 0, count: 32), y = [UInt8](repeating: 0, count: 32)
        guard lhcrypto_p256_public_point(pem, Int32(pem.count), &x, &y) == 0 else {
            throw CryptoError(description: "not an unencrypted ECDSA P-256 private key in PEM")
        }
        self.pem = pem
        self.x = x
        self.y = y
    }

    /// The public key as a JWK (RFC 7517), members in the lexical order RFC 7638 hashes them in.
    package var jwk: JSONValue {
        .object(JSONObject([
            JSONMember("crv", .string("P-256")), JSONMember("kty", .string("EC")),
            JSONMember("x", .string(Base64URL.encode(x))), JSONMember("y", .string(Base64URL.encode(y))),
        ]))
    }

    /// The JWK thumbprint (RFC 7638), base64url: the second half of every key authorization.
    package var thumbprint: String {
        Base64URL.encode(Digest.sha256(JSONWriter.bytes(jwk, style: .compact)))
    }

    /// The ES256 signature of `data`: r and s, 32 bytes each.
    package func sign(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: 64)
        guard lhcrypto_sign_es256(pem, Int32(pem.count), data, Int32(data.count), &signature) == 0 else {
            throw CryptoError(description: "GnuTLS could not sign with the key")
        }
        return signature
    }

    /// A certificate request for `names` (the first is also the common name), DER.
    package func certificateRequest(for names: [String]) throws(CryptoError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let length = lhcrypto_make_csr(pem, Int32(pem.count), names.joined(separator: "\n"), &buffer, Int32(buffer.count))
        guard length > 0 else { throw CryptoError(description: "GnuTLS could not make a certificate request for \(names.joined(separator: ", "))") }
        return Array(buffer[0..<Int(length)])
    }

    /// True when this is the key of the first certificate in `chain` (PEM).
    package func matches(certificateChain chain: [UInt8]) -> Bool {
        lhcrypto_key_matches_certificate(pem, Int32(pem.count), chain, Int32(chain.count)) == 1
    }
}

/// Hashes and MACs over GnuTLS.
package enum Digest {
    /// SHA-256 of `data`.
    package static func sha256(_ data: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = lhcrypto_sha256(data, Int32(data.count), &digest)
        return digest
    }

    /// HMAC-SHA256 of `data` under `key`.
    package static func hmacSHA256(key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        _ = lhcrypto_hmac_sha256(key, Int32(key.count), data, Int32(data.count), &mac)
        return mac
    }
}
