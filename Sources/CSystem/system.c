// The C half of linkhost's process plumbing: signals, limits, thread priority and systemd's interfaces.
#define _GNU_SOURCE
#include "CSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static void csys_stop_and_reload_signals(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGHUP);
}

void csys_signals_block(void) {
    sigset_t set;
    csys_stop_and_reload_signals(&set);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int csys_signals_wait(void) {
    sigset_t set;
    csys_stop_and_reload_signals(&set);
    int signal_number = 0;
    while (sigwait(&set, &signal_number) != 0) {}
    return signal_number;
}

int csys_signals_wait_for(int milliseconds) {
    sigset_t set;
    csys_stop_and_reload_signals(&set);
    struct timespec wait = { milliseconds / 1000, (long)(milliseconds % 1000) * 1000000L };
    int signal_number = sigtimedwait(&set, NULL, &wait);
    return signal_number > 0 ? signal_number : 0;
}

void csys_exit_now(int status) {
    _exit(status);
}

long csys_raise_open_files_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0) getrlimit(RLIMIT_NOFILE, &limit);
    }
    return limit.rlim_cur == RLIM_INFINITY ? 1L << 20 : (long)limit.rlim_cur;
}

void csys_lower_thread_priority(int nice_value) {
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice_value);
}

void csys_return_free_memory(void) {
    malloc_trim(0);
}

void csys_use_one_malloc_arena(void) {
    if (getenv("MALLOC_ARENA_MAX") == NULL) mallopt(M_ARENA_MAX, 1);
}

void csys_name_this_thread(const char *name) {
    char shortened[16];
    snprintf(shortened, sizeof shortened, "%s", name);
    pthread_setname_np(pthread_self(), shortened);
}

// The first descriptor systemd passes (SD_LISTEN_FDS_START in sd-daemon.h).
#define CSYS_LISTEN_FDS_START 3

// Parses a whole decimal number; -1 for anything else.
static long csys_parse_count(const char *text) {
    if (text == NULL || *text == 0) return -1;
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || *end != 0 || value < 0) return -1;
    return value;
}

int csys_listen_fds(void) {
    const char *pid_text = getenv("LISTEN_PID");
    const char *count_text = getenv("LISTEN_FDS");
    if (pid_text == NULL || count_text == NULL) return 0;
    long pid = csys_parse_count(pid_text);
    long count = csys_parse_count(count_text);
    // The variables are meant for the process systemd started; a child that inherited them is not it.
    if (pid != (long)getpid()) return 0;
    unsetenv("LISTEN_PID");
    unsetenv("LISTEN_FDS");
    unsetenv("LISTEN_FDNAMES");
    if (count < 0 || count > 1024) return -1;
    for (int fd = CSYS_LISTEN_FDS_START; fd < CSYS_LISTEN_FDS_START + count; fd++) {
        int flags = fcntl(fd, F_GETFD);
        if (flags < 0) return -1;
        fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
    }
    return (int)count;
}

int csys_is_listening_stream(int fd) {
    int type = 0, listening = 0;
    socklen_t size = sizeof type;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &size) != 0 || type != SOCK_STREAM) return 0;
    size = sizeof listening;
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) != 0) return 0;
    return listening ? 1 : 0;
}

int csys_notify(const char *state) {
    const char *path = getenv("NOTIFY_SOCKET");
    if (path == NULL || *path == 0) return 0;
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    size_t length = strlen(path);
    if ((path[0] != '/' && path[0] != '@') || length >= sizeof address.sun_path) return -1;
    memcpy(address.sun_path, path, length);
    // "@name" is the abstract namespace: a leading NUL byte, and the length counts no terminator.
    if (path[0] == '@') address.sun_path[0] = 0;
    socklen_t address_length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + length + (path[0] == '@' ? 0 : 1));
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    ssize_t sent = sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&address, address_length);
    close(fd);
    return sent == (ssize_t)strlen(state) ? 1 : -1;
}

unsigned long long csys_monotonic_microseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (unsigned long long)now.tv_sec * 1000000ULL + (unsigned long long)now.tv_nsec / 1000ULL;
}

extern char **environ;

const char *csys_environment_entry(size_t index) {
    // Walks up to `index` checking each entry, so an index past the end stops at the terminating NULL.
    for (size_t at = 0; environ != NULL && environ[at] != NULL; at++) {
        if (at == index) return environ[at];
    }
    return NULL;
}
