// Test-only: connect a blocking socket with timeouts, so tests never hang on a silent server.
#include "CTestSupport.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static pthread_once_t ignore_sigpipe_once = PTHREAD_ONCE_INIT;

static void ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

int lhtest_connect(const char *host, int port, int timeout_ms) {
    pthread_once(&ignore_sigpipe_once, ignore_sigpipe);
    struct sockaddr_storage storage;
    memset(&storage, 0, sizeof storage);
    socklen_t size;
    int family;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
    struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
    if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        family = AF_INET6; v6->sin6_family = AF_INET6; v6->sin6_port = htons((unsigned short)port); size = sizeof *v6;
    } else if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        family = AF_INET; v4->sin_family = AF_INET; v4->sin_port = htons((unsigned short)port); size = sizeof *v4;
    } else {
        return -1;
    }
    int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct timeval timeout = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    if (connect(fd, (struct sockaddr *)&storage, size) != 0) { close(fd); return -1; }
    return fd;
}

int lhtest_wait_readable(int fd, int timeout_ms) {
    struct pollfd entry = { .fd = fd, .events = POLLIN, .revents = 0 };
    for (;;) {
        int ready = poll(&entry, 1, timeout_ms < 0 ? 0 : timeout_ms);
        if (ready < 0 && errno == EINTR) continue;
        return ready < 0 ? -1 : (ready > 0 ? 1 : 0);
    }
}

int lhtest_ipv6_loopback_available(void) {
    int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    struct sockaddr_in6 address;
    memset(&address, 0, sizeof address);
    address.sin6_family = AF_INET6;
    address.sin6_addr = in6addr_loopback;
    address.sin6_port = 0;
    int ok = bind(fd, (struct sockaddr *)&address, sizeof address) == 0;
    close(fd);
    return ok;
}

int lhtest_port_is_free(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int on = 1;
    // As the servers under test bind (SO_REUSEADDR): a port left in TIME_WAIT by an earlier test counts as free.
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons((unsigned short)port);
    int result = bind(fd, (struct sockaddr *)&address, sizeof address) == 0 ? 1 : (errno == EADDRINUSE ? 0 : -1);
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

int lhtest_hold_port(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons((unsigned short)port);
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int lhtest_local_port(int fd) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) return -1;
    if (address.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&address)->sin_port);
    if (address.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&address)->sin6_port);
    return -1;
}
