/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The point formulas of src/ec/group_impl.h, tested directly against
 * OpenSSL's EC_POINT arithmetic on the SM2 group (GB/T 32918.1 A.1-A.3),
 * over one field implementation: the portable one, or the one named by
 * FS2_FIELD (tests/CMakeLists.txt builds test_group_x86 and
 * test_group_aarch64 from this file too). Jacobian inputs get a random Z, so
 * that no formula is only ever run with Z = 1.
 *
 *  - doubling (fs2_gej_double, and the co-Z copy fs2_gej_double_impl
 *    leaves), with r = a, of infinity;
 *  - mixed addition (fs2_gej_add_ge_masks) and full addition
 *    (fs2_gej_add_masks), with r = a, and their exceptional cases: a = b
 *    and a = -b must raise the masks H = 0 (and R = 0 for a = b), which
 *    callers rely on to repair the result;
 *  - the complete addition (fs2_gej_add_complete) and the variable-time
 *    ones (fs2_gej_add_ge_var, fs2_gej_add_var) on every case: infinity on
 *    either side or both, a = b, a = -b, and the general one;
 *  - co-Z addition through fs2_gej_multiples16_var ((j + 1) a, j < 16);
 *  - the conversions to affine, one and many at once (infinity among them).
 */
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>
#include <string.h>

#include "internal.h"
#ifndef FS2_FIELD
#define FS2_FIELD FS2_FIELD_GENERIC
#endif
#include "field/field.h"
#include "testossl.h"

/* The program's name: CMake sets it for the other fields' builds. */
#ifndef FS2T_NAME
#define FS2T_NAME "test_group"
#endif

#if FS2_FIELD_HERE
#include "ec/group_impl.h"

static EC_GROUP *grp;
static BN_CTX *bnctx;

/* A random field element, possibly zero. */
static void rand_fe(fs2_fe *r)
{
    uint64_t v[4];
    fs2t_rand_bytes(v, sizeof v);
    v[3] &= 0x7FFFFFFFFFFFFFFFULL; /* < 2^255 < p */
    fs2_fe_from_int(r, v);
}

/* A random point k G, k in [1, n - 1] (k = 0 drawn is replaced by 1). */
static EC_POINT *rand_point(void)
{
    unsigned char b[32];
    BIGNUM *k = BN_new();
    EC_POINT *p = EC_POINT_new(grp);
    fs2t_rand_bytes(b, sizeof b);
    BN_bin2bn(b, 32, k);
    BN_nnmod(k, k, EC_GROUP_get0_order(grp), bnctx);
    if (BN_is_zero(k))
        BN_one(k);
    CHECK(EC_POINT_mul(grp, p, k, NULL, NULL, bnctx) == 1);
    BN_free(k);
    return p;
}

static EC_POINT *ossl_copy(const EC_POINT *a)
{
    EC_POINT *r = EC_POINT_new(grp);
    EC_POINT_copy(r, a);
    return r;
}

static EC_POINT *ossl_neg(const EC_POINT *a)
{
    EC_POINT *r = ossl_copy(a);
    EC_POINT_invert(grp, r, bnctx);
    return r;
}

static EC_POINT *ossl_add(const EC_POINT *a, const EC_POINT *b)
{
    EC_POINT *r = EC_POINT_new(grp);
    CHECK(EC_POINT_add(grp, r, a, b, bnctx) == 1);
    return r;
}

static EC_POINT *ossl_infinity(void)
{
    EC_POINT *r = EC_POINT_new(grp);
    EC_POINT_set_to_infinity(grp, r);
    return r;
}

/* The affine coordinates of a finite point, in the field's form. */
static void ge_of(fs2_ge *r, const EC_POINT *p)
{
    uint64_t x[4], y[4];
    CHECK(fs2t_point_limbs(grp, p, x, y, bnctx) == 1);
    fs2_fe_from_int(&r->x, x);
    fs2_fe_from_int(&r->y, y);
}

/* A Jacobian representative of p with a random non-zero Z: (x z^2, y z^3,
 * z); infinity as Z = 0 with random X, Y. */
static void gej_of(fs2_gej *r, const EC_POINT *p)
{
    if (EC_POINT_is_at_infinity(grp, p)) {
        rand_fe(&r->x);
        rand_fe(&r->y);
        memset(&r->z, 0, sizeof r->z);
        return;
    }
    fs2_ge a;
    fs2_fe z2, z3;
    ge_of(&a, p);
    do
        rand_fe(&r->z);
    while (fs2_fe_is_zero_mask(&r->z));
    fs2_fe_sqr(&z2, &r->z);
    fs2_fe_mul(&z3, &z2, &r->z);
    fs2_fe_mul(&r->x, &a.x, &z2);
    fs2_fe_mul(&r->y, &a.y, &z3);
}

/* 1 if the affine a (inf: its infinity mask) is p. */
static int ge_is(const fs2_ge *a, uint64_t inf, const EC_POINT *p)
{
    if (EC_POINT_is_at_infinity(grp, p))
        return inf != 0;
    if (inf)
        return 0;
    fs2_ge w;
    ge_of(&w, p);
    return fs2_fe_eq_mask(&a->x, &w.x) && fs2_fe_eq_mask(&a->y, &w.y);
}

/* 1 if the Jacobian a is p: Z = 0 for infinity, else X = x Z^2 and
 * Y = y Z^3 (no inversion: the conversions are tested on their own). */
static int gej_is(const fs2_gej *a, const EC_POINT *p)
{
    if (EC_POINT_is_at_infinity(grp, p))
        return fs2_fe_is_zero_mask(&a->z) != 0;
    if (fs2_fe_is_zero_mask(&a->z))
        return 0;
    fs2_ge w;
    fs2_fe z2, z3, t;
    ge_of(&w, p);
    fs2_fe_sqr(&z2, &a->z);
    fs2_fe_mul(&z3, &z2, &a->z);
    fs2_fe_mul(&t, &w.x, &z2);
    int ok = fs2_fe_eq_mask(&t, &a->x) != 0;
    fs2_fe_mul(&t, &w.y, &z3);
    return ok && fs2_fe_eq_mask(&t, &a->y) != 0;
}

static void test_double(void)
{
    for (int i = 0; i < 300; i++) {
        EC_POINT *p = rand_point(), *want = ossl_add(p, p);
        fs2_gej a, r;
        fs2_ge co;
        gej_of(&a, p);
        fs2_gej_double(&r, &a);
        CHECK(gej_is(&r, want));
        /* the co-Z copy: a itself, rescaled to 2a's Z */
        fs2_gej_double_impl(&r, &co, &a);
        CHECK(gej_is(&r, want));
        fs2_gej c = {co.x, co.y, r.z};
        CHECK(gej_is(&c, p));
        /* in place */
        fs2_gej_double(&a, &a);
        CHECK(gej_is(&a, want));
        EC_POINT_free(p);
        EC_POINT_free(want);
    }
    /* infinity stays infinity */
    EC_POINT *inf = ossl_infinity();
    fs2_gej a, r;
    gej_of(&a, inf);
    fs2_gej_double(&r, &a);
    CHECK(gej_is(&r, inf));
    EC_POINT_free(inf);
}

/* The general case of both incomplete additions, and their masks on a = b
 * (H = 0, R = 0) and a = -b (H = 0, R != 0). */
static void test_add_incomplete(void)
{
    for (int i = 0; i < 300; i++) {
        EC_POINT *p = rand_point(), *q = rand_point(), *nq = ossl_neg(q);
        if (EC_POINT_cmp(grp, p, q, bnctx) == 0 || EC_POINT_cmp(grp, p, nq, bnctx) == 0) {
            /* not the general case (a random draw almost never is) */
            EC_POINT_free(p);
            EC_POINT_free(q);
            EC_POINT_free(nq);
            continue;
        }
        EC_POINT *want = ossl_add(p, q);
        fs2_gej a, bj, r;
        fs2_ge b;
        uint64_t hz = 1, rz = 1;
        gej_of(&a, p);
        gej_of(&bj, q);
        ge_of(&b, q);

        fs2_gej_add_ge_masks(&r, &a, &b, &hz, &rz);
        CHECK(gej_is(&r, want) && hz == 0 && rz == 0);
        fs2_gej_add_ge_masks(&r, &a, &b, NULL, NULL);
        CHECK(gej_is(&r, want));
        hz = rz = 1;
        fs2_gej_add_masks(&r, &a, &bj, &hz, &rz);
        CHECK(gej_is(&r, want) && hz == 0 && rz == 0);
        /* in place (r = a) */
        fs2_gej t = a;
        fs2_gej_add_ge_masks(&t, &t, &b, NULL, NULL);
        CHECK(gej_is(&t, want));
        t = a;
        fs2_gej_add_masks(&t, &t, &bj, NULL, NULL);
        CHECK(gej_is(&t, want));

        /* a = b (another representative): H = 0 and R = 0 */
        fs2_gej aa;
        fs2_ge pa;
        gej_of(&aa, p);
        ge_of(&pa, p);
        fs2_gej_add_ge_masks(&r, &a, &pa, &hz, &rz);
        CHECK(hz == ~(uint64_t)0 && rz == ~(uint64_t)0);
        fs2_gej_add_masks(&r, &a, &aa, &hz, &rz);
        CHECK(hz == ~(uint64_t)0 && rz == ~(uint64_t)0);
        /* a = -b: H = 0, R != 0 */
        fs2_gej na;
        fs2_ge npa;
        EC_POINT *np = ossl_neg(p);
        gej_of(&na, np);
        ge_of(&npa, np);
        fs2_gej_add_ge_masks(&r, &a, &npa, &hz, &rz);
        CHECK(hz == ~(uint64_t)0 && rz == 0);
        fs2_gej_add_masks(&r, &a, &na, &hz, &rz);
        CHECK(hz == ~(uint64_t)0 && rz == 0);

        EC_POINT_free(np);
        EC_POINT_free(p);
        EC_POINT_free(q);
        EC_POINT_free(nq);
        EC_POINT_free(want);
    }
}

/* Every case of the complete and the variable-time additions. */
static void test_add_cases(void)
{
    for (int i = 0; i < 100; i++) {
        EC_POINT *p = rand_point(), *q = rand_point(), *inf = ossl_infinity();
        EC_POINT *np = ossl_neg(p);
        /* (a, b): general, a = b, a = -b, a = inf, b = inf, both inf */
        const EC_POINT *as[6] = {p, p, p, inf, p, inf};
        const EC_POINT *bs[6] = {q, p, np, q, inf, inf};
        for (int c = 0; c < 6; c++) {
            EC_POINT *want = ossl_add(as[c], bs[c]);
            fs2_gej a, b, r;
            gej_of(&a, as[c]);
            gej_of(&b, bs[c]);
            fs2_gej_add_complete(&r, &a, &b);
            CHECK(gej_is(&r, want));
            fs2_gej_add_var(&r, &a, &b);
            CHECK(gej_is(&r, want));
            if (!EC_POINT_is_at_infinity(grp, bs[c])) { /* b affine */
                fs2_ge g;
                ge_of(&g, bs[c]);
                fs2_gej_add_ge_var(&r, &a, &g);
                CHECK(gej_is(&r, want));
            }
            EC_POINT_free(want);
        }
        EC_POINT_free(p);
        EC_POINT_free(q);
        EC_POINT_free(np);
        EC_POINT_free(inf);
    }
}

/* (j + 1) a for j < 16, by a doubling and co-Z additions. */
static void test_multiples(void)
{
    for (int i = 0; i < 50; i++) {
        EC_POINT *p = rand_point(), *m = ossl_copy(p);
        fs2_gej a;
        fs2_ge r[16];
        gej_of(&a, p);
        fs2_gej_multiples16_var(r, &a);
        for (int j = 0; j < 16; j++) {
            CHECK(ge_is(&r[j], 0, m));
            EC_POINT *next = ossl_add(m, p);
            EC_POINT_free(m);
            m = next;
        }
        EC_POINT_free(p);
        EC_POINT_free(m);
    }
}

/* To affine: one at a time, with a given 1 / Z, and many at once with
 * points at infinity among them. */
static void test_to_affine(void)
{
    enum { N = 9 };
    for (int i = 0; i < 50; i++) {
        EC_POINT *p[N];
        fs2_gej a[N];
        fs2_ge r[N], g;
        fs2_fe acc[N], zi;
        uint64_t inf[N];
        for (int j = 0; j < N; j++) {
            p[j] = (j % 4 == 1 || (i % 5 == 0 && j == 0)) ? ossl_infinity() : rand_point();
            gej_of(&a[j], p[j]);
        }
        for (int j = 0; j < N; j++) {
            uint64_t m = fs2_gej_to_ge(&g, &a[j]);
            CHECK(ge_is(&g, m, p[j]));
            if (!m) {
                fs2_fe_inv(&zi, &a[j].z);
                CHECK(fs2_gej_to_ge_zinv(&g, &a[j], &zi) == 0 && ge_is(&g, 0, p[j]));
            }
        }
        size_t n = 1 + (size_t)(i % N);
        fs2_gej_to_ge_many(r, inf, a, acc, n);
        for (size_t j = 0; j < n; j++) {
            CHECK(ge_is(&r[j], inf[j], p[j]));
            if (inf[j]) { /* infinity comes out as (0, 0) */
                CHECK(fs2_fe_is_zero_mask(&r[j].x) && fs2_fe_is_zero_mask(&r[j].y));
            }
        }
        for (int j = 0; j < N; j++)
            EC_POINT_free(p[j]);
    }
}

int main(void)
{
    if (!fs2_cpu_has(FS2_FIELD_CPU_NEEDS))
        return fs2t_skip(FS2T_NAME, "this CPU lacks the field's instructions");
    grp = EC_GROUP_new_by_curve_name(NID_sm2);
    bnctx = BN_CTX_new();
    test_double();
    test_add_incomplete();
    test_add_cases();
    test_multiples();
    test_to_affine();
    BN_CTX_free(bnctx);
    EC_GROUP_free(grp);
    return fs2t_finish(FS2T_NAME);
}
#else
int main(void)
{
    return fs2t_skip(FS2T_NAME, "this field is not for this target");
}
#endif
