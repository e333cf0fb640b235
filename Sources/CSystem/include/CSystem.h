/// CSystem: the process-level POSIX calls linkhost makes outside libmicrohttpd.
///
/// Signal masks and sigwait, resource limits and per-thread priority are plain libc, but their
/// macros, `sigset_t` manipulation and the Linux thread ID do not import cleanly into Swift;
/// each wrapper here turns one of them into a prefixed function with an ordinary signature.
#ifndef CSYSTEM_H
#define CSYSTEM_H

/// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread (and so in threads it starts later) and
/// ignores SIGPIPE. Call before starting any thread so only `csys_signals_wait` ever sees them:
/// signal handlers cannot safely run Swift code.
void csys_signals_block(void);

/// Waits for SIGTERM, SIGINT or SIGHUP and returns its number (sigwait needs a sigset_t built with
/// macros Swift cannot call).
int csys_signals_wait(void);

/// Raises the soft open-files limit to the hard one and returns it (or -1): each connection is a
/// descriptor, and `struct rlimit`'s RLIM_INFINITY is a macro.
long csys_raise_open_files_limit(void);

/// Lowers the calling thread's scheduling priority (Linux nice values are per thread, addressed by
/// the thread ID that only the raw gettid syscall gives), so work such as building a reload's
/// snapshot yields the cores to the threads answering requests.
void csys_lower_thread_priority(int nice_value);

#endif
