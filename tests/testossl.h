/* SPDX-License-Identifier: Apache-2.0 */
/* OpenSSL 3 as the reference, shared by the differential tests of the
 * library (tests/) and of the provider (provider/). Each function takes the
 * library context and property query to fetch from: NULL, NULL for
 * OpenSSL's defaults. A query "provider=NAME" also checks that the
 * operation ran in NAME (the test exits 2 if not). */
#ifndef FS2T_TESTOSSL_H
#define FS2T_TESTOSSL_H

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>

#include "testutil.h"

/* Print what failed and OpenSSL's error queue, exit 2. */
void fs2t_ossl_die(const char *what);

/* 1 if this libcrypto signs with the default ID 1234567812345678 when no
 * ID is set (OpenSSL 4.0 on); 0 if with the empty ID (3.x). */
int fs2t_ossl_no_id_is_default(void);

/* 1 if the context's operation runs in the provider named `name`. */
int fs2t_ossl_runs_in(const EVP_PKEY_CTX *pc, const char *name);

/* A fresh SM2 key pair; exits on failure. */
EVP_PKEY *fs2t_ossl_keygen(OSSL_LIB_CTX *lc, const char *pq);
/* The same, its private scalar into d and public point into P. */
EVP_PKEY *fs2t_ossl_keygen_bytes(OSSL_LIB_CTX *lc, const char *pq, unsigned char d[32], unsigned char P[65]);
/* DER signature of SM3(Z(id) || msg) (id NULL: none set); 0 on failure. */
int fs2t_ossl_sign(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, const void *id, size_t idlen, const void *msg,
                   size_t msglen, unsigned char *sig, size_t *siglen);
/* 1 if the DER signature is valid, 0 otherwise. */
int fs2t_ossl_verify(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, const void *id, size_t idlen, const void *msg,
                     size_t msglen, const unsigned char *sig, size_t siglen);
/* Encrypt (enc = 1) or decrypt with EVP_PKEY; a malloc'd output, or NULL. */
unsigned char *fs2t_ossl_crypt(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, int enc, const unsigned char *in,
                               size_t inlen, size_t *outlen);
/* 1 if ct (ctlen bytes; NULL: none) decrypts with EVP_PKEY to pt. */
int fs2t_ossl_decrypts_to(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, const unsigned char *ct, size_t ctlen,
                          const unsigned char *pt, size_t ptlen);
/* The public point 04||x||y and the private scalar; 0 on failure. */
int fs2t_ossl_pub_bytes(EVP_PKEY *pk, unsigned char out[65]);
int fs2t_ossl_priv_bytes(EVP_PKEY *pk, unsigned char out[32]);

/* Key files: private 0 PEM PKCS#8, 1 PEM SEC1 ("EC PRIVATE KEY"), 2 DER
 * SEC1, 3 DER PKCS#8; public 4 PEM SPKI, 5 DER SPKI. */
enum { FS2T_PEM_PKCS8, FS2T_PEM_SEC1, FS2T_DER_SEC1, FS2T_DER_PKCS8, FS2T_PEM_SPKI, FS2T_DER_SPKI };
/* The key written in `form`: a malloc'd, NUL-terminated buffer of *len
 * bytes (exits on failure). */
unsigned char *fs2t_ossl_write_key(EVP_PKEY *pk, int form, size_t *len);
/* The same into out (CHECKed to fit in cap); returns its length, 0 if
 * it does not fit. */
size_t fs2t_ossl_write_key_to(unsigned char *out, size_t cap, EVP_PKEY *pk, int form);
/* Move the contents of a memory BIO into out (none if more than cap);
 * frees the BIO, returns the length. */
size_t fs2t_bio_drain(BIO *b, unsigned char *out, size_t cap);
/* The key read from a file in `form`; NULL if it does not parse or a DER
 * file has bytes after the key. */
EVP_PKEY *fs2t_ossl_read_key(OSSL_LIB_CTX *lc, const unsigned char *in, size_t len, int form);

/* d*G against EC_POINT_mul on OpenSSL's SM2 group: check() gets each d
 * with OpenSSL's d*G, uncompressed (65 bytes) and compressed (33), for the
 * edge scalars (small ones, n - 2, n - 3, powers of two and their
 * neighbours, alternating bits, (n -+ 1)/2) and `nrandom` random ones in
 * [1, n) of every length. */
typedef void fs2t_scalar_check(const unsigned char d[32], const unsigned char want[65], const unsigned char wantc[33],
                               const char *label);
void fs2t_ossl_scalars(fs2t_scalar_check *check, int nrandom);

/* Four 64-bit limbs (least significant first) to and from a BIGNUM. */
BIGNUM *fs2t_bn_of_limbs(const uint64_t a[4]);
void fs2t_limbs_of_bn(uint64_t r[4], const BIGNUM *a);
/* A point's affine coordinates as limbs; 0 (and zeros) for infinity. */
int fs2t_point_limbs(const EC_GROUP *g, const EC_POINT *pt, uint64_t x[4], uint64_t y[4], BN_CTX *bctx);

#endif
