// Trust anchors loaded once and shared by the client's connections (see trust.h).
#include "trust.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// Trust anchors loaded once and shared by the connections that use the same source (the system store, or
// one CA file): loading the system store parses ~140 certificates (about 30 ms here), which every request
// of a 1,000-host `check` paid five times a host. A loaded set serves new connections for `TRUST_LIFETIME_MS`,
// so a long-running server (ACME) still sees an updated store; it is freed when its last connection closes.

enum { TRUST_SLOTS = 4, TRUST_LIFETIME_MS = 60000 };
static pthread_mutex_t trust_lock = PTHREAD_MUTEX_INITIALIZER;
static lhc_trust *trust_current[TRUST_SLOTS];

// Drops one user of `trust`, freeing it with its last user; the caller holds `trust_lock`.
static void trust_release_locked(lhc_trust *trust) {
    if (trust == NULL || --trust->users > 0) return;
    gnutls_certificate_free_credentials(trust->credentials);
    free(trust->ca_file);
    free(trust);
}

// The shared trust anchors of `ca_file` (NULL: the system store), loaded now when none are current or the
// current ones are older than TRUST_LIFETIME_MS; NULL with `*loaded` the GnuTLS result when none load.
lhc_trust *lhc_trust_acquire(const char *ca_file, int *loaded) {
    pthread_mutex_lock(&trust_lock);
    int slot = -1, empty = -1;
    for (int index = 0; index < TRUST_SLOTS; index++) {
        lhc_trust *entry = trust_current[index];
        if (entry == NULL) { if (empty < 0) empty = index; continue; }
        if ((entry->ca_file == NULL) == (ca_file == NULL) && (ca_file == NULL || strcmp(entry->ca_file, ca_file) == 0)) slot = index;
    }
    lhc_trust *trust = slot >= 0 ? trust_current[slot] : NULL;
    if (trust != NULL && lhc_now_ms() - trust->loaded_ms < TRUST_LIFETIME_MS) {
        trust->users += 1;
        *loaded = 1;
        pthread_mutex_unlock(&trust_lock);
        return trust;
    }
    lhc_trust *fresh = calloc(1, sizeof *fresh);
    if (fresh == NULL || gnutls_certificate_allocate_credentials(&fresh->credentials) < 0) {
        free(fresh);
        *loaded = GNUTLS_E_MEMORY_ERROR;
        pthread_mutex_unlock(&trust_lock);
        return NULL;
    }
    *loaded = ca_file != NULL
        ? gnutls_certificate_set_x509_trust_file(fresh->credentials, ca_file, GNUTLS_X509_FMT_PEM)
        : gnutls_certificate_set_x509_system_trust(fresh->credentials);
    fresh->ca_file = ca_file != NULL ? strdup(ca_file) : NULL;
    fresh->loaded_ms = lhc_now_ms();
    fresh->users = 1;
    if (*loaded <= 0 || (ca_file != NULL && fresh->ca_file == NULL)) {
        // Not kept: the next connection tries again, and reports the same failure if it persists.
        trust_release_locked(fresh);
        pthread_mutex_unlock(&trust_lock);
        return NULL;
    }
    int place = slot >= 0 ? slot : empty >= 0 ? empty : 0;
    trust_release_locked(trust_current[place]);
    fresh->users += 1;
    trust_current[place] = fresh;
    pthread_mutex_unlock(&trust_lock);
    return fresh;
}

// Gives back a connection's use of its trust anchors.
void lhc_trust_return(lhc_trust *trust) {
    if (trust == NULL) return;
    pthread_mutex_lock(&trust_lock);
    trust_release_locked(trust);
    pthread_mutex_unlock(&trust_lock);
}
