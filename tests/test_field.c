/* SPDX-License-Identifier: Apache-2.0 */
/* Field arithmetic mod p and mod n against OpenSSL's BIGNUM, an independent
 * big-integer reference, on random values and the edges (0, 1, m-1, m, m+1,
 * 2^256-1, ...). */
#include <openssl/bn.h>
#include <string.h>

#include "internal.h"
/* tests/CMakeLists.txt also builds this file as test_field_x86 and
 * test_field_aarch64, with FS2_FIELD set to those fields, so that the same
 * checks run over their assembly primitives. */
#ifndef FS2_FIELD
#define FS2_FIELD FS2_FIELD_GENERIC
#endif
#include "field/field.h"
#include "testossl.h"

/* The program's name: CMake sets it for the other fields' builds. */
#ifndef FS2T_NAME
#define FS2T_NAME "test_field"
#endif

#if FS2_FIELD_HERE
static BN_CTX *bnctx;
static BIGNUM *P, *N, *R; /* R = 2^256 */

static int eq_bn(const uint64_t a[4], const BIGNUM *b)
{
    BIGNUM *x = fs2t_bn_of_limbs(a);
    int ok = BN_cmp(x, b) == 0;
    BN_free(x);
    return ok;
}

/* Values to try, all < 2^256; the field functions get them reduced mod m
 * when they require canonical input. */
#define NEDGE 12
static void edge_value(uint64_t r[4], int i, const BIGNUM *m)
{
    BIGNUM *t = BN_new();
    switch (i) {
    case 0: BN_zero(t); break;
    case 1: BN_one(t); break;
    case 2:
        BN_copy(t, m);
        BN_sub_word(t, 1);
        break;
    case 3: BN_copy(t, m); break; /* reduced below: 0 */
    case 4:
        BN_copy(t, m);
        BN_add_word(t, 1);
        break;
    case 5:
        BN_copy(t, R);
        BN_sub_word(t, 1);
        break;
    case 6: BN_set_word(t, 2); break;
    case 7:
        BN_copy(t, m);
        BN_rshift1(t, t);
        break;
    case 8:
        BN_copy(t, m);
        BN_sub_word(t, 2);
        break;
    case 9:
        BN_one(t);
        BN_lshift(t, t, 255);
        break;
    case 10:
        BN_one(t);
        BN_lshift(t, t, 128);
        BN_sub_word(t, 1);
        break;
    default:
        BN_copy(t, R);
        BN_sub(t, t, m);
        break; /* 2^256 - m */
    }
    fs2t_limbs_of_bn(r, t);
    BN_free(t);
}

static void random_value(uint64_t r[4])
{
    fs2t_rand_bytes(r, 32);
    /* bias towards structured values now and then */
    switch (fs2t_rand_u64() % 8) {
    case 0: r[0] = r[1] = 0; break;
    case 1: r[2] = r[3] = ~(uint64_t)0; break;
    case 2: { /* limbs from the values at which carries and the halves of
               * m 2^32 in the reductions turn over */
        static const uint64_t special[8] = {
            0,           1, 0xFFFFFFFFULL, 0x100000000ULL, 0xFFFFFFFF00000000ULL, 0x8000000000000000ULL, ~(uint64_t)0,
            ~(uint64_t)1};
        for (int i = 0; i < 4; i++)
            r[i] = special[fs2t_rand_u64() % 8];
        break;
    }
    case 3: r[1] = r[2] = r[3] = 0; break; /* short: few divsteps to gcd */
    case 4: {                              /* one bit: a long run of zeros for the divsteps */
        unsigned bit = (unsigned)(fs2t_rand_u64() % 256);
        memset(r, 0, 32);
        r[bit / 64] = (uint64_t)1 << (bit % 64);
        break;
    }
    default: break;
    }
}

/* Reference for the Montgomery layer: mont(a) = a R mod m. */
static void check_pair(const uint64_t a_in[4], const uint64_t b_in[4], int modn)
{
    const BIGNUM *m = modn ? N : P;
    BIGNUM *a = fs2t_bn_of_limbs(a_in), *b = fs2t_bn_of_limbs(b_in), *e = BN_new(), *ar = BN_new(), *br = BN_new();
    BN_nnmod(a, a, m, bnctx);
    BN_nnmod(b, b, m, bnctx);
    uint64_t ac[4], bc[4], r[4];
    fs2t_limbs_of_bn(ac, a);
    fs2t_limbs_of_bn(bc, b);

    /* add / sub on canonical values (same code for both domains) */
    fs2_modadd(r, ac, bc, modn ? FS2_N : FS2_P);
    BN_mod_add(e, a, b, m, bnctx);
    CHECK(eq_bn(r, e));
    fs2_modsub(r, ac, bc, modn ? FS2_N : FS2_P);
    BN_mod_sub(e, a, b, m, bnctx);
    CHECK(eq_bn(r, e));

    if (!modn) {
        fs2_fe fa, fb, fr;
        fs2_fe_from_int(&fa, ac);
        fs2_fe_from_int(&fb, bc);
        /* from_int gives a R mod p */
        BN_mod_mul(ar, a, R, m, bnctx);
        CHECK(eq_bn(fa.v, ar));
        fs2_fe_mul(&fr, &fa, &fb);
        fs2_fe_to_int(r, &fr);
        BN_mod_mul(e, a, b, m, bnctx);
        CHECK(eq_bn(r, e));
        fs2_fe_sqr(&fr, &fa);
        fs2_fe_to_int(r, &fr);
        BN_mod_sqr(e, a, m, bnctx);
        CHECK(eq_bn(r, e));
        fs2_fe_add(&fr, &fa, &fb);
        fs2_fe_to_int(r, &fr);
        BN_mod_add(e, a, b, m, bnctx);
        CHECK(eq_bn(r, e));
        fs2_fe_sub(&fr, &fa, &fb);
        fs2_fe_to_int(r, &fr);
        BN_mod_sub(e, a, b, m, bnctx);
        CHECK(eq_bn(r, e));
        fs2_fe_half(&fr, &fa);
        fs2_fe_to_int(r, &fr);
        BN_set_word(e, 2);
        BN_mod_inverse(e, e, m, bnctx);
        BN_mod_mul(e, a, e, m, bnctx);
        CHECK(eq_bn(r, e));
        fs2_fe_neg(&fr, &fa);
        fs2_fe_to_int(r, &fr);
        BN_mod_sub(e, m, a, m, bnctx);
        BN_nnmod(e, e, m, bnctx);
        CHECK(eq_bn(r, e));
        fs2_fe_inv(&fr, &fa);
        fs2_fe_to_int(r, &fr);
        if (BN_is_zero(a))
            BN_zero(e);
        else
            BN_mod_inverse(e, a, m, bnctx);
        CHECK(eq_bn(r, e));
        /* the variable-time inversion (public values) agrees */
        fs2_fe_inv_var(&fr, &fa);
        fs2_fe_to_int(r, &fr);
        CHECK(eq_bn(r, e));
        CHECK((fs2_fe_is_zero_mask(&fa) != 0) == BN_is_zero(a));
        CHECK((fs2_fe_eq_mask(&fa, &fb) != 0) == (BN_cmp(a, b) == 0));
    } else {
        fs2_sc sa, sb, sr;
        memcpy(sa.v, ac, 32);
        memcpy(sb.v, bc, 32);
        /* Montgomery product: a b R^-1 mod n */
        fs2_sc_mont_mul(&sr, &sa, &sb);
        BN_mod_inverse(br, R, m, bnctx);
        BN_mod_mul(e, a, b, m, bnctx);
        BN_mod_mul(e, e, br, m, bnctx);
        CHECK(eq_bn(sr.v, e));
        fs2_sc_to_mont(&sr, &sa);
        BN_mod_mul(e, a, R, m, bnctx);
        CHECK(eq_bn(sr.v, e));
        static const fs2_sc one = {{1, 0, 0, 0}};
        fs2_sc_inv_mont(&sr, &sa);
        fs2_sc_mont_mul(&sr, &sr, &one);
        if (BN_is_zero(a))
            BN_zero(e);
        else
            BN_mod_inverse(e, a, m, bnctx);
        CHECK(eq_bn(sr.v, e));
        /* the variable-time divsteps on the plain integer, mod n too */
        fs2_modinv_var(sr.v, sa.v, &FS2_MODINFO_N);
        CHECK(eq_bn(sr.v, e));
    }
    /* reduction of any 256-bit value (raw, unreduced input) */
    {
        BIGNUM *raw = fs2t_bn_of_limbs(a_in);
        fs2_sc sr;
        if (modn) {
            fs2_sc_reduce(&sr, a_in);
            BN_nnmod(e, raw, N, bnctx);
            CHECK(eq_bn(sr.v, e));
        }
        BIGNUM *rawb = fs2t_bn_of_limbs(b_in);
        CHECK((fs2_lt_mask4(a_in, b_in) != 0) == (BN_cmp(raw, rawb) < 0));
        BN_free(raw);
        BN_free(rawb);
    }
    BN_free(a);
    BN_free(b);
    BN_free(e);
    BN_free(ar);
    BN_free(br);
}

int main(void)
{
    if (!fs2_cpu_has(FS2_FIELD_CPU_NEEDS))
        return fs2t_skip(FS2T_NAME, "this CPU lacks the field's instructions");
    bnctx = BN_CTX_new();
    P = NULL;
    N = NULL;
    R = BN_new();
    BN_hex2bn(&P, "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFF");
    BN_hex2bn(&N, "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54123");
    BN_one(R);
    BN_lshift(R, R, 256);
    CHECK(eq_bn(FS2_P, P));
    CHECK(eq_bn(FS2_N, N));

    for (int modn = 0; modn < 2; modn++) {
        const BIGNUM *m = modn ? N : P;
        for (int i = 0; i < NEDGE; i++)
            for (int j = 0; j < NEDGE; j++) {
                uint64_t a[4], b[4];
                edge_value(a, i, m);
                edge_value(b, j, m);
                check_pair(a, b, modn);
            }
        for (int i = 0; i < 20000; i++) {
            uint64_t a[4], b[4];
            random_value(a);
            random_value(b);
            check_pair(a, b, modn);
        }
    }
    /* Montgomery constants */
    {
        fs2_fe one;
        static const uint64_t o[4] = {1, 0, 0, 0};
        fs2_fe_from_int(&one, o);
        CHECK(fs2_fe_eq_mask(&one, &FS2_FE_ONE) != 0);
    }
    BN_free(P);
    BN_free(N);
    BN_free(R);
    BN_CTX_free(bnctx);
    return fs2t_finish(FS2T_NAME);
}
#else
int main(void)
{
    return fs2t_skip(FS2T_NAME, "this field is not for this target");
}
#endif
