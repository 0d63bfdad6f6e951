/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The avx512-ifma backend's one-at-a-time slots, whose kG runs in the
 * eight lanes of AVX-512 IFMA (src/ec/ifma/ec_ifma1.c: lane l sums the
 * windows 5l .. 5l + 4, the partial sums then added on the MULX field),
 * against the adx backend bit for bit (and the generic one where it is
 * cheap), seed FS2T_SEED:
 *
 *  - mul_base, mul_base_and_sc_inv (r and q), mul_base_and_mul (both
 *    points, with and without the key's tables) and mul, on random scalars
 *    and the edges: 0, 1, 2, small, n - 1 .. n - 4, one bit, high bits only,
 *    every 7-bit window 64, 63 or 65 (the signed-digit carries), digits in
 *    one lane only (one block of five windows), and the scalars for which
 *    two partial sums are equal or opposite, so that adding them is a
 *    doubling or gives infinity: k = n - 2 (n mod 2^(35 l)) (the lanes
 *    below l against the rest) and k = n - (n mod 2^(35 l)) (- 1): the
 *    complete additions must handle them;
 *  - the GB/T 32918 signature example: P = dG and kG = (x1, y1).
 * A CPU without AVX-512 IFMA cannot run the backend: skipped (77).
 */
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "ec/ec.h"
#include "field/u256.h"
#include "testutil.h"

#if defined(__x86_64__)
static const fs2_ec_ops *adx = &fs2_ec_ops_adx, *gen_ec = &fs2_ec_ops_generic, *ifma = &fs2_ec_ops_avx512ifma;

static int affine_eq(const fs2_affine *a, const fs2_affine *b)
{
    return a->infinity == b->infinity && !memcmp(a->x, b->x, 32) && !memcmp(a->y, b->y, 32);
}

static int lt_n(const uint64_t k[4])
{
    for (int i = 3; i >= 0; i--)
        if (k[i] != FS2_N[i])
            return k[i] < FS2_N[i];
    return 0;
}

/* r = a - b (no borrow out expected) */
static void sub4(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t d = a[i] - b[i];
        uint64_t out = (a[i] < b[i]) | (d < borrow);
        r[i] = d - borrow;
        borrow = out;
    }
}

/* r = x mod 2^bits */
static void low_bits(uint64_t r[4], const uint64_t x[4], unsigned bits)
{
    for (unsigned i = 0; i < 4; i++) {
        unsigned lo = 64 * i;
        r[i] = bits >= lo + 64 ? x[i] : bits <= lo ? 0 : x[i] & ((1ULL << (bits - lo)) - 1);
    }
}

#define NSPECIAL 80
/* The edge scalars, i < NSPECIAL; else random (or sparse) below n. */
static void scalar_pick(uint64_t k[4], unsigned c)
{
    uint64_t t[4];
    memset(k, 0, 32);
    if (c < 3) { /* 0, 1, 2 */
        k[0] = c;
    } else if (c < 7) { /* n - 1 .. n - 4 */
        uint64_t s[4] = {c - 2, 0, 0, 0};
        sub4(k, FS2_N, s);
    } else if (c < 10) { /* every window 64, 63 or 65 */
        unsigned v = c == 7 ? 64 : c == 8 ? 63 : 65;
        for (int b = 0; b < 256; b += 7)
            for (int j = 0; j < 7 && b + j < 256; j++)
                if ((v >> j) & 1)
                    k[(b + j) / 64] |= 1ULL << ((b + j) % 64);
        k[3] &= 0x7FFFFFFFFFFFFFFFULL;
    } else if (c < 18) { /* one lane's block only: 5 windows of random bits */
        unsigned l = c - 10;
        uint64_t r[4] = {fs2t_rand_u64(), fs2t_rand_u64(), fs2t_rand_u64(), fs2t_rand_u64()};
        for (unsigned b = 35 * l; b < 35 * l + 35 && b < 255; b++)
            if ((r[(b / 64) % 4] >> (b % 64)) & 1)
                k[b / 64] |= 1ULL << (b % 64);
    } else if (c < 25) { /* k = n - 2 (n mod 2^(35 l)), l = 1..7 */
        uint64_t lo[4];
        low_bits(lo, FS2_N, 35 * (c - 17));
        sub4(t, FS2_N, lo);
        sub4(k, t, lo);
    } else if (c < 32) { /* k = n - (n mod 2^(35 l)) +- 1: the upper lanes' sum near n */
        uint64_t lo[4], one[4] = {1, 0, 0, 0};
        low_bits(lo, FS2_N, 35 * (c - 24));
        sub4(k, FS2_N, lo);
        if (c & 1)
            sub4(k, k, one);
    } else if (c < 40) { /* the top window only: 2^252 d */
        k[3] = (uint64_t)(c - 31) << 60;
        if (!lt_n(k))
            k[3] = 1ULL << 60;
    } else if (c < 48) { /* one bit */
        unsigned b = (unsigned)(fs2t_rand_u64() % 255);
        k[b / 64] = 1ULL << (b % 64);
    } else if (c < 56) { /* small */
        k[0] = fs2t_rand_u64() % 100000;
    } else {
        do {
            for (int i = 0; i < 4; i++)
                k[i] = fs2t_rand_u64();
            if (c % 3 == 0) /* sparse: most windows zero */
                for (int i = 0; i < 4; i++)
                    k[i] &= fs2t_rand_u64() & fs2t_rand_u64() & fs2t_rand_u64();
        } while (!lt_n(k));
    }
    if (!lt_n(k))
        k[3] &= 0x7FFFFFFFFFFFFFFFULL;
}

static void test_slots(unsigned iters)
{
    unsigned long n = 0;
    fs2_affine P;
    fs2_pubtab tab;
    uint64_t d[4];
    scalar_pick(d, 1000);
    gen_ec->mul_base(&P, d);
    adx->precompute_var(&tab, &P);
    for (unsigned c = 0; c < iters; c++) {
        uint64_t k[4], a[4], q1[4], q2[4];
        fs2_affine r1, r2, s1, s2;
        scalar_pick(k, c);
        ifma->mul_base(&r1, k);
        adx->mul_base(&r2, k);
        CHECK(affine_eq(&r1, &r2));
        CHECK(r1.infinity == (uint64_t) !(k[0] | k[1] | k[2] | k[3]));
        if (c < NSPECIAL) { /* the portable reference too, on the edges */
            gen_ec->mul_base(&r2, k);
            CHECK(affine_eq(&r1, &r2));
        }
        do
            scalar_pick(a, NSPECIAL + c);
        while (!(a[0] | a[1] | a[2] | a[3]));
        ifma->mul_base_and_sc_inv(&r1, k, q1, a);
        adx->mul_base_and_sc_inv(&r2, k, q2, a);
        CHECK(affine_eq(&r1, &r2));
        CHECK(!memcmp(q1, q2, 32));
        const fs2_pubtab *tb = c & 1 ? &tab : NULL;
        ifma->mul_base_and_mul(&r1, &s1, &P, tb, k);
        adx->mul_base_and_mul(&r2, &s2, &P, tb, k);
        CHECK(affine_eq(&r1, &r2));
        CHECK(affine_eq(&s1, &s2));
        ifma->mul(&s1, &P, tb, k);
        adx->mul(&s2, &P, tb, k);
        CHECK(affine_eq(&s1, &s2));
        n++;
    }
    printf("test_ifma1: mul_base, mul_base_and_sc_inv, mul_base_and_mul, mul on %lu scalars (%d edges) against adx\n",
           n, NSPECIAL);
}

/* A big-endian hex string of 64 digits as 4 little-endian limbs. */
static void limbs_of_hex(uint64_t r[4], const char *hex)
{
    unsigned char b[32];
    CHECK(fs2t_unhex(b, sizeof b, hex) == 32);
    for (int i = 0; i < 4; i++) {
        r[i] = 0;
        for (int j = 0; j < 8; j++)
            r[i] = r[i] << 8 | b[32 - 8 * (i + 1) + j];
    }
}

/* The GB/T 32918 signature example (tests/vectors/gbt32918-examples.txt):
 * the key pair P = dG, and the signature's kG = (x1, y1). */
static void test_gbt_examples(void)
{
    static const char *ex[2][3] = {
        {"3945208F7B2144B13F36E38AC6D39F95889393692860B51A42FB81EF4DF7C5B8",
         "09F9DF311E5421A150DD7D161E4BC5C672179FAD1833FC076BB08FF356F35020",
         "CCEA490CE26775A52DC6EA718CC1AA600AED05FBF35E084A6632F6072DA9AD13"},
        {"59276E27D506861A16680F3AD9C02DCCEF3CC1FA3CDBE4CE6D54B80DEAC1BC21",
         "04EBFC718E8D1798620432268E77FEB6415E2EDE0E073C0F4F640ECD2E149A73",
         "E858F9D81E5430A57B36DAAB8F950A3C64E6EE6A63094D99283AFF767E124DF0"},
    };
    for (int i = 0; i < 2; i++) {
        uint64_t k[4], x[4], y[4], q[4], a[4] = {1, 0, 0, 0};
        fs2_affine r;
        limbs_of_hex(k, ex[i][0]);
        limbs_of_hex(x, ex[i][1]);
        limbs_of_hex(y, ex[i][2]);
        ifma->mul_base(&r, k);
        CHECK(!r.infinity && !memcmp(r.x, x, 32) && !memcmp(r.y, y, 32));
        memset(&r, 0, sizeof r);
        ifma->mul_base_and_sc_inv(&r, k, q, a);
        CHECK(!r.infinity && !memcmp(r.x, x, 32) && !memcmp(r.y, y, 32));
    }
    printf("test_ifma1: the GB/T 32918 signature example: P = dG and kG = (x1, y1)\n");
}

int main(void)
{
    if (!fs2_cpu_has(ifma->cpu_needs))
        return fs2t_skip("test_ifma1", "this CPU has no AVX-512 IFMA, so the avx512-ifma backend is NOT tested here");
    test_gbt_examples();
    test_slots(600);
    return fs2t_finish("test_ifma1");
}
#else
int main(void)
{
    return fs2t_skip("test_ifma1", "not x86-64: no avx512-ifma backend");
}
#endif
