// Test-only stand-in for systemd's side of sd_notify: a unix datagram socket and a receive with a time limit.
#include "CTestSupport.h"

#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int lhtest_notify_listen(const char *path) {
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof address.sun_path) return -1;
    strcpy(address.sun_path, path);
    unlink(path);
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int lhtest_notify_receive(int fd, char *buffer, int length, int timeout_ms) {
    struct pollfd waiting = { fd, POLLIN, 0 };
    int ready = poll(&waiting, 1, timeout_ms);
    if (ready <= 0) return ready;
    ssize_t count = recv(fd, buffer, (size_t)(length - 1), 0);
    if (count < 0) return -1;
    buffer[count] = 0;
    return (int)count;
}
