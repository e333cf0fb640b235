// Test-only helpers for the hostile-input and overload tests: a chosen source address, a raised
// descriptor limit and sends that never block, kept in C so the Swift tests hold no sockaddr structs.
#include "CTestSupport.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static pthread_once_t hostile_sigpipe_once = PTHREAD_ONCE_INIT;

static void hostile_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

int lhtest_connect_from(const char *source, const char *host, int port, int timeout_ms) {
    struct sockaddr_in local, remote;
    memset(&local, 0, sizeof local);
    memset(&remote, 0, sizeof remote);
    local.sin_family = AF_INET;
    remote.sin_family = AF_INET;
    remote.sin_port = htons((unsigned short)port);
    if (inet_pton(AF_INET, source, &local.sin_addr) != 1 || inet_pton(AF_INET, host, &remote.sin_addr) != 1) {
        errno = EINVAL;
        return -1;
    }
    // Like lhtest_connect: a write to a socket the server closed must fail with EPIPE, not kill the tests.
    pthread_once(&hostile_sigpipe_once, hostile_ignore_sigpipe);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct timeval timeout = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    if (bind(fd, (struct sockaddr *)&local, sizeof local) != 0 ||
        connect(fd, (struct sockaddr *)&remote, sizeof remote) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

long lhtest_raise_fd_limit(long wanted) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    if (limit.rlim_cur != RLIM_INFINITY && (long)limit.rlim_cur < wanted) {
        rlim_t target = (rlim_t)wanted;
        if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < target) target = limit.rlim_max;
        limit.rlim_cur = target;
        setrlimit(RLIMIT_NOFILE, &limit);
        getrlimit(RLIMIT_NOFILE, &limit);
    }
    return limit.rlim_cur == RLIM_INFINITY ? wanted : (long)limit.rlim_cur;
}

long lhtest_send_nowait(int fd, const void *bytes, long length) {
    ssize_t sent;
    do { sent = send(fd, bytes, (size_t)length, MSG_DONTWAIT | MSG_NOSIGNAL); } while (sent < 0 && errno == EINTR);
    return (long)sent;
}

int lhtest_peer_state(int fd) {
    char byte;
    ssize_t got;
    do { got = recv(fd, &byte, 1, MSG_DONTWAIT | MSG_PEEK); } while (got < 0 && errno == EINTR);
    if (got > 0) return 1;
    if (got == 0) return -1;
    return (errno == EAGAIN || errno == EWOULDBLOCK) ? 0 : -1;
}

int lhtest_shutdown_write(int fd) {
    return shutdown(fd, SHUT_WR);
}
