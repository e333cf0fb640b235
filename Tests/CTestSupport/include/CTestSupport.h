/// Test-only socket helpers: connecting needs sockaddr structs, which stay in C.
#ifndef CTESTSUPPORT_H
#define CTESTSUPPORT_H

/// Connects a blocking TCP socket to a numeric `host` and `port`, with send/receive timeouts.
/// Returns the descriptor or -1.
int lhtest_connect(const char *host, int port, int timeout_ms);

#endif
