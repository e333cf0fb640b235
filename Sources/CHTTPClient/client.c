// The transport behind `linkhost check`: TCP connect with timeouts, and TLS through GnuTLS with the
// system trust store. GnuTLS is already a runtime dependency of libmicrohttpd, so checking HTTPS adds
// no library to the image (only ca-certificates for the trust store).
#include "CHTTPClient.h"
#include "trust.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <gnutls/gnutls.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

struct lhc_connection {
    int fd;
    gnutls_session_t session;                 // NULL for plain TCP
    lhc_trust *trust;                         // shared trust anchors, NULL until TLS starts
    int established;                          // the handshake completed, so close_notify may be sent
    long long deadline_ms;                    // monotonic time by which the whole exchange must be over
    int timed_out;                            // a read gave up at the deadline
    char error[256];
};

// The monotonic clock in milliseconds: deadlines and trust ages must not move with the wall clock.
long long lhc_now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

// Milliseconds left before `deadline_ms`, 0 once it has passed.
static int remaining_ms(long long deadline_ms) {
    long long left = deadline_ms - lhc_now_ms();
    return left <= 0 ? 0 : (left > 0x7fffffff ? 0x7fffffff : (int)left);
}

// Copies a message into a caller's byte buffer, always NUL-terminated; shared by every error path.
static int copy_message(const char *message, unsigned char *buffer, int capacity) {
    if (buffer == NULL || capacity <= 0) return 0;
    size_t length = strlen(message);
    if (length >= (size_t)capacity) length = (size_t)capacity - 1;
    memcpy(buffer, message, length);
    buffer[length] = 0;
    return (int)length;
}

// Records why `lhc_open` failed in the caller's out-parameters.
static void fail(int *failure, int kind, unsigned char *error, int capacity, const char *message) {
    if (failure != NULL) *failure = kind;
    copy_message(message, error, capacity);
}

// True for numeric IPv4/IPv6 addresses: they get no SNI (RFC 6066 allows host names only).
static int is_numeric_address(const char *host) {
    unsigned char scratch[sizeof(struct in6_addr)];
    return inet_pton(AF_INET, host, scratch) == 1 || inet_pton(AF_INET6, host, scratch) == 1;
}

// Connects one address without blocking past the deadline: a blackholed address must not hang the check.
// Returns the descriptor (blocking again, with send/receive timeouts) or -1 with errno set.
static int connect_with_timeout(const struct addrinfo *address, long long deadline_ms) {
    int timeout_ms = remaining_ms(deadline_ms);
    // A zero SO_RCVTIMEO or SO_SNDTIMEO would mean "no timeout at all".
    if (timeout_ms == 0) timeout_ms = 1;
    int fd = socket(address->ai_family, address->ai_socktype | SOCK_CLOEXEC, address->ai_protocol);
    if (fd < 0) return -1;
    int flags = fcntl(fd, F_GETFL, 0);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    int result = connect(fd, address->ai_addr, address->ai_addrlen);
    if (result != 0 && errno == EINPROGRESS) {
        struct pollfd entry = { .fd = fd, .events = POLLOUT, .revents = 0 };
        int ready;
        do { ready = poll(&entry, 1, timeout_ms); } while (ready < 0 && errno == EINTR);
        if (ready == 0) {
            close(fd);
            errno = ETIMEDOUT;
            return -1;
        }
        int socket_error = 0;
        socklen_t length = sizeof socket_error;
        if (ready < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &socket_error, &length) != 0 || socket_error != 0) {
            close(fd);
            errno = socket_error != 0 ? socket_error : EIO;
            return -1;
        }
    } else if (result != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    struct timeval timeout = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

// Resolves `host` and connects to the first address that answers, as browsers and fetchers do.
static int open_socket(const char *host, int port, long long deadline_ms, int *failure, unsigned char *error, int capacity) {
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_ADDRCONFIG;
    struct addrinfo *addresses = NULL;
    int status = getaddrinfo(host, service, &hints, &addresses);
    if (status != 0) {
        char message[256];
        snprintf(message, sizeof message, "cannot resolve %s: %s", host, gai_strerror(status));
        fail(failure, LHC_FAILURE_RESOLVE, error, capacity, message);
        return -1;
    }
    int fd = -1;
    int last_error = 0;
    for (struct addrinfo *address = addresses; address != NULL && fd < 0; address = address->ai_next) {
        fd = connect_with_timeout(address, deadline_ms);
        if (fd < 0) last_error = errno;
        if (fd < 0 && remaining_ms(deadline_ms) == 0) last_error = ETIMEDOUT;
    }
    freeaddrinfo(addresses);
    if (fd < 0) {
        char message[256];
        snprintf(message, sizeof message, "cannot connect to %s port %d: %s", host, port, strerror(last_error));
        fail(failure, last_error == ETIMEDOUT ? LHC_FAILURE_TIMEOUT : LHC_FAILURE_CONNECT, error, capacity, message);
    }
    return fd;
}

// Waits until `fd` is readable; 1 readable, 0 timed out, -1 error. Lets a TLS read that only consumed a
// post-handshake message (a TLS 1.3 session ticket reports GNUTLS_E_AGAIN) be retried without mistaking
// it for a timeout.
static int wait_readable(int fd, int timeout_ms) {
    struct pollfd entry = { .fd = fd, .events = POLLIN, .revents = 0 };
    int ready;
    do { ready = poll(&entry, 1, timeout_ms); } while (ready < 0 && errno == EINTR);
    return ready < 0 ? -1 : (ready > 0 ? 1 : 0);
}

// GnuTLS's pull function: one recv, once the socket is readable before the deadline; past it, a failure
// GnuTLS reports as a pull error and `timed_out` tells apart.
static ssize_t pull_before_deadline(gnutls_transport_ptr_t pointer, void *buffer, size_t size) {
    lhc_connection *connection = pointer;
    int ready = wait_readable(connection->fd, remaining_ms(connection->deadline_ms));
    if (ready == 0) {
        connection->timed_out = 1;
        errno = ETIMEDOUT;
        return -1;
    }
    if (ready < 0) return -1;
    ssize_t result;
    do { result = recv(connection->fd, buffer, size, 0); } while (result < 0 && errno == EINTR);
    return result;
}

// GnuTLS's push function: the socket's own send (bounded by SO_SNDTIMEO), without SIGPIPE.
static ssize_t push_to_socket(gnutls_transport_ptr_t pointer, const void *bytes, size_t size) {
    lhc_connection *connection = pointer;
    ssize_t result;
    do { result = send(connection->fd, bytes, size, MSG_NOSIGNAL); } while (result < 0 && errno == EINTR);
    return result;
}

// GnuTLS's pull-timeout function: waits at most `timeout_ms` (GNUTLS_INDEFINITE_TIMEOUT: until the
// deadline), never past the deadline; >0 readable, 0 not yet, -1 error.
static int wait_before_deadline(gnutls_transport_ptr_t pointer, unsigned int timeout_ms) {
    lhc_connection *connection = pointer;
    int left = remaining_ms(connection->deadline_ms);
    int wait = timeout_ms == GNUTLS_INDEFINITE_TIMEOUT || timeout_ms > (unsigned)left ? left : (int)timeout_ms;
    int ready = wait_readable(connection->fd, wait);
    if (ready == 0 && remaining_ms(connection->deadline_ms) == 0) connection->timed_out = 1;
    return ready;
}

// Sets up the client session: trust anchors, SNI, host-name verification, and runs the handshake.
static int start_tls(lhc_connection *connection, const char *host, const char *ca_file,
                     int *failure, unsigned char *error, int capacity) {
    char message[512];
    int loaded = 0;
    connection->trust = lhc_trust_acquire(ca_file, &loaded);
    if (connection->trust == NULL && loaded == GNUTLS_E_MEMORY_ERROR) {
        fail(failure, LHC_FAILURE_TLS, error, capacity, "cannot allocate TLS credentials");
        return -1;
    }
    if (connection->trust == NULL) {
        if (ca_file != NULL) {
            snprintf(message, sizeof message, "no CA certificate could be read from %s%s%s", ca_file,
                     loaded < 0 ? ": " : "", loaded < 0 ? gnutls_strerror(loaded) : "");
        } else {
            snprintf(message, sizeof message, "no system trust store (install ca-certificates)%s%s",
                     loaded < 0 ? ": " : "", loaded < 0 ? gnutls_strerror(loaded) : "");
        }
        fail(failure, LHC_FAILURE_TRUST_STORE, error, capacity, message);
        return -1;
    }
    // GNUTLS_NO_SIGNAL: a server that resets the connection must not kill the process with SIGPIPE.
    if (gnutls_init(&connection->session, GNUTLS_CLIENT | GNUTLS_NO_SIGNAL) < 0) {
        connection->session = NULL;
        fail(failure, LHC_FAILURE_TLS, error, capacity, "cannot start a TLS session");
        return -1;
    }
    gnutls_set_default_priority(connection->session);
    gnutls_credentials_set(connection->session, GNUTLS_CRD_CERTIFICATE, connection->trust->credentials);
    if (!is_numeric_address(host)) {
        gnutls_server_name_set(connection->session, GNUTLS_NAME_DNS, host, strlen(host));
    }
    // Verifies the chain and that the certificate names `host` (DNS name or IP address) during the handshake.
    gnutls_session_set_verify_cert(connection->session, host, 0);
    // GnuTLS reads through these, so the handshake and every record, however slowly its bytes trickle in,
    // end at the connection's deadline (a blocking recv with SO_RCVTIMEO only bounds the gap between bytes).
    gnutls_transport_set_ptr(connection->session, connection);
    gnutls_transport_set_pull_function(connection->session, pull_before_deadline);
    gnutls_transport_set_pull_timeout_function(connection->session, wait_before_deadline);
    gnutls_transport_set_push_function(connection->session, push_to_socket);
    gnutls_handshake_set_timeout(connection->session, (unsigned)(remaining_ms(connection->deadline_ms) + 1));
    int status;
    do {
        status = gnutls_handshake(connection->session);
    } while (status < 0 && gnutls_error_is_fatal(status) == 0 && status != GNUTLS_E_AGAIN);
    if (status == GNUTLS_E_CERTIFICATE_VERIFICATION_ERROR) {
        unsigned verification = gnutls_session_get_verify_cert_status(connection->session);
        gnutls_datum_t text = { NULL, 0 };
        gnutls_certificate_verification_status_print(verification, gnutls_certificate_type_get(connection->session), &text, 0);
        snprintf(message, sizeof message, "the TLS certificate of %s is not trusted: %s", host,
                 text.data != NULL ? (const char *)text.data : "verification failed");
        gnutls_free(text.data);
        fail(failure, LHC_FAILURE_CERTIFICATE, error, capacity, message);
        return -1;
    }
    if (status < 0) {
        int timed_out = status == GNUTLS_E_AGAIN || status == GNUTLS_E_TIMEDOUT || connection->timed_out;
        snprintf(message, sizeof message, "TLS handshake with %s failed: %s", host, gnutls_strerror(status));
        fail(failure, timed_out ? LHC_FAILURE_TIMEOUT : LHC_FAILURE_TLS, error, capacity, message);
        return -1;
    }
    connection->established = 1;
    return 0;
}

lhc_connection *lhc_open(const char *host, const char *connect_host, int connect_port, int use_tls, const char *ca_file,
                         int timeout_ms, int *failure, unsigned char *error, int error_capacity) {
    if (failure != NULL) *failure = LHC_FAILURE_NONE;
    copy_message("", error, error_capacity);
    if (timeout_ms <= 0) timeout_ms = 1;
    long long deadline_ms = lhc_now_ms() + timeout_ms;
    lhc_connection *connection = calloc(1, sizeof *connection);
    if (connection == NULL) {
        fail(failure, LHC_FAILURE_CONNECT, error, error_capacity, "out of memory");
        return NULL;
    }
    connection->deadline_ms = deadline_ms;
    connection->fd = open_socket(connect_host, connect_port, deadline_ms, failure, error, error_capacity);
    if (connection->fd < 0) {
        free(connection);
        return NULL;
    }
    if (use_tls && start_tls(connection, host, ca_file, failure, error, error_capacity) != 0) {
        lhc_close(connection);
        return NULL;
    }
    return connection;
}

int lhc_send(lhc_connection *connection, const unsigned char *bytes, int count) {
    int sent = 0;
    while (sent < count) {
        ssize_t result;
        if (connection->session != NULL) {
            result = gnutls_record_send(connection->session, bytes + sent, (size_t)(count - sent));
            if (result == GNUTLS_E_INTERRUPTED) continue;
            // With a send timeout on the socket, GNUTLS_E_AGAIN means the peer stopped reading.
            if (result < 0) {
                snprintf(connection->error, sizeof connection->error, "TLS send failed: %s", gnutls_strerror((int)result));
                return -1;
            }
        } else {
            result = send(connection->fd, bytes + sent, (size_t)(count - sent), MSG_NOSIGNAL);
            if (result < 0 && errno == EINTR) continue;
            if (result < 0) {
                snprintf(connection->error, sizeof connection->error, "send failed: %s", strerror(errno));
                return -1;
            }
        }
        sent += (int)result;
    }
    return 0;
}

int lhc_receive(lhc_connection *connection, unsigned char *buffer, int capacity) {
    for (;;) {
        if (connection->session != NULL) {
            if (gnutls_record_check_pending(connection->session) == 0) {
                int ready = wait_readable(connection->fd, remaining_ms(connection->deadline_ms));
                if (ready == 0) return LHC_RECEIVE_TIMEOUT;
                if (ready < 0) {
                    snprintf(connection->error, sizeof connection->error, "receive failed: %s", strerror(errno));
                    return LHC_RECEIVE_ERROR;
                }
            }
            ssize_t result = gnutls_record_recv(connection->session, buffer, (size_t)capacity);
            if (result == GNUTLS_E_INTERRUPTED || result == GNUTLS_E_AGAIN) continue;
            if (result >= 0) return (int)result;
            // Many servers close without close_notify; the HTTP framing (Content-Length, chunks) tells
            // the Swift side whether the body is complete.
            if (result == GNUTLS_E_PREMATURE_TERMINATION) return LHC_RECEIVE_END;
            if (connection->timed_out) return LHC_RECEIVE_TIMEOUT;
            snprintf(connection->error, sizeof connection->error, "TLS receive failed: %s", gnutls_strerror((int)result));
            return LHC_RECEIVE_ERROR;
        }
        int ready = wait_readable(connection->fd, remaining_ms(connection->deadline_ms));
        if (ready == 0) return LHC_RECEIVE_TIMEOUT;
        ssize_t result = ready < 0 ? -1 : recv(connection->fd, buffer, (size_t)capacity, 0);
        if (result >= 0) return (int)result;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return LHC_RECEIVE_TIMEOUT;
        if (errno == ECONNRESET) return LHC_RECEIVE_END;
        snprintf(connection->error, sizeof connection->error, "receive failed: %s", strerror(errno));
        return LHC_RECEIVE_ERROR;
    }
}

int lhc_last_error(const lhc_connection *connection, unsigned char *buffer, int capacity) {
    return copy_message(connection->error, buffer, capacity);
}

int lhc_peer_certificates(const lhc_connection *connection, unsigned char *buffer, int capacity) {
    if (capacity <= 0) return -1;
    buffer[0] = 0;
    if (connection->session == NULL) return 0;
    unsigned count = 0;
    const gnutls_datum_t *chain = gnutls_certificate_get_peers(connection->session, &count);
    int used = 0;
    for (unsigned index = 0; chain != NULL && index < count; index++) {
        gnutls_datum_t pem = { NULL, 0 };
        // GnuTLS hands out DER; PEM is what the rest of linkhost reads certificates as.
        if (gnutls_pem_base64_encode2("CERTIFICATE", &chain[index], &pem) < 0) return -1;
        if (used + (int)pem.size + 1 > capacity) {
            gnutls_free(pem.data);
            return -1;
        }
        memcpy(buffer + used, pem.data, pem.size);
        used += (int)pem.size;
        gnutls_free(pem.data);
    }
    buffer[used] = 0;
    return used;
}

void lhc_close(lhc_connection *connection) {
    if (connection == NULL) return;
    if (connection->session != NULL && connection->established) {
        // GNUTLS_SHUT_WR sends close_notify without waiting for the peer's reply.
        gnutls_bye(connection->session, GNUTLS_SHUT_WR);
    }
    if (connection->session != NULL) gnutls_deinit(connection->session);
    lhc_trust_return(connection->trust);
    if (connection->fd >= 0) close(connection->fd);
    free(connection);
}
