/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The C side of bench-java's per-CPU-second table: the operations of
 * java/bench's CpuTime (32-byte messages, the default ID, a precomputed
 * public key, C1C3C2 raw ciphertexts, SM3 of 8 KiB) timed by the thread's
 * CPU clock, so that a loaded machine's waiting does not count. Prints
 * "op ops_per_cpu_second" lines.
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "fastsm2.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static fastsm2_privkey key;
static fastsm2_pubkey pub;
static unsigned char msg[32], sig[64], ct[200], pt[64], big[8192], dig[32];
static size_t ctlen;
static volatile int sink;

static int op(int which)
{
    size_t n;
    switch (which) {
    case 0: return fastsm2_sign(sig, &key, NULL, 0, msg, 32);
    case 1: return fastsm2_verify(&pub, NULL, 0, msg, 32, sig);
    case 2: n = sizeof ct; return fastsm2_encrypt(ct, &n, &pub, msg, 32, FASTSM2_CT_RAW);
    case 3: n = sizeof pt; return fastsm2_decrypt(pt, &n, &key, ct, ctlen, FASTSM2_CT_RAW);
    case 4: {
        fastsm2_privkey k;
        int rc = fastsm2_privkey_generate(&k);
        fastsm2_privkey_clear(&k);
        return rc;
    }
    default: fastsm2_sm3(dig, big, sizeof big); return dig[0] | 1;
    }
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 1.0;
    static const char *names[] = {"sign", "verify", "encrypt-32", "decrypt-32", "keygen", "sm3-8192"};
    memset(msg, 0x61, sizeof msg);
    if (fastsm2_privkey_generate(&key) != FASTSM2_OK || fastsm2_privkey_pubkey(&pub, &key) != FASTSM2_OK ||
        fastsm2_pubkey_precompute(&pub) != FASTSM2_OK || fastsm2_sign(sig, &key, NULL, 0, msg, 32) != FASTSM2_OK)
        return 1;
    ctlen = sizeof ct;
    if (fastsm2_encrypt(ct, &ctlen, &pub, msg, 32, FASTSM2_CT_RAW) != FASTSM2_OK)
        return 1;
    for (int w = 0; w < 6; w++) {
        long cnt = 0;
        for (int i = 0; i < 50; i++) /* warm-up */
            sink += op(w);
        double t0 = cpu_now(), t;
        do {
            for (int i = 0; i < 20; i++)
                sink += op(w);
            cnt += 20;
            t = cpu_now() - t0;
        } while (t < secs);
        printf("%s %.1f\n", names[w], cnt / t);
    }
    return 0;
}
