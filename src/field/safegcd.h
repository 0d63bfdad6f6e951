/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Constant-time modular inversion by divsteps (Bernstein and Yang, "Fast
 * constant-time gcd computation and modular inversion", 2019), for an odd
 * 256-bit modulus M (p or n of sm2p256v1, GB/T 32918.1 clause 3).
 *
 * The math: with f = M, g = x, a divstep maps
 *   delta > 0 and g odd:  (delta, f, g) -> (1 - delta, g, (g - f) / 2)
 *   g odd otherwise:      (delta, f, g) -> (1 + delta, f, (g + f) / 2)
 *   g even:               (delta, f, g) -> (1 + delta, f, g / 2)
 * Started at delta = 1 (the paper) g reaches 0 within 741 steps for 256-bit
 * inputs; started at delta = 1/2 (the "half-delta" variant, whose bound
 * Wuille computed with the paper's hull method) within 590. We use the
 * latter, and then f = +-gcd = +-1. Alongside, d and e with d x = f, e x = g (mod M) follow
 * the same linear maps, so at the end x^-1 = +-d mod M.
 *
 * Layout: the steps run in 10 batches of 60 on the low 64 bits of f and g
 * only (each step needs the parity of g; the low bits of the results depend
 * only on the low bits of the inputs), collecting the 2x2 transition matrix
 * (entries of magnitude <= 2^62). The matrix is then applied to the full f,
 * g (exact division by 2^62) and to d, e (made divisible by 2^62 by adding
 * a multiple of M). Numbers are held in five signed 62-bit limbs so the
 * products fit in 128 bits (__int128, or field/wide.h's pairs of words).
 *
 * Constant time: every step and batch runs the same instructions whatever
 * the input (masks, never branches); the number of batches is fixed.
 */
#ifndef FS2_SAFEGCD_H
#define FS2_SAFEGCD_H

#include <stdint.h>

#include "ct.h"
#include "field/wide.h"

#define FS2_S62_MASK (((uint64_t)1 << 62) - 1)

/* 10 batches of 60 = 600 half-delta divsteps, above the 590 that bring g
 * to 0 for any 256-bit input (the hull bound for this variant); once g = 0
 * further steps leave f unchanged. */
#define FS2_DIVSTEP_BATCHES 10

typedef struct {
    int64_t v[5]; /* value = sum v[i] 2^(62 i); v[0..3] in [0, 2^62) when normalised */
} fs2_s62;

typedef struct {
    fs2_s62 m;     /* the modulus */
    uint64_t minv; /* M^-1 mod 2^62 */
} fs2_modinfo;

static inline void fs2_s62_from_u256(fs2_s62 *r, const uint64_t a[4])
{
    r->v[0] = (int64_t)(a[0] & FS2_S62_MASK);
    r->v[1] = (int64_t)(((a[0] >> 62) | (a[1] << 2)) & FS2_S62_MASK);
    r->v[2] = (int64_t)(((a[1] >> 60) | (a[2] << 4)) & FS2_S62_MASK);
    r->v[3] = (int64_t)(((a[2] >> 58) | (a[3] << 6)) & FS2_S62_MASK);
    r->v[4] = (int64_t)(a[3] >> 56);
}

/* a normalised, in [0, 2^256) */
static inline void fs2_s62_to_u256(uint64_t r[4], const fs2_s62 *a)
{
    uint64_t v0 = (uint64_t)a->v[0], v1 = (uint64_t)a->v[1], v2 = (uint64_t)a->v[2];
    uint64_t v3 = (uint64_t)a->v[3], v4 = (uint64_t)a->v[4];
    r[0] = v0 | (v1 << 62);
    r[1] = (v1 >> 2) | (v2 << 60);
    r[2] = (v2 >> 4) | (v3 << 58);
    r[3] = (v3 >> 6) | (v4 << 56);
}

/* r = a + (b & mask), limbs renormalised (carries propagated upwards). */
static inline void fs2_s62_add_masked(fs2_s62 *r, const fs2_s62 *a, const fs2_s62 *b, int64_t mask)
{
    int64_t c = 0;
    for (int i = 0; i < 4; i++) {
        c += a->v[i] + (b->v[i] & mask);
        r->v[i] = (int64_t)((uint64_t)c & FS2_S62_MASK);
        c >>= 62;
    }
    r->v[4] = a->v[4] + (b->v[4] & mask) + c;
}

/* r = (a XOR mask) - mask, i.e. -a when mask is all ones, renormalised. */
static inline void fs2_s62_cneg(fs2_s62 *r, const fs2_s62 *a, int64_t mask)
{
    int64_t c = 0;
    for (int i = 0; i < 4; i++) {
        c += (a->v[i] ^ mask) - mask;
        r->v[i] = (int64_t)((uint64_t)c & FS2_S62_MASK);
        c >>= 62;
    }
    r->v[4] = ((a->v[4] ^ mask) - mask) + c;
}

/* 30 divsteps on the low bits of f and g (advanced in place), with the
 * transition matrix's rows packed into one word each: U = u + v 2^32 and
 * Q = q + r 2^32, entries of magnitude <= 2^30 after 30 steps, so each
 * half is recovered exactly (sign-extended low 32 bits, then the rest).
 * Negating, adding, masking and doubling a packed row is the same integer
 * operation on the word, so the matrix costs two words' work per step
 * instead of four.
 *
 * delta is a half-integer here (the "half-delta" variant of the divstep,
 * which starts at 1/2 and needs at most 590 steps for 256-bit inputs
 * instead of 741); it is carried as zeta = -(delta + 1/2), so delta > 0 is
 * zeta < 0 and the two updates become zeta - 1 and -zeta - 2. Each step:
 *   neg = all ones if delta > 0;  odd = all ones if g is odd
 *   g += (neg ? -f : f) if odd    (and the row Q by U alike)
 *   if neg and odd: f = old g, zeta = -zeta - 2;  else zeta -= 1
 *   g /= 2  (the row of f doubles instead, so the matrix stays integral)
 * fs2_divstep is one step; fs2_divsteps_30 returns the new zeta and
 * m = (u, v, q, r) with 2^30 (f', g') = (u f + v g, q f + r g). */
static inline void fs2_divstep(int64_t *zeta, uint64_t *f, uint64_t *g, uint64_t *uw, uint64_t *qw)
{
    uint64_t neg = fs2_ct_barrier_u64((uint64_t)(*zeta >> 63));
    uint64_t odd = fs2_ct_mask_u64(*g & 1);
    uint64_t fx = (*f ^ neg) - neg, ux = (*uw ^ neg) - neg;
    uint64_t sw = neg & odd;
    /* on a swap f becomes the old g (f + (g - f)): selected from the old
     * values, so that f's update does not wait for g's */
    uint64_t nf = *f ^ ((*f ^ *g) & sw), nu = *uw ^ ((*uw ^ *qw) & sw);
    *g += fx & odd;
    *qw += ux & odd;
    *zeta = (int64_t)(((uint64_t)*zeta ^ sw) - 1);
    *f = nf;
    *uw = nu << 1;
    *g >>= 1;
}

/* The same step with f and its row updated from the new g (f + (g - f)):
 * two instructions fewer than fs2_divstep, one more on the dependency
 * chain. With two inversions interleaved (fs2_divsteps_30x2) the core's
 * adders, not the chain, bound the steps, and this form is the faster. */
static inline void fs2_divstep_tp(int64_t *zeta, uint64_t *f, uint64_t *g, uint64_t *uw, uint64_t *qw)
{
    uint64_t neg = fs2_ct_barrier_u64((uint64_t)(*zeta >> 63));
    uint64_t odd = fs2_ct_mask_u64(*g & 1);
    uint64_t fx = (*f ^ neg) - neg, ux = (*uw ^ neg) - neg;
    *g += fx & odd;
    *qw += ux & odd;
    uint64_t sw = neg & odd;
    *zeta = (int64_t)(((uint64_t)*zeta ^ sw) - 1);
    *f += *g & sw;
    *uw += *qw & sw;
    *g >>= 1;
    *uw <<= 1;
}

/* The matrix of 30 steps from its packed rows. */
static inline void fs2_divsteps_unpack(int64_t m[4], uint64_t uw, uint64_t qw)
{
    m[0] = (int64_t)(int32_t)(uint32_t)uw;
    m[1] = (int64_t)(uw - (uint64_t)m[0]) >> 32;
    m[2] = (int64_t)(int32_t)(uint32_t)qw;
    m[3] = (int64_t)(qw - (uint64_t)m[2]) >> 32;
}

static inline int64_t fs2_divsteps_30(int64_t zeta, uint64_t *fp, uint64_t *gp, int64_t m[4])
{
    uint64_t f = *fp, g = *gp, uw = 1, qw = (uint64_t)1 << 32;
    for (int i = 0; i < 30; i++)
        fs2_divstep(&zeta, &f, &g, &uw, &qw);
    *fp = f;
    *gp = g;
    fs2_divsteps_unpack(m, uw, qw);
    return zeta;
}

#ifndef FS2_DIVSTEP_X2
#define FS2_DIVSTEP_X2 fs2_divstep_tp
#endif
/* The same for two independent inversions at once: each step's short
 * dependency chain leaves most of the core idle, so the second chain's
 * steps, interleaved, cost little (fs2_modinv2_safegcd). */
static inline void fs2_divsteps_30x2(int64_t zeta[2], uint64_t f[2], uint64_t g[2], int64_t m[2][4])
{
    uint64_t f0 = f[0], g0 = g[0], u0 = 1, q0 = (uint64_t)1 << 32;
    uint64_t f1 = f[1], g1 = g[1], u1 = 1, q1 = (uint64_t)1 << 32;
    int64_t z0 = zeta[0], z1 = zeta[1];
    for (int i = 0; i < 30; i++) {
        FS2_DIVSTEP_X2(&z0, &f0, &g0, &u0, &q0);
        FS2_DIVSTEP_X2(&z1, &f1, &g1, &u1, &q1);
    }
    f[0] = f0, g[0] = g0, zeta[0] = z0;
    f[1] = f1, g[1] = g1, zeta[1] = z1;
    fs2_divsteps_unpack(m[0], u0, q0);
    fs2_divsteps_unpack(m[1], u1, q1);
}

/* t = 4 b a: the matrix of 60 steps from those of their two halves. */
static inline void fs2_divsteps_join(int64_t t[4], const int64_t a[4], const int64_t b[4])
{
    t[0] = (int64_t)((uint64_t)(b[0] * a[0] + b[1] * a[2]) << 2);
    t[1] = (int64_t)((uint64_t)(b[0] * a[1] + b[1] * a[3]) << 2);
    t[2] = (int64_t)((uint64_t)(b[2] * a[0] + b[3] * a[2]) << 2);
    t[3] = (int64_t)((uint64_t)(b[2] * a[1] + b[3] * a[3]) << 2);
}

/* 60 divsteps on the low 64 bits of f and g (two packed halves of 30; the
 * low bits stay exact for 64 - i steps after i), as t = (u, v, q, r) with
 * 2^62 (f', g') = (u f + v g, q f + r g): the product of the two halves'
 * matrices (entries <= 2^60, as for any 60 steps) times 4, so that the
 * limb updates below divide by one whole 62-bit limb. */
static inline int64_t fs2_divsteps_batch(int64_t zeta, uint64_t f, uint64_t g, int64_t t[4])
{
    int64_t a[4], b[4];
    zeta = fs2_divsteps_30(zeta, &f, &g, a);
    zeta = fs2_divsteps_30(zeta, &f, &g, b);
    fs2_divsteps_join(t, a, b);
    return zeta;
}

#if defined(FS2_HAVE_INT128)
/* (f, g) = (u f + v g, q f + r g) / 2^62, exactly. */
static inline void fs2_s62_update_fg(fs2_s62 *f, fs2_s62 *g, const int64_t t[4])
{
    __int128 cf = (__int128)t[0] * f->v[0] + (__int128)t[1] * g->v[0];
    __int128 cg = (__int128)t[2] * f->v[0] + (__int128)t[3] * g->v[0];
    cf >>= 62;
    cg >>= 62;
    for (int i = 1; i < 5; i++) {
        cf += (__int128)t[0] * f->v[i] + (__int128)t[1] * g->v[i];
        cg += (__int128)t[2] * f->v[i] + (__int128)t[3] * g->v[i];
        f->v[i - 1] = (int64_t)((uint64_t)cf & FS2_S62_MASK);
        g->v[i - 1] = (int64_t)((uint64_t)cg & FS2_S62_MASK);
        cf >>= 62;
        cg >>= 62;
    }
    f->v[4] = (int64_t)cf;
    g->v[4] = (int64_t)cg;
}

/* d = (u d + v e + md M) / 2^62 with md making the division exact; for d,
 * e in (-M, M) the result is in (-M, 2M), brought back below M. Same for
 * e with (q, r). */
static inline void fs2_s62_update_de_one(fs2_s62 *out, const fs2_s62 *d, const fs2_s62 *e, int64_t a, int64_t b,
                                         const fs2_modinfo *mi)
{
    __int128 c = (__int128)a * d->v[0] + (__int128)b * e->v[0];
    uint64_t md = ((uint64_t)0 - (uint64_t)c * mi->minv) & FS2_S62_MASK;
    c += (__int128)md * mi->m.v[0];
    c >>= 62;
    for (int i = 1; i < 5; i++) {
        c += (__int128)a * d->v[i] + (__int128)b * e->v[i] + (__int128)md * mi->m.v[i];
        out->v[i - 1] = (int64_t)((uint64_t)c & FS2_S62_MASK);
        c >>= 62;
    }
    out->v[4] = (int64_t)c;
    /* out in (-M, 2M): subtract M when out - M >= 0 */
    fs2_s62 t;
    fs2_s62_cneg(&t, &mi->m, -1);
    fs2_s62_add_masked(&t, out, &t, -1);
    int64_t ge = ~(t.v[4] >> 63);
    for (int i = 0; i < 5; i++)
        out->v[i] ^= (out->v[i] ^ t.v[i]) & ge;
}
#else
/* The same two updates with the 128-bit sums as pairs of words
 * (field/wide.h); the __int128 code above is kept as it was, so that the
 * compilers' code for it does not change. */
/* (f, g) = (u f + v g, q f + r g) / 2^62, exactly. */
static inline void fs2_s62_update_fg(fs2_s62 *f, fs2_s62 *g, const int64_t t[4])
{
    fs2_s128 cf = fs2_s128_add(fs2_s128_mul(t[0], f->v[0]), fs2_s128_mul(t[1], g->v[0]));
    fs2_s128 cg = fs2_s128_add(fs2_s128_mul(t[2], f->v[0]), fs2_s128_mul(t[3], g->v[0]));
    cf = fs2_s128_sar62(cf);
    cg = fs2_s128_sar62(cg);
    for (int i = 1; i < 5; i++) {
        cf = fs2_s128_add(cf, fs2_s128_add(fs2_s128_mul(t[0], f->v[i]), fs2_s128_mul(t[1], g->v[i])));
        cg = fs2_s128_add(cg, fs2_s128_add(fs2_s128_mul(t[2], f->v[i]), fs2_s128_mul(t[3], g->v[i])));
        f->v[i - 1] = (int64_t)(fs2_s128_lo(cf) & FS2_S62_MASK);
        g->v[i - 1] = (int64_t)(fs2_s128_lo(cg) & FS2_S62_MASK);
        cf = fs2_s128_sar62(cf);
        cg = fs2_s128_sar62(cg);
    }
    f->v[4] = (int64_t)fs2_s128_lo(cf);
    g->v[4] = (int64_t)fs2_s128_lo(cg);
}

/* d = (u d + v e + md M) / 2^62 with md making the division exact; for d,
 * e in (-M, M) the result is in (-M, 2M), brought back below M. Same for
 * e with (q, r). */
static inline void fs2_s62_update_de_one(fs2_s62 *out, const fs2_s62 *d, const fs2_s62 *e, int64_t a, int64_t b,
                                         const fs2_modinfo *mi)
{
    fs2_s128 c = fs2_s128_add(fs2_s128_mul(a, d->v[0]), fs2_s128_mul(b, e->v[0]));
    /* md < 2^62: non-negative as an int64_t too */
    int64_t md = (int64_t)(((uint64_t)0 - fs2_s128_lo(c) * mi->minv) & FS2_S62_MASK);
    c = fs2_s128_add(c, fs2_s128_mul(md, mi->m.v[0]));
    c = fs2_s128_sar62(c);
    for (int i = 1; i < 5; i++) {
        c = fs2_s128_add(c, fs2_s128_add(fs2_s128_add(fs2_s128_mul(a, d->v[i]), fs2_s128_mul(b, e->v[i])),
                                         fs2_s128_mul(md, mi->m.v[i])));
        out->v[i - 1] = (int64_t)(fs2_s128_lo(c) & FS2_S62_MASK);
        c = fs2_s128_sar62(c);
    }
    out->v[4] = (int64_t)fs2_s128_lo(c);
    /* out in (-M, 2M): subtract M when out - M >= 0 */
    fs2_s62 t;
    fs2_s62_cneg(&t, &mi->m, -1);
    fs2_s62_add_masked(&t, out, &t, -1);
    int64_t ge = ~(t.v[4] >> 63);
    for (int i = 0; i < 5; i++)
        out->v[i] ^= (out->v[i] ^ t.v[i]) & ge;
}
#endif

/* The state of one inversion: f, g and d, e (d x = f, e x = g mod M). */
typedef struct {
    fs2_s62 f, g, d, e;
    int64_t zeta;
} fs2_modinv_state;

static inline void fs2_modinv_start(fs2_modinv_state *s, const uint64_t x[4], const fs2_modinfo *mi)
{
    static const fs2_s62 zero = {{0, 0, 0, 0, 0}}, one = {{1, 0, 0, 0, 0}};
    s->f = mi->m;
    fs2_s62_from_u256(&s->g, x);
    s->d = zero;
    s->e = one;
    s->zeta = -1; /* delta = 1/2 */
}

/* The low 64 bits of f and g, where a batch of steps starts. */
static inline uint64_t fs2_s62_low64(const fs2_s62 *a)
{
    return (uint64_t)a->v[0] | ((uint64_t)a->v[1] << 62);
}

/* Apply a batch's matrix t to the whole state. */
static inline void fs2_modinv_apply(fs2_modinv_state *s, const int64_t t[4], const fs2_modinfo *mi)
{
    fs2_s62 nd, ne;
    fs2_s62_update_de_one(&nd, &s->d, &s->e, t[0], t[1], mi);
    fs2_s62_update_de_one(&ne, &s->d, &s->e, t[2], t[3], mi);
    s->d = nd;
    s->e = ne;
    fs2_s62_update_fg(&s->f, &s->g, t);
}

/* f = +-1: x^-1 = sign(f) d, d in (-M, M); then into [0, M) */
static inline void fs2_modinv_finish(uint64_t r[4], fs2_modinv_state *s, const fs2_modinfo *mi)
{
    fs2_s62_cneg(&s->d, &s->d, s->f.v[4] >> 63);
    fs2_s62_add_masked(&s->d, &s->d, &mi->m, s->d.v[4] >> 63);
    fs2_s62_to_u256(r, &s->d);
}

/* r = x^-1 mod M for x in [0, M) (0 maps to 0). Constant time. */
static inline void fs2_modinv_safegcd(uint64_t r[4], const uint64_t x[4], const fs2_modinfo *mi)
{
    fs2_modinv_state s;
    int64_t t[4];
    fs2_modinv_start(&s, x, mi);
    for (int b = 0; b < FS2_DIVSTEP_BATCHES; b++) {
        s.zeta = fs2_divsteps_batch(s.zeta, fs2_s62_low64(&s.f), fs2_s62_low64(&s.g), t);
        fs2_modinv_apply(&s, t, mi);
    }
    fs2_modinv_finish(r, &s, mi);
}

/* ---- variable time: public inputs only ---------------------------------- */

/* At most this many batches of 62 divsteps: the original divstep started
 * at delta = 1 brings g to 0 within 741 steps for 256-bit inputs (the
 * paper's bound), 12 batches. The loop below stops as soon as g = 0. */
#define FS2_DIVSTEP_VAR_BATCHES 12

/* 62 divsteps of the original form (delta starts at 1; carried as eta =
 * -delta) on the low 64 bits of f and g, in variable time:
 *  - a run of z even values of g is z steps at once: g >>= z, the row of f
 *    doubles z times, eta -= z;
 *  - with g odd and eta < 0 (delta > 0) the step swaps: (f, g) becomes
 *    (g, -f) with its rows, and eta -eta; the step then adds f like the
 *    others, and the shift of the next round takes the -1;
 *  - with g odd and eta >= 0, the next k = min(eta + 1, steps left, 6)
 *    steps cannot swap, and each adds f or not so that g ends divisible
 *    by 2^k: together they add w f with w = -g / f mod 2^k (f^-1 mod 2^6
 *    from one Newton step, f f = 1 mod 8 for odd f), and the shift of the
 *    next round divides.
 * Low bits stay exact: after i steps the low 64 - i bits of f and g are
 * right, and a round looks at no more than k <= 62 - i of them. Returns
 * the new eta and t = (u, v, q, r) with 2^62 (f', g') = (u f + v g,
 * q f + r g), entries of magnitude <= 2^62 as for any 62 steps. */
static inline int64_t fs2_divsteps_62_var(int64_t eta, uint64_t f, uint64_t g, int64_t t[4])
{
    uint64_t u = 1, v = 0, q = 0, r = 1, x;
    int left = 62;
    for (;;) {
        int z = __builtin_ctzll(g | ((uint64_t)1 << left));
        g >>= z;
        u <<= z;
        v <<= z;
        eta -= z;
        left -= z;
        if (left == 0)
            break;
        if (eta < 0) {
            eta = -eta;
            x = f, f = g, g = 0 - x;
            x = u, u = q, q = 0 - x;
            x = v, v = r, r = 0 - x;
        }
        int k = eta + 1 < left ? (int)eta + 1 : left;
        k = k < 6 ? k : 6;
        uint64_t w = ((0 - g) * (f * (2 - f * f))) & (((uint64_t)1 << k) - 1);
        g += w * f;
        q += w * u;
        r += w * v;
    }
    t[0] = (int64_t)u;
    t[1] = (int64_t)v;
    t[2] = (int64_t)q;
    t[3] = (int64_t)r;
    return eta;
}

static inline int fs2_s62_is_zero_var(const fs2_s62 *a)
{
    return (a->v[0] | a->v[1] | a->v[2] | a->v[3] | a->v[4]) == 0;
}

/* r = x^-1 mod M for x in [0, M) (0 maps to 0), in VARIABLE time: for
 * public values only (the _var suffix). Batches of 62 divsteps (above)
 * until g = 0, each applied to f, g, d, e as in the constant-time version:
 * about two thirds of its time. */
static inline void fs2_modinv_var(uint64_t r[4], const uint64_t x[4], const fs2_modinfo *mi)
{
    fs2_modinv_state s;
    int64_t t[4], eta = -1;
    fs2_modinv_start(&s, x, mi);
    for (int b = 0; b < FS2_DIVSTEP_VAR_BATCHES && !fs2_s62_is_zero_var(&s.g); b++) {
        eta = fs2_divsteps_62_var(eta, fs2_s62_low64(&s.f), fs2_s62_low64(&s.g), t);
        fs2_modinv_apply(&s, t, mi);
    }
    fs2_modinv_finish(r, &s, mi);
}

/* r0 = x0^-1 mod M0 and r1 = x1^-1 mod M1 (the moduli may differ), the
 * divsteps of the two interleaved: about 1.5 times the time of one
 * instead of twice (the two independent chains fill each other's
 * latencies). Constant time. */
static inline void fs2_modinv2_safegcd(uint64_t r0[4], const uint64_t x0[4], const fs2_modinfo *m0, uint64_t r1[4],
                                       const uint64_t x1[4], const fs2_modinfo *m1)
{
    fs2_modinv_state s[2];
    int64_t a[2][4], b[2][4], t[4];
    fs2_modinv_start(&s[0], x0, m0);
    fs2_modinv_start(&s[1], x1, m1);
    for (int k = 0; k < FS2_DIVSTEP_BATCHES; k++) {
        uint64_t f[2] = {fs2_s62_low64(&s[0].f), fs2_s62_low64(&s[1].f)};
        uint64_t g[2] = {fs2_s62_low64(&s[0].g), fs2_s62_low64(&s[1].g)};
        int64_t zeta[2] = {s[0].zeta, s[1].zeta};
        fs2_divsteps_30x2(zeta, f, g, a);
        fs2_divsteps_30x2(zeta, f, g, b);
        s[0].zeta = zeta[0];
        s[1].zeta = zeta[1];
        fs2_divsteps_join(t, a[0], b[0]);
        fs2_modinv_apply(&s[0], t, m0);
        fs2_divsteps_join(t, a[1], b[1]);
        fs2_modinv_apply(&s[1], t, m1);
    }
    fs2_modinv_finish(r0, &s[0], m0);
    fs2_modinv_finish(r1, &s[1], m1);
}

#endif
