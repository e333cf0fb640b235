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

int lhtest_free_ports(int count, int *ports) {
    if (count <= 0 || count > 64) { errno = EINVAL; return -1; }
    int sockets[64];
    int opened = 0, result = 0;
    for (; opened < count; opened++) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        struct sockaddr_in address;
        memset(&address, 0, sizeof address);
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (fd < 0 || bind(fd, (struct sockaddr *)&address, sizeof address) != 0 ||
            getsockname(fd, (struct sockaddr *)&address, &length) != 0) {
            int saved = errno;
            if (fd >= 0) close(fd);
            errno = saved;
            result = -1;
            break;
        }
        sockets[opened] = fd;
        ports[opened] = ntohs(address.sin_port);
    }
    int saved = errno;
    for (int index = 0; index < opened; index++) close(sockets[index]);
    errno = saved;
    return result;
}
