/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `fastsm2-speed --sm4`: SM4 (GB/T 32907) in every mode at 64 B, 1 KiB and
 * 16 KiB, fastsm2 beside OpenSSL's SM4 (EVP, the same mode) and beside
 * OpenSSL's AES-128 in the same mode (the yardstick: what AES-NI gives on
 * this CPU), in one process run. The three take turns slice by slice, each
 * keeping its best slice (bench/speed.c's method), so the ratios come from
 * one machine state. Before timing, every fastsm2 output is checked against
 * OpenSSL's SM4 where that libcrypto has the mode (OpenSSL 3.0 and 3.1 have
 * no SM4-GCM, -CCM or -XTS: those cells say "-"), and GCM decryption must
 * open what fastsm2 sealed.
 *
 * Modes: ecb, cbc-enc, cbc-dec (no padding), ctr, gcm-enc, gcm-dec (12-byte
 * IV, 13 bytes of AAD as a TLS record has, 16-byte tag), ccm (encryption,
 * 12-byte nonce, 13 bytes of AAD, 16-byte tag), xts (encryption of one
 * data unit, GB/T 17964's tweak order, OpenSSL's default). MB/s (10^6
 * bytes) of the data, one thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "bench.h"
#include "bench_sm4.h"

#define SM4B_MAX 16384
static const size_t sizes[] = {64, 1024, 16384};
static const char *const modes[] = {"ecb", "cbc-enc", "cbc-dec", "ctr", "gcm-enc", "gcm-dec", "ccm", "xts"};
#define NMODES (sizeof modes / sizeof modes[0])
#define NSIZES (sizeof sizes / sizeof sizes[0])

enum { IMPL_FASTSM2, IMPL_OSSL_SM4, IMPL_OSSL_AES, NIMPL };
static const char *const impl_names[NIMPL] = {"fastsm2", "openssl", "openssl-aes128"};

typedef struct {
    int impl, mode;
    size_t len;
    fastsm2_sm4_key key, key2;
    EVP_CIPHER_CTX *ctx;
    EVP_CIPHER *cipher;
    unsigned char k[32], iv[16], aad[13], tag[16];
    unsigned char in[SM4B_MAX], out[SM4B_MAX + 16];
} sm4b_ctx;

static const char *ossl_name(int impl, int mode)
{
    static const char *const sm4[] = {"SM4-ECB", "SM4-CBC", "SM4-CBC", "SM4-CTR",
                                      "SM4-GCM", "SM4-GCM", "SM4-CCM", "SM4-XTS"};
    static const char *const aes[] = {"AES-128-ECB", "AES-128-CBC", "AES-128-CBC", "AES-128-CTR",
                                      "AES-128-GCM", "AES-128-GCM", "AES-128-CCM", "AES-128-XTS"};
    return impl == IMPL_OSSL_SM4 ? sm4[mode] : aes[mode];
}

static int is_aead(int mode)
{
    return mode == 4 || mode == 5 || mode == 6;
}

/* OpenSSL, one call: the mode on c->in into c->out (gcm-dec: the sealing
 * made at set-up, c->out and c->tag, opened into c->in). */
static int ossl_run(sm4b_ctx *c)
{
    int l = 0, l2 = 0, enc = !(c->mode == 2 || c->mode == 5);
    if (is_aead(c->mode)) {
        const unsigned char *src = c->mode == 5 ? c->out : c->in;
        unsigned char *dst = c->mode == 5 ? c->in : c->out;
        if (!EVP_CipherInit_ex(c->ctx, NULL, NULL, NULL, c->iv, enc))
            return 0;
        if (c->mode == 6 && !EVP_CipherUpdate(c->ctx, NULL, &l, NULL, (int)c->len))
            return 0;
        if (!EVP_CipherUpdate(c->ctx, NULL, &l, c->aad, sizeof c->aad))
            return 0;
        if (c->mode == 5 && !EVP_CIPHER_CTX_ctrl(c->ctx, EVP_CTRL_AEAD_SET_TAG, 16, c->tag))
            return 0;
        if (!EVP_CipherUpdate(c->ctx, dst, &l, src, (int)c->len) || !EVP_CipherFinal_ex(c->ctx, dst + l, &l2))
            return 0;
        return c->mode == 5 || EVP_CIPHER_CTX_ctrl(c->ctx, EVP_CTRL_AEAD_GET_TAG, 16, c->tag);
    }
    if (!EVP_CipherInit_ex(c->ctx, NULL, NULL, NULL, c->mode == 0 ? NULL : c->iv, enc))
        return 0;
    return EVP_CipherUpdate(c->ctx, c->out, &l, c->in, (int)c->len) && (size_t)l == c->len;
}

/* fastsm2, one call. */
static int fs_run(sm4b_ctx *c)
{
    size_t n = sizeof c->out;
    switch (c->mode) {
    case 0: return fastsm2_sm4_ecb_encrypt(c->out, &c->key, c->in, c->len) == FASTSM2_OK;
    case 1: return fastsm2_sm4_cbc_encrypt(c->out, &n, &c->key, c->iv, FASTSM2_SM4_PAD_NONE, c->in, c->len) == 1;
    case 2: return fastsm2_sm4_cbc_decrypt(c->out, &n, &c->key, c->iv, FASTSM2_SM4_PAD_NONE, c->in, c->len) == 1;
    case 3: return fastsm2_sm4_ctr(c->out, &c->key, c->iv, c->in, c->len) == FASTSM2_OK;
    case 4:
        return fastsm2_sm4_gcm_encrypt(c->out, c->tag, 16, &c->key, c->iv, 12, c->aad, sizeof c->aad, c->in, c->len) ==
               FASTSM2_OK;
    case 5:
        return fastsm2_sm4_gcm_decrypt(c->in, &c->key, c->iv, 12, c->aad, sizeof c->aad, c->out, c->len, c->tag, 16) ==
               FASTSM2_OK;
    case 6:
        return fastsm2_sm4_ccm_encrypt(c->out, c->tag, 16, &c->key, c->iv, 12, c->aad, sizeof c->aad, c->in, c->len) ==
               FASTSM2_OK;
    default: return fastsm2_sm4_xts_encrypt(c->out, &c->key, &c->key2, FASTSM2_SM4_XTS_GB, c->iv, c->in, c->len) == 1;
    }
}

static int run_case(void *p)
{
    sm4b_ctx *c = p;
    return c->impl == IMPL_FASTSM2 ? fs_run(c) : ossl_run(c);
}

static void free_case(sm4b_ctx *c)
{
    if (!c)
        return;
    EVP_CIPHER_CTX_free(c->ctx);
    EVP_CIPHER_free(c->cipher);
    fastsm2_sm4_key_clear(&c->key);
    fastsm2_sm4_key_clear(&c->key2);
    free(c);
}

/* A case's context, its data sealed first for gcm-dec; NULL with *why set
 * when this libcrypto lacks the mode. */
static sm4b_ctx *new_case(int impl, int mode, size_t len, const char **why)
{
    sm4b_ctx *c = calloc(1, sizeof *c);
    *why = NULL;
    if (!c)
        return NULL;
    c->impl = impl, c->mode = mode, c->len = len;
    for (size_t i = 0; i < sizeof c->k; i++)
        c->k[i] = (unsigned char)(7 * i + 1);
    for (size_t i = 0; i < sizeof c->iv; i++)
        c->iv[i] = (unsigned char)(3 * i + 5);
    for (size_t i = 0; i < sizeof c->aad; i++)
        c->aad[i] = (unsigned char)i;
    for (size_t i = 0; i < len; i++)
        c->in[i] = (unsigned char)(i * 131 + 17);
    if (fastsm2_sm4_key_init(&c->key, c->k) != FASTSM2_OK || fastsm2_sm4_key_init(&c->key2, c->k + 16) != 1) {
        free_case(c);
        return NULL;
    }
    if (impl != IMPL_FASTSM2) {
        c->cipher = EVP_CIPHER_fetch(NULL, ossl_name(impl, mode), NULL);
        if (!c->cipher) {
            *why = "not in this libcrypto";
            free_case(c);
            return NULL;
        }
        c->ctx = EVP_CIPHER_CTX_new();
        int enc = !(mode == 2 || mode == 5);
        if (!c->ctx || !EVP_CipherInit_ex(c->ctx, c->cipher, NULL, NULL, NULL, enc) ||
            (is_aead(mode) && !EVP_CIPHER_CTX_ctrl(c->ctx, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL)) ||
            (mode == 6 && !EVP_CIPHER_CTX_ctrl(c->ctx, EVP_CTRL_AEAD_SET_TAG, 16, NULL)) ||
            !EVP_CipherInit_ex(c->ctx, NULL, NULL, c->k, NULL, enc) || !EVP_CIPHER_CTX_set_padding(c->ctx, 0)) {
            *why = "OpenSSL refused the set-up";
            free_case(c);
            return NULL;
        }
    }
    if (mode == 5) { /* gcm-dec: a ciphertext and tag of this side's own */
        c->mode = 4;
        int ok = run_case(c);
        c->mode = 5;
        if (!ok) {
            free_case(c);
            return NULL;
        }
    }
    return c;
}

/* fastsm2's output on a fresh case equals OpenSSL's SM4 (where it has the
 * mode), and gcm-dec gives the plaintext back. 1 if so. */
static int check_row(int mode, size_t len, const char *op)
{
    const char *why;
    sm4b_ctx *f = new_case(IMPL_FASTSM2, mode, len, &why), *o = new_case(IMPL_OSSL_SM4, mode, len, &why);
    int ok = f != NULL && run_case(f);
    if (ok && mode == 5) {
        for (size_t i = 0; i < len; i++)
            ok &= f->in[i] == (unsigned char)(i * 131 + 17);
    } else if (ok && o != NULL) {
        ok = run_case(o) && memcmp(f->out, o->out, len) == 0 && (!is_aead(mode) || memcmp(f->tag, o->tag, 16) == 0);
    }
    if (!ok)
        bench_fail("fastsm2", op, "differs from OpenSSL's SM4, or failed");
    free_case(f);
    free_case(o);
    return ok;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: fastsm2-speed --sm4 [--seconds S] [--rounds R] [--ops MODE,...] [--json]\n"
               "\n"
               "SM4 in every mode at 64 B, 1 KiB and 16 KiB: fastsm2 beside OpenSSL's SM4 and\n"
               "OpenSSL's AES-128 in the same mode (EVP), alternating slices, best slice each.\n"
               "Modes: ecb cbc-enc cbc-dec ctr gcm-enc gcm-dec ccm xts (MB/s, 10^6 bytes).\n"
               "  --seconds S  timed seconds per record (default 0.5)\n"
               "  --rounds R   slices per record (default 5)\n"
               "  --ops LIST   these modes only\n"
               "  --json       one JSON object instead of the table\n");
}

int bench_sm4_main(int argc, char **argv)
{
    double seconds = 0.5, best[NMODES][NSIZES][NIMPL];
    int rounds = 5, json = 0, sel[NMODES], any = 0, failed = 0;
    const char *why[NMODES][NSIZES][NIMPL];
    memset(sel, 0, sizeof sel);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--sm4")) {
            continue;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--seconds") && i + 1 < argc) {
            seconds = atof(argv[++i]);
        } else if (!strcmp(a, "--rounds") && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (!strcmp(a, "--ops") && i + 1 < argc) {
            char *list = argv[++i];
            for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
                size_t m = 0;
                while (m < NMODES && strcmp(tok, modes[m]) != 0)
                    m++;
                if (m == NMODES) {
                    fprintf(stderr, "fastsm2-speed --sm4: unknown mode %s\n", tok);
                    usage(stderr);
                    return 2;
                }
                sel[m] = any = 1;
            }
        } else {
            fprintf(stderr, "fastsm2-speed --sm4: unknown option %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!(seconds > 0.0 && seconds <= 3600.0) || rounds < 1 || rounds > 1000) {
        usage(stderr);
        return 2;
    }
    if (!any)
        for (size_t m = 0; m < NMODES; m++)
            sel[m] = 1;
    if (!json) {
        printf("fastsm2-speed --sm4: single thread, best of %d slices, %.6g s per record, MB/s\n", rounds, seconds);
        printf("SM4:      %s\n", fastsm2_sm4_backend_name());
        printf("OpenSSL:  %s\n", OpenSSL_version(OPENSSL_VERSION));
        printf("yardstick: OpenSSL's AES-128 in the same mode\n\n");
        printf("%-18s %10s %12s %14s %18s %16s\n", "op", "fastsm2", "OpenSSL SM4", "OpenSSL AES-128",
               "fastsm2/OpenSSL-SM4", "fastsm2/AES-128");
        printf("%-18s %10s %12s %14s %18s %16s\n", "--", "-------", "-----------", "---------------",
               "-------------------", "---------------");
    }
    for (size_t m = 0; m < NMODES; m++)
        for (size_t s = 0; s < NSIZES; s++) {
            char op[40];
            sm4b_ctx *ctx[NIMPL];
            snprintf(op, sizeof op, "sm4-%s-%zu", modes[m], sizes[s]);
            for (int k = 0; k < NIMPL; k++)
                best[m][s][k] = -1, why[m][s][k] = NULL;
            if (!sel[m])
                continue;
            if (!check_row((int)m, sizes[s], op)) {
                failed = 1;
                continue;
            }
            for (int k = 0; k < NIMPL; k++) {
                ctx[k] = new_case(k, (int)m, sizes[s], &why[m][s][k]);
                if (ctx[k])
                    best[m][s][k] = 0;
            }
            for (int r = 0; r < rounds; r++)
                for (int k = 0; k < NIMPL; k++) {
                    double rate;
                    if (!ctx[k])
                        continue;
                    if (!bench_slice(run_case, ctx[k], seconds / rounds, &rate)) {
                        bench_fail(impl_names[k], op, "a timed call failed");
                        failed = 1;
                        best[m][s][k] = -1;
                        free_case(ctx[k]);
                        ctx[k] = NULL;
                        continue;
                    }
                    double v = rate * (double)sizes[s] / 1e6;
                    if (v > best[m][s][k])
                        best[m][s][k] = v;
                }
            for (int k = 0; k < NIMPL; k++)
                free_case(ctx[k]);
            if (!json) {
                char v[NIMPL][24], r1[24], r2[24];
                for (int k = 0; k < NIMPL; k++)
                    snprintf(v[k], sizeof v[k], best[m][s][k] >= 0 ? "%.1f" : "-", best[m][s][k]);
                snprintf(r1, sizeof r1, best[m][s][0] > 0 && best[m][s][1] > 0 ? "%.2f" : "-",
                         best[m][s][0] / best[m][s][1]);
                snprintf(r2, sizeof r2, best[m][s][0] > 0 && best[m][s][2] > 0 ? "%.2f" : "-",
                         best[m][s][0] / best[m][s][2]);
                printf("%-18s %10s %12s %14s %18s %16s\n", op, v[0], v[1], v[2], r1, r2);
                fflush(stdout);
            }
        }
    if (json) {
        int first = 1;
        printf("{\"sm4_backend\": \"%s\", \"openssl_version\": \"%s\", \"seconds\": %.6g, \"rounds\": %d, "
               "\"results\": [",
               fastsm2_sm4_backend_name(), OpenSSL_version(OPENSSL_VERSION), seconds, rounds);
        for (size_t m = 0; m < NMODES; m++)
            for (size_t s = 0; s < NSIZES; s++)
                for (int k = 0; k < NIMPL; k++)
                    if (sel[m] && best[m][s][k] >= 0) {
                        printf("%s\n  {\"impl\": \"%s\", \"op\": \"sm4-%s-%zu\", \"value\": %.2f, \"unit\": \"MB/s\"}",
                               first ? "" : ",", impl_names[k], modes[m], sizes[s], best[m][s][k]);
                        first = 0;
                    }
        printf("\n]}\n");
    }
    if (failed)
        fprintf(stderr, "fastsm2-speed --sm4: some results were wrong (see above); exit 1\n");
    return failed;
}
