// Request deadlines (closing slowloris): libmicrohttpd has only an idle timeout, which every trickled byte
// resets, so linkhost keeps a deadline per connection for the whole request, head and body (CMicroHTTPD.h).
#include "connection_state.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

struct cmhd_deadlines {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    int stopping;
    int tls;
    unsigned int timeout_ms;
    struct cmhd_connection_state *head;
};

static uint64_t cmhd_now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
}

struct cmhd_connection_state *cmhd_state_of(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? (struct cmhd_connection_state *)info->socket_context : NULL;
}

static const char cmhd_408[] = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";

static void cmhd_close_overdue(struct cmhd_deadlines *deadlines, uint64_t now) {
    pthread_mutex_lock(&deadlines->lock);
    for (struct cmhd_connection_state *entry = deadlines->head; entry; entry = entry->next) {
        uint64_t due = atomic_load(&entry->due);
        if (due == 0 || due == CMHD_CLOSING || due > now) continue;
        // Only a connection still waiting for its request: one that arrived meanwhile cleared `due`.
        if (!atomic_compare_exchange_strong(&entry->due, &due, CMHD_CLOSING)) continue;
        if (!deadlines->tls) {
            // Best effort and never blocking: the connection is idle on the sending side (no response is
            // under way while a request is due), so these bytes cannot interleave with another response.
            (void)send(entry->fd, cmhd_408, sizeof cmhd_408 - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
        }
        // libmicrohttpd reads end-of-file and closes the connection on its own thread; the descriptor
        // stays valid until then because the CLOSED notice (which unlinks the entry under this lock)
        // comes before libmicrohttpd closes it.
        shutdown(entry->fd, SHUT_RDWR);
    }
    pthread_mutex_unlock(&deadlines->lock);
}

static void *cmhd_deadline_thread(void *context) {
    struct cmhd_deadlines *deadlines = context;
    unsigned int period = deadlines->timeout_ms / 4;
    if (period > 250) period = 250;
    if (period < 10) period = 10;
    pthread_mutex_lock(&deadlines->lock);
    while (!deadlines->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += (long)(period % 1000) * 1000000L;
        until.tv_sec += period / 1000 + until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&deadlines->wake, &deadlines->lock, &until);
        if (deadlines->stopping) break;
        pthread_mutex_unlock(&deadlines->lock);
        cmhd_close_overdue(deadlines, cmhd_now_ms());
        pthread_mutex_lock(&deadlines->lock);
    }
    pthread_mutex_unlock(&deadlines->lock);
    return NULL;
}

struct cmhd_deadlines *cmhd_deadlines_create(unsigned int timeout_ms, int tls) {
    struct cmhd_deadlines *deadlines = calloc(1, sizeof *deadlines);
    if (deadlines == NULL) return NULL;
    deadlines->timeout_ms = timeout_ms;
    deadlines->tls = tls;
    pthread_mutex_init(&deadlines->lock, NULL);
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&deadlines->wake, &attributes);
    pthread_condattr_destroy(&attributes);
    if (pthread_create(&deadlines->thread, NULL, cmhd_deadline_thread, deadlines) != 0) {
        pthread_cond_destroy(&deadlines->wake);
        pthread_mutex_destroy(&deadlines->lock);
        free(deadlines);
        return NULL;
    }
    return deadlines;
}

void cmhd_deadlines_destroy(struct cmhd_deadlines *deadlines) {
    if (deadlines == NULL) return;
    pthread_mutex_lock(&deadlines->lock);
    deadlines->stopping = 1;
    pthread_cond_signal(&deadlines->wake);
    pthread_mutex_unlock(&deadlines->lock);
    pthread_join(deadlines->thread, NULL);
    // Normally empty: MHD_stop_daemon announced every connection's end before this.
    for (struct cmhd_connection_state *entry = deadlines->head, *next; entry; entry = next) {
        next = entry->next;
        free(entry);
    }
    pthread_cond_destroy(&deadlines->wake);
    pthread_mutex_destroy(&deadlines->lock);
    free(deadlines);
}

int cmhd_deadline_passed(struct MHD_Connection *connection) {
    struct cmhd_connection_state *entry = cmhd_state_of(connection);
    return entry != NULL && entry->watched && atomic_load(&entry->due) == CMHD_CLOSING;
}

int cmhd_deadline_request_arrived(struct MHD_Connection *connection) {
    struct cmhd_connection_state *entry = cmhd_state_of(connection);
    if (entry == NULL || !entry->watched) return 0;
    uint64_t due = atomic_load(&entry->due);
    while (due != CMHD_CLOSING) {
        if (atomic_compare_exchange_weak(&entry->due, &due, 0)) return 0;
    }
    return 1;
}

void cmhd_deadline_restart(struct MHD_Connection *connection) {
    struct cmhd_connection_state *entry = cmhd_state_of(connection);
    if (entry == NULL || !entry->watched) return;
    uint64_t current = atomic_load(&entry->due);
    // A connection the tracker is closing stays closing.
    if (current != CMHD_CLOSING) {
        atomic_compare_exchange_strong(&entry->due, &current, cmhd_now_ms() + entry->timeout_ms);
    }
}

void cmhd_deadlines_watch(struct cmhd_deadlines *deadlines, struct cmhd_connection_state *entry, int fd) {
    entry->fd = fd;
    entry->timeout_ms = deadlines->timeout_ms;
    entry->watched = 1;
    atomic_store(&entry->due, cmhd_now_ms() + deadlines->timeout_ms);
    pthread_mutex_lock(&deadlines->lock);
    entry->next = deadlines->head;
    if (deadlines->head) deadlines->head->previous = entry;
    deadlines->head = entry;
    pthread_mutex_unlock(&deadlines->lock);
}

void cmhd_deadlines_forget(struct cmhd_deadlines *deadlines, struct cmhd_connection_state *entry) {
    pthread_mutex_lock(&deadlines->lock);
    if (entry->previous) entry->previous->next = entry->next; else deadlines->head = entry->next;
    if (entry->next) entry->next->previous = entry->previous;
    pthread_mutex_unlock(&deadlines->lock);
}
