/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The GPU API on a real device (built only with CUDA; exits 77, "skipped",
 * when no device is present). For the fast mode (and every
 * FASTSM2_GPU_TABLE_BITS the caller sets) and the constant-time mode:
 *  - fixed (d, e, k): the GPU's (r, s) equal fastsm2_sign_digest_with_nonce's
 *    bit for bit, one key and one key per item, edge nonces and digests;
 *  - GPU signatures with device-derived nonces verify on the CPU, and
 *    differ between calls and between equal items of one batch;
 *  - CPU signatures verify on the GPU, and a batch with invalid signatures
 *    mixed in (flipped bits, r or s = 0 or >= n, r + s = n, wrong key or
 *    digest) is flagged exactly as the CPU flags it;
 *  - keygen equals fastsm2_privkey_pubkey; d out of range is rejected;
 *  - argument errors are named errors, never crashes;
 *  - a batch larger than one chunk.
 * FS2_GPU_TEST_SMALL=1 shrinks every batch (for compute-sanitizer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_internal.h"
#include "testutil.h"

static const unsigned char N_BE[32] = {0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                       0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x72, 0x03, 0xDF, 0x6B, 0x21, 0xC6,
                                       0x05, 0x2B, 0x53, 0xBB, 0xF4, 0x09, 0x39, 0xD5, 0x41, 0x23};

static int small;

/* n - v for a small v, big-endian */
static void n_minus(unsigned char out[32], unsigned v)
{
    memcpy(out, N_BE, 32);
    unsigned borrow = v;
    for (int i = 31; i >= 0 && borrow; i--) {
        unsigned x = out[i];
        out[i] = (unsigned char)(x - (borrow & 0xFF));
        borrow = (borrow >> 8) + (x < (borrow & 0xFF));
    }
}

static void rand_scalar(unsigned char k[32])
{
    do {
        fs2t_rand_bytes(k, 32);
        k[0] &= 0x7F; /* below n */
    } while (k[31] == 0 && k[30] == 0);
}

#define NKEYS 6

static void make_keys(fastsm2_privkey *keys, fastsm2_pubkey *pubs)
{
    unsigned char d[32];
    for (int i = 0; i < NKEYS; i++) {
        if (i == 0) {
            memset(d, 0, 32);
            d[31] = 1;
        } else if (i == 1) {
            n_minus(d, 2);
        } else {
            rand_scalar(d);
        }
        CHECK_STATUS(fastsm2_privkey_from_bytes(&keys[i], d), FASTSM2_OK);
        CHECK_STATUS(fastsm2_privkey_pubkey(&pubs[i], &keys[i]), FASTSM2_OK);
    }
}

static void test_fixed_nonces(fastsm2_gpu *g, const fastsm2_privkey *keys)
{
    size_t n = small ? 300 : 4099;
    unsigned char *e = malloc(32 * n), *k = malloc(32 * n), *got = malloc(64 * n), *want = malloc(64 * n);
    fastsm2_privkey *per = malloc(sizeof(*per) * n);
    for (size_t i = 0; i < n; i++) {
        fs2t_rand_bytes(e + 32 * i, 32);
        rand_scalar(k + 32 * i);
        per[i] = keys[i % NKEYS];
    }
    memset(e, 0, 32);
    memset(e + 32, 0xFF, 32);
    memset(k, 0, 32), k[31] = 1;   /* k = 1 */
    n_minus(k + 32, 1);            /* k = n - 1 */
    memset(k + 64, 0, 32), k[95] = 2;
    n_minus(k + 96, 2);
    for (int one = 0; one < 2; one++) {
        size_t nk = one ? 1 : n;
        const fastsm2_privkey *ks = one ? keys : per;
        for (size_t i = 0; i < n; i++) {
            int r = fastsm2_sign_digest_with_nonce(want + 64 * i, &ks[one ? 0 : i], e + 32 * i, k + 32 * i);
            if (r != FASTSM2_OK) /* 2^-254: would make the batch fail as a whole */
                rand_scalar(k + 32 * i), i--;
        }
        CHECK_STATUS(fs2_gpu_sign_digest_batch_with_nonces(g, got, ks, nk, e, k, n), FASTSM2_OK);
        size_t diff = 0;
        for (size_t i = 0; i < n; i++)
            diff += memcmp(got + 64 * i, want + 64 * i, 64) != 0;
        if (diff)
            fprintf(stderr, "fixed nonces (%s): %zu of %zu signatures differ from the CPU's\n",
                    one ? "one key" : "key per item", diff, n);
        CHECK(diff == 0);
    }
    /* a nonce out of range: FASTSM2_ERR_SCALAR and zeroed output */
    memcpy(k + 32 * 5, N_BE, 32);
    CHECK_STATUS(fs2_gpu_sign_digest_batch_with_nonces(g, got, keys, 1, e, k, n), FASTSM2_ERR_SCALAR);
    CHECK(got[0] == 0 && got[64 * n - 1] == 0);
    free(e), free(k), free(got), free(want), free(per);
}

static void test_sign_verify(fastsm2_gpu *g, const fastsm2_privkey *keys, const fastsm2_pubkey *pubs)
{
    size_t n = small ? 256 : 20000;
    unsigned char *e = malloc(32 * n), *s1 = malloc(64 * n), *s2 = malloc(64 * n);
    int *res = malloc(sizeof(int) * n);
    fastsm2_privkey *per = malloc(sizeof(*per) * n);
    fastsm2_pubkey *perp = malloc(sizeof(*perp) * n);
    for (size_t i = 0; i < n; i++) {
        fs2t_rand_bytes(e + 32 * i, 32);
        per[i] = keys[i % NKEYS];
        perp[i] = pubs[i % NKEYS];
    }
    memcpy(e + 32, e, 32); /* items 0 and 1 equal */
    /* one key */
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(g, s1, keys, 1, e, n), FASTSM2_OK);
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(g, s2, keys, 1, e, n), FASTSM2_OK);
    size_t bad = 0, same = 0;
    for (size_t i = 0; i < n; i++) {
        bad += fastsm2_verify_digest(&pubs[0], e + 32 * i, s1 + 64 * i) != 1;
        same += memcmp(s1 + 64 * i, s2 + 64 * i, 64) == 0;
    }
    CHECK(bad == 0);
    CHECK(same == 0);                         /* a fresh seed per call */
    CHECK(memcmp(s1, s1 + 64, 64) != 0);      /* equal items, different nonces */
    /* GPU verifies its own and the CPU's */
    CHECK_STATUS(fastsm2_gpu_verify_digest_batch(g, res, pubs, 1, e, s1, n), FASTSM2_OK);
    bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += res[i] != 1;
    CHECK(bad == 0);
    /* key per item; CPU signatures in half of the items */
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(g, s1, per, n, e, n), FASTSM2_OK);
    for (size_t i = 0; i < n; i += 2)
        CHECK_STATUS(fastsm2_sign_digest(s1 + 64 * i, &per[i], e + 32 * i), FASTSM2_OK);
    bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += fastsm2_verify_digest(&perp[i], e + 32 * i, s1 + 64 * i) != 1;
    CHECK(bad == 0);
    /* invalid signatures mixed in, every kind, at known places */
    int *want = malloc(sizeof(int) * n);
    for (size_t i = 0; i < n; i++) {
        unsigned char *s = s1 + 64 * i;
        switch (i % 11) {
        case 1: s[fs2t_rand_u64() % 64] ^= (unsigned char)(1u << (fs2t_rand_u64() % 8)); break;
        case 3: memset(s, 0, 32); break;
        case 4: memset(s + 32, 0, 32); break;
        case 5: memcpy(s, N_BE, 32); break;
        case 6: memset(s + 32, 0xFF, 32); break;
        case 7: { /* s = n - r: r + s = n */
            unsigned char t[32];
            int borrow = 0;
            for (int b = 31; b >= 0; b--) {
                int v = N_BE[b] - s[b] - borrow;
                borrow = v < 0;
                t[b] = (unsigned char)v;
            }
            memcpy(s + 32, t, 32);
        } break;
        case 8: e[32 * i + (fs2t_rand_u64() % 32)] ^= 0x80; break;
        case 9: perp[i] = pubs[(i + 1) % NKEYS]; break;
        default: break;
        }
        want[i] = fastsm2_verify_digest(&perp[i], e + 32 * i, s);
    }
    CHECK_STATUS(fastsm2_gpu_verify_digest_batch(g, res, perp, n, e, s1, n), FASTSM2_OK);
    size_t wrong = 0, valid = 0;
    for (size_t i = 0; i < n; i++) {
        wrong += res[i] != want[i];
        valid += want[i];
    }
    if (wrong)
        fprintf(stderr, "verify: %zu of %zu results differ from the CPU's\n", wrong, n);
    CHECK(wrong == 0);
    CHECK(valid > n / 4 && valid < n);
    free(want);
    free(e), free(s1), free(s2), free(res), free(per), free(perp);
}

static void test_keygen(fastsm2_gpu *g)
{
    size_t n = small ? 200 : 5000;
    unsigned char *d = malloc(32 * n), *got = malloc(65 * n);
    for (size_t i = 0; i < n; i++)
        rand_scalar(d + 32 * i);
    memset(d, 0, 32), d[31] = 1;
    n_minus(d + 32, 2);
    CHECK_STATUS(fastsm2_gpu_keygen_batch(g, got, d, n), FASTSM2_OK);
    size_t diff = 0;
    for (size_t i = 0; i < n; i++) {
        fastsm2_privkey k;
        fastsm2_pubkey p;
        unsigned char want[65];
        size_t len = sizeof want;
        if (fastsm2_privkey_from_bytes(&k, d + 32 * i) != FASTSM2_OK || fastsm2_privkey_pubkey(&p, &k) != FASTSM2_OK ||
            fastsm2_pubkey_to_bytes(want, &len, &p, 0) != FASTSM2_OK || memcmp(want, got + 65 * i, 65) != 0)
            diff++;
    }
    CHECK(diff == 0);
    n_minus(d + 64, 1); /* d = n - 1: out of range */
    CHECK_STATUS(fastsm2_gpu_keygen_batch(g, got, d, n), FASTSM2_ERR_PRIVATE_KEY);
    CHECK(got[0] == 0 && got[65 * n - 1] == 0);
    memset(d + 64, 0, 32); /* d = 0 */
    CHECK_STATUS(fastsm2_gpu_keygen_batch(g, got, d, n), FASTSM2_ERR_PRIVATE_KEY);
    free(d), free(got);
}

static void test_errors(fastsm2_gpu *g, const fastsm2_privkey *keys, const fastsm2_pubkey *pubs)
{
    unsigned char e[64] = {0}, sig[128], pub[130];
    int res[2];
    fastsm2_gpu *none;
    CHECK_STATUS(fastsm2_gpu_new(NULL, 0, 0), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_new(&none, fastsm2_gpu_device_count(), 0), FASTSM2_ERR_UNSUPPORTED);
    CHECK(none == NULL);
    CHECK_STATUS(fastsm2_gpu_new(&none, -1, 0), FASTSM2_ERR_UNSUPPORTED);
    CHECK_STATUS(fastsm2_gpu_new(&none, 0, 0x80), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(NULL, sig, keys, 1, e, 2), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(g, NULL, keys, 1, e, 2), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(g, sig, NULL, 1, e, 2), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(g, sig, keys, 3, e, 2), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(g, sig, keys, 1, NULL, 2), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(g, sig, keys, 1, e, 0), FASTSM2_OK);
    fastsm2_privkey junk;
    memset(&junk, 0x5A, sizeof junk);
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(g, sig, &junk, 1, e, 2), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_verify_digest_batch(g, NULL, pubs, 1, e, sig, 2), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_verify_digest_batch(g, res, pubs, 2, e, sig, 3), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_verify_digest_batch(g, res, pubs, 1, e, NULL, 2), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_keygen_batch(g, NULL, e, 2), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_keygen_batch(g, pub, NULL, 2), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_keygen_batch(g, pub, e, (size_t)-1), FASTSM2_ERR_ARG);
}

static void test_big(fastsm2_gpu *g, const fastsm2_privkey *keys, const fastsm2_pubkey *pubs)
{
    size_t n = ((size_t)1 << 20) + 77; /* more than one chunk */
    unsigned char *e = malloc(32 * n), *s = malloc(64 * n);
    int *res = malloc(sizeof(int) * n);
    fs2t_rand_bytes(e, 32 * n);
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(g, s, keys + 2, 1, e, n), FASTSM2_OK);
    CHECK_STATUS(fastsm2_gpu_verify_digest_batch(g, res, pubs + 2, 1, e, s, n), FASTSM2_OK);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += res[i] != 1;
    CHECK(bad == 0);
    /* a sample on the CPU, from both ends of every chunk */
    for (size_t i = 0; i < n; i += (i % 1024 == 0) ? 1 : 4099)
        CHECK(fastsm2_verify_digest(&pubs[2], e + 32 * i, s + 64 * i) == 1);
    CHECK(fastsm2_verify_digest(&pubs[2], e + 32 * (n - 1), s + 64 * (n - 1)) == 1);
    free(e), free(s), free(res);
}

int main(void)
{
    small = getenv("FS2_GPU_TEST_SMALL") && atoi(getenv("FS2_GPU_TEST_SMALL"));
    int count = fastsm2_gpu_device_count();
    if (count <= 0) {
        printf("test_gpu_device: no CUDA device here: skipped\n");
        return 77;
    }
    fastsm2_privkey keys[NKEYS];
    fastsm2_pubkey pubs[NKEYS];
    make_keys(keys, pubs);
    for (int ct = 0; ct < 2; ct++) {
        fastsm2_gpu *g = NULL;
        int ret = fastsm2_gpu_new(&g, 0, ct ? FASTSM2_GPU_CONSTANT_TIME : 0);
        CHECK_STATUS(ret, FASTSM2_OK);
        if (ret != FASTSM2_OK) {
            fprintf(stderr, "fastsm2_gpu_new: %s\n", fs2_gpu_last_error(g));
            break;
        }
        printf("device 0: %s, %s mode, table width %d bits\n", fastsm2_gpu_device_name(g),
               ct ? "constant-time" : "fast", fs2_gpu_table_bits(g));
        fflush(stdout);
        CHECK(strlen(fastsm2_gpu_device_name(g)) > 0);
        test_fixed_nonces(g, keys);
        test_sign_verify(g, keys, pubs);
        test_keygen(g);
        test_errors(g, keys, pubs);
        if (!small)
            test_big(g, keys, pubs);
        if (fs2t_failed)
            fprintf(stderr, "last CUDA error: %s\n", fs2_gpu_last_error(g));
        fastsm2_gpu_free(g);
    }
    return fs2t_finish("test_gpu_device");
}
