/// CCrypto: the keys, signatures, certificate requests and certificate facts that automatic HTTPS needs,
/// and the per-name certificate table the HTTPS listener picks from during each handshake.
///
/// Everything is GnuTLS (already linked for libmicrohttpd's TLS and `linkhost check`), so no OpenSSL.
/// Keys and certificates cross as PEM or DER byte buffers; GnuTLS objects never leave this file, so the
/// Swift side needs no pointers. Every function returns a negative number on failure.
#ifndef CCRYPTO_H
#define CCRYPTO_H

#include <stddef.h>

/// Makes a new ECDSA P-256 private key and writes it as unencrypted PKCS#8 PEM ("PRIVATE KEY") into
/// `pem`. Returns the length written, or -1 (no randomness, or `capacity` too small).
int lhcrypto_generate_p256_key(unsigned char *pem, int capacity);

/// Reads the public point of a P-256 private key (PEM): `x` and `y` get 32 bytes each, left-padded, as
/// a JWK needs them (RFC 7518 §6.2.1). Returns 0, or -1 when the key is not a P-256 key.
int lhcrypto_p256_public_point(const unsigned char *key_pem, int key_length, unsigned char *x, unsigned char *y);

/// Signs `data` with ES256 (ECDSA P-256 over SHA-256) and writes the JWS form of the signature, r and s
/// as 32 bytes each (RFC 7518 §3.4), into `signature` (64 bytes). Returns 0 or -1.
int lhcrypto_sign_es256(const unsigned char *key_pem, int key_length, const unsigned char *data, int data_length,
                        unsigned char *signature);

/// Computes HMAC-SHA256 of `data` under `key` into `mac` (32 bytes), for external account binding
/// (RFC 8555 §7.3.4, HS256). Returns 0 or -1.
int lhcrypto_hmac_sha256(const unsigned char *key, int key_length, const unsigned char *data, int data_length,
                         unsigned char *mac);

/// Computes SHA-256 of `data` into `digest` (32 bytes), for JWK thumbprints (RFC 7638). Returns 0 or -1.
int lhcrypto_sha256(const unsigned char *data, int data_length, unsigned char *digest);

/// Makes a PKCS#10 certificate request signed by the key (PEM) for the DNS names in `names`
/// (NUL-terminated, one per line; the first is also the common name) and writes its DER into `der`.
/// Returns the length written, or -1.
int lhcrypto_make_csr(const unsigned char *key_pem, int key_length, const char *names, unsigned char *der, int capacity);

/// Describes the first certificate of a PEM chain as lines of `key=value` text in `text` (NUL-terminated):
/// notBefore and notAfter (Unix seconds), issuer (the distinguished name), serial and authorityKeyID
/// (lower-case hex; ACME Renewal Information names certificates by them), chain (how many certificates the
/// PEM holds) and one `name=` line per DNS subject alternative name. Returns the text's length, or -1 when
/// the bytes hold no certificate.
int lhcrypto_certificate_facts(const unsigned char *pem, int length, char *text, int capacity);

/// Returns 1 when the private key (PEM) is the key of the chain's first certificate (PEM), 0 when it is
/// another key, -1 when either cannot be read. A stored pair is served only when this says 1.
int lhcrypto_key_matches_certificate(const unsigned char *key_pem, int key_length,
                                     const unsigned char *certificate_pem, int certificate_length);

/// Installs a certificate chain and its key (both PEM) for the DNS names in `names` (NUL-terminated, one
/// per line, matched case-insensitively against SNI), replacing what those names had. With `is_default`
/// set it also answers handshakes without SNI or with a name no entry has. Handshakes that start after
/// this returns use it; running ones keep what they had, because replaced entries are never freed.
/// Returns 0, or -1 when GnuTLS cannot read the pair (the table is then unchanged).
int lhcrypto_sni_install(const char *names, int is_default, const unsigned char *certificate_pem, int certificate_length,
                         const unsigned char *key_pem, int key_length);

/// How many names the table answers for now (for tests and status).
int lhcrypto_sni_count(void);

/// The table's lookup, a `gnutls_certificate_retrieve_function2`, as the untyped pointer that
/// libmicrohttpd's MHD_OPTION_HTTPS_CERT_CALLBACK takes (MHD gives that callback no context pointer, so
/// the table is one per process).
void *lhcrypto_sni_callback(void);

#endif
