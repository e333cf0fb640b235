/// CSystem: the process-level POSIX calls linkhost makes outside libmicrohttpd.
///
/// Signal masks and sigwait, resource limits, per-thread priority, the descriptors and the notification
/// socket of systemd are plain libc, but their macros, `sigset_t` and `sockaddr_un` manipulation and the
/// Linux thread ID do not import cleanly into Swift; each wrapper here turns one of them into a prefixed
/// function with an ordinary signature.
#ifndef CSYSTEM_H
#define CSYSTEM_H

#include <stddef.h>

/// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread (and so in threads it starts later) and
/// ignores SIGPIPE. Call before starting any thread so only `csys_signals_wait` ever sees them:
/// signal handlers cannot safely run Swift code.
void csys_signals_block(void);

/// Waits for SIGTERM, SIGINT or SIGHUP and returns its number (sigwait needs a sigset_t built with
/// macros Swift cannot call).
int csys_signals_wait(void);

/// Like `csys_signals_wait`, but gives up after `milliseconds` and returns 0; with 0 it only takes a
/// signal that is already pending (the start-up's check for a stop that came while the config loaded).
int csys_signals_wait_for(int milliseconds);

/// Ends the process at once with `status`, running no atexit handlers or destructors while other
/// threads still serve (exit() would tear libraries down under them). For the second stop signal.
void csys_exit_now(int status) __attribute__((noreturn));

/// Raises the soft open-files limit to the hard one and returns it (or -1): each connection is a
/// descriptor, and `struct rlimit`'s RLIM_INFINITY is a macro.
long csys_raise_open_files_limit(void);

/// Lowers the calling thread's scheduling priority (Linux nice values are per thread, addressed by
/// the thread ID that only the raw gettid syscall gives), so work such as building a reload's
/// snapshot yields the cores to the threads answering requests. Call it only on a thread linkhost
/// made for that work: a pooled thread would keep the lower priority for whatever it runs next.
void csys_lower_thread_priority(int nice_value);

/// Gives the heap's free pages back to the system (glibc's malloc_trim). glibc keeps what a process frees
/// for later allocations; after a reload drops a whole snapshot (about 150 kB a site) the process would
/// otherwise stay at its peak, two snapshots' worth, until it exits.
void csys_return_free_memory(void);

/// Keeps every thread's allocations in glibc's one main arena (mallopt M_ARENA_MAX 1), unless the environment
/// sets MALLOC_ARENA_MAX. Snapshots are built by the reload thread and the build's worker threads, each of
/// which otherwise gets an arena of its own: every reload then leaves pages partly used in several arenas,
/// and resident memory grew by a tenth over 20 reloads (half that in one arena, issue 42). Requests allocate
/// little (none for a prepared answer, five for a rendered page, mostly from the thread's own cache).
/// Called before any thread exists.
void csys_use_one_malloc_arena(void);

/// Names the calling thread for `top -H`, gdb and /proc (the first 15 bytes): pthread_setname_np
/// needs _GNU_SOURCE, which Swift's Glibc module does not define.
void csys_name_this_thread(const char *name);

/// systemd socket activation (sd_listen_fds(3) without libsystemd): when LISTEN_PID is this process,
/// returns LISTEN_FDS (the sockets are descriptors 3, 4, …), marks them close-on-exec and removes the
/// variables so nothing started later takes them for its own; 0 when the process was not activated,
/// -1 when the variables are malformed.
int csys_listen_fds(void);

/// 1 when `fd` is a listening stream socket (what an activated descriptor must be to be served), else 0.
int csys_is_listening_stream(int fd);

/// sd_notify(3) without libsystemd: sends `state` (e.g. "READY=1") as one datagram to the unix socket
/// named by NOTIFY_SOCKET (a path, or "@name" for the abstract namespace). Returns 1 when sent, 0 when
/// NOTIFY_SOCKET is not set, -1 when it is set but the message could not be sent.
int csys_notify(const char *state);

/// CLOCK_MONOTONIC in microseconds, as the MONOTONIC_USEC field of a RELOADING=1 notification wants.
unsigned long long csys_monotonic_microseconds(void);

/// The `index`-th entry of the process environment ("NAME=value"), or NULL past the last one. `environ`
/// is a global array of C strings, which Swift cannot walk without pointer arithmetic of its own.
const char *csys_environment_entry(size_t index);

#endif
