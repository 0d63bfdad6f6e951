/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The point-level entry points of a backend (the fs2_backend table's
 * ecmult_gen, ecmult_const and verify_check), written once over whatever
 * field the including file chose: it includes a field header (the fs2_fe_*
 * API), point/group_impl.h and ecmult/ecmult_impl.h, then this file, and
 * gets static fs2_be_* functions for its backend table(s).
 */
#ifndef FS2_BACKEND_IMPL_H
#define FS2_BACKEND_IMPL_H

static void fs2_be_ge_from_affine(fs2_ge *r, const fs2_affine *a)
{
    fs2_fe_from_int(&r->x, a->x);
    fs2_fe_from_int(&r->y, a->y);
}

/* An affine point of the field's form (inf: its infinity mask) across the
 * seam. */
static void fs2_be_affine_from_ge(fs2_affine *r, const fs2_ge *g, uint64_t inf)
{
    fs2_fe_to_int(r->x, &g->x);
    fs2_fe_to_int(r->y, &g->y);
    r->infinity = inf & 1;
}

static void fs2_be_affine_from_gej(fs2_affine *r, const fs2_gej *a)
{
    fs2_ge g;
    uint64_t inf = fs2_gej_to_ge(&g, a);
    fs2_be_affine_from_ge(r, &g, inf);
}

/* r = k*G, constant time in k. */
static void fs2_be_ecmult_gen(fs2_affine *r, const uint64_t k[4])
{
    fs2_gej j;
    fs2_ecmult_gen(&j, k);
    fs2_be_affine_from_gej(r, &j);
    fs2_wipe(&j, sizeof j);
}

/* r = k*G and q = a^-1 2^256 mod n, the field inversion (for r's affine
 * form) and the scalar one interleaved (fs2_fe_inv_and_sc_inv). */
static void fs2_be_ecmult_gen_inv(fs2_affine *r, const uint64_t k[4], uint64_t q[4], const uint64_t a[4])
{
    fs2_gej j;
    fs2_ge g;
    fs2_fe zi;
    fs2_sc x, inv;
    fs2_ecmult_gen(&j, k);
    memcpy(x.v, a, 32);
    fs2_fe_inv_and_sc_inv(&zi, &j.z, &inv, &x);
    fs2_be_affine_from_ge(r, &g, fs2_gej_to_ge_zinv(&g, &j, &zi));
    memcpy(q, inv.v, 32);
    fs2_wipe(&j, sizeof j);
    fs2_wipe(&g, sizeof g);
    fs2_wipe(&zi, sizeof zi);
    fs2_wipe(&x, sizeof x);
    fs2_wipe(&inv, sizeof inv);
}

/* r[i] = k[i]*G for i < n <= FS2_GEN_MANY_MAX, constant time in the k[i]:
 * the Jacobian results, then one inversion of the product of their Z for
 * all of them (Montgomery's trick: 3 products per point instead of an
 * inversion each). A Z of 0 (k = 0, never from the protocols) is replaced
 * by 1 in the product and its point reported as infinity, by masks. */
static void fs2_be_ecmult_gen_many(fs2_affine *r, const uint64_t (*k)[4], size_t n)
{
    fs2_gej j[FS2_GEN_MANY_MAX];
    fs2_ge g[FS2_GEN_MANY_MAX];
    fs2_fe acc[FS2_GEN_MANY_MAX] = {{{0}}}; /* zeroed: GCC cannot see that n >= 1 fills acc[n - 1] */
    uint64_t inf[FS2_GEN_MANY_MAX];
    if (n == 0 || n > FS2_GEN_MANY_MAX)
        return;
    for (size_t i = 0; i < n; i++)
        fs2_ecmult_gen(&j[i], k[i]);
    fs2_gej_to_ge_many(g, inf, j, acc, n);
    for (size_t i = 0; i < n; i++)
        fs2_be_affine_from_ge(&r[i], &g[i], inf[i]);
    fs2_wipe(j, sizeof j);
    fs2_wipe(g, sizeof g);
    fs2_wipe(acc, sizeof acc);
}

/* j = k*P (Jacobian), constant time in k; tab: the public key's cached tables
 * (P and 2^128 P, two 128-bit streams) or NULL. */
static void fs2_be_ecmult_const_jac(fs2_gej *j, const fs2_affine *p, const fs2_pubtab *tab, const uint64_t k[4])
{
    if (tab) {
        fs2_ecmult_const_split(j, (const fs2_ge(*)[16])tab->xy, k);
    } else {
        fs2_ge g;
        fs2_be_ge_from_affine(&g, p);
        fs2_ecmult_const(j, &g, k);
    }
}

static void fs2_be_ecmult_const(fs2_affine *r, const fs2_affine *p, const fs2_pubtab *tab, const uint64_t k[4])
{
    fs2_gej j;
    fs2_be_ecmult_const_jac(&j, p, tab, k);
    fs2_be_affine_from_gej(r, &j);
    fs2_wipe(&j, sizeof j);
}

/* r = k*G and s = k*P, the two Jacobian results made affine together
 * (Montgomery's trick: one inversion for both). */
static void fs2_be_ecmult_gen_const(fs2_affine *r, fs2_affine *s, const fs2_affine *p, const fs2_pubtab *tab,
                                    const uint64_t k[4])
{
    fs2_gej j[2];
    fs2_ge g[2];
    fs2_fe acc[2];
    uint64_t inf[2];
    fs2_ecmult_gen(&j[0], k);
    fs2_be_ecmult_const_jac(&j[1], p, tab, k);
    fs2_gej_to_ge_many(g, inf, j, acc, 2);
    fs2_be_affine_from_ge(r, &g[0], inf[0]);
    fs2_be_affine_from_ge(s, &g[1], inf[1]);
    fs2_wipe(j, sizeof j);
    fs2_wipe(g, sizeof g);
    fs2_wipe(acc, sizeof acc);
}

/* Verification core, variable time on public inputs. */
static int fs2_be_verify_check(const uint64_t s[4], const uint64_t t[4], const fs2_affine *p, const fs2_pubtab *tab,
                               const uint64_t v[4])
{
    fs2_ge g;
    fs2_be_ge_from_affine(&g, p);
    return fs2_ecmult_verify_var(s, t, &g, tab ? (const fs2_ge(*)[16])tab->xy : NULL, v);
}

/* Key exchange's U = [t](P + [x]R): Q = P + [x]R in variable time (x, P
 * and R are public; a 128-bit x takes 128 doublings), kept Jacobian for
 * the table of the constant-time [t]Q, so the one inversion is U's. Q =
 * infinity (public) gives U = infinity. */
static void fs2_be_ecmult_kx(fs2_affine *u, const fs2_affine *p, const fs2_affine *r, const uint64_t x[4],
                             const uint64_t t[4])
{
    fs2_ge g;
    fs2_gej q, j;
    fs2_be_ge_from_affine(&g, r);
    fs2_ecmult_sum_var(&q, NULL, x, &g, NULL);
    fs2_be_ge_from_affine(&g, p);
    fs2_gej_add_ge_var(&q, &q, &g);
    if (fs2_gej_is_infinity_var(&q)) {
        memset(u, 0, sizeof *u);
        u->infinity = 1;
        return;
    }
    fs2_ecmult_const_gej(&j, &q, t);
    fs2_be_affine_from_gej(u, &j);
    fs2_wipe(&j, sizeof j);
}

/* The tables a public key caches: (j + 1) P and (j + 1) 2^128 P for
 * j < 16, affine (128 doublings, two co-Z chains, each with one
 * variable-time inversion: P is public). */
static void fs2_be_pub_precompute(fs2_pubtab *out, const fs2_affine *p)
{
    fs2_gej q;
    fs2_ge g, tab[2][16];
    fs2_be_ge_from_affine(&g, p);
    fs2_gej_set_ge(&q, &g);
    fs2_gej_multiples16_var(tab[0], &q);
    for (int i = 0; i < 128; i++)
        fs2_gej_double(&q, &q);
    fs2_gej_multiples16_var(tab[1], &q);
    memcpy(out->xy, tab, sizeof out->xy);
}

/* r = a^-1 2^256 mod n, constant time. */
static void fs2_be_scalar_inv_mont(uint64_t r[4], const uint64_t a[4])
{
    fs2_sc x, inv;
    memcpy(x.v, a, 32);
    fs2_sc_inv_mont(&inv, &x);
    memcpy(r, inv.v, 32);
    fs2_wipe(&x, sizeof x);
    fs2_wipe(&inv, sizeof inv);
}

#endif
