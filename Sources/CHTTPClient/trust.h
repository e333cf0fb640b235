// Trust anchors for the client's TLS connections, loaded once and shared (private to CHTTPClient).
#ifndef LHC_TRUST_H
#define LHC_TRUST_H

#include <gnutls/gnutls.h>

/// One loaded set of trust anchors: the system store, or one CA file.
typedef struct lhc_trust {
    gnutls_certificate_credentials_t credentials;
    char *ca_file;                            // NULL for the system store
    long long loaded_ms;
    int users;                                // connections using it, plus one while it is the current set
} lhc_trust;

/// The shared trust anchors of `ca_file` (NULL: the system store); NULL when none load, with `*loaded` the
/// GnuTLS result (GNUTLS_E_MEMORY_ERROR when nothing could be allocated).
lhc_trust *lhc_trust_acquire(const char *ca_file, int *loaded);

/// The monotonic clock in milliseconds (client.c).
long long lhc_now_ms(void);

/// Gives back one connection's use of `trust` (NULL does nothing).
void lhc_trust_return(lhc_trust *trust);

#endif
