import LinkHostCrypto
import LinkHostJSON

/// JSON Web Signatures in the flattened JSON form ACME requests are (RFC 8555 §6.2, RFC 7515 §7.2.2).
package enum JWS {
    /// How the request names its signer: the public key (new accounts) or the account URL (everything else).
    package enum Signer: Sendable {
        /// `jwk`: the key itself.
        case key
        /// `kid`: the account URL.
        case account(String)
    }

    /// `{"protected", "payload", "signature"}` signed with ES256; a nil payload is POST-as-GET's empty one.
    package static func es256(_ payload: JSONValue?, url: String, nonce: String, key: P256Key, signer: Signer) throws(CryptoError) -> [UInt8] {
        var header = JSONObject([JSONMember("alg", .string("ES256"))])
        switch signer {
        case .key: header.append("jwk", key.jwk)
        case .account(let url): header.append("kid", .string(url))
        }
        header.append("nonce", .string(nonce))
        header.append("url", .string(url))
        let protected = Base64URL.encode(JSONWriter.bytes(.object(header), style: .compact))
        let body = payload.map { Base64URL.encode(JSONWriter.bytes($0, style: .compact)) } ?? ""
        let signature = try key.sign(Array("\(protected).\(body)".utf8))
        return flattened(protected: protected, payload: body, signature: signature)
    }

    /// The external account binding (RFC 8555 §7.3.4): the account key as payload, MACed with HS256 under
    /// the key the CA issued.
    package static func externalAccountBinding(keyID: String, macKey: [UInt8], accountKey: P256Key, url: String) -> JSONValue {
        let header = JSONObject([JSONMember("alg", .string("HS256")), JSONMember("kid", .string(keyID)), JSONMember("url", .string(url))])
        let protected = Base64URL.encode(JSONWriter.bytes(.object(header), style: .compact))
        let payload = Base64URL.encode(JSONWriter.bytes(accountKey.jwk, style: .compact))
        let mac = Digest.hmacSHA256(key: macKey, Array("\(protected).\(payload)".utf8))
        return .object(JSONObject([
            JSONMember("protected", .string(protected)), JSONMember("payload", .string(payload)),
            JSONMember("signature", .string(Base64URL.encode(mac))),
        ]))
    }

    private static func flattened(protected: String, payload: String, signature: [UInt8]) -> [UInt8] {
        JSONWriter.bytes(.object(JSONObject([
            JSONMember("protected", .string(protected)), JSONMember("payload", .string(payload)),
            JSONMember("signature", .string(Base64URL.encode(signature))),
        ])), style: .compact)
    }
}
