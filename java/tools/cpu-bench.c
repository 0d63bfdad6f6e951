/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The C side of bench-java's per-CPU-second table: the operations of
 * java/bench's CpuTime (32-byte messages, the default ID, a precomputed
 * public key, C1C3C2 raw ciphertexts, SM3 of 8 KiB; SM4-GCM and SM4-CBC
 * with PKCS#7 of 1 KiB and 16 KiB, the key expanded once) timed by the
 * calling thread's CPU clock, as CpuTime times the Java side, so that a
 * loaded machine's waiting does not count. Prints "op ops_per_cpu_second"
 * lines.
 *   cpu-bench [seconds] [op,op,...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fastsm2.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static fastsm2_privkey key;
static fastsm2_pubkey pub;
static fastsm2_sm4_key sk;
static const unsigned char ivz[16];
static unsigned char msg[32], sig[64], ct[200], pt[64], big[16384], out[16384 + 32], dig[32], iv[16], tag[16];
static unsigned char gcm1[1024], gcm16[16384], cbc1[1024 + 16], cbc16[16384 + 16], tag1[16], tag16[16];
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
    case 5: fastsm2_sm3(dig, big, 8192); return dig[0] | 1;
    case 6: iv[0]++; return fastsm2_sm4_gcm_encrypt(out, tag, 16, &sk, iv, 12, NULL, 0, big, 1024);
    case 7: iv[0]++; return fastsm2_sm4_gcm_encrypt(out, tag, 16, &sk, iv, 12, NULL, 0, big, 16384);
    case 8: return fastsm2_sm4_gcm_decrypt(out, &sk, ivz, 12, NULL, 0, gcm1, 1024, tag1, 16);
    case 9: return fastsm2_sm4_gcm_decrypt(out, &sk, ivz, 12, NULL, 0, gcm16, 16384, tag16, 16);
    case 10: n = sizeof out; return fastsm2_sm4_cbc_encrypt(out, &n, &sk, ivz, FASTSM2_SM4_PAD_PKCS7, big, 1024);
    case 11: n = sizeof out; return fastsm2_sm4_cbc_encrypt(out, &n, &sk, ivz, FASTSM2_SM4_PAD_PKCS7, big, 16384);
    case 12:
        n = sizeof out;
        return fastsm2_sm4_cbc_decrypt(out, &n, &sk, ivz, FASTSM2_SM4_PAD_PKCS7, cbc1, sizeof cbc1);
    default:
        n = sizeof out;
        return fastsm2_sm4_cbc_decrypt(out, &n, &sk, ivz, FASTSM2_SM4_PAD_PKCS7, cbc16, sizeof cbc16);
    }
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 1.0;
    const char *only = argc > 2 ? argv[2] : NULL;
    static const char *names[] = {"sign",
                                  "verify",
                                  "encrypt-32",
                                  "decrypt-32",
                                  "keygen",
                                  "sm3-8192",
                                  "sm4-gcm-enc-1024",
                                  "sm4-gcm-enc-16384",
                                  "sm4-gcm-dec-1024",
                                  "sm4-gcm-dec-16384",
                                  "sm4-cbc-enc-1024",
                                  "sm4-cbc-enc-16384",
                                  "sm4-cbc-dec-1024",
                                  "sm4-cbc-dec-16384"};
    memset(msg, 0x61, sizeof msg);
    memset(big, 0x62, sizeof big);
    unsigned char k16[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    size_t n1 = sizeof cbc1, n16 = sizeof cbc16;
    if (fastsm2_privkey_generate(&key) != FASTSM2_OK || fastsm2_privkey_pubkey(&pub, &key) != FASTSM2_OK ||
        fastsm2_pubkey_precompute(&pub) != FASTSM2_OK || fastsm2_sign(sig, &key, NULL, 0, msg, 32) != FASTSM2_OK ||
        fastsm2_sm4_key_init(&sk, k16) != FASTSM2_OK ||
        fastsm2_sm4_gcm_encrypt(gcm1, tag1, 16, &sk, ivz, 12, NULL, 0, big, 1024) != FASTSM2_OK ||
        fastsm2_sm4_gcm_encrypt(gcm16, tag16, 16, &sk, ivz, 12, NULL, 0, big, 16384) != FASTSM2_OK ||
        fastsm2_sm4_cbc_encrypt(cbc1, &n1, &sk, ivz, FASTSM2_SM4_PAD_PKCS7, big, 1024) != FASTSM2_OK ||
        fastsm2_sm4_cbc_encrypt(cbc16, &n16, &sk, ivz, FASTSM2_SM4_PAD_PKCS7, big, 16384) != FASTSM2_OK)
        return 1;
    ctlen = sizeof ct;
    if (fastsm2_encrypt(ct, &ctlen, &pub, msg, 32, FASTSM2_CT_RAW) != FASTSM2_OK)
        return 1;
    for (int w = 0; w < (int)(sizeof names / sizeof names[0]); w++) {
        if (only != NULL) {
            char want[64];
            snprintf(want, sizeof want, ",%s,", names[w]);
            char have[1024];
            snprintf(have, sizeof have, ",%s,", only);
            if (strstr(have, want) == NULL)
                continue;
        }
        long cnt = 0;
        double t0 = cpu_now(), t;
        do /* warm-up: a tenth of the time */
            sink += op(w);
        while (cpu_now() - t0 < secs / 10);
        t0 = cpu_now();
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
