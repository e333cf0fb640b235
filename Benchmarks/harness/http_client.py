"""HTTP/1.1 over raw sockets to 127.0.0.1: exact requests and exact bytes back, with no library in between."""

import socket

from harness import BenchError
from harness.routes import HOST_HEADER


def request_bytes(path, close=False, host=HOST_HEADER):
    connection = "Connection: close\r\n" if close else ""
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{connection}\r\n".encode()


class KeepAliveClient:
    """One keep-alive connection; `get` sends a request and reads exactly one response."""

    def __init__(self, port, timeout=10.0, host=HOST_HEADER):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buffer = b""
        self.host = host

    def get(self, path):
        self.sock.sendall(request_bytes(path, host=self.host))
        return self.read_response()

    def read_response(self):
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise BenchError("connection closed before a response header")
            self.buffer += chunk
        head, _, rest = self.buffer.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split()[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while len(rest) < length:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise BenchError("connection closed inside a response body")
            rest += chunk
        self.buffer = rest[length:]
        return status, head + b"\r\n\r\n", rest[:length]

    def close(self):
        self.sock.close()


def fetch(port, path, host=HOST_HEADER):
    """One request on a connection of its own: (status, header bytes, body bytes)."""
    client = KeepAliveClient(port, host=host)
    try:
        return client.get(path)
    finally:
        client.close()
