/* SPDX-License-Identifier: Apache-2.0 */
/* Point validation and decompression on public data (GB/T 32918.1
 * 4.2.9-4.2.10, 6.2), whatever the backend: once per point parsed, in the
 * portable field. */
#include "ec/ec.h"
#define FS2_FIELD FS2_FIELD_GENERIC
#include "field/field.h"

static const uint64_t CURVE_B[4] = {0xDDBCBD414D940E93ULL, 0xF39789F515AB8F92ULL, 0x4D5A9E4BCF6509A7ULL,
                                    0x28E9FA9E9D9F5E34ULL};

/* rhs = x^3 - 3x + b (Montgomery) */
static void curve_rhs(fs2_fe *rhs, const fs2_fe *x)
{
    fs2_fe t, b, x3;
    fs2_fe_sqr(&t, x);
    fs2_fe_mul(&x3, &t, x);
    fs2_fe_add(&t, x, x);
    fs2_fe_add(&t, &t, x);
    fs2_fe_sub(&x3, &x3, &t);
    fs2_fe_from_int(&b, CURVE_B);
    fs2_fe_add(rhs, &x3, &b);
}

int fs2_point_on_curve_var(const fs2_affine *p)
{
    if (p->infinity)
        return 0;
    if (!fs2_lt_mask4(p->x, FS2_P) || !fs2_lt_mask4(p->y, FS2_P))
        return 0;
    fs2_fe x, y, lhs, rhs;
    fs2_fe_from_int(&x, p->x);
    fs2_fe_from_int(&y, p->y);
    fs2_fe_sqr(&lhs, &y);
    curve_rhs(&rhs, &x);
    return fs2_fe_eq_mask(&lhs, &rhs) != 0;
}

int fs2_point_decompress_var(fs2_affine *r, const uint64_t x[4], int y_odd)
{
    /* p = 3 mod 4: a square root of a is a^((p+1)/4). */
    static const uint64_t e[4] = {0x4000000000000000ULL, 0xFFFFFFFFC0000000ULL, 0xFFFFFFFFFFFFFFFFULL,
                                  0x3FFFFFFFBFFFFFFFULL};
    memset(r, 0, sizeof *r);
    if (!fs2_lt_mask4(x, FS2_P))
        return 0;
    fs2_fe fx, rhs, y, chk;
    fs2_fe_from_int(&fx, x);
    curve_rhs(&rhs, &fx);
    fs2_fe_pow_pub(&y, &rhs, e);
    fs2_fe_sqr(&chk, &y);
    if (!fs2_fe_eq_mask(&chk, &rhs))
        return 0;
    uint64_t yi[4];
    fs2_fe_to_int(yi, &y);
    if ((int)(yi[0] & 1) != (y_odd != 0)) {
        fs2_fe_neg(&y, &y);
        fs2_fe_to_int(yi, &y);
    }
    memcpy(r->x, x, 32);
    memcpy(r->y, yi, 32);
    r->infinity = 0;
    return 1;
}
