/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastsm2 -- SM2 (GB/T 32918), SM3 (GB/T 32905) and SM4 (GB/T 32907) in C11.
 *
 * Conventions (read these once, they hold for every function below):
 *  - Every function returns FASTSM2_OK (1) on success and a negative
 *    FASTSM2_ERR_* code on failure, EXCEPT fastsm2_verify() and
 *    fastsm2_verify_digest(), which return exactly 1 (valid) or 0 (anything
 *    else) so that `if (fastsm2_verify(...))` can never accept a forgery.
 *    Their *_status() twins return the named reason.
 *  - Every function that returns an int is declared FASTSM2_WARN_UNUSED
 *    (warn_unused_result with GCC and clang): a status left unchecked is a
 *    compiler warning.
 *  - Argument order: outputs first, then inputs; a length follows its pointer.
 *  - Variable-size outputs take (out, size_t *outlen): on entry *outlen is the
 *    capacity of out, on success the number of bytes written. On failure the
 *    whole capacity of out is zeroed and *outlen is set to 0.
 *  - Fixed-size outputs (signatures, digests, keys) are zeroed on failure.
 *  - Object types are opaque, fixed-size, and may live on the stack. They hold
 *    no pointers and no resources: copying with memcpy is fine, and
 *    fastsm2_privkey_clear() wipes a private key.
 *  - Objects are immutable once made, except through the *_set_id functions;
 *    a key may be used by many threads at once if nobody calls *_set_id.
 *  - Scalars and field elements in byte form are 32-byte big-endian.
 */
#ifndef FASTSM2_H
#define FASTSM2_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(FASTSM2_SHARED_BUILD)
#define FASTSM2_API __declspec(dllexport)
#elif defined(__GNUC__)
#define FASTSM2_API __attribute__((visibility("default")))
#else
#define FASTSM2_API
#endif

#if defined(__GNUC__)
#define FASTSM2_WARN_UNUSED __attribute__((warn_unused_result))
#else
#define FASTSM2_WARN_UNUSED
#endif

#define FASTSM2_VERSION_STRING "0.3.0"

/* ------------------------------------------------------------------------ */
/* Status codes                                                              */
/* ------------------------------------------------------------------------ */

#define FASTSM2_OK                   1
#define FASTSM2_ERR_ARG              (-1)  /* NULL pointer or meaningless argument */
#define FASTSM2_ERR_BUFFER_TOO_SMALL (-2)  /* output capacity too small */
#define FASTSM2_ERR_DER              (-3)  /* malformed or non-strict DER */
#define FASTSM2_ERR_PEM              (-4)  /* malformed PEM armour or base64 */
#define FASTSM2_ERR_LENGTH           (-5)  /* input of a wrong length */
#define FASTSM2_ERR_SIG_RANGE        (-6)  /* r or s = 0, >= n, or r + s = n */
#define FASTSM2_ERR_PRIVATE_KEY      (-7)  /* d = 0 or d >= n - 1 */
#define FASTSM2_ERR_POINT            (-8)  /* bad encoding, off the curve, infinity */
#define FASTSM2_ERR_BAD_SIGNATURE    (-9)  /* well-formed but does not verify */
#define FASTSM2_ERR_DECRYPT          (-10) /* C3 check failed: no plaintext released */
#define FASTSM2_ERR_CIPHERTEXT       (-11) /* truncated or malformed ciphertext */
#define FASTSM2_ERR_ID               (-12) /* ID longer than 8191 bytes */
#define FASTSM2_ERR_RANDOM           (-13) /* the OS CSPRNG failed */
#define FASTSM2_ERR_KEY_FORMAT       (-14) /* key file of an unknown algorithm/curve */
#define FASTSM2_ERR_KDF_ZERO         (-15) /* KDF output all zero (GB/T 32918.4 6.1 A5) */
#define FASTSM2_ERR_NO_MEMORY        (-16) /* allocation failed */
#define FASTSM2_ERR_CONFIRM          (-17) /* key exchange confirmation mismatch */
#define FASTSM2_ERR_STATE            (-18) /* call out of order (key exchange) */
#define FASTSM2_ERR_UNSUPPORTED      (-19) /* feature not built in (e.g. CUDA) */
#define FASTSM2_ERR_SCALAR           (-20) /* a nonce or scalar out of [1, n-1] */
#define FASTSM2_ERR_ENCRYPTED_KEY    (-21) /* an encrypted key file: give the password */
#define FASTSM2_ERR_PASSWORD         (-22) /* wrong password, or a corrupted encrypted key */
#define FASTSM2_ERR_KEY_CIPHER       (-23) /* encrypted with a scheme not read (PBES1, legacy PEM) */
#define FASTSM2_ERR_CURVE            (-24) /* a key on another curve than sm2p256v1 */
#define FASTSM2_ERR_CERTIFICATE      (-25) /* a certificate where a key was expected */
#define FASTSM2_ERR_TOO_LARGE        (-26) /* input larger than any key file or certificate */
#define FASTSM2_ERR_ITERATIONS       (-27) /* a key file's PBKDF2 iteration count above the reader's limit */
#define FASTSM2_ERR_TAG              (-28) /* authentication tag mismatch: no plaintext released */
#define FASTSM2_ERR_PADDING          (-29) /* bad padding after decryption */
#define FASTSM2_ERR_IV               (-30) /* IV or nonce of a wrong length */
#define FASTSM2_ERR_PUBLIC_KEY       (-31) /* a public key where a private key was expected */
/* Certificates, requests and CMS (the reasons a chain is refused, too) */
#define FASTSM2_ERR_NOT_YET_VALID    (-32) /* a certificate not valid yet at the time checked */
#define FASTSM2_ERR_EXPIRED          (-33) /* a certificate expired at the time checked */
#define FASTSM2_ERR_NOT_CA           (-34) /* an issuer without basicConstraints cA */
#define FASTSM2_ERR_PATH_LENGTH      (-35) /* more CAs below an issuer than its pathLenConstraint allows */
#define FASTSM2_ERR_KEY_USAGE        (-36) /* keyUsage or extendedKeyUsage does not allow this use */
#define FASTSM2_ERR_ISSUER           (-37) /* no issuer found, or the chain ends at a certificate not trusted */
#define FASTSM2_ERR_CHAIN_LOOP       (-38) /* a chain that comes back to a certificate already in it */
#define FASTSM2_ERR_CRITICAL         (-39) /* a critical extension that is not understood */
#define FASTSM2_ERR_NAME             (-40) /* a malformed name, subjectAltName or OID string */
#define FASTSM2_ERR_ALGORITHM        (-41) /* an algorithm other than SM2, SM3, SM4 where one is needed */
#define FASTSM2_ERR_DIGEST           (-42) /* the content's digest differs from the signed one (CMS) */
#define FASTSM2_ERR_RECIPIENT        (-43) /* no recipient of an enveloped message matches the key */
/** The lowest status code defined: every code from -1 down to it has a
 *  name (fastsm2_error_name); codes are only ever added below it. */
#define FASTSM2_ERR_LAST             FASTSM2_ERR_RECIPIENT

/** Name and one-line description of a status code, e.g.
 *  "FASTSM2_ERR_DER: malformed or non-strict DER". Never NULL. (Library
 *  utility: no GB/T clause.) */
FASTSM2_API const char *fastsm2_strerror(int status);

/** Short name of the code alone, e.g. "FASTSM2_ERR_DER". Never NULL.
 *  (Library utility: no GB/T clause.) */
FASTSM2_API const char *fastsm2_error_name(int status);

/** Library version string. (Library utility: no GB/T clause.) */
FASTSM2_API const char *fastsm2_version(void);

/** Name of the backend chosen at start-up ("generic", "avx512", ...): a
 *  pair of implementations, one of the curve arithmetic and one of SM3.
 *  Set FASTSM2_CPU=<name> in the environment to pin one, both its halves
 *  (docs/ARCHITECTURE.md). (Library utility: no GB/T clause; every backend
 *  computes GB/T 32918.1 clause 3's curve arithmetic.) */
FASTSM2_API const char *fastsm2_backend_name(void);

/** Name of the i-th backend this CPU can run (i = 0, 1, ...), NULL past the
 *  last: the names FASTSM2_CPU accepts here. (Library utility: no GB/T
 *  clause.) */
FASTSM2_API const char *fastsm2_backend_available(size_t i);

/* ------------------------------------------------------------------------ */
/* SM3, GB/T 32905-2016                                                      */
/* ------------------------------------------------------------------------ */

#define FASTSM2_SM3_DIGEST_SIZE 32
#define FASTSM2_SM3_BLOCK_SIZE  64

/** Streaming SM3 state (GB/T 32905 clause 5). Opaque. */
typedef struct {
    uint64_t opaque[14];
} fastsm2_sm3_ctx;

/** GB/T 32905 5.1: start a hash (IV). */
FASTSM2_API void fastsm2_sm3_init(fastsm2_sm3_ctx *ctx);
/** GB/T 32905 5.2-5.3: absorb len bytes. */
FASTSM2_API void fastsm2_sm3_update(fastsm2_sm3_ctx *ctx, const void *data, size_t len);
/** GB/T 32905 5.2 padding and 5.3 output: write the 32-byte digest and
 *  wipe ctx (init again to reuse it). */
FASTSM2_API void fastsm2_sm3_final(unsigned char out[32], fastsm2_sm3_ctx *ctx);
/** GB/T 32905 clause 5: one-shot SM3 of len bytes. */
FASTSM2_API void fastsm2_sm3(unsigned char out[32], const void *data, size_t len);

/** GB/T 32918.4-2016 5.4.3: the SM3 key derivation function
 *  K = SM3(Z||ct=1) || SM3(Z||ct=2) || ... truncated to outlen bytes.
 *  Returns FASTSM2_OK, or FASTSM2_ERR_ARG. (It does not reject an all-zero
 *  output; encryption does.) */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_kdf(unsigned char *out, size_t outlen, const void *z, size_t zlen);

/** HMAC-SM3: HMAC (RFC 2104) with SM3 (GB/T 32905 clause 5) as its hash,
 *  block 64 bytes, output 32 bytes; what `openssl dgst -sm3 -hmac KEY`
 *  computes. Opaque; holds the key's pads until final (which wipes it). */
typedef struct {
    uint64_t opaque[32];
} fastsm2_hmac_sm3_ctx;

/** GB/T 32905 clause 5 in RFC 2104 HMAC: start a MAC under key (keylen
 *  bytes, any length; longer than 64 bytes it is hashed first). FASTSM2_OK,
 *  or FASTSM2_ERR_ARG for a NULL ctx or a NULL key with keylen != 0. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_hmac_sm3_init(fastsm2_hmac_sm3_ctx *ctx, const void *key, size_t keylen);
/** GB/T 32905 clause 5 (HMAC-SM3): absorb len bytes. */
FASTSM2_API void fastsm2_hmac_sm3_update(fastsm2_hmac_sm3_ctx *ctx, const void *data, size_t len);
/** GB/T 32905 clause 5 (HMAC-SM3): write the 32-byte MAC and wipe ctx. */
FASTSM2_API void fastsm2_hmac_sm3_final(unsigned char out[32], fastsm2_hmac_sm3_ctx *ctx);
/** GB/T 32905 clause 5 (HMAC-SM3, RFC 2104): one-shot MAC of msg under key.
 *  FASTSM2_OK or FASTSM2_ERR_ARG (out zeroed). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_hmac_sm3(unsigned char out[32], const void *key, size_t keylen,
                                                     const void *msg, size_t msglen);

/* ------------------------------------------------------------------------ */
/* Keys, GB/T 32918.1-2016 clause 6                                         */
/* ------------------------------------------------------------------------ */

/** Default signer ID of GB/T 32918.2 / GM/T 0009: "1234567812345678". */
#define FASTSM2_DEFAULT_ID     "1234567812345678"
#define FASTSM2_DEFAULT_ID_LEN 16
/** Longest ID: ENTL is a 16-bit count of bits (GB/T 32918.2 5.5). */
#define FASTSM2_MAX_ID_LEN     8191
/** Signer IDs. Every call that takes (id, idlen) reads them the same way:
 *   - id NULL, idlen 0: the key's ID (the default ID unless set_id chose
 *     another), with its cached Z_A;
 *   - id non-NULL, idlen 0: the EMPTY ID: Z_A over ENTL = 0 and no ID bytes.
 *     OpenSSL 3.x hashes this when no distinguishing ID is set (EVP_PKEY_CTX_set1_id
 *     not called, no -sigopt distid:...; OpenSSL 4.0 takes the default ID
 *     then, and the empty one as -sigopt distid:), and so do some Java and
 *     JavaScript libraries; GB/T 32918.2 itself always names an ID;
 *   - id non-NULL, idlen 1..8191: that ID;
 *   - idlen over 8191: FASTSM2_ERR_ID; id NULL with idlen != 0: FASTSM2_ERR_ARG.
 *  For example fastsm2_sign(sig, key, "", 0, msg, len) signs as OpenSSL does
 *  with no ID set. */
/** IDs up to this length are kept in the key and their Z_A cached. */
#define FASTSM2_CACHED_ID_MAX  128

/** A private key d in [1, n-2], its public key, Z_A for one ID (the
 *  default ID unless set) and (1+d)^-1 mod n, all made with the key: no call
 *  writes to a key it takes as const (one may sit in read-only memory, and
 *  be shared by threads and copied freely). Opaque. */
typedef struct {
    uint64_t opaque[48];
} fastsm2_privkey;

/** A validated public key (on the curve, not infinity) with Z_A for one ID
 *  (the default unless set), made with the key, and, once
 *  fastsm2_pubkey_precompute made them, multiples of P and 2^128 P (2 KB)
 *  that halve the doublings of each verification and encryption. No call
 *  writes to a key it takes as const. Opaque; copy it while no thread is
 *  in fastsm2_pubkey_precompute or fastsm2_pubkey_set_id on it. */
typedef struct {
    uint64_t opaque[288];
} fastsm2_pubkey;

/** GB/T 32918.1 6.1: generate a key pair, d uniform in [1, n-2] from the
 *  library's generator (a per-thread ChaCha20 generator seeded from the OS
 *  CSPRNG, getrandom; fresh after fork). FASTSM2_ERR_RANDOM if the OS fails. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_privkey_generate(fastsm2_privkey *key);

/** GB/T 32918.1 6.1: load d (32 bytes big-endian). FASTSM2_ERR_PRIVATE_KEY
 *  when d = 0 or d >= n-1. Computes P = dG, (1+d)^-1 (for signing) and Z_A
 *  of the default ID. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_privkey_from_bytes(fastsm2_privkey *key, const unsigned char d[32]);

/** Write d as 32 bytes big-endian (GB/T 32918.1 4.2.7, integer to octet
 *  string). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_privkey_to_bytes(unsigned char d[32], const fastsm2_privkey *key);

/** The public key P = dG of a private key (with the same ID); GB/T 32918.1
 *  clause 6.1. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_privkey_pubkey(fastsm2_pubkey *pub, const fastsm2_privkey *key);

/** Wipe a private key. (Library utility: no GB/T clause.) */
FASTSM2_API void fastsm2_privkey_clear(fastsm2_privkey *key);

/** GB/T 32918.1 6.2 and 4.2.9: load and validate a SEC1 point: 04||x||y
 *  (65 bytes), 02/03||x (33 bytes), or the hybrid 06/07||x||y of 4.2.10
 *  (the prefix's parity must match y's; fastsm2 never writes one).
 *  FASTSM2_ERR_POINT for a point off the curve, at infinity, with
 *  coordinates >= p, a hybrid prefix that does not match y, or a bad prefix;
 *  FASTSM2_ERR_LENGTH for another length. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_pubkey_from_bytes(fastsm2_pubkey *pub, const unsigned char *in,
                                                              size_t inlen);

/** Make the key's tables of multiples of P and 2^128 P (about half a
 *  verification's time), which every later verification (GB/T 32918.2
 *  clause 7.1 B6) and encryption (GB/T 32918.4 clause 6.1 A4) with this key
 *  uses: worth it for a key used more than twice. Without them the key
 *  works as well, a little slower. Safe while other threads verify or
 *  encrypt with the key (they use the tables once complete); a second call
 *  does nothing. FASTSM2_OK, or FASTSM2_ERR_ARG. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_pubkey_precompute(fastsm2_pubkey *pub);

/** GB/T 32918.1 4.2.9: SEC1 encoding, 65 bytes (04||x||y), or 33 bytes
 *  (02/03||x) when compressed is non-zero. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_pubkey_to_bytes(unsigned char *out, size_t *outlen,
                                                            const fastsm2_pubkey *pub, int compressed);

/** Set the signer ID whose Z_A the key caches (GB/T 32918.2 5.5), and make
 *  that Z_A. The ID is 0..8191 bytes (FASTSM2_ERR_ID otherwise; id non-NULL
 *  with idlen 0 is the empty ID, see FASTSM2_MAX_ID_LEN); id NULL is
 *  FASTSM2_ERR_ARG. Not while other threads use the key. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_privkey_set_id(fastsm2_privkey *key, const void *id, size_t idlen);
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_pubkey_set_id(fastsm2_pubkey *pub, const void *id, size_t idlen);

/** GB/T 32918.2 5.5: Z_A = SM3(ENTL || ID || a || b || xG || yG || xA || yA).
 *  id NULL (idlen 0) means the key's current ID; id non-NULL with idlen 0
 *  the empty ID; id NULL with idlen != 0 is FASTSM2_ERR_ARG, as in every
 *  call that takes an ID (see FASTSM2_MAX_ID_LEN). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_compute_z(unsigned char z[32], const fastsm2_pubkey *pub, const void *id,
                                                      size_t idlen);

/* ------------------------------------------------------------------------ */
/* Key files: PKCS#8 / SEC1 private keys, SPKI public keys, PEM or DER       */
/* ------------------------------------------------------------------------ */

/** Parse a private key file (the key of GB/T 32918.1 clause 6.1; formats of
 *  PKCS#8 / RFC 5915): PEM ("PRIVATE KEY", "EC PRIVATE KEY") or DER,
 *  PKCS#8 or SEC1 (RFC 5915), with the curve sm2p256v1 named by the
 *  id-ecPublicKey + sm2p256v1 or the SM2 algorithm OID. Strict DER.
 *  Errors: FASTSM2_ERR_PEM, FASTSM2_ERR_DER, FASTSM2_ERR_KEY_FORMAT (another
 *  algorithm, or curve parameters given explicitly), FASTSM2_ERR_CURVE
 *  (another named curve, e.g. P-256), FASTSM2_ERR_PRIVATE_KEY,
 *  FASTSM2_ERR_POINT (an embedded public key that does not match d),
 *  FASTSM2_ERR_ENCRYPTED_KEY (an encrypted PKCS#8 key: use
 *  fastsm2_privkey_parse_encrypted), FASTSM2_ERR_PUBLIC_KEY (a public key
 *  file, PEM or DER SPKI), FASTSM2_ERR_CERTIFICATE (a certificate), FASTSM2_ERR_KEY_CIPHER (a legacy
 *  "Proc-Type: 4,ENCRYPTED" PEM key), FASTSM2_ERR_TOO_LARGE (a PEM body
 *  over 4 KiB: no key file is that large). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_privkey_parse(fastsm2_privkey *key, const unsigned char *in, size_t inlen);

/** Parse a public key file: SPKI in PEM ("PUBLIC KEY") or DER, with the
 *  id-ecPublicKey+sm2p256v1 or SM2 OID; a bare SEC1 point is accepted too.
 *  The point is validated as GB/T 32918.1 clause 6.2 requires. An X.509
 *  certificate is FASTSM2_ERR_CERTIFICATE (read it with
 *  fastsm2_pubkey_parse_certificate); another curve FASTSM2_ERR_CURVE. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_pubkey_parse(fastsm2_pubkey *pub, const unsigned char *in, size_t inlen);

/** The public key of an X.509 certificate (RFC 5280 4.1, PEM "CERTIFICATE"
 *  or DER; the first one of a PEM chain): its SubjectPublicKeyInfo, which
 *  must name sm2p256v1, and whose point is validated as GB/T 32918.1 clause
 *  6.2 requires. THE CERTIFICATE ITSELF IS NOT VERIFIED: neither its
 *  signature, nor its validity dates, nor its issuer; it is read as a
 *  container of a public key, like a key file. FASTSM2_ERR_DER for a
 *  malformed certificate, FASTSM2_ERR_CURVE / FASTSM2_ERR_KEY_FORMAT for a
 *  key of another curve or algorithm, FASTSM2_ERR_POINT, FASTSM2_ERR_PEM,
 *  FASTSM2_ERR_TOO_LARGE (over 64 KiB). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_pubkey_parse_certificate(fastsm2_pubkey *pub, const unsigned char *in,
                                                                     size_t inlen);

#define FASTSM2_KEYFMT_PKCS8 0 /* PKCS#8 PrivateKeyInfo (what openssl genpkey writes) */
#define FASTSM2_KEYFMT_SEC1  1 /* RFC 5915 ECPrivateKey ("EC PRIVATE KEY") */
#define FASTSM2_KEYFMT_DER   0 /* binary */
#define FASTSM2_KEYFMT_PEM   2 /* base64 armour, NUL-terminated in out (not counted) */

/** Write a private key (GB/T 32918.1 clause 6.1): fmt = (PKCS8 or SEC1) |
 *  (DER or PEM). The curve is named id-ecPublicKey + sm2p256v1, as OpenSSL 3
 *  and GmSSL 3 write it. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_privkey_serialize(unsigned char *out, size_t *outlen,
                                                              const fastsm2_privkey *key, int fmt);
/* Password-based encryption schemes for private key files: RFC 8018 PBES2
 * with PBKDF2 (5.2) and a CBC cipher, inside PKCS#8 EncryptedPrivateKeyInfo
 * (RFC 5958 clause 3), PEM label "ENCRYPTED PRIVATE KEY". */
#define FASTSM2_PBE_SM3_SM4            1 /* PRF hmacWithSM3, SM4-CBC (GB/T 32907): what gmssl sm2keygen writes */
#define FASTSM2_PBE_SHA256_SM4         2 /* hmacWithSHA256, SM4-CBC: openssl genpkey -sm4-cbc */
#define FASTSM2_PBE_SHA256_AES256      3 /* hmacWithSHA256, AES-256-CBC: openssl genpkey -aes-256-cbc */
/** The PBKDF2 iteration count written when the caller gives 0 (GmSSL 3's). */
#define FASTSM2_PBE_DEFAULT_ITERATIONS 65536
/** The most iterations a key file may ask for when read, unless the caller
 *  raises the limit (fastsm2_privkey_parse_encrypted_limit), and the most
 *  written. More is FASTSM2_ERR_ITERATIONS: a hostile file must not make a
 *  reader spin. 2^21 reads what OpenSSL (2048), GmSSL (65536) and current
 *  guidance for PBKDF2-HMAC-SHA256 (600,000) write, and bounds one load to
 *  about 0.9 s of CPU (0.43 us an iteration with HMAC-SHA256, 0.30 us with
 *  HMAC-SM3, measured on an AMD EPYC; docs/INTEROP.md). */
#define FASTSM2_PBE_MAX_ITERATIONS     2097152
/** Bytes that always hold an encrypted private key, DER or PEM. */
#define FASTSM2_PRIVKEY_ENCRYPTED_MAX  512

/** Parse a password-encrypted PKCS#8 private key (GB/T 32918.1 clause 6.1
 *  key; RFC 8018 PBES2 in RFC 5958 EncryptedPrivateKeyInfo), PEM or DER,
 *  in any of the FASTSM2_PBE_* schemes, whatever its iteration count up to
 *  FASTSM2_PBE_MAX_ITERATIONS (more: FASTSM2_ERR_ITERATIONS). The password is passlen bytes (no NUL
 *  needed), as the user typed it. An unencrypted key file is read as
 *  fastsm2_privkey_parse reads it (the password is then not used).
 *  Errors: FASTSM2_ERR_PASSWORD (wrong password or a corrupted ciphertext:
 *  the two cannot be told apart), FASTSM2_ERR_KEY_CIPHER (PBES1, a PRF
 *  other than hmacWithSM3 / hmacWithSHA256, a cipher other than SM4-CBC /
 *  AES-256-CBC, a legacy "Proc-Type: 4,ENCRYPTED" PEM key), and those of
 *  fastsm2_privkey_parse. The derived key and the plaintext are wiped. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_privkey_parse_encrypted(fastsm2_privkey *key, const unsigned char *in,
                                                                    size_t inlen, const void *password, size_t passlen);

/** fastsm2_privkey_parse_encrypted (a GB/T 32918.1 clause 6.1 key) with
 *  the reader's limit on the PBKDF2 iteration count (RFC 8018 5.2) chosen
 *  by the caller: max_iterations 0
 *  means FASTSM2_PBE_MAX_ITERATIONS; any count up to 2^32 - 1 may be
 *  allowed (each iteration costs two hash compressions). A file asking for
 *  more is FASTSM2_ERR_ITERATIONS, before any PBKDF2 work. *iterations
 *  (when not NULL) receives the file's count whenever the file is an
 *  encrypted key whose parameters parse, 0 otherwise, so that an error can
 *  name it. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_privkey_parse_encrypted_limit(fastsm2_privkey *key, const unsigned char *in,
                                                                          size_t inlen, const void *password,
                                                                          size_t passlen, uint32_t max_iterations,
                                                                          uint32_t *iterations);

/** Asked for a key file's password: write it into buf (at most cap bytes,
 *  no NUL needed), its length into *len, and return 1; anything else gives
 *  up. The library wipes buf after use. */
typedef int (*fastsm2_password_cb)(void *buf, size_t cap, size_t *len, void *arg);

/** The most bytes a password callback may write. */
#define FASTSM2_PASSWORD_MAX 1024

/** Parse a private key file, encrypted or not, in one pass (GB/T 32918.1
 *  clause 6.1 key; RFC 5958 / RFC 8018 when encrypted): cb is called, with
 *  arg, only when the file is an encrypted key whose parameters parse and
 *  whose iteration count is within max_iterations (0: the default limit),
 *  so that a prompt is shown only when a password is needed. A callback
 *  that gives up (or cb NULL) makes FASTSM2_ERR_ENCRYPTED_KEY. Errors and
 *  *iterations as fastsm2_privkey_parse_encrypted_limit's. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_privkey_parse_cb(fastsm2_privkey *key, const unsigned char *in,
                                                             size_t inlen, fastsm2_password_cb cb, void *arg,
                                                             uint32_t max_iterations, uint32_t *iterations);

/** Write a private key (GB/T 32918.1 clause 6.1) as password-encrypted
 *  PKCS#8: fmt = FASTSM2_KEYFMT_DER or FASTSM2_KEYFMT_PEM; scheme one of
 *  FASTSM2_PBE_*; iterations 0 for FASTSM2_PBE_DEFAULT_ITERATIONS. Salt
 *  (16 bytes) and IV come from the library's generator. The inner key is
 *  PKCS#8 with the curve named in ECPrivateKey too, which GmSSL 3 requires.
 *  FASTSM2_ERR_ARG (bad fmt or scheme, NULL password with passlen != 0),
 *  FASTSM2_ERR_BUFFER_TOO_SMALL, FASTSM2_ERR_RANDOM. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_privkey_serialize_encrypted(unsigned char *out, size_t *outlen,
                                                                        const fastsm2_privkey *key, int fmt, int scheme,
                                                                        uint32_t iterations, const void *password,
                                                                        size_t passlen);

/** Write a public key as SPKI: fmt = FASTSM2_KEYFMT_DER or _PEM; the point
 *  uncompressed (GB/T 32918.1 4.2.9). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_pubkey_serialize(unsigned char *out, size_t *outlen,
                                                             const fastsm2_pubkey *pub, int fmt);

/* ------------------------------------------------------------------------ */
/* Signatures, GB/T 32918.2-2016                                             */
/* ------------------------------------------------------------------------ */

#define FASTSM2_SIG_RAW_SIZE 64 /* r || s */
#define FASTSM2_SIG_DER_MAX  72 /* SEQUENCE { INTEGER r, INTEGER s } */

/** GB/T 32918.2 6.1: sign msg: e = SM3(Z_A || msg), then A3-A7 with a fresh
 *  k from the OS CSPRNG. id NULL (idlen 0) means the key's ID (cached Z_A;
 *  id NULL with idlen != 0 is FASTSM2_ERR_ARG); id non-NULL with idlen 0 is
 *  the empty ID (OpenSSL's choice when no ID is set); any other ID is
 *  hashed unless it equals the cached one. Output raw r || s. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sign(unsigned char sig[64], const fastsm2_privkey *key, const void *id,
                                                 size_t idlen, const void *msg, size_t msglen);

/** GB/T 32918.2 6.1 A3-A7 on a given digest e (32 bytes). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sign_digest(unsigned char sig[64], const fastsm2_privkey *key,
                                                        const unsigned char e[32]);

/** GB/T 32918.2 6.1 A4-A7 with a caller-chosen nonce k (A3) in [1, n-1]
 *  (FASTSM2_ERR_SCALAR otherwise). FOR TESTS AND KNOWN ANSWERS ONLY: a
 *  repeated or predictable k reveals the private key. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sign_digest_with_nonce(unsigned char sig[64], const fastsm2_privkey *key,
                                                                   const unsigned char e[32],
                                                                   const unsigned char k[32]);

/** GB/T 32918.2 7.1: verify a raw r || s signature on msg. Returns 1 if the
 *  signature is valid and 0 in every other case (never a negative value). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_verify(const fastsm2_pubkey *pub, const void *id, size_t idlen,
                                                   const void *msg, size_t msglen, const unsigned char sig[64]);

/** GB/T 32918.2 7.1 B3-B7 on a digest e. Returns 1 or 0, as above. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_verify_digest(const fastsm2_pubkey *pub, const unsigned char e[32],
                                                          const unsigned char sig[64]);

/** GB/T 32918.2 clause 7.1, as fastsm2_verify, returning FASTSM2_OK for a
 *  valid signature or the named reason: FASTSM2_ERR_SIG_RANGE (B1, B2, B5: r or s not in [1, n-1], or
 *  r + s = n), FASTSM2_ERR_BAD_SIGNATURE (B7), FASTSM2_ERR_ID, FASTSM2_ERR_ARG. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_verify_status(const fastsm2_pubkey *pub, const void *id, size_t idlen,
                                                          const void *msg, size_t msglen, const unsigned char sig[64]);
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_verify_digest_status(const fastsm2_pubkey *pub, const unsigned char e[32],
                                                                 const unsigned char sig[64]);

/** Encode raw r || s (GB/T 32918.2 clause 6.1's output) as strict DER
 *  (GM/T 0009 SM2Signature; at most 72 bytes). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sig_to_der(unsigned char *out, size_t *outlen, const unsigned char sig[64]);
/** Decode a strict-DER signature (GM/T 0009) into raw r || s for GB/T
 *  32918.2 clause 7.1: FASTSM2_ERR_DER for
 *  non-minimal or negative INTEGERs, wrong lengths, trailing bytes;
 *  FASTSM2_ERR_SIG_RANGE if r or s is 0 or >= n. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sig_from_der(unsigned char sig[64], const unsigned char *der,
                                                         size_t derlen);

/* ------------------------------------------------------------------------ */
/* Public-key encryption, GB/T 32918.4-2016                                  */
/* ------------------------------------------------------------------------ */

/* Flags for encrypt/decrypt; combine with |. Default 0 = DER, C1C3C2. */
#define FASTSM2_CT_DER    0 /* GM/T 0009: SEQUENCE { x, y, C3, C2 } */
#define FASTSM2_CT_RAW    1 /* 04 || x1 || y1 || ... */
#define FASTSM2_CT_C1C3C2 0 /* GB/T 32918.4-2016 order (default) */
#define FASTSM2_CT_C1C2C3 \
    2 /* the 2010 draft order, for old peers (raw only
                               * changes order; DER always holds C3 before C2) */

/** Bytes needed to encrypt msglen bytes with these flags (an upper bound for
 *  DER): the C1, C2, C3 of GB/T 32918.4 clause 6.1. */
FASTSM2_API size_t fastsm2_ciphertext_size(size_t msglen, int flags);

/** GB/T 32918.4 6.1: encrypt msglen >= 1 bytes (FASTSM2_ERR_LENGTH for an
 *  empty message, whose KDF output would be "all zero" by definition) with a
 *  fresh k from the OS CSPRNG. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_encrypt(unsigned char *out, size_t *outlen, const fastsm2_pubkey *pub,
                                                    const void *msg, size_t msglen, int flags);

/** GB/T 32918.4 clause 6.1 with a caller-chosen k (A1) in [1, n-1]. FOR
 *  TESTS AND KNOWN ANSWERS ONLY. FASTSM2_ERR_KDF_ZERO if this k gives an all-zero t. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_encrypt_with_nonce(unsigned char *out, size_t *outlen,
                                                               const fastsm2_pubkey *pub, const void *msg,
                                                               size_t msglen, int flags, const unsigned char k[32]);

/** GB/T 32918.4 7.1: decrypt. Raw input may carry C1 compressed (02/03||x,
 *  GB/T 32918.1 4.2.9) or hybrid (06/07||x||y, 4.2.10, its parity checked). FASTSM2_ERR_CIPHERTEXT for a truncated or
 *  malformed input or an empty C2, FASTSM2_ERR_POINT for C1 off the curve,
 *  FASTSM2_ERR_DECRYPT when C3 does not match (out is zeroed: no plaintext
 *  is released). The plaintext is ciphertext length - 97 bytes (raw). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_decrypt(unsigned char *out, size_t *outlen, const fastsm2_privkey *key,
                                                    const unsigned char *ct, size_t ctlen, int flags);

/** The plaintext length of a ciphertext (the length of C2, GB/T 32918.4
 *  clause 6.1), after the checks fastsm2_decrypt makes before it uses the
 *  key: the layout, a non-empty C2, C1 a point of the curve. No key, no
 *  decryption: C3 is not checked. Errors as fastsm2_decrypt's
 *  (FASTSM2_ERR_CIPHERTEXT, FASTSM2_ERR_POINT, FASTSM2_ERR_LENGTH); *msglen
 *  is 0 then. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_plaintext_size(size_t *msglen, const unsigned char *ct, size_t ctlen,
                                                           int flags);

/* ------------------------------------------------------------------------ */
/* Key exchange, GB/T 32918.3-2016                                           */
/* ------------------------------------------------------------------------ */

#define FASTSM2_KX_INITIATOR 0 /* user A */
#define FASTSM2_KX_RESPONDER 1 /* user B */

/** One side of a key exchange. Opaque; wipe with fastsm2_kx_clear(). */
typedef struct {
    uint64_t opaque[96];
} fastsm2_kx_ctx;

/** Set up one side: own key and ID, the peer's public key and ID (a NULL ID
 *  means that key's ID: the default unless set). GB/T 32918.3 6.1 (Z_A and
 *  Z_B). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_kx_init(fastsm2_kx_ctx *ctx, int role, const fastsm2_privkey *key,
                                                    const void *id, size_t idlen, const fastsm2_pubkey *peer,
                                                    const void *peer_id, size_t peer_idlen);

/** GB/T 32918.3 6.1 A1-A3 / B1-B3: draw r in [1, n-1], write R = rG as a
 *  65-byte SEC1 point to send to the peer. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_kx_start(fastsm2_kx_ctx *ctx, unsigned char R[65]);

/** GB/T 32918.3 6.1 A2-A3 / B2-B3 with a caller-chosen r (A1 / B1). FOR
 *  TESTS ONLY. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_kx_start_with_nonce(fastsm2_kx_ctx *ctx, unsigned char R[65],
                                                                const unsigned char r[32]);

/** GB/T 32918.3 6.1 A4-A8 / B4-B8: take the peer's R (SEC1, validated),
 *  compute the shared point U (V) and the key K of klen bytes (1..65536,
 *  else FASTSM2_ERR_LENGTH). FASTSM2_ERR_POINT if U is infinity. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_kx_compute(fastsm2_kx_ctx *ctx, unsigned char *key, size_t klen,
                                                       const unsigned char *peer_R, size_t peer_Rlen);

/** GB/T 32918.3 clause 6.1: the optional confirmation this side sends: the
 *  responder's S_B
 *  (B9, prefix 0x02), the initiator's S_A (A10, prefix 0x03). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_kx_confirmation(unsigned char out[32], const fastsm2_kx_ctx *ctx);

/** GB/T 32918.3 clause 6.1: check the peer's confirmation: the initiator
 *  checks S_B against S_1 (A9),
 *  the responder checks S_A against S_2 (B10). FASTSM2_ERR_CONFIRM on a
 *  mismatch. Constant-time compare. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_kx_verify_confirmation(const fastsm2_kx_ctx *ctx,
                                                                   const unsigned char in[32]);

/** Plain elliptic-curve Diffie-Hellman on sm2p256v1: the x-coordinate of
 *  [d]P (GB/T 32918.1 clause 4.2.7's 32-byte big-endian string) for the
 *  peer's SEC1 point P (65 bytes, or 33 compressed), validated as GB/T
 *  32918.1 clause 6.2 requires. What RFC 8998's curveSM2 group is in TLS 1.3
 *  (ECDHE, RFC 8446 7.4.2); not the GB/T 32918.3 exchange above (no IDs, no
 *  KDF): derive keys from the output, never use it as a key. Constant time
 *  in d. FASTSM2_ERR_POINT (off the curve, infinity, bad prefix) or
 *  FASTSM2_ERR_LENGTH for a bad peer point, FASTSM2_ERR_ARG for NULLs; out
 *  is zeroed on every error. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_ecdh(unsigned char out[32], const fastsm2_privkey *key,
                                                 const unsigned char *peer, size_t peerlen);

/** Wipe a key-exchange context: its ephemeral r and shared point U (GB/T
 *  32918.3 clause 6.1, A1-A7) are secrets. */
FASTSM2_API void fastsm2_kx_clear(fastsm2_kx_ctx *ctx);

/* ------------------------------------------------------------------------ */
/* Batches: many independent operations, spread over threads                */
/* ------------------------------------------------------------------------ */
/* The helper threads a batch call starts (threads - 1 of them, at most 63)
 * are kept for later calls: they poll for a few tens of microseconds after
 * a call, then sleep until the next. They block all signals, are not
 * inherited by a child after fork(), and are stopped when the library is
 * unloaded or the process exits. A batch call made while another thread's
 * batch is running runs on the calling thread alone. */

/** Sign n digests (n*32 bytes) into n raw signatures (n*64 bytes), fresh k
 *  for each. keys holds nkeys keys: 1 (one key signs all) or n (key i signs
 *  digest i). threads = 0 means all online cores. Each item is GB/T 32918.2
 *  6.1 A3-A7. FASTSM2_OK, or the first error (all signatures zeroed):
 *  FASTSM2_ERR_ARG for a NULL array of one item or more, nkeys other than
 *  1 or n, or a key object the library did not make. n = 0 does nothing
 *  and returns FASTSM2_OK; an array of no items may be NULL. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sign_digest_batch(unsigned char *sigs, const fastsm2_privkey *keys,
                                                              size_t nkeys, const unsigned char *digests, size_t n,
                                                              unsigned threads);

/** Verify n (digest, raw signature) pairs against pubs (npubs = 1 or n):
 *  results[i] = 1 if valid, 0 otherwise (GB/T 32918.2 7.1 B3-B7).
 *  Returns FASTSM2_OK if it ran (whatever the results), or FASTSM2_ERR_ARG
 *  with every result 0 and nothing verified: a NULL array of one item or
 *  more, npubs other than 1 or n, or a key object the library did not
 *  make. n = 0 does nothing; an array of no items may be NULL. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_verify_digest_batch(int *results, const fastsm2_pubkey *pubs, size_t npubs,
                                                                const unsigned char *digests, const unsigned char *sigs,
                                                                size_t n, unsigned threads);

/* ------------------------------------------------------------------------ */
/* Multi-buffer SM3, KDF and streaming encryption                            */
/* ------------------------------------------------------------------------ */

/** GB/T 32905 clause 5 on n independent messages at once: digests + 32*i
 *  gets SM3 of the lens[i] bytes at msgs[i] (msgs[i] may be NULL when
 *  lens[i] is 0). Lengths may differ. The messages share the backend's SIMD
 *  lanes (8 with AVX2, 16 with AVX-512; one at a time elsewhere); the
 *  digests equal fastsm2_sm3's. digests must not overlap the messages.
 *  FASTSM2_OK, or FASTSM2_ERR_ARG (digests zeroed when they exist). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm3_many(unsigned char *digests, const unsigned char *const *msgs,
                                                     const size_t *lens, size_t n);

/** The most bytes of a ciphertext before C2 (GB/T 32918.4 6.1: C1, the DER
 *  headers and, for C1C3C2, C3): the prefix fastsm2_encrypt_stream_init
 *  writes, and the prefix fastsm2_decrypt_stream_init reads. */
#define FASTSM2_CT_PREFIX_MAX 128

/** Streaming encryption state (GB/T 32918.4 clause 6.1). Opaque; holds
 *  secrets until final (which wipes it). */
typedef struct {
    uint64_t opaque[64];
} fastsm2_encrypt_stream;

/** Streaming decryption state (GB/T 32918.4 clause 7.1). Opaque; holds
 *  secrets until final (which wipes it). */
typedef struct {
    uint64_t opaque[64];
} fastsm2_decrypt_stream;

/** GB/T 32918.4 6.1 A1-A4 for a message of exactly msglen >= 1 bytes given
 *  later in pieces, for inputs too large to hold twice. Draws k, computes
 *  C1 and [k]P_B, and writes the ciphertext's prefix (everything before C2;
 *  *prefixlen is the capacity on entry, at least FASTSM2_CT_PREFIX_MAX, and
 *  the length on return). The ciphertext is the prefix, then the C2 bytes
 *  from fastsm2_encrypt_stream_update, then (C1C2C3 only) C3. *c3_offset is
 *  where C3 belongs from the start of the ciphertext: inside the prefix
 *  (a zero placeholder there) for C1C3C2 and DER, after C2 for C1C2C3; the
 *  caller writes the C3 from final at that offset. FASTSM2_ERR_LENGTH for
 *  msglen 0 or too large, FASTSM2_ERR_BUFFER_TOO_SMALL, FASTSM2_ERR_ARG. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_encrypt_stream_init(fastsm2_encrypt_stream *s, unsigned char *prefix,
                                                                size_t *prefixlen, uint64_t *c3_offset,
                                                                const fastsm2_pubkey *pub, uint64_t msglen, int flags);

/** GB/T 32918.4 6.1 A5-A6 on the next len bytes of the message: out gets
 *  len bytes of C2 (out may equal in). The pieces may have any size.
 *  FASTSM2_ERR_LENGTH when the pieces would exceed msglen. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_encrypt_stream_update(fastsm2_encrypt_stream *s, unsigned char *out,
                                                                  const void *in, size_t len);

/** GB/T 32918.4 6.1 A5 and A7 after exactly msglen bytes: writes C3 =
 *  SM3(x2 || M || y2) and wipes s. FASTSM2_ERR_LENGTH if fewer bytes went
 *  through update; FASTSM2_ERR_KDF_ZERO if t was all zero (probability
 *  about 2^-256 per 32 bytes: discard the output and start again). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_encrypt_stream_final(fastsm2_encrypt_stream *s, unsigned char c3[32]);

/** GB/T 32918.4 7.1 B1-B3 for a ciphertext of ctlen bytes read in pieces.
 *  prefix holds its first min(ctlen, FASTSM2_CT_PREFIX_MAX) bytes. Checks
 *  the layout (strict DER, lengths adding up to ctlen) and C1 (on the
 *  curve, not infinity), computes [d_B]C1, and says where C2 lies
 *  (*c2_offset, *c2len) and where C3 is (*c3_offset), all from the start
 *  of the ciphertext. FASTSM2_ERR_CIPHERTEXT, FASTSM2_ERR_POINT,
 *  FASTSM2_ERR_LENGTH, FASTSM2_ERR_ARG. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_decrypt_stream_init(fastsm2_decrypt_stream *s, uint64_t *c2_offset,
                                                                uint64_t *c2len, uint64_t *c3_offset,
                                                                const fastsm2_privkey *key, const unsigned char *prefix,
                                                                size_t prefixlen, uint64_t ctlen, int flags);

/** GB/T 32918.4 7.1 B4-B5 on the next len bytes of C2: out gets len bytes
 *  of M' (out may equal in). THE OUTPUT IS NOT AUTHENTICATED until
 *  fastsm2_decrypt_stream_final returns FASTSM2_OK (B6): keep it from any
 *  use (write it to a temporary file, for instance) and destroy it if
 *  final fails. FASTSM2_ERR_LENGTH past c2len. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_decrypt_stream_update(fastsm2_decrypt_stream *s, unsigned char *out,
                                                                  const unsigned char *in, size_t len);

/** GB/T 32918.4 7.1 B4 (t not all zero) and B6 (u == C3, compared in
 *  constant time) after exactly c2len bytes; wipes s. FASTSM2_OK only if
 *  the ciphertext authenticates; FASTSM2_ERR_DECRYPT otherwise (release no
 *  byte of the output), FASTSM2_ERR_LENGTH if C2 was not all given. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_decrypt_stream_final(fastsm2_decrypt_stream *s, const unsigned char c3[32]);

/* ------------------------------------------------------------------------ */
/* SM4, GB/T 32907-2016, and its modes of operation                          */
/* ------------------------------------------------------------------------ */
/* Conventions of this section, besides the file's:
 *  - Lengths are in bytes. out may equal in (in-place) in every call below,
 *    streaming calls included, whatever the lengths of earlier pieces; any
 *    other overlap is undefined.
 *  - Constant time: the key, the round keys, GCM's hash key and its powers,
 *    and plaintexts never choose a branch, a memory address or a
 *    variable-time instruction, on every backend; tags are compared in
 *    constant time. What a call's status reveals (a bad tag, bad padding)
 *    is public.
 *  - On failure, every output is zeroed: out over the data length (or its
 *    capacity, for (out, *outlen) calls), the tag; *outlen is 0. A one-shot
 *    decryption whose tag or padding fails therefore releases no plaintext
 *    (in-place, the ciphertext is zeroed too).
 *  - Objects are opaque, fixed-size and hold no pointers (copy them with
 *    memcpy); a key is immutable once made and may be used by many threads
 *    at once. The *_clear functions wipe; every final wipes its context.
 *  - The implementation is picked once per process from the CPU (AVX-512 or
 *    AVX2 with GFNI, AES-NI through the S-box's affine isomorphism, ARMv8
 *    SM4 instructions, NEON, portable bitsliced C; GHASH by VPCLMULQDQ,
 *    PCLMULQDQ, PMULL or portable C): fastsm2_sm4_backend_name() says
 *    which. FASTSM2_CPU=generic forces the portable code here too, and
 *    FASTSM2_SM4=<name> forces one implementation this CPU can run
 *    (fastsm2_sm4_backend_available lists them). Every implementation gives
 *    the same bytes, and a key made under one works under any other. */

#define FASTSM2_SM4_KEY_SIZE    16
#define FASTSM2_SM4_BLOCK_SIZE  16
/** GCM's recommended IV length (SP 800-38D 5.2.1.1; any length >= 1 works)
 *  and its full tag length. */
#define FASTSM2_SM4_GCM_IV_SIZE 12
#define FASTSM2_SM4_TAG_SIZE    16

/** An expanded SM4 key: the 32 round keys of GB/T 32907 clause 7.3 and the
 *  GCM hash key H = E_K(0^128) with its powers (SP 800-38D 6.4), made once
 *  by fastsm2_sm4_key_init. Secret; wipe it with fastsm2_sm4_key_clear. */
typedef struct {
    uint64_t opaque[72];
} fastsm2_sm4_key;

/** GB/T 32907 clause 7.3: expand a 16-byte key. FASTSM2_OK, or
 *  FASTSM2_ERR_ARG (key zeroed). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_key_init(fastsm2_sm4_key *key, const unsigned char k[16]);
/** Library utility: wipe a key (GB/T 32907 keys are secrets). NULL is fine. */
FASTSM2_API void fastsm2_sm4_key_clear(fastsm2_sm4_key *key);

/** Library utility: name of the SM4 implementation in use, e.g.
 *  "avx512-gfni", "avx2-aesni", "armv8-sm4", "generic" (GB/T 32907 on this
 *  CPU). Never NULL. */
FASTSM2_API const char *fastsm2_sm4_backend_name(void);
/** Library utility: name of the i-th SM4 implementation this CPU can run (i
 *  = 0, 1, ...), NULL past the last: what FASTSM2_SM4 accepts here. */
FASTSM2_API const char *fastsm2_sm4_backend_available(size_t i);

/* ---- ECB, CBC, CTR: one-shot ---------------------------------------------- */

/** GB/T 32907 clause 7.1 (encryption) on each 16-byte block of in (ECB):
 *  len must be a multiple of 16 (0 is fine), else FASTSM2_ERR_LENGTH; out
 *  gets len bytes. The standard's examples are single blocks. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_ecb_encrypt(unsigned char *out, const fastsm2_sm4_key *key,
                                                            const unsigned char *in, size_t len);
/** GB/T 32907 clause 7.2 (decryption) on each 16-byte block (ECB), as
 *  fastsm2_sm4_ecb_encrypt. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_ecb_decrypt(unsigned char *out, const fastsm2_sm4_key *key,
                                                            const unsigned char *in, size_t len);

/** Padding of ECB and CBC: none (the data is whole blocks) or PKCS#7
 *  (RFC 5652 6.3: 1 to 16 bytes, each the count; what OpenSSL, Java's
 *  PKCS5Padding and sm-crypto add). */
#define FASTSM2_SM4_PAD_NONE  0
#define FASTSM2_SM4_PAD_PKCS7 1

/** CBC encryption (SP 800-38A 6.2) with GB/T 32907 as the block cipher.
 *  With FASTSM2_SM4_PAD_PKCS7 the output is (inlen / 16 + 1) * 16 bytes;
 *  with FASTSM2_SM4_PAD_NONE it is inlen, which must be a multiple of 16
 *  (FASTSM2_ERR_LENGTH). *outlen: capacity in, length out
 *  (FASTSM2_ERR_BUFFER_TOO_SMALL). FASTSM2_ERR_ARG for another padding. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_cbc_encrypt(unsigned char *out, size_t *outlen,
                                                            const fastsm2_sm4_key *key, const unsigned char iv[16],
                                                            int padding, const unsigned char *in, size_t inlen);
/** CBC decryption (SP 800-38A 6.2): inlen a multiple of 16 (non-zero with
 *  PKCS#7), else FASTSM2_ERR_LENGTH; capacity at least inlen. With PKCS#7
 *  the padding is checked in constant time and removed; a bad one is
 *  FASTSM2_ERR_PADDING (out zeroed). CBC has no integrity: a padding error
 *  tells an attacker who can submit ciphertexts something about the
 *  plaintext (a padding oracle), so authenticate the ciphertext first or
 *  use GCM or CCM. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_cbc_decrypt(unsigned char *out, size_t *outlen,
                                                            const fastsm2_sm4_key *key, const unsigned char iv[16],
                                                            int padding, const unsigned char *in, size_t inlen);

/** CTR (SP 800-38A 6.5) with GB/T 32907 as the block cipher: the counter
 *  block starts at iv and is incremented as one 128-bit big-endian number
 *  (mod 2^128), as OpenSSL's SM4-CTR does; out = in XOR keystream, len any.
 *  Encryption and decryption are this one call. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_ctr(unsigned char *out, const fastsm2_sm4_key *key,
                                                    const unsigned char iv[16], const unsigned char *in, size_t len);

/* ---- ECB, CBC, CTR, OFB, CFB: streaming ------------------------------------ */

#define FASTSM2_SM4_ECB 1
#define FASTSM2_SM4_CBC 2
#define FASTSM2_SM4_CTR 3
#define FASTSM2_SM4_OFB 4 /* SP 800-38A 6.4 */
#define FASTSM2_SM4_CFB 5 /* SP 800-38A 6.3, CFB-128 (OpenSSL's SM4-CFB) */

#define FASTSM2_SM4_DECRYPT 0
#define FASTSM2_SM4_ENCRYPT 1

/** A streaming ECB/CBC/CTR/OFB/CFB operation: its round keys, chaining
 *  value or counter, and up to one partial block. Secret; wiped by final
 *  and fastsm2_sm4_ctx_clear. */
typedef struct {
    uint64_t opaque[40];
} fastsm2_sm4_ctx;

/** Start a streaming operation (SP 800-38A 6.1-6.5) in mode (FASTSM2_SM4_ECB
 *  ... _CFB) and direction (FASTSM2_SM4_ENCRYPT or _DECRYPT) under key
 *  (copied: the key may be cleared afterwards). iv: ivlen 0 (iv may be NULL)
 *  for ECB, 16 for the others (FASTSM2_ERR_IV). padding:
 *  FASTSM2_SM4_PAD_NONE or _PKCS7 for ECB and CBC, _NONE for the stream
 *  modes (FASTSM2_ERR_ARG otherwise, and for an unknown mode or direction). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_init(fastsm2_sm4_ctx *ctx, int mode, int enc, int padding,
                                                     const fastsm2_sm4_key *key, const unsigned char *iv, size_t ivlen);
/** The next inlen bytes (SP 800-38A 6.1-6.5), any size. CTR, OFB and CFB
 *  write exactly inlen bytes; ECB and CBC write whole blocks and keep the
 *  rest (and, when decrypting with PKCS#7, the last whole block, which final
 *  unpads), so a capacity *outlen of inlen + 15 always suffices. *outlen:
 *  capacity in, bytes written out. FASTSM2_ERR_BUFFER_TOO_SMALL (nothing
 *  consumed), FASTSM2_ERR_STATE after final, FASTSM2_ERR_ARG. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_update(fastsm2_sm4_ctx *ctx, unsigned char *out, size_t *outlen,
                                                       const unsigned char *in, size_t inlen);
/** Finish (SP 800-38A 6.1-6.5; RFC 5652 6.3's padding) and wipe ctx. ECB/CBC
 *  encryption with PKCS#7 writes the last, padded block (16 bytes);
 *  decryption with PKCS#7 writes the last block without its padding (0-15
 *  bytes; FASTSM2_ERR_PADDING, nothing written, for bad padding or no block
 *  at all); without padding a partial block left is FASTSM2_ERR_LENGTH. The
 *  stream modes write nothing. *outlen: capacity in (16 always suffices),
 *  bytes written out. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_final(fastsm2_sm4_ctx *ctx, unsigned char *out, size_t *outlen);
/** Library utility: wipe a streaming context (after an abandoned operation).
 *  NULL is fine. */
FASTSM2_API void fastsm2_sm4_ctx_clear(fastsm2_sm4_ctx *ctx);

/* ---- GCM, NIST SP 800-38D ------------------------------------------------- */
/* IVs of any length >= 1 (12 bytes is the fast and recommended case; other
 * lengths are hashed, SP 800-38D 7.1 step 2); tags of 4 to 16 bytes (SP
 * 800-38D 5.2.1.2 allows 4 and 8 only with limits on use: 12 to 16 is the
 * safe range), else FASTSM2_ERR_LENGTH; ivlen 0 is FASTSM2_ERR_IV.
 * Plaintexts up to 2^36 - 32 bytes (FASTSM2_ERR_LENGTH beyond). This is
 * TLS 1.3's TLS_SM4_GCM_SM3 (RFC 8998) and OpenSSL's SM4-GCM. */

/** Authenticated encryption (SP 800-38D 7.1): out gets inlen bytes of
 *  ciphertext, tag taglen bytes; aad is authenticated, not encrypted (NULL
 *  with aadlen 0 is fine, as is in NULL with inlen 0). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_gcm_encrypt(unsigned char *out, unsigned char *tag, size_t taglen,
                                                            const fastsm2_sm4_key *key, const unsigned char *iv,
                                                            size_t ivlen, const unsigned char *aad, size_t aadlen,
                                                            const unsigned char *in, size_t inlen);
/** Authenticated decryption (SP 800-38D 7.2): out gets inlen bytes of
 *  plaintext only if tag (taglen bytes) matches; otherwise
 *  FASTSM2_ERR_TAG and out is zeroed. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_gcm_decrypt(unsigned char *out, const fastsm2_sm4_key *key,
                                                            const unsigned char *iv, size_t ivlen,
                                                            const unsigned char *aad, size_t aadlen,
                                                            const unsigned char *in, size_t inlen,
                                                            const unsigned char *tag, size_t taglen);

/** A streaming GCM operation: a copy of the key, the counter, the GHASH
 *  state and up to one partial block. Secret; wiped by either final and by
 *  fastsm2_sm4_gcm_clear. */
typedef struct {
    uint64_t opaque[96];
} fastsm2_sm4_gcm_ctx;

/** Start a GCM operation in direction enc (FASTSM2_SM4_ENCRYPT or
 *  _DECRYPT) under key (copied) and iv (SP 800-38D 7.1 steps 1-2). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_gcm_init(fastsm2_sm4_gcm_ctx *ctx, int enc, const fastsm2_sm4_key *key,
                                                         const unsigned char *iv, size_t ivlen);
/** Authenticate len more bytes of AAD (SP 800-38D 7.1 step 5), in pieces of
 *  any size, all before the first fastsm2_sm4_gcm_update (FASTSM2_ERR_STATE
 *  after it). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_gcm_aad(fastsm2_sm4_gcm_ctx *ctx, const unsigned char *aad, size_t len);
/** Encrypt or decrypt the next len bytes (SP 800-38D 7.1 steps 3-4), in
 *  pieces of any size: out gets exactly len bytes. WHEN DECRYPTING, THE
 *  OUTPUT IS NOT AUTHENTICATED until fastsm2_sm4_gcm_decrypt_final returns
 *  FASTSM2_OK: keep it from any use (a temporary file, for instance) and
 *  destroy it if final fails. FASTSM2_ERR_LENGTH past the length limit,
 *  FASTSM2_ERR_STATE after final. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_gcm_update(fastsm2_sm4_gcm_ctx *ctx, unsigned char *out,
                                                           const unsigned char *in, size_t len);
/** Finish an encryption: write the first taglen bytes of the tag (SP
 *  800-38D 7.1 steps 5-6) and wipe ctx. FASTSM2_ERR_STATE on a decryption. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_gcm_encrypt_final(fastsm2_sm4_gcm_ctx *ctx, unsigned char *tag,
                                                                  size_t taglen);
/** Finish a decryption (SP 800-38D 7.2 steps 7-8): FASTSM2_OK only if tag
 *  (taglen bytes) matches, compared in constant time; FASTSM2_ERR_TAG
 *  otherwise (destroy every byte update gave). Wipes ctx. FASTSM2_ERR_STATE
 *  on an encryption. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_gcm_decrypt_final(fastsm2_sm4_gcm_ctx *ctx, const unsigned char *tag,
                                                                  size_t taglen);
/** Library utility: wipe a GCM context (after an abandoned operation). NULL
 *  is fine. */
FASTSM2_API void fastsm2_sm4_gcm_clear(fastsm2_sm4_gcm_ctx *ctx);

/* ---- CCM, NIST SP 800-38C / RFC 3610 --------------------------------------- */
/* Nonces of 7 to 13 bytes (FASTSM2_ERR_IV), tags of 4, 6, 8, 10, 12, 14 or
 * 16 bytes (FASTSM2_ERR_LENGTH), plaintexts shorter than 2^(8 * (15 -
 * noncelen)) bytes (FASTSM2_ERR_LENGTH). TLS 1.3's TLS_SM4_CCM_SM3 (RFC
 * 8998) uses a 12-byte nonce and a 16-byte tag. CCM needs the lengths
 * before the data, so it is one-shot only. */

/** Authenticated encryption (SP 800-38C 6.1): out gets inlen bytes, tag
 *  taglen bytes. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_ccm_encrypt(unsigned char *out, unsigned char *tag, size_t taglen,
                                                            const fastsm2_sm4_key *key, const unsigned char *nonce,
                                                            size_t noncelen, const unsigned char *aad, size_t aadlen,
                                                            const unsigned char *in, size_t inlen);
/** Authenticated decryption (SP 800-38C 6.2): out gets inlen bytes only if
 *  the tag matches; otherwise FASTSM2_ERR_TAG and out is zeroed. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_ccm_decrypt(unsigned char *out, const fastsm2_sm4_key *key,
                                                            const unsigned char *nonce, size_t noncelen,
                                                            const unsigned char *aad, size_t aadlen,
                                                            const unsigned char *in, size_t inlen,
                                                            const unsigned char *tag, size_t taglen);

/* ---- XTS, IEEE 1619-2018 and GB/T 17964-2021 ------------------------------ */
/* One data unit per call: len from 16 bytes to 2^24 (16 MiB; IEEE 1619's
 * 2^20 blocks), else FASTSM2_ERR_LENGTH; a length that is not a multiple
 * of 16 uses ciphertext stealing. key1 encrypts the data, key2 the tweak
 * (the first and second halves of OpenSSL's 32-byte SM4-XTS key). As in
 * OpenSSL, encryption refuses key1 == key2 (FASTSM2_ERR_ARG); decryption
 * accepts it. The two standards differ only in how the tweak advances from
 * block to block (multiplication by alpha in GF(2^128)): GB/T 17964's bit
 * order is OpenSSL's default for SM4-XTS (xts_standard "GB"), IEEE 1619's
 * its "IEEE". */
#define FASTSM2_SM4_XTS_GB   0
#define FASTSM2_SM4_XTS_IEEE 1

/** XTS encryption (IEEE 1619-2018 5.3) of one data unit of len bytes with
 *  the 16-byte tweak (the data unit's number or IV) under standard
 *  FASTSM2_SM4_XTS_GB or _IEEE (FASTSM2_ERR_ARG otherwise). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_xts_encrypt(unsigned char *out, const fastsm2_sm4_key *key1,
                                                            const fastsm2_sm4_key *key2, int standard,
                                                            const unsigned char tweak[16], const unsigned char *in,
                                                            size_t len);
/** XTS decryption (IEEE 1619-2018 5.4) of one data unit, as
 *  fastsm2_sm4_xts_encrypt. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_sm4_xts_decrypt(unsigned char *out, const fastsm2_sm4_key *key1,
                                                            const fastsm2_sm4_key *key2, int standard,
                                                            const unsigned char tweak[16], const unsigned char *in,
                                                            size_t len);

/* ------------------------------------------------------------------------ */
/* GPU batches (CUDA). Built when nvcc is found; otherwise every call below  */
/* returns FASTSM2_ERR_UNSUPPORTED (fastsm2_gpu_device_count returns 0).     */
/* ------------------------------------------------------------------------ */

/** An opaque GPU context: one device, its tables, streams and buffers. */
typedef struct fastsm2_gpu fastsm2_gpu;

/** Flag for fastsm2_gpu_new: no memory access depends on a secret (full-scan
 *  table selection; slower). Without it, the fixed-base table is indexed by
 *  secret nonce bits (see docs/GPU.md). */
#define FASTSM2_GPU_CONSTANT_TIME 1u

/** Number of usable CUDA devices; 0 when none or not built with CUDA.
 *  (GB/T 32918.2 clause 6.1 batch signing runs on these.) */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_gpu_device_count(void);

/** Create a context on CUDA device `device` (0-based), building its tables
 *  for GB/T 32918.2 clause 6.1/7.1 batches. FASTSM2_OK, FASTSM2_ERR_UNSUPPORTED
 *  (no CUDA build or no such device), FASTSM2_ERR_NO_MEMORY, FASTSM2_ERR_ARG. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_gpu_new(fastsm2_gpu **ctx, int device, unsigned flags);

/** Free a context (NULL is fine) after wiping device buffers that held
 *  secrets (GB/T 32918.2 clause 6.1 keys and nonces). */
FASTSM2_API void fastsm2_gpu_free(fastsm2_gpu *ctx);

/** The device's name, e.g. "NVIDIA H100 80GB HBM3" (GB/T 32918.2 clause 6.1
 *  batches run there). Never NULL. */
FASTSM2_API const char *fastsm2_gpu_device_name(const fastsm2_gpu *ctx);

/** Sign n digests on the GPU (GB/T 32918.2 clause 6.1 A3-A7), as
 *  fastsm2_sign_digest_batch: sigs gets n*64 bytes r||s; keys holds 1 or n
 *  keys. FASTSM2_OK or the first error (all signatures zeroed). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_gpu_sign_digest_batch(fastsm2_gpu *ctx, unsigned char *sigs,
                                                                  const fastsm2_privkey *keys, size_t nkeys,
                                                                  const unsigned char *digests, size_t n);

/** Verify n (digest, raw signature) pairs on the GPU (GB/T 32918.2 clause
 *  7.1 B1-B7), as fastsm2_verify_digest_batch: results[i] = 1 or 0. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_gpu_verify_digest_batch(fastsm2_gpu *ctx, int *results,
                                                                    const fastsm2_pubkey *pubs, size_t npubs,
                                                                    const unsigned char *digests,
                                                                    const unsigned char *sigs, size_t n);

/** Public keys of n private keys on the GPU (GB/T 32918.1 clause 6.1,
 *  P = dG): privs holds n*32 bytes big-endian d in [1, n-2], pubs gets n*65
 *  bytes 04||x||y. FASTSM2_ERR_PRIVATE_KEY if any d is out of range. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_gpu_keygen_batch(fastsm2_gpu *ctx, unsigned char *pubs,
                                                             const unsigned char *privs, size_t n);

/* ------------------------------------------------------------------------ */
/* Certificates: X.509 (RFC 5280) and PKCS#10 requests (RFC 2986) with SM2   */
/* ------------------------------------------------------------------------ */
/* Conventions of this section and the next, besides the file's:
 *  - A certificate, request or CMS message given as input may be PEM (the
 *    first block of its label: "CERTIFICATE", "CERTIFICATE REQUEST" or
 *    "NEW CERTIFICATE REQUEST", "CMS" or "PKCS7") or DER, told apart by
 *    their first byte. A bundle (a list of certificates: trust anchors,
 *    intermediates, recipients) is PEM with any number of CERTIFICATE
 *    blocks, or DER certificates one after another. Certificates and
 *    requests are read up to 64 KiB each (FASTSM2_ERR_TOO_LARGE beyond).
 *  - Reading is strict DER (X.690 clause 10): FASTSM2_ERR_DER for anything
 *    malformed, truncated or followed by trailing bytes; every length is
 *    checked against its enclosing element before it is used.
 *  - Signatures are SM2 with SM3 (GB/T 32918.2; OID 1.2.156.10197.1.501,
 *    GM/T 0006) over the DER of the signed part, with a signer ID: id NULL
 *    and idlen 0 mean the default ID 1234567812345678 (as GM/T 0015 asks
 *    for certificates; OpenSSL 3.x hashes the empty ID unless told
 *    otherwise: pass id "" with idlen 0 to sign or verify as it does).
 *    A signature made with another algorithm is FASTSM2_ERR_ALGORITHM.
 *  - Outputs (out, *outlen) follow the file's rule; out NULL asks for the
 *    size: *outlen gets a number of bytes that suffices and the call
 *    returns FASTSM2_OK without doing anything else. fmt is
 *    FASTSM2_KEYFMT_DER or FASTSM2_KEYFMT_PEM (NUL-terminated, not
 *    counted).
 *  - Times are seconds since 1970-01-01 00:00:00 UTC (leap seconds not
 *    counted, as POSIX time), written as UTCTime up to 2049 and
 *    GeneralizedTime from 2050 (RFC 5280 4.1.2.5).
 *  - Names are written and read as strings "/C=CN/O=Example/CN=name"
 *    (OpenSSL's -subj form): attributes C, ST, L, O, OU, CN, serialNumber,
 *    emailAddress, DC, UID, title, GN (givenName), SN (surname), street,
 *    postalCode, or a dotted OID; "+" joins attributes of one RDN; "\" escapes
 *    "/", "+", "=" and "\". Values are UTF8String, but C and serialNumber
 *    (PrintableString) and emailAddress and DC (IA5String). Unknown
 *    attributes print as OID=#hex of their DER. */

/** keyUsage bits (RFC 5280 4.2.1.3), as a mask: bit i is the named bit i. */
#define FASTSM2_KU_DIGITAL_SIGNATURE 0x001u
#define FASTSM2_KU_NON_REPUDIATION   0x002u /* contentCommitment */
#define FASTSM2_KU_KEY_ENCIPHERMENT  0x004u
#define FASTSM2_KU_DATA_ENCIPHERMENT 0x008u
#define FASTSM2_KU_KEY_AGREEMENT     0x010u
#define FASTSM2_KU_KEY_CERT_SIGN     0x020u
#define FASTSM2_KU_CRL_SIGN          0x040u
#define FASTSM2_KU_ENCIPHER_ONLY     0x080u
#define FASTSM2_KU_DECIPHER_ONLY     0x100u
/** The keyUsage of GM/T 0015's two certificates of a TLCP (GB/T 38636)
 *  peer: the signing one and the encryption one. */
#define FASTSM2_KU_TLCP_SIGN         (FASTSM2_KU_DIGITAL_SIGNATURE | FASTSM2_KU_NON_REPUDIATION)
#define FASTSM2_KU_TLCP_ENC          (FASTSM2_KU_KEY_ENCIPHERMENT | FASTSM2_KU_DATA_ENCIPHERMENT | FASTSM2_KU_KEY_AGREEMENT)

/** extendedKeyUsage purposes (RFC 5280 4.2.1.12), as a mask. */
#define FASTSM2_EKU_SERVER_AUTH      0x01u /* 1.3.6.1.5.5.7.3.1 */
#define FASTSM2_EKU_CLIENT_AUTH      0x02u /* 1.3.6.1.5.5.7.3.2 */
#define FASTSM2_EKU_CODE_SIGNING     0x04u /* 1.3.6.1.5.5.7.3.3 */
#define FASTSM2_EKU_EMAIL_PROTECTION 0x08u /* 1.3.6.1.5.5.7.3.4 */
#define FASTSM2_EKU_TIME_STAMPING    0x10u /* 1.3.6.1.5.5.7.3.8 */
#define FASTSM2_EKU_OCSP_SIGNING     0x20u /* 1.3.6.1.5.5.7.3.9 */
#define FASTSM2_EKU_ANY              0x40u /* anyExtendedKeyUsage, 2.5.29.37.0 */

/** Builds a request or a certificate: what it is to say, set by the calls
 *  below, then signed by fastsm2_x509_make_request or
 *  fastsm2_x509_make_certificate (as often as wanted). Opaque; allocated
 *  (it holds names and extensions of any size): free it with
 *  fastsm2_x509_builder_free. Holds no secret. */
typedef struct fastsm2_x509_builder fastsm2_x509_builder;

/** A new, empty builder (the fields of RFC 5280 4.1 and RFC 2986 4.1 unset): FASTSM2_OK,
 *  FASTSM2_ERR_ARG or FASTSM2_ERR_NO_MEMORY. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_builder_new(fastsm2_x509_builder **b);
/** Free a builder (NULL is fine); what it held (RFC 5280 4.1 fields) is
 *  public. */
FASTSM2_API void fastsm2_x509_builder_free(fastsm2_x509_builder *b);

/** The subject (RFC 5280 4.1.2.6) from a string (see above):
 *  FASTSM2_ERR_NAME for a malformed one. An empty string is the empty
 *  name (allowed when a subjectAltName is added: it is then critical). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_set_subject(fastsm2_x509_builder *b, const char *name);
/** The subject as the DER of a Name (RFC 5280 4.1.2.4), copied as it is:
 *  FASTSM2_ERR_DER unless it is one. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_set_subject_der(fastsm2_x509_builder *b, const unsigned char *der,
                                                                 size_t derlen);
/** The subject's public key (GB/T 32918.1 clause 6.1; an SPKI with
 *  id-ecPublicKey and sm2p256v1). A certificate needs one unless it is
 *  self-signed (then the signing key's is taken); a request always takes
 *  its signing key's. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_set_public_key(fastsm2_x509_builder *b, const fastsm2_pubkey *pub);

#define FASTSM2_X509_COPY_EXTENSIONS 1u
/** Take the subject and the public key of a request (RFC 2986 4.1), after
 *  checking its signature with the signer ID id (FASTSM2_ERR_BAD_SIGNATURE;
 *  see the conventions above for id). With FASTSM2_X509_COPY_EXTENSIONS the
 *  extensions it asks for (its extensionRequest attribute, PKCS#9) are
 *  taken too, each replacing one of the same type set before; without it
 *  they are ignored, as `openssl x509 -req` does by default. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_set_request(fastsm2_x509_builder *b, const unsigned char *req,
                                                             size_t reqlen, const void *id, size_t idlen,
                                                             unsigned flags);

/** The serial number (RFC 5280 4.1.2.2): a positive integer of 1 to 20
 *  bytes, big-endian (FASTSM2_ERR_LENGTH otherwise; a leading zero byte is
 *  dropped). Unset, each certificate made gets 16 fresh random bytes
 *  (a positive 128-bit number, never shorter than 16 bytes: GmSSL refuses
 *  serials under 4 bytes). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_set_serial(fastsm2_x509_builder *b, const unsigned char *serial,
                                                            size_t len);
/** The validity period (RFC 5280 4.1.2.5), inclusive, in seconds since
 *  1970 UTC, 0000-9999 (FASTSM2_ERR_ARG when not_after < not_before or out
 *  of range). Unset: from the time of signing for 365 days. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_set_validity(fastsm2_x509_builder *b, int64_t not_before,
                                                              int64_t not_after);
/** basicConstraints (RFC 5280 4.2.1.9), critical: ca non-zero makes a CA
 *  certificate, whose path_len (>= 0) limits the CAs below it (-1: no
 *  limit). ca 0 writes no extension at all (an empty basicConstraints
 *  means the same, and GmSSL refuses one). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_set_basic_constraints(fastsm2_x509_builder *b, int ca, int path_len);
/** keyUsage (RFC 5280 4.2.1.3), critical: FASTSM2_KU_* bits (0 removes
 *  it). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_set_key_usage(fastsm2_x509_builder *b, unsigned usage);
/** extendedKeyUsage (RFC 5280 4.2.1.12), not critical: FASTSM2_EKU_* bits
 *  (0 removes it). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_set_ext_key_usage(fastsm2_x509_builder *b, unsigned usage);
/** Add one subjectAltName (RFC 5280 4.2.1.6): "DNS:host.example",
 *  "IP:192.0.2.1" or an IPv6 address, "email:user@example.com",
 *  "URI:https://example.com/". FASTSM2_ERR_NAME for another form. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_add_san(fastsm2_x509_builder *b, const char *san);
/** Add any extension (RFC 5280 4.1.2.9): its OID as a dotted string, its
 *  criticality, its value (the DER inside extnValue), replacing one of the
 *  same OID. FASTSM2_ERR_NAME for a malformed OID, FASTSM2_ERR_DER for a
 *  value that is not one DER element. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_add_extension(fastsm2_x509_builder *b, const char *oid, int critical,
                                                               const unsigned char *value, size_t valuelen);

/** Make and sign a PKCS#10 request (RFC 2986 clause 4): the builder's
 *  subject, key's public key, and the builder's extensions (in an
 *  extensionRequest attribute, PKCS#9), signed by key with the signer ID
 *  id (GB/T 32918.2 clause 6.1). fmt: FASTSM2_KEYFMT_DER or _PEM
 *  ("CERTIFICATE REQUEST"). FASTSM2_ERR_ARG without a subject. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_make_request(unsigned char *out, size_t *outlen,
                                                              const fastsm2_x509_builder *b, const fastsm2_privkey *key,
                                                              const void *id, size_t idlen, int fmt);

/** Make and sign a version 3 certificate (RFC 5280 4.1): issued by the
 *  holder of issuer_key, whose own certificate is issuer_cert (its subject
 *  becomes the issuer, its subjectKeyIdentifier the
 *  authorityKeyIdentifier; FASTSM2_ERR_POINT when issuer_key is not its
 *  key), or self-signed when issuer_cert is NULL (issuer = subject, the
 *  public key issuer_key's unless one was set). Every certificate gets a
 *  subjectKeyIdentifier (the leftmost 160 bits of SM3 of the public key's
 *  bits, RFC 7093 4 with SM3) and an authorityKeyIdentifier. Signed with
 *  the signer ID id (GB/T 32918.2 clause 6.1). fmt: FASTSM2_KEYFMT_DER or
 *  _PEM ("CERTIFICATE"). FASTSM2_ERR_ARG without a subject (or a
 *  subjectAltName), or without a public key for a certificate that is not
 *  self-signed. */
FASTSM2_API FASTSM2_WARN_UNUSED int
fastsm2_x509_make_certificate(unsigned char *out, size_t *outlen, const fastsm2_x509_builder *b,
                              const fastsm2_privkey *issuer_key, const unsigned char *issuer_cert,
                              size_t issuer_certlen, const void *id, size_t idlen, int fmt);

/** What a certificate or a request says (RFC 5280 4.1, RFC 2986 4.1),
 *  filled by fastsm2_x509_get_info. Byte strings are those of the DER; the
 *  extension fields of a request are those of its extensionRequest. */
#define FASTSM2_X509_CERTIFICATE 1
#define FASTSM2_X509_REQUEST     2
typedef struct {
    int kind;                 /* FASTSM2_X509_CERTIFICATE or _REQUEST */
    int version;              /* 1, 2 or 3 (a request: 1) */
    unsigned char serial[20]; /* the serial number, big-endian, no sign byte (certificates) */
    size_t serial_len;        /* 0 for a request, or a serial that is 0, negative or over 20 bytes */
    int64_t not_before;       /* validity, seconds since 1970 UTC (certificates) */
    int64_t not_after;
    int self_issued;               /* issuer and subject are the same name */
    int sm2_key;                   /* the public key is an SM2 key (sm2p256v1) */
    int has_basic_constraints;     /* basicConstraints present: */
    int ca;                        /*   its cA */
    int path_len;                  /*   its pathLenConstraint, -1 when absent */
    int has_key_usage;             /* keyUsage present: */
    unsigned key_usage;            /*   FASTSM2_KU_* */
    int has_ext_key_usage;         /* extendedKeyUsage present: */
    unsigned ext_key_usage;        /*   FASTSM2_EKU_* of the purposes it lists */
    unsigned char skid[32];        /* subjectKeyIdentifier (its first 32 bytes) */
    size_t skid_len;               /* 0 when absent */
    unsigned char akid[32];        /* authorityKeyIdentifier's keyIdentifier */
    size_t akid_len;               /* 0 when absent */
    unsigned extensions;           /* how many extensions */
    unsigned unknown_critical;     /* how many critical ones this library does not process */
    unsigned char fingerprint[32]; /* SM3 of the whole DER */
} fastsm2_x509_info;

/** Parse a certificate or a request (RFC 5280 4.1 / RFC 2986 4.1) and say
 *  what it holds. Nothing is verified. FASTSM2_ERR_DER, FASTSM2_ERR_PEM,
 *  FASTSM2_ERR_TOO_LARGE. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_get_info(fastsm2_x509_info *info, const unsigned char *in,
                                                          size_t inlen);

/** Text fields of a certificate or a request, NUL-terminated (*outlen
 *  counts without the NUL): */
#define FASTSM2_X509_SUBJECT 1 /* the subject name, "/C=CN/O=.../CN=..." */
#define FASTSM2_X509_ISSUER  2 /* the issuer name (certificates) */
#define FASTSM2_X509_SAN     3 /* subjectAltNames, "DNS:a.example, IP:192.0.2.1" ("" none) */
#define FASTSM2_X509_SERIAL  4 /* the serial number in hex, "5F3A..." (certificates) */
#define FASTSM2_X509_TEXT    5 /* everything, one field a line, as `fastsm2 certparse` prints */
/** RFC 5280 4.1 fields as text. FASTSM2_ERR_ARG for a field a request has
 *  not; the parsing errors of fastsm2_x509_get_info. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_get_text(char *out, size_t *outlen, int what, const unsigned char *in,
                                                          size_t inlen);
/** DER parts of a certificate or a request: */
#define FASTSM2_X509_DER         10 /* the whole certificate or request, in DER */
#define FASTSM2_X509_SUBJECT_DER 11 /* the subject Name */
#define FASTSM2_X509_ISSUER_DER  12 /* the issuer Name (certificates) */
#define FASTSM2_X509_SPKI_DER    13 /* the SubjectPublicKeyInfo */
#define FASTSM2_X509_TBS_DER     14 /* the signed part (TBSCertificate, CertificationRequestInfo) */
/** RFC 5280 4.1 fields in DER. As fastsm2_x509_get_text. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_get_der(unsigned char *out, size_t *outlen, int what,
                                                         const unsigned char *in, size_t inlen);

/** The public key of a certificate or a request (GB/T 32918.1 clause 6.2
 *  checks on its point), not verified otherwise. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_public_key(fastsm2_pubkey *pub, const unsigned char *in, size_t inlen);

/** Check a request's own signature (RFC 2986 clause 3, GB/T 32918.2
 *  clause 7.1) with the signer ID id: FASTSM2_OK, or
 *  FASTSM2_ERR_BAD_SIGNATURE, FASTSM2_ERR_ALGORITHM, the parsing errors. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_verify_request(const unsigned char *req, size_t reqlen, const void *id,
                                                                size_t idlen);
/** Check that issuer's key signed cert (RFC 5280 6.1.3 (a)(1), GB/T 32918.2
 *  clause 7.1) with the signer ID id; nothing else. FASTSM2_OK or
 *  FASTSM2_ERR_BAD_SIGNATURE, FASTSM2_ERR_ALGORITHM, the parsing errors. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_verify_signature(const unsigned char *cert, size_t certlen,
                                                                  const unsigned char *issuer, size_t issuerlen,
                                                                  const void *id, size_t idlen);

/** How fastsm2_x509_verify_chain checks (fastsm2_x509_verify_params_init
 *  sets the defaults). */
typedef struct {
    int64_t time;           /* the moment every certificate must be valid at (default: now) */
    unsigned flags;         /* FASTSM2_X509_NO_TIME_CHECK: validity periods not checked */
    unsigned key_usage;     /* FASTSM2_KU_* the leaf's keyUsage must allow, if it has one (default 0) */
    unsigned ext_key_usage; /* FASTSM2_EKU_* the leaf's extendedKeyUsage must list, if it has one */
    unsigned max_depth;     /* certificates in a path, anchor included (default 10, at most 32) */
    const void *id;         /* the signer ID of every signature (default NULL: 1234567812345678) */
    size_t idlen;
} fastsm2_x509_verify_params;
#define FASTSM2_X509_NO_TIME_CHECK 1u

/** The defaults of fastsm2_x509_verify_params (RFC 5280 6.1.1's inputs):
 *  now, the default ID, no usage asked of the leaf, 10 certificates at
 *  most. */
FASTSM2_API void fastsm2_x509_verify_params_init(fastsm2_x509_verify_params *p);

/** Verify a certificate (RFC 5280 clause 6, basic path validation): a path
 *  is built from cert up to a certificate of `trusted` (a bundle of trust
 *  anchors), through the certificates of `untrusted` (a bundle of
 *  intermediates, any order; NULL with 0 for none), each issuer found by
 *  its subject equal to the issuer name (byte for byte) and, where both
 *  are present, its subjectKeyIdentifier equal to the
 *  authorityKeyIdentifier; several candidates are tried in turn. Every
 *  certificate of the path, the anchor too, must:
 *   - be signed with SM2-with-SM3 by the next one's key, the anchor by its
 *     own when self-signed (FASTSM2_ERR_ALGORITHM, FASTSM2_ERR_BAD_SIGNATURE,
 *     with params->id; GB/T 32918.2 clause 7.1);
 *   - be valid at params->time (FASTSM2_ERR_NOT_YET_VALID,
 *     FASTSM2_ERR_EXPIRED), unless FASTSM2_X509_NO_TIME_CHECK;
 *   - have no critical extension other than basicConstraints, keyUsage,
 *     extendedKeyUsage, subjectAltName (FASTSM2_ERR_CRITICAL);
 *   - if it issues another: be a CA (basicConstraints cA;
 *     FASTSM2_ERR_NOT_CA; a version 1 anchor counts as one), with
 *     keyCertSign in its keyUsage if it has one (FASTSM2_ERR_KEY_USAGE),
 *     and no more CAs below it, the leaf and self-issued ones not counted,
 *     than its pathLenConstraint (FASTSM2_ERR_PATH_LENGTH);
 * and the leaf's keyUsage and extendedKeyUsage (if present) must allow
 * params->key_usage and params->ext_key_usage (FASTSM2_ERR_KEY_USAGE).
 * No issuer for a certificate, or a path that ends at a self-signed
 * certificate not trusted, is FASTSM2_ERR_ISSUER; a path that meets a
 * certificate already in it, FASTSM2_ERR_CHAIN_LOOP; one longer than
 * params->max_depth, FASTSM2_ERR_PATH_LENGTH. Revocation (CRLs, OCSP) and
 * name and policy constraints are not checked.
 * Returns FASTSM2_OK, or the reason the first path tried was refused, and
 * then *depth (when not NULL) says where: 0 the leaf, 1 its issuer, ...
 * params NULL: the defaults. cert may be PEM or DER; a malformed
 * certificate in a bundle is FASTSM2_ERR_DER (or _PEM) with *depth = -1. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_verify_chain(int *depth, const unsigned char *cert, size_t certlen,
                                                              const unsigned char *untrusted, size_t untrustedlen,
                                                              const unsigned char *trusted, size_t trustedlen,
                                                              const fastsm2_x509_verify_params *params);

/** The i-th certificate (0, 1, ...; RFC 5280 4.1) of a bundle (see the
 *  conventions), in DER: FASTSM2_OK, or FASTSM2_ERR_LENGTH when the bundle
 *  has no more than i certificates, or its parsing error.
 *  fastsm2_x509_bundle_count gives how many certificates a bundle holds
 *  (or a negative parsing error). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_bundle_get(unsigned char *out, size_t *outlen, size_t i,
                                                            const unsigned char *bundle, size_t bundlelen);
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_x509_bundle_count(const unsigned char *bundle, size_t bundlelen);

/** PEM armour (RFC 7468 clause 2) for any DER: the label ("CERTIFICATE", "CMS",
 *  ...) and the bytes. Written with 64-column lines and a NUL (not
 *  counted). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_pem_encode(char *out, size_t *outlen, const char *label,
                                                       const unsigned char *der, size_t derlen);
/** The DER of the first PEM block (RFC 7468 clause 2) labelled label in
 *  text, ignoring text and other blocks around it. FASTSM2_ERR_PEM (none,
 *  or malformed). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_pem_decode(unsigned char *out, size_t *outlen, const char *label,
                                                       const char *text, size_t textlen);

/* ------------------------------------------------------------------------ */
/* CMS: signed and enveloped data (RFC 5652, GM/T 0010-2012)                 */
/* ------------------------------------------------------------------------ */
/* Messages are written with RFC 5652's content types (id-data,
 * id-signedData 1.2.840.113549.1.7.*, and RFC 5083 id-ct-authEnvelopedData
 * for GCM) or, with FASTSM2_CMS_GMT0010, GM/T 0010's (data, signedData,
 * envelopedData 1.2.156.10197.6.1.4.2.*); either kind is read. The
 * algorithms are SM3 (1.2.156.10197.1.401), SM2 signatures
 * (1.2.156.10197.1.501; 1.2.156.10197.1.301.1 read too), SM2 encryption
 * (1.2.156.10197.1.301.3, the key in a GM/T 0009 SM2Cipher) and SM4
 * (1.2.156.10197.1.104.2 CBC, .8 GCM); another is FASTSM2_ERR_ALGORITHM.
 * Signatures carry the signed attributes contentType, messageDigest (SM3 of
 * the content) and signingTime (RFC 5652 5.3, 11), so that the content is
 * hashed once, as it streams. */

#define FASTSM2_CMS_DETACHED      0x01u /* the content is not inside the message */
#define FASTSM2_CMS_GMT0010       0x02u /* GM/T 0010 content types */
#define FASTSM2_CMS_NO_CERTS      0x04u /* the signer's certificate is not included */
#define FASTSM2_CMS_NO_ATTRIBUTES 0x08u /* sign the content itself (GM/T 0010 allows it), no attributes */
#define FASTSM2_CMS_PEM           0x10u /* write PEM ("CMS"), not DER */
/** GmSSL 3's signature (its src/cms.c, checked with 3.1.1): e = SM3(the
 *  encapsulated ContentInfo's DER || the signed attributes' contents, if
 *  any), signed as a digest, with no Z_A and so no signer ID. fastsm2_cms_sign writes such a signature (with
 *  the GM/T 0010 content types, attached: GmSSL reads no other), and
 *  fastsm2_cms_verify checks signatures that way (and only that way) with
 *  it, so that GmSSL's cmssign and cmsverify interoperate. Prefer the
 *  standard signature wherever the peer is not GmSSL. */
#define FASTSM2_CMS_GMSSL         0x20u
/** fastsm2_cms_encrypt: name each recipient by its certificate's
 *  subjectKeyIdentifier (RFC 5652 6.2.1 rid [0]; KeyTransRecipientInfo and
 *  EnvelopedData version 2), as `openssl cms -encrypt -keyid` does, not by
 *  issuer and serial number. */
#define FASTSM2_CMS_KEYID         0x40u

/** Sign content (contentlen bytes) into a SignedData (RFC 5652 clause 5,
 *  GM/T 0010 clause 8): one signer, identified by issuer and serial number
 *  (signer_cert, whose key must be key's: FASTSM2_ERR_POINT), the signature
 *  made with the signer ID id (GB/T 32918.2 clause 6.1). flags:
 *  FASTSM2_CMS_*. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_cms_sign(unsigned char *out, size_t *outlen, const unsigned char *content,
                                                     size_t contentlen, const unsigned char *signer_cert,
                                                     size_t signer_certlen, const fastsm2_privkey *key, const void *id,
                                                     size_t idlen, unsigned flags);

#define FASTSM2_CMS_PREFIX_MAX 128
#define FASTSM2_CMS_SUFFIX_MAX 65536
/** fastsm2_cms_sign for a content given as its SM3 digest (GB/T 32905 5.3) and
 *  its length, for contents too large to hold: the message is prefix, then
 *  the content's contentlen bytes (unless detached), then suffix, all DER
 *  (FASTSM2_CMS_PEM, FASTSM2_CMS_NO_ATTRIBUTES and FASTSM2_CMS_GMSSL are
 *  FASTSM2_ERR_ARG).
 *  Both outputs follow the (out, *outlen) rule; the suffix needs at most
 *  FASTSM2_CMS_SUFFIX_MAX bytes and the prefix at most
 *  FASTSM2_CMS_PREFIX_MAX. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_cms_sign_digest(unsigned char *prefix, size_t *prefixlen,
                                                            unsigned char *suffix, size_t *suffixlen,
                                                            const unsigned char digest[32], uint64_t contentlen,
                                                            const unsigned char *signer_cert, size_t signer_certlen,
                                                            const fastsm2_privkey *key, const void *id, size_t idlen,
                                                            unsigned flags);

/** Verify a SignedData (RFC 5652 5.6, GM/T 0010): every signer's
 *  signature, with the signer ID id (GB/T 32918.2 clause 7.1; flags 0, or
 *  FASTSM2_CMS_GMSSL for GmSSL 3's signatures), over the
 *  signed attributes (whose messageDigest must be SM3 of the content:
 *  FASTSM2_ERR_DIGEST) or, without them, over the content. The signer's
 *  certificate is looked for, by issuer and serial number or by
 *  subjectKeyIdentifier, among the message's certificates and `certs` (a
 *  bundle; NULL with 0 for none): FASTSM2_ERR_ISSUER when absent. content
 *  is the detached content (NULL with 0 for a message that holds it; a
 *  detached message without it is FASTSM2_ERR_ARG). THE SIGNER'S
 *  CERTIFICATE IS NOT VERIFIED HERE: get it (fastsm2_cms_get with
 *  FASTSM2_CMS_SIGNER) and verify its chain with fastsm2_x509_verify_chain.
 *  FASTSM2_OK, FASTSM2_ERR_BAD_SIGNATURE, FASTSM2_ERR_DIGEST,
 *  FASTSM2_ERR_ALGORITHM, FASTSM2_ERR_ISSUER, the parsing errors. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_cms_verify(const unsigned char *cms, size_t cmslen,
                                                       const unsigned char *content, size_t contentlen,
                                                       const unsigned char *certs, size_t certslen, const void *id,
                                                       size_t idlen, unsigned flags);
/** fastsm2_cms_verify of a detached message whose content is given as its
 *  SM3 digest (RFC 5652 5.4's message digest; a signer without signed
 *  attributes cannot be checked so: FASTSM2_ERR_ARG). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_cms_verify_digest(const unsigned char *cms, size_t cmslen,
                                                              const unsigned char digest[32],
                                                              const unsigned char *certs, size_t certslen,
                                                              const void *id, size_t idlen);

/** Content ciphers of enveloped data (GB/T 32907 SM4 with a random
 *  16-byte key): CBC with PKCS#7 padding (EnvelopedData) and GCM with a
 *  12-byte nonce and a 16-byte tag (RFC 5083 AuthEnvelopedData, RFC 5084
 *  parameters). */
#define FASTSM2_CMS_SM4_CBC 1
#define FASTSM2_CMS_SM4_GCM 2

/** Encrypt content (contentlen bytes, 0 is fine) for every certificate of
 *  recipients (a bundle, PEM or DER: one or more SM2 certificates) into an
 *  EnvelopedData (RFC 5652 clause 6, GM/T 0010 clause 9; cipher
 *  FASTSM2_CMS_SM4_CBC, the IV in the algorithm's parameters) or an
 *  AuthEnvelopedData (RFC 5083; FASTSM2_CMS_SM4_GCM, RFC 5084 parameters).
 *  A fresh 16-byte SM4 key is encrypted with each recipient's SM2 key
 *  (GB/T 32918.4, the GM/T 0009 DER ciphertext) in a KeyTransRecipientInfo
 *  naming the certificate's issuer and serial number (or, with
 *  FASTSM2_CMS_KEYID, its subjectKeyIdentifier: FASTSM2_ERR_ARG for a
 *  certificate without one). A recipient's keyUsage is not checked (as
 *  in `openssl cms -encrypt`). flags:
 *  FASTSM2_CMS_GMT0010 (GM/T 0010's envelopedData type; CBC only, else
 *  FASTSM2_ERR_ARG), FASTSM2_CMS_PEM, FASTSM2_CMS_KEYID, and FASTSM2_CMS_GMSSL (CBC only, not with KEYID: as
 *  GmSSL 3's cmsencrypt writes it, which its cmsdecrypt alone reads: GM/T
 *  0010 types, versions 1, and GmSSL's SM2 encryption OID
 *  1.2.156.10197.1.301.2; fastsm2_cms_decrypt reads both). With out NULL, *outlen gets an
 *  upper bound (the SM2 ciphertexts' lengths vary by a few bytes). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_cms_encrypt(unsigned char *out, size_t *outlen,
                                                        const unsigned char *content, size_t contentlen,
                                                        const unsigned char *recipients, size_t recipientslen,
                                                        int cipher, unsigned flags);
/** Decrypt an EnvelopedData (RFC 5652 clause 6.2.1, 6.3) or
 *  AuthEnvelopedData (RFC 5083 clause 2) (PEM, DER or BER) with key. With cert (the key's certificate, PEM or DER; FASTSM2_ERR_POINT
 *  when its key is not key's) the recipient is the one naming it (issuer
 *  and serial number, or subjectKeyIdentifier); without it (NULL, 0) every
 *  SM2 key-transport recipient is tried. FASTSM2_ERR_RECIPIENT when none is
 *  the key's. Then FASTSM2_ERR_PADDING (CBC's padding is wrong),
 *  FASTSM2_ERR_TAG (GCM's tag does not match), FASTSM2_ERR_ALGORITHM (not
 *  SM2 and SM4-CBC/GCM), the parsing errors: no plaintext is written on
 *  any error (out zeroed, *outlen 0). The whole message is decrypted
 *  even when out is NULL (*outlen then gets the exact size). CBC has no
 *  integrity: a CBC message's content is only as trustworthy as its
 *  source (sign it too, or use GCM). */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_cms_decrypt(unsigned char *out, size_t *outlen, const unsigned char *cms,
                                                        size_t cmslen, const fastsm2_privkey *key,
                                                        const unsigned char *cert, size_t certlen);

/* ---- enveloped data, streamed ------------------------------------------ */
/* For contents too large to hold: the message is made as a prefix (every
 * header up to the encryptedContent [0]'s, whose length is known in
 * advance: CBC with PKCS#7 writes (contentlen / 16 + 1) * 16 bytes, GCM
 * contentlen), the ciphertext, and a final piece (CBC's last block; GCM's
 * last bytes are the mac OCTET STRING); and opened from its head (every
 * byte before the ciphertext), the ciphertext in pieces, and its tail (the
 * bytes after it). The content key and cipher state stay in the context. */

/** A streamed enveloped-data operation: the cipher's key schedule and
 *  state, the lengths announced and seen. Secret; wiped by either final
 *  and by fastsm2_cms_stream_clear. */
typedef struct {
    uint64_t opaque[104];
} fastsm2_cms_stream;

/** The most bytes fastsm2_cms_encrypt_final or fastsm2_cms_decrypt_final
 *  write. */
#define FASTSM2_CMS_FINAL_MAX 32

/** Start fastsm2_cms_encrypt (RFC 5652 clause 6, RFC 5083; same recipients,
 *  cipher and flags, same message) for a content of contentlen bytes that
 *  will follow: prefix gets the message's first bytes (DER; FASTSM2_CMS_PEM
 *  and FASTSM2_CMS_GMSSL are FASTSM2_ERR_ARG: use fastsm2_cms_encrypt).
 *  The message is prefix, then what fastsm2_cms_encrypt_update and
 *  fastsm2_cms_encrypt_final write, in order. prefix follows the (out,
 *  *outlen) rule: with prefix NULL, *prefixlen gets an upper bound and ctx
 *  is not started. FASTSM2_ERR_LENGTH for a GCM content over 2^36 - 32
 *  bytes; the errors of fastsm2_cms_encrypt. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_cms_encrypt_init(fastsm2_cms_stream *ctx, unsigned char *prefix,
                                                             size_t *prefixlen, uint64_t contentlen,
                                                             const unsigned char *recipients, size_t recipientslen,
                                                             int cipher, unsigned flags);
/** Encrypt the content's next inlen bytes (RFC 5652 6.3; SP 800-38A 6.2 or
 *  SP 800-38D 7.1), any size, into out: *outlen, capacity in (inlen + 15
 *  always suffices), bytes written out (CBC keeps a partial block for the
 *  next call). FASTSM2_ERR_LENGTH past the
 *  announced contentlen (ctx wiped), FASTSM2_ERR_STATE when not started. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_cms_encrypt_update(fastsm2_cms_stream *ctx, unsigned char *out,
                                                               size_t *outlen, const unsigned char *in, size_t inlen);
/** Finish the message: CBC's last, padded block (16 bytes) or, for GCM,
 *  the mac OCTET STRING (RFC 5083 clause 2.1: 18 bytes); *outlen: capacity
 *  in (FASTSM2_CMS_FINAL_MAX suffices), bytes written out. Wipes ctx.
 *  FASTSM2_ERR_LENGTH when fewer bytes than contentlen were given. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_cms_encrypt_final(fastsm2_cms_stream *ctx, unsigned char *out,
                                                              size_t *outlen);

/** Start fastsm2_cms_decrypt (RFC 5652 6.2.1; same key and cert rules,
 *  same errors) from the message's head: its first headlen bytes, DER, at
 *  least up to the ciphertext (the whole message is fine). Reads the headers, finds the
 *  recipient and unwraps the content key; *ct_offset and *ct_len get where
 *  the ciphertext lies in the message, *msg_len the message's length (its
 *  tail, after the ciphertext, is the last msg_len - ct_offset - ct_len
 *  bytes). FASTSM2_ERR_LENGTH when head ends before the ciphertext (give
 *  more) or a CBC ciphertext is not a non-zero multiple of 16 bytes;
 *  FASTSM2_ERR_UNSUPPORTED for PEM, BER's indefinite lengths or a
 *  constructed encryptedContent, and FASTSM2_ERR_DER for other non-DER
 *  forms: fastsm2_cms_decrypt reads those. The tail is checked only by
 *  fastsm2_cms_decrypt_final. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_cms_decrypt_init(fastsm2_cms_stream *ctx, uint64_t *ct_offset,
                                                             uint64_t *ct_len, uint64_t *msg_len,
                                                             const unsigned char *head, size_t headlen,
                                                             const fastsm2_privkey *key, const unsigned char *cert,
                                                             size_t certlen);
/** Decrypt the ciphertext's next inlen bytes (SP 800-38A 6.2 or SP 800-38D
 *  7.2), any size, in order, into out: *outlen, capacity in (inlen + 15
 *  always suffices), bytes written out. THE OUTPUT IS NOT AUTHENTICATED (GCM) OR UNPADDED (CBC) until
 *  fastsm2_cms_decrypt_final returns FASTSM2_OK: keep it from any use (a
 *  temporary file, for instance) and destroy it if final fails.
 *  FASTSM2_ERR_LENGTH past ct_len (ctx wiped), FASTSM2_ERR_STATE. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_cms_decrypt_update(fastsm2_cms_stream *ctx, unsigned char *out,
                                                               size_t *outlen, const unsigned char *in, size_t inlen);
/** Finish with the message's tail (the bytes after the ciphertext; RFC
 *  5083 2.1's mac for GCM): checks its structure (FASTSM2_ERR_DER), then
 *  GCM's tag
 *  (FASTSM2_ERR_TAG) or CBC's padding (FASTSM2_ERR_PADDING), in constant
 *  time. CBC writes the content's last 0-15 bytes to out, GCM nothing;
 *  *outlen: capacity in (FASTSM2_CMS_FINAL_MAX suffices), bytes written
 *  out. FASTSM2_ERR_LENGTH when fewer than ct_len bytes were given. Wipes
 *  ctx. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_cms_decrypt_final(fastsm2_cms_stream *ctx, unsigned char *out,
                                                              size_t *outlen, const unsigned char *tail,
                                                              size_t taillen);
/** Library utility: wipe a stream (after an abandoned operation). NULL is
 *  fine. */
FASTSM2_API void fastsm2_cms_stream_clear(fastsm2_cms_stream *ctx);

/** What a CMS message is (RFC 5652 clause 3), filled by fastsm2_cms_get_info. */
#define FASTSM2_CMS_SIGNED_DATA         1
#define FASTSM2_CMS_ENVELOPED_DATA      2
#define FASTSM2_CMS_AUTH_ENVELOPED_DATA 3
typedef struct {
    int type;                /* FASTSM2_CMS_SIGNED_DATA, _ENVELOPED_DATA, _AUTH_ENVELOPED_DATA */
    int gmt0010;             /* GM/T 0010 content types */
    int detached;            /* signed data without its content */
    uint64_t content_offset; /* where the attached content's bytes start in a DER message (0 for PEM
                                and BER, whose content fastsm2_cms_get copies out) */
    uint64_t content_len;    /* and how many (0 when detached or enveloped) */
    unsigned signers;        /* signerInfos (signed data) */
    unsigned recipients;     /* recipientInfos (enveloped data) */
    unsigned certificates;   /* certificates carried */
    int64_t signing_time;    /* the first signer's signingTime, 0 when absent */
    int cipher;              /* FASTSM2_CMS_SM4_CBC or _SM4_GCM (enveloped data) */
} fastsm2_cms_info;
/** Read a message's ContentInfo and content (RFC 5652 clause 3) into info:
 *  nothing is verified or decrypted. The parsing errors. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_cms_get_info(fastsm2_cms_info *info, const unsigned char *cms,
                                                         size_t cmslen);

/** Parts of a CMS message: */
#define FASTSM2_CMS_CONTENT 1 /* the attached content of a signed message */
#define FASTSM2_CMS_SIGNER  2 /* the first signer's certificate, DER */
#define FASTSM2_CMS_CERTS   3 /* every certificate carried, DER one after another (a bundle) */
#define FASTSM2_CMS_DER     4 /* the whole message in DER (from PEM) */
/** Parts of a message (RFC 5652 clause 5.1); FASTSM2_ERR_ISSUER when the signer's
 *  certificate is not carried, FASTSM2_ERR_ARG for a part the message has
 *  not. */
FASTSM2_API FASTSM2_WARN_UNUSED int fastsm2_cms_get(unsigned char *out, size_t *outlen, int what,
                                                    const unsigned char *cms, size_t cmslen);

#ifdef __cplusplus
}
#endif
#endif /* FASTSM2_H */
