/* SPDX-License-Identifier: Apache-2.0 */
/* The portable backend: the reference every other backend is tested
 * against. Field: field/field_generic.h (4 x 64-bit Montgomery). */
#include "backend.h"
#include "field/field_generic.h"
#include "point/group_impl.h"
#include "ecmult/ecmult_impl.h"
#include "sm3/sm3_impl.h"

static int generic_available(void) { return 1; }

static void ge_from_affine(fs2_ge *r, const fs2_affine *a)
{
    fs2_fe_from_int(&r->x, a->x);
    fs2_fe_from_int(&r->y, a->y);
}

static void affine_from_gej(fs2_affine *r, const fs2_gej *a)
{
    fs2_ge g;
    uint64_t inf = fs2_gej_to_ge(&g, a);
    fs2_fe_to_int(r->x, &g.x);
    fs2_fe_to_int(r->y, &g.y);
    r->infinity = inf & 1;
}

void fs2_generic_ecmult_gen(fs2_affine *r, const uint64_t k[4])
{
    fs2_gej j;
    fs2_ecmult_gen(&j, k);
    affine_from_gej(r, &j);
    fs2_wipe(&j, sizeof j);
}

void fs2_generic_ecmult_const(fs2_affine *r, const fs2_affine *p, const uint64_t k[4])
{
    fs2_gej j;
    fs2_ge g;
    ge_from_affine(&g, p);
    fs2_ecmult_const(&j, &g, k);
    affine_from_gej(r, &j);
    fs2_wipe(&j, sizeof j);
}

int fs2_generic_verify_check(const uint64_t s[4], const uint64_t t[4], const fs2_affine *p, const uint64_t v[4])
{
    fs2_ge g;
    ge_from_affine(&g, p);
    return fs2_ecmult_verify_var(s, t, &g, v);
}

FS2_HIDDEN const fs2_backend fs2_backend_generic = {
    .name = "generic",
    .available = generic_available,
    .sm3_compress = fs2_sm3_compress_generic,
    .ecmult_gen = fs2_generic_ecmult_gen,
    .ecmult_const = fs2_generic_ecmult_const,
    .verify_check = fs2_generic_verify_check,
    .sm3_lanes = 1,
    .sm3_compress_lanes = fs2_sm3_compress_lanes1,
};
