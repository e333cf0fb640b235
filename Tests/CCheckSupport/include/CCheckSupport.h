/// Test-only servers for `linkhost check`: canned HTTP responses over plain TCP or TLS, and a
/// self-signed certificate to serve them with. Sockets, threads and GnuTLS stay in C, so the Swift
/// tests need no unsafe pointer code.
#ifndef CCHECKSUPPORT_H
#define CCHECKSUPPORT_H

/// A running canned-response server.
typedef struct lhcheck_server lhcheck_server;

/// Starts a server on 127.0.0.1 (an ephemeral port, returned in `*port`) that answers each request
/// with a file of `directory`: the request `METHOD /a/b?q` reads the file `METHOD_a_b` (every "/" of
/// the path becomes "_", the query is ignored) and sends its bytes exactly as they are, so a test can
/// write any status line, headers and framing. A HEAD request without its own file gets the GET
/// file's bytes up to the end of the header. A request without a file gets a 404. Each request is logged
/// as a line `METHOD target<TAB>User-Agent` ("-" without one) to the file `.requests` of `directory`. One connection is
/// served at a time and closed after the response. With `cert_file` and `key_file` (PEM) the server
/// speaks TLS; with NULL it speaks plain HTTP. Returns NULL if the server cannot start.
lhcheck_server *lhcheck_server_start(const char *directory, const char *cert_file, const char *key_file, int *port);

/// How many requests the server has answered so far (to check, e.g., that a redirect was not followed).
int lhcheck_server_requests(lhcheck_server *server);

/// Stops the server, waits for its thread, and frees it.
void lhcheck_server_stop(lhcheck_server *server);

/// Writes a new self-signed certificate for the DNS name `name` and, when `loopback` is non-zero, the
/// address 127.0.0.1 (valid one day, usable as its own trust anchor) to `cert_file` and its private key
/// to `key_file`, both PEM. Returns 0 or -1.
int lhcheck_make_certificate(const char *cert_file, const char *key_file, const char *name, int loopback);

/// The same with the validity given: `not_before` and `not_after` in Unix seconds (a certificate that is
/// due for renewal or already expired, for the ACME tests). The key is written as PKCS#8.
int lhcheck_make_certificate_valid(const char *cert_file, const char *key_file, const char *name, int loopback,
                                   long long not_before, long long not_after);

#endif
