/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the provider's C tests: two library contexts, "ours" with
 * fastsm2prov and the default provider (our algorithms pinned by property
 * query), "ref" with OpenSSL's default provider alone. The operations
 * themselves are tests/testossl.h's, given a context and PQ_OURS or
 * PQ_REF. */
#ifndef FS2P_PROVTEST_H
#define FS2P_PROVTEST_H

#include <openssl/evp.h>

#include "testossl.h"

#define PQ_OURS "provider=fastsm2prov"
#define PQ_REF  "provider=default"

extern OSSL_LIB_CTX *lc_ours, *lc_ref;

/* Load the providers (argv[1]: the module's directory); exits on failure. */
void pt_setup(int argc, char **argv);
void pt_teardown(void);
/* The FASTSM2_ERR_* status of the newest error fastsm2prov put on the
 * queue (0 if none); clears the queue. */
int pt_last_status(void);

#endif
