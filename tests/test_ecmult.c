/* SPDX-License-Identifier: Apache-2.0 */
/* Every slot of every EC operations table that the dispatch can choose on
 * this CPU, against OpenSSL's EC_POINT_mul on the SM2 group: kG, kP
 * (constant-time paths), the fused slots against the separate ones, and
 * the verification check sG + tP, on random and edge scalars, including k
 * in [n-40, n-1], where the last window of kP meets the doubling case. */
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>
#include <string.h>

#include "backend/backend.h"
#include "cpu.h"
#include "testossl.h"

static EC_GROUP *grp;
static BN_CTX *bnctx;
static BIGNUM *N;

static void affine_from_ossl(fs2_affine *r, const EC_POINT *pt)
{
    memset(r, 0, sizeof *r);
    r->infinity = !fs2t_point_limbs(grp, pt, r->x, r->y, bnctx);
}

static int affine_eq(const fs2_affine *a, const fs2_affine *b)
{
    if (a->infinity || b->infinity)
        return a->infinity == b->infinity;
    return !memcmp(a->x, b->x, 32) && !memcmp(a->y, b->y, 32);
}

/* A scalar to test: i < 64 are edges, the rest random (< n). */
static void scalar_case(uint64_t k[4], int i)
{
    BIGNUM *t = BN_new();
    if (i < 40) { /* n - 1 - i */
        BN_copy(t, N);
        BN_sub_word(t, 1 + (unsigned)i);
    } else if (i < 50) { /* small */
        BN_set_word(t, (unsigned)(i - 39));
    } else if (i < 60) { /* powers of two, and 2^k - 1 */
        BN_one(t);
        BN_lshift(t, t, (i - 50) * 28);
        if (i & 1)
            BN_sub_word(t, 1);
        if (BN_is_zero(t))
            BN_one(t);
    } else if (i < 72) { /* around the 128-bit split of kP and verification */
        BN_one(t);
        BN_lshift(t, t, 128);
        if (i < 64) { /* 2^128 - 1 .. 2^128 + 2 */
            BN_add_word(t, 1);
            BN_sub_word(t, (unsigned)(64 - i));
        } else if (i < 68) { /* equal halves: c (2^128 + 1) */
            BN_add_word(t, 1);
            BN_mul_word(t, (unsigned)(i - 63));
        } else { /* n - c 2^128 */
            BN_mul_word(t, (unsigned)(i - 67));
            BN_sub(t, N, t);
        }
    } else {
        BN_rand_range(t, N);
        if (BN_is_zero(t))
            BN_one(t);
    }
    fs2t_limbs_of_bn(k, t);
    BN_free(t);
}

/* mul_public_cmp_x_var gives `want` by both paths: the split one (2^128 P
 * cached in tab) and the 256-bit one (no tables). */
static void check_cmp_x(const fs2_ec_ops *b, const uint64_t s[4], const uint64_t t[4], const fs2_affine *p,
                        const fs2_pubtab *tab, const uint64_t v[4], int want)
{
    CHECK(b->mul_public_cmp_x_var(s, t, p, tab, v) == want);
    CHECK(b->mul_public_cmp_x_var(s, t, p, NULL, v) == want);
}

static void test_backend(const fs2_ec_ops *b)
{
    EC_POINT *pt = EC_POINT_new(grp), *q = EC_POINT_new(grp);
    fs2_affine got, want, base;
    BIGNUM *pk = BN_new();

    /* a random public point P = pk G, and its cached 2^128 P */
    BN_rand_range(pk, N);
    EC_POINT_mul(grp, q, pk, NULL, NULL, bnctx);
    affine_from_ossl(&base, q);
    /* its cached tables: (j + 1) P and (j + 1) 2^128 P, affine, Montgomery
     * form (x R mod p with R = 2^256) */
    fs2_pubtab tab;
    CHECK(b->precompute_var != NULL);
    b->precompute_var(&tab, &base);
    {
        BIGNUM *e = BN_new(), *pr = BN_new(), *r = BN_new(), *c = BN_new();
        BN_hex2bn(&pr, "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFF");
        BN_lshift(r, BN_value_one(), 256);
        for (int h = 0; h < 2; h++)
            for (int j = 0; j < 16; j++) {
                BN_set_word(e, (unsigned)j + 1);
                BN_lshift(e, e, 128 * h);
                EC_POINT_mul(grp, pt, NULL, q, e, bnctx);
                affine_from_ossl(&want, pt);
                for (int xy = 0; xy < 2; xy++) {
                    BIGNUM *w = fs2t_bn_of_limbs(xy ? want.y : want.x);
                    BN_mod_mul(c, w, r, pr, bnctx);
                    uint64_t m[4];
                    fs2t_limbs_of_bn(m, c);
                    CHECK(memcmp(m, tab.xy[h][j] + 4 * xy, 32) == 0);
                    BN_free(w);
                }
            }
        BN_free(e);
        BN_free(pr);
        BN_free(r);
        BN_free(c);
    }

    /* kG for groups of 1..FS2_MUL_BASE_BATCH_MAX scalars sharing one inversion,
     * against one ecmult_gen each; k = 0 (infinity) inside a group must
     * come out as infinity without spoiling its neighbours. */
    CHECK(b->mul_base_batch != NULL);
    for (size_t m = 1; b->mul_base_batch && m <= FS2_MUL_BASE_BATCH_MAX; m++) {
        uint64_t ks[FS2_MUL_BASE_BATCH_MAX][4];
        fs2_affine many[FS2_MUL_BASE_BATCH_MAX];
        for (size_t i = 0; i < m; i++)
            scalar_case(ks[i], (int)(m * 17 + i * 5) % 400);
        if (m >= 3)
            memset(ks[m / 2], 0, sizeof ks[m / 2]);
        b->mul_base_batch(many, (const uint64_t(*)[4])ks, m);
        for (size_t i = 0; i < m; i++) {
            b->mul_base(&want, ks[i]);
            CHECK(affine_eq(&many[i], &want));
            CHECK(many[i].infinity == (m >= 3 && i == m / 2));
        }
    }

    /* Key generation's fused pair: kG and a^-1 2^256 mod n from one call
     * (the two inversions interleaved), against ecmult_gen and OpenSSL's
     * BN_mod_inverse; a runs over the edges (1, 2, n-1, ...) and random
     * values, paired with k of other cases so that both lanes vary. */
    CHECK(b->mul_base_and_sc_inv != NULL);
    for (int i = 0; b->mul_base_and_sc_inv && i < 200; i++) {
        uint64_t k[4], a[4], qi[4];
        scalar_case(k, (i * 7 + 3) % 400);
        scalar_case(a, i);
        if (!(a[0] | a[1] | a[2] | a[3]))
            a[0] = 1; /* a in [1, n-1] */
        b->mul_base_and_sc_inv(&got, k, qi, a);
        b->mul_base(&want, k);
        CHECK(affine_eq(&got, &want));
        BIGNUM *ba = fs2t_bn_of_limbs(a), *bi = BN_new(), *r = BN_new();
        BN_set_bit(r, 256);
        CHECK(BN_mod_inverse(bi, ba, N, bnctx) != NULL);
        CHECK(BN_mod_mul(bi, bi, r, N, bnctx));
        uint64_t w[4];
        fs2t_limbs_of_bn(w, bi);
        CHECK(memcmp(w, qi, 32) == 0);
        BN_free(ba);
        BN_free(bi);
        BN_free(r);
    }

    for (int i = 0; i < 400; i++) {
        uint64_t k[4];
        scalar_case(k, i);
        BIGNUM *bk = fs2t_bn_of_limbs(k);
        /* kG */
        EC_POINT_mul(grp, pt, bk, NULL, NULL, bnctx);
        affine_from_ossl(&want, pt);
        b->mul_base(&got, k);
        CHECK(affine_eq(&got, &want));
        /* kP */
        EC_POINT_mul(grp, pt, NULL, q, bk, bnctx);
        affine_from_ossl(&want, pt);
        b->mul(&got, &base, NULL, k);
        CHECK(affine_eq(&got, &want));
        /* key exchange's U = [t](P + [x]R): R = kG, x = k's low 128 bits
         * (as x-bar), t another scalar case */
        CHECK(b->mul_of_sum != NULL);
        {
            uint64_t lo[4] = {k[0], k[1], 0, 0}, t[4];
            scalar_case(t, (i * 11 + 5) % 400);
            BIGNUM *bl = fs2t_bn_of_limbs(lo), *bt = fs2t_bn_of_limbs(t);
            EC_POINT *rp = EC_POINT_new(grp), *qp = EC_POINT_new(grp);
            fs2_affine ra, wu;
            EC_POINT_mul(grp, rp, bk, NULL, NULL, bnctx);
            affine_from_ossl(&ra, rp);
            EC_POINT_mul(grp, qp, NULL, rp, bl, bnctx);
            EC_POINT_add(grp, qp, qp, q, bnctx);
            EC_POINT_mul(grp, qp, NULL, qp, bt, bnctx);
            affine_from_ossl(&wu, qp);
            b->mul_of_sum(&got, &base, &ra, lo, t);
            CHECK(affine_eq(&got, &wu));
            EC_POINT_free(rp);
            EC_POINT_free(qp);
            BN_free(bl);
            BN_free(bt);
        }
        /* kP with 2^128 P cached: two 128-bit streams */
        b->mul(&got, &base, &tab, k);
        CHECK(affine_eq(&got, &want));
        /* kG and kP from one call, one shared inversion, both paths */
        CHECK(b->mul_base_and_mul != NULL);
        if (b->mul_base_and_mul) {
            fs2_affine kg, kp, wg;
            b->mul_base(&wg, k);
            for (int t = 0; t < 2; t++) {
                b->mul_base_and_mul(&kg, &kp, &base, t ? &tab : NULL, k);
                CHECK(affine_eq(&kg, &wg));
                CHECK(affine_eq(&kp, &want));
            }
        }
        /* kG as a variable base (P = G) */
        if (i < 45) {
            fs2_affine g;
            uint64_t one[4] = {1, 0, 0, 0};
            b->mul_base(&g, one);
            EC_POINT_mul(grp, pt, bk, NULL, NULL, bnctx);
            affine_from_ossl(&want, pt);
            b->mul(&got, &g, NULL, k);
            CHECK(affine_eq(&got, &want));
        }
        /* sG + tP: x mod n must match v exactly */
        uint64_t t[4], v[4];
        scalar_case(t, (i * 7 + 3) % 400);
        BIGNUM *bt = fs2t_bn_of_limbs(t), *x = BN_new();
        EC_POINT_mul(grp, pt, bk, q, bt, bnctx);
        if (!EC_POINT_is_at_infinity(grp, pt)) {
            EC_POINT_get_affine_coordinates(grp, pt, x, NULL, bnctx);
            BN_nnmod(x, x, N, bnctx);
            fs2t_limbs_of_bn(v, x);
            check_cmp_x(b, k, t, &base, &tab, v, 1);
            BN_add_word(x, 1);
            BN_nnmod(x, x, N, bnctx);
            fs2t_limbs_of_bn(v, x);
            check_cmp_x(b, k, t, &base, &tab, v, 0);
        }
        BN_free(bt);
        BN_free(x);
        BN_free(bk);
    }
    /* key exchange's edges, R = P: x = 1 (P + R a doubling), x = 0 (Q = P),
     * x = n - 1 (Q = infinity, so U is) */
    {
        static const uint64_t xs[3][4] = {
            {1, 0, 0, 0},
            {0, 0, 0, 0},
            {0x53BBF40939D54122ULL, 0x7203DF6B21C6052BULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFEFFFFFFFFULL},
        };
        uint64_t t[4] = {0x1234, 0x5678, 0x9abc, 0xdef0};
        BIGNUM *bt = fs2t_bn_of_limbs(t);
        EC_POINT *qp = EC_POINT_new(grp);
        for (int c = 0; c < 3; c++) {
            fs2_affine wu;
            BIGNUM *bx = fs2t_bn_of_limbs(xs[c]);
            BN_add_word(bx, 1); /* P + [x]P = [x + 1]P */
            EC_POINT_mul(grp, qp, NULL, q, bx, bnctx);
            EC_POINT_mul(grp, qp, NULL, qp, bt, bnctx);
            affine_from_ossl(&wu, qp);
            CHECK(wu.infinity == (c == 2));
            b->mul_of_sum(&got, &base, &base, xs[c], t);
            CHECK(affine_eq(&got, &wu));
            BN_free(bx);
        }
        EC_POINT_free(qp);
        BN_free(bt);
    }
    /* sG + tP = infinity (t P = -s G) must fail whatever v is */
    {
        uint64_t s[4] = {5, 0, 0, 0}, t[4], v[4] = {0, 0, 0, 0};
        BIGNUM *bt = BN_new(), *inv = BN_new();
        /* t = -5 / pk mod n, so t P = -5 G */
        BN_mod_inverse(inv, pk, N, bnctx);
        BN_set_word(bt, 5);
        BN_mod_mul(bt, bt, inv, N, bnctx);
        BN_sub(bt, N, bt);
        fs2t_limbs_of_bn(t, bt);
        check_cmp_x(b, s, t, &base, &tab, v, 0);
        BN_free(bt);
        BN_free(inv);
    }
    BN_free(pk);
    EC_POINT_free(pt);
    EC_POINT_free(q);
}

static void test_point_util(void)
{
    EC_POINT *pt = EC_POINT_new(grp);
    BIGNUM *a = BN_new();
    for (int i = 0; i < 200; i++) {
        fs2_affine pa, dec;
        BN_rand_range(a, N);
        EC_POINT_mul(grp, pt, a, NULL, NULL, bnctx);
        affine_from_ossl(&pa, pt);
        CHECK(fs2_point_on_curve_var(&pa) == 1);
        CHECK(fs2_point_decompress_var(&dec, pa.x, (int)(pa.y[0] & 1)) == 1);
        CHECK(affine_eq(&dec, &pa));
        pa.y[0] ^= 1;
        CHECK(fs2_point_on_curve_var(&pa) == 0);
    }
    /* x not on the curve: roughly half of all x */
    int rejected = 0;
    for (int i = 0; i < 64; i++) {
        uint64_t x[4] = {(uint64_t)i, 0, 0, 0};
        fs2_affine r;
        rejected += !fs2_point_decompress_var(&r, x, 0);
    }
    CHECK(rejected > 10 && rejected < 54);
    BN_free(a);
    EC_POINT_free(pt);
}

int main(void)
{
    grp = EC_GROUP_new_by_curve_name(NID_sm2);
    bnctx = BN_CTX_new();
    N = BN_dup(EC_GROUP_get0_order(grp));
    int tested = 0;
    const fs2_ec_ops *ec;
    for (size_t i = 0; (ec = fs2_ec_table(i)) != NULL; i++) {
        if (!fs2_cpu_has(ec->cpu_needs)) {
            printf("EC %s: not available on this CPU, skipped\n", ec->name);
            continue;
        }
        printf("EC %s\n", ec->name);
        test_backend(ec);
        tested++;
    }
    CHECK(tested >= 1);
    test_point_util();
    BN_free(N);
    BN_CTX_free(bnctx);
    EC_GROUP_free(grp);
    return fs2t_finish("test_ecmult");
}
