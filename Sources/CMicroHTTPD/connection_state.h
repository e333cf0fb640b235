// Private to CMicroHTTPD: what shim.c (the connection notices) and deadlines.c (the request deadlines)
// both keep per connection. Not part of the module's public header.
#ifndef CMHD_CONNECTION_STATE_H
#define CMHD_CONNECTION_STATE_H

#include "CMicroHTTPD.h"
#include <stdatomic.h>
#include <stdint.h>

// One per connection, made when libmicrohttpd announces it (MHD_OPTION_NOTIFY_CONNECTION) and kept as its
// socket context: the client's address as the access log writes it, formatted once rather than per request,
// and the connection's place in the deadline tracker's list when there is one.
struct cmhd_connection_state {
    struct cmhd_connection_state *previous, *next;
    int fd;
    unsigned int timeout_ms;
    // Monotonic milliseconds by which the request (head and body) is due; 0 while it is being answered,
    // CMHD_CLOSING once the tracker has given up on it. Written by libmicrohttpd's threads and the tracker.
    _Atomic uint64_t due;
    // Set when the connection is on a tracker's list (the daemon has request deadlines).
    int watched;
    // What the request being answered holds until it completes (a reused page response), or NULL, and how
    // to let go of it should the connection end without the request completing.
    void *tag;
    void (*release_tag)(void *);
    size_t address_length;
    char address[CMHD_ADDRESS_CAPACITY];
};

// `due` once the tracker has given up on a connection.
#define CMHD_CLOSING UINT64_MAX

/// The connection's state, or NULL when it has none (out of memory when it started).
struct cmhd_connection_state *cmhd_state_of(struct MHD_Connection *connection);

/// Puts a connection that just started on the tracker's list, its request due `timeout_ms` from now.
void cmhd_deadlines_watch(struct cmhd_deadlines *deadlines, struct cmhd_connection_state *entry, int fd);

/// Takes a connection that is closing off the tracker's list (before its state is freed).
void cmhd_deadlines_forget(struct cmhd_deadlines *deadlines, struct cmhd_connection_state *entry);

#endif
