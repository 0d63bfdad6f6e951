/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The GPU API on a real device (built only with CUDA; exits 77, "skipped",
 * when no device is present). For the fast mode (and every
 * FASTSM2_GPU_TABLE_BITS the caller sets) and the constant-time mode:
 *  - fixed (d, e, k): the GPU's (r, s) equal fastsm2_sign_digest_with_nonce's
 *    bit for bit, one key and one key per item, edge nonces and digests,
 *    and the exceptional nonce of the table width (done on the CPU);
 *  - GPU signatures with device-derived nonces verify on the CPU, and
 *    differ between calls and between equal items of one batch;
 *  - CPU signatures verify on the GPU, and a batch with invalid signatures
 *    mixed in (flipped bits, r or s = 0 or >= n, r + s = n, wrong key or
 *    digest) is flagged exactly as the CPU flags it; a signature whose s
 *    is the table width's exceptional scalar (left to the host);
 *  - keygen equals fastsm2_privkey_pubkey (the exceptional keys of the
 *    table width too); d out of range is rejected;
 *  - argument errors are named errors, never crashes;
 *  - a batch larger than one chunk.
 * FS2_GPU_TEST_SMALL=1 shrinks every batch (for compute-sanitizer);
 * FS2_GPU_TEST_FAST_ONLY=1 leaves out the constant-time mode (its table
 * width is fixed, so a run for another fast-mode width need not repeat it).
 *
 * Built against the emulated CUDA runtime (FASTSM2_CUDA=EMU, FS2_GPU_EMU;
 * tests/gpu/emu/), the batches are small (the kernels run on the CPU) and
 * the chunks too (FASTSM2_GPU_CHUNK), and it also checks, through the
 * emulator:
 *  - every injected CUDA failure (each cudaMalloc, launch and copy of a
 *    cycle of calls, failed in turn): a named error, outputs zeroed, no work
 *    left queued on a stream, no event leaked, and the context signs,
 *    verifies and generates keys correctly afterwards;
 *  - a nonce rejected on the device (forced): the CPU signs that item
 *    (with the caller's nonce when given: bit for bit);
 *  - nothing leaked at the end, no copy outside a live device buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>

#include "gpu/gpu_internal.h"
#include "testutil.h"
#ifdef FS2_GPU_EMU
#include "cuda_emu.h"
#endif

static const unsigned char N_BE[32] = {0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                       0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x72, 0x03, 0xDF, 0x6B, 0x21, 0xC6,
                                       0x05, 0x2B, 0x53, 0xBB, 0xF4, 0x09, 0x39, 0xD5, 0x41, 0x23};

static int small; /* 1: compute-sanitizer sizes, 2: the emulator's */

/* batch sizes: the full one, the emulator's, compute-sanitizer's */
static size_t size_for(size_t full, size_t emu, size_t tiny)
{
    return small == 1 ? tiny : small == 2 ? emu : full;
}

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

/* r = a - b mod 2^256, big-endian */
static void be_sub(unsigned char r[32], const unsigned char a[32], const unsigned char b[32])
{
    int borrow = 0;
    for (int i = 31; i >= 0; i--) {
        int v = a[i] - b[i] - borrow;
        borrow = v < 0;
        r[i] = (unsigned char)v;
    }
}

/* The scalar whose fixed-base multiplication with a width-w table meets
 * its exceptional case (src/gpu/cuda/sm2_gpu_point.cuh): k = 2^257 -
 * 2^(L + 1) - n with L = (ceil(256 / w) - 1) w; with twin, n - k. The
 * device leaves such an item to the CPU. */
static void exceptional_scalar(unsigned char k[32], int w, int twin)
{
    const int l = ((256 + w - 1) / w - 1) * w;
    unsigned char t[32] = {0}, zero[32] = {0};
    t[31 - (l + 1) / 8] = (unsigned char)(1u << ((l + 1) % 8));
    be_sub(k, zero, N_BE);
    be_sub(k, k, t);
    if (twin)
        be_sub(k, N_BE, k);
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
    size_t n = size_for(4099, 700, 300);
    unsigned char *e = malloc(32 * n), *k = malloc(32 * n), *got = malloc(64 * n), *want = malloc(64 * n);
    fastsm2_privkey *per = malloc(sizeof(*per) * n);
    for (size_t i = 0; i < n; i++) {
        fs2t_rand_bytes(e + 32 * i, 32);
        rand_scalar(k + 32 * i);
        per[i] = keys[i % NKEYS];
    }
    memset(e, 0, 32);
    memset(e + 32, 0xFF, 32);
    memset(k, 0, 32), k[31] = 1; /* k = 1 */
    n_minus(k + 32, 1);          /* k = n - 1 */
    memset(k + 64, 0, 32), k[95] = 2;
    n_minus(k + 96, 2);
    /* the exceptional nonces of this table width: the CPU signs them */
    exceptional_scalar(k + 128, fs2_gpu_table_bits(g), 0);
    exceptional_scalar(k + 160, fs2_gpu_table_bits(g), 1);
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
    size_t n = size_for(20000, 1500, 256);
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
    CHECK(same == 0);                    /* a fresh seed per call */
    CHECK(memcmp(s1, s1 + 64, 64) != 0); /* equal items, different nonces */
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
    size_t n = size_for(5000, 400, 200);
    unsigned char *d = malloc(32 * n), *got = malloc(65 * n);
    for (size_t i = 0; i < n; i++)
        rand_scalar(d + 32 * i);
    memset(d, 0, 32), d[31] = 1;
    n_minus(d + 32, 2);
    /* the exceptional keys of this table width: the CPU computes them */
    exceptional_scalar(d + 96, fs2_gpu_table_bits(g), 0);
    exceptional_scalar(d + 128, fs2_gpu_table_bits(g), 1);
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

/* A signature whose s is the table width's exceptional scalar: the device
 * leaves it to the host, which verifies it (valid, and not once a bit of r
 * flips), one key and a key per item. The key is made for it: r = (e +
 * x(kG)) mod n from any signature with nonce k, d = (k + r) (s + r)^-1 - 1. */
static void test_exceptional_verify(fastsm2_gpu *g, const fastsm2_privkey *keys)
{
    unsigned char e[32], k[32], sig[64], db[32];
    fs2t_rand_bytes(e, 32);
    rand_scalar(k);
    CHECK_STATUS(fastsm2_sign_digest_with_nonce(sig, &keys[0], e, k), FASTSM2_OK);
    exceptional_scalar(sig + 32, fs2_gpu_table_bits(g), 0);
    BN_CTX *bc = BN_CTX_new();
    BIGNUM *n = BN_bin2bn(N_BE, 32, NULL), *r = BN_bin2bn(sig, 32, NULL), *s = BN_bin2bn(sig + 32, 32, NULL);
    BIGNUM *kk = BN_bin2bn(k, 32, NULL), *d = BN_new(), *t = BN_new();
    BN_mod_add(t, s, r, n, bc);
    BN_mod_inverse(t, t, n, bc);
    BN_mod_add(d, kk, r, n, bc);
    BN_mod_mul(d, d, t, n, bc);
    BN_sub_word(d, 1);
    BN_nnmod(d, d, n, bc);
    BN_bn2binpad(d, db, 32);
    BN_free(n), BN_free(r), BN_free(s), BN_free(kk), BN_free(d), BN_free(t);
    BN_CTX_free(bc);
    fastsm2_privkey key;
    fastsm2_pubkey pub[3];
    if (fastsm2_privkey_from_bytes(&key, db) != FASTSM2_OK) /* d = n - 1 or 0: 2^-255 */
        return;
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub[0], &key), FASTSM2_OK);
    pub[1] = pub[2] = pub[0];
    CHECK(fastsm2_verify_digest(&pub[0], e, sig) == 1);
    unsigned char es[96], sigs[192];
    for (int i = 0; i < 3; i++) {
        memcpy(es + 32 * i, e, 32);
        memcpy(sigs + 64 * i, sig, 64);
    }
    sigs[64 + 31] ^= 1; /* item 1: r changed */
    int res[3];
    for (int per = 0; per < 2; per++) {
        res[0] = res[1] = res[2] = 7;
        CHECK_STATUS(fastsm2_gpu_verify_digest_batch(g, res, pub, per ? 3 : 1, es, sigs, 3), FASTSM2_OK);
        CHECK(res[0] == 1 && res[1] == 0 && res[2] == 1);
    }
    fastsm2_privkey_clear(&key);
}

static void test_errors(fastsm2_gpu *g, const fastsm2_privkey *keys, const fastsm2_pubkey *pubs)
{
    unsigned char e[64] = {0}, sig[128], pub[130];
    int res[3]; /* verify is called with n = 3 below: its n results are zeroed */
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
    res[0] = res[1] = res[2] = 7;
    CHECK_STATUS(fastsm2_gpu_verify_digest_batch(g, res, pubs, 2, e, sig, 3), FASTSM2_ERR_ARG);
    CHECK(res[0] == 0 && res[1] == 0 && res[2] == 0);
    CHECK_STATUS(fastsm2_gpu_verify_digest_batch(g, res, pubs, 1, e, NULL, 2), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_keygen_batch(g, NULL, e, 2), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_keygen_batch(g, pub, NULL, 2), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_gpu_keygen_batch(g, pub, e, (size_t)-1), FASTSM2_ERR_ARG);
}

static void test_big(fastsm2_gpu *g, const fastsm2_privkey *keys, const fastsm2_pubkey *pubs)
{
    size_t chunk = fs2_gpu_chunk_items();
    size_t n = chunk + 77 + (chunk < 4096 ? 4 * chunk : 0); /* more than one chunk */
    printf("  big batch: %zu items, %zu per chunk\n", n, chunk);
    unsigned char *e = malloc(32 * n), *s = malloc(64 * n);
    int *res = malloc(sizeof(int) * n);
    fs2t_rand_bytes(e, 32 * n);
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(g, s, keys + 2, 1, e, n), FASTSM2_OK);
    CHECK_STATUS(fastsm2_gpu_verify_digest_batch(g, res, pubs + 2, 1, e, s, n), FASTSM2_OK);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += res[i] != 1;
    CHECK(bad == 0);
    /* on the CPU: both ends of every chunk and every 257th item (all of
     * them in a small batch) */
    size_t checked = 0;
    bad = 0;
    for (size_t i = 0; i < n; i++) {
        size_t r = i % chunk;
        if (n > 100000 && r > 1 && r < chunk - 2 && i % 257 != 0 && i != n - 1)
            continue;
        bad += fastsm2_verify_digest(&pubs[2], e + 32 * i, s + 64 * i) != 1;
        checked++;
    }
    CHECK(bad == 0);
    CHECK(checked >= 4 * (n / chunk));
    free(e), free(s), free(res);
}

#ifdef FS2_GPU_EMU
/* ---- through the emulated runtime: injected failures, rejected nonces --- */

static int all_zero(const void *p, size_t n)
{
    const unsigned char *q = p;
    unsigned char acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= q[i];
    return acc == 0;
}

/* Nothing queued on a stream, no event alive, no bad copy. */
static int emu_quiet(void)
{
    long st[FS2_CUDA_EMU_NSTATS];
    fs2_cuda_emu_stats(st);
    if (st[FS2_CUDA_EMU_PENDING] || st[FS2_CUDA_EMU_EVENTS] || st[FS2_CUDA_EMU_VIOLATIONS])
        fprintf(stderr, "cuda-emu: %ld operations left queued, %ld events alive, %ld bad copies\n",
                st[FS2_CUDA_EMU_PENDING], st[FS2_CUDA_EMU_EVENTS], st[FS2_CUDA_EMU_VIOLATIONS]);
    return !st[FS2_CUDA_EMU_PENDING] && !st[FS2_CUDA_EMU_EVENTS] && !st[FS2_CUDA_EMU_VIOLATIONS];
}

static int emu_nothing_alive(void)
{
    long st[FS2_CUDA_EMU_NSTATS];
    fs2_cuda_emu_stats(st);
    if (st[FS2_CUDA_EMU_ALLOCS] || st[FS2_CUDA_EMU_STREAMS])
        fprintf(stderr, "cuda-emu: leaked %ld device allocations, %ld streams\n", st[FS2_CUDA_EMU_ALLOCS],
                st[FS2_CUDA_EMU_STREAMS]);
    return emu_quiet() && !st[FS2_CUDA_EMU_ALLOCS] && !st[FS2_CUDA_EMU_STREAMS];
}

/* The inputs of one cycle and what the CPU says about them. */
struct cycle {
    size_t n;
    const fastsm2_privkey *keys;
    fastsm2_privkey *per;
    const fastsm2_pubkey *pubs;
    fastsm2_pubkey *perp;
    unsigned char *e, *k, *sig_want, *sig_cpu, *d, *pub_want;
    int *res_want;
    /* outputs */
    unsigned char *sig, *pub;
    int *res;
    /* the status an injected failure gives: NO_MEMORY for a cudaMalloc,
     * UNSUPPORTED for a launch or a copy (cudaErrorLaunchOutOfResources,
     * cudaErrorInvalidValue) */
    int want_fail;
};

/* One call of the cycle: step 0..7. Returns its status; *ok is whether the
 * output is right when the status is FASTSM2_OK. */
static int cycle_step(fastsm2_gpu *g, struct cycle *c, int step, int *ok)
{
    size_t n = c->n;
    double t = -1;
    int ret = FASTSM2_OK;
    *ok = 1;
    switch (step) {
    case 0: /* fixed nonces, one key: bit for bit */
        ret = fs2_gpu_sign_digest_batch_with_nonces(g, c->sig, c->keys, 1, c->e, c->k, n);
        *ok = memcmp(c->sig, c->sig_want, 64 * n) == 0;
        return ret;
    case 1: /* device nonces, one key per item, timed (events) */
        ret = fs2_gpu_sign_timed(g, c->sig, c->per, n, c->e, n, &t);
        for (size_t i = 0; i < n; i++)
            *ok &= fastsm2_verify_digest(&c->perp[i], c->e + 32 * i, c->sig + 64 * i) == 1;
        *ok &= t >= 0;
        return ret;
    case 2: /* device nonces, one key */
        ret = fastsm2_gpu_sign_digest_batch(g, c->sig, c->keys, 1, c->e, n);
        for (size_t i = 0; i < n; i++)
            *ok &= fastsm2_verify_digest(&c->pubs[0], c->e + 32 * i, c->sig + 64 * i) == 1;
        return ret;
    case 3: /* verify, one public key per item, valid and invalid */
        ret = fastsm2_gpu_verify_digest_batch(g, c->res, c->perp, n, c->e, c->sig_cpu, n);
        *ok = memcmp(c->res, c->res_want, sizeof(int) * n) == 0;
        return ret;
    case 4: /* verify, timed */
        ret = fs2_gpu_verify_timed(g, c->res, c->perp, n, c->e, c->sig_cpu, n, &t);
        *ok = memcmp(c->res, c->res_want, sizeof(int) * n) == 0 && t >= 0;
        return ret;
    case 5: /* keygen */
        ret = fastsm2_gpu_keygen_batch(g, c->pub, c->d, n);
        *ok = memcmp(c->pub, c->pub_want, 65 * n) == 0;
        return ret;
    case 6: /* keygen, timed */
        ret = fs2_gpu_keygen_timed(g, c->pub, c->d, n, &t);
        *ok = memcmp(c->pub, c->pub_want, 65 * n) == 0 && t >= 0;
        return ret;
    }
    return FASTSM2_ERR_ARG;
}
#define CYCLE_STEPS 7

/* The output a step writes, for the zero check after a failure. */
static int step_output_zero(const struct cycle *c, int step)
{
    if (step <= 2)
        return all_zero(c->sig, 64 * c->n);
    if (step <= 4)
        return all_zero(c->res, sizeof(int) * c->n);
    return all_zero(c->pub, 65 * c->n);
}

/* Create a context, run every step (a failed step again, once, on the same
 * context: it must work then), free the context. Returns the number of
 * calls that failed. */
static int run_cycle(struct cycle *c, const char *label)
{
    int failures = 0;
    fastsm2_gpu *g = NULL;
    int ret = fastsm2_gpu_new(&g, 0, 0);
    if (ret != FASTSM2_OK) {
        failures++;
        CHECK_STATUS(ret, c->want_fail);
        CHECK(g == NULL);
        CHECK(emu_nothing_alive());
        ret = fastsm2_gpu_new(&g, 0, 0);
        CHECK_STATUS(ret, FASTSM2_OK);
        if (ret != FASTSM2_OK)
            return failures;
    }
    for (int step = 0; step < CYCLE_STEPS; step++) {
        int ok;
        memset(c->sig, 0x77, 64 * c->n);
        memset(c->res, 0x77, sizeof(int) * c->n);
        memset(c->pub, 0x77, 65 * c->n);
        ret = cycle_step(g, c, step, &ok);
        if (ret != FASTSM2_OK) {
            failures++;
            if (ret != c->want_fail)
                fprintf(stderr, "%s, step %d: status %d\n", label, step, ret);
            CHECK_STATUS(ret, c->want_fail);
            CHECK(strlen(fs2_gpu_last_error(g)) > 0);
            CHECK(emu_quiet());
            CHECK(step_output_zero(c, step));
            ret = cycle_step(g, c, step, &ok); /* the context still works */
        }
        CHECK_STATUS(ret, FASTSM2_OK);
        if (!ok)
            fprintf(stderr, "%s, step %d: wrong output\n", label, step);
        CHECK(ok);
        CHECK(emu_quiet());
    }
    fastsm2_gpu_free(g);
    CHECK(emu_nothing_alive());
    return failures;
}

/* Every cudaMalloc, kernel launch and copy/memset of a cycle of calls made
 * to fail in turn. The table is narrow (w = 4) to keep context creation
 * quick; the batches span several chunks. */
static void test_faults(const fastsm2_privkey *keys, const fastsm2_pubkey *pubs)
{
    struct cycle c;
    size_t n = 2 * fs2_gpu_chunk_items() + 5;
    memset(&c, 0, sizeof c);
    c.n = n;
    c.keys = keys;
    c.pubs = pubs;
    c.per = malloc(sizeof(*c.per) * n);
    c.perp = malloc(sizeof(*c.perp) * n);
    c.e = malloc(32 * n), c.k = malloc(32 * n), c.d = malloc(32 * n);
    c.sig_want = malloc(64 * n), c.sig_cpu = malloc(64 * n), c.sig = malloc(64 * n);
    c.pub_want = malloc(65 * n), c.pub = malloc(65 * n);
    c.res_want = malloc(sizeof(int) * n), c.res = malloc(sizeof(int) * n);
    for (size_t i = 0; i < n; i++) {
        fs2t_rand_bytes(c.e + 32 * i, 32);
        c.per[i] = keys[i % NKEYS];
        c.perp[i] = pubs[i % NKEYS];
        for (;;) {
            rand_scalar(c.k + 32 * i);
            if (fastsm2_sign_digest_with_nonce(c.sig_want + 64 * i, &keys[0], c.e + 32 * i, c.k + 32 * i) == FASTSM2_OK)
                break;
        }
        CHECK_STATUS(fastsm2_sign_digest(c.sig_cpu + 64 * i, &c.per[i], c.e + 32 * i), FASTSM2_OK);
        if (i % 3 == 1)
            c.sig_cpu[64 * i + 40] ^= 1;
        c.res_want[i] = fastsm2_verify_digest(&c.perp[i], c.e + 32 * i, c.sig_cpu + 64 * i);
        fastsm2_privkey pk;
        fastsm2_pubkey pp;
        size_t len = 65;
        rand_scalar(c.d + 32 * i);
        CHECK_STATUS(fastsm2_privkey_from_bytes(&pk, c.d + 32 * i), FASTSM2_OK);
        CHECK_STATUS(fastsm2_privkey_pubkey(&pp, &pk), FASTSM2_OK);
        CHECK_STATUS(fastsm2_pubkey_to_bytes(c.pub_want + 65 * i, &len, &pp, 0), FASTSM2_OK);
    }
    setenv("FASTSM2_GPU_TABLE_BITS", "4", 1);
    /* a clean cycle counts the calls of each kind */
    unsetenv("FS2_CUDA_EMU_FAIL");
    fs2_cuda_emu_rearm();
    CHECK(run_cycle(&c, "no failure") == 0);
    static const char *const kinds[3] = {"malloc", "launch", "copy"};
    unsigned long calls[3];
    for (int k = 0; k < 3; k++)
        calls[k] = fs2_cuda_emu_calls(k);
    printf("  injected failures: %lu cudaMalloc, %lu launches, %lu copies/memsets, each failed in turn\n", calls[0],
           calls[1], calls[2]);
    CHECK(calls[0] >= 8 && calls[1] >= 3 * 3 && calls[2] >= 20);
    /* FS2_GPU_FAULT_STRIDE=s (the sanitizer pass of tests/harness/test-gpu-emu.sh):
     * every s-th call of each kind from an offset the seed draws, and the
     * first and last calls always; every kind and every step still fails,
     * and other seeds cover the other calls */
    unsigned long stride = getenv("FS2_GPU_FAULT_STRIDE") ? strtoul(getenv("FS2_GPU_FAULT_STRIDE"), NULL, 10) : 1;
    if (stride < 1)
        stride = 1;
    unsigned long offset = (unsigned long)fs2t_rand_below(stride);
    unsigned long tried = 0;
    for (int k = 0; k < 3; k++)
        for (unsigned long i = 1; i <= calls[k]; i++) {
            if (i != 1 && i != calls[k] && (i - 1) % stride != offset)
                continue;
            tried++;
            char spec[64], label[96];
            snprintf(spec, sizeof spec, "%s:%lu", kinds[k], i);
            snprintf(label, sizeof label, "FS2_CUDA_EMU_FAIL=%s", spec);
            setenv("FS2_CUDA_EMU_FAIL", spec, 1);
            fs2_cuda_emu_rearm();
            c.want_fail = k == 0 ? FASTSM2_ERR_NO_MEMORY : FASTSM2_ERR_UNSUPPORTED;
            int failures = run_cycle(&c, label);
            /* the failure happened, and was reported by exactly one call
             * (unless it hit the wipes of fastsm2_gpu_free, which has no
             * status: then nothing may have failed before) */
            long st[FS2_CUDA_EMU_NSTATS];
            fs2_cuda_emu_stats(st);
            CHECK((unsigned long)st[FS2_CUDA_EMU_FAIL_CALLS] >= i);
            if (failures > 1)
                fprintf(stderr, "%s: %d calls failed\n", label, failures);
            CHECK(failures <= 1);
        }
    printf("  %lu injected failures tried (stride %lu)\n", tried, stride);
    unsetenv("FS2_CUDA_EMU_FAIL");
    fs2_cuda_emu_rearm();
    unsetenv("FASTSM2_GPU_TABLE_BITS");
    free(c.per), free(c.perp), free(c.e), free(c.k), free(c.d), free(c.sig_want), free(c.sig_cpu), free(c.sig);
    free(c.pub_want), free(c.pub), free(c.res_want), free(c.res);
}

/* A nonce the device rejects (forced: FS2_GPU_TEST_REJECT, item 2 of the
 * batch, as r = 0, r + k = n or s = 0 would): with device nonces the CPU
 * signs that item again; with caller nonces the batch fails with
 * FASTSM2_ERR_SCALAR, outputs zeroed. */
static void test_reject(fastsm2_gpu *g, const fastsm2_privkey *keys, const fastsm2_pubkey *pubs)
{
    size_t n = fs2_gpu_chunk_items() + 9;
    unsigned char *e = malloc(32 * n), *k = malloc(32 * n), *s = malloc(64 * n), *ref = malloc(64 * n);
    for (size_t i = 0; i < n; i++) {
        fs2t_rand_bytes(e + 32 * i, 32);
        do
            rand_scalar(k + 32 * i);
        while (fastsm2_sign_digest_with_nonce(ref + 64 * i, &keys[3], e + 32 * i, k + 32 * i) != FASTSM2_OK);
    }
    setenv("FS2_GPU_TEST_REJECT", "3", 1);
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(g, s, keys + 3, 1, e, n), FASTSM2_OK);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += fastsm2_verify_digest(&pubs[3], e + 32 * i, s + 64 * i) != 1;
    CHECK(bad == 0);
    /* with the caller's nonces, the rejected item is signed on the CPU with
     * its nonce (which fails there too when it is really one to reject) */
    memset(s, 0x55, 64 * n);
    CHECK_STATUS(fs2_gpu_sign_digest_batch_with_nonces(g, s, keys + 3, 1, e, k, n), FASTSM2_OK);
    CHECK(memcmp(s, ref, 64 * n) == 0);
    /* the rejected item is the one asked for: the others are the CPU's */
    char at[32];
    snprintf(at, sizeof at, "%zu", n); /* the last item, in the last chunk */
    setenv("FS2_GPU_TEST_REJECT", at, 1);
    CHECK_STATUS(fastsm2_gpu_sign_digest_batch(g, s, keys + 3, 1, e, n), FASTSM2_OK);
    CHECK(fastsm2_verify_digest(&pubs[3], e + 32 * (n - 1), s + 64 * (n - 1)) == 1);
    unsetenv("FS2_GPU_TEST_REJECT");
    CHECK_STATUS(fs2_gpu_sign_digest_batch_with_nonces(g, s, keys + 3, 1, e, k, n), FASTSM2_OK);
    CHECK(memcmp(s, ref, 64 * n) == 0);
    CHECK(emu_quiet());
    free(e), free(k), free(s), free(ref);
}
#endif

int main(void)
{
    small = getenv("FS2_GPU_TEST_SMALL") && atoi(getenv("FS2_GPU_TEST_SMALL"));
#ifdef FS2_GPU_EMU
    if (!small)
        small = 2;
#endif
    int count = fastsm2_gpu_device_count();
    if (count <= 0) {
        printf("test_gpu_device: no CUDA device here: skipped\n");
        return 77;
    }
    fastsm2_privkey keys[NKEYS];
    fastsm2_pubkey pubs[NKEYS];
    make_keys(keys, pubs);
    const int modes = getenv("FS2_GPU_TEST_FAST_ONLY") && atoi(getenv("FS2_GPU_TEST_FAST_ONLY")) ? 1 : 2;
    for (int ct = 0; ct < modes; ct++) {
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
        test_exceptional_verify(g, keys);
        test_errors(g, keys, pubs);
        if (small != 1)
            test_big(g, keys, pubs);
#ifdef FS2_GPU_EMU
        test_reject(g, keys, pubs);
        CHECK(emu_quiet());
#endif
        if (fs2t_failed)
            fprintf(stderr, "last CUDA error: %s\n", fs2_gpu_last_error(g));
        fastsm2_gpu_free(g);
    }
#ifdef FS2_GPU_EMU
    CHECK(emu_nothing_alive());
    if (!getenv("FS2_GPU_TEST_NO_FAULTS"))
        test_faults(keys, pubs);
#endif
    return fs2t_finish("test_gpu_device");
}
