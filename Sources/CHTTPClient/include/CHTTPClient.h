/// A minimal blocking TCP and TLS (GnuTLS) transport for `linkhost check`.
///
/// It moves bytes only: the Swift side writes the HTTP request and parses the response. Socket
/// addresses, file descriptors and GnuTLS sessions stay in C, so Swift needs no unsafe pointer code;
/// buffers cross as plain byte arrays.
#ifndef CHTTPCLIENT_H
#define CHTTPCLIENT_H

/// One open connection (a socket, and a TLS session over it when opened with TLS).
typedef struct lhc_connection lhc_connection;

/// Why `lhc_open` failed, so the caller can word "certificate not trusted" differently from "refused".
enum lhc_failure {
    LHC_FAILURE_NONE = 0,
    LHC_FAILURE_RESOLVE = 1,
    LHC_FAILURE_CONNECT = 2,
    LHC_FAILURE_TIMEOUT = 3,
    LHC_FAILURE_TLS = 4,
    LHC_FAILURE_CERTIFICATE = 5,
    LHC_FAILURE_TRUST_STORE = 6,
};

/// Results of `lhc_receive` besides a byte count.
enum lhc_receive_status {
    LHC_RECEIVE_END = 0,
    LHC_RECEIVE_ERROR = -1,
    LHC_RECEIVE_TIMEOUT = -2,
};

/// Connects to `connect_host` (a name or numeric address, without brackets) on `connect_port`, trying each
/// address the name resolves to. The connection's whole life ends `timeout_ms` after this call: connecting,
/// the handshake and every later receive wait only for what is left of it, however slowly bytes trickle in. With `use_tls`, runs a TLS handshake
/// for `host` (which is `connect_host` except under curl's --connect-to, when one origin or replica is
/// dialled for another's name): it sends SNI (for names) and verifies the certificate chain and the host
/// name: against `ca_file` (PEM) when it is non-NULL, else against the system trust store. Returns NULL on
/// failure, with `*failure` set and a NUL-terminated message in `error` (at most `error_capacity` bytes).
lhc_connection *lhc_open(const char *host, const char *connect_host, int connect_port, int use_tls, const char *ca_file,
                         int timeout_ms, int *failure, unsigned char *error, int error_capacity);

/// Sends all `count` bytes. Returns 0, or -1 on error or timeout (see `lhc_last_error`).
int lhc_send(lhc_connection *connection, const unsigned char *bytes, int count);

/// Receives up to `capacity` bytes into `buffer`. Returns the number received (> 0), LHC_RECEIVE_END
/// when the peer closed, LHC_RECEIVE_TIMEOUT, or LHC_RECEIVE_ERROR (see `lhc_last_error`).
int lhc_receive(lhc_connection *connection, unsigned char *buffer, int capacity);

/// Copies the last send or receive error as a NUL-terminated message; returns its length.
int lhc_last_error(const lhc_connection *connection, unsigned char *buffer, int capacity);

/// Writes the certificate chain the server presented in the handshake as PEM (leaf first, NUL-terminated)
/// into `buffer`, so `check` can report its issuer, expiry and names. Returns the length written, 0 for a
/// plain connection, or -1 when the chain does not fit in `capacity`.
int lhc_peer_certificates(const lhc_connection *connection, unsigned char *buffer, int capacity);

/// Ends the TLS session (without waiting for the peer), closes the socket and frees the connection.
void lhc_close(lhc_connection *connection);

#endif
