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

static void fs2_be_affine_from_gej(fs2_affine *r, const fs2_gej *a)
{
    fs2_ge g;
    uint64_t inf = fs2_gej_to_ge(&g, a);
    fs2_fe_to_int(r->x, &g.x);
    fs2_fe_to_int(r->y, &g.y);
    r->infinity = inf & 1;
}

/* r = k*G, constant time in k. */
static void fs2_be_ecmult_gen(fs2_affine *r, const uint64_t k[4])
{
    fs2_gej j;
    fs2_ecmult_gen(&j, k);
    fs2_be_affine_from_gej(r, &j);
    fs2_wipe(&j, sizeof j);
}

/* r = k*P, constant time in k. */
static void fs2_be_ecmult_const(fs2_affine *r, const fs2_affine *p, const uint64_t k[4])
{
    fs2_gej j;
    fs2_ge g;
    fs2_be_ge_from_affine(&g, p);
    fs2_ecmult_const(&j, &g, k);
    fs2_be_affine_from_gej(r, &j);
    fs2_wipe(&j, sizeof j);
}

/* Verification core, variable time on public inputs. */
static int fs2_be_verify_check(const uint64_t s[4], const uint64_t t[4], const fs2_affine *p, const uint64_t v[4])
{
    fs2_ge g;
    fs2_be_ge_from_affine(&g, p);
    return fs2_ecmult_verify_var(s, t, &g, v);
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
