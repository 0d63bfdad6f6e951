/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ONE fixed-base multiplication kG in the eight lanes of AVX-512 IFMA
 * (ec_ifma1.h says what the lanes hold and why).
 *
 * Field and point arithmetic: the same as ec_ifma.c's (five 52-bit limbs,
 * Montgomery form with R = 2^260, values below 2^257 between operations,
 * the mixed addition 8M + 3S), copied here because that file belongs to
 * the batch backend; one shared header for both is a later clean-up.
 *
 * Exceptional additions: lane l adds d_w 2^(7w) G for w = 5l + r to the
 * sum A of its windows 5l .. w - 1. A = 2^(35l) V with |V| < 2^(7r - 1)
 * (signed digits) while the point added is 2^(7w) d with 1 <= |d| <= 64; as
 * integers A = +-2^(7w) d is impossible, and mod n the difference
 * A -+ 2^(7w) d is 2^(35l) times a nonzero integer below 2^35 in size,
 * not a multiple of the odd prime n. So the mixed
 * addition's only special case is A = infinity (no digit yet), which the
 * masks handle, as in fs2_ecmult_gen.
 *
 * Constant time: each round reads all 64 entries of its table (640 vector
 * loads, addresses fixed), the digits make only the AND masks; no branch
 * or address depends on them (tests/harness/ifma-trace traces this).
 */
#include "ec/ifma/ec_ifma1.h"

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


/* out[lane] = a as a canonical 4-limb a 2^256 mod p (field/field.h). */
FI void fe8_out(uint64_t *out, size_t stride, const fe8 *a, size_t n)
{
    fe8 k, t;
    uint64_t l[5][FS2_IFMA1_LANES];
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


/* The base-point tables by round: tab1[r][e][c][l] = limb c (x: 0..4, y:
 * 5..9) of entry e of window 5l + r of fs2_gen_table, in this file's form
 * (zero for the windows 37..39 that do not exist). 200 KiB, made at the
 * first call. */
static __attribute__((aligned(64))) uint64_t tab1[FS2_IFMA1_ROUNDS][64][10][FS2_IFMA1_LANES];
static pthread_once_t tab1_once = PTHREAD_ONCE_INIT;

static void tab1_make(void)
{
    for (int r = 0; r < FS2_IFMA1_ROUNDS; r++)
        for (int l = 0; l < FS2_IFMA1_LANES; l++) {
            int w = FS2_IFMA1_ROUNDS * l + r;
            if (w >= 37)
                continue;
            for (int e = 0; e < 64; e++) {
                uint64_t x[5], y[5];
                to52_public(x, fs2_gen_table[w][e].x);
                to52_public(y, fs2_gen_table[w][e].y);
                for (int i = 0; i < 5; i++) {
                    tab1[r][e][i][l] = x[i];
                    tab1[r][e][5 + i][l] = y[i];
                }
            }
        }
}

/* t = in each lane, entry |d| - 1 of that lane's window of round r (zero
 * where d = 0): all 64 entries loaded, each kept by a mask; y negated
 * where neg. */
FI void round_select(ge8 *t, int r, __m512i d, __m512i neg)
{
    const __m512i ones = _mm512_set1_epi64(-1);
    for (int i = 0; i < 5; i++)
        t->x.v[i] = t->y.v[i] = _mm512_setzero_si512();
    for (int e = 0; e < 64; e++) {
        /* the mask as a vector, then t |= entry & mask (VPTERNLOGQ 0xF8):
         * plain loads, no masked load whose merge chains 64 entries */
        __m512i m = _mm512_maskz_mov_epi64(_mm512_cmpeq_epi64_mask(d, bc((uint64_t)e + 1)), ones);
        const uint64_t(*en)[FS2_IFMA1_LANES] = tab1[r][e];
        for (int i = 0; i < 5; i++) {
            t->x.v[i] = _mm512_ternarylogic_epi64(t->x.v[i], m, _mm512_load_si512((const void *)en[i]), 0xF8);
            t->y.v[i] = _mm512_ternarylogic_epi64(t->y.v[i], m, _mm512_load_si512((const void *)en[5 + i]), 0xF8);
        }
    }
    fe8 ny;
    fe8_neg_canonical(&ny, &t->y);
    fe8_blend(&t->y, _mm512_test_epi64_mask(neg, neg), &ny);
}

void fs2_ifma1_gen_parts(uint64_t (*xyz)[12], const uint8_t dig[FS2_IFMA1_WINDOWS],
                         const uint8_t neg[FS2_IFMA1_WINDOWS])
{
    gej8 acc, sum;
    ge8 t;
    fe8 one;
    __mmask8 acc_inf = 0xFF;
    uint8_t ld[FS2_IFMA1_ROUNDS][FS2_IFMA1_LANES], ln[FS2_IFMA1_ROUNDS][FS2_IFMA1_LANES];
    pthread_once(&tab1_once, tab1_make);
    for (int r = 0; r < FS2_IFMA1_ROUNDS; r++) /* the digits by round, a lane each (public positions) */
        for (int l = 0; l < FS2_IFMA1_LANES; l++) {
            ld[r][l] = dig[FS2_IFMA1_ROUNDS * l + r];
            ln[r][l] = neg[FS2_IFMA1_ROUNDS * l + r];
        }
    fe8_const(&one, ONE52);
    for (int r = 0; r < FS2_IFMA1_ROUNDS; r++) {
        __m512i d = _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)ld[r]));
        __m512i ng = _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)ln[r]));
        __mmask8 nz = _mm512_test_epi64_mask(d, d);
        round_select(&t, r, d, ng);
        if (r == 0) { /* each lane's first window sets it: no addition */
            acc.x = t.x;
            acc.y = t.y;
            acc.z = one;
            acc_inf = (__mmask8)~nz;
            continue;
        }
        /* never +-t with both finite (the comment at the top) */
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
    for (int i = 0; i < 5; i++) /* a lane without a digit: infinity, Z = 0 */
        acc.z.v[i] = _mm512_mask_mov_epi64(acc.z.v[i], acc_inf, _mm512_setzero_si512());
    fe8_out(xyz[0], 12, &acc.x, FS2_IFMA1_LANES);
    fe8_out(xyz[0] + 4, 12, &acc.y, FS2_IFMA1_LANES);
    fe8_out(xyz[0] + 8, 12, &acc.z, FS2_IFMA1_LANES);
    fs2_wipe(&acc, sizeof acc);
    fs2_wipe(&sum, sizeof sum);
    fs2_wipe(&t, sizeof t);
    fs2_wipe(ld, sizeof ld);
    fs2_wipe(ln, sizeof ln);
}

#if defined(__clang__)
#pragma clang attribute pop
#endif

#endif /* __x86_64__ */
