/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Issue 35, step 1: is a lane-parallel AVX-512 IFMA point operation (the
 * independent field products of ONE doubling or mixed addition side by
 * side in the lanes of five 52-bit-limb vectors, operands routed with
 * permutes) faster than the same operation on the 64-bit MULX field (adx)?
 *
 * One Jacobian doubling (a = -3) and one mixed addition, each timed as a
 * dependent chain (the output feeds the next call, as in a scalar
 * multiplication), (a) with src/ec/group_impl.h over the x86 field and
 * (b) with the formulas below; the IFMA results are checked against (a)
 * first. Built and run by `make bench-ifma1-micro` (x86-64; exits 77 on a
 * CPU without IFMA). The product is ec_ifma1.c's (four VPMADD52 a
 * reduction step).
 *
 * Lane layouts: a Jacobian point is one vector of elements, lanes 0, 1, 2 =
 * X, Y, Z; an affine point lanes 0, 1 = x, y. Products of one step are
 * one 8-lane Montgomery product (radix 2^52, R = 2^260, as
 * src/ec/ifma/ec_ifma.c). Sums with small multiples are done lazily
 * (unnormalised limbs plus a multiple of p spread over the limbs) and
 * folded once.
 */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#define FS2_FIELD FS2_FIELD_X86
#include "field/field.h"
#include "ec/group_impl.h"

#define FI  static inline __attribute__((always_inline))
#define M52 0xFFFFFFFFFFFFFULL

typedef struct {
    __m512i v[5];
} fe8;

static const uint64_t P52[5] = {0xFFFFFFFFFFFFFULL, 0xFF00000000FFFULL, 0xFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFULL,
                                0xFFFFFFFEFFFFULL};
/* 2^520 mod p: into the form */
static const uint64_t RR[4] = {0x0000020000000300ULL, 0x000002ffffffff00ULL, 0x0000010000000100ULL,
                               0x0000040000000200ULL};
static uint64_t K256[5]; /* 256 p spread: every limb >= 2^55 */

FI __m512i bc(uint64_t x)
{
    return _mm512_set1_epi64((long long)x);
}

FI void fe8_carry(fe8 *r)
{
    const __m512i m = bc(M52);
    for (int i = 0; i < 4; i++) {
        r->v[i + 1] = _mm512_add_epi64(r->v[i + 1], _mm512_srai_epi64(r->v[i], 52));
        r->v[i] = _mm512_and_si512(r->v[i], m);
    }
}

/* limbs signed below 2^62, value below 2^266: back below 2^257 normalised */
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

/* the product of src/ec/ifma/ec_ifma1.c (four VPMADD52 a reduction step) */
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

/* lane routing: r lane i = (idx lane i < 8 ? a : b) lane idx & 7 */
FI void perm2(fe8 *r, const fe8 *a, __m512i idx, const fe8 *b)
{
    for (int i = 0; i < 5; i++)
        r->v[i] = _mm512_permutex2var_epi64(a->v[i], idx, b->v[i]);
}
FI void perm1(fe8 *r, const fe8 *a, __m512i idx)
{
    for (int i = 0; i < 5; i++)
        r->v[i] = _mm512_permutexvar_epi64(idx, a->v[i]);
}
#define IDX(a, b, c, d) _mm512_setr_epi64(a, b, c, d, 0, 0, 0, 0)

/* ---- doubling: P = [X, Y, Z] --------------------------------------- */
/* t = Y^2, zz = Z^2, yz = YZ; u = X - zz, w = X + zz; B = X t, m = u w,
 * C = t^2; D = m^2; X3 = 9D - 8B; Y3 = 3 m (4B - X3) - 8C; Z3 = 2 yz
 * (alpha = 3m: dbl-2001-b). */
FI void dbl(fe8 *r, const fe8 *p)
{
    fe8 a, b, t1, uw, t2, t3, t4, x3;
    perm1(&a, p, IDX(1, 2, 1, 0));
    perm1(&b, p, IDX(1, 2, 2, 0));
    fe8_mul(&t1, &a, &b); /* [t, zz, yz] */
    /* uw: lane 0 X + K - zz, lane 1 X + zz */
    perm1(&a, p, IDX(0, 0, 0, 0));
    perm1(&b, &t1, IDX(1, 1, 1, 1));
    for (int i = 0; i < 5; i++) {
        __m512i s = _mm512_sub_epi64(_mm512_add_epi64(a.v[i], bc(K256[i])), b.v[i]);
        __m512i d = _mm512_add_epi64(a.v[i], b.v[i]);
        uw.v[i] = _mm512_mask_mov_epi64(s, 0xFE, d);
    }
    fe8_fold(&uw);
    /* [X, u, t] x [t, w, t] */
    perm2(&a, p, IDX(0, 8, 0, 0), &uw);
    for (int i = 0; i < 5; i++)
        a.v[i] = _mm512_mask_permutexvar_epi64(a.v[i], 0x4, _mm512_setzero_si512(), t1.v[i]);
    perm2(&b, &t1, IDX(0, 9, 0, 0), &uw);
    fe8_mul(&t2, &a, &b); /* [B, m, C] */
    perm1(&a, &t2, IDX(1, 1, 1, 1));
    fe8_mul(&t3, &a, &a);       /* D = m^2 in lane 0 */
    for (int i = 0; i < 5; i++) /* 9D - 8B */
        x3.v[i] =
            _mm512_sub_epi64(_mm512_add_epi64(_mm512_add_epi64(_mm512_slli_epi64(t3.v[i], 3), t3.v[i]), bc(K256[i])),
                             _mm512_slli_epi64(t2.v[i], 3));
    fe8_fold(&x3);
    for (int i = 0; i < 5; i++) /* 4B - X3 */
        a.v[i] = _mm512_sub_epi64(_mm512_add_epi64(_mm512_slli_epi64(t2.v[i], 2), bc(K256[i])), x3.v[i]);
    fe8_fold(&a);
    perm1(&b, &t2, IDX(1, 1, 1, 1));
    fe8_mul(&t4, &a, &b); /* m (4B - X3) in lane 0 */
    perm1(&a, &t2, IDX(2, 2, 2, 2));
    perm1(&b, &t1, IDX(2, 2, 2, 2));
    for (int i = 0; i < 5; i++) {
        /* lane 1: 3 t4 + K - 8C; lane 2: 2 yz */
        __m512i y3 =
            _mm512_sub_epi64(_mm512_add_epi64(_mm512_add_epi64(_mm512_slli_epi64(t4.v[i], 1), t4.v[i]), bc(K256[i])),
                             _mm512_slli_epi64(a.v[i], 3));
        y3 = _mm512_permutexvar_epi64(_mm512_setzero_si512(), y3);
        __m512i z3 = _mm512_slli_epi64(b.v[i], 1);
        r->v[i] = _mm512_mask_mov_epi64(_mm512_mask_mov_epi64(x3.v[i], 0x2, y3), 0x4, z3);
    }
    fe8_fold(r);
}

/* ---- mixed addition: P = [X1, Y1, Z1], Q = [x2, y2] ----------------- */
FI void madd(fe8 *r, const fe8 *p, const fe8 *q)
{
    fe8 a, b, t1, t2, hr, t3, t4, t5, x3;
    perm2(&a, p, IDX(2, 9, 0, 0), q);
    perm1(&b, p, IDX(2, 2, 2, 2));
    fe8_mul(&t1, &a, &b); /* [z1z1, y2 Z1] */
    perm2(&a, q, IDX(0, 9, 0, 0), &t1);
    perm1(&b, &t1, IDX(0, 0, 0, 0));
    fe8_mul(&t2, &a, &b); /* [u2, s2] */
    for (int i = 0; i < 5; i++)
        hr.v[i] = _mm512_sub_epi64(_mm512_add_epi64(t2.v[i], bc(K256[i])), p->v[i]);
    fe8_fold(&hr); /* [h, rr] */
    perm2(&a, &hr, IDX(0, 1, 10, 0), p);
    perm1(&b, &hr, IDX(0, 1, 0, 0));
    fe8_mul(&t3, &a, &b); /* [hh, rr^2, Z3] */
    perm2(&a, &hr, IDX(0, 8, 0, 0), p);
    perm1(&b, &t3, IDX(0, 0, 0, 0));
    fe8_mul(&t4, &a, &b); /* [hhh, v] */
    /* lane 0: X3 = rr^2 - hhh - 2v; w = v - X3 */
    perm1(&a, &t3, IDX(1, 1, 1, 1));
    perm1(&b, &t4, IDX(1, 1, 1, 1));
    for (int i = 0; i < 5; i++)
        x3.v[i] = _mm512_sub_epi64(_mm512_sub_epi64(_mm512_add_epi64(a.v[i], bc(K256[i])), t4.v[i]),
                                   _mm512_slli_epi64(b.v[i], 1));
    fe8_fold(&x3);
    fe8 w;
    for (int i = 0; i < 5; i++)
        w.v[i] = _mm512_sub_epi64(_mm512_add_epi64(b.v[i], bc(K256[i])), x3.v[i]);
    fe8_fold(&w);
    /* [Y1, rr] x [hhh, w] */
    perm2(&a, p, IDX(1, 9, 0, 0), &hr);
    perm2(&b, &t4, IDX(0, 8, 0, 0), &w);
    fe8_mul(&t5, &a, &b);
    for (int i = 0; i < 5; i++) {
        __m512i y3 = _mm512_sub_epi64(_mm512_add_epi64(t5.v[i], bc(K256[i])),
                                      _mm512_permutexvar_epi64(_mm512_setzero_si512(), t5.v[i]));
        /* y3's lane 1 = rw - y1h */
        r->v[i] = _mm512_mask_mov_epi64(_mm512_mask_mov_epi64(x3.v[i], 0x2, y3), 0x4, t3.v[i]);
    }
    fe8_fold(r);
}

/* ---- conversions (test only) ---------------------------------------- */
static void to52(uint64_t o[5], const uint64_t a[4])
{
    o[0] = a[0] & M52;
    o[1] = (a[0] >> 52 | a[1] << 12) & M52;
    o[2] = (a[1] >> 40 | a[2] << 24) & M52;
    o[3] = (a[2] >> 28 | a[3] << 36) & M52;
    o[4] = a[3] >> 16;
}

static void lane_set(fe8 *r, int lane, const fs2_fe *x)
{
    uint64_t c[4], l[5], rr[5], buf[8];
    fs2_fe_to_int(c, x);
    to52(l, c);
    to52(rr, RR);
    fe8 a, b, t;
    for (int i = 0; i < 5; i++) {
        a.v[i] = bc(l[i]);
        b.v[i] = bc(rr[i]);
    }
    fe8_mul(&t, &a, &b);
    for (int i = 0; i < 5; i++) {
        _mm512_storeu_si512((void *)buf, r->v[i]);
        uint64_t tt[8];
        _mm512_storeu_si512((void *)tt, t.v[i]);
        buf[lane] = tt[0];
        r->v[i] = _mm512_loadu_si512((void *)buf);
    }
}

static void lane_get(fs2_fe *x, const fe8 *a, int lane)
{
    fe8 one, t;
    uint64_t l[5][8];
    for (int i = 0; i < 5; i++)
        one.v[i] = bc(i == 0);
    fe8_mul(&t, a, &one); /* below 2^257 */
    for (int i = 0; i < 5; i++)
        _mm512_storeu_si512((void *)l[i], t.v[i]);
    /* to an integer below 2^257, then mod p through the adx field */
    uint64_t v[4] = {l[0][lane] | l[1][lane] << 52, l[1][lane] >> 12 | l[2][lane] << 40,
                     l[2][lane] >> 24 | l[3][lane] << 28, l[3][lane] >> 36 | l[4][lane] << 16};
    uint64_t top = l[4][lane] >> 48;
    static const uint64_t p[4] = {0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFF00000000ULL, 0xFFFFFFFFFFFFFFFFULL,
                                  0xFFFFFFFEFFFFFFFFULL};
    for (int k = 0; k < 3; k++) { /* subtract p while >= p */
        uint64_t d[4], bw = 0;
        for (int i = 0; i < 4; i++) {
            unsigned __int128 s = (unsigned __int128)v[i] - p[i] - bw;
            d[i] = (uint64_t)s;
            bw = (uint64_t)(s >> 64) & 1;
        }
        if (top || !bw) {
            top -= bw;
            memcpy(v, d, 32);
        }
    }
    fs2_fe_from_int(x, v);
}

static void affine_of(uint64_t x[4], uint64_t y[4], const fs2_gej *j)
{
    fs2_fe zi, z2, z3, t;
    fs2_fe_inv(&zi, &j->z);
    fs2_fe_sqr(&z2, &zi);
    fs2_fe_mul(&z3, &z2, &zi);
    fs2_fe_mul(&t, &j->x, &z2);
    fs2_fe_to_int(x, &t);
    fs2_fe_mul(&t, &j->y, &z3);
    fs2_fe_to_int(y, &t);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static volatile uint64_t sink;

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (!__builtin_cpu_supports("avx512ifma") || !__builtin_cpu_supports("avx512vl")) {
        printf("ifma1-micro: this CPU has no AVX-512 IFMA: nothing to measure, skipped\n");
        return 77;
    }
    const long N = 2000000;
    /* K256 = 256 p spread */
    {
        unsigned __int128 acc = 0;
        uint64_t l[5];
        /* 256 p = 2^264 - 2^232 - 2^104 + 2^72 - 2^8 in 52-bit limbs with borrows */
        const uint64_t pp[5] = {P52[0], P52[1], P52[2], P52[3], P52[4]};
        for (int i = 0; i < 5; i++)
            l[i] = pp[i] << 8; /* limb i of 256p (unnormalised: < 2^60) */
        for (int i = 0; i < 4; i++) {
            l[i] += 1ULL << 58;
            l[i + 1] -= 1ULL << 6;
        }
        (void)acc;
        memcpy(K256, l, sizeof l);
    }
    static const uint64_t gx[4] = {0x715A4589334C74C7ULL, 0x8FE30BBFF2660BE1ULL, 0x5F9904466A39C994ULL,
                                   0x32C4AE2C1F198119ULL};
    static const uint64_t gy[4] = {0x02DF32E52139F0A0ULL, 0xD0A9877CC62A4740ULL, 0x59BDCEE36B692153ULL,
                                   0xBC3736A2F4F6779CULL};
    fs2_ge g;
    fs2_gej a, b;
    fs2_fe_from_int(&g.x, gx);
    fs2_fe_from_int(&g.y, gy);
    fs2_gej_set_ge(&a, &g);
    for (int i = 0; i < 3; i++)
        fs2_gej_double(&a, &a); /* 8G, Z != 1 */
    fe8 pa, qa, pr;
    memset(&pa, 0, sizeof pa);
    memset(&qa, 0, sizeof qa);
    lane_set(&pa, 0, &a.x);
    lane_set(&pa, 1, &a.y);
    lane_set(&pa, 2, &a.z);
    lane_set(&qa, 0, &g.x);
    lane_set(&qa, 1, &g.y);
    /* check: doubling and mixed addition against group_impl.h */
    int bad = 0;
    for (int op = 0; op < 2; op++) {
        fs2_gej want, got;
        if (op == 0) {
            fs2_gej_double(&want, &a);
            dbl(&pr, &pa);
        } else {
            fs2_gej_add_ge_masks(&want, &a, &g, NULL, NULL);
            madd(&pr, &pa, &qa);
        }
        lane_get(&got.x, &pr, 0);
        lane_get(&got.y, &pr, 1);
        lane_get(&got.z, &pr, 2);
        uint64_t wx[4], wy[4], gx2[4], gy2[4];
        affine_of(wx, wy, &want);
        affine_of(gx2, gy2, &got);
        if (memcmp(wx, gx2, 32) || memcmp(wy, gy2, 32)) {
            printf("MISMATCH in %s\n", op ? "mixed addition" : "doubling");
            bad = 1;
        }
    }
    /* chains of 1000 steps compared too (reduction bounds hold) */
    {
        fs2_gej w = a;
        fe8 v = pa;
        for (int i = 0; i < 1000; i++) {
            fs2_gej_double(&w, &w);
            fs2_gej_add_ge_masks(&w, &w, &g, NULL, NULL);
            dbl(&v, &v);
            madd(&v, &v, &qa);
        }
        fs2_gej got;
        lane_get(&got.x, &v, 0);
        lane_get(&got.y, &v, 1);
        lane_get(&got.z, &v, 2);
        uint64_t wx[4], wy[4], gx2[4], gy2[4];
        affine_of(wx, wy, &w);
        affine_of(gx2, gy2, &got);
        if (memcmp(wx, gx2, 32) || memcmp(wy, gy2, 32)) {
            printf("MISMATCH after a chain of 1000 (double, add)\n");
            bad = 1;
        }
    }
    if (bad)
        return 1;
    printf("IFMA lane-parallel results equal the adx ones (doubling, mixed addition, 1000-step chain)\n");
    printf("%-6s %12s %12s %12s %12s\n", "round", "adx dbl ns", "ifma dbl ns", "adx madd ns", "ifma madd ns");
    double best[4] = {1e9, 1e9, 1e9, 1e9};
    for (int r = 0; r < rounds; r++) {
        double t[4], t0;
        b = a;
        t0 = now();
        for (long i = 0; i < N; i++)
            fs2_gej_double(&b, &b);
        t[0] = (now() - t0) / N * 1e9;
        sink ^= b.x.v[0];
        fe8 v = pa;
        t0 = now();
        for (long i = 0; i < N; i++)
            dbl(&v, &v);
        t[1] = (now() - t0) / N * 1e9;
        sink ^= (uint64_t)_mm512_reduce_add_epi64(v.v[0]);
        b = a;
        t0 = now();
        for (long i = 0; i < N; i++)
            fs2_gej_add_ge_masks(&b, &b, &g, NULL, NULL);
        t[2] = (now() - t0) / N * 1e9;
        sink ^= b.x.v[0];
        v = pa;
        t0 = now();
        for (long i = 0; i < N; i++)
            madd(&v, &v, &qa);
        t[3] = (now() - t0) / N * 1e9;
        sink ^= (uint64_t)_mm512_reduce_add_epi64(v.v[0]);
        printf("%-6d %12.1f %12.1f %12.1f %12.1f\n", r, t[0], t[1], t[2], t[3]);
        for (int i = 0; i < 4; i++)
            best[i] = t[i] < best[i] ? t[i] : best[i];
    }
    printf("best   %12.1f %12.1f %12.1f %12.1f\n", best[0], best[1], best[2], best[3]);
    printf("ratio adx/ifma: doubling %.2f, mixed addition %.2f (above 1: IFMA faster)\n", best[0] / best[1],
           best[2] / best[3]);
    return 0;
}
