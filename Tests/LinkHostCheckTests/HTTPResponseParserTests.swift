import Testing
@testable import LinkHostHTTPClient
import LinkHostCore

@Suite("HTTP response parser")
struct HTTPResponseParserTests {
    private func parse(_ text: String, head: Bool = false, atEnd: Bool = false) -> HTTPResponseParser.Outcome {
        HTTPResponseParser.parse(Array(text.utf8), isHead: head, atEnd: atEnd)
    }

    private func body(_ outcome: HTTPResponseParser.Outcome) -> String? {
        guard case .complete(let response) = outcome else { return nil }
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test("Content-Length frames the body, and every shorter prefix is incomplete")
    func contentLength() {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}trailing"
        #expect(body(parse(text)) == "{\"a\":1}")
        let bytes = Array(text.utf8)
        let end = bytes.count - "trailing".utf8.count
        for cut in 0..<end {
            #expect(HTTPResponseParser.parse(Array(bytes[..<cut]), isHead: false, atEnd: false) == .incomplete, "cut at \(cut)")
        }
        guard case .invalid(let message) = parse(String(text.prefix(60)), atEnd: true) else {
            Issue.record("a body cut short by the peer must be refused")
            return
        }
        #expect(message.contains("closed"))
    }

    @Test("chunked bodies are decoded, extensions and trailers skipped")
    func chunked() {
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\nX-Trailer: 1\r\n\r\n"
        #expect(body(parse(text)) == "{\"a\":1}")
        #expect(parse(String(text.dropLast(2))) == .incomplete)
        #expect(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n") == .invalid("the chunk size \"zz\" is not a hexadecimal number"))
    }

    @Test("without framing the body runs to the end of the connection")
    func closeDelimited() {
        let text = "HTTP/1.0 200 ok\r\nContent-Type: text/plain\r\n\r\nhello"
        #expect(parse(text) == .incomplete)
        #expect(body(parse(text, atEnd: true)) == "hello")
    }

    @Test("HEAD, 204 and 304 have no body whatever the headers say")
    func bodiless() {
        #expect(body(parse("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n", head: true)) == "")
        #expect(body(parse("HTTP/1.1 304 Not Modified\r\nContent-Length: 50\r\n\r\n")) == "")
        #expect(body(parse("HTTP/1.1 204 No Content\r\n\r\n")) == "")
    }

    @Test("interim 1xx responses are skipped")
    func interim() {
        guard case .complete(let response) = parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 301 Moved\r\nLocation: /x\r\nContent-Length: 0\r\n\r\n") else {
            Issue.record("expected a complete response")
            return
        }
        #expect(response.status == 301)
        #expect(response.header("location") == "/x")
    }

    @Test("what is not HTTP/1.x is refused")
    func invalid() {
        #expect(parse("SSH-2.0-OpenSSH\r\n\r\n") == .invalid("the response does not start with an HTTP/1.x status line"))
        #expect(parse("HTTP/1.1 abc\r\n\r\n") != .incomplete)
        #expect(parse("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx").isInvalid)
        #expect(parse("", atEnd: true) == .invalid("the server closed the connection without a response"))
    }

    @Test("the media type drops parameters and case")
    func mediaType() {
        #expect(FetchedResponse(status: 200, headers: [HTTPHeader("content-type", "Application/JSON; charset=utf-8")]).mediaType == "application/json")
        #expect(FetchedResponse(status: 200).mediaType == nil)
    }

    @Test("the request names the host, the port only when not the default, and asks to close")
    func requestBytes() {
        let request = FetchRequest(method: "GET", origin: FetchOrigin(scheme: "https", host: "example.com", port: 443), path: "/x", userAgent: "AASA-Bot/1.0.0")
        #expect(String(decoding: request.bytes, as: UTF8.self) == "GET /x HTTP/1.1\r\nHost: example.com\r\nUser-Agent: AASA-Bot/1.0.0\r\nAccept: */*\r\nConnection: close\r\n\r\n")
        #expect(FetchOrigin(url: "http://[::1]:8080/p")?.authority == "[::1]:8080")
        #expect(FetchOrigin(url: "http://[::1]:8080/p")?.bareHost == "::1")
        #expect(FetchOrigin(url: "ftp://example.com") == nil)
    }
}

extension HTTPResponseParser.Outcome {
    var isInvalid: Bool {
        if case .invalid = self { return true }
        return false
    }
}
