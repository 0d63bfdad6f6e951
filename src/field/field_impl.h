/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The definitions behind field/field.h, included by it alone: the primitives
 * of the implementation FS2_FIELD names, then every other operation of the
 * interface, written once over the primitives and the limbs.
 */
#ifndef FS2_FIELD_IMPL_H
#define FS2_FIELD_IMPL_H

#ifndef FS2_FIELD_H
#error "include field/field.h"
#endif

#if FS2_FIELD == FS2_FIELD_GENERIC
#include "field/field_generic_impl.h"
#elif FS2_FIELD == FS2_FIELD_X86
#include "field/field_x86_impl.h"
#elif FS2_FIELD == FS2_FIELD_AARCH64
#include "field/field_aarch64_impl.h"
#elif FS2_FIELD == FS2_FIELD_W32
#include "field/field_w32_impl.h"
#endif

/* R^2 mod p as a field element: a R^2 R^-1 = a R. */
static inline void fs2_fe_from_int(fs2_fe *r, const uint64_t a[4])
{
    fs2_fe_mul(r, (const fs2_fe *)a, (const fs2_fe *)FS2_P_RR);
}

static inline void fs2_fe_to_int(uint64_t r[4], const fs2_fe *a)
{
    static const fs2_fe one = {{1, 0, 0, 0}};
    fs2_fe t;
    fs2_fe_mul(&t, a, &one);
    memcpy(r, t.v, 32);
}

/* An implementation may define fs2_fe_half and fs2_fe_inv_var itself (and
 * FS2_FE_HAVE_HALF, FS2_FE_HAVE_INV_VAR): the aarch64 one does. */
#ifndef FS2_FE_HAVE_HALF
/* a + p when a is odd is even, and the 257-bit sum is shifted right
 * (Montgomery form commutes with halving). Branch-free. */
static inline void fs2_fe_half(fs2_fe *r, const fs2_fe *a)
{
    uint64_t m = fs2_ct_mask_u64(a->v[0] & 1), t[4], c = 0;
    for (int i = 0; i < 4; i++)
        c = fs2_adc(&t[i], a->v[i], FS2_P[i] & m, c);
    r->v[0] = (t[0] >> 1) | (t[1] << 63);
    r->v[1] = (t[1] >> 1) | (t[2] << 63);
    r->v[2] = (t[2] >> 1) | (t[3] << 63);
    r->v[3] = (t[3] >> 1) | (c << 63);
}
#endif

static inline void fs2_fe_cmov(fs2_fe *r, const fs2_fe *a, uint64_t mask)
{
    fs2_sel4(r->v, mask, a->v, r->v);
}

static inline void fs2_fe_cneg(fs2_fe *r, uint64_t mask)
{
    fs2_fe n;
    fs2_fe_neg(&n, r);
    fs2_fe_cmov(r, &n, mask);
}

static inline uint64_t fs2_fe_is_zero_mask(const fs2_fe *a)
{
    return fs2_is_zero_mask4(a->v);
}
static inline uint64_t fs2_fe_eq_mask(const fs2_fe *a, const fs2_fe *b)
{
    return fs2_eq_mask4(a->v, b->v);
}

/* Fixed 4-bit windows: the same sequence of operations for every a. */
static inline void fs2_fe_pow_pub(fs2_fe *r, const fs2_fe *a, const uint64_t e[4])
{
    fs2_fe tab[16], acc;
    tab[0] = FS2_FE_ONE;
    tab[1] = *a;
    for (int i = 2; i < 16; i++)
        fs2_fe_mul(&tab[i], &tab[i - 1], a);
    acc = FS2_FE_ONE;
    for (int i = 63; i >= 0; i--) {
        for (int j = 0; j < 4; j++)
            fs2_fe_sqr(&acc, &acc);
        unsigned nib = (unsigned)(e[i / 16] >> (4 * (i % 16))) & 15; /* public */
        fs2_fe_mul(&acc, &acc, &tab[nib]);
    }
    *r = acc;
}

#ifndef FS2_FE_HAVE_INV_VAR
static inline void fs2_fe_inv_var(fs2_fe *r, const fs2_fe *a)
{
    fs2_fe y;
    fs2_modinv_var(y.v, a->v, &FS2_MODINFO_P);
    fs2_fe_mul(r, &y, &FS2_FE_R3);
}
#endif

static inline void fs2_fe_inv_and_sc_inv(fs2_fe *r, const fs2_fe *z, fs2_sc *q, const fs2_sc *a)
{
    fs2_fe y;
    fs2_sc w;
    fs2_modinv2_safegcd(y.v, z->v, &FS2_MODINFO_P, w.v, a->v, &FS2_MODINFO_N);
    fs2_fe_mul(r, &y, &FS2_FE_R3);
    fs2_sc_to_mont(q, &w);
}

#endif
