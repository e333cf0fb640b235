// The GnuTLS half of automatic HTTPS: P-256 keys, ES256 and HS256 signatures, certificate requests,
// certificate facts, and the per-name certificate table of the HTTPS listener.
#include "CCrypto.h"

#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

// A byte buffer as the datum GnuTLS reads; GnuTLS never writes through it.
static gnutls_datum_t datum_of(const unsigned char *bytes, int length) {
    gnutls_datum_t datum = { (unsigned char *)bytes, length > 0 ? (unsigned)length : 0 };
    return datum;
}

// Reads a PEM private key (PKCS#8 or SEC 1) as the abstract key GnuTLS signs with.
static gnutls_privkey_t import_private_key(const unsigned char *pem, int length) {
    gnutls_privkey_t key = NULL;
    if (gnutls_privkey_init(&key) < 0) return NULL;
    gnutls_datum_t datum = datum_of(pem, length);
    if (gnutls_privkey_import_x509_raw(key, &datum, GNUTLS_X509_FMT_PEM, NULL, 0) < 0) {
        gnutls_privkey_deinit(key);
        return NULL;
    }
    return key;
}

// Writes an unsigned big-endian integer left-padded with zeros into exactly `width` bytes; JWS and
// JWK want fixed-width values where GnuTLS hands out minimal ones. Returns 0, or -1 when it is wider.
static int copy_padded(const gnutls_datum_t *value, unsigned char *out, unsigned width) {
    unsigned start = 0;
    while (start < value->size && value->data[start] == 0) start++;
    unsigned length = value->size - start;
    if (length > width) return -1;
    memset(out, 0, width);
    memcpy(out + (width - length), value->data + start, length);
    return 0;
}

int lhcrypto_generate_p256_key(unsigned char *pem, int capacity) {
    gnutls_x509_privkey_t key = NULL;
    if (gnutls_x509_privkey_init(&key) < 0) return -1;
    int result = -1;
    if (gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA, GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), 0) >= 0) {
        size_t size = capacity > 0 ? (size_t)capacity : 0;
        if (gnutls_x509_privkey_export_pkcs8(key, GNUTLS_X509_FMT_PEM, NULL, GNUTLS_PKCS_PLAIN, pem, &size) >= 0) {
            result = (int)size;
        }
    }
    gnutls_x509_privkey_deinit(key);
    return result;
}

int lhcrypto_p256_public_point(const unsigned char *key_pem, int key_length, unsigned char *x, unsigned char *y) {
    gnutls_privkey_t key = import_private_key(key_pem, key_length);
    if (key == NULL) return -1;
    gnutls_ecc_curve_t curve = GNUTLS_ECC_CURVE_INVALID;
    gnutls_datum_t px = { NULL, 0 }, py = { NULL, 0 };
    int result = -1;
    if (gnutls_privkey_export_ecc_raw2(key, &curve, &px, &py, NULL, GNUTLS_EXPORT_FLAG_NO_LZ) >= 0
        && curve == GNUTLS_ECC_CURVE_SECP256R1
        && copy_padded(&px, x, 32) == 0 && copy_padded(&py, y, 32) == 0) {
        result = 0;
    }
    gnutls_free(px.data);
    gnutls_free(py.data);
    gnutls_privkey_deinit(key);
    return result;
}

int lhcrypto_sign_es256(const unsigned char *key_pem, int key_length, const unsigned char *data, int data_length,
                        unsigned char *signature) {
    gnutls_privkey_t key = import_private_key(key_pem, key_length);
    if (key == NULL) return -1;
    gnutls_datum_t message = datum_of(data, data_length);
    gnutls_datum_t der = { NULL, 0 }, r = { NULL, 0 }, s = { NULL, 0 };
    int result = -1;
    // GnuTLS signs ECDSA as a DER SEQUENCE of two INTEGERs; JWS wants the two values side by side.
    if (gnutls_privkey_sign_data(key, GNUTLS_DIG_SHA256, 0, &message, &der) >= 0
        && gnutls_decode_rs_value(&der, &r, &s) >= 0
        && copy_padded(&r, signature, 32) == 0 && copy_padded(&s, signature + 32, 32) == 0) {
        result = 0;
    }
    gnutls_free(der.data);
    gnutls_free(r.data);
    gnutls_free(s.data);
    gnutls_privkey_deinit(key);
    return result;
}

int lhcrypto_hmac_sha256(const unsigned char *key, int key_length, const unsigned char *data, int data_length,
                         unsigned char *mac) {
    if (key_length < 0 || data_length < 0) return -1;
    return gnutls_hmac_fast(GNUTLS_MAC_SHA256, key, (size_t)key_length, data, (size_t)data_length, mac) < 0 ? -1 : 0;
}

int lhcrypto_sha256(const unsigned char *data, int data_length, unsigned char *digest) {
    if (data_length < 0) return -1;
    return gnutls_hash_fast(GNUTLS_DIG_SHA256, data, (size_t)data_length, digest) < 0 ? -1 : 0;
}

int lhcrypto_make_csr(const unsigned char *key_pem, int key_length, const char *names, unsigned char *der, int capacity) {
    gnutls_privkey_t key = import_private_key(key_pem, key_length);
    if (key == NULL) return -1;
    gnutls_x509_crq_t request = NULL;
    gnutls_pubkey_t public_key = NULL;
    gnutls_datum_t out = { NULL, 0 };
    int result = -1;
    char *copy = strdup(names);
    if (copy == NULL || gnutls_x509_crq_init(&request) < 0 || gnutls_pubkey_init(&public_key) < 0) goto done;
    if (gnutls_x509_crq_set_version(request, 1) < 0) goto done;
    int first = 1;
    for (char *save = NULL, *name = strtok_r(copy, "\n", &save); name != NULL; name = strtok_r(NULL, "\n", &save)) {
        // The CA takes the names from the SANs; the common name only keeps older tools readable.
        if (first && gnutls_x509_crq_set_dn_by_oid(request, GNUTLS_OID_X520_COMMON_NAME, 0, name, (unsigned)strlen(name)) < 0) goto done;
        if (gnutls_x509_crq_set_subject_alt_name(request, GNUTLS_SAN_DNSNAME, name, (unsigned)strlen(name), GNUTLS_FSAN_APPEND) < 0) goto done;
        first = 0;
    }
    if (first) goto done;
    if (gnutls_pubkey_import_privkey(public_key, key, 0, 0) < 0 || gnutls_x509_crq_set_pubkey(request, public_key) < 0) goto done;
    if (gnutls_x509_crq_privkey_sign(request, key, GNUTLS_DIG_SHA256, 0) < 0) goto done;
    if (gnutls_x509_crq_export2(request, GNUTLS_X509_FMT_DER, &out) < 0) goto done;
    if (out.size <= (unsigned)capacity) {
        memcpy(der, out.data, out.size);
        result = (int)out.size;
    }
done:
    gnutls_free(out.data);
    if (public_key != NULL) gnutls_pubkey_deinit(public_key);
    if (request != NULL) gnutls_x509_crq_deinit(request);
    free(copy);
    gnutls_privkey_deinit(key);
    return result;
}

// Reads every certificate of a PEM chain; the caller frees them with free_chain.
static int import_chain(const unsigned char *pem, int length, gnutls_x509_crt_t **list, unsigned *count) {
    gnutls_datum_t datum = datum_of(pem, length);
    *list = NULL;
    *count = 0;
    if (gnutls_x509_crt_list_import2(list, count, &datum, GNUTLS_X509_FMT_PEM, 0) < 0 || *count == 0) return -1;
    return 0;
}

// Frees what import_chain made.
static void free_chain(gnutls_x509_crt_t *list, unsigned count) {
    for (unsigned index = 0; index < count; index++) gnutls_x509_crt_deinit(list[index]);
    gnutls_free(list);
}

// Appends `key=value\n` (the value as hex when `hex`), keeping `text` NUL-terminated; -1 when full.
static int append_line(char *text, int capacity, int *used, const char *key, const unsigned char *value, size_t length, int hex) {
    int needed = (int)strlen(key) + 2 + (int)(hex ? length * 2 : length);
    if (*used + needed + 1 > capacity) return -1;
    *used += snprintf(text + *used, (size_t)(capacity - *used), "%s=", key);
    for (size_t index = 0; index < length; index++) {
        if (hex) {
            *used += snprintf(text + *used, (size_t)(capacity - *used), "%02x", value[index]);
        } else {
            // Names and DNs are printable; a control byte must not start a line of its own.
            text[(*used)++] = (value[index] < 0x20 || value[index] == 0x7f) ? '?' : (char)value[index];
        }
    }
    text[(*used)++] = '\n';
    text[*used] = 0;
    return 0;
}

int lhcrypto_certificate_facts(const unsigned char *pem, int length, char *text, int capacity) {
    if (capacity <= 0) return -1;
    text[0] = 0;
    gnutls_x509_crt_t *chain = NULL;
    unsigned count = 0;
    if (import_chain(pem, length, &chain, &count) != 0) return -1;
    gnutls_x509_crt_t leaf = chain[0];
    int used = 0, failed = 0;
    char number[32];
    snprintf(number, sizeof number, "%lld", (long long)gnutls_x509_crt_get_activation_time(leaf));
    failed |= append_line(text, capacity, &used, "notBefore", (const unsigned char *)number, strlen(number), 0);
    snprintf(number, sizeof number, "%lld", (long long)gnutls_x509_crt_get_expiration_time(leaf));
    failed |= append_line(text, capacity, &used, "notAfter", (const unsigned char *)number, strlen(number), 0);
    snprintf(number, sizeof number, "%u", count);
    failed |= append_line(text, capacity, &used, "chain", (const unsigned char *)number, strlen(number), 0);
    gnutls_datum_t issuer = { NULL, 0 };
    if (gnutls_x509_crt_get_issuer_dn3(leaf, &issuer, 0) >= 0) {
        failed |= append_line(text, capacity, &used, "issuer", issuer.data, issuer.size, 0);
    }
    gnutls_free(issuer.data);
    unsigned char buffer[512];
    size_t size = sizeof buffer;
    if (gnutls_x509_crt_get_serial(leaf, buffer, &size) >= 0) failed |= append_line(text, capacity, &used, "serial", buffer, size, 1);
    size = sizeof buffer;
    unsigned critical = 0;
    if (gnutls_x509_crt_get_authority_key_id(leaf, buffer, &size, &critical) >= 0) {
        failed |= append_line(text, capacity, &used, "authorityKeyID", buffer, size, 1);
    }
    for (unsigned index = 0;; index++) {
        char name[256];
        size = sizeof name - 1;
        int type = gnutls_x509_crt_get_subject_alt_name(leaf, index, name, &size, &critical);
        if (type == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE) break;
        if (type == GNUTLS_SAN_DNSNAME) failed |= append_line(text, capacity, &used, "name", (const unsigned char *)name, size, 0);
        // Other kinds (addresses, e-mail) and over-long entries are not names linkhost serves.
    }
    free_chain(chain, count);
    return failed ? -1 : used;
}

int lhcrypto_key_matches_certificate(const unsigned char *key_pem, int key_length,
                                     const unsigned char *certificate_pem, int certificate_length) {
    gnutls_x509_crt_t *chain = NULL;
    unsigned count = 0;
    if (import_chain(certificate_pem, certificate_length, &chain, &count) != 0) return -1;
    gnutls_x509_privkey_t key = NULL;
    gnutls_datum_t datum = datum_of(key_pem, key_length);
    int result = -1;
    if (gnutls_x509_privkey_init(&key) >= 0 && gnutls_x509_privkey_import2(key, &datum, GNUTLS_X509_FMT_PEM, NULL, 0) >= 0) {
        unsigned char key_id[64], certificate_id[64];
        size_t key_size = sizeof key_id, certificate_size = sizeof certificate_id;
        if (gnutls_x509_privkey_get_key_id(key, GNUTLS_KEYID_USE_SHA256, key_id, &key_size) >= 0
            && gnutls_x509_crt_get_key_id(chain[0], GNUTLS_KEYID_USE_SHA256, certificate_id, &certificate_size) >= 0) {
            result = key_size == certificate_size && memcmp(key_id, certificate_id, key_size) == 0;
        }
    }
    if (key != NULL) gnutls_x509_privkey_deinit(key);
    free_chain(chain, count);
    return result;
}

// ---- The per-name certificate table ---------------------------------------------------------------

// Most certificates in one chain: a leaf and a few intermediates.
#define LHCRYPTO_CHAIN_LIMIT 8

// One installed chain and key. Never freed once installed: libmicrohttpd gives no signal when the last
// handshake that was handed it ends, and a renewal every few weeks keeps a few kilobytes more.
struct lhcrypto_credential {
    gnutls_pcert_st certificates[LHCRYPTO_CHAIN_LIMIT];
    unsigned count;
    gnutls_privkey_t key;
};

// One SNI name and the credential it answers with.
struct lhcrypto_entry {
    char *name;
    struct lhcrypto_credential *credential;
};

static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct lhcrypto_entry *table;
static size_t table_count, table_capacity;
static struct lhcrypto_credential *default_credential;

// Reads a chain and key into a new credential; NULL when GnuTLS refuses them or they are no pair.
static struct lhcrypto_credential *make_credential(const unsigned char *certificate_pem, int certificate_length,
                                                   const unsigned char *key_pem, int key_length) {
    if (lhcrypto_key_matches_certificate(key_pem, key_length, certificate_pem, certificate_length) != 1) return NULL;
    struct lhcrypto_credential *credential = calloc(1, sizeof *credential);
    if (credential == NULL) return NULL;
    gnutls_datum_t chain = datum_of(certificate_pem, certificate_length);
    credential->count = LHCRYPTO_CHAIN_LIMIT;
    if (gnutls_pcert_list_import_x509_raw(credential->certificates, &credential->count, &chain, GNUTLS_X509_FMT_PEM, 0) < 0) {
        free(credential);
        return NULL;
    }
    credential->key = import_private_key(key_pem, key_length);
    if (credential->key == NULL) {
        for (unsigned index = 0; index < credential->count; index++) gnutls_pcert_deinit(&credential->certificates[index]);
        free(credential);
        return NULL;
    }
    return credential;
}

// Points `name` at `credential`, adding the entry when the name is new. Called with the write lock held.
static int set_entry(const char *name, struct lhcrypto_credential *credential) {
    for (size_t index = 0; index < table_count; index++) {
        if (strcasecmp(table[index].name, name) == 0) {
            table[index].credential = credential;
            return 0;
        }
    }
    if (table_count == table_capacity) {
        size_t capacity = table_capacity ? table_capacity * 2 : 8;
        struct lhcrypto_entry *grown = realloc(table, capacity * sizeof *grown);
        if (grown == NULL) return -1;
        table = grown;
        table_capacity = capacity;
    }
    char *copy = strdup(name);
    if (copy == NULL) return -1;
    table[table_count].name = copy;
    table[table_count].credential = credential;
    table_count++;
    return 0;
}

int lhcrypto_sni_install(const char *names, int is_default, const unsigned char *certificate_pem, int certificate_length,
                         const unsigned char *key_pem, int key_length) {
    struct lhcrypto_credential *credential = make_credential(certificate_pem, certificate_length, key_pem, key_length);
    if (credential == NULL) return -1;
    char *copy = strdup(names);
    if (copy == NULL) return -1;
    int result = 0;
    pthread_rwlock_wrlock(&table_lock);
    for (char *save = NULL, *name = strtok_r(copy, "\n", &save); name != NULL; name = strtok_r(NULL, "\n", &save)) {
        if (set_entry(name, credential) != 0) result = -1;
    }
    // Until the default site has a certificate, a handshake without SNI gets the first one installed.
    if (is_default || default_credential == NULL) default_credential = credential;
    pthread_rwlock_unlock(&table_lock);
    free(copy);
    return result;
}

int lhcrypto_sni_count(void) {
    pthread_rwlock_rdlock(&table_lock);
    int count = (int)table_count;
    pthread_rwlock_unlock(&table_lock);
    return count;
}

// GnuTLS asks this for the server's certificate during each handshake: the entry of the SNI name, else the
// default. Failing (no certificate yet) ends the handshake with an alert, which is all a client can get then.
static int lhcrypto_retrieve(gnutls_session_t session, const gnutls_datum_t *request_ca_names, int request_count,
                             const gnutls_pk_algorithm_t *algorithms, int algorithm_count,
                             gnutls_pcert_st **certificates, unsigned int *certificate_count, gnutls_privkey_t *key) {
    (void)request_ca_names; (void)request_count; (void)algorithms; (void)algorithm_count;
    char name[256];
    size_t size = sizeof name;
    unsigned type = 0;
    int has_name = gnutls_server_name_get(session, name, &size, &type, 0) == 0 && type == GNUTLS_NAME_DNS && size < sizeof name;
    if (has_name) {
        name[size] = 0;
        // "links.example.com." names the same host as "links.example.com".
        if (size > 1 && name[size - 1] == '.') name[size - 1] = 0;
    }
    pthread_rwlock_rdlock(&table_lock);
    struct lhcrypto_credential *found = NULL;
    for (size_t index = 0; has_name && index < table_count && found == NULL; index++) {
        if (strcasecmp(table[index].name, name) == 0) found = table[index].credential;
    }
    if (found == NULL) found = default_credential;
    pthread_rwlock_unlock(&table_lock);
    if (found == NULL) return -1;
    *certificates = found->certificates;
    *certificate_count = found->count;
    *key = found->key;
    return 0;
}

void *lhcrypto_sni_callback(void) {
    return (void *)lhcrypto_retrieve;
}
