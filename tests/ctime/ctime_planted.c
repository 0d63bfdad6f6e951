/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The positive control of the valgrind constant-time test: secret-
 * dependent code planted on purpose, which memcheck must report. Run by
 * tests/harness/arm-ctime/valgrind.sh under valgrind (arm64, under qemu-aarch64),
 * which expects valgrind's error exit code for every mode; a run without
 * valgrind only prints what it did.
 *
 *   ctime_planted branch    a branch on a secret byte
 *   ctime_planted index     a table load at a secret index
 *   ctime_planted verify    fastsm2_verify_digest (variable time by design)
 *                           on a signature marked secret: the report comes
 *                           from inside the library, on the backend that
 *                           FASTSM2_CPU selects
 */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "fastsm2.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))

static volatile unsigned char table[256];

int main(int argc, char **argv)
{
    unsigned char d[32], e[32], sig[64];
    const char *mode = argc == 2 ? argv[1] : "";
    for (int i = 0; i < 32; i++) {
        d[i] = (unsigned char)(0x31 + 5 * i);
        e[i] = (unsigned char)(0xa5 ^ i);
    }
    if (!strcmp(mode, "branch")) {
        unsigned n = 0;
        SECRET(d, 32);
        /* a loop whose count is a secret: a conditional branch on it */
        for (unsigned i = 0; i < d[31]; i++)
            n += i;
        VALGRIND_MAKE_MEM_DEFINED(&n, sizeof n);
        printf("branch: %u\n", n);
        return 0;
    }
    if (!strcmp(mode, "index")) {
        SECRET(d, 32);
        unsigned char v = table[d[7]]; /* an address from a secret */
        VALGRIND_MAKE_MEM_DEFINED(&v, 1);
        printf("index: %u\n", v);
        return 0;
    }
    if (!strcmp(mode, "verify")) {
        fastsm2_privkey key;
        fastsm2_pubkey pub;
        if (fastsm2_privkey_from_bytes(&key, d) != FASTSM2_OK || fastsm2_privkey_pubkey(&pub, &key) != FASTSM2_OK ||
            fastsm2_sign_digest(sig, &key, e) != FASTSM2_OK) {
            fprintf(stderr, "ctime_planted: set-up failed\n");
            return 1;
        }
        SECRET(sig, 64);
        int ok = fastsm2_verify_digest(&pub, e, sig);
        VALGRIND_MAKE_MEM_DEFINED(&ok, sizeof ok);
        printf("verify (%s): %d\n", fastsm2_backend_name(), ok);
        fastsm2_privkey_clear(&key);
        return ok == 1 ? 0 : 1;
    }
    fprintf(stderr, "usage: ctime_planted branch|index|verify\n");
    return 2;
}
