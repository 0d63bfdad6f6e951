/* SPDX-License-Identifier: Apache-2.0 */
/* A tiny test harness: CHECK() counts, the program prints
 * "N passed, N failed" and exits non-zero on any failure. */
#ifndef FS2_TESTUTIL_H
#define FS2_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fastsm2.h"

extern unsigned long fs2t_passed, fs2t_failed;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (cond) {                                                              \
            fs2t_passed++;                                                       \
        } else {                                                                 \
            fs2t_failed++;                                                       \
            if (fs2t_failed <= 30)                                               \
                fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

/* CHECK that a call returned a given status, printing both names if not. */
#define CHECK_STATUS(call, want)                                                 \
    do {                                                                         \
        int fs2t_got_ = (call);                                                  \
        if (fs2t_got_ == (want)) {                                               \
            fs2t_passed++;                                                       \
        } else {                                                                 \
            fs2t_failed++;                                                       \
            if (fs2t_failed <= 30)                                               \
                fprintf(stderr, "%s:%d: %s returned %s, want %s\n", __FILE__, __LINE__, \
                        #call, fastsm2_error_name(fs2t_got_), fastsm2_error_name(want)); \
        }                                                                        \
    } while (0)

/* Print the summary line and return the exit code for main(). */
int fs2t_finish(const char *name);
/* Print "NAME: WHY, skipped" and return 0, for main() to return: a test
 * that cannot run here. */
int fs2t_skip(const char *name, const char *why);

/* Hex (upper or lower case, no separators) to bytes; returns the length, or
 * aborts the test on bad input. */
size_t fs2t_unhex(unsigned char *out, size_t cap, const char *hex);
void fs2t_hex(char *out, const unsigned char *in, size_t len);

/* Deterministic test randomness (xoshiro-style; seed from FS2T_SEED or a
 * fixed default, printed once so failures can be replayed). */
void fs2t_rand_bytes(void *buf, size_t n);
uint64_t fs2t_rand_u64(void);

/* Look up "key = value" in section [section] of
 * tests/vectors/gbt32918-examples.txt (its path compiled in as
 * FS2T_VECTORS_FILE); the nth (0-based) match.
 * Returns a static buffer, or aborts if missing. */
const char *fs2t_vector(const char *section, const char *key, int nth);

/* Read a whole file (malloc'd); NULL on error. */
unsigned char *fs2t_read_file(const char *path, size_t *len);
int fs2t_write_file(const char *path, const void *data, size_t len);

#endif
