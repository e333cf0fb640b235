import LinkHostCore
import LinkHostHTTPClient
import LinkHostJSON

/// A CA's directory (RFC 8555 §7.1.1): where each resource is, and what the CA requires.
package struct ACMEDirectory: Sendable, Equatable {
    /// `newNonce`.
    package let newNonce: String
    /// `newAccount`.
    package let newAccount: String
    /// `newOrder`.
    package let newOrder: String
    /// `renewalInfo` (RFC 9773), when the CA offers ACME Renewal Information.
    package let renewalInfo: String?
    /// `meta.externalAccountRequired`.
    package let externalAccountRequired: Bool

    /// Reads a directory object; throws naming what is missing.
    package init(_ value: JSONValue) throws(ACMEError) {
        guard let object = value.objectValue else { throw ACMEError(.malformed, "the directory is not a JSON object") }
        func url(_ key: String) throws(ACMEError) -> String {
            guard let text = object[key]?.stringValue, ACMEURL.isUsable(text) else {
                throw ACMEError(.malformed, "the directory has no https URL for \"\(key)\"")
            }
            return text
        }
        newNonce = try url("newNonce")
        newAccount = try url("newAccount")
        newOrder = try url("newOrder")
        renewalInfo = object["renewalInfo"]?.stringValue.flatMap { ACMEURL.isUsable($0) ? $0 : nil }
        externalAccountRequired = object["meta"]?.objectValue?["externalAccountRequired"]?.boolValue ?? false
    }
}

/// URLs the CA hands out, checked before anything is sent to them.
enum ACMEURL {
    /// An absolute https URL of reasonable length: a CA's answer cannot send linkhost to plain HTTP.
    static func isUsable(_ text: String) -> Bool {
        text.utf8.count <= 2048 && FetchOrigin(url: text)?.scheme == "https" && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// The origin and request target of a URL already found usable.
    static func split(_ text: String) -> (FetchOrigin, String)? {
        guard let origin = FetchOrigin(url: text), let split = try? SplitURL(text) else { return nil }
        let target = (split.path.isEmpty ? "/" : split.path) + (split.query.map { "?" + $0 } ?? "")
        return (origin, target)
    }
}
