/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gcrypt-sm4-speed: libgcrypt's SM4 (its AES-NI, AVX2 and GFNI code where
 * the CPU has them) on the operations of `fastsm2 speed --sm4`
 * (sm4-MODE-SIZE), printed in the JSON shape of `fastsm2 speed --json`
 * with impl "libgcrypt", for bench/peers/speed-peers-sm4.sh:
 *
 *   gcrypt-sm4-speed [--seconds S] [--rounds R] [--ops a,b,c] [--json]
 *
 * Each operation runs R slices of S seconds, the best counting; each is
 * checked first (it decrypts back to its plaintext, and GCM gives RFC
 * 8998's example). libgcrypt's XTS is IEEE 1619's (it has no GB/T 17964
 * order): the xts rows compare the same work with the other tweak order.
 * Build: cc -O2 gcrypt_sm4_speed.c -lgcrypt
 */
#include <gcrypt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const modes[] = {"ecb", "cbc-enc", "cbc-dec", "ctr", "gcm-enc", "gcm-dec", "ccm", "xts"};
static const int gmode[] = {GCRY_CIPHER_MODE_ECB, GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_MODE_CTR,
                            GCRY_CIPHER_MODE_GCM, GCRY_CIPHER_MODE_GCM, GCRY_CIPHER_MODE_CCM, GCRY_CIPHER_MODE_XTS};

static unsigned char key[32], iv[16], aad[13], pt[16384], ct[16384], back[16384], tag[16];
static gcry_cipher_hd_t h;
static int mode;
static size_t len;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One call of the mode: out from in (decrypting for cbc-dec, gcm-dec). */
static int call(unsigned char *out, const unsigned char *in, int dec)
{
    gcry_error_t e = 0;
    if (mode == 4 || mode == 5 || mode == 6) {
        e |= gcry_cipher_setiv(h, iv, 12);
        if (mode == 6) {
            uint64_t p[3] = {len, sizeof aad, 16};
            e |= gcry_cipher_ctl(h, GCRYCTL_SET_CCM_LENGTHS, p, sizeof p);
        }
        e |= gcry_cipher_authenticate(h, aad, sizeof aad);
        if (dec) {
            e |= gcry_cipher_decrypt(h, out, len, in, len);
            e |= gcry_cipher_checktag(h, tag, 16);
        } else {
            e |= gcry_cipher_encrypt(h, out, len, in, len);
            e |= gcry_cipher_gettag(h, tag, 16);
        }
    } else {
        if (mode == 3)
            e |= gcry_cipher_setctr(h, iv, 16);
        else if (mode != 0)
            e |= gcry_cipher_setiv(h, iv, 16);
        e |= dec ? gcry_cipher_decrypt(h, out, len, in, len) : gcry_cipher_encrypt(h, out, len, in, len);
    }
    return e == 0;
}

static int run(void)
{
    return mode == 2 || mode == 5 ? call(back, ct, 1) : call(ct, pt, 0);
}

/* RFC 8998 A.1's SM4-GCM example: 1 if libgcrypt gives its tag. */
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
    gcry_cipher_hd_t g;
    for (int i = 0; i < 64; i++)
        p[i] = row[i / 8];
    if (gcry_cipher_open(&g, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_GCM, 0) || gcry_cipher_setkey(g, k, 16) ||
        gcry_cipher_setiv(g, n, 12) || gcry_cipher_authenticate(g, a, sizeof a) ||
        gcry_cipher_encrypt(g, c, 64, p, 64) || gcry_cipher_gettag(g, t, 16))
        return 0;
    gcry_cipher_close(g);
    return memcmp(t, want, 16) == 0;
}

int main(int argc, char **argv)
{
    double seconds = 1.0;
    int rounds = 5, json = 0;
    char *ops = NULL;
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
            fprintf(stderr, "usage: gcrypt-sm4-speed [--seconds S] [--rounds R] [--ops a,b,c] [--json]\n");
            return 2;
        }
    }
    if (!gcry_check_version(NULL))
        return 1;
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    if (!rfc8998()) {
        fprintf(stderr, "gcrypt-sm4-speed: libgcrypt's SM4-GCM does not give RFC 8998's tag\n");
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
    if (json)
        printf("{\"impl\": \"libgcrypt\", \"version\": \"%s\", \"results\": [", gcry_check_version(NULL));
    int first = 1;
    for (size_t m = 0; m < 8; m++)
        for (size_t n = 64; n <= 16384; n *= 16) {
            char op[40];
            snprintf(op, sizeof op, "sm4-%s-%zu", modes[m], n);
            if (ops) {
                const char *hit = strstr(ops, op);
                size_t ol = strlen(op);
                if (!hit || (hit != ops && hit[-1] != ',') || (hit[ol] != ',' && hit[ol] != '\0'))
                    continue;
            }
            mode = (int)m, len = n;
            if (gcry_cipher_open(&h, GCRY_CIPHER_SM4, gmode[m], 0) || gcry_cipher_setkey(h, key, m == 7 ? 32 : 16)) {
                fprintf(stderr, "gcrypt-sm4-speed: %s: not available\n", op);
                continue;
            }
            /* check: encrypt, then decrypt back */
            int save = mode;
            mode = m == 2 ? 1 : m == 5 ? 4 : (int)m;
            int ok = call(ct, pt, 0);
            mode = save;
            ok = ok && call(back, ct, 1) && memcmp(back, pt, n) == 0;
            if (m == 2 || m == 5)
                ok = ok && call(back, ct, 1);
            if (!ok) {
                fprintf(stderr, "gcrypt-sm4-speed: %s: does not decrypt to its plaintext\n", op);
                return 1;
            }
            double best = 0;
            for (int r = 0; r < rounds; r++) {
                double t0 = now(), t;
                long calls = 0;
                do {
                    if (!run()) {
                        fprintf(stderr, "gcrypt-sm4-speed: %s failed\n", op);
                        return 1;
                    }
                    calls++;
                } while ((t = now() - t0) < seconds);
                if (calls / t > best)
                    best = calls / t;
            }
            gcry_cipher_close(h);
            double v = best * (double)n / 1e6;
            if (json)
                printf("%s\n  {\"impl\": \"libgcrypt\", \"op\": \"%s\", \"value\": %.2f, \"unit\": \"MB/s\"}",
                       first ? "" : ",", op, v);
            else
                printf("%-18s %12.1f MB/s\n", op, v);
            first = 0;
        }
    if (json)
        printf("\n]}\n");
    return 0;
}
