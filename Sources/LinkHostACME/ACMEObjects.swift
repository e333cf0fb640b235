import LinkHostCrypto
import LinkHostJSON

/// An order as the CA describes it (RFC 8555 §7.1.3), read defensively.
struct ACMEOrder {
    let status: String
    let authorizations: [String]
    let finalize: String
    let certificate: String?
    let error: String?

    /// Most authorizations an order may list: one per host, and a site has few.
    static let maximumAuthorizations = 100

    init(_ json: JSONObject?) throws(ACMEError) {
        guard let json, let status = json["status"]?.stringValue else { throw ACMEError(.malformed, "the CA's order has no status") }
        self.status = ACMEProblem.line(String(status.prefix(32)))
        let urls = (json["authorizations"]?.arrayValue ?? []).compactMap(\.stringValue)
        guard urls.count <= Self.maximumAuthorizations, urls.allSatisfy(ACMEURL.isUsable) else {
            throw ACMEError(.malformed, "the CA's order lists authorizations that are not https URLs, or too many")
        }
        authorizations = urls
        guard let finalize = json["finalize"]?.stringValue, ACMEURL.isUsable(finalize) else { throw ACMEError(.malformed, "the CA's order has no https finalize URL") }
        self.finalize = finalize
        certificate = json["certificate"]?.stringValue.flatMap { ACMEURL.isUsable($0) ? $0 : nil }
        error = ACMEProblem(json["error"])?.summary
    }
}

/// An authorization (RFC 8555 §7.1.4): whose, its status, and its HTTP-01 challenge.
struct ACMEAuthorization {
    let host: String
    let status: String
    let http01: (url: String, token: String)?
    let error: String?

    init(_ json: JSONObject?) throws(ACMEError) {
        guard let json, let status = json["status"]?.stringValue else { throw ACMEError(.malformed, "the CA's authorization has no status") }
        self.status = ACMEProblem.line(String(status.prefix(32)))
        host = ACMEProblem.line(String((json["identifier"]?.objectValue?["value"]?.stringValue ?? "?").prefix(253)))
        var found: (String, String)?
        var challengeError: String?
        for challenge in (json["challenges"]?.arrayValue ?? []).prefix(20) {
            guard let object = challenge.objectValue else { continue }
            if challengeError == nil { challengeError = ACMEProblem(object["error"])?.summary }
            guard object["type"]?.stringValue == "http-01", let url = object["url"]?.stringValue, let token = object["token"]?.stringValue else { continue }
            // The token becomes a path served to anyone; RFC 8555 §8.1 makes it base64url, so nothing else is served.
            guard ACMEURL.isUsable(url), Base64URL.isToken(token), token.utf8.count <= 256 else {
                throw ACMEError(.malformed, "the CA's http-01 challenge for \(host) has an unusable URL or token")
            }
            found = (url, token)
        }
        http01 = found
        error = challengeError
    }
}
