/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastsm2prov: an OpenSSL 3 provider over the public fastsm2 API.
 *
 * The module links no part of OpenSSL: it takes OpenSSL's headers for the
 * dispatch numbers and the OSSL_PARAM layout, and reads and writes
 * parameters with the small helpers below, so it loads into any libcrypto
 * of the OpenSSL 3 ABI. Every algorithm carries the property
 * "provider=fastsm2prov" (docs/PROVIDER.md).
 */
#ifndef FS2P_PROV_H
#define FS2P_PROV_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>

#include "fastsm2.h"

/* return_size of a parameter nobody has set (openssl/params.h has it too,
 * with the functions this module does not link) */
#ifndef OSSL_PARAM_UNMODIFIED
#define OSSL_PARAM_UNMODIFIED ((size_t)-1)
#endif

#define FS2P_NAME  "fastsm2prov"
#define FS2P_PROPS "provider=fastsm2prov"

typedef struct {
    const OSSL_CORE_HANDLE *handle;
    /* The ID an operation with no distid hashes, as the host's default
     * provider does: the empty ID on OpenSSL 3.x, GB/T 32918.2's default
     * 1234567812345678 on 4.0 and later and on Tongsuo (read at load from
     * the core's "openssl-version" and the host's own functions; the
     * configuration's no_distid overrides) */
    int no_id_is_default;
    /* the host is Tongsuo (fastsm2prov.c): its SM2 hashes the default ID */
    int host_tongsuo;
    /* the host's EVP_PKEY_get_params (NULL if not found): the key exchange
     * reads the EVP_PKEY pointers Tongsuo passes it with it */
    int (*evp_pkey_get_params)(const void *pkey, OSSL_PARAM params[]);
} fs2p_provctx;

/* Raise an error on OpenSSL's queue: reason = -status (a FASTSM2_ERR_*
 * code, whose name the provider registers as its reason string), with
 * fastsm2_strerror and `what` as the error's data. */
void fs2p_raise(const fs2p_provctx *pc, int status, const char *what);

/* ---- OSSL_PARAM helpers ------------------------------------------------ */
OSSL_PARAM *fs2p_locate(OSSL_PARAM *params, const char *key);
const OSSL_PARAM *fs2p_locate_const(const OSSL_PARAM *params, const char *key);
/* A UTF-8 string parameter equal to s, case-insensitively. */
int fs2p_utf8_is(const OSSL_PARAM *p, const char *s);
int fs2p_get_octets(const OSSL_PARAM *p, const unsigned char **data, size_t *len);
int fs2p_get_size_t(const OSSL_PARAM *p, size_t *v);
int fs2p_set_int(OSSL_PARAM *p, int v);
int fs2p_set_size_t(OSSL_PARAM *p, size_t v);
int fs2p_set_utf8(OSSL_PARAM *p, const char *s);
int fs2p_set_octets(OSSL_PARAM *p, const void *data, size_t len);

/* A scalar as OpenSSL passes a BIGNUM parameter (unsigned, native byte
 * order, any length) to and from 32 bytes big-endian. The conversion reads
 * every byte the same way whatever the value (a private key goes through
 * it); from_native turns a number of 2^256 or more into 2^256 - 1, an
 * invalid private key, without a branch. */
void fs2p_scalar_from_native(unsigned char be[32], const unsigned char *in, size_t len);
void fs2p_scalar_to_native(unsigned char *out, size_t len, const unsigned char be[32]);

/* ---- the key object ----------------------------------------------------- */
typedef struct {
    fs2p_provctx *pc;
    int refs; /* atomic: the key and each operation context on it */
    int has_pub, has_priv;
    int uses; /* atomic: verifications and encryptions with pub */
    unsigned char pub65[65];
    fastsm2_pubkey pub;
    fastsm2_privkey priv;
} fs2p_key;

fs2p_key *fs2p_key_ref(fs2p_key *k);
void fs2p_key_unref(fs2p_key *k);

/* The key's public key for one more verification or encryption: at the
 * second, its tables are made (fastsm2_pubkey_precompute, safe while other
 * threads use it), which makes every later use faster. */
const fastsm2_pubkey *fs2p_key_pub_use(fs2p_key *k);

/* Z_A of GB/T 32918.2 5.5 for the key and an ID of idlen bytes; idlen 0
 * (or id NULL: no distid set) hashes the empty ID (ENTL = 0), which is what
 * OpenSSL's default provider signs with when no ID is set. Through the
 * public fastsm2_compute_z alone (id "" with idlen 0 is the empty ID). */
int fs2p_compute_z(unsigned char z[32], const fs2p_key *k, const unsigned char *id, size_t idlen);

/* ---- the module's two constant-time helpers -------------------------------
 * The public C API has no wipe and no value barrier (they are not SM2 or
 * SM3 operations, and exporting them would make them ABI), and a front end
 * includes no src/ header; so the module owns these two, in fastsm2prov.c,
 * and every secret it holds goes through them:
 *   fs2p_wipe:    zero n bytes at p in a way the compiler may not drop
 *                 (a plain memset of a buffer about to die is dead code);
 *   fs2p_barrier: v, opaque to the optimiser, so that a mask computed from
 *                 a secret stays a mask and is never turned into a branch. */
void fs2p_wipe(void *p, size_t n);
uint32_t fs2p_barrier(uint32_t v);

/* The algorithm tables. */
extern const OSSL_DISPATCH fs2p_keymgmt_functions[];
extern const OSSL_DISPATCH fs2p_signature_functions[];
extern const OSSL_DISPATCH fs2p_asym_cipher_functions[];
extern const OSSL_DISPATCH fs2p_keyexch_functions[];
extern const OSSL_DISPATCH fs2p_sm3_functions[];
/* prov_sm4.c: the SM4 ciphers, one entry per mode */
extern const OSSL_ALGORITHM fs2p_sm4_cipher_algs[];

#endif
