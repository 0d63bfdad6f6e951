/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every protocol entry point fed bad input: the exact FASTSM2_ERR_* code,
 * zeroed outputs (the whole capacity of a variable-size output, *outlen = 0,
 * and every fixed-size output), never a crash, and fastsm2_verify() /
 * fastsm2_verify_digest() returning exactly 1 or 0 whatever happens.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>

#include "testutil.h"

static const unsigned char N_BYTES[32] = {
    0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0x72, 0x03, 0xDF, 0x6B, 0x21, 0xC6, 0x05, 0x2B, 0x53, 0xBB, 0xF4, 0x09, 0x39, 0xD5, 0x41, 0x23};
/* p = FFFFFFFE FFFFFFFF FFFFFFFF FFFFFFFF FFFFFFFF 00000000 FFFFFFFF FFFFFFFF */
static const unsigned char P_BYTES[32] = {
    0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
static void p_bytes(unsigned char out[32]) { memcpy(out, P_BYTES, 32); }

static const unsigned char GX[32] = {
    0x32, 0xC4, 0xAE, 0x2C, 0x1F, 0x19, 0x81, 0x19, 0x5F, 0x99, 0x04, 0x46, 0x6A, 0x39, 0xC9, 0x94,
    0x8F, 0xE3, 0x0B, 0xBF, 0xF2, 0x66, 0x0B, 0xE1, 0x71, 0x5A, 0x45, 0x89, 0x33, 0x4C, 0x74, 0xC7};
static const unsigned char GY[32] = {
    0xBC, 0x37, 0x36, 0xA2, 0xF4, 0xF6, 0x77, 0x9C, 0x59, 0xBD, 0xCE, 0xE3, 0x6B, 0x69, 0x21, 0x53,
    0xD0, 0xA9, 0x87, 0x7C, 0xC6, 0x2A, 0x47, 0x40, 0x02, 0xDF, 0x32, 0xE5, 0x21, 0x39, 0xF0, 0xA0};

/* Every fastsm2_verify* 1/0 result goes through here. */
static unsigned long verify_non_boolean;
static int vb(int v)
{
    if (v != 0 && v != 1) {
        verify_non_boolean++;
        fprintf(stderr, "fastsm2_verify returned %d (neither 1 nor 0)\n", v);
    }
    return v;
}

static int all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    unsigned char acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= b[i];
    return acc == 0;
}

/* 32-byte big-endian add of a small value (wraps mod 2^256). */
static void be_add(unsigned char a[32], unsigned v)
{
    for (int i = 31; i >= 0 && v; i--) {
        v += a[i];
        a[i] = (unsigned char)v;
        v >>= 8;
    }
}

/* a = (b - a) mod 2^256, big-endian. */
static void be_rsub(unsigned char a[32], const unsigned char b[32])
{
    int borrow = 0;
    for (int i = 31; i >= 0; i--) {
        int t = b[i] - a[i] - borrow;
        borrow = t < 0;
        a[i] = (unsigned char)(t + (borrow ? 256 : 0));
    }
}

static void sec1_g(unsigned char out[65])
{
    out[0] = 0x04;
    memcpy(out + 1, GX, 32);
    memcpy(out + 33, GY, 32);
}

/* ---------------------------------------------------------------------- */

static void test_privkey_range(void)
{
    unsigned char d[32];
    fastsm2_privkey key;
    struct {
        const char *name;
        int want;
    } cases[] = {{"0", FASTSM2_ERR_PRIVATE_KEY},   {"n-1", FASTSM2_ERR_PRIVATE_KEY},
                 {"n", FASTSM2_ERR_PRIVATE_KEY},   {"n+1", FASTSM2_ERR_PRIVATE_KEY},
                 {"2^256-1", FASTSM2_ERR_PRIVATE_KEY}, {"1", FASTSM2_OK},
                 {"n-2", FASTSM2_OK},              {"2", FASTSM2_OK}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *s = cases[i].name;
        memset(d, 0, 32);
        if (!strcmp(s, "1"))
            d[31] = 1;
        else if (!strcmp(s, "2"))
            d[31] = 2;
        else if (!strcmp(s, "2^256-1"))
            memset(d, 0xFF, 32);
        else if (s[0] == 'n') {
            memcpy(d, N_BYTES, 32);
            if (!strcmp(s, "n-1"))
                d[31] -= 1;
            else if (!strcmp(s, "n-2"))
                d[31] -= 2;
            else if (!strcmp(s, "n+1"))
                d[31] += 1;
        }
        memset(&key, 0xAA, sizeof key);
        int st = fastsm2_privkey_from_bytes(&key, d);
        if (st != cases[i].want)
            fprintf(stderr, "privkey_from_bytes(d = %s)\n", s);
        CHECK_STATUS(st, cases[i].want);
        if (cases[i].want != FASTSM2_OK) {
            CHECK(all_zero(&key, sizeof key));
        } else {
            /* A usable key: signs and verifies. */
            fastsm2_pubkey pub;
            unsigned char sig[64], e[32] = {1, 2, 3};
            CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);
            CHECK_STATUS(fastsm2_sign_digest(sig, &key, e), FASTSM2_OK);
            CHECK(vb(fastsm2_verify_digest(&pub, e, sig)) == 1);
            unsigned char back[32];
            CHECK_STATUS(fastsm2_privkey_to_bytes(back, &key), FASTSM2_OK);
            CHECK(memcmp(back, d, 32) == 0);
        }
    }
}

/* ---------------------------------------------------------------------- */

static void expect_pub(const unsigned char *in, size_t len, int want, const char *what)
{
    fastsm2_pubkey pub;
    memset(&pub, 0xAA, sizeof pub);
    int st = fastsm2_pubkey_from_bytes(&pub, in, len);
    if (st != want)
        fprintf(stderr, "pubkey_from_bytes: %s\n", what);
    CHECK_STATUS(st, want);
    if (want != FASTSM2_OK)
        CHECK(all_zero(&pub, sizeof pub));
}

/* An x in [0, p) with no point on the curve, found with OpenSSL. */
static void find_x_off_curve(unsigned char x[32])
{
    EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_sm2);
    EC_POINT *pt = EC_POINT_new(g);
    BIGNUM *bx = BN_new();
    BN_CTX *c = BN_CTX_new();
    for (unsigned v = 1;; v++) {
        BN_set_word(bx, v);
        if (!EC_POINT_set_compressed_coordinates(g, pt, bx, 0, c))
            break;
    }
    BN_bn2binpad(bx, x, 32);
    BN_CTX_free(c);
    BN_free(bx);
    EC_POINT_free(pt);
    EC_GROUP_free(g);
}

static void test_pubkey_bytes(void)
{
    unsigned char buf[100], g[65];
    sec1_g(g);
    memset(buf, 0, sizeof buf);
    memcpy(buf, g, 65);

    expect_pub(g, 65, FASTSM2_OK, "G");
    /* Wrong lengths. */
    static const size_t lens[] = {0, 1, 32, 34, 64, 66, 100};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        expect_pub(buf, lens[i], FASTSM2_ERR_LENGTH, "wrong length");

    /* Bad prefixes with the right length. */
    static const unsigned char prefixes65[] = {0x00, 0x01, 0x02, 0x03, 0x05, 0x06, 0x07, 0xFF};
    for (size_t i = 0; i < sizeof prefixes65; i++) {
        memcpy(buf, g, 65);
        buf[0] = prefixes65[i];
        expect_pub(buf, 65, FASTSM2_ERR_POINT, "65-byte bad prefix");
    }
    static const unsigned char prefixes33[] = {0x00, 0x01, 0x04, 0x05, 0xFF};
    for (size_t i = 0; i < sizeof prefixes33; i++) {
        memcpy(buf, g, 33);
        buf[0] = prefixes33[i];
        expect_pub(buf, 33, FASTSM2_ERR_POINT, "33-byte bad prefix");
    }
    /* Compressed G, both parities (one of them is -G): both valid. */
    memcpy(buf, g, 33);
    buf[0] = 0x02;
    expect_pub(buf, 33, FASTSM2_OK, "02||Gx");
    buf[0] = 0x03;
    expect_pub(buf, 33, FASTSM2_OK, "03||Gx");

    /* Coordinates >= p. */
    unsigned char p[32];
    p_bytes(p);
    memcpy(buf, g, 65);
    memcpy(buf + 1, p, 32);
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "x = p");
    memcpy(buf, g, 65);
    memcpy(buf + 33, p, 32);
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "y = p");
    /* Gx + p and Gy + p do not fit in 32 bytes: use 2^256-1 and p+1. */
    memcpy(buf, g, 65);
    memset(buf + 1, 0xFF, 32);
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "x = 2^256-1");
    memcpy(buf, g, 65);
    memcpy(buf + 33, p, 32);
    be_add(buf + 33, 1);
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "y = p+1");
    /* (Gx, p - Gy) is -G: valid. (Gx, Gy + p) cannot be written. */
    memcpy(buf, g, 65);
    memcpy(buf + 33, GY, 32);
    be_rsub(buf + 33, p);
    expect_pub(buf, 65, FASTSM2_OK, "-G");

    /* Off the curve: y + 1, y - 1, x + 1, (0, 0). */
    memcpy(buf, g, 65);
    be_add(buf + 33, 1);
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "(Gx, Gy+1)");
    memcpy(buf, g, 65);
    buf[64] ^= 1;
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "(Gx, Gy^1)");
    memcpy(buf, g, 65);
    be_add(buf + 1, 1);
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "(Gx+1, Gy)");
    memset(buf, 0, 65);
    buf[0] = 0x04;
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "(0, 0)");

    /* Compressed: x with no point, x = p, x = 2^256-1. */
    unsigned char x[32];
    find_x_off_curve(x);
    buf[0] = 0x02;
    memcpy(buf + 1, x, 32);
    expect_pub(buf, 33, FASTSM2_ERR_POINT, "02||x off the curve");
    buf[0] = 0x03;
    expect_pub(buf, 33, FASTSM2_ERR_POINT, "03||x off the curve");
    memcpy(buf + 1, p, 32);
    expect_pub(buf, 33, FASTSM2_ERR_POINT, "03||p");
    memset(buf + 1, 0xFF, 32);
    expect_pub(buf, 33, FASTSM2_ERR_POINT, "03||2^256-1");
    /* The same x uncompressed with any y. */
    buf[0] = 0x04;
    memcpy(buf + 1, x, 32);
    memcpy(buf + 33, GY, 32);
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "04||x off the curve");

    /* Bare-point parsing through fastsm2_pubkey_parse agrees. */
    fastsm2_pubkey pub;
    memcpy(buf, g, 65);
    be_add(buf + 33, 1);
    memset(&pub, 0xAA, sizeof pub);
    CHECK(fastsm2_pubkey_parse(&pub, buf, 65) < 0);
    CHECK(all_zero(&pub, sizeof pub));
}

/* ---------------------------------------------------------------------- */

static void test_signature_ranges(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    unsigned char d[32] = {0x12, 0x34};
    d[31] = 0x56;
    CHECK_STATUS(fastsm2_privkey_from_bytes(&key, d), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);

    const char msg[] = "range checks";
    unsigned char e[32], z[32], good[64];
    CHECK_STATUS(fastsm2_compute_z(z, &pub, NULL, 0), FASTSM2_OK);
    {
        fastsm2_sm3_ctx h;
        fastsm2_sm3_init(&h);
        fastsm2_sm3_update(&h, z, 32);
        fastsm2_sm3_update(&h, msg, sizeof msg - 1);
        fastsm2_sm3_final(e, &h);
    }
    CHECK_STATUS(fastsm2_sign(good, &key, NULL, 0, msg, sizeof msg - 1), FASTSM2_OK);
    CHECK(vb(fastsm2_verify(&pub, NULL, 0, msg, sizeof msg - 1, good)) == 1);
    CHECK(vb(fastsm2_verify_digest(&pub, e, good)) == 1);

    /* Each case: a signature and its expected status. */
    unsigned char sig[64];
    for (int c = 0; c < 9; c++) {
        memcpy(sig, good, 64);
        int want = FASTSM2_ERR_SIG_RANGE;
        const char *what = "";
        switch (c) {
        case 0: memset(sig, 0, 32); what = "r = 0"; break;
        case 1: memset(sig + 32, 0, 32); what = "s = 0"; break;
        case 2: memcpy(sig, N_BYTES, 32); what = "r = n"; break;
        case 3: memcpy(sig + 32, N_BYTES, 32); what = "s = n"; break;
        case 4: /* s = n - r */
            memcpy(sig + 32, sig, 32);
            be_rsub(sig + 32, N_BYTES);
            what = "r + s = n";
            break;
        case 5: memset(sig, 0xFF, 32); what = "r = 2^256-1"; break;
        case 6: memset(sig + 32, 0xFF, 32); what = "s = 2^256-1"; break;
        case 7: memset(sig, 0, 64); what = "r = s = 0"; break;
        case 8: /* valid ranges, wrong value */
            sig[40] ^= 0x10;
            want = FASTSM2_ERR_BAD_SIGNATURE;
            what = "wrong s";
            break;
        }
        int st1 = fastsm2_verify_status(&pub, NULL, 0, msg, sizeof msg - 1, sig);
        int st2 = fastsm2_verify_digest_status(&pub, e, sig);
        if (st1 != want || st2 != want)
            fprintf(stderr, "signature case %s\n", what);
        CHECK_STATUS(st1, want);
        CHECK_STATUS(st2, want);
        CHECK(vb(fastsm2_verify(&pub, NULL, 0, msg, sizeof msg - 1, sig)) == 0);
        CHECK(vb(fastsm2_verify_digest(&pub, e, sig)) == 0);
    }
    /* r = n - 1 and s = n - 1 are in range: a bad signature, not a range
     * error (r + s = 2n - 2 != n). */
    memcpy(sig, N_BYTES, 32);
    sig[31] -= 1;
    memcpy(sig + 32, sig, 32);
    CHECK_STATUS(fastsm2_verify_digest_status(&pub, e, sig), FASTSM2_ERR_BAD_SIGNATURE);
    CHECK(vb(fastsm2_verify_digest(&pub, e, sig)) == 0);

    /* sig_from_der: r = 0, r = n are range errors; junk is a DER error;
     * the output is zeroed. */
    {
        unsigned char der[80], out[64];
        size_t n = 0;
        der[n++] = 0x30;
        der[n++] = 3 + 35;
        der[n++] = 0x02; der[n++] = 0x01; der[n++] = 0x00; /* r = 0 */
        der[n++] = 0x02; der[n++] = 0x21; der[n++] = 0x00;
        memcpy(der + n, good + 32, 32);
        n += 32;
        if (!(good[32] & 0x80)) { /* keep s minimal: drop the 00 */
            der[1] -= 1;
            der[6] = 0x20;
            memmove(der + 7, der + 8, 32);
            n--;
        }
        memset(out, 0xAA, 64);
        CHECK_STATUS(fastsm2_sig_from_der(out, der, n), FASTSM2_ERR_SIG_RANGE);
        CHECK(all_zero(out, 64));
        static const unsigned char junk[] = {0x30, 0x03, 0x02, 0x01};
        memset(out, 0xAA, 64);
        CHECK_STATUS(fastsm2_sig_from_der(out, junk, sizeof junk), FASTSM2_ERR_DER);
        CHECK(all_zero(out, 64));
        unsigned char nsig[64];
        memcpy(nsig, N_BYTES, 32);
        memcpy(nsig + 32, good + 32, 32);
        size_t dlen = sizeof der;
        CHECK_STATUS(fastsm2_sig_to_der(der, &dlen, nsig), FASTSM2_OK);
        memset(out, 0xAA, 64);
        CHECK_STATUS(fastsm2_sig_from_der(out, der, dlen), FASTSM2_ERR_SIG_RANGE);
        CHECK(all_zero(out, 64));
    }

    /* Nonces: k = 0, n, n + 1, 2^256-1 -> FASTSM2_ERR_SCALAR, sig zeroed;
     * k = 1, n - 1 fine. */
    unsigned char k[32];
    for (int c = 0; c < 6; c++) {
        memset(k, 0, 32);
        int want = FASTSM2_ERR_SCALAR;
        switch (c) {
        case 0: break;
        case 1: memcpy(k, N_BYTES, 32); break;
        case 2: memcpy(k, N_BYTES, 32); k[31] += 1; break;
        case 3: memset(k, 0xFF, 32); break;
        case 4: k[31] = 1; want = FASTSM2_OK; break;
        case 5: memcpy(k, N_BYTES, 32); k[31] -= 1; want = FASTSM2_OK; break;
        }
        memset(sig, 0xAA, 64);
        CHECK_STATUS(fastsm2_sign_digest_with_nonce(sig, &key, e, k), want);
        if (want == FASTSM2_OK)
            CHECK(vb(fastsm2_verify_digest(&pub, e, sig)) == 1);
        else
            CHECK(all_zero(sig, 64));
    }
    fastsm2_privkey_clear(&key);
}

/* ---------------------------------------------------------------------- */

static void test_ids(void)
{
    fastsm2_privkey key, key2;
    fastsm2_pubkey pub, peer;
    CHECK_STATUS(fastsm2_privkey_generate(&key), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_generate(&key2), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&peer, &key2), FASTSM2_OK);

    unsigned char *id = malloc(65537);
    fs2t_rand_bytes(id, 65537);
    const char msg[] = "id checks";
    unsigned char sig[64], good[64], z[32];
    CHECK_STATUS(fastsm2_sign(good, &key, NULL, 0, msg, sizeof msg - 1), FASTSM2_OK);

    static const size_t bad[] = {0, 8192, 8193, 65536};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t idlen = bad[i];
        memset(sig, 0xAA, 64);
        CHECK_STATUS(fastsm2_sign(sig, &key, id, idlen, msg, sizeof msg - 1), FASTSM2_ERR_ID);
        CHECK(all_zero(sig, 64));
        CHECK_STATUS(fastsm2_verify_status(&pub, id, idlen, msg, sizeof msg - 1, good), FASTSM2_ERR_ID);
        CHECK(vb(fastsm2_verify(&pub, id, idlen, msg, sizeof msg - 1, good)) == 0);
        fastsm2_privkey k2 = key;
        fastsm2_pubkey p2 = pub;
        CHECK_STATUS(fastsm2_privkey_set_id(&k2, id, idlen), FASTSM2_ERR_ID);
        CHECK_STATUS(fastsm2_pubkey_set_id(&p2, id, idlen), FASTSM2_ERR_ID);
        memset(z, 0xAA, 32);
        CHECK_STATUS(fastsm2_compute_z(z, &pub, id, idlen), FASTSM2_ERR_ID);
        CHECK(all_zero(z, 32));
        fastsm2_kx_ctx kx;
        CHECK_STATUS(fastsm2_kx_init(&kx, FASTSM2_KX_INITIATOR, &key, id, idlen, &peer, NULL, 0), FASTSM2_ERR_ID);
        CHECK_STATUS(fastsm2_kx_init(&kx, FASTSM2_KX_RESPONDER, &key, NULL, 0, &peer, id, idlen), FASTSM2_ERR_ID);
        CHECK(all_zero(&kx, sizeof kx));
    }

    /* 8191 bytes is the longest allowed: sign / verify / set_id / kx. */
    CHECK_STATUS(fastsm2_sign(sig, &key, id, 8191, msg, sizeof msg - 1), FASTSM2_OK);
    CHECK(vb(fastsm2_verify(&pub, id, 8191, msg, sizeof msg - 1, sig)) == 1);
    CHECK(vb(fastsm2_verify(&pub, id, 8190, msg, sizeof msg - 1, sig)) == 0);
    CHECK(vb(fastsm2_verify(&pub, NULL, 0, msg, sizeof msg - 1, sig)) == 0);
    {
        fastsm2_privkey k2 = key;
        fastsm2_pubkey p2 = pub;
        CHECK_STATUS(fastsm2_privkey_set_id(&k2, id, 8191), FASTSM2_OK);
        CHECK_STATUS(fastsm2_pubkey_set_id(&p2, id, 8191), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sign(sig, &k2, NULL, 0, msg, sizeof msg - 1), FASTSM2_OK);
        CHECK(vb(fastsm2_verify(&p2, NULL, 0, msg, sizeof msg - 1, sig)) == 1);
        CHECK(vb(fastsm2_verify(&pub, id, 8191, msg, sizeof msg - 1, sig)) == 1);
        CHECK(vb(fastsm2_verify(&pub, NULL, 0, msg, sizeof msg - 1, sig)) == 0);
        /* An ID above the cache limit and one at it. */
        CHECK_STATUS(fastsm2_privkey_set_id(&k2, id, FASTSM2_CACHED_ID_MAX + 1), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sign(sig, &k2, NULL, 0, msg, sizeof msg - 1), FASTSM2_OK);
        CHECK(vb(fastsm2_verify(&pub, id, FASTSM2_CACHED_ID_MAX + 1, msg, sizeof msg - 1, sig)) == 1);
        CHECK_STATUS(fastsm2_privkey_set_id(&k2, id, FASTSM2_CACHED_ID_MAX), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sign(sig, &k2, NULL, 0, msg, sizeof msg - 1), FASTSM2_OK);
        CHECK(vb(fastsm2_verify(&pub, id, FASTSM2_CACHED_ID_MAX, msg, sizeof msg - 1, sig)) == 1);
    }
    {
        fastsm2_kx_ctx kx;
        CHECK_STATUS(fastsm2_kx_init(&kx, FASTSM2_KX_INITIATOR, &key, id, 8191, &peer, id, 8191), FASTSM2_OK);
        fastsm2_kx_clear(&kx);
    }
    free(id);
    fastsm2_privkey_clear(&key);
    fastsm2_privkey_clear(&key2);
}

/* ---------------------------------------------------------------------- */

#define MSGLEN 20

static void expect_decrypt(const fastsm2_privkey *key, const unsigned char *ct, size_t ctlen, int flags, int want,
                           const char *what, size_t pos)
{
    unsigned char out[MSGLEN + 64];
    size_t outlen = MSGLEN + 32; /* capacity; the rest is a canary */
    memset(out, 0xAA, sizeof out);
    int st = fastsm2_decrypt(out, &outlen, key, ct, ctlen, flags);
    if (st != want && fs2t_failed < 30)
        fprintf(stderr, "decrypt %s (flags %d, at %zu, len %zu)\n", what, flags, pos, ctlen);
    CHECK_STATUS(st, want);
    if (want != FASTSM2_OK) {
        CHECK(outlen == 0);
        CHECK(all_zero(out, MSGLEN + 32));
    }
    unsigned char canary_ok = 1;
    for (size_t i = MSGLEN + 32; i < sizeof out; i++)
        canary_ok &= out[i] == 0xAA;
    CHECK(canary_ok);
}

/* Build a GM/T 0009 DER ciphertext by hand with the given raw INTEGER
 * contents (already minimal or deliberately not). */
static size_t der_ct(unsigned char *out, const unsigned char *xi, size_t xlen, const unsigned char *yi, size_t ylen,
                     const unsigned char *c3, size_t c3len, const unsigned char *c2, size_t c2len)
{
    size_t body = 2 + xlen + 2 + ylen + 2 + c3len + 2 + c2len, n = 0;
    out[n++] = 0x30;
    if (body >= 0x80)
        out[n++] = 0x81;
    out[n++] = (unsigned char)body;
    out[n++] = 0x02, out[n++] = (unsigned char)xlen;
    memcpy(out + n, xi, xlen), n += xlen;
    out[n++] = 0x02, out[n++] = (unsigned char)ylen;
    memcpy(out + n, yi, ylen), n += ylen;
    out[n++] = 0x04, out[n++] = (unsigned char)c3len;
    memcpy(out + n, c3, c3len), n += c3len;
    out[n++] = 0x04, out[n++] = (unsigned char)c2len;
    memcpy(out + n, c2, c2len), n += c2len;
    return n;
}

/* Minimal INTEGER contents of a 32-byte value. */
static size_t int_contents(unsigned char *out, const unsigned char v[32])
{
    size_t i = 0, n = 0;
    while (i < 31 && v[i] == 0)
        i++;
    if (v[i] & 0x80)
        out[n++] = 0;
    memcpy(out + n, v + i, 32 - i);
    return n + 32 - i;
}

static void test_decrypt_errors(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    CHECK_STATUS(fastsm2_privkey_generate(&key), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);

    unsigned char msg[MSGLEN];
    fs2t_rand_bytes(msg, MSGLEN);
    unsigned char k[32];
    fs2t_rand_bytes(k, 32);
    k[0] = 0x12;

    /* The same encryption in the three layouts. */
    unsigned char raw[200], raw2[200], der[200];
    size_t rawlen = sizeof raw, raw2len = sizeof raw2, derlen = sizeof der;
    CHECK_STATUS(fastsm2_encrypt_with_nonce(raw, &rawlen, &pub, msg, MSGLEN, FASTSM2_CT_RAW, k), FASTSM2_OK);
    CHECK_STATUS(fastsm2_encrypt_with_nonce(raw2, &raw2len, &pub, msg, MSGLEN, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, k),
                 FASTSM2_OK);
    CHECK_STATUS(fastsm2_encrypt_with_nonce(der, &derlen, &pub, msg, MSGLEN, FASTSM2_CT_DER, k), FASTSM2_OK);
    CHECK(rawlen == 97 + MSGLEN && raw2len == 97 + MSGLEN);
    expect_decrypt(&key, raw, rawlen, FASTSM2_CT_RAW, FASTSM2_OK, "valid raw", 0);
    expect_decrypt(&key, raw2, raw2len, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_OK, "valid raw C1C2C3", 0);
    expect_decrypt(&key, der, derlen, FASTSM2_CT_DER, FASTSM2_OK, "valid DER", 0);

    /* Truncated raw ciphertexts of every length 0..97, in a tight heap
     * buffer so that ASan sees any over-read. */
    for (size_t len = 0; len <= 97; len++) {
        unsigned char *t = malloc(len ? len : 1);
        memcpy(t, raw, len);
        expect_decrypt(&key, t, len, FASTSM2_CT_RAW, FASTSM2_ERR_CIPHERTEXT, "truncated raw", len);
        memcpy(t, raw2, len);
        expect_decrypt(&key, t, len, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_ERR_CIPHERTEXT, "truncated raw C1C2C3",
                       len);
        free(t);
    }
    /* Truncated DER of every length (lengths no longer match). */
    for (size_t len = 0; len < derlen; len++) {
        unsigned char *t = malloc(len ? len : 1);
        memcpy(t, der, len);
        expect_decrypt(&key, t, len, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "truncated DER", len);
        free(t);
    }

    /* C1 off the curve, at infinity (prefix 00), bad prefix, x >= p. */
    unsigned char bad[300];
    memcpy(bad, raw, rawlen);
    bad[64] ^= 1;
    expect_decrypt(&key, bad, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_POINT, "C1 off the curve", 64);
    memcpy(bad, raw2, raw2len);
    bad[64] ^= 1;
    expect_decrypt(&key, bad, raw2len, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_ERR_POINT, "C1 off the curve", 64);
    memcpy(bad, raw, rawlen);
    bad[0] = 0x00;
    expect_decrypt(&key, bad, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_POINT, "C1 prefix 00", 0);
    memset(bad, 0, 65);
    memcpy(bad + 65, raw + 65, rawlen - 65);
    expect_decrypt(&key, bad, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_POINT, "C1 all zero", 0);
    memcpy(bad, raw, rawlen);
    bad[0] = 0x05;
    expect_decrypt(&key, bad, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_POINT, "C1 prefix 05", 0);
    {
        unsigned char p[32];
        p_bytes(p);
        memcpy(bad, raw, rawlen);
        memcpy(bad + 1, p, 32);
        expect_decrypt(&key, bad, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_POINT, "C1 x = p", 0);
    }

    /* A flipped byte anywhere in C3 or C2: FASTSM2_ERR_DECRYPT, nothing
     * released. Raw C1C3C2: C3 at 65..96, C2 at 97... */
    for (size_t i = 65; i < rawlen; i++) {
        memcpy(bad, raw, rawlen);
        bad[i] ^= (unsigned char)(1u << (i % 8));
        expect_decrypt(&key, bad, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_DECRYPT, "flipped C3/C2 byte", i);
    }
    /* Raw C1C2C3: C2 at 65..84, C3 after. */
    for (size_t i = 65; i < raw2len; i += 3) {
        memcpy(bad, raw2, raw2len);
        bad[i] ^= 0x80;
        expect_decrypt(&key, bad, raw2len, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_ERR_DECRYPT,
                       "flipped C2/C3 byte", i);
    }
    /* DER: C3 and C2 are the last 32 + 2 + 20 bytes. */
    for (size_t i = derlen - MSGLEN - 2 - 32; i < derlen; i++) {
        if (i == derlen - MSGLEN - 2 || i == derlen - MSGLEN - 1)
            continue; /* the C2 tag and length */
        memcpy(bad, der, derlen);
        bad[i] ^= 0x04;
        expect_decrypt(&key, bad, derlen, FASTSM2_CT_DER, FASTSM2_ERR_DECRYPT, "flipped DER C3/C2 byte", i);
    }
    /* A ciphertext for another key fails the C3 check. */
    {
        fastsm2_privkey other;
        CHECK_STATUS(fastsm2_privkey_generate(&other), FASTSM2_OK);
        expect_decrypt(&other, raw, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_DECRYPT, "other key", 0);
        fastsm2_privkey_clear(&other);
    }

    /* Malformed DER. */
    {
        unsigned char x[32], y[32], xi[40], yi[40], c3[32], c2[MSGLEN];
        memcpy(x, raw + 1, 32);
        memcpy(y, raw + 33, 32);
        memcpy(c3, raw + 65, 32);
        memcpy(c2, raw + 97, MSGLEN);
        size_t xl = int_contents(xi, x), yl = int_contents(yi, y), n;

        n = der_ct(bad, xi, xl, yi, yl, c3, 32, c2, MSGLEN);
        CHECK(n == derlen && memcmp(bad, der, n) == 0); /* our writer matches theirs */

        /* Wrong outer tag; trailing byte; C3 of 31 and 33 bytes; empty C2. */
        bad[0] = 0x31;
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "outer tag 31", 0);
        memcpy(bad, der, derlen);
        bad[derlen] = 0x00;
        expect_decrypt(&key, bad, derlen + 1, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "trailing byte", 0);
        n = der_ct(bad, xi, xl, yi, yl, c3, 31, c2, MSGLEN);
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "C3 of 31 bytes", 0);
        unsigned char c3x[33];
        memcpy(c3x, c3, 32);
        c3x[32] = 0;
        n = der_ct(bad, xi, xl, yi, yl, c3x, 33, c2, MSGLEN);
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "C3 of 33 bytes", 0);
        n = der_ct(bad, xi, xl, yi, yl, c3, 32, c2, 0);
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "empty C2", 0);

        /* Non-minimal INTEGER: an extra leading 00 before x. */
        unsigned char xi2[41];
        xi2[0] = 0;
        memcpy(xi2 + 1, xi, xl);
        n = der_ct(bad, xi2, xl + 1, yi, yl, c3, 32, c2, MSGLEN);
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "non-minimal x", 0);

        /* Negative INTEGER: y without its leading 00 when the top bit is
         * set, otherwise x = -1 as a one-byte FF. */
        if (yi[0] == 0 && yl == 33) {
            n = der_ct(bad, xi, xl, yi + 1, 32, c3, 32, c2, MSGLEN);
            expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "negative y", 0);
        }
        unsigned char ff = 0xFF;
        n = der_ct(bad, &ff, 1, yi, yl, c3, 32, c2, MSGLEN);
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "x = -1", 0);

        /* An INTEGER wider than 256 bits: 01 || x. */
        unsigned char wide[34];
        wide[0] = 0x01;
        memcpy(wide + 1, x, 32);
        n = der_ct(bad, wide, 33, yi, yl, c3, 32, c2, MSGLEN);
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "x of 257 bits", 0);

        /* Wrong inner tags: C3 as INTEGER, x as OCTET STRING. */
        memcpy(bad, der, derlen);
        bad[derlen - MSGLEN - 2 - 34] = 0x02;
        expect_decrypt(&key, bad, derlen, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "C3 tag", 0);
        memcpy(bad, der, derlen);
        bad[2] = 0x04;
        expect_decrypt(&key, bad, derlen, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "x tag", 0);

        /* Outer length too long / too short by one; indefinite length. */
        if (der[1] < 0x80) {
            memcpy(bad, der, derlen);
            bad[1] += 1;
            expect_decrypt(&key, bad, derlen, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "outer length +1", 0);
            bad[1] -= 2;
            expect_decrypt(&key, bad, derlen, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "outer length -1", 0);
            bad[1] = 0x80;
            bad[derlen] = 0;
            bad[derlen + 1] = 0;
            expect_decrypt(&key, bad, derlen + 2, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "indefinite length", 0);
            /* Non-minimal long form 81 xx for a length < 128. */
            bad[0] = 0x30;
            bad[1] = 0x81;
            bad[2] = der[1];
            memcpy(bad + 3, der + 2, derlen - 2);
            expect_decrypt(&key, bad, derlen + 1, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "non-minimal length", 0);
        }
        /* C2 length claiming more than is there. */
        memcpy(bad, der, derlen);
        bad[derlen - MSGLEN - 1] = MSGLEN + 1;
        expect_decrypt(&key, bad, derlen, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "C2 length +1", 0);

        /* A well-formed DER whose C1 is off the curve. */
        unsigned char y2[32];
        memcpy(y2, y, 32);
        y2[31] ^= 1;
        size_t yl2 = int_contents(yi, y2);
        n = der_ct(bad, xi, xl, yi, yl2, c3, 32, c2, MSGLEN);
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_POINT, "DER C1 off the curve", 0);

        /* A raw ciphertext given to the DER decoder. */
        expect_decrypt(&key, raw, rawlen, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "raw as DER", 0);
    }

    /* Output buffer too small (capacity MSGLEN - 1, and 0): the capacity is
     * zeroed, nothing past it is written. */
    {
        const unsigned char *cts[3] = {raw, raw2, der};
        size_t lens[3] = {rawlen, raw2len, derlen};
        int fl[3] = {FASTSM2_CT_RAW, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_CT_DER};
        for (int i = 0; i < 3; i++) {
            unsigned char out[MSGLEN + 8];
            size_t caps[2] = {MSGLEN - 1, 0};
            for (int c = 0; c < 2; c++) {
                size_t outlen = caps[c];
                memset(out, 0xAA, sizeof out);
                CHECK_STATUS(fastsm2_decrypt(out, &outlen, &key, cts[i], lens[i], fl[i]),
                             FASTSM2_ERR_BUFFER_TOO_SMALL);
                CHECK(outlen == 0 && all_zero(out, caps[c]));
                int canary = 1;
                for (size_t j = caps[c]; j < sizeof out; j++)
                    canary &= out[j] == 0xAA;
                CHECK(canary);
            }
        }
    }

    /* Encrypt into too small a buffer: raw needs exactly 97 + msglen,
     * DER its exact length. */
    {
        unsigned char out[300];
        int fl[3] = {FASTSM2_CT_RAW, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_CT_DER};
        size_t need[3] = {rawlen, raw2len, derlen};
        for (int i = 0; i < 3; i++) {
            size_t outlen = need[i] - 1;
            memset(out, 0xAA, sizeof out);
            CHECK_STATUS(fastsm2_encrypt_with_nonce(out, &outlen, &pub, msg, MSGLEN, fl[i], k),
                         FASTSM2_ERR_BUFFER_TOO_SMALL);
            CHECK(outlen == 0 && all_zero(out, need[i] - 1) && out[need[i] - 1] == 0xAA);
            outlen = need[i] - 1;
            memset(out, 0xAA, sizeof out);
            CHECK_STATUS(fastsm2_encrypt(out, &outlen, &pub, msg, MSGLEN, fl[i]), FASTSM2_ERR_BUFFER_TOO_SMALL);
            CHECK(outlen == 0 && all_zero(out, need[i] - 1));
            outlen = 0;
            CHECK_STATUS(fastsm2_encrypt(out, &outlen, &pub, msg, MSGLEN, fl[i]), FASTSM2_ERR_BUFFER_TOO_SMALL);
            CHECK(outlen == 0);
            /* ciphertext_size() is always enough. */
            outlen = fastsm2_ciphertext_size(MSGLEN, fl[i]);
            CHECK(outlen >= need[i] && outlen <= sizeof out);
            CHECK_STATUS(fastsm2_encrypt(out, &outlen, &pub, msg, MSGLEN, fl[i]), FASTSM2_OK);
        }
        /* Nonces out of range. */
        unsigned char kk[32];
        memset(kk, 0, 32);
        size_t outlen = sizeof out;
        memset(out, 0xAA, sizeof out);
        CHECK_STATUS(fastsm2_encrypt_with_nonce(out, &outlen, &pub, msg, MSGLEN, 0, kk), FASTSM2_ERR_SCALAR);
        CHECK(outlen == 0 && all_zero(out, sizeof out));
        memcpy(kk, N_BYTES, 32);
        outlen = sizeof out;
        CHECK_STATUS(fastsm2_encrypt_with_nonce(out, &outlen, &pub, msg, MSGLEN, 0, kk), FASTSM2_ERR_SCALAR);
        CHECK(outlen == 0);
    }
    fastsm2_privkey_clear(&key);
}

/* ---------------------------------------------------------------------- */

static void test_kx_errors(void)
{
    fastsm2_privkey ka, kb;
    fastsm2_pubkey pa, pb;
    CHECK_STATUS(fastsm2_privkey_generate(&ka), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_generate(&kb), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pa, &ka), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pb, &kb), FASTSM2_OK);

    fastsm2_kx_ctx a, b;
    unsigned char ra[65], rb[65], key[32], conf[32];

    /* Bad role. */
    memset(&a, 0xAA, sizeof a);
    CHECK_STATUS(fastsm2_kx_init(&a, 2, &ka, NULL, 0, &pb, NULL, 0), FASTSM2_ERR_ARG);
    CHECK(all_zero(&a, sizeof a));
    CHECK_STATUS(fastsm2_kx_init(&a, -1, &ka, NULL, 0, &pb, NULL, 0), FASTSM2_ERR_ARG);

    CHECK_STATUS(fastsm2_kx_init(&a, FASTSM2_KX_INITIATOR, &ka, NULL, 0, &pb, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_kx_init(&b, FASTSM2_KX_RESPONDER, &kb, NULL, 0, &pa, NULL, 0), FASTSM2_OK);

    /* Out of order: compute / confirmation before start. */
    CHECK_STATUS(fastsm2_kx_start(&b, rb), FASTSM2_OK);
    memset(key, 0xAA, sizeof key);
    CHECK_STATUS(fastsm2_kx_compute(&a, key, 16, rb, 65), FASTSM2_ERR_STATE);
    CHECK(all_zero(key, 16));
    memset(conf, 0xAA, 32);
    CHECK_STATUS(fastsm2_kx_confirmation(conf, &a), FASTSM2_ERR_STATE);
    CHECK(all_zero(conf, 32));
    CHECK_STATUS(fastsm2_kx_verify_confirmation(&a, conf), FASTSM2_ERR_STATE);

    /* Started, not computed: confirmation still out of order. */
    CHECK_STATUS(fastsm2_kx_start(&a, ra), FASTSM2_OK);
    memset(conf, 0xAA, 32);
    CHECK_STATUS(fastsm2_kx_confirmation(conf, &a), FASTSM2_ERR_STATE);
    CHECK(all_zero(conf, 32));
    CHECK_STATUS(fastsm2_kx_verify_confirmation(&a, conf), FASTSM2_ERR_STATE);
    CHECK_STATUS(fastsm2_kx_confirmation(conf, &b), FASTSM2_ERR_STATE);

    /* Bad peer R: off the curve, prefix 00, all zero, x >= p, wrong length. */
    unsigned char badR[70];
    struct {
        int kind;
        size_t len;
        int want;
        const char *what;
    } rc[] = {{0, 65, FASTSM2_ERR_POINT, "R off the curve"}, {1, 65, FASTSM2_ERR_POINT, "R prefix 00"},
              {2, 65, FASTSM2_ERR_POINT, "R all zero"},      {3, 65, FASTSM2_ERR_POINT, "R x = p"},
              {4, 64, FASTSM2_ERR_LENGTH, "R of 64 bytes"},  {4, 66, FASTSM2_ERR_LENGTH, "R of 66 bytes"},
              {4, 0, FASTSM2_ERR_LENGTH, "R of 0 bytes"},    {5, 65, FASTSM2_ERR_POINT, "R prefix 05"}};
    for (size_t i = 0; i < sizeof rc / sizeof rc[0]; i++) {
        memcpy(badR, ra, 65);
        badR[65] = 0;
        switch (rc[i].kind) {
        case 0: badR[64] ^= 1; break;
        case 1: badR[0] = 0; break;
        case 2: memset(badR, 0, 65); break;
        case 3: p_bytes(badR + 1); break;
        case 5: badR[0] = 5; break;
        default: break;
        }
        fastsm2_kx_ctx b2 = b;
        memset(key, 0xAA, sizeof key);
        int st = fastsm2_kx_compute(&b2, key, 16, badR, rc[i].len);
        if (st != rc[i].want)
            fprintf(stderr, "kx_compute: %s\n", rc[i].what);
        CHECK_STATUS(st, rc[i].want);
        CHECK(all_zero(key, 16));
        fastsm2_kx_clear(&b2);
    }
    /* klen 0 is meaningless: an error (FASTSM2_ERR_ARG or _LENGTH). */
    {
        fastsm2_kx_ctx b2 = b;
        int st = fastsm2_kx_compute(&b2, key, 0, ra, 65);
        CHECK(st == FASTSM2_ERR_ARG || st == FASTSM2_ERR_LENGTH);
        fastsm2_kx_clear(&b2);
    }
    /* R nonces out of range. */
    {
        fastsm2_kx_ctx c;
        unsigned char r[32], R[65];
        CHECK_STATUS(fastsm2_kx_init(&c, FASTSM2_KX_INITIATOR, &ka, NULL, 0, &pb, NULL, 0), FASTSM2_OK);
        memset(r, 0, 32);
        memset(R, 0xAA, 65);
        CHECK_STATUS(fastsm2_kx_start_with_nonce(&c, R, r), FASTSM2_ERR_SCALAR);
        CHECK(all_zero(R, 65));
        memcpy(r, N_BYTES, 32);
        memset(R, 0xAA, 65);
        CHECK_STATUS(fastsm2_kx_start_with_nonce(&c, R, r), FASTSM2_ERR_SCALAR);
        CHECK(all_zero(R, 65));
        fastsm2_kx_clear(&c);
    }

    /* The real exchange still works after all that. */
    unsigned char k1[16], k2[16];
    CHECK_STATUS(fastsm2_kx_compute(&b, k2, 16, ra, 65), FASTSM2_OK);
    CHECK_STATUS(fastsm2_kx_compute(&a, k1, 16, rb, 65), FASTSM2_OK);
    CHECK(memcmp(k1, k2, 16) == 0);
    CHECK_STATUS(fastsm2_kx_confirmation(conf, &b), FASTSM2_OK);
    CHECK_STATUS(fastsm2_kx_verify_confirmation(&a, conf), FASTSM2_OK);
    conf[0] ^= 1;
    CHECK_STATUS(fastsm2_kx_verify_confirmation(&a, conf), FASTSM2_ERR_CONFIRM);

    fastsm2_kx_clear(&a);
    fastsm2_kx_clear(&b);
    fastsm2_privkey_clear(&ka);
    fastsm2_privkey_clear(&kb);
}

/* ---------------------------------------------------------------------- */

static void test_null_pointers(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    CHECK_STATUS(fastsm2_privkey_generate(&key), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);
    unsigned char d[32], e[32] = {9}, k[32] = {0, 1}, sig[64], buf[512], g[65];
    size_t len;
    const char msg[] = "msg";
    CHECK_STATUS(fastsm2_privkey_to_bytes(d, &key), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sign_digest(sig, &key, e), FASTSM2_OK);
    sec1_g(g);

    const int A = FASTSM2_ERR_ARG;
    CHECK_STATUS(fastsm2_kdf(NULL, 5, "z", 1), A);
    CHECK_STATUS(fastsm2_kdf(buf, 5, NULL, 1), A);

    CHECK_STATUS(fastsm2_privkey_generate(NULL), A);
    CHECK_STATUS(fastsm2_privkey_from_bytes(NULL, d), A);
    {
        fastsm2_privkey t;
        memset(&t, 0xAA, sizeof t);
        CHECK_STATUS(fastsm2_privkey_from_bytes(&t, NULL), A);
        CHECK(all_zero(&t, sizeof t));
    }
    CHECK_STATUS(fastsm2_privkey_to_bytes(NULL, &key), A);
    memset(buf, 0xAA, 32);
    CHECK_STATUS(fastsm2_privkey_to_bytes(buf, NULL), A);
    CHECK(all_zero(buf, 32));
    CHECK_STATUS(fastsm2_privkey_pubkey(NULL, &key), A);
    {
        fastsm2_pubkey t;
        memset(&t, 0xAA, sizeof t);
        CHECK_STATUS(fastsm2_privkey_pubkey(&t, NULL), A);
        CHECK(all_zero(&t, sizeof t));
        memset(&t, 0xAA, sizeof t);
        CHECK_STATUS(fastsm2_pubkey_from_bytes(&t, NULL, 65), A);
        CHECK(all_zero(&t, sizeof t));
    }
    fastsm2_privkey_clear(NULL);
    fastsm2_kx_clear(NULL);
    CHECK_STATUS(fastsm2_pubkey_from_bytes(NULL, g, 65), A);

    len = sizeof buf;
    CHECK_STATUS(fastsm2_pubkey_to_bytes(NULL, &len, &pub, 0), A);
    CHECK_STATUS(fastsm2_pubkey_to_bytes(buf, NULL, &pub, 0), A);
    len = sizeof buf;
    memset(buf, 0xAA, sizeof buf);
    CHECK_STATUS(fastsm2_pubkey_to_bytes(buf, &len, NULL, 0), A);
    CHECK(len == 0 && all_zero(buf, sizeof buf));

    CHECK_STATUS(fastsm2_privkey_set_id(NULL, "id", 2), A);
    {
        fastsm2_privkey t = key;
        fastsm2_pubkey tp = pub;
        CHECK_STATUS(fastsm2_privkey_set_id(&t, NULL, 2), A);
        CHECK_STATUS(fastsm2_pubkey_set_id(&tp, NULL, 2), A);
    }
    CHECK_STATUS(fastsm2_pubkey_set_id(NULL, "id", 2), A);
    CHECK_STATUS(fastsm2_compute_z(NULL, &pub, NULL, 0), A);
    memset(buf, 0xAA, 32);
    CHECK_STATUS(fastsm2_compute_z(buf, NULL, NULL, 0), A);
    CHECK(all_zero(buf, 32));

    CHECK_STATUS(fastsm2_privkey_parse(NULL, g, 65), A);
    CHECK_STATUS(fastsm2_privkey_parse(&(fastsm2_privkey){{0}}, NULL, 65), A);
    CHECK_STATUS(fastsm2_pubkey_parse(NULL, g, 65), A);
    CHECK_STATUS(fastsm2_pubkey_parse(&(fastsm2_pubkey){{0}}, NULL, 65), A);
    len = sizeof buf;
    CHECK_STATUS(fastsm2_privkey_serialize(NULL, &len, &key, FASTSM2_KEYFMT_PEM), A);
    CHECK_STATUS(fastsm2_privkey_serialize(buf, NULL, &key, FASTSM2_KEYFMT_PEM), A);
    len = sizeof buf;
    memset(buf, 0xAA, sizeof buf);
    CHECK_STATUS(fastsm2_privkey_serialize(buf, &len, NULL, FASTSM2_KEYFMT_PEM), A);
    CHECK(len == 0 && all_zero(buf, sizeof buf));
    len = sizeof buf;
    CHECK_STATUS(fastsm2_pubkey_serialize(NULL, &len, &pub, FASTSM2_KEYFMT_DER), A);
    CHECK_STATUS(fastsm2_pubkey_serialize(buf, NULL, &pub, FASTSM2_KEYFMT_DER), A);
    len = sizeof buf;
    CHECK_STATUS(fastsm2_pubkey_serialize(buf, &len, NULL, FASTSM2_KEYFMT_DER), A);
    CHECK(len == 0);

    /* Signatures. */
    unsigned char s2[64];
    CHECK_STATUS(fastsm2_sign(NULL, &key, NULL, 0, msg, 3), A);
    memset(s2, 0xAA, 64);
    CHECK_STATUS(fastsm2_sign(s2, NULL, NULL, 0, msg, 3), A);
    CHECK(all_zero(s2, 64));
    memset(s2, 0xAA, 64);
    CHECK_STATUS(fastsm2_sign(s2, &key, NULL, 0, NULL, 3), A);
    CHECK(all_zero(s2, 64));
    CHECK_STATUS(fastsm2_sign_digest(NULL, &key, e), A);
    memset(s2, 0xAA, 64);
    CHECK_STATUS(fastsm2_sign_digest(s2, NULL, e), A);
    CHECK(all_zero(s2, 64));
    CHECK_STATUS(fastsm2_sign_digest(s2, &key, NULL), A);
    CHECK_STATUS(fastsm2_sign_digest_with_nonce(NULL, &key, e, k), A);
    CHECK_STATUS(fastsm2_sign_digest_with_nonce(s2, NULL, e, k), A);
    CHECK_STATUS(fastsm2_sign_digest_with_nonce(s2, &key, NULL, k), A);
    memset(s2, 0xAA, 64);
    CHECK_STATUS(fastsm2_sign_digest_with_nonce(s2, &key, e, NULL), A);
    CHECK(all_zero(s2, 64));

    CHECK(vb(fastsm2_verify(NULL, NULL, 0, msg, 3, sig)) == 0);
    CHECK(vb(fastsm2_verify(&pub, NULL, 0, NULL, 3, sig)) == 0);
    CHECK(vb(fastsm2_verify(&pub, NULL, 0, msg, 3, NULL)) == 0);
    CHECK(vb(fastsm2_verify_digest(NULL, e, sig)) == 0);
    CHECK(vb(fastsm2_verify_digest(&pub, NULL, sig)) == 0);
    CHECK(vb(fastsm2_verify_digest(&pub, e, NULL)) == 0);
    CHECK(vb(fastsm2_verify_digest(&pub, e, sig)) == 1);
    CHECK_STATUS(fastsm2_verify_status(NULL, NULL, 0, msg, 3, sig), A);
    CHECK_STATUS(fastsm2_verify_status(&pub, NULL, 0, NULL, 3, sig), A);
    CHECK_STATUS(fastsm2_verify_status(&pub, NULL, 0, msg, 3, NULL), A);
    CHECK_STATUS(fastsm2_verify_digest_status(NULL, e, sig), A);
    CHECK_STATUS(fastsm2_verify_digest_status(&pub, NULL, sig), A);
    CHECK_STATUS(fastsm2_verify_digest_status(&pub, e, NULL), A);

    len = sizeof buf;
    CHECK_STATUS(fastsm2_sig_to_der(NULL, &len, sig), A);
    CHECK_STATUS(fastsm2_sig_to_der(buf, NULL, sig), A);
    len = sizeof buf;
    CHECK_STATUS(fastsm2_sig_to_der(buf, &len, NULL), A);
    CHECK(len == 0);
    CHECK_STATUS(fastsm2_sig_from_der(NULL, buf, 8), A);
    memset(s2, 0xAA, 64);
    CHECK_STATUS(fastsm2_sig_from_der(s2, NULL, 8), A);
    CHECK(all_zero(s2, 64));

    /* Encryption. */
    len = sizeof buf;
    CHECK_STATUS(fastsm2_encrypt(NULL, &len, &pub, msg, 3, 0), A);
    CHECK_STATUS(fastsm2_encrypt(buf, NULL, &pub, msg, 3, 0), A);
    len = sizeof buf;
    memset(buf, 0xAA, sizeof buf);
    CHECK_STATUS(fastsm2_encrypt(buf, &len, NULL, msg, 3, 0), A);
    CHECK(len == 0 && all_zero(buf, sizeof buf));
    len = sizeof buf;
    CHECK_STATUS(fastsm2_encrypt(buf, &len, &pub, NULL, 3, 0), A);
    CHECK(len == 0);
    len = sizeof buf;
    CHECK_STATUS(fastsm2_encrypt_with_nonce(buf, &len, &pub, msg, 3, 0, NULL), A);
    CHECK(len == 0);
    unsigned char ct[200];
    size_t ctlen = sizeof ct;
    CHECK_STATUS(fastsm2_encrypt(ct, &ctlen, &pub, msg, 3, FASTSM2_CT_RAW), FASTSM2_OK);
    len = sizeof buf;
    CHECK_STATUS(fastsm2_decrypt(NULL, &len, &key, ct, ctlen, FASTSM2_CT_RAW), A);
    CHECK_STATUS(fastsm2_decrypt(buf, NULL, &key, ct, ctlen, FASTSM2_CT_RAW), A);
    len = sizeof buf;
    memset(buf, 0xAA, sizeof buf);
    CHECK_STATUS(fastsm2_decrypt(buf, &len, NULL, ct, ctlen, FASTSM2_CT_RAW), A);
    CHECK(len == 0 && all_zero(buf, sizeof buf));
    len = sizeof buf;
    CHECK_STATUS(fastsm2_decrypt(buf, &len, &key, NULL, ctlen, FASTSM2_CT_RAW), A);
    CHECK(len == 0);

    /* Key exchange. */
    fastsm2_kx_ctx c;
    unsigned char R[65];
    CHECK_STATUS(fastsm2_kx_init(NULL, 0, &key, NULL, 0, &pub, NULL, 0), A);
    CHECK_STATUS(fastsm2_kx_init(&c, 0, NULL, NULL, 0, &pub, NULL, 0), A);
    CHECK_STATUS(fastsm2_kx_init(&c, 0, &key, NULL, 0, NULL, NULL, 0), A);
    CHECK_STATUS(fastsm2_kx_init(&c, 0, &key, NULL, 0, &pub, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_kx_start(NULL, R), A);
    CHECK_STATUS(fastsm2_kx_start(&c, NULL), A);
    CHECK_STATUS(fastsm2_kx_start_with_nonce(NULL, R, k), A);
    CHECK_STATUS(fastsm2_kx_start_with_nonce(&c, NULL, k), A);
    memset(R, 0xAA, 65);
    CHECK_STATUS(fastsm2_kx_start_with_nonce(&c, R, NULL), A);
    CHECK(all_zero(R, 65));
    CHECK_STATUS(fastsm2_kx_start(&c, R), FASTSM2_OK);
    CHECK_STATUS(fastsm2_kx_compute(NULL, buf, 16, R, 65), A);
    CHECK_STATUS(fastsm2_kx_compute(&c, NULL, 16, R, 65), A);
    memset(buf, 0xAA, 16);
    CHECK_STATUS(fastsm2_kx_compute(&c, buf, 16, NULL, 65), A);
    CHECK(all_zero(buf, 16));
    CHECK_STATUS(fastsm2_kx_confirmation(NULL, &c), A);
    memset(buf, 0xAA, 32);
    CHECK_STATUS(fastsm2_kx_confirmation(buf, NULL), A);
    CHECK(all_zero(buf, 32));
    CHECK_STATUS(fastsm2_kx_verify_confirmation(NULL, buf), A);
    CHECK_STATUS(fastsm2_kx_verify_confirmation(&c, NULL), A);
    fastsm2_kx_clear(&c);

    /* Batches. */
    int res[2];
    CHECK_STATUS(fastsm2_sign_digest_batch(NULL, &key, 1, e, 1, 1), A);
    CHECK_STATUS(fastsm2_sign_digest_batch(buf, NULL, 1, e, 1, 1), A);
    CHECK_STATUS(fastsm2_sign_digest_batch(buf, &key, 1, NULL, 1, 1), A);
    CHECK_STATUS(fastsm2_verify_digest_batch(NULL, &pub, 1, e, sig, 1, 1), A);
    CHECK_STATUS(fastsm2_verify_digest_batch(res, NULL, 1, e, sig, 1, 1), A);
    CHECK_STATUS(fastsm2_verify_digest_batch(res, &pub, 1, NULL, sig, 1, 1), A);
    CHECK_STATUS(fastsm2_verify_digest_batch(res, &pub, 1, e, NULL, 1, 1), A);
    /* nkeys / npubs must be 1 or n. */
    {
        unsigned char ds[3 * 32] = {1}, sigs[3 * 64];
        fastsm2_privkey keys[2] = {key, key};
        fastsm2_pubkey pubs[2] = {pub, pub};
        int r3[3];
        memset(sigs, 0xAA, sizeof sigs);
        CHECK_STATUS(fastsm2_sign_digest_batch(sigs, keys, 2, ds, 3, 1), A);
        CHECK(all_zero(sigs, sizeof sigs));
        CHECK_STATUS(fastsm2_verify_digest_batch(r3, pubs, 2, ds, sigs, 3, 1), A);
    }

    /* Names of codes, known or not, are never NULL. */
    for (int code = -25; code <= 2; code++) {
        CHECK(fastsm2_strerror(code) != NULL);
        CHECK(fastsm2_error_name(code) != NULL);
    }
    CHECK(strcmp(fastsm2_error_name(FASTSM2_ERR_SIG_RANGE), "FASTSM2_ERR_SIG_RANGE") == 0);
    fastsm2_privkey_clear(&key);
}

int main(void)
{
    test_privkey_range();
    test_pubkey_bytes();
    test_signature_ranges();
    test_ids();
    test_decrypt_errors();
    test_kx_errors();
    test_null_pointers();
    CHECK(verify_non_boolean == 0);
    return fs2t_finish("test_protocol_errors");
}
