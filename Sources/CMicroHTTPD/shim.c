// The C half of linkhost's libmicrohttpd adapter: sockets, the variadic start call, unions, the connection
// notices (address, TLS tickets) and the RFC 9112 checks; the request deadlines are in deadlines.c.
#include "CMicroHTTPD.h"
#include "connection_state.h"

#include <arpa/inet.h>
#include <errno.h>
#include <gnutls/gnutls.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

static int cmhd_try_bind(const struct addrinfo *info, int backlog, int *error_number) {
    int fd = socket(info->ai_family, info->ai_socktype | SOCK_CLOEXEC, info->ai_protocol);
    if (fd < 0) { *error_number = errno; return -1; }
    int on = 1;
    // Restarts must not wait out TIME_WAIT sockets of the previous process.
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (info->ai_family == AF_INET6) {
        int off = 0;
        // "::" is documented as dual stack, whatever the system default of bindv6only.
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
    }
    if (bind(fd, info->ai_addr, info->ai_addrlen) != 0 || listen(fd, backlog) != 0) {
        *error_number = errno;
        close(fd);
        return -1;
    }
    return fd;
}

int cmhd_listen(const char *host, uint16_t port, int backlog, int *error_number) {
    char service[8];
    snprintf(service, sizeof service, "%u", (unsigned)port);
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    struct addrinfo *list = NULL;
    int status = getaddrinfo((host && *host) ? host : NULL, service, &hints, &list);
    if (status != 0) { *error_number = -status; return -1; }
    int fd = -1;
    *error_number = 0;
    for (struct addrinfo *info = list; info && fd < 0; info = info->ai_next) {
        fd = cmhd_try_bind(info, backlog, error_number);
    }
    freeaddrinfo(list);
    // A host without IPv6 (common in containers) still serves "::" on IPv4.
    if (fd < 0 && host && strcmp(host, "::") == 0 && *error_number == EAFNOSUPPORT) {
        return cmhd_listen("0.0.0.0", port, backlog, error_number);
    }
    return fd;
}

int cmhd_socket_address(int fd, char *buffer, size_t length) {
    struct sockaddr_storage storage;
    socklen_t size = sizeof storage;
    if (getsockname(fd, (struct sockaddr *)&storage, &size) != 0) return -1;
    if (storage.ss_family == AF_INET6) {
        struct sockaddr_in6 *address = (struct sockaddr_in6 *)&storage;
        inet_ntop(AF_INET6, &address->sin6_addr, buffer, (socklen_t)length);
        return ntohs(address->sin6_port);
    }
    struct sockaddr_in *address = (struct sockaddr_in *)&storage;
    inet_ntop(AF_INET, &address->sin_addr, buffer, (socklen_t)length);
    return ntohs(address->sin_port);
}

// Identity unescaping: linkhost routes on the raw request path, so "%2F" can never turn into "/"
// before the router has checked it, and decodes strictly where it needs to.
static size_t cmhd_keep_raw(void *context, struct MHD_Connection *connection, char *text) {
    (void)context;
    (void)connection;
    return strlen(text);
}

// MHD_OPTION_CLIENT_DISCIPLINE_LVL is 38 in libmicrohttpd >= 0.9.77.01; the 0.9.75 headers this is usually
// built against do not name it, so the number is written here (and checked against headers that do).
#define CMHD_OPTION_CLIENT_DISCIPLINE_LVL ((enum MHD_OPTION)38)
#if MHD_VERSION >= 0x01000000
_Static_assert(CMHD_OPTION_CLIENT_DISCIPLINE_LVL == MHD_OPTION_CLIENT_DISCIPLINE_LVL, "libmicrohttpd renumbered the option");
#endif

// Level 1: "more strict protocol interpretation, within the limits set by RFCs for HTTP servers", the
// level libmicrohttpd recommends for public servers. It rejects what RFC 9112 lets a server reject and
// what request smuggling is made of: bare LF and bare CR line ends (2.2), obs-fold (5.2), whitespace
// inside the target or before a field's colon (3.2, 5.1), NUL bytes (M2 in docs/hardening.md), and it
// answers a malformed Content-Length once (M1). Level 2 and 3 go beyond the RFCs (they are meant for
// testing clients), and the clients linkhost serves (Apple's and Google's fetchers, browsers, CDNs)
// send none of the forms level 1 refuses. cmhd_request_is_ambiguous still runs after it: 1.0.1 predates
// the smuggling fixes of 1.0.4/1.0.5, and a second, independent check costs one pass over the fields.
#define CMHD_CLIENT_DISCIPLINE 1

// linkhost's TLS policy, the same on every libmicrohttpd and GnuTLS it meets (0.9.75 starts from GnuTLS's
// "NORMAL", 1.0.1 from the system's policy): TLS 1.3 and 1.2 only, AEAD ciphers only (AES-GCM and
// ChaCha20-Poly1305), ephemeral ECDH only (X25519, P-256, P-384), with ECDSA or RSA certificates; the
// server's order among them (%SERVER_PRECEDENCE): every one is strong, but a scanner (testssl.sh, in CI)
// reports a client-chosen order as "NOT ok", and AES-GCM first costs nothing on hardware with AES
// instructions (servers, and phones since ARMv8). Every browser, Apple's and Google's fetchers and every CDN of the last years
// speak it; Benchmarks/nginx.conf.template gives nginx the same list so both are measured alike.
static const char cmhd_tls_priorities[] =
    "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"
    ":-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305:-MAC-ALL:+AEAD"
    ":-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:-GROUP-ALL:+GROUP-X25519:+GROUP-SECP256R1:+GROUP-SECP384R1"
    ":%SERVER_PRECEDENCE";

unsigned int cmhd_library_version(void) {
    const char *text = MHD_get_version();
    unsigned int parts[3] = { 0, 0, 0 };
    int index = 0;
    for (const char *c = text ? text : ""; *c && index < 3; c++) {
        if (*c >= '0' && *c <= '9') {
            parts[index] = parts[index] * 10 + (unsigned int)(*c - '0');
        } else if (*c == '.') {
            index++;
        } else {
            break;
        }
    }
    return (parts[0] & 0xFF) << 24 | (parts[1] & 0xFF) << 16 | (parts[2] & 0xFF) << 8;
}

int cmhd_client_discipline_level(void) {
    // The option exists from 0.9.77.01 on; every release that has it is 1.0 or later.
    return cmhd_library_version() >= 0x01000000 ? CMHD_CLIENT_DISCIPLINE : CMHD_NO_DISCIPLINE_LEVEL;
}

// Writes the decimal digits of `value` (0–255) at `out`; returns how many.
static size_t cmhd_octet(unsigned value, char *out) {
    size_t length = 0;
    if (value >= 100) out[length++] = (char)('0' + value / 100);
    if (value >= 10) out[length++] = (char)('0' + value / 10 % 10);
    out[length++] = (char)('0' + value % 10);
    return length;
}

// Dotted quad without inet_ntop, whose IPv4 path goes through sprintf; `out` has room for 16 bytes.
static size_t cmhd_format_ipv4(const unsigned char *octets, char *out) {
    size_t length = 0;
    for (int index = 0; index < 4; index++) {
        if (index > 0) out[length++] = '.';
        length += cmhd_octet(octets[index], out + length);
    }
    out[length] = 0;
    return length;
}

// The address text of a connection, as the access log shows it: IPv4 clients on the dual-stack "::" socket
// arrive as ::ffff:a.b.c.d and are written a.b.c.d; "-" when libmicrohttpd knows no address.
static size_t cmhd_format_address(struct MHD_Connection *connection, char *out, size_t capacity) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *address = info ? info->client_addr : NULL;
    if (address != NULL && address->sa_family == AF_INET6) {
        const struct in6_addr *v6 = &((const struct sockaddr_in6 *)address)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(v6)) return cmhd_format_ipv4(&v6->s6_addr[12], out);
        if (inet_ntop(AF_INET6, v6, out, (socklen_t)capacity) != NULL) return strlen(out);
    } else if (address != NULL && address->sa_family == AF_INET) {
        return cmhd_format_ipv4((const unsigned char *)&((const struct sockaddr_in *)address)->sin_addr, out);
    }
    out[0] = '-';
    out[1] = 0;
    return 1;
}

// libmicrohttpd never enables GnuTLS's session tickets, so without this every returning client pays a
// full handshake (an ECDHE exchange and a signature) where other servers resume. One master key per
// process: GnuTLS derives the keys that seal tickets from it and rotates them over time, so tickets expire
// on their own; a replica that did not issue a ticket refuses it and the client makes a full handshake.
static gnutls_datum_t cmhd_ticket_key;
static int cmhd_ticket_key_ready;
static pthread_once_t cmhd_ticket_key_once = PTHREAD_ONCE_INIT;

static void cmhd_make_ticket_key(void) {
    cmhd_ticket_key_ready = gnutls_session_ticket_key_generate(&cmhd_ticket_key) == GNUTLS_E_SUCCESS;
}

// Called when a connection starts: its GnuTLS session exists by then, its handshake has not begun.
static void cmhd_enable_session_tickets(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    if (info == NULL || info->tls_session == NULL) return;
    pthread_once(&cmhd_ticket_key_once, cmhd_make_ticket_key);
    // Without a key (the random source failed) the connection still works, with full handshakes only.
    if (cmhd_ticket_key_ready) gnutls_session_ticket_enable_server((gnutls_session_t)info->tls_session, &cmhd_ticket_key);
}

// MHD_OPTION_NOTIFY_CONNECTION: a connection starts (TLS resumption is offered, its address is noted, its head
// is due from now) or ends.
static void cmhd_notify_connection(void *context, struct MHD_Connection *connection, void **socket_context,
                                   enum MHD_ConnectionNotificationCode code) {
    struct cmhd_deadlines *deadlines = context;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        cmhd_enable_session_tickets(connection);
        struct cmhd_connection_state *entry = calloc(1, sizeof *entry);
        // Without memory the connection is simply not watched and logged as "-"; the idle timeout still bounds it.
        if (entry == NULL) return;
        entry->address_length = cmhd_format_address(connection, entry->address, sizeof entry->address);
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (deadlines != NULL && info != NULL) cmhd_deadlines_watch(deadlines, entry, info->connect_fd);
        *socket_context = entry;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context != NULL) {
        struct cmhd_connection_state *entry = *socket_context;
        // Normally taken by the request-completed callback already, which libmicrohttpd calls first.
        if (entry->tag != NULL && entry->release_tag != NULL) entry->release_tag(entry->tag);
        if (entry->watched && deadlines != NULL) cmhd_deadlines_forget(deadlines, entry);
        free(entry);
        *socket_context = NULL;
    }
}

struct MHD_Daemon *cmhd_start_daemon(unsigned int flags,
                                     int listen_fd,
                                     MHD_AccessHandlerCallback handler,
                                     void *handler_context,
                                     MHD_RequestCompletedCallback completed,
                                     void *completed_context,
                                     struct cmhd_deadlines *deadlines,
                                     const struct MHD_OptionItem *options) {
    struct MHD_OptionItem extra[4];
    int count = 0;
    if (flags & MHD_USE_TLS) {
        extra[count++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)cmhd_tls_priorities };
    }
    int level = cmhd_client_discipline_level();
    if (level != CMHD_NO_DISCIPLINE_LEVEL) {
        // Passed only to a library that knows it: 0.9.75 refuses to start on an unknown option.
        extra[count++] = (struct MHD_OptionItem){ CMHD_OPTION_CLIENT_DISCIPLINE_LVL, level, NULL };
    }
    // Always: every connection's address is formatted once, when it starts; `deadlines` may be NULL.
    extra[count++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)cmhd_notify_connection, deadlines };
    extra[count] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_UNESCAPE_CALLBACK, cmhd_keep_raw, NULL,
                            MHD_OPTION_ARRAY, extra,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

const char *cmhd_client_address(struct MHD_Connection *connection, size_t *length) {
    const struct cmhd_connection_state *entry = cmhd_state_of(connection);
    if (entry == NULL) {
        *length = 1;
        return "-";
    }
    *length = entry->address_length;
    return entry->address;
}

int cmhd_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? (int)info->num_connections : -1;
}

// Never called for a 304, which MHD sends without a body; ends the response if it ever were.
static ssize_t cmhd_no_body(void *context, uint64_t position, char *buffer, size_t max) {
    (void)context;
    (void)position;
    (void)buffer;
    (void)max;
    return MHD_CONTENT_READER_END_WITH_ERROR;
}

struct MHD_Response *cmhd_response_borrowed(const void *bytes, size_t length, void (*release)(void *owner), void *owner) {
#if MHD_VERSION >= 0x00097302
    struct MHD_Response *response = MHD_create_response_from_buffer_with_free_callback_cls(length, (void *)bytes, release, owner);
#else
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)bytes, MHD_RESPMEM_MUST_COPY);
    if (response != NULL) release(owner);
#endif
    if (response == NULL) release(owner);
    return response;
}

// A block of one byte: MHD allocates the block with the response, and a 304 never reads into it, while
// a block of 4096 bytes made every prepared 304 (three a tenant) cost 4 KB (issue 33).
struct MHD_Response *cmhd_response_headers_only(uint64_t size) {
    return MHD_create_response_from_callback(size, 1, cmhd_no_body, NULL, NULL);
}

// Never called: the trial daemon has no socket and accepts nothing.
static enum MHD_Result cmhd_refuse(void *cls, struct MHD_Connection *connection, const char *url,
                                   const char *method, const char *version, const char *upload_data,
                                   size_t *upload_data_size, void **request_context) {
    (void)cls; (void)connection; (void)url; (void)method; (void)version;
    (void)upload_data; (void)upload_data_size; (void)request_context;
    return MHD_NO;
}

int cmhd_tls_pair_is_usable(const char *key_pem, const char *certificate_pem) {
    struct MHD_Daemon *trial = MHD_start_daemon(MHD_USE_TLS | MHD_USE_NO_LISTEN_SOCKET, 0, NULL, NULL,
                                                cmhd_refuse, NULL,
                                                MHD_OPTION_HTTPS_MEM_KEY, key_pem,
                                                MHD_OPTION_HTTPS_MEM_CERT, certificate_pem,
                                                MHD_OPTION_HTTPS_PRIORITIES, cmhd_tls_priorities,
                                                MHD_OPTION_END);
    if (trial == NULL) return 0;
    MHD_stop_daemon(trial);
    return 1;
}

struct cmhd_field_counts {
    unsigned host, content_length, transfer_encoding;
    int unsupported_coding, malformed, check_folding;
};

// True when the field was written on more than one line (obs-fold, RFC 9112 §5.2). libmicrohttpd 0.9.x
// neither refuses nor unfolds it: it appends the continuation line to the field's *name*, in a copy made
// elsewhere in the connection's memory pool (`Content-Length:\r\n 5` arrives as a field
// "Content-Length5" with an empty value, so the body is read as the next request). Every other field is
// parsed in place in the read buffer: the name, its colon made a NUL, optional spaces or tabs, then the
// value. A name that does not sit right before its value was therefore moved by a fold, whatever it says.
// Only the bytes between the end of the name and the value are read, and only when the value comes after
// the name and at most CMHD_MAXIMUM_FIELD_GAP bytes on (more whitespace than that is refused too: no client
// sends it). libmicrohttpd 1.0 refuses obs-fold itself at client discipline level 1 and makes no such layout
// promise, so this runs below 1.0 only.
#define CMHD_MAXIMUM_FIELD_GAP 256
static int cmhd_field_was_folded(const char *key, const char *value) {
    if (value == NULL) return 0;
    const char *end = key + strlen(key);
    if (value <= end || value - end > CMHD_MAXIMUM_FIELD_GAP) return 1;
    for (const char *between = end + 1; between < value; between++) {
        if (*between != ' ' && *between != '\t') return 1;
    }
    return 0;
}

static enum MHD_Result cmhd_count_field(void *context, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    struct cmhd_field_counts *counts = context;
    // 0.9.75 keeps whitespace before the colon in the name, and a bare CR inside the value.
    if (key == NULL || key[0] == 0 || strpbrk(key, " \t") != NULL || (value != NULL && strpbrk(value, "\r\n") != NULL)) {
        counts->malformed = 1;
        return MHD_YES;
    }
    if (counts->check_folding && cmhd_field_was_folded(key, value)) {
        counts->malformed = 1;
        return MHD_YES;
    }
    if (strcasecmp(key, "Host") == 0) {
        counts->host++;
    } else if (strcasecmp(key, "Content-Length") == 0) {
        counts->content_length++;
    } else if (strcasecmp(key, "Transfer-Encoding") == 0) {
        counts->transfer_encoding++;
        if (value == NULL || strcasecmp(value, "chunked") != 0) counts->unsupported_coding = 1;
    }
    return MHD_YES;
}

int cmhd_request_is_ambiguous(struct MHD_Connection *connection, const char *version) {
    struct cmhd_field_counts counts = { 0, 0, 0, 0, 0, cmhd_library_version() < 0x01000000 };
    MHD_get_connection_values(connection, MHD_HEADER_KIND, cmhd_count_field, &counts);
    int needs_host = version != NULL && strcmp(version, "HTTP/1.1") == 0;
    return counts.malformed || (needs_host && counts.host == 0) || counts.host > 1 || counts.content_length > 1
        || counts.transfer_encoding > 1 || (counts.transfer_encoding > 0 && counts.content_length > 0)
        || counts.unsupported_coding;
}

struct cmhd_joined_field {
    const char *name;
    char *out;
    size_t capacity, length;
    int overflow;
};

static enum MHD_Result cmhd_join_field(void *context, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    struct cmhd_joined_field *joined = context;
    if (key == NULL || value == NULL || strcasecmp(key, joined->name) != 0) return MHD_YES;
    size_t length = strlen(value), separator = joined->length > 0 ? 2 : 0;
    if (joined->length + separator + length + 1 > joined->capacity) {
        joined->overflow = 1;
        return MHD_NO;
    }
    memcpy(joined->out + joined->length, ", ", separator);
    memcpy(joined->out + joined->length + separator, value, length);
    joined->length += separator + length;
    joined->out[joined->length] = 0;
    return MHD_YES;
}

long cmhd_request_header_joined(struct MHD_Connection *connection, const char *name, char *out, size_t capacity) {
    if (capacity == 0) return -1;
    struct cmhd_joined_field joined = { name, out, capacity, 0, 0 };
    out[0] = 0;
    MHD_get_connection_values(connection, MHD_HEADER_KIND, cmhd_join_field, &joined);
    return joined.overflow ? -1 : (long)joined.length;
}

enum cmhd_body cmhd_request_body(struct MHD_Connection *connection) {
    if (MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Transfer-Encoding") != NULL) return CMHD_BODY_REFUSED;
    const char *length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Length");
    if (length == NULL) return CMHD_BODY_NONE;
    // libmicrohttpd has already refused a malformed value (400/413); what reaches here is digits.
    unsigned long long value = 0;
    for (const char *digit = length; *digit; digit++) {
        if (*digit == ' ' || *digit == '\t') continue;
        if (*digit < '0' || *digit > '9') return CMHD_BODY_REFUSED;
        value = value * 10 + (unsigned long long)(*digit - '0');
        if (value > CMHD_MAXIMUM_BODY) return CMHD_BODY_REFUSED;
    }
    return value == 0 ? CMHD_BODY_NONE : CMHD_BODY_SMALL;
}

struct MHD_Response *cmhd_response_take(void *bytes, size_t length) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, bytes, MHD_RESPMEM_MUST_FREE);
    if (response == NULL) free(bytes);
    return response;
}

size_t cmhd_add_headers(struct MHD_Response *response, const char *fields, size_t count) {
    size_t added = 0;
    const char *name = fields;
    for (size_t index = 0; index < count; index++) {
        const char *value = name + strlen(name) + 1;
        if (MHD_add_response_header(response, name, value) == MHD_YES) added++;
        name = value + strlen(value) + 1;
    }
    return added;
}

struct MHD_Response *cmhd_response_alias(void *bytes, size_t length) {
    struct MHD_Response *response = MHD_create_response_from_buffer_with_free_callback(length, bytes, free);
    if (response == NULL) free(bytes);
    return response;
}

int cmhd_request_tag_set(struct MHD_Connection *connection, void *tag, void (*release)(void *)) {
    struct cmhd_connection_state *entry = cmhd_state_of(connection);
    if (entry == NULL || entry->tag != NULL) return 0;
    entry->tag = tag;
    entry->release_tag = release;
    return 1;
}

void *cmhd_request_tag_take(struct MHD_Connection *connection) {
    struct cmhd_connection_state *entry = cmhd_state_of(connection);
    if (entry == NULL) return NULL;
    void *tag = entry->tag;
    entry->tag = NULL;
    return tag;
}

/// What `cmhd_query_value` looks for and found.
struct cmhd_query_lookup {
    const char *name;
    const char *value;
};

static enum MHD_Result cmhd_query_visit(void *context, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    struct cmhd_query_lookup *lookup = context;
    if (key == NULL || strcmp(key, lookup->name) != 0) return MHD_YES;
    lookup->value = value;
    return MHD_NO;
}

const char *cmhd_query_value(struct MHD_Connection *connection, const char *name) {
    // The items are visited in the request's order, so the first of a name wins, as CallLinkParser decides.
    struct cmhd_query_lookup lookup = { name, NULL };
    MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, cmhd_query_visit, &lookup);
    return lookup.value;
}
