// Test-only: a canned-response HTTP(S) server and a self-signed certificate, so `linkhost check` can be
// tested against redirects, wrong types, broken JSON and untrusted certificates without any network.
#define _GNU_SOURCE
#include "CCheckSupport.h"

#include <arpa/inet.h>
#include <errno.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

struct lhcheck_server {
    int listener;
    int stop_pipe[2];
    char directory[1024];
    gnutls_certificate_credentials_t credentials;  // NULL for plain HTTP
    pthread_t thread;
    int requests;
    pthread_mutex_t lock;
};

// Reads a whole file into a malloc'ed buffer; the caller frees it.
static unsigned char *read_file(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    unsigned char *bytes = NULL;
    size_t used = 0, capacity = 0;
    for (;;) {
        if (used == capacity) {
            capacity = capacity == 0 ? 4096 : capacity * 2;
            unsigned char *grown = realloc(bytes, capacity);
            if (grown == NULL) { free(bytes); fclose(file); return NULL; }
            bytes = grown;
        }
        size_t count = fread(bytes + used, 1, capacity - used, file);
        if (count == 0) break;
        used += count;
    }
    fclose(file);
    *size = used;
    return bytes;
}

// Sends over TLS or plain TCP, whichever the connection uses.
static void send_all(int fd, gnutls_session_t session, const unsigned char *bytes, size_t count) {
    size_t sent = 0;
    while (sent < count) {
        ssize_t result = session != NULL
            ? gnutls_record_send(session, bytes + sent, count - sent)
            : send(fd, bytes + sent, count - sent, MSG_NOSIGNAL);
        if (result == GNUTLS_E_INTERRUPTED || result == GNUTLS_E_AGAIN || (result < 0 && errno == EINTR)) continue;
        if (result <= 0) return;
        sent += (size_t)result;
    }
}

// Appends `METHOD target\tUser-Agent` to the directory's `.requests` file, so a test can see what each
// request carried (the agent `check` sends per file); an absent header is written as "-".
static void log_request(struct lhcheck_server *server, const char *method, const char *target, const char *head) {
    char agent[1024] = "-";
    const char *line = strcasestr(head, "\r\nUser-Agent:");
    if (line != NULL) {
        line += strlen("\r\nUser-Agent:");
        while (*line == ' ') line++;
        size_t length = strcspn(line, "\r\n");
        if (length >= sizeof agent) length = sizeof agent - 1;
        memcpy(agent, line, length);
        agent[length] = 0;
    }
    char path[1100];
    snprintf(path, sizeof path, "%s/.requests", server->directory);
    pthread_mutex_lock(&server->lock);
    FILE *file = fopen(path, "a");
    if (file != NULL) {
        fprintf(file, "%s %s\t%s\n", method, target, agent);
        fclose(file);
    }
    pthread_mutex_unlock(&server->lock);
}

// Reads the request head (up to the blank line) and answers it from the directory.
static void serve_connection(struct lhcheck_server *server, int fd, gnutls_session_t session) {
    char head[16384];
    head[0] = 0;
    size_t used = 0;
    while (used < sizeof head - 1 && strstr(head, "\r\n\r\n") == NULL) {
        ssize_t count = session != NULL ? gnutls_record_recv(session, head + used, sizeof head - 1 - used)
                                        : recv(fd, head + used, sizeof head - 1 - used, 0);
        if (count == GNUTLS_E_INTERRUPTED || count == GNUTLS_E_AGAIN) continue;
        if (count <= 0) return;
        used += (size_t)count;
        head[used] = 0;
    }
    char method[16] = "", target[2048] = "";
    if (sscanf(head, "%15s %2047s", method, target) != 2) return;
    log_request(server, method, target, head);
    char *query = strchr(target, '?');
    if (query != NULL) *query = 0;
    for (char *c = target; *c; c++) if (*c == '/') *c = '_';

    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", server->directory, method, target);
    size_t size = 0;
    unsigned char *bytes = read_file(path, &size);
    int head_only = 0;
    if (bytes == NULL && strcmp(method, "HEAD") == 0) {
        snprintf(path, sizeof path, "%s/GET%s", server->directory, target);
        bytes = read_file(path, &size);
        head_only = 1;
    }
    if (bytes == NULL) {
        static const char missing[] = "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 10\r\nConnection: close\r\n\r\nNot Found\n";
        send_all(fd, session, (const unsigned char *)missing, strlen(missing) - (strcmp(method, "HEAD") == 0 ? 10 : 0));
    } else {
        if (head_only) {
            for (size_t i = 0; i + 3 < size; i++) {
                if (memcmp(bytes + i, "\r\n\r\n", 4) == 0) { size = i + 4; break; }
            }
        }
        send_all(fd, session, bytes, size);
        free(bytes);
    }
    pthread_mutex_lock(&server->lock);
    server->requests += 1;
    pthread_mutex_unlock(&server->lock);
}

// Accepts and serves connections one at a time until the stop pipe becomes readable.
static void *run_server(void *argument) {
    struct lhcheck_server *server = argument;
    for (;;) {
        struct pollfd entries[2] = { { server->listener, POLLIN, 0 }, { server->stop_pipe[0], POLLIN, 0 } };
        if (poll(entries, 2, -1) < 0) { if (errno == EINTR) continue; break; }
        if (entries[1].revents != 0) break;
        int fd = accept(server->listener, NULL, NULL);
        if (fd < 0) continue;
        struct timeval timeout = { 5, 0 };
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
        gnutls_session_t session = NULL;
        int ready = 1;
        if (server->credentials != NULL) {
            gnutls_init(&session, GNUTLS_SERVER | GNUTLS_NO_SIGNAL);
            gnutls_set_default_priority(session);
            gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, server->credentials);
            gnutls_transport_set_int(session, fd);
            gnutls_handshake_set_timeout(session, 5000);
            int status;
            do { status = gnutls_handshake(session); } while (status < 0 && gnutls_error_is_fatal(status) == 0);
            ready = status == 0;
        }
        if (ready) serve_connection(server, fd, session);
        if (session != NULL) {
            if (ready) gnutls_bye(session, GNUTLS_SHUT_WR);
            gnutls_deinit(session);
        }
        shutdown(fd, SHUT_WR);
        close(fd);
    }
    return NULL;
}

lhcheck_server *lhcheck_server_start(const char *directory, const char *cert_file, const char *key_file, int *port) {
    signal(SIGPIPE, SIG_IGN);
    struct lhcheck_server *server = calloc(1, sizeof *server);
    if (server == NULL) return NULL;
    snprintf(server->directory, sizeof server->directory, "%s", directory);
    pthread_mutex_init(&server->lock, NULL);
    if (cert_file != NULL && key_file != NULL) {
        gnutls_certificate_allocate_credentials(&server->credentials);
        if (gnutls_certificate_set_x509_key_file(server->credentials, cert_file, key_file, GNUTLS_X509_FMT_PEM) < 0) {
            gnutls_certificate_free_credentials(server->credentials);
            free(server);
            return NULL;
        }
    }
    server->listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (server->listener < 0 || bind(server->listener, (struct sockaddr *)&address, sizeof address) != 0
        || listen(server->listener, 16) != 0 || getsockname(server->listener, (struct sockaddr *)&address, &length) != 0
        || pipe(server->stop_pipe) != 0) {
        if (server->listener >= 0) close(server->listener);
        if (server->credentials != NULL) gnutls_certificate_free_credentials(server->credentials);
        free(server);
        return NULL;
    }
    *port = ntohs(address.sin_port);
    pthread_create(&server->thread, NULL, run_server, server);
    return server;
}

int lhcheck_server_requests(lhcheck_server *server) {
    pthread_mutex_lock(&server->lock);
    int count = server->requests;
    pthread_mutex_unlock(&server->lock);
    return count;
}

void lhcheck_server_stop(lhcheck_server *server) {
    if (server == NULL) return;
    ssize_t written = write(server->stop_pipe[1], "x", 1);
    (void)written;
    pthread_join(server->thread, NULL);
    close(server->listener);
    close(server->stop_pipe[0]);
    close(server->stop_pipe[1]);
    if (server->credentials != NULL) gnutls_certificate_free_credentials(server->credentials);
    pthread_mutex_destroy(&server->lock);
    free(server);
}

// Writes a datum to a file.
static int write_datum(const char *path, const gnutls_datum_t *datum) {
    FILE *file = fopen(path, "wb");
    if (file == NULL) return -1;
    size_t written = fwrite(datum->data, 1, datum->size, file);
    fclose(file);
    return written == datum->size ? 0 : -1;
}

int lhcheck_make_certificate(const char *cert_file, const char *key_file, const char *name, int loopback) {
    time_t now = time(NULL);
    return lhcheck_make_certificate_valid(cert_file, key_file, name, loopback, (long long)now - 3600, (long long)now + 86400);
}

int lhcheck_make_certificate_valid(const char *cert_file, const char *key_file, const char *name, int loopback,
                                   long long not_before, long long not_after) {
    gnutls_x509_privkey_t key = NULL;
    gnutls_x509_crt_t certificate = NULL;
    gnutls_datum_t pem = { NULL, 0 };
    int result = -1;
    if (gnutls_x509_privkey_init(&key) < 0) return -1;
    if (gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA, GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), 0) < 0) goto done;
    if (gnutls_x509_crt_init(&certificate) < 0) goto done;
    unsigned char serial[8];
    time_t now = time(NULL);
    for (int i = 0; i < 8; i++) serial[i] = (unsigned char)((now >> (i * 4)) ^ (i * 37));
    serial[0] &= 0x7F;
    static const unsigned char loopback_address[4] = { 127, 0, 0, 1 };
    if (gnutls_x509_crt_set_version(certificate, 3) < 0
        || gnutls_x509_crt_set_serial(certificate, serial, sizeof serial) < 0
        || gnutls_x509_crt_set_activation_time(certificate, (time_t)not_before) < 0
        || gnutls_x509_crt_set_expiration_time(certificate, (time_t)not_after) < 0
        || gnutls_x509_crt_set_dn_by_oid(certificate, GNUTLS_OID_X520_COMMON_NAME, 0, name, (unsigned)strlen(name)) < 0
        || gnutls_x509_crt_set_key(certificate, key) < 0
        || gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_DNSNAME, name, (unsigned)strlen(name), GNUTLS_FSAN_SET) < 0
        || (loopback && gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_IPADDRESS, loopback_address, 4, GNUTLS_FSAN_APPEND) < 0)
        || gnutls_x509_crt_set_basic_constraints(certificate, 1, -1) < 0
        || gnutls_x509_crt_set_key_usage(certificate, GNUTLS_KEY_DIGITAL_SIGNATURE | GNUTLS_KEY_KEY_CERT_SIGN) < 0
        || gnutls_x509_crt_set_key_purpose_oid(certificate, GNUTLS_KP_TLS_WWW_SERVER, 0) < 0
        || gnutls_x509_crt_sign2(certificate, certificate, key, GNUTLS_DIG_SHA256, 0) < 0) goto done;
    if (gnutls_x509_crt_export2(certificate, GNUTLS_X509_FMT_PEM, &pem) < 0 || write_datum(cert_file, &pem) != 0) goto done;
    gnutls_free(pem.data);
    pem.data = NULL;
    // PKCS#8, the form linkhost's own keys are stored in.
    if (gnutls_x509_privkey_export2_pkcs8(key, GNUTLS_X509_FMT_PEM, NULL, GNUTLS_PKCS_PLAIN, &pem) < 0 || write_datum(key_file, &pem) != 0) goto done;
    result = 0;
done:
    if (pem.data != NULL) gnutls_free(pem.data);
    if (certificate != NULL) gnutls_x509_crt_deinit(certificate);
    if (key != NULL) gnutls_x509_privkey_deinit(key);
    return result;
}
