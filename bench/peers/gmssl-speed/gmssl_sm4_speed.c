/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gmssl-sm4-speed: GmSSL 3's SM4 (built by bench/peers/speed-peers-sm4.sh
 * with its fastest x86-64 option, ENABLE_SM4_AVX2) on the operations of `fastsm2 speed --sm4`
 * (sm4-MODE-SIZE), printed in the JSON shape of `fastsm2 speed --json`
 * with impl "gmssl":
 *
 *   gmssl-sm4-speed [--seconds S] [--rounds R] [--ops a,b,c] [--json]
 *
 * Each operation runs R slices of S seconds, the best counting; each is
 * checked first (it decrypts back to its plaintext; GCM gives RFC 8998's
 * example). Keys are expanded once, as fastsm2's rows do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gmssl/sm4.h>

static const char *const modes[] = {"ecb", "cbc-enc", "cbc-dec", "ctr", "gcm-enc", "gcm-dec", "ccm", "xts"};
static unsigned char key[32], iv[16], aad[13], pt[16384], ct[16384], back[16384], tag[16];
static SM4_KEY ek, dk, ek2;
static int mode;
static size_t len;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int call(int m, unsigned char *out, const unsigned char *in)
{
    unsigned char c[16];
    memcpy(c, iv, 16);
    switch (m) {
    case 0: sm4_encrypt_blocks(&ek, in, len / 16, out); return 1;
    case 1: sm4_cbc_encrypt_blocks(&ek, c, in, len / 16, out); return 1;
    case 2: sm4_cbc_decrypt_blocks(&dk, c, in, len / 16, out); return 1;
    case 3: sm4_ctr_encrypt(&ek, c, in, len, out); return 1;
    case 4: return sm4_gcm_encrypt(&ek, iv, 12, aad, sizeof aad, in, len, out, 16, tag) == 1;
    case 5: return sm4_gcm_decrypt(&ek, iv, 12, aad, sizeof aad, in, len, tag, 16, out) == 1;
    case 6: return sm4_ccm_encrypt(&ek, iv, 12, aad, sizeof aad, in, len, out, 16, tag) == 1;
    case 7: return sm4_xts_encrypt(&ek, &ek2, iv, in, len, out) == 1;
    case 8: return sm4_ccm_decrypt(&ek, iv, 12, aad, sizeof aad, in, len, tag, 16, out) == 1;
    default: return sm4_xts_decrypt(&dk, &ek2, iv, in, len, out) == 1;
    }
}

static int run(void)
{
    return mode == 2 || mode == 5 ? call(mode, back, ct) : call(mode, ct, pt);
}

/* encrypt, then decrypt back: 1 if the plaintext returns */
static int check(int m)
{
    static const int dec[] = {-1, 2, 2, 3, 5, 5, 8, 9};
    int e = m == 2 ? 1 : m == 5 ? 4 : m;
    if (!call(e, ct, pt))
        return 0;
    if (m == 0) {
        for (size_t i = 0; i < len / 16; i++)
            sm4_encrypt(&dk, ct + 16 * i, back + 16 * i); /* with the decryption key schedule */
    } else if (!call(dec[m], back, ct)) {
        return 0;
    }
    return memcmp(back, pt, len) == 0;
}

static int rfc8998(void)
{
    static const unsigned char k[16] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
                                        0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10};
    static const unsigned char n[12] = {0, 0, 0x12, 0x34, 0x56, 0x78, 0, 0, 0, 0, 0xab, 0xcd};
    static const unsigned char a[20] = {0xfe, 0xed, 0xfa, 0xce, 0xde, 0xad, 0xbe, 0xef, 0xfe, 0xed,
                                        0xfa, 0xce, 0xde, 0xad, 0xbe, 0xef, 0xab, 0xad, 0xda, 0xd2};
    static const unsigned char want[16] = {0x83, 0xde, 0x35, 0x41, 0xe4, 0xc2, 0xb5, 0x81,
                                           0x77, 0xe0, 0x65, 0xa9, 0xbf, 0x7b, 0x62, 0xec};
    static const unsigned char row[8] = {0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0xee, 0xaa};
    unsigned char p[64], c[64], t[16];
    SM4_KEY sk;
    for (int i = 0; i < 64; i++)
        p[i] = row[i / 8];
    sm4_set_encrypt_key(&sk, k);
    return sm4_gcm_encrypt(&sk, n, 12, a, sizeof a, p, 64, c, 16, t) == 1 && memcmp(t, want, 16) == 0;
}

int main(int argc, char **argv)
{
    double seconds = 1.0;
    int rounds = 5, json = 0, first = 1;
    const char *ops = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ops") && i + 1 < argc)
            ops = argv[++i];
        else if (!strcmp(argv[i], "--json"))
            json = 1;
        else {
            fprintf(stderr, "usage: gmssl-sm4-speed [--seconds S] [--rounds R] [--ops a,b,c] [--json]\n");
            return 2;
        }
    }
    if (!rfc8998()) {
        fprintf(stderr, "gmssl-sm4-speed: GmSSL's SM4-GCM does not give RFC 8998's tag\n");
        return 1;
    }
    for (size_t i = 0; i < sizeof key; i++)
        key[i] = (unsigned char)(7 * i + 1);
    for (size_t i = 0; i < sizeof iv; i++)
        iv[i] = (unsigned char)(3 * i + 5);
    for (size_t i = 0; i < sizeof aad; i++)
        aad[i] = (unsigned char)i;
    for (size_t i = 0; i < sizeof pt; i++)
        pt[i] = (unsigned char)(i * 131 + 17);
    sm4_set_encrypt_key(&ek, key);
    sm4_set_decrypt_key(&dk, key);
    sm4_set_encrypt_key(&ek2, key + 16);
    if (json)
        printf("{\"impl\": \"gmssl\", \"results\": [");
    for (int m = 0; m < 8; m++)
        for (size_t n = 64; n <= 16384; n *= 16) {
            char op[40];
            snprintf(op, sizeof op, "sm4-%s-%zu", modes[m], n);
            if (ops) {
                const char *hit = strstr(ops, op);
                size_t ol = strlen(op);
                if (!hit || (hit != ops && hit[-1] != ',') || (hit[ol] != ',' && hit[ol] != '\0'))
                    continue;
            }
            mode = m, len = n;
            if (!check(m)) {
                fprintf(stderr, "gmssl-sm4-speed: %s: does not decrypt to its plaintext\n", op);
                return 1;
            }
            if (m == 5 && !call(4, ct, pt)) /* gcm-dec opens a fresh sealing */
                return 1;
            double best = 0;
            for (int r = 0; r < rounds; r++) {
                double t0 = now(), t;
                long calls = 0;
                do {
                    if (!run()) {
                        fprintf(stderr, "gmssl-sm4-speed: %s failed\n", op);
                        return 1;
                    }
                    calls++;
                } while ((t = now() - t0) < seconds);
                if (calls / t > best)
                    best = calls / t;
            }
            double v = best * (double)n / 1e6;
            if (json)
                printf("%s\n  {\"impl\": \"gmssl\", \"op\": \"%s\", \"value\": %.2f, \"unit\": \"MB/s\"}",
                       first ? "" : ",", op, v);
            else
                printf("%-18s %12.1f MB/s\n", op, v);
            first = 0;
        }
    if (json)
        printf("\n]}\n");
    return 0;
}
