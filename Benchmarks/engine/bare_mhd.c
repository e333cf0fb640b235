// The engine's ceiling: libmicrohttpd with linkhost's daemon options and nothing of linkhost's own, answering
// every request with one response prepared at start (a body file and its header fields). What it serves per
// second is the most linkhost could serve on this machine; `make bench` puts it beside linkhost and nginx.
//
//   bare_mhd PORT BODY-FILE [NAME: VALUE]...     listens on 127.0.0.1:PORT until SIGTERM or SIGINT
//
// The daemon is started as Sources/LinkHostServer/Server.swift starts linkhost's (internal polling thread,
// epoll, ITC; a thread pool of one thread per core; the same connection timeout, limits and memory limit; a
// listening socket with a backlog of 1024). What linkhost adds on top — the notify-connection callback (the
// client's address, the header deadline), the raw unescape callback, the request and completion handlers'
// work, the access log and the metrics — is what the ratio linkhost ÷ this program measures.
#include <microhttpd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static struct MHD_Response *prepared;
static int marker;

// As linkhost's access handler (Sources/LinkHostServer/Callbacks.swift): the first call only marks the request,
// the second queues the answer. A response queued on the first call, before libmicrohttpd knows whether a body
// follows, makes it close the connection after the reply, which would turn keep-alive into close.
static enum MHD_Result answer(void *context, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_size, void **request_context) {
    (void)context; (void)url; (void)method; (void)version; (void)upload_data;
    if (*request_context == NULL) {
        *request_context = &marker;
        return MHD_YES;
    }
    *upload_size = 0;
    return MHD_queue_response(connection, MHD_HTTP_OK, prepared);
}

static int listen_on(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, 1024) != 0) return -1;
    return fd;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: bare_mhd PORT BODY-FILE [NAME: VALUE]...\n");
        return 2;
    }
    FILE *file = fopen(argv[2], "rb");
    if (file == NULL) { perror(argv[2]); return 1; }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    char *body = malloc(size > 0 ? (size_t)size : 1);
    if (body == NULL || fread(body, 1, (size_t)size, file) != (size_t)size) { fprintf(stderr, "cannot read %s\n", argv[2]); return 1; }
    fclose(file);
    prepared = MHD_create_response_from_buffer((size_t)size, body, MHD_RESPMEM_PERSISTENT);
    for (int index = 3; index < argc; index++) {
        char *colon = strchr(argv[index], ':');
        if (colon == NULL) { fprintf(stderr, "not a header field: %s\n", argv[index]); return 2; }
        *colon = 0;
        const char *value = colon + 1;
        while (*value == ' ') value++;
        MHD_add_response_header(prepared, argv[index], value);
    }
    int fd = listen_on(atoi(argv[1]));
    if (fd < 0) { perror("bind"); return 1; }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC;
    // linkhost's defaults: connectionTimeout 15, connectionLimit 4096, connectionMemoryLimit 8192; the bench
    // sets perIPConnectionLimit 0 (every connection comes from 127.0.0.1).
    struct MHD_Daemon *daemon = MHD_start_daemon(flags, 0, NULL, NULL, answer, NULL,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)15,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)4096,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)0,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)8192,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)(cores > 1 ? cores : 1),
        MHD_OPTION_END);
    if (daemon == NULL) { fprintf(stderr, "MHD_start_daemon failed\n"); return 1; }
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    sigprocmask(SIG_BLOCK, &stop, NULL);
    fprintf(stderr, "bare_mhd: listening on http://127.0.0.1:%s, %ld bytes, %ld threads\n", argv[1], size, cores > 1 ? cores : 1);
    int signal_number = 0;
    sigwait(&stop, &signal_number);
    MHD_stop_daemon(daemon);
    MHD_destroy_response(prepared);
    free(body);
    return 0;
}
