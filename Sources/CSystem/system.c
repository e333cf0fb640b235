// The C half of linkhost's process plumbing: signals, limits and thread priority.
#include "CSystem.h"

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
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
