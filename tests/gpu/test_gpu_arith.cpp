/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CUDA backend's device arithmetic (the gpu/ headers), compiled by g++ as host
 * code, against the portable C library and OpenSSL's BIGNUM on random and
 * edge inputs: field mul/sqr/add/sub/inv mod p, scalar add/sub/Montgomery
 * product and 512-bit reduction mod n, point double/add, the fixed-base
 * tables and kG (fast and constant-time), kP, sG + tP, the nonce
 * derivation, and whole signatures (fixed d, e, k: bit-identical to
 * fastsm2_sign_digest_with_nonce), key generation and verification. The
 * device runs the same functions with PTX carry primitives instead of the
 * portable ones; no test compares a PTX build with a -DFS2G_NO_PTX build,
 * but on a GPU test_gpu_device (tests/harness/gpu-device-check.sh) checks the PTX
 * build's results bit for bit against the CPU library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>

#define _Static_assert static_assert
extern "C" {
#include "protocol/protocol.h"
#include "testutil.h"
}

#include "sm2_gpu_ops.cuh"

static BN_CTX *bnctx;
static BIGNUM *BN_P, *BN_N;

static BIGNUM *bn_from_words(const uint32_t w[8])
{
    unsigned char b[32];
    fs2g_to_be(b, w);
    return BN_bin2bn(b, 32, NULL);
}

static void words_from_bn(uint32_t w[8], const BIGNUM *x)
{
    unsigned char b[32];
    if (BN_bn2binpad(x, b, 32) != 32)
        abort();
    fs2g_from_be(w, b);
}

static int words_eq_bn(const uint32_t w[8], const BIGNUM *x)
{
    BIGNUM *y = bn_from_words(w);
    int eq = BN_cmp(x, y) == 0;
    BN_free(y);
    return eq;
}

static void words_from_u64(uint32_t w[8], const uint64_t v[4])
{
    for (int i = 0; i < 4; i++) {
        w[2 * i] = (uint32_t)v[i];
        w[2 * i + 1] = (uint32_t)(v[i] >> 32);
    }
}

static void u64_from_words(uint64_t v[4], const uint32_t w[8])
{
    for (int i = 0; i < 4; i++)
        v[i] = (uint64_t)w[2 * i] | ((uint64_t)w[2 * i + 1] << 32);
}

static void rand_words(uint32_t w[8])
{
    fs2t_rand_bytes(w, 32);
}

/* A random value below m (by rejection on a random bit length). */
static void rand_below(uint32_t w[8], const BIGNUM *m)
{
    BIGNUM *x = BN_new();
    for (;;) {
        rand_words(w);
        unsigned bits = (unsigned)(fs2t_rand_u64() % 257);
        for (unsigned i = bits; i < 256; i++)
            w[i / 32] &= ~(1u << (i % 32));
        BN_free(x);
        x = bn_from_words(w);
        if (BN_cmp(x, m) < 0)
            break;
    }
    BN_free(x);
}

/* Edge values mod m: 0, 1, 2, m-1, m-2, 2^255, 2^32-1, 2^224, m-2^32, ... */
static std::vector<std::vector<uint32_t>> edges(const BIGNUM *m)
{
    std::vector<std::vector<uint32_t>> out;
    const char *hex[] = {"0",
                         "1",
                         "2",
                         "3",
                         "FFFFFFFF",
                         "100000000",
                         "8000000000000000000000000000000000000000000000000000000000000000",
                         "100000000000000000000000000000000000000000000000000000000",
                         "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"};
    for (const char *h : hex) {
        BIGNUM *x = NULL;
        BN_hex2bn(&x, h);
        BN_mod(x, x, m, bnctx);
        std::vector<uint32_t> w(8);
        words_from_bn(w.data(), x);
        out.push_back(w);
        BN_free(x);
    }
    for (int d = 1; d <= 4; d++) {
        BIGNUM *x = BN_dup(m);
        BN_sub_word(x, (BN_ULONG)d);
        std::vector<uint32_t> w(8);
        words_from_bn(w.data(), x);
        out.push_back(w);
        BN_free(x);
    }
    /* m - 2^k for a few k */
    for (int k : {32, 64, 96, 128, 224}) {
        BIGNUM *x = BN_dup(m), *t = BN_new();
        BN_set_bit(t, k);
        BN_sub(x, x, t);
        std::vector<uint32_t> w(8);
        words_from_bn(w.data(), x);
        out.push_back(w);
        BN_free(x);
        BN_free(t);
    }
    return out;
}

/* ---- field mod p ----------------------------------------------------------- */

/* w (any value below 2^256, as field results are) = x mod p, and
 * fs2g_fp_canon(w) is exactly x mod p. */
static int fp_eq_bn(const uint32_t w[8], const BIGNUM *x)
{
    BIGNUM *y = bn_from_words(w), *xm = BN_new();
    BN_nnmod(xm, x, BN_P, bnctx);
    BN_nnmod(y, y, BN_P, bnctx);
    int eq = BN_cmp(xm, y) == 0;
    uint32_t c[8];
    fs2g_fp_canon(c, w);
    eq &= words_eq_bn(c, xm);
    BN_free(y);
    BN_free(xm);
    return eq;
}

/* Field operations on inputs anywhere in [0, 2^256) (results of field
 * operations are below 2^256, not necessarily below p): every result is
 * congruent to OpenSSL's mod p. */
static void check_fp_pair(const uint32_t a[8], const uint32_t b[8])
{
    BIGNUM *A = bn_from_words(a), *B = bn_from_words(b), *R = BN_new();
    uint32_t r[8];
    fs2g_fp_mul(r, a, b);
    BN_mod_mul(R, A, B, BN_P, bnctx);
    CHECK(fp_eq_bn(r, R));
    fs2g_fp_sqr(r, a);
    BN_mod_sqr(R, A, BN_P, bnctx);
    CHECK(fp_eq_bn(r, R));
    fs2g_fp_add(r, a, b);
    BN_mod_add(R, A, B, BN_P, bnctx);
    CHECK(fp_eq_bn(r, R));
    fs2g_fp_sub(r, a, b);
    BN_mod_sub(R, A, B, BN_P, bnctx);
    CHECK(fp_eq_bn(r, R));
    fs2g_fp_neg(r, a);
    BN_mod_sub(R, BN_P, A, BN_P, bnctx);
    CHECK(fp_eq_bn(r, R));
    /* small multiples and shifts (the doubling's 3, 4, 8) */
    for (uint32_t k : {2u, 3u, 8u, 0x0FFFFFFFu}) {
        fs2g_fp_mul_small(r, a, k);
        BN_set_word(R, k);
        BN_mod_mul(R, A, R, BN_P, bnctx);
        CHECK(fp_eq_bn(r, R));
    }
    for (int sh = 1; sh <= 3; sh++) {
        fs2g_fp_shl(r, a, sh);
        BN_lshift(R, A, sh);
        BN_nnmod(R, R, BN_P, bnctx);
        CHECK(fp_eq_bn(r, R));
    }
    BN_nnmod(R, A, BN_P, bnctx);
    CHECK((fs2g_fp_is_zero(a) != 0) == (BN_is_zero(R) != 0));
    BN_free(A);
    BN_free(B);
    BN_free(R);
}

/* Values in [p, 2^256), which field results may be: p, p + 1, p + 2^32,
 * 2^256 - 1, 2^256 - 2, p + 2^224 - 1, 2^256 - 2^224 and that + 2^32 - 1. */
static std::vector<std::vector<uint32_t>> fp_unreduced(void)
{
    const char *hex[] = {"FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFF",
                         "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF000000010000000000000000",
                         "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF0000000100000000FFFFFFFF",
                         "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
                         "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFE",
                         "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFE",
                         "FFFFFFFF00000000000000000000000000000000000000000000000000000000",
                         "FFFFFFFF000000000000000000000000000000000000000000000000FFFFFFFF"};
    std::vector<std::vector<uint32_t>> out;
    for (const char *h : hex) {
        BIGNUM *x = NULL;
        BN_hex2bn(&x, h);
        std::vector<uint32_t> w(8);
        words_from_bn(w.data(), x);
        out.push_back(w);
        BN_free(x);
    }
    return out;
}

static void test_fp(void)
{
    auto e = edges(BN_P);
    for (auto &u : fp_unreduced())
        e.push_back(u);
    for (auto &a : e)
        for (auto &b : e)
            check_fp_pair(a.data(), b.data());
    for (int i = 0; i < 3000; i++) {
        uint32_t a[8], b[8];
        rand_below(a, BN_P);
        rand_below(b, BN_P);
        check_fp_pair(a, b);
        /* and unreduced: anywhere below 2^256 */
        rand_words(a);
        rand_words(b);
        if (i & 1)
            a[7] |= 0xFFFFFFF0u;
        check_fp_pair(a, b);
    }
    /* the wide product and the reduction accept any 256-bit inputs (the
     * reduction any 512-bit value): all-ones, p, and random unreduced */
    for (int i = 0; i < 2000; i++) {
        uint32_t a[8], b[8], c[16], r[8];
        rand_words(a);
        rand_words(b);
        if (i == 0)
            memset(a, 0xFF, 32), memset(b, 0xFF, 32);
        if (i == 1)
            words_from_bn(a, BN_P), memset(b, 0xFF, 32);
        fs2g_mul_wide(c, a, b);
        BIGNUM *A = bn_from_words(a), *B = bn_from_words(b), *C = BN_new(), *W = BN_new();
        BN_mul(C, A, B, bnctx);
        unsigned char cb[64];
        for (int j = 0; j < 16; j++)
            for (int q = 0; q < 4; q++)
                cb[63 - 4 * j - q] = (unsigned char)(c[j] >> (8 * q));
        BN_bin2bn(cb, 64, W);
        CHECK(BN_cmp(C, W) == 0);
        uint32_t s[16];
        fs2g_sqr_wide(s, a);
        CHECK(memcmp(s, c, 64) == 0 || memcmp(a, b, 32) != 0);
        uint32_t c2[16];
        fs2g_mul_wide(c2, a, a);
        CHECK(memcmp(s, c2, 64) == 0);
        fs2g_fp_reduce(r, c);
        BN_mod(C, C, BN_P, bnctx);
        CHECK(fp_eq_bn(r, C));
        /* any 512-bit value, not only products */
        uint32_t any[16];
        fs2t_rand_bytes(any, sizeof(any));
        if (i == 2)
            memset(any, 0xFF, sizeof(any));
        fs2g_fp_reduce(r, any);
        for (int j = 0; j < 16; j++)
            for (int q = 0; q < 4; q++)
                cb[63 - 4 * j - q] = (unsigned char)(any[j] >> (8 * q));
        BN_bin2bn(cb, 64, W);
        BN_mod(W, W, BN_P, bnctx);
        CHECK(fp_eq_bn(r, W));
        BN_free(A);
        BN_free(B);
        BN_free(C);
        BN_free(W);
    }
    /* inversion: a * a^-1 = 1, against BN_mod_inverse; inv(0) = inv(p) = 0;
     * edges, unreduced inputs, powers of 2 and their negatives, random
     * values below p and below 2^256; the result is canonical */
    for (int i = 0; i < 1200; i++) {
        uint32_t a[8], r[8];
        if (i < (int)e.size()) {
            memcpy(a, e[i].data(), 32);
        } else if (i < (int)e.size() + 512) {
            int k = i - (int)e.size();
            BIGNUM *x = BN_new();
            BN_set_bit(x, k % 256);
            if (k >= 256)
                BN_sub(x, BN_P, x);
            words_from_bn(a, x);
            BN_free(x);
        } else if (i & 1) {
            rand_below(a, BN_P);
        } else {
            rand_words(a);
        }
        fs2g_fp_inv(r, a);
        uint32_t rc[8];
        fs2g_fp_canon(rc, r);
        CHECK(memcmp(rc, r, 32) == 0);
        BIGNUM *A = bn_from_words(a), *R = BN_new();
        BN_nnmod(A, A, BN_P, bnctx);
        if (BN_is_zero(A)) {
            CHECK(fs2g_fp_is_zero(r));
        } else {
            BN_mod_inverse(R, A, BN_P, bnctx);
            CHECK(fp_eq_bn(r, R));
        }
        BN_free(A);
        BN_free(R);
    }
}

/* ---- scalars mod n ----------------------------------------------------------- */

static void test_fn(void)
{
    BIGNUM *Rinv = BN_new(), *R = BN_new();
    BN_set_bit(R, 256);
    BN_mod_inverse(Rinv, R, BN_N, bnctx);
    auto e = edges(BN_N);
    auto pair = [&](const uint32_t *a, const uint32_t *b) {
        BIGNUM *A = bn_from_words(a), *B = bn_from_words(b), *X = BN_new();
        uint32_t r[8];
        fs2g_fn_add(r, a, b);
        BN_mod_add(X, A, B, BN_N, bnctx);
        CHECK(words_eq_bn(r, X));
        fs2g_fn_sub(r, a, b);
        BN_mod_sub(X, A, B, BN_N, bnctx);
        CHECK(words_eq_bn(r, X));
        fs2g_fn_mont_mul(r, a, b);
        BN_mod_mul(X, A, B, BN_N, bnctx);
        BN_mod_mul(X, X, Rinv, BN_N, bnctx);
        CHECK(words_eq_bn(r, X));
        BN_free(A);
        BN_free(B);
        BN_free(X);
    };
    for (auto &a : e)
        for (auto &b : e)
            pair(a.data(), b.data());
    for (int i = 0; i < 3000; i++) {
        uint32_t a[8], b[8];
        rand_below(a, BN_N);
        rand_below(b, BN_N);
        pair(a, b);
    }
    /* Montgomery product with an unreduced first operand (< 2^256), and
     * reduction of any 256- and 512-bit value */
    for (int i = 0; i < 1000; i++) {
        uint32_t a[8], b[8], lo[8], r[8];
        rand_words(a);
        if (i == 0)
            memset(a, 0xFF, 32);
        rand_below(b, BN_N);
        BIGNUM *A = bn_from_words(a), *B = bn_from_words(b), *X = BN_new(), *L = NULL;
        fs2g_fn_mont_mul(r, a, b);
        BN_mod_mul(X, A, B, BN_N, bnctx);
        BN_mod_mul(X, X, Rinv, BN_N, bnctx);
        CHECK(words_eq_bn(r, X));
        fs2g_fn_reduce(r, a);
        BN_nnmod(X, A, BN_N, bnctx);
        CHECK(words_eq_bn(r, X));
        rand_words(lo);
        if (i == 0)
            memset(lo, 0xFF, 32);
        fs2g_fn_reduce512(r, a, lo);
        L = bn_from_words(lo);
        BN_lshift(X, A, 256);
        BN_add(X, X, L);
        BN_nnmod(X, X, BN_N, bnctx);
        CHECK(words_eq_bn(r, X));
        BN_free(A);
        BN_free(B);
        BN_free(X);
        BN_free(L);
    }
    BN_free(R);
    BN_free(Rinv);
}

/* ---- SM3 and the nonce derivation -------------------------------------------- */

static void test_nonce(void)
{
    for (int i = 0; i < 200; i++) {
        uint32_t seed[8], d[8], e[8], k[8], pre[8];
        unsigned char msg[106], h[64];
        rand_words(seed);
        rand_words(d);
        rand_words(e);
        uint64_t index = fs2t_rand_u64() >> (i % 64);
        fs2g_nonce_prefix(pre, seed, d);
        fs2g_nonce_derive(k, pre, e, index);
        /* the same construction with the library's SM3 and BIGNUM */
        fs2g_to_be(msg, seed);
        fs2g_to_be(msg + 32, d);
        fs2g_to_be(msg + 64, e);
        for (int b = 0; b < 8; b++)
            msg[96 + b] = (unsigned char)(index >> (56 - 8 * b));
        msg[104] = 0;
        fastsm2_sm3(h, msg, 105);
        msg[104] = 1;
        fastsm2_sm3(h + 32, msg, 105);
        BIGNUM *X = BN_bin2bn(h, 64, NULL);
        BN_nnmod(X, X, BN_N, bnctx);
        if (BN_is_zero(X))
            BN_one(X);
        CHECK(words_eq_bn(k, X));
        BN_free(X);
    }
    /* SM3 compression against the library: "abc" (one padded block) */
    {
        const uint32_t iv[8] = FS2G_SM3_IV;
        uint32_t st[8], blk[16] = {0x61626380u};
        unsigned char want[32], got[32];
        blk[15] = 24;
        memcpy(st, iv, sizeof(st));
        fs2g_sm3_compress(st, blk);
        for (int i = 0; i < 8; i++)
            for (int q = 0; q < 4; q++)
                got[4 * i + q] = (unsigned char)(st[i] >> (24 - 8 * q));
        fastsm2_sm3(want, "abc", 3);
        CHECK(memcmp(got, want, 32) == 0);
    }
}

/* ---- points -------------------------------------------------------------------- */

static void aff_from_lib(fs2g_aff *a, const fs2_affine *p)
{
    words_from_u64(a->x, p->x);
    words_from_u64(a->y, p->y);
}

static int jac_eq_lib(const fs2g_jac *j, const fs2_affine *p)
{
    if (p->infinity)
        return fs2g_jac_is_inf(j) != 0;
    if (fs2g_jac_is_inf(j))
        return 0;
    fs2g_aff a;
    fs2g_jac_to_aff(&a, j);
    uint64_t x[4], y[4];
    u64_from_words(x, a.x);
    u64_from_words(y, a.y);
    return memcmp(x, p->x, 32) == 0 && memcmp(y, p->y, 32) == 0;
}

static void lib_mul_g(fs2_affine *r, const uint32_t k[8])
{
    uint64_t kk[4];
    u64_from_words(kk, k);
    fs2_ec()->mul_base(r, kk);
}

static void lib_mul(fs2_affine *r, const fs2_affine *p, const uint32_t k[8])
{
    uint64_t kk[4];
    u64_from_words(kk, k);
    fs2_ec()->mul(r, p, NULL, kk);
}

/* r = a + b, the reference sum: OpenSSL's EC_POINT_add on the SM2 group. */
static void lib_add(fs2_affine *r, const fs2_affine *a, const fs2_affine *b)
{
    EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_sm2);
    EC_POINT *pt[3] = {EC_POINT_new(g), EC_POINT_new(g), EC_POINT_new(g)};
    const fs2_affine *in[2] = {a, b};
    unsigned char buf[32];
    for (int i = 0; i < 2; i++) {
        if (in[i]->infinity) {
            EC_POINT_set_to_infinity(g, pt[i]);
            continue;
        }
        fs2_u256_to_be(buf, in[i]->x);
        BIGNUM *x = BN_bin2bn(buf, 32, NULL);
        fs2_u256_to_be(buf, in[i]->y);
        BIGNUM *y = BN_bin2bn(buf, 32, NULL);
        CHECK(EC_POINT_set_affine_coordinates(g, pt[i], x, y, bnctx) == 1);
        BN_free(x);
        BN_free(y);
    }
    CHECK(EC_POINT_add(g, pt[2], pt[0], pt[1], bnctx) == 1);
    memset(r, 0, sizeof *r);
    if (EC_POINT_is_at_infinity(g, pt[2])) {
        r->infinity = 1;
    } else {
        BIGNUM *x = BN_new(), *y = BN_new();
        CHECK(EC_POINT_get_affine_coordinates(g, pt[2], x, y, bnctx) == 1);
        BN_bn2binpad(x, buf, 32);
        fs2_u256_from_be(r->x, buf);
        BN_bn2binpad(y, buf, 32);
        fs2_u256_from_be(r->y, buf);
        BN_free(x);
        BN_free(y);
    }
    for (int i = 0; i < 3; i++)
        EC_POINT_free(pt[i]);
    EC_GROUP_free(g);
}

/* GB/T 32918.2 7.1 B1-B7 in OpenSSL's arithmetic, the reference for a
 * corrupted signature: a bit flip can make another valid signature (with
 * d = 1 and k = n - 2^j, s + 2^j gives x([-k]G) = x([k]G)), so "corrupted"
 * does not mean "invalid"; 1 if (r, s) is valid on digest e for P. */
static int ref_verify(const unsigned char e[32], const unsigned char rs[64], const unsigned char pub65[65])
{
    EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_sm2);
    EC_POINT *P = EC_POINT_new(g), *X = EC_POINT_new(g);
    BIGNUM *n = BN_new(), *r = BN_bin2bn(rs, 32, NULL), *s = BN_bin2bn(rs + 32, 32, NULL), *t = BN_new();
    BIGNUM *x = BN_new(), *R = BN_new(), *E = BN_bin2bn(e, 32, NULL);
    int ok = 0;
    CHECK(EC_GROUP_get_order(g, n, bnctx) == 1);
    CHECK(EC_POINT_oct2point(g, P, pub65, 65, bnctx) == 1);
    if (!BN_is_zero(r) && !BN_is_zero(s) && BN_cmp(r, n) < 0 && BN_cmp(s, n) < 0) {
        CHECK(BN_mod_add(t, r, s, n, bnctx) == 1);
        if (!BN_is_zero(t)) {
            CHECK(EC_POINT_mul(g, X, s, P, t, bnctx) == 1);
            if (!EC_POINT_is_at_infinity(g, X)) {
                CHECK(EC_POINT_get_affine_coordinates(g, X, x, NULL, bnctx) == 1);
                CHECK(BN_mod_add(R, E, x, n, bnctx) == 1);
                ok = BN_cmp(R, r) == 0;
            }
        }
    }
    BN_free(n), BN_free(r), BN_free(s), BN_free(t), BN_free(x), BN_free(R), BN_free(E);
    EC_POINT_free(P), EC_POINT_free(X);
    EC_GROUP_free(g);
    return ok;
}

/* Tables of width w, built entry by entry with fs2g_table_entry from the
 * segment bases 2^(s w) G computed by the library (as the context creation
 * does on the device). */
static std::vector<uint32_t> build_table(int w)
{
    int nseg = fs2g_table_segments(w);
    uint32_t nent = fs2g_table_entries(w);
    std::vector<uint32_t> t((size_t)nseg * nent * FS2G_ENTRY_WORDS);
    for (int s = 0; s < nseg; s++) {
        uint32_t k[8] = {0};
        k[(s * w) / 32] = 1u << ((s * w) % 32);
        fs2_affine b;
        lib_mul_g(&b, k);
        fs2g_aff base;
        aff_from_lib(&base, &b);
        for (uint32_t i = 0; i < nent; i++) {
            fs2g_aff e;
            fs2g_table_entry(&e, &base, i);
            uint32_t *dst = &t[((size_t)s * nent + i) * FS2G_ENTRY_WORDS];
            memcpy(dst, e.x, 32);
            memcpy(dst + 8, e.y, 32);
        }
    }
    return t;
}

/* A fixed-base table of the point p (as verification builds for a batch
 * with one key), from the bases 2^(s w) p the library computes. */
static std::vector<uint32_t> build_key_table(int w, const fs2g_aff *p)
{
    int nseg = fs2g_table_segments(w);
    uint32_t nent = fs2g_table_entries(w);
    std::vector<uint32_t> t((size_t)nseg * nent * FS2G_ENTRY_WORDS);
    fs2_affine pl;
    u64_from_words(pl.x, p->x);
    u64_from_words(pl.y, p->y);
    pl.infinity = 0;
    for (int s = 0; s < nseg; s++) {
        uint32_t k[8] = {0};
        k[(s * w) / 32] = 1u << ((s * w) % 32);
        fs2_affine b;
        lib_mul(&b, &pl, k);
        fs2g_aff base;
        aff_from_lib(&base, &b);
        for (uint32_t i = 0; i < nent; i++) {
            fs2g_aff e;
            fs2g_table_entry(&e, &base, i);
            uint32_t *dst = &t[((size_t)s * nent + i) * FS2G_ENTRY_WORDS];
            memcpy(dst, e.x, 32);
            memcpy(dst + 8, e.y, 32);
        }
    }
    return t;
}

/* fs2g_verify_item both ways: tP by the window (its scratch interleaved
 * with a stride, as in shared memory) and by a fixed-base table of the key
 * (kt, width kw); -2 when they disagree. */
static int verify_both(const uint32_t e[8], const uint32_t r[8], const uint32_t s[8], const fs2g_aff *p,
                       const std::vector<uint32_t> &t, int w, const std::vector<uint32_t> &kt, int kw)
{
    uint32_t tab[FS2G_VAR_ENTRIES * 16 * 2];
    int a = fs2g_verify_item(e, r, s, p, t.data(), w, NULL, 0, tab, 2);
    int b = fs2g_verify_item(e, r, s, p, t.data(), w, kt.data(), kw, NULL, 0);
    return a == b ? a : -2;
}

/* The odd scalar whose fixed-base multiplication with a width-w table
 * meets P = Q in its last addition (sm2_gpu_point.cuh): k = 2 q 2^((m-1) w)
 * - n with q = 2^(256 - (m-1) w) - 1; `twin` gives n - k (even, whose odd
 * form is k). */
static void exceptional_scalar(uint32_t k[8], int w, int twin)
{
    int m = fs2g_table_segments(w), low = (m - 1) * w;
    BIGNUM *x = BN_new(), *q = BN_new();
    BN_set_bit(q, 256 - low);
    BN_sub_word(q, 1);
    BN_lshift(x, q, low + 1);
    BN_sub(x, x, BN_N);
    if (twin)
        BN_sub(x, BN_N, x);
    words_from_bn(k, x);
    BN_free(x);
    BN_free(q);
}

static std::vector<std::vector<uint32_t>> scalar_cases(int nrand)
{
    auto v = edges(BN_N);
    v.erase(v.begin()); /* not 0 */
    for (int i = 0; i < nrand; i++) {
        std::vector<uint32_t> k(8);
        rand_below(k.data(), BN_N);
        if (fs2g_is_zero(k.data()))
            k[0] = 1;
        v.push_back(k);
    }
    return v;
}

static void test_points(const std::vector<uint32_t> &t4, const std::vector<uint32_t> &t8)
{
    /* table entries: (2i + 1) 2^(s w) G against the library for a sample */
    for (int s : {0, 1, 31}) {
        for (uint32_t i : {0u, 1u, 38u, 127u}) {
            uint32_t k[8] = {0};
            k[(s * 8) / 32] = (2 * i + 1) << ((s * 8) % 32);
            fs2_affine want;
            lib_mul_g(&want, k);
            const uint32_t *e = &t8[((size_t)s * 128 + i) * FS2G_ENTRY_WORDS];
            uint32_t x[8], y[8];
            words_from_u64(x, want.x);
            words_from_u64(y, want.y);
            CHECK(memcmp(e, x, 32) == 0 && memcmp(e + 8, y, 32) == 0);
        }
    }
    /* double and add against the library's variable-time point addition */
    {
        uint32_t k1[8], k2[8];
        for (int i = 0; i < 50; i++) {
            /* k1, k2 in [1, n-1] and distinct: the formulas below assume
             * two finite points with p1 != p2 (rand_below gives short
             * values, 0 among them, often) */
            do
                rand_below(k1, BN_N);
            while (fs2g_is_zero(k1));
            do
                rand_below(k2, BN_N);
            while (fs2g_is_zero(k2) || memcmp(k1, k2, sizeof k1) == 0);
            fs2_affine p1, p2, sum, dbl;
            lib_mul_g(&p1, k1);
            lib_mul_g(&p2, k2);
            lib_add(&sum, &p1, &p2);
            lib_add(&dbl, &p1, &p1);
            fs2g_aff a1, a2;
            aff_from_lib(&a1, &p1);
            aff_from_lib(&a2, &p2);
            fs2g_jac j1, j2, r;
            fs2g_jac_from_aff(&j1, &a1);
            fs2g_jac_from_aff(&j2, &a2);
            /* a non-trivial Z: j1 = 2 * (p1 / 2) is awkward; use r = 2 p1 */
            fs2g_jac_dbl(&r, &j1);
            CHECK(jac_eq_lib(&r, &dbl));
            fs2g_jac_add_aff(&r, &j1, &a2);
            CHECK(jac_eq_lib(&r, &sum));
            /* the mixed addition's excluded case a = b gives Z = 0, and a
             * Z = 0 point stays Z = 0 when more is added (what the
             * fixed-base multiplications' callers rely on) */
            fs2g_jac_add_aff(&r, &j1, &a1);
            CHECK(fs2g_jac_is_inf(&r) != 0);
            fs2g_jac_add_aff(&r, &r, &a2);
            CHECK(fs2g_jac_is_inf(&r) != 0);
            fs2g_jac_add_var(&r, &j1, &j2);
            CHECK(jac_eq_lib(&r, &sum));
            fs2g_jac_add_var(&r, &j1, &j1); /* doubling case */
            CHECK(jac_eq_lib(&r, &dbl));
            fs2g_jac neg = j1;
            fs2g_fp_neg(neg.y, neg.y);
            fs2g_jac_add_var(&r, &j1, &neg); /* p + (-p) */
            CHECK(fs2g_jac_is_inf(&r) != 0);
            /* Jacobian inputs with Z != 1 in both add formulas */
            fs2g_jac d1;
            fs2g_jac_dbl(&d1, &j1);
            fs2g_jac_add_aff(&r, &d1, &a2);
            fs2_affine want;
            lib_add(&want, &dbl, &p2);
            CHECK(jac_eq_lib(&r, &want));
            fs2g_jac d2;
            fs2g_jac_dbl(&d2, &j2);
            fs2g_jac_add_var(&r, &d1, &d2);
            fs2_affine dbl2;
            lib_add(&dbl2, &p2, &p2);
            lib_add(&want, &dbl, &dbl2);
            CHECK(jac_eq_lib(&r, &want));
        }
    }
    /* kG: fast mode (w = 4 and 8) and constant-time mode (its table is the
     * width-8 one), edges (odd and even, near 0 and near n) and random */
    for (auto &k : scalar_cases(60)) {
        fs2_affine want;
        lib_mul_g(&want, k.data());
        fs2g_jac r;
        fs2g_ecmult_gen_fast(&r, k.data(), t8.data(), 8, 1);
        CHECK(jac_eq_lib(&r, &want));
        fs2g_ecmult_gen_fast(&r, k.data(), t4.data(), 4, 1);
        CHECK(jac_eq_lib(&r, &want));
        /* the smaller code of the verification kernels */
        fs2g_ecmult_gen_fast(&r, k.data(), t8.data(), 8, FS2G_GEN_SMALL);
        CHECK(jac_eq_lib(&r, &want));
        fs2g_ecmult_gen_fast(&r, k.data(), t4.data(), 4, FS2G_GEN_SMALL);
        CHECK(jac_eq_lib(&r, &want));
        fs2g_ecmult_gen_ct(&r, k.data(), t8.data(), 1);
        CHECK(jac_eq_lib(&r, &want));
        /* want_y = 0 (signing): the same X and Z */
        fs2g_jac rx;
        fs2g_ecmult_gen_ct(&rx, k.data(), t8.data(), 0);
        CHECK(memcmp(rx.x, r.x, 32) == 0 && memcmp(rx.z, r.z, 32) == 0);
        fs2g_ecmult_gen_fast(&r, k.data(), t8.data(), 8, 1);
        fs2g_ecmult_gen_fast(&rx, k.data(), t8.data(), 8, 0);
        CHECK(memcmp(rx.x, r.x, 32) == 0 && memcmp(rx.z, r.z, 32) == 0);
        /* keygen item: affine */
        fs2g_aff a;
        CHECK(fs2g_keygen_item(&a, k.data(), t8.data(), 8, FS2G_MODE_FAST) != 0);
        uint32_t x[8], y[8];
        words_from_u64(x, want.x);
        words_from_u64(y, want.y);
        CHECK(memcmp(a.x, x, 32) == 0 && memcmp(a.y, y, 32) == 0);
        CHECK(fs2g_keygen_item(&a, k.data(), t8.data(), 8, FS2G_MODE_CT) != 0);
        CHECK(memcmp(a.x, x, 32) == 0 && memcmp(a.y, y, 32) == 0);
    }
    /* the exceptional scalar of each width (and its even twin): Z = 0, the
     * key generation item says so; one more or one less is fine */
    for (int w : {4, 8}) {
        const std::vector<uint32_t> &t = w == 4 ? t4 : t8;
        for (int twin = 0; twin < 2; twin++) {
            uint32_t k[8];
            exceptional_scalar(k, w, twin);
            fs2g_jac r;
            fs2g_ecmult_gen_fast(&r, k, t.data(), w, 1);
            CHECK(fs2g_jac_is_inf(&r) != 0);
            fs2g_ecmult_gen_fast(&r, k, t.data(), w, 0);
            CHECK(fs2g_jac_is_inf(&r) != 0);
            fs2g_ecmult_gen_fast(&r, k, t.data(), w, FS2G_GEN_SMALL);
            CHECK(fs2g_jac_is_inf(&r) != 0);
            fs2g_aff a;
            CHECK(fs2g_keygen_item(&a, k, t.data(), w, FS2G_MODE_FAST) == 0);
            if (w == FS2G_CT_W) {
                fs2g_ecmult_gen_ct(&r, k, t.data(), 1);
                CHECK(fs2g_jac_is_inf(&r) != 0);
                fs2g_ecmult_gen_ct(&r, k, t.data(), 0);
                CHECK(fs2g_jac_is_inf(&r) != 0);
                CHECK(fs2g_keygen_item(&a, k, t.data(), w, FS2G_MODE_CT) == 0);
            }
            const uint32_t one[8] = {1, 0, 0, 0, 0, 0, 0, 0};
            for (int d = 0; d < 2; d++) {
                uint32_t k2[8];
                if (d)
                    (void)fs2g_add256(k2, k, one);
                else
                    (void)fs2g_sub256(k2, k, one);
                fs2_affine want;
                lib_mul_g(&want, k2);
                fs2g_ecmult_gen_fast(&r, k2, t.data(), w, 1);
                CHECK(jac_eq_lib(&r, &want));
                fs2g_ecmult_gen_fast(&r, k2, t.data(), w, FS2G_GEN_SMALL);
                CHECK(jac_eq_lib(&r, &want));
            }
        }
    }
    /* kP and sG + tP */
    auto ks = scalar_cases(30);
    for (size_t i = 0; i < ks.size(); i++) {
        uint32_t pk[8];
        rand_below(pk, BN_N);
        pk[0] |= 1;
        fs2_affine p, want, sg, tp, sum;
        lib_mul_g(&p, pk);
        fs2g_aff pa;
        aff_from_lib(&pa, &p);
        lib_mul(&want, &p, ks[i].data());
        fs2g_jac r;
        uint32_t tab[FS2G_VAR_ENTRIES * 16 * 3];
        fs2g_ecmult_var(&r, &pa, ks[i].data(), tab + 1, 3); /* interleaved, as in shared memory */
        CHECK(jac_eq_lib(&r, &want));
        const uint32_t *s = ks[(i + 3) % ks.size()].data();
        lib_mul_g(&sg, s);
        lib_mul(&tp, &p, ks[i].data());
        lib_add(&sum, &sg, &tp);
        fs2g_jac a, b;
        fs2g_ecmult_gen_fast(&a, s, t8.data(), 8, 1);
        fs2g_ecmult_var(&b, &pa, ks[i].data(), tab, 1);
        fs2g_jac_add_var(&a, &a, &b);
        CHECK(jac_eq_lib(&a, &sum));
    }
}

/* ---- protocols -------------------------------------------------------------------- */

static void key_words(uint32_t d[8], uint32_t dinv[8], fs2g_aff *pub, const fastsm2_privkey *key)
{
    const fs2_priv *p = fs2_priv_get(key);
    words_from_u64(d, p->d);
    words_from_u64(dinv, p->dinv_m.v);
    aff_from_lib(pub, &p->pub.pt);
}

static void test_sign_verify(const std::vector<uint32_t> &t4, const std::vector<uint32_t> &t8)
{
    /* keys: d = 1, 2, n-2 and random */
    std::vector<std::vector<uint32_t>> ds;
    for (const char *h : {"1", "2"}) {
        BIGNUM *x = NULL;
        BN_hex2bn(&x, h);
        std::vector<uint32_t> w(8);
        words_from_bn(w.data(), x);
        ds.push_back(w);
        BN_free(x);
    }
    {
        BIGNUM *x = BN_dup(BN_N);
        BN_sub_word(x, 2);
        std::vector<uint32_t> w(8);
        words_from_bn(w.data(), x);
        ds.push_back(w);
        BN_free(x);
    }
    for (int i = 0; i < 5; i++) {
        std::vector<uint32_t> w(8);
        rand_below(w.data(), BN_N);
        w[0] |= 1;
        ds.push_back(w);
    }
    auto ks = scalar_cases(10);
    int signed_ok = 0;
    unsigned long corrupted = 0, rejected = 0;
    for (size_t di = 0; di < ds.size(); di++) {
        unsigned char db[32];
        fs2g_to_be(db, ds[di].data());
        fastsm2_privkey key;
        fastsm2_pubkey pub;
        if (fastsm2_privkey_from_bytes(&key, db) != FASTSM2_OK)
            continue; /* n-2 edge handled by the range check in the library */
        CHECK(fastsm2_privkey_pubkey(&pub, &key) == FASTSM2_OK);
        unsigned char pub65[65];
        size_t pub65len = sizeof pub65;
        CHECK(fastsm2_pubkey_to_bytes(pub65, &pub65len, &pub, 0) == FASTSM2_OK && pub65len == 65);
        uint32_t d[8], dinv[8];
        fs2g_aff pa;
        key_words(d, dinv, &pa, &key);
        CHECK(memcmp(d, ds[di].data(), 32) == 0);
        auto kt = build_key_table(di & 1 ? 5 : 4, &pa);
        const int kw = di & 1 ? 5 : 4;
        for (size_t ki = 0; ki < ks.size(); ki++) {
            unsigned char e[32], kb[32], want[64], got[64];
            fs2t_rand_bytes(e, 32);
            if (ki == 0)
                memset(e, 0xFF, 32);
            if (ki == 1)
                memset(e, 0, 32);
            fs2g_to_be(kb, ks[ki].data());
            int ret = fastsm2_sign_digest_with_nonce(want, &key, e, kb);
            uint32_t ew[8], r[8], s[8];
            fs2g_from_be(ew, e);
            for (int mode = 0; mode < 3; mode++) {
                uint32_t ok;
                if (mode == 0)
                    ok = fs2g_sign_item(r, s, ew, ks[ki].data(), dinv, t8.data(), 8, FS2G_MODE_FAST);
                else if (mode == 1)
                    ok = fs2g_sign_item(r, s, ew, ks[ki].data(), dinv, t8.data(), FS2G_CT_W, FS2G_MODE_CT);
                else
                    ok = fs2g_sign_item(r, s, ew, ks[ki].data(), dinv, t4.data(), 4, FS2G_MODE_FAST);
                fs2g_to_be(got, r);
                fs2g_to_be(got + 32, s);
                CHECK((ok != 0) == (ret == FASTSM2_OK));
                if (ret == FASTSM2_OK) {
                    CHECK(memcmp(got, want, 64) == 0);
                    signed_ok++;
                }
            }
            if (ret != FASTSM2_OK)
                continue;
            /* verify: the CPU's signature on the "device" path, then
             * corrupted versions; every answer equals the library's */
            uint32_t rr[8], ss[8];
            fs2g_from_be(rr, want);
            fs2g_from_be(ss, want + 32);
            CHECK(verify_both(ew, rr, ss, &pa, t8, 8, kt, kw) == 1);
            CHECK(verify_both(ew, rr, ss, &pa, t4, 4, kt, kw) == 1);
            for (int m = 0; m < 8; m++) {
                unsigned char bad[64], be[32];
                memcpy(bad, want, 64);
                memcpy(be, e, 32);
                switch (m) {
                case 0: bad[fs2t_rand_u64() % 64] ^= (unsigned char)(1u << (fs2t_rand_u64() % 8)); break;
                case 1: be[fs2t_rand_u64() % 32] ^= 1; break;
                case 2: memset(bad, 0, 32); break;      /* r = 0 */
                case 3: memset(bad + 32, 0, 32); break; /* s = 0 */
                case 4: {
                    uint32_t n[8] = FS2G_N_WORDS;
                    fs2g_to_be(bad, n);
                } break; /* r = n */
                case 5: {
                    uint32_t n[8] = FS2G_N_WORDS;
                    fs2g_to_be(bad + 32, n);
                } break;  /* s = n */
                case 6: { /* s = n - r: r + s = n */
                    uint32_t n[8] = FS2G_N_WORDS, t[8];
                    fs2g_sub256(t, n, rr);
                    fs2g_to_be(bad + 32, t);
                } break;
                case 7: memset(bad, 0xFF, 64); break; /* r, s >= n */
                }
                uint32_t br[8], bs[8], bew[8];
                fs2g_from_be(br, bad);
                fs2g_from_be(bs, bad + 32);
                fs2g_from_be(bew, be);
                int lib = fastsm2_verify_digest(&pub, be, bad);
                CHECK(verify_both(bew, br, bs, &pa, t8, 8, kt, kw) == lib);
                CHECK(lib == ref_verify(be, bad, pub65));
                rejected += lib == 0;
                corrupted++;
            }
        }
    }
    CHECK(signed_ok > 100);
    /* the exceptional nonce of each width: the item is not signed (the host
     * signs it), though the CPU signs it; a signature whose s is the
     * exceptional scalar is left to the host too (the key is chosen to make
     * it a valid signature, d = (k + r) (s + r)^-1 - 1) */
    for (int w : {4, 8}) {
        const std::vector<uint32_t> &t = w == 4 ? t4 : t8;
        for (int twin = 0; twin < 2; twin++) {
            uint32_t k[8], ew[8], r[8], sw[8], dinv[8];
            exceptional_scalar(k, w, twin);
            unsigned char e[32], kb[32], want[64];
            fs2t_rand_bytes(e, 32);
            fs2g_from_be(ew, e);
            fs2g_to_be(kb, k);
            fastsm2_privkey key;
            CHECK(fastsm2_privkey_generate(&key) == FASTSM2_OK);
            fs2g_aff pa;
            uint32_t d[8];
            key_words(d, dinv, &pa, &key);
            CHECK(fastsm2_sign_digest_with_nonce(want, &key, e, kb) == FASTSM2_OK);
            CHECK(fs2g_sign_item(r, sw, ew, k, dinv, t.data(), w, FS2G_MODE_FAST) == 0);
            if (w == FS2G_CT_W)
                CHECK(fs2g_sign_item(r, sw, ew, k, dinv, t.data(), w, FS2G_MODE_CT) == 0);
            /* s = k: pick a nonce j, r = (e + x(jG)) mod n, then the key */
            BIGNUM *J = BN_new(), *R = BN_new(), *S = bn_from_words(k), *E = bn_from_words(ew), *D = BN_new(),
                   *T = BN_new();
            BN_rand_range(J, BN_N);
            uint32_t jw[8];
            words_from_bn(jw, J);
            fs2_affine jg;
            lib_mul_g(&jg, jw);
            uint32_t xw[8];
            words_from_u64(xw, jg.x);
            BIGNUM *X = bn_from_words(xw);
            BN_mod_add(R, E, X, BN_N, bnctx);
            BN_mod_add(T, S, R, BN_N, bnctx);
            BN_mod_inverse(T, T, BN_N, bnctx);
            BN_mod_add(D, J, R, BN_N, bnctx);
            BN_mod_mul(D, D, T, BN_N, bnctx);
            BN_sub_word(D, 1);
            BN_nnmod(D, D, BN_N, bnctx);
            unsigned char db[32], sig[64];
            BN_bn2binpad(D, db, 32);
            BN_bn2binpad(R, sig, 32);
            BN_bn2binpad(S, sig + 32, 32);
            fastsm2_privkey k2;
            fastsm2_pubkey pub2;
            if (fastsm2_privkey_from_bytes(&k2, db) == FASTSM2_OK) {
                CHECK(fastsm2_privkey_pubkey(&pub2, &k2) == FASTSM2_OK);
                CHECK(fastsm2_verify_digest(&pub2, e, sig) == 1);
                uint32_t d2[8], dinv2[8];
                fs2g_aff pa2;
                key_words(d2, dinv2, &pa2, &k2);
                uint32_t rr[8], ss[8];
                fs2g_from_be(rr, sig);
                fs2g_from_be(ss, sig + 32);
                /* sG meets its exceptional case: the item is left to the
                 * host (-1), valid or not, either way tP is made */
                auto kt2 = build_key_table(4, &pa2);
                CHECK(verify_both(ew, rr, ss, &pa2, t, w, kt2, 4) == -1);
                fastsm2_privkey_clear(&k2);
            }
            fastsm2_privkey_clear(&key);
            BN_free(J), BN_free(R), BN_free(S), BN_free(E), BN_free(D), BN_free(T), BN_free(X);
        }
    }
    /* a corruption that stays valid needs a key and nonce as special as the
     * one above: nearly all are rejected */
    CHECK(corrupted > 800 && rejected + corrupted / 64 >= corrupted);
    /* signatures made on the "device" path (derived nonce) verify in the
     * library */
    for (int i = 0; i < 20; i++) {
        fastsm2_privkey key;
        fastsm2_pubkey pub;
        CHECK(fastsm2_privkey_generate(&key) == FASTSM2_OK);
        CHECK(fastsm2_privkey_pubkey(&pub, &key) == FASTSM2_OK);
        uint32_t d[8], dinv[8], seed[8], pre[8], k[8], ew[8], r[8], s[8];
        fs2g_aff pa;
        key_words(d, dinv, &pa, &key);
        rand_words(seed);
        unsigned char e[32], sig[64];
        fs2t_rand_bytes(e, 32);
        fs2g_from_be(ew, e);
        fs2g_nonce_prefix(pre, seed, d);
        fs2g_nonce_derive(k, pre, ew, (uint64_t)i);
        CHECK(fs2g_sign_item(r, s, ew, k, dinv, t8.data(), 8, FS2G_MODE_FAST) != 0);
        fs2g_to_be(sig, r);
        fs2g_to_be(sig + 32, s);
        CHECK(fastsm2_verify_digest(&pub, e, sig) == 1);
    }
}

int main(void)
{
    bnctx = BN_CTX_new();
    BN_P = NULL;
    BN_N = NULL;
    BN_hex2bn(&BN_P, "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFF");
    BN_hex2bn(&BN_N, "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54123");
    test_fp();
    test_fn();
    test_nonce();
    auto t4 = build_table(4);
    auto t8 = build_table(8);
    test_points(t4, t8);
    test_sign_verify(t4, t8);
    BN_free(BN_P);
    BN_free(BN_N);
    BN_CTX_free(bnctx);
    return fs2t_finish("test_gpu_arith");
}
