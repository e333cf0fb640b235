import Foundation

/// A hostile TLS host for `check`'s deadline tests: it completes the handshake, reads a request, then sends
/// its answer's TLS records one byte every 0.5 s, so no read ever waits long, yet the answer would take
/// minutes. The first `quick` connections are answered at once (a small AASA-shaped JSON body), so a test can
/// make a host that answers its first requests and trickles the later ones.
final class TricklingTLSServer: Sendable {
    /// Its self-signed certificate (for 127.0.0.1): pass `certificate.cert` as `check --cacert`.
    let certificate: CheckCertificate
    /// The Python server; killed with its group when this goes away.
    let process: ChildProcess
    /// `https://127.0.0.1:PORT`.
    let origin: String

    /// Starts the server and waits for the port it bound.
    init(quick: Int = 0) async throws {
        certificate = try CheckCertificate()
        let script = certificate.folder + "/trickler.py"
        try Self.script.write(toFile: script, atomically: true, encoding: .utf8)
        process = try ChildProcess(executable: "/usr/bin/env",
                                   arguments: ["python3", script, certificate.cert, certificate.key, String(quick)],
                                   environment: ChildProcess.inheritedEnvironment, directory: certificate.folder)
        try await process.waitForOutput(containing: "\n")
        let port = process.stdout.text.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        guard Int(port) != nil else { throw HarnessError("the trickling server printed no port: \(process.output)") }
        origin = "https://127.0.0.1:\(port)"
    }

    /// One connection at a time: a trickled answer ends when the client goes away (the next send fails).
    static let script = """
    import socket, ssl, sys, time
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    quick = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    print("port", listener.getsockname()[1], flush=True)
    def pump(connection, tls, incoming, outgoing, step):
        while True:
            try:
                return step()
            except ssl.SSLWantReadError:
                connection.sendall(outgoing.read())
                data = connection.recv(65536)
                if not data:
                    raise EOFError()
                incoming.write(data)
    served = 0
    while True:
        connection, _ = listener.accept()
        served += 1
        incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
        tls = context.wrap_bio(incoming, outgoing, server_side=True)
        try:
            pump(connection, tls, incoming, outgoing, tls.do_handshake)
            connection.sendall(outgoing.read())
            request = b""
            while b"\\r\\n\\r\\n" not in request:
                request += pump(connection, tls, incoming, outgoing, lambda: tls.read(65536))
            connection.sendall(outgoing.read())
            body = b'{"applinks": {"details": []}}'.ljust(300)
            tls.write(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nContent-Length: 300\\r\\n\\r\\n" + body)
            record = outgoing.read()
            if served <= quick:
                connection.sendall(record)
                continue
            for index in range(len(record)):
                connection.sendall(record[index:index + 1])
                time.sleep(0.5)
        except Exception:
            pass
        finally:
            connection.close()
    """
}
