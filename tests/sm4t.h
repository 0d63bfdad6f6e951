/* SPDX-License-Identifier: Apache-2.0 */
/* What the SM4 tests (tests/test_sm4*.c) share: the tables this CPU can
 * run, taken from the dispatch list itself (src/sm4/sm4_select.c), and the
 * known answers of tests/vectors/sm4-examples.txt. */
#ifndef FS2T_SM4T_H
#define FS2T_SM4T_H

#include <stdlib.h>
#include <string.h>

#include "sm4/sm4_ops.h"
#include "testutil.h"

#define SM4T_VECTORS "sm4-examples.txt"

/* The tables of this build that this CPU can run, generic first; returns
 * how many. Those it cannot run are named on stdout. */
static inline size_t sm4t_tables(const fs2_sm4_ops **out, size_t cap)
{
    size_t n = 0;
    const fs2_sm4_ops *t;
    for (size_t i = 0; (t = fs2_sm4_table(i)) != NULL; i++) {
        if (!fs2_sm4_table_available(t))
            printf("SM4 table %s: this CPU cannot run it, not tested here\n", t->name);
        else if (n < cap)
            out[n++] = t;
    }
    return n;
}

/* A field of a case as bytes into out (cap bytes); returns the length.
 * "NAME_seq = N" gives the bytes i mod 256, i < N. Aborts if missing. */
static inline size_t sm4t_field(unsigned char *out, size_t cap, const char *section, const char *name)
{
    char seq[64];
    snprintf(seq, sizeof seq, "%s_seq", name);
    const char *v = fs2t_vector_file(SM4T_VECTORS, section, seq);
    if (v != NULL) {
        size_t n = (size_t)strtoul(v, NULL, 10);
        if (n > cap) {
            fprintf(stderr, "[%s] %s: %zu bytes, room for %zu\n", section, name, n, cap);
            exit(2);
        }
        for (size_t i = 0; i < n; i++)
            out[i] = (unsigned char)i;
        return n;
    }
    v = fs2t_vector_file(SM4T_VECTORS, section, name);
    if (v == NULL) {
        fprintf(stderr, "[%s] %s: not in tests/vectors/%s\n", section, name, SM4T_VECTORS);
        exit(2);
    }
    return fs2t_unhex(out, cap, v);
}

/* 1 if the section exists (it has a key). */
static inline int sm4t_has(const char *section)
{
    return fs2t_vector_file(SM4T_VECTORS, section, "key") != NULL;
}

/* A fresh random key object (and its bytes into k when not NULL). */
static inline void sm4t_rand_key(fastsm2_sm4_key *key, unsigned char k[16])
{
    unsigned char b[16];
    fs2t_rand_bytes(b, 16);
    CHECK_STATUS(fastsm2_sm4_key_init(key, b), FASTSM2_OK);
    if (k != NULL)
        memcpy(k, b, 16);
}

#endif
