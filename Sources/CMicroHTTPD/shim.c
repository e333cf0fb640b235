// The C half of linkhost's libmicrohttpd adapter: sockets, the variadic start call, and unions.
#include "CMicroHTTPD.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

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

struct MHD_Daemon *cmhd_start_daemon(unsigned int flags,
                                     int listen_fd,
                                     MHD_AccessHandlerCallback handler,
                                     void *handler_context,
                                     MHD_RequestCompletedCallback completed,
                                     void *completed_context,
                                     const struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_UNESCAPE_CALLBACK, cmhd_keep_raw, NULL,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

void cmhd_client_address(struct MHD_Connection *connection, char *buffer, size_t length) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (length == 0) return;
    snprintf(buffer, length, "-");
    if (!info || !info->client_addr) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET6) {
        const struct in6_addr *v6 = &((const struct sockaddr_in6 *)address)->sin6_addr;
        // On the dual-stack "::" socket IPv4 clients arrive as ::ffff:a.b.c.d; log them as a.b.c.d.
        if (IN6_IS_ADDR_V4MAPPED(v6)) {
            inet_ntop(AF_INET, &v6->s6_addr[12], buffer, (socklen_t)length);
        } else {
            inet_ntop(AF_INET6, v6, buffer, (socklen_t)length);
        }
    } else if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer, (socklen_t)length);
    }
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

struct MHD_Response *cmhd_response_headers_only(uint64_t size) {
    return MHD_create_response_from_callback(size, 4096, cmhd_no_body, NULL, NULL);
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
                                                MHD_OPTION_END);
    if (trial == NULL) return 0;
    MHD_stop_daemon(trial);
    return 1;
}

struct cmhd_field_counts {
    unsigned host, content_length, transfer_encoding;
    int unsupported_coding, malformed;
};

static enum MHD_Result cmhd_count_field(void *context, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    struct cmhd_field_counts *counts = context;
    // 0.9.75 keeps whitespace before the colon in the name, and a bare CR inside the value.
    if (key == NULL || key[0] == 0 || strpbrk(key, " \t") != NULL || (value != NULL && strpbrk(value, "\r\n") != NULL)) {
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
    struct cmhd_field_counts counts = { 0, 0, 0, 0, 0 };
    MHD_get_connection_values(connection, MHD_HEADER_KIND, cmhd_count_field, &counts);
    int needs_host = version != NULL && strcmp(version, "HTTP/1.1") == 0;
    return counts.malformed || (needs_host && counts.host == 0) || counts.host > 1 || counts.content_length > 1
        || counts.transfer_encoding > 1 || (counts.transfer_encoding > 0 && counts.content_length > 0)
        || counts.unsupported_coding;
}
