/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Eight scalar multiplications in lockstep with AVX-512 IFMA (ec_ifma.h).
 *
 * Field elements mod p = 2^256 - 2^224 - 2^96 + 2^64 - 1 as five limbs of
 * 52 bits, one vector per limb, one lane per operation: a value a 2^260
 * mod p (Montgomery form, R = 2^260), kept below 2^257 with every limb
 * below 2^52 (the top one below 2^49) between operations; "canonical"
 * (below p) only where it leaves this file. The Montgomery product is
 * operand scanning: for each limb b_i, a b_i into the accumulators (low
 * halves into limb j, high halves into limb j + 1), then m p with m the
 * low 52 bits of the lowest accumulator (-p^-1 = 1 mod 2^52, since
 * p = -1 mod 2^64), and a shift by one limb. For inputs below 2^257 the
 * result (a b + M p) / 2^260 is below 2^254 + p < 2^257. Sums and
 * differences (a - b as a + 4p - b, with 4p in limbs large enough that no
 * limb goes negative) are folded back below 2^257 with
 * 2^256 = 2^224 + 2^96 - 2^64 + 1 (mod p).
 *
 * Nothing here branches on, or takes an address from, a lane's data
 * except in fs2_ifma_sum_var (public inputs), whose table reads are
 * gathers indexed by the public digits.
 */
#include "ec/ifma/ec_ifma.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <pthread.h>
#include <string.h>

#include "ecmult_tables.h"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512vl,avx512ifma,avx2,bmi2"))), apply_to = function)
#else
#pragma GCC target("avx512f,avx512vl,avx512ifma,avx2,bmi2")
#endif

#define FI  static inline __attribute__((always_inline))
#define M52 0xFFFFFFFFFFFFFULL

typedef struct {
    __m512i v[5];
} fe8;

typedef struct {
    fe8 x, y, z;
} gej8;

typedef struct {
    fe8 x, y;
} ge8;

static const uint64_t P52[5] = {0xFFFFFFFFFFFFFULL, 0xFF00000000FFFULL, 0xFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFULL,
                                0xFFFFFFFEFFFFULL};
/* 2^260 mod p: the Montgomery form of 1 */
static const uint64_t ONE52[5] = {0x10ULL, 0xFFFFFFFF0000ULL, 0, 0, 0x100000ULL};
/* 2^256 mod p: the factor that takes a 2^260 to a 2^256 (field/field.h's form) */
static const uint64_t KOUT52[5] = {0x1ULL, 0xFFFFFFFF000ULL, 0, 0, 0x10000ULL};
/* 2p and 4p with every limb but the top one in [2^52, 2^53) */
static const uint64_t C2P[5] = {0x1FFFFFFFFFFFFEULL, 0x1FE00000001FFEULL, 0x1FFFFFFFFFFFFEULL, 0x1FFFFFFFFFFFFEULL,
                                0x1FFFFFFFDFFFEULL};
static const uint64_t C4P[5] = {0x1FFFFFFFFFFFFCULL, 0x1FC00000003FFEULL, 0x1FFFFFFFFFFFFEULL, 0x1FFFFFFFFFFFFEULL,
                                0x3FFFFFFFBFFFEULL};

FI __m512i bc(uint64_t x)
{
    return _mm512_set1_epi64((long long)x);
}

FI void fe8_const(fe8 *r, const uint64_t c[5])
{
    for (int i = 0; i < 5; i++)
        r->v[i] = bc(c[i]);
}

/* Carries of limbs 0..3 into the next; the top limb keeps the rest. */
FI void fe8_carry(fe8 *r)
{
    const __m512i m = bc(M52);
    for (int i = 0; i < 4; i++) {
        r->v[i + 1] = _mm512_add_epi64(r->v[i + 1], _mm512_srli_epi64(r->v[i], 52));
        r->v[i] = _mm512_and_si512(r->v[i], m);
    }
}

/* A value below 2^262 (limbs below 2^62) back below 2^257, normalised:
 * the bits from 2^256 up, h, come back as h (2^224 + 2^96 - 2^64 + 1). */
FI void fe8_fold(fe8 *r)
{
    fe8_carry(r);
    __m512i h = _mm512_srli_epi64(r->v[4], 48);
    r->v[4] = _mm512_and_si512(r->v[4], bc((1ULL << 48) - 1));
    r->v[0] = _mm512_add_epi64(r->v[0], h);
    r->v[1] = _mm512_add_epi64(r->v[1], _mm512_sub_epi64(_mm512_slli_epi64(h, 44), _mm512_slli_epi64(h, 12)));
    r->v[4] = _mm512_add_epi64(r->v[4], _mm512_slli_epi64(h, 16));
    fe8_carry(r);
}

FI void fe8_add(fe8 *r, const fe8 *a, const fe8 *b)
{
    for (int i = 0; i < 5; i++)
        r->v[i] = _mm512_add_epi64(a->v[i], b->v[i]);
    fe8_fold(r);
}

/* r = a - b, as a + 4p - b. */
FI void fe8_sub(fe8 *r, const fe8 *a, const fe8 *b)
{
    for (int i = 0; i < 5; i++)
        r->v[i] = _mm512_sub_epi64(_mm512_add_epi64(a->v[i], bc(C4P[i])), b->v[i]);
    fe8_fold(r);
}

/* r = 2p - a for a canonical a (below p): below 2^257 without a fold. */
FI void fe8_neg_canonical(fe8 *r, const fe8 *a)
{
    for (int i = 0; i < 5; i++)
        r->v[i] = _mm512_sub_epi64(bc(C2P[i]), a->v[i]);
    fe8_carry(r);
}

/* r = a b 2^-260 mod p (below 2^257). */
FI void fe8_mul(fe8 *r, const fe8 *a, const fe8 *b)
{
    const __m512i z = _mm512_setzero_si512(), m52 = bc(M52);
    const __m512i p0 = bc(P52[0]), p1 = bc(P52[1]), p2 = bc(P52[2]), p3 = bc(P52[3]), p4 = bc(P52[4]);
    __m512i t0 = z, t1 = z, t2 = z, t3 = z, t4 = z, t5;
    const __m512i a0 = a->v[0], a1 = a->v[1], a2 = a->v[2], a3 = a->v[3], a4 = a->v[4];
    for (int i = 0; i < 5; i++) {
        __m512i bi = b->v[i];
        t5 = z;
        t0 = _mm512_madd52lo_epu64(t0, a0, bi);
        t1 = _mm512_madd52lo_epu64(t1, a1, bi);
        t2 = _mm512_madd52lo_epu64(t2, a2, bi);
        t3 = _mm512_madd52lo_epu64(t3, a3, bi);
        t4 = _mm512_madd52lo_epu64(t4, a4, bi);
        t1 = _mm512_madd52hi_epu64(t1, a0, bi);
        t2 = _mm512_madd52hi_epu64(t2, a1, bi);
        t3 = _mm512_madd52hi_epu64(t3, a2, bi);
        t4 = _mm512_madd52hi_epu64(t4, a3, bi);
        t5 = _mm512_madd52hi_epu64(t5, a4, bi);
        __m512i m = _mm512_and_si512(t0, m52);
        t0 = _mm512_madd52lo_epu64(t0, m, p0);
        t1 = _mm512_madd52lo_epu64(t1, m, p1);
        t2 = _mm512_madd52lo_epu64(t2, m, p2);
        t3 = _mm512_madd52lo_epu64(t3, m, p3);
        t4 = _mm512_madd52lo_epu64(t4, m, p4);
        t1 = _mm512_madd52hi_epu64(t1, m, p0);
        t2 = _mm512_madd52hi_epu64(t2, m, p1);
        t3 = _mm512_madd52hi_epu64(t3, m, p2);
        t4 = _mm512_madd52hi_epu64(t4, m, p3);
        t5 = _mm512_madd52hi_epu64(t5, m, p4);
        /* t0 is now a multiple of 2^52: shift down one limb */
        t0 = _mm512_add_epi64(t1, _mm512_srli_epi64(t0, 52));
        t1 = t2;
        t2 = t3;
        t3 = t4;
        t4 = t5;
    }
    r->v[0] = t0;
    r->v[1] = t1;
    r->v[2] = t2;
    r->v[3] = t3;
    r->v[4] = t4;
    fe8_carry(r);
}

FI void fe8_sqr(fe8 *r, const fe8 *a)
{
    fe8_mul(r, a, a);
}

FI void fe8_blend(fe8 *r, __mmask8 k, const fe8 *a)
{
    for (int i = 0; i < 5; i++)
        r->v[i] = _mm512_mask_mov_epi64(r->v[i], k, a->v[i]);
}

/* a minus p where that is not negative (a below 2p): the canonical value. */
FI void fe8_reduce_once(fe8 *r)
{
    fe8 d;
    __m512i c = _mm512_setzero_si512();
    for (int i = 0; i < 5; i++) {
        __m512i t = _mm512_add_epi64(_mm512_sub_epi64(r->v[i], bc(P52[i])), c);
        c = _mm512_srai_epi64(t, 52);
        d.v[i] = i < 4 ? _mm512_and_si512(t, bc(M52)) : t;
    }
    /* d's top limb negative: a < p, keep a */
    __mmask8 keep = _mm512_cmplt_epi64_mask(d.v[4], _mm512_setzero_si512());
    fe8_blend(&d, keep, r);
    *r = d;
}

/* The lanes where a = 0 (mod p), for a below 2^257: a in {0, p, 2p}. */
FI __mmask8 fe8_is_zero_var(const fe8 *a)
{
    fe8 t = *a;
    fe8_reduce_once(&t);
    fe8_reduce_once(&t);
    __m512i o =
        _mm512_or_si512(_mm512_or_si512(t.v[0], t.v[1]), _mm512_or_si512(_mm512_or_si512(t.v[2], t.v[3]), t.v[4]));
    return _mm512_cmpeq_epi64_mask(o, _mm512_setzero_si512());
}

/* out[lane] = a as a canonical 4-limb a 2^256 mod p (field/field.h). */
FI void fe8_out(uint64_t *out, size_t stride, const fe8 *a, size_t n)
{
    fe8 k, t;
    uint64_t l[5][FS2_IFMA_LANES];
    fe8_const(&k, KOUT52);
    fe8_mul(&t, a, &k); /* below 2^253 + p < 2p */
    fe8_reduce_once(&t);
    for (int i = 0; i < 5; i++)
        _mm512_storeu_si512((void *)l[i], t.v[i]);
    for (size_t j = 0; j < n; j++) {
        uint64_t *o = out + stride * j;
        o[0] = l[0][j] | l[1][j] << 52;
        o[1] = l[1][j] >> 12 | l[2][j] << 40;
        o[2] = l[2][j] >> 24 | l[3][j] << 28;
        o[3] = l[3][j] >> 36 | l[4][j] << 16;
    }
    memset(l, 0, sizeof l);
}

/* ---- the group law (a = -3), Jacobian with affine -------------------- */

/* r = 2a: delta = Z^2, gamma = Y^2, beta = X gamma,
 * alpha = 3 (X - delta)(X + delta), X3 = alpha^2 - 8 beta,
 * Z3 = (Y + Z)^2 - gamma - delta, Y3 = alpha (4 beta - X3) - 8 gamma^2. */
FI void gej8_double(gej8 *r, const gej8 *a)
{
    fe8 delta, gamma, beta, alpha, t, u;
    fe8_sqr(&delta, &a->z);
    fe8_sqr(&gamma, &a->y);
    fe8_mul(&beta, &a->x, &gamma);
    fe8_sub(&t, &a->x, &delta);
    fe8_add(&u, &a->x, &delta);
    fe8_mul(&alpha, &t, &u);
    fe8_add(&t, &alpha, &alpha);
    fe8_add(&alpha, &alpha, &t);
    fe8_add(&t, &a->y, &a->z);
    fe8_sqr(&t, &t);
    fe8_sub(&t, &t, &gamma);
    fe8_sub(&r->z, &t, &delta);
    fe8_add(&beta, &beta, &beta);
    fe8_add(&beta, &beta, &beta); /* 4 beta */
    fe8_sqr(&t, &alpha);
    fe8_sub(&t, &t, &beta);
    fe8_sub(&r->x, &t, &beta);
    fe8_sub(&u, &beta, &r->x);
    fe8_sqr(&gamma, &gamma);
    fe8_add(&gamma, &gamma, &gamma);
    fe8_add(&gamma, &gamma, &gamma);
    fe8_add(&gamma, &gamma, &gamma); /* 8 gamma^2 */
    fe8_mul(&t, &alpha, &u);
    fe8_sub(&r->y, &t, &gamma);
}

/* r = a + b, b affine, a and b neither equal, opposite nor infinity
 * (*hz gets the lanes where H = 0, that is a = +-b): 8M + 3S.
 *   U2 = x2 Z1^2, S2 = y2 Z1^3, H = U2 - X1, R = S2 - Y1,
 *   X3 = R^2 - H^3 - 2 X1 H^2, Y3 = R (X1 H^2 - X3) - Y1 H^3, Z3 = Z1 H. */
FI void gej8_add_ge(gej8 *r, const gej8 *a, const ge8 *b, fe8 *hout)
{
    fe8 z1z1, u2, s2, h, rr, hh, hhh, v, t, y1h;
    fe8_sqr(&z1z1, &a->z);
    fe8_mul(&s2, &b->y, &a->z);
    fe8_mul(&u2, &b->x, &z1z1);
    fe8_mul(&s2, &s2, &z1z1);
    fe8_sub(&rr, &s2, &a->y);
    fe8_sub(&h, &u2, &a->x);
    if (hout)
        *hout = h;
    fe8_sqr(&hh, &h);
    fe8_sqr(&t, &rr);
    fe8_mul(&hhh, &h, &hh);
    fe8_mul(&v, &a->x, &hh);
    fe8_sub(&t, &t, &hhh);
    fe8_mul(&y1h, &a->y, &hhh);
    fe8_sub(&t, &t, &v);
    fe8_sub(&t, &t, &v);
    fe8_sub(&v, &v, &t);
    fe8_mul(&r->z, &a->z, &h);
    fe8_mul(&v, &rr, &v);
    fe8_sub(&r->y, &v, &y1h);
    r->x = t;
}

/* ---- tables ---------------------------------------------------------- */

/* a 2^256 -> a 2^260 mod p for a public canonical a (four doublings mod p),
 * as five 52-bit limbs. */
static void to52_public(uint64_t out[5], const uint64_t in[4])
{
    static const uint64_t p[4] = {0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFF00000000ULL, 0xFFFFFFFFFFFFFFFFULL,
                                  0xFFFFFFFEFFFFFFFFULL};
    uint64_t a[4] = {in[0], in[1], in[2], in[3]};
    for (int d = 0; d < 4; d++) {
        uint64_t top = a[3] >> 63, b[4];
        a[3] = a[3] << 1 | a[2] >> 63;
        a[2] = a[2] << 1 | a[1] >> 63;
        a[1] = a[1] << 1 | a[0] >> 63;
        a[0] <<= 1;
        unsigned __int128 acc = 0;
        uint64_t borrow = 0;
        for (int i = 0; i < 4; i++) {
            acc = (unsigned __int128)a[i] - p[i] - borrow;
            b[i] = (uint64_t)acc;
            borrow = (uint64_t)(acc >> 64) & 1;
        }
        if (top || !borrow) /* 2a >= p */
            memcpy(a, b, sizeof a);
    }
    out[0] = a[0] & M52;
    out[1] = (a[0] >> 52 | a[1] << 12) & M52;
    out[2] = (a[1] >> 40 | a[2] << 24) & M52;
    out[3] = (a[2] >> 28 | a[3] << 36) & M52;
    out[4] = a[3] >> 16;
}

/* fs2_gen_table in this file's form: [window][entry][x limbs, y limbs] */
static uint64_t gen52[37][64][10];
static pthread_once_t gen52_once = PTHREAD_ONCE_INIT;

static void gen52_make(void)
{
    for (int w = 0; w < 37; w++)
        for (int e = 0; e < 64; e++) {
            to52_public(gen52[w][e], fs2_gen_table[w][e].x);
            to52_public(gen52[w][e] + 5, fs2_gen_table[w][e].y);
        }
}

FI __m512i load_u8(const uint8_t d[FS2_IFMA_LANES])
{
    return _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)d));
}

/* t = entry |d| - 1 of gen52[w] in every lane (zero where d = 0), by a
 * scan of all 64 entries with masked broadcasts; y negated where neg. */
FI void gen_select(ge8 *t, int w, __m512i d, __m512i neg)
{
    for (int i = 0; i < 5; i++)
        t->x.v[i] = t->y.v[i] = _mm512_setzero_si512();
    for (int e = 0; e < 64; e++) {
        __mmask8 k = _mm512_cmpeq_epi64_mask(d, bc((uint64_t)e + 1));
        const uint64_t *en = gen52[w][e];
        for (int i = 0; i < 5; i++) {
            t->x.v[i] = _mm512_mask_set1_epi64(t->x.v[i], k, (long long)en[i]);
            t->y.v[i] = _mm512_mask_set1_epi64(t->y.v[i], k, (long long)en[5 + i]);
        }
    }
    fe8 ny;
    fe8_neg_canonical(&ny, &t->y);
    fe8_blend(&t->y, _mm512_test_epi64_mask(neg, neg), &ny);
}

void fs2_ifma_gen(uint64_t (*xyz)[12], const uint8_t (*dig)[FS2_IFMA_LANES], const uint8_t (*neg)[FS2_IFMA_LANES],
                  size_t n)
{
    gej8 acc, sum;
    ge8 t;
    fe8 one;
    __mmask8 acc_inf;
    if (n == 0 || n > FS2_IFMA_LANES)
        return;
    pthread_once(&gen52_once, gen52_make);
    fe8_const(&one, ONE52);
    for (int w = 0; w < 37; w++) {
        __m512i d = load_u8(dig[w]);
        __mmask8 nz = _mm512_test_epi64_mask(d, d);
        gen_select(&t, w, d, load_u8(neg[w]));
        if (w == 0) { /* the first window sets acc: no addition */
            acc.x = t.x;
            acc.y = t.y;
            acc.z = one;
            acc_inf = (__mmask8)~nz;
            continue;
        }
        /* the comb's partial sums never meet +-t (fs2_ecmult_gen) */
        gej8_add_ge(&sum, &acc, &t, NULL);
        __mmask8 take_sum = nz & (__mmask8)~acc_inf, take_t = nz & acc_inf;
        fe8_blend(&acc.x, take_sum, &sum.x);
        fe8_blend(&acc.y, take_sum, &sum.y);
        fe8_blend(&acc.z, take_sum, &sum.z);
        fe8_blend(&acc.x, take_t, &t.x);
        fe8_blend(&acc.y, take_t, &t.y);
        fe8_blend(&acc.z, take_t, &one);
        acc_inf &= (__mmask8)~nz;
    }
    for (int i = 0; i < 5; i++) /* k = 0: infinity, Z = 0 */
        acc.z.v[i] = _mm512_mask_mov_epi64(acc.z.v[i], acc_inf, _mm512_setzero_si512());
    fe8_out(xyz[0], 12, &acc.x, n);
    fe8_out(xyz[0] + 4, 12, &acc.y, n);
    fe8_out(xyz[0] + 8, 12, &acc.z, n);
    memset(&acc, 0, sizeof acc);
    memset(&sum, 0, sizeof sum);
    memset(&t, 0, sizeof t);
}

/* ---- verification: public inputs, variable time ---------------------- */

/* acc += t in the lanes of nz, tracking infinity; *exc gets the lanes
 * where acc = +-t with both finite. */
FI void add_tracked_var(gej8 *acc, __mmask8 *acc_inf, __mmask8 *exc, const ge8 *t, __mmask8 nz, const fe8 *one)
{
    gej8 sum;
    fe8 h;
    if (!nz)
        return;
    gej8_add_ge(&sum, acc, t, &h);
    __mmask8 take_sum = nz & (__mmask8) ~*acc_inf, take_t = nz & *acc_inf;
    *exc |= take_sum & fe8_is_zero_var(&h);
    fe8_blend(&acc->x, take_sum, &sum.x);
    fe8_blend(&acc->y, take_sum, &sum.y);
    fe8_blend(&acc->z, take_sum, &sum.z);
    fe8_blend(&acc->x, take_t, &t->x);
    fe8_blend(&acc->y, take_t, &t->y);
    fe8_blend(&acc->z, take_t, one);
    *acc_inf &= (__mmask8)~nz;
}

/* t = entry |d| - 1 of each lane's table (gathers at public indices):
 * base[((e * 10) + limb) * 8 + lane] for the per-batch tables. */
FI void gather_lanes(ge8 *t, const uint64_t *base, __m512i d, __m512i neg, long long entry_stride, int lanes_stride)
{
    __m512i e = _mm512_max_epi64(_mm512_sub_epi64(d, bc(1)), _mm512_setzero_si512());
    __m512i idx = _mm512_mul_epu32(e, bc((uint64_t)entry_stride)); /* e < 16 or 64 */
    if (lanes_stride)
        idx = _mm512_add_epi64(idx, _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
    for (int i = 0; i < 5; i++) {
        t->x.v[i] = _mm512_i64gather_epi64(idx, (const long long *)(base + (size_t)i * (lanes_stride ? 8 : 1)), 8);
        t->y.v[i] =
            _mm512_i64gather_epi64(idx, (const long long *)(base + (size_t)(5 + i) * (lanes_stride ? 8 : 1)), 8);
    }
    fe8 ny;
    fe8_neg_canonical(&ny, &t->y);
    fe8_blend(&t->y, _mm512_test_epi64_mask(neg, neg), &ny);
}

unsigned fs2_ifma_sum_var(uint64_t (*xz)[8], const uint8_t (*sd)[FS2_IFMA_LANES], const uint8_t (*sneg)[FS2_IFMA_LANES],
                          const uint8_t (*td)[26][FS2_IFMA_LANES], const uint8_t (*tneg)[26][FS2_IFMA_LANES],
                          const fs2_pubtab *const *tab, size_t n)
{
    /* the lanes' tables of P and 2^128 P: [stream][entry][limb][lane] */
    static _Thread_local uint64_t ptab[2][16][10][FS2_IFMA_LANES];
    gej8 acc;
    ge8 t;
    fe8 one;
    __mmask8 acc_inf = 0xFF, exc = 0;
    if (n == 0 || n > FS2_IFMA_LANES)
        return 0;
    pthread_once(&gen52_once, gen52_make);
    for (size_t l = 0; l < FS2_IFMA_LANES; l++) {
        const fs2_pubtab *tb = tab[l < n ? l : 0];
        for (int c = 0; c < 2; c++)
            for (int e = 0; e < 16; e++) {
                uint64_t x[5], y[5];
                to52_public(x, tb->xy[c][e]);
                to52_public(y, tb->xy[c][e] + 4);
                for (int i = 0; i < 5; i++) {
                    ptab[c][e][i][l] = x[i];
                    ptab[c][e][5 + i][l] = y[i];
                }
            }
    }
    fe8_const(&one, ONE52);
    acc.x = acc.y = acc.z = one;
    for (int w = 25; w >= 0; w--) {
        if (w != 25)
            for (int j = 0; j < 5; j++)
                gej8_double(&acc, &acc);
        for (int c = 0; c < 2; c++) {
            __m512i d = load_u8(td[c][w]);
            __mmask8 nz = _mm512_test_epi64_mask(d, d);
            if (!nz)
                continue;
            gather_lanes(&t, &ptab[c][0][0][0], d, load_u8(tneg[c][w]), 80, 1);
            add_tracked_var(&acc, &acc_inf, &exc, &t, nz, &one);
        }
    }
    for (int w = 0; w < 37; w++) {
        __m512i d = load_u8(sd[w]);
        __mmask8 nz = _mm512_test_epi64_mask(d, d);
        if (!nz)
            continue;
        gather_lanes(&t, gen52[w][0], d, load_u8(sneg[w]), 10, 0);
        add_tracked_var(&acc, &acc_inf, &exc, &t, nz, &one);
    }
    for (int i = 0; i < 5; i++)
        acc.z.v[i] = _mm512_mask_mov_epi64(acc.z.v[i], acc_inf, _mm512_setzero_si512());
    fe8_out(xz[0], 8, &acc.x, n);
    fe8_out(xz[0] + 4, 8, &acc.z, n);
    return (unsigned)exc & ((1u << n) - 1);
}

#if defined(__clang__)
#pragma clang attribute pop
#endif

#endif /* __x86_64__ */
