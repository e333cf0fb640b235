/// Test-only socket and process helpers: everything that needs sockaddr structs, pointer arrays or
/// fork/exec stays in C, so the Swift tests use only file descriptors, process IDs and array bridging.
#ifndef CTESTSUPPORT_H
#define CTESTSUPPORT_H

#include <stddef.h>
#include <sys/types.h>

/// Connects a blocking TCP socket to a numeric `host` and `port`, with send/receive timeouts.
/// Also ignores SIGPIPE in the test process, so writing to a socket the server closed fails with
/// EPIPE instead of killing the test runner. Returns the descriptor or -1.
int lhtest_connect(const char *host, int port, int timeout_ms);

/// Waits up to `timeout_ms` for `fd` to be readable (data, end of file or an error to read).
/// Returns 1 when readable, 0 on timeout, -1 on error.
int lhtest_wait_readable(int fd, int timeout_ms);

/// True (1) when this machine can bind a TCP socket to the IPv6 loopback address ::1.
int lhtest_ipv6_loopback_available(void);

/// Starts `path` as a child process.
///
/// `arguments` and `environment` are blocks of NUL-terminated strings laid end to end (`count` strings
/// each); `arguments` includes argv[0]. The child runs in `directory` (NULL or "": the test process's),
/// leads a process group of its own (so `kill(-pid, ...)` reaches what it started), reads a pipe whose
/// write end is returned in `*stdin_fd` when `stdin_pipe` is 1 (else /dev/null, and -1), has its stdout and
/// stderr connected to the pipes returned in `*stdout_fd` and `*stderr_fd` (every returned end is
/// close-on-exec in the parent), keeps no other descriptor, starts with default signal dispositions and
/// an empty signal mask, and is sent SIGKILL if the test process dies (PR_SET_PDEATHSIG, armed from a
/// helper thread that lives as long as the process, so no child outlives a crashed or killed test run).
/// The first call makes the test process ignore SIGPIPE, so input written to a child that has exited
/// fails with EPIPE. Returns the child's pid, or -1 with `*error_number` set (including exec failures).
pid_t lhtest_spawn(const char *path,
                   const char *arguments, int argument_count,
                   const char *environment, int environment_count,
                   const char *directory,
                   int stdin_pipe, int *stdin_fd, int *stdout_fd, int *stderr_fd, int *error_number);

/// Writes all `length` bytes to `fd` (retrying short writes and EINTR). Returns 0, or -1 with errno set
/// (EPIPE when the reader has gone).
int lhtest_write_all(int fd, const void *bytes, long length);

/// Waits up to `timeout_ms` (0: just checks) for child `pid` to end and reaps it.
/// Returns 1 when it ended, with `*exit_code` (-1 if killed) and `*signal_number` (0 if it exited);
/// 0 when it is still running; -1 on error (e.g. not a child of this process).
int lhtest_wait(pid_t pid, int timeout_ms, int *exit_code, int *signal_number);

/// Writes the text of errno value `code` (e.g. "Connection refused") into `buffer`, NUL-terminated.
void lhtest_error_text(int code, char *buffer, int length);

/// Connects a blocking IPv4 TCP socket from the numeric loopback address `source` (e.g. "127.0.0.2")
/// to `host` and `port`, with send/receive timeouts: the overload tests need a client whose address
/// differs from the attacker's, since libmicrohttpd's per-IP limit counts source addresses.
/// Returns the descriptor, or -1 with errno set.
int lhtest_connect_from(const char *source, const char *host, int port, int timeout_ms);

/// Whether 127.0.0.1:`port` can be bound now (SO_REUSEADDR, as servers bind): 1 free, 0 in use, -1 another error.
/// For TestPorts.swift only, which retries a program on new ports when it loses the race for one anyway.
int lhtest_port_is_free(int port);

/// Binds 127.0.0.1:`port` without listening and without SO_REUSEADDR, so a connection to it is refused and no
/// server can bind it while the returned descriptor is open; -1 with errno (EADDRINUSE: it is taken) otherwise.
/// For a test that asks a stopped server's port: another test's server could be handed the freed port.
int lhtest_hold_port(int port);

/// The local port of connected socket `fd` (IPv4 or IPv6), or -1: names the connection in /proc/net/tcp.
int lhtest_local_port(int fd);

/// Raises this process's soft RLIMIT_NOFILE towards `wanted` (never past the hard limit) and
/// returns the limit now in force, or -1.
long lhtest_raise_fd_limit(long wanted);

/// Sends without blocking and without SIGPIPE; returns the bytes sent, or -1 with errno set
/// (EAGAIN when the socket buffer is full, EPIPE or ECONNRESET when the server closed it).
long lhtest_send_nowait(int fd, const void *bytes, long length);

/// Looks at a socket without consuming anything: 1 when data is waiting, 0 when it is open and quiet,
/// -1 when the peer closed or reset it.
int lhtest_peer_state(int fd);

/// Half-closes a socket (no more writes), so the server reads end of file after the request bytes.
int lhtest_shutdown_write(int fd);

/// Binds a unix datagram socket at `path` (removing a stale file first), to stand in for systemd's
/// NOTIFY_SOCKET. Returns the descriptor, or -1 with errno set.
int lhtest_notify_listen(const char *path);

/// Waits up to `timeout_ms` for one datagram on `fd` and copies it, NUL-terminated, into `buffer`.
/// Returns its length, 0 on timeout, -1 on error.
int lhtest_notify_receive(int fd, char *buffer, int length, int timeout_ms);

#endif
