/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The field primitives in portable C (FS2_FIELD_GENERIC), included by
 * field/field_impl.h alone: the reference every other implementation is
 * tested against, for any CPU with a C11 compiler (with unsigned __int128
 * where the compiler has it, else the pairs of words of field/wide.h).
 *
 * Products: the CIOS Montgomery loop of field/u256.h with n0 = 1 (as
 * p = -1 mod 2^64, the multiplier of each reduction step is the low limb
 * itself). Replacing the q p products by the shifts that p's shape allows
 * ((t + q p) / 2^64 = (t - q) / 2^64 + q (p + 1) / 2^64) measured slower in
 * portable C: the 64-bit multiplier is cheaper than the borrow chain.
 * Every primitive is kept out of line (FS2_FIELD_OUTLINE, field/u256.h).
 * Inversion: constant-time divsteps, several times faster than Fermat's
 * a^(p-2) with these products.
 */
#ifndef FS2_FIELD_GENERIC_IMPL_H
#define FS2_FIELD_GENERIC_IMPL_H

static FS2_FIELD_OUTLINE void fs2_fe_mul(fs2_fe *r, const fs2_fe *a, const fs2_fe *b)
{
    fs2_mont_mul_generic(r->v, a->v, b->v, FS2_P, 1);
}

static FS2_FIELD_OUTLINE void fs2_fe_sqr(fs2_fe *r, const fs2_fe *a)
{
    fs2_mont_mul_generic(r->v, a->v, a->v, FS2_P, 1);
}

static FS2_FIELD_OUTLINE void fs2_fe_add(fs2_fe *r, const fs2_fe *a, const fs2_fe *b)
{
    fs2_modadd(r->v, a->v, b->v, FS2_P);
}

static FS2_FIELD_OUTLINE void fs2_fe_sub(fs2_fe *r, const fs2_fe *a, const fs2_fe *b)
{
    fs2_modsub(r->v, a->v, b->v, FS2_P);
}

static FS2_FIELD_OUTLINE void fs2_fe_neg(fs2_fe *r, const fs2_fe *a)
{
    static const uint64_t zero[4] = {0, 0, 0, 0};
    fs2_modsub(r->v, zero, a->v, FS2_P);
}

static inline void fs2_fe_inv(fs2_fe *r, const fs2_fe *a)
{
    fs2_fe y;
    fs2_modinv_safegcd(y.v, a->v, &FS2_MODINFO_P);
    fs2_fe_mul(r, &y, &FS2_FE_R3);
}

#endif
