import LinkHostCore
import LinkHostCrypto
import LinkHostHTTPClient
import LinkHostJSON

/// One answer from the CA that passed the checks every answer gets: not a redirect, not too large, the
/// expected media type, and JSON when JSON was expected.
package struct ACMEAnswer: Sendable {
    /// The status code.
    package let status: Int
    /// The `Location` header: the URL of a created account or order.
    package let location: String?
    /// The body parsed as JSON (JSON answers only).
    package let json: JSONObject?
    /// The raw body (certificate chains).
    package let body: [UInt8]
    /// Seconds the CA asked to wait before polling again.
    package let retryAfter: Int?
}

/// The HTTP side of ACME: requests to the CA through the project's one HTTP client, the nonce pool, JWS
/// signing with bounded `badNonce` retries, and the checks that keep every answer from the CA bounded.
package struct ACMEConnection {
    /// Largest answer read from the CA; a directory, an order or a chain is a few kilobytes.
    package static let maximumAnswerSize = 256 * 1024
    /// How often a request is re-signed with a new nonce after `badNonce` (RFC 8555 §6.5).
    package static let badNonceRetries = 8
    /// The `User-Agent` sent to the CA (RFC 8555 §6.1 asks clients to send one).
    package static let userAgent = "linkhost-acme/1"

    let fetch: Fetcher
    let now: @Sendable () -> Int
    let log: @Sendable (String) -> Void
    /// The next nonce to sign with, from the last answer's `Replay-Nonce`.
    var nonce: String?

    /// Makes a connection that sends through `fetch`; `now` gives Unix seconds (for HTTP-date `Retry-After`).
    package init(fetch: @escaping Fetcher, now: @escaping @Sendable () -> Int, log: @escaping @Sendable (String) -> Void) {
        self.fetch = fetch
        self.now = now
        self.log = log
    }

    /// GETs a JSON resource without signing (the directory, renewal information).
    package mutating func getJSON(_ url: String) throws(ACMEError) -> ACMEAnswer {
        try send("GET", url, body: [], accept: .json)
    }

    /// Gets a fresh nonce from `newNonce` when none is left over from the last answer.
    mutating func takeNonce(from newNonce: String) throws(ACMEError) -> String {
        if let nonce {
            self.nonce = nil
            return nonce
        }
        _ = try send("HEAD", newNonce, body: [], accept: .none)
        guard let nonce else { throw ACMEError(.malformed, "the CA's newNonce answer has no usable Replay-Nonce") }
        self.nonce = nil
        return nonce
    }

    /// Signs and POSTs `payload` (nil: POST-as-GET) to `url`, re-signing with the CA's new nonce on `badNonce`.
    package mutating func post(_ url: String, payload: JSONValue?, key: P256Key, signer: JWS.Signer, newNonce: String,
                              accept: ACMEMediaType = .json) throws(ACMEError) -> ACMEAnswer {
        var attempt = 0
        while true {
            attempt += 1
            let nonce = try takeNonce(from: newNonce)
            let body: [UInt8]
            do {
                body = try JWS.es256(payload, url: url, nonce: nonce, key: key, signer: signer)
            } catch {
                throw ACMEError(.crypto, "cannot sign the request to \(url): \(error)")
            }
            do {
                return try send("POST", url, body: body, accept: accept)
            } catch let error where error.kind == .badNonce && attempt <= Self.badNonceRetries {
                log("the CA refused a nonce (badNonce) at \(url); retrying with its new one (\(attempt) of \(Self.badNonceRetries))")
            }
        }
    }

    /// Sends one request and checks the answer; every way it can be wrong is an `ACMEError`.
    mutating func send(_ method: String, _ url: String, body: [UInt8], accept: ACMEMediaType) throws(ACMEError) -> ACMEAnswer {
        guard ACMEURL.isUsable(url), let (origin, target) = ACMEURL.split(url) else {
            throw ACMEError(.malformed, "the CA named \"\(ACMEProblem.line(String(url.prefix(100))))\", which is not an https URL")
        }
        var headers: [HTTPHeader] = []
        if method == "POST" { headers.append(HTTPHeader("Content-Type", "application/jose+json")) }
        if let type = accept.name { headers.append(HTTPHeader("Accept", type)) }
        let request = FetchRequest(method: method, origin: origin, path: target, userAgent: Self.userAgent, headers: headers, body: body)
        let response: FetchedResponse
        switch fetch(request) {
        case .success(let got): response = got
        case .failure(let failure):
            throw ACMEError(failure.kind == .tooLarge ? .tooLarge : .transport, "\(method) \(url): \(failure.message)")
        }
        if let fresh = response.header("Replay-Nonce"), Base64URL.isToken(fresh), fresh.utf8.count <= 256 { nonce = fresh }
        let retryAfter = TimeText.retryAfter(response.header("Retry-After"), now: now())
        if (300...399).contains(response.status) {
            let target = response.header("Location").map { " to \(ACMEProblem.line(String($0.prefix(100))))" } ?? ""
            throw ACMEError(.redirect, "\(method) \(url) answered \(response.status)\(target); ACME requests follow no redirects")
        }
        if response.body.count > Self.maximumAnswerSize {
            throw ACMEError(.tooLarge, "\(method) \(url) answered \(response.body.count) bytes, more than the \(Self.maximumAnswerSize) an ACME answer may have")
        }
        let type = response.mediaType ?? ""
        if response.status >= 400 {
            let problem = type.hasSuffix("json") ? ACMEProblem(try? JSONParser.parse(response.body)) : nil
            let what = problem?.summary ?? "HTTP \(response.status)\(type.isEmpty ? "" : " (\(type))")"
            let kind: ACMEError.Kind = switch problem?.shortType {
            case "badNonce": .badNonce
            case "rateLimited": .rateLimited
            default: .problem
            }
            throw ACMEError(kind, "\(method) \(url): \(what)", retryAfter: retryAfter)
        }
        guard (200...299).contains(response.status) else {
            throw ACMEError(.malformed, "\(method) \(url) answered \(response.status)")
        }
        var json: JSONObject?
        switch accept {
        case .none: break
        case .json:
            guard type == "application/json" || type == "application/problem+json" else {
                throw ACMEError(.contentType, "\(method) \(url) answered \(type.isEmpty ? "without a Content-Type" : "as \"\(ACMEProblem.line(type))\""), not application/json")
            }
            guard let parsed = try? JSONParser.parse(response.body), let object = parsed.objectValue else {
                throw ACMEError(.malformed, "\(method) \(url) answered with a body that is not a JSON object")
            }
            json = object
        case .certificateChain:
            guard type == "application/pem-certificate-chain" else {
                throw ACMEError(.contentType, "\(method) \(url) answered \(type.isEmpty ? "without a Content-Type" : "as \"\(ACMEProblem.line(type))\""), not application/pem-certificate-chain")
            }
        }
        return ACMEAnswer(status: response.status, location: response.header("Location"), json: json, body: response.body, retryAfter: retryAfter)
    }
}

/// What an ACME answer must be.
package enum ACMEMediaType: Sendable {
    /// Nothing (HEAD newNonce).
    case none
    /// A JSON object.
    case json
    /// A PEM certificate chain (RFC 8555 §7.4.2).
    case certificateChain

    var name: String? {
        switch self {
        case .none: return nil
        case .json: return "application/json"
        case .certificateChain: return "application/pem-certificate-chain"
        }
    }
}
