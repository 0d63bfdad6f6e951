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

/* Carries of limbs 0..3 into the next (signed: fe8_mul's limbs may be
 * negative); the top limb keeps the rest. */
FI void fe8_carry(fe8 *r)
{
    const __m512i m = bc(M52);
    for (int i = 0; i < 4; i++) {
        r->v[i + 1] = _mm512_add_epi64(r->v[i + 1], _mm512_srai_epi64(r->v[i], 52));
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

/* r = a - b, as a + 4p - b. */
FI void fe8_sub(fe8 *r, const fe8 *a, const fe8 *b)
{
    for (int i = 0; i < 5; i++)
        r->v[i] = _mm512_sub_epi64(_mm512_add_epi64(a->v[i], bc(C4P[i])), b->v[i]);
    fe8_fold(r);
}

/* r = a - b as a + 4p - b, carried but not folded: below 2^259, for a
 * product's operand only (fe8_mul keeps values below 2^259 below it). */
FI void fe8_sub_nf(fe8 *r, const fe8 *a, const fe8 *b)
{
    for (int i = 0; i < 5; i++)
        r->v[i] = _mm512_sub_epi64(_mm512_add_epi64(a->v[i], bc(C4P[i])), b->v[i]);
    fe8_carry(r);
}

/* r = 2p - a for a canonical a (below p): below 2^257 without a fold. */
FI void fe8_neg_canonical(fe8 *r, const fe8 *a)
{
    for (int i = 0; i < 5; i++)
        r->v[i] = _mm512_sub_epi64(bc(C2P[i]), a->v[i]);
    fe8_carry(r);
}

/* r = a b 2^-260 mod p (below 2^257), as ec_ifma.c's fe8_mul but with the
 * reduction's multiples of p made from p's limbs: p = (2^52 - 1)
 * + p1 2^52 + (2^52 - 1) 2^104 + (2^52 - 1) 2^156 + p4 2^208, so m p adds
 * -m, +m, -m, 0, +m to limbs 0..4 plus m p1 and m p4 by four VPMADD52
 * (ten in ec_ifma.c). Limbs may go negative on the way (arithmetic
 * shifts); the value is the same (a b + M p) / 2^260. */
FI void fe8_mul(fe8 *r, const fe8 *a, const fe8 *b)
{
    const __m512i z = _mm512_setzero_si512(), m52 = bc(M52);
    const __m512i p1 = bc(P52[1]), p4 = bc(P52[4]);
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
        t1 = _mm512_madd52lo_epu64(t1, m, p1);
        t2 = _mm512_madd52hi_epu64(t2, m, p1);
        t4 = _mm512_madd52lo_epu64(t4, m, p4);
        t5 = _mm512_madd52hi_epu64(t5, m, p4);
        t2 = _mm512_sub_epi64(t2, m);
        t4 = _mm512_add_epi64(t4, m);
        /* (t0 - m) is a multiple of 2^52: shift down one limb, m carried */
        t0 = _mm512_add_epi64(_mm512_add_epi64(t1, m), _mm512_srai_epi64(t0, 52));
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

/* Part of a round's scan: t |= entry & (d = e + 1) for the entries
 * [e0, e1) of round r, all loaded (VPTERNLOGQ 0xF8: plain loads, no
 * masked load whose merges would chain the entries). */
FI void scan_part(ge8 *t, int r, __m512i d, int e0, int e1)
{
    const __m512i ones = _mm512_set1_epi64(-1);
    for (int e = e0; e < e1; e++) {
        __m512i m = _mm512_maskz_mov_epi64(_mm512_cmpeq_epi64_mask(d, bc((uint64_t)e + 1)), ones);
        const uint64_t(*en)[FS2_IFMA1_LANES] = tab1[r][e];
        for (int i = 0; i < 5; i++) {
            t->x.v[i] = _mm512_ternarylogic_epi64(t->x.v[i], m, _mm512_load_si512((const void *)en[i]), 0xF8);
            t->y.v[i] = _mm512_ternarylogic_epi64(t->y.v[i], m, _mm512_load_si512((const void *)en[5 + i]), 0xF8);
        }
    }
}

FI void scan_start(ge8 *t)
{
    for (int i = 0; i < 5; i++)
        t->x.v[i] = t->y.v[i] = _mm512_setzero_si512();
}

/* y negated in the lanes of neg: the scan's last step. */
FI void scan_end(ge8 *t, __m512i neg)
{
    fe8 ny;
    fe8_neg_canonical(&ny, &t->y);
    fe8_blend(&t->y, _mm512_test_epi64_mask(neg, neg), &ny);
}

/* r = a + b, b affine, a and b neither equal, opposite nor infinity (the
 * comment at the top): 8M + 3S, as ec_ifma.c's gej8_add_ge,
 *   U2 = x2 Z1^2, S2 = y2 Z1^3, H = U2 - X1, R = S2 - Y1,
 *   X3 = R^2 - H^3 - 2 X1 H^2, Y3 = R (X1 H^2 - X3) - Y1 H^3, Z3 = Z1 H,
 * with the scan of the next round's entries (nr >= 0) cut in five and put
 * between its five levels of products: the scan's loads and logic then
 * fill the time the products' latency leaves idle. Bounds (p ~ 2^256; a
 * product of x and y is below x y / 2^260 + p): the inputs below 2^257;
 * R, H (not folded) below 3 2^257; H^2, R^2 below 3.25 2^256, H^3 below
 * 2.22 2^256, X1 H^2 below 1.41 2^256: each subtrahend below 4p, so no
 * subtraction goes negative; X1 H^2 - X3 (not folded) below 5.41 2^256, a
 * product's operand below 2^259 as fe8_mul needs; Z3, X3, Y3 below 2^257. */
FI void gej8_add_ge_scan(gej8 *r, const gej8 *a, const ge8 *b, ge8 *nt, int nr, __m512i nd)
{
    fe8 z1z1, u2, s2, h, rr, hh, hhh, v, t, y1h;
    fe8_sqr(&z1z1, &a->z);
    fe8_mul(&s2, &b->y, &a->z);
    if (nr >= 0)
        scan_part(nt, nr, nd, 0, 13);
    fe8_mul(&u2, &b->x, &z1z1);
    fe8_mul(&s2, &s2, &z1z1);
    fe8_sub_nf(&rr, &s2, &a->y);
    fe8_sub_nf(&h, &u2, &a->x);
    if (nr >= 0)
        scan_part(nt, nr, nd, 13, 26);
    fe8_sqr(&hh, &h);
    fe8_sqr(&t, &rr);
    fe8_mul(&r->z, &a->z, &h);
    if (nr >= 0)
        scan_part(nt, nr, nd, 26, 39);
    fe8_mul(&hhh, &h, &hh);
    fe8_mul(&v, &a->x, &hh);
    fe8_sub(&t, &t, &hhh);
    fe8_sub(&t, &t, &v);
    fe8_sub(&t, &t, &v);
    fe8_sub_nf(&v, &v, &t);
    if (nr >= 0)
        scan_part(nt, nr, nd, 39, 52);
    fe8_mul(&y1h, &a->y, &hhh);
    fe8_mul(&v, &rr, &v);
    fe8_sub(&r->y, &v, &y1h);
    r->x = t;
    if (nr >= 0)
        scan_part(nt, nr, nd, 52, 64);
}

void fs2_ifma1_gen_parts(uint64_t (*xyz)[12], const uint8_t dig[FS2_IFMA1_WINDOWS],
                         const uint8_t neg[FS2_IFMA1_WINDOWS])
{
    gej8 acc, sum;
    ge8 t, nt;
    fe8 one;
    __mmask8 acc_inf;
    uint8_t ld[FS2_IFMA1_ROUNDS][FS2_IFMA1_LANES], ln[FS2_IFMA1_ROUNDS][FS2_IFMA1_LANES];
    pthread_once(&tab1_once, tab1_make);
    for (int r = 0; r < FS2_IFMA1_ROUNDS; r++) /* the digits by round, a lane each (public positions) */
        for (int l = 0; l < FS2_IFMA1_LANES; l++) {
            ld[r][l] = dig[FS2_IFMA1_ROUNDS * l + r];
            ln[r][l] = neg[FS2_IFMA1_ROUNDS * l + r];
        }
    fe8_const(&one, ONE52);
    __m512i d[FS2_IFMA1_ROUNDS], ng[FS2_IFMA1_ROUNDS];
    for (int r = 0; r < FS2_IFMA1_ROUNDS; r++) {
        d[r] = _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)ld[r]));
        ng[r] = _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)ln[r]));
    }
    /* rounds 0 and 1 scanned here, each later one during the addition
     * before it */
    scan_start(&t);
    scan_part(&t, 0, d[0], 0, 64);
    scan_end(&t, ng[0]);
    acc.x = t.x; /* each lane's first window sets it: no addition */
    acc.y = t.y;
    acc.z = one;
    acc_inf = (__mmask8)~_mm512_test_epi64_mask(d[0], d[0]);
    scan_start(&t);
    scan_part(&t, 1, d[1], 0, 64);
    scan_end(&t, ng[1]);
    for (int r = 1; r < FS2_IFMA1_ROUNDS; r++) {
        __mmask8 nz = _mm512_test_epi64_mask(d[r], d[r]);
        int nr = r + 1 < FS2_IFMA1_ROUNDS ? r + 1 : -1;
        scan_start(&nt);
        /* never +-t with both finite (the comment at the top) */
        gej8_add_ge_scan(&sum, &acc, &t, &nt, nr, nr >= 0 ? d[nr] : d[0]);
        __mmask8 take_sum = nz & (__mmask8)~acc_inf, take_t = nz & acc_inf;
        fe8_blend(&acc.x, take_sum, &sum.x);
        fe8_blend(&acc.y, take_sum, &sum.y);
        fe8_blend(&acc.z, take_sum, &sum.z);
        fe8_blend(&acc.x, take_t, &t.x);
        fe8_blend(&acc.y, take_t, &t.y);
        fe8_blend(&acc.z, take_t, &one);
        acc_inf &= (__mmask8)~nz;
        if (nr >= 0) {
            scan_end(&nt, ng[nr]);
            t = nt;
        }
    }
    for (int i = 0; i < 5; i++) /* a lane without a digit: infinity, Z = 0 */
        acc.z.v[i] = _mm512_mask_mov_epi64(acc.z.v[i], acc_inf, _mm512_setzero_si512());
    fe8_out(xyz[0], 12, &acc.x, FS2_IFMA1_LANES);
    fe8_out(xyz[0] + 4, 12, &acc.y, FS2_IFMA1_LANES);
    fe8_out(xyz[0] + 8, 12, &acc.z, FS2_IFMA1_LANES);
    fs2_wipe(&acc, sizeof acc);
    fs2_wipe(&sum, sizeof sum);
    fs2_wipe(&t, sizeof t);
    fs2_wipe(&nt, sizeof nt);
    fs2_wipe(d, sizeof d);
    fs2_wipe(ng, sizeof ng);
    fs2_wipe(ld, sizeof ld);
    fs2_wipe(ln, sizeof ln);
}

#if defined(__clang__)
#pragma clang attribute pop
#endif

#endif /* __x86_64__ */
