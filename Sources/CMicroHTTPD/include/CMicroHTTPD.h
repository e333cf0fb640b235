/// CMicroHTTPD: the small C surface linkhost needs from libmicrohttpd.
///
/// Three kinds of helper, each a plain, prefixed, non-variadic C function, so nothing else in linkhost
/// includes <microhttpd.h> directly:
/// - wrappers that turn what does not import into Swift (the variadic start call, union-typed answers)
///   into plain calls (shim.c);
/// - what libmicrohttpd does not do and linkhost needs below Swift: request deadlines kept by a thread of
///   their own (deadlines.c), the RFC 9112 framing and body checks, per-connection state (the client's
///   address, a reused response's tag) and TLS session tickets (shim.c);
/// - listening sockets opened here, for exact bind errors and systemd's sockets (shim.c).
#ifndef CMICROHTTPD_H
#define CMICROHTTPD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Opens, binds and listens on a TCP socket for `host` (numeric address or name) and `port`.
/// Owning the socket (rather than letting MHD bind) gives precise bind errors, dual stack on "::",
/// an ephemeral port that can be read back, and a path for systemd socket activation.
/// Returns the descriptor, or -1 with `*error_number` set to errno (or EAI_* negated for lookups).
int cmhd_listen(const char *host, uint16_t port, int backlog, int *error_number);

/// Writes the bound address of a listening socket as "ADDR" into `buffer` and returns its port, or -1.
int cmhd_socket_address(int fd, char *buffer, size_t length);

/// The loaded library's version as 0xMMmmpp00 (1.0.1 is 0x01000100), parsed from MHD_get_version(): the
/// binary is built against whichever headers the build machine has (0.9.75 on Debian 12) and may run on
/// another library (1.0.1 in the Debian 13 image), so what the library can do is asked at run time.
unsigned int cmhd_library_version(void);

/// The client discipline level (MHD_OPTION_CLIENT_DISCIPLINE_LVL) every daemon is started with, or
/// CMHD_NO_DISCIPLINE_LEVEL when the loaded library has no such option (0.9.x).
int cmhd_client_discipline_level(void);

/// What `cmhd_client_discipline_level` answers when the library parses requests its one fixed way.
#define CMHD_NO_DISCIPLINE_LEVEL (-100)

/// Request deadlines of one daemon's connections (closing slowloris): a request (head and body) must be whole within
/// `timeout_ms` of the connection opening or the previous response ending. libmicrohttpd (0.9.75 and
/// 1.0.1 alike) has only an idle timeout, which every trickled byte resets, so linkhost keeps the
/// deadlines itself: connections are noted as they start (MHD_OPTION_NOTIFY_CONNECTION, which every
/// daemon gets, with or without a tracker, to format the client's address once), a thread
/// of this tracker looks for overdue ones every quarter of the timeout (at most 250 ms), and
/// answers them 408 (plain HTTP) and shuts their socket down, which makes libmicrohttpd close them.
struct cmhd_deadlines;

/// Makes a tracker and starts its thread; NULL when out of memory or threads. `tls` leaves out the
/// 408 (plain text on a TLS connection would be garbage).
struct cmhd_deadlines *cmhd_deadlines_create(unsigned int timeout_ms, int tls);

/// Stops the tracker's thread and frees it; call after MHD_stop_daemon, which closes (and so
/// forgets) every connection.
void cmhd_deadlines_destroy(struct cmhd_deadlines *deadlines);

/// The access handler's call when the request is whole (its head, and its body if it has one), so the
/// connection has no deadline until its response ends: one deadline covers head and body, however slowly
/// either trickles in. Returns 1 when the tracker is already closing it (the handler should refuse it).
int cmhd_deadline_request_arrived(struct MHD_Connection *connection);

/// 1 when the tracker is closing the connection (its deadline passed), without touching the deadline: for
/// the handler's first call on a request whose body is still to come.
int cmhd_deadline_passed(struct MHD_Connection *connection);

/// The request-completed callback: the next request head is due `timeout_ms` from now.
void cmhd_deadline_restart(struct MHD_Connection *connection);

/// Starts a daemon on an already listening socket, with the options in `options` (ended by MHD_OPTION_END)
/// and, when the library has it, the client discipline level; `deadlines` (or NULL) tracks header deadlines.
/// MHD_start_daemon is variadic; this is its one fixed-arity form.
struct MHD_Daemon *cmhd_start_daemon(unsigned int flags,
                                     int listen_fd,
                                     MHD_AccessHandlerCallback handler,
                                     void *handler_context,
                                     MHD_RequestCompletedCallback completed,
                                     void *completed_context,
                                     struct cmhd_deadlines *deadlines,
                                     const struct MHD_OptionItem *options);

/// Returns 1 when GnuTLS accepts this PEM certificate chain and key as a pair, else 0.
/// Starting the real daemon with a bad pair would fail after taking over the listening socket;
/// a socket-less trial daemon finds out first, so a bad certificate never costs the running one.
int cmhd_tls_pair_is_usable(const char *key_pem, const char *certificate_pem);

/// 1 when the request's framing or Host is missing, duplicated or malformed (RFC 9112 §3.2, §5.1, §6.1, §6.3):
/// no Host on HTTP/1.1, two Hosts, two Content-Lengths or Transfer-Encodings, both of those, a coding other
/// than chunked, a field name with whitespace, a value with CR or LF, a field folded over two lines (obs-fold,
/// §5.2). libmicrohttpd 0.9.75 accepts all of these, and a proxy that reads them differently could smuggle a
/// request past it.
int cmhd_request_is_ambiguous(struct MHD_Connection *connection, const char *version);

/// Every field line named `name` (any case), joined with ", " in the order received (RFC 9110 5.3), into
/// `out` (NUL-terminated). Returns the length; 0 when there is none; -1 when they do not fit in `capacity`.
/// libmicrohttpd's own lookup returns only the first line, and a client can put its own line before a proxy's.
long cmhd_request_header_joined(struct MHD_Connection *connection, const char *name, char *out, size_t capacity);

/// The largest request body linkhost reads (and drops: no route takes one yet but a small beacon may);
/// larger ones are refused before a byte of them is read.
#define CMHD_MAXIMUM_BODY 1024

/// What a request's framing says of its body: none, one of at most CMHD_MAXIMUM_BODY bytes announced by
/// Content-Length, or one to refuse (a larger Content-Length, or a Transfer-Encoding, whose size is
/// unknown until it has been read).
enum cmhd_body { CMHD_BODY_NONE = 0, CMHD_BODY_SMALL = 1, CMHD_BODY_REFUSED = 2 };

/// Reads the request's Content-Length and Transfer-Encoding (after `cmhd_request_is_ambiguous` said they are
/// not contradictory).
enum cmhd_body cmhd_request_body(struct MHD_Connection *connection);

/// Builds an option entry that carries a number (MHD_OptionItem mixes intptr_t and pointers).
static inline struct MHD_OptionItem cmhd_option_value(enum MHD_OPTION option, intptr_t value) {
    struct MHD_OptionItem item = { option, value, NULL };
    return item;
}

/// Builds an option entry that carries a pointer, such as PEM text for TLS.
static inline struct MHD_OptionItem cmhd_option_pointer(enum MHD_OPTION option, void *pointer) {
    struct MHD_OptionItem item = { option, 0, pointer };
    return item;
}

/// The terminating entry of an option array.
static inline struct MHD_OptionItem cmhd_option_end(void) {
    struct MHD_OptionItem item = { MHD_OPTION_END, 0, NULL };
    return item;
}

/// Returns the value of request header `name`, or NULL. Wraps MHD's kind-enum lookup.
static inline const char *cmhd_request_header(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

/// Returns the raw value of the request's first query item named exactly `name` (NULL when there is none, or
/// when that item has no `=`). MHD's own lookup compares names without case, so `?Type=video` would answer
/// for `type`: `CallLinkParser` (and the printed Kotlin parser) read names as written, and so must the server.
const char *cmhd_query_value(struct MHD_Connection *connection, const char *name);

/// Room for a client address as text: the longest IPv6 form and its NUL.
#define CMHD_ADDRESS_CAPACITY 46

/// The client's address as the access log writes it (IPv4-mapped IPv6 as a.b.c.d; "-" when unknown), and its
/// length in `*length`. Formatted once when the connection started and kept with it, not per request; the
/// text lives as long as the connection. MHD answers with a union of info kinds, which Swift cannot read safely.
const char *cmhd_client_address(struct MHD_Connection *connection, size_t *length);

/// Returns the number of connections the daemon holds now, or -1.
/// Another union-typed answer of MHD_get_daemon_info.
int cmhd_current_connections(struct MHD_Daemon *daemon);

/// Makes a response that owns a malloc'd copy of `length` bytes (MHD_RESPMEM_MUST_COPY).
static inline struct MHD_Response *cmhd_response_copy(const void *bytes, size_t length) {
    return MHD_create_response_from_buffer(length, (void *)bytes, MHD_RESPMEM_MUST_COPY);
}

/// Makes a response whose body is `length` bytes at `bytes`, not copied: `release(owner)` is called when
/// libmicrohttpd lets go of the response last (and here, when no response can be made), so whatever keeps
/// the bytes alive is released then. A prepared document is then stored once, not once in Swift and once here.
struct MHD_Response *cmhd_response_borrowed(const void *bytes, size_t length, void (*release)(void *owner), void *owner);

/// Makes a body-less response that still announces `size` bytes, for 304s: RFC 9110 §8.6 lets a 304
/// carry only the Content-Length of the 200 it stands for, and MHD writes the length of the body it holds.
struct MHD_Response *cmhd_response_headers_only(uint64_t size);

/// Makes a response that takes ownership of a malloc'd buffer and frees it when done (the buffer is freed
/// here, too, when no response can be made): a rendered page goes to libmicrohttpd without a copy.
struct MHD_Response *cmhd_response_take(void *bytes, size_t length);

/// Makes a response whose body is `bytes` itself (no copy), freed with free() when libmicrohttpd destroys the
/// response (or here, when no response can be made). Unlike `cmhd_response_take`, the caller may write new
/// bytes of the same length into the buffer between uses of the response — and does so only while no
/// connection holds it (`cmhd_request_tag_set` tells when that ends): a rendered page's reusable response.
struct MHD_Response *cmhd_response_alias(void *bytes, size_t length);

/// Attaches `tag` to the request being answered on `connection`, until `cmhd_request_tag_take` in its
/// request-completed callback returns it (or, should the connection end without that, `release(tag)` is
/// called as it closes); 0 when the connection has no state (out of memory) or a tag already.
/// libmicrohttpd's own per-request slot holds the start time; this is the per-connection one.
int cmhd_request_tag_set(struct MHD_Connection *connection, void *tag, void (*release)(void *));

/// The tag `cmhd_request_tag_set` attached, now detached, or NULL.
void *cmhd_request_tag_take(struct MHD_Connection *connection);

/// Adds `count` header fields laid out as `name NUL value NUL` one after the other in `fields` (a block
/// made once per snapshot), in order; returns how many libmicrohttpd took. One call instead of a Swift
/// closure and two C-string conversions per field.
size_t cmhd_add_headers(struct MHD_Response *response, const char *fields, size_t count);

#endif
