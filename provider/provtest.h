/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the provider's C tests: two library contexts, "ours" with
 * fastsm2prov and the default provider (our algorithms pinned by property
 * query), "ref" with OpenSSL's default provider alone. */
#ifndef FS2P_PROVTEST_H
#define FS2P_PROVTEST_H

#include <openssl/evp.h>

#include "testutil.h"

#define PQ_OURS "provider=fastsm2prov"
#define PQ_REF  "provider=default"

extern OSSL_LIB_CTX *lc_ours, *lc_ref;

/* Load the providers (argv[1]: the module's directory); exits on failure. */
void pt_setup(int argc, char **argv);
void pt_teardown(void);
void pt_die(const char *what);

/* 1 if the context's operation runs in the provider named `name`. */
int pt_runs_in(const EVP_PKEY_CTX *pc, const char *name);

EVP_PKEY *pt_keygen(OSSL_LIB_CTX *lc, const char *pq);
/* DER signature of SM3(Z(id) || msg) (id NULL: none set), with the
 * algorithm fetched by pq in lc; 0 on failure. */
int pt_sign(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, const void *id, size_t idlen, const void *msg,
            size_t msglen, unsigned char *sig, size_t *siglen);
/* 1 valid, 0 otherwise. */
int pt_verify(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, const void *id, size_t idlen, const void *msg,
              size_t msglen, const unsigned char *sig, size_t siglen);
/* Encrypt (enc = 1) or decrypt; a malloc'd output or NULL. */
unsigned char *pt_crypt(OSSL_LIB_CTX *lc, const char *pq, EVP_PKEY *pk, int enc, const unsigned char *in, size_t inlen,
                        size_t *outlen);
int pt_pub_bytes(EVP_PKEY *pk, unsigned char out[65]);
int pt_priv_bytes(EVP_PKEY *pk, unsigned char out[32]);
/* The FASTSM2_ERR_* status of the newest error fastsm2prov put on the
 * queue (0 if none); clears the queue. */
int pt_last_status(void);

#endif
