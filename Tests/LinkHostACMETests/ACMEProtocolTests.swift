import LinkHostCore
import LinkHostCrypto
import LinkHostHTTPClient
import LinkHostJSON
import Synchronization
import Testing
@testable import LinkHostACME

/// The ACME client's pieces that need no CA: encodings, times, schedules, keys, and how it treats each
/// kind of bad answer (scripted here; the integration tests send them over sockets from a fake CA).
@Suite("ACME protocol")
struct ACMEProtocolTests {
    @Test("base64url round-trips without padding and refuses other alphabets")
    func base64URL() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode("Man") == "TWFu")
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.decode("ab+c") == nil && Base64URL.decode("a") == nil)
        #expect(Base64URL.isToken("abc-_09") && !Base64URL.isToken("../x") && !Base64URL.isToken(""))
    }

    @Test("Retry-After in seconds and as an HTTP date; RFC 3339 with offsets and fractions")
    func times() {
        #expect(TimeText.retryAfter("120", now: 0) == 120)
        #expect(TimeText.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_700) == 77)
        #expect(TimeText.retryAfter("soon", now: 0) == nil && TimeText.retryAfter(nil, now: 0) == nil)
        #expect(TimeText.rfc3339("1994-11-06T08:49:37Z") == 784_111_777)
        #expect(TimeText.rfc3339("1994-11-06T09:49:37.123+01:00") == 784_111_777)
        #expect(TimeText.rfc3339("1994-11-06 08:49:37") == nil)
        #expect(TimeText.format(784_111_777) == "1994-11-06T08:49:37Z")
    }

    @Test("renewal at a third of the lifetime left, earlier inside the CA's window; backoff from a minute to a day")
    func schedule() {
        #expect(RenewalSchedule.renewalTime(notBefore: 0, notAfter: 90 * 86_400) == 60 * 86_400)
        let window = RenewalWindow(start: 10 * 86_400, end: 12 * 86_400, checkAgain: 0)
        #expect(RenewalSchedule.renewalTime(notBefore: 0, notAfter: 90 * 86_400, window: window, fraction: 0.5) == 11 * 86_400)
        let late = RenewalWindow(start: 80 * 86_400, end: 85 * 86_400, checkAgain: 0)
        #expect(RenewalSchedule.renewalTime(notBefore: 0, notAfter: 90 * 86_400, window: late, fraction: 0.5) == 60 * 86_400)
        #expect((1...6).map { RenewalSchedule.backoff(failures: $0) } == [60, 120, 240, 480, 960, 1920])
        #expect(RenewalSchedule.backoff(failures: 40) == 86_400)
        #expect(RenewalSchedule.retryDelay(failures: 1, retryAfter: 7200) == 7200)
        #expect(RenewalSchedule.retryDelay(failures: 1, retryAfter: 365 * 86_400) == 7 * 86_400)
    }

    @Test("a P-256 key: its JWK, a thumbprint of the RFC 7638 form, 64-byte ES256 signatures, a CSR")
    func keys() throws {
        let key = try P256Key.generate()
        #expect(key.x.count == 32 && key.y.count == 32)
        #expect(try P256Key(pem: key.pem) == key)
        let compact = JSONWriter.string(key.jwk, style: .compact)
        #expect(compact.hasPrefix(#"{"crv":"P-256","kty":"EC","x":""#))
        #expect(Base64URL.decode(key.thumbprint)?.count == 32)
        let signature = try key.sign(Array("hello".utf8))
        let again = try key.sign(Array("hello".utf8))
        #expect(signature.count == 64 && signature != again)
        let request = try key.certificateRequest(for: ["a.example.com", "b.example.com"])
        #expect(request.first == 0x30 && request.count > 100)
        #expect(throws: CryptoError.self) { try P256Key(pem: Array("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8)) }
    }

    /// A CA scripted answer by answer; records every request.
    final class ScriptedCA: Sendable {
        let answers: Mutex<[Result<FetchedResponse, FetchError>]>
        let sent = Mutex<[FetchRequest]>([])

        init(_ answers: [Result<FetchedResponse, FetchError>]) { self.answers = Mutex(answers) }

        var fetch: Fetcher {
            { request in
                self.sent.withLock { $0.append(request) }
                return self.answers.withLock { $0.isEmpty ? .failure(FetchError(kind: .connect, message: "no more answers")) : $0.removeFirst() }
            }
        }

        static func json(_ status: Int, _ body: String, type: String = "application/json", headers: [HTTPHeader] = [], nonce: String = "n1") -> Result<FetchedResponse, FetchError> {
            .success(FetchedResponse(status: status, headers: [HTTPHeader("Content-Type", type), HTTPHeader("Replay-Nonce", nonce)] + headers, body: Array(body.utf8)))
        }
    }

    static func connection(_ ca: ScriptedCA, log: @escaping @Sendable (String) -> Void = { _ in }) -> ACMEConnection {
        ACMEConnection(fetch: ca.fetch, now: { 1000 }, log: log)
    }

    @Test("badNonce is retried with the CA's new nonce, and gives up after its bound")
    func badNonce() throws {
        let problem = #"{"type": "urn:ietf:params:acme:error:badNonce", "detail": "stale"}"#
        let ca = ScriptedCA([.success(FetchedResponse(status: 200, headers: [HTTPHeader("Replay-Nonce", "first")])),
                             ScriptedCA.json(400, problem, type: "application/problem+json", nonce: "second"),
                             ScriptedCA.json(201, #"{"status": "valid"}"#)])
        var connection = Self.connection(ca)
        let answer = try connection.post("https://ca.test/acct", payload: .object(JSONObject()), key: try P256Key.generate(), signer: .key, newNonce: "https://ca.test/nonce")
        #expect(answer.status == 201)
        let nonces = ca.sent.withLock { $0 }.filter { $0.method == "POST" }.map { request -> String in
            let body = try? JSONParser.parse(request.body)
            let protected = body?.objectValue?["protected"]?.stringValue.flatMap(Base64URL.decode) ?? []
            return (try? JSONParser.parse(protected))?.objectValue?["nonce"]?.stringValue ?? ""
        }
        #expect(nonces == ["first", "second"])

        let endless = ScriptedCA([.success(FetchedResponse(status: 200, headers: [HTTPHeader("Replay-Nonce", "n0")]))]
                                 + (0...ACMEConnection.badNonceRetries).map { ScriptedCA.json(400, problem, type: "application/problem+json", nonce: "n\($0 + 1)") })
        var stubborn = Self.connection(endless)
        #expect(throws: ACMEError.self) {
            try stubborn.post("https://ca.test/acct", payload: nil, key: try P256Key.generate(), signer: .key, newNonce: "https://ca.test/nonce")
        }
        #expect(endless.sent.withLock { $0.count } == ACMEConnection.badNonceRetries + 2)
    }

    @Test("rate limits keep the CA's Retry-After; redirects, wrong types, bad JSON, oversized bodies and plain-HTTP URLs are refused")
    func badAnswers() throws {
        func failure(_ answer: Result<FetchedResponse, FetchError>, url: String = "https://ca.test/dir") -> ACMEError? {
            var connection = Self.connection(ScriptedCA([answer]))
            do { _ = try connection.getJSON(url) } catch { return error }
            return nil
        }
        let limited = failure(ScriptedCA.json(429, #"{"type": "urn:ietf:params:acme:error:rateLimited", "detail": "slow down"}"#, type: "application/problem+json", headers: [HTTPHeader("Retry-After", "3600")]))
        #expect(limited?.kind == .rateLimited && limited?.retryAfter == 3600 && limited?.message.contains("slow down") == true)
        #expect(failure(.success(FetchedResponse(status: 301, headers: [HTTPHeader("Location", "https://elsewhere.test/")])))?.kind == .redirect)
        #expect(failure(ScriptedCA.json(200, "<html>", type: "text/html"))?.kind == .contentType)
        #expect(failure(ScriptedCA.json(200, #"{"newNonce": "#))?.kind == .malformed)
        #expect(failure(ScriptedCA.json(200, "[1, 2]"))?.kind == .malformed)
        #expect(failure(.failure(FetchError(kind: .tooLarge, message: "the response is larger than 1 bytes")))?.kind == .tooLarge)
        #expect(failure(ScriptedCA.json(200, #"{"a": "\#(String(repeating: "x", count: ACMEConnection.maximumAnswerSize))"}"#))?.kind == .tooLarge)
        #expect(failure(ScriptedCA.json(200, "{}"), url: "http://ca.test/dir")?.kind == .malformed)
        #expect(failure(ScriptedCA.json(500, "oops", type: "text/plain", headers: [HTTPHeader("Retry-After", "30")]))?.retryAfter == 30)
        // A directory that names plain-HTTP resources is refused before anything is sent there.
        #expect(throws: ACMEError.self) { try ACMEDirectory(try JSONParser.parse(#"{"newNonce": "http://ca.test/n", "newAccount": "https://ca.test/a", "newOrder": "https://ca.test/o"}"#)) }
    }

    @Test("an ACME problem is cut to one clean log line")
    func problemLine() {
        let problem = ACMEProblem(.object(JSONObject([JSONMember("type", .string("urn:ietf:params:acme:error:unauthorized")),
                                                      JSONMember("detail", .string("bad\r\nline" + String(repeating: "y", count: 400)))])))
        #expect(problem?.shortType == "unauthorized")
        #expect(problem?.detail.contains("\n") == false && (problem?.detail.count ?? 0) <= 300)
    }
}
