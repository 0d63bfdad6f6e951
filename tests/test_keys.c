/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Keys fed bad input (GB/T 32918.1 clause 6: d in [1, n-2], public keys on
 * the curve and not at infinity): the exact FASTSM2_ERR_* code, the output
 * object zeroed, never a crash; the NULL pointers of every key call.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static void test_privkey_range(void)
{
    unsigned char d[32];
    fastsm2_privkey key;
    struct {
        const char *name;
        int want;
    } cases[] = {{"0", FASTSM2_ERR_PRIVATE_KEY},
                 {"n-1", FASTSM2_ERR_PRIVATE_KEY},
                 {"n", FASTSM2_ERR_PRIVATE_KEY},
                 {"n+1", FASTSM2_ERR_PRIVATE_KEY},
                 {"2^256-1", FASTSM2_ERR_PRIVATE_KEY},
                 {"1", FASTSM2_OK},
                 {"n-2", FASTSM2_OK},
                 {"2", FASTSM2_OK}};
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
            memcpy(d, fs2t_n, 32);
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
            CHECK(fs2t_all_zero(&key, sizeof key));
        } else {
            /* A usable key: signs and verifies. */
            fastsm2_pubkey pub;
            unsigned char sig[64], e[32] = {1, 2, 3};
            CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);
            CHECK_STATUS(fastsm2_sign_digest(sig, &key, e), FASTSM2_OK);
            CHECK(fs2t_vb(fastsm2_verify_digest(&pub, e, sig)) == 1);
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
        CHECK(fs2t_all_zero(&pub, sizeof pub));
}

static void test_pubkey_bytes(void)
{
    unsigned char buf[100], g[65];
    fs2t_sec1_g(g);
    memset(buf, 0, sizeof buf);
    memcpy(buf, g, 65);

    expect_pub(g, 65, FASTSM2_OK, "G");
    /* Wrong lengths. */
    static const size_t lens[] = {0, 1, 32, 34, 64, 66, 100};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        expect_pub(buf, lens[i], FASTSM2_ERR_LENGTH, "wrong length");

    /* Bad prefixes with the right length; a hybrid prefix (06/07, GB/T
     * 32918.1 4.2.10) whose parity is not y's is one of them. */
    const unsigned char hybrid_ok = (unsigned char)(0x06 | (g[64] & 1)), hybrid_bad = hybrid_ok ^ 1;
    const unsigned char prefixes65[] = {0x00, 0x01, 0x02, 0x03, 0x05, hybrid_bad, 0x08, 0xFF};
    for (size_t i = 0; i < sizeof prefixes65; i++) {
        memcpy(buf, g, 65);
        buf[0] = prefixes65[i];
        expect_pub(buf, 65, FASTSM2_ERR_POINT, "65-byte bad prefix");
    }
    /* The hybrid form whose parity matches: G, read; written back as 04 */
    memcpy(buf, g, 65);
    buf[0] = hybrid_ok;
    expect_pub(buf, 65, FASTSM2_OK, "hybrid G");
    {
        fastsm2_pubkey hp;
        unsigned char back[65];
        size_t blen = sizeof back;
        CHECK_STATUS(fastsm2_pubkey_from_bytes(&hp, buf, 65), FASTSM2_OK);
        CHECK_STATUS(fastsm2_pubkey_to_bytes(back, &blen, &hp, 0), FASTSM2_OK);
        CHECK(blen == 65 && memcmp(back, g, 65) == 0); /* never written hybrid */
        /* -G = (Gx, p - Gy): the other parity */
        int borrow = 0;
        for (int i = 31; i >= 0; i--) {
            int d = fs2t_p[i] - g[33 + i] - borrow;
            borrow = d < 0;
            buf[33 + i] = (unsigned char)(d + (borrow ? 256 : 0));
        }
        buf[0] = hybrid_bad;
        expect_pub(buf, 65, FASTSM2_OK, "hybrid -G");
        buf[0] = hybrid_ok;
        expect_pub(buf, 65, FASTSM2_ERR_POINT, "hybrid -G, G's parity");
        /* the bare point as a public key file */
        buf[0] = hybrid_bad;
        CHECK_STATUS(fastsm2_pubkey_parse(&hp, buf, 65), FASTSM2_OK);
        buf[0] = hybrid_ok;
        CHECK_STATUS(fastsm2_pubkey_parse(&hp, buf, 65), FASTSM2_ERR_POINT);
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
    memcpy(p, fs2t_p, 32);
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
    fs2t_be_add(buf + 33, 1);
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "y = p+1");
    /* (Gx, p - Gy) is -G: valid. (Gx, Gy + p) cannot be written. */
    memcpy(buf, g, 65);
    memcpy(buf + 33, fs2t_gy, 32);
    fs2t_be_rsub(buf + 33, p);
    expect_pub(buf, 65, FASTSM2_OK, "-G");

    /* Off the curve: y + 1, y - 1, x + 1, (0, 0). */
    memcpy(buf, g, 65);
    fs2t_be_add(buf + 33, 1);
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "(Gx, Gy+1)");
    memcpy(buf, g, 65);
    buf[64] ^= 1;
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "(Gx, Gy^1)");
    memcpy(buf, g, 65);
    fs2t_be_add(buf + 1, 1);
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "(Gx+1, Gy)");
    memset(buf, 0, 65);
    buf[0] = 0x04;
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "(0, 0)");

    /* Compressed: x with no point, x = p, x = 2^256-1. */
    unsigned char x[32];
    fs2t_x_off_curve(x);
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
    memcpy(buf + 33, fs2t_gy, 32);
    expect_pub(buf, 65, FASTSM2_ERR_POINT, "04||x off the curve");

    /* Bare-point parsing through fastsm2_pubkey_parse agrees. */
    fastsm2_pubkey pub;
    memcpy(buf, g, 65);
    fs2t_be_add(buf + 33, 1);
    memset(&pub, 0xAA, sizeof pub);
    CHECK(fastsm2_pubkey_parse(&pub, buf, 65) < 0);
    CHECK(fs2t_all_zero(&pub, sizeof pub));
}

/* ---------------------------------------------------------------------- */

static void test_null_pointers(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    fs2t_keypair(&key, &pub);
    unsigned char d[32], buf[512], g[65];
    size_t len;
    CHECK_STATUS(fastsm2_privkey_to_bytes(d, &key), FASTSM2_OK);
    fs2t_sec1_g(g);

    const int A = FASTSM2_ERR_ARG;
    CHECK_STATUS(fastsm2_privkey_generate(NULL), A);
    CHECK_STATUS(fastsm2_privkey_from_bytes(NULL, d), A);
    {
        fastsm2_privkey t;
        memset(&t, 0xAA, sizeof t);
        CHECK_STATUS(fastsm2_privkey_from_bytes(&t, NULL), A);
        CHECK(fs2t_all_zero(&t, sizeof t));
    }
    CHECK_STATUS(fastsm2_privkey_to_bytes(NULL, &key), A);
    memset(buf, 0xAA, 32);
    CHECK_STATUS(fastsm2_privkey_to_bytes(buf, NULL), A);
    CHECK(fs2t_all_zero(buf, 32));
    CHECK_STATUS(fastsm2_privkey_pubkey(NULL, &key), A);
    {
        fastsm2_pubkey t;
        memset(&t, 0xAA, sizeof t);
        CHECK_STATUS(fastsm2_privkey_pubkey(&t, NULL), A);
        CHECK(fs2t_all_zero(&t, sizeof t));
        memset(&t, 0xAA, sizeof t);
        CHECK_STATUS(fastsm2_pubkey_from_bytes(&t, NULL, 65), A);
        CHECK(fs2t_all_zero(&t, sizeof t));
    }
    fastsm2_privkey_clear(NULL);
    CHECK_STATUS(fastsm2_pubkey_from_bytes(NULL, g, 65), A);

    len = sizeof buf;
    CHECK_STATUS(fastsm2_pubkey_to_bytes(NULL, &len, &pub, 0), A);
    CHECK_STATUS(fastsm2_pubkey_to_bytes(buf, NULL, &pub, 0), A);
    len = sizeof buf;
    memset(buf, 0xAA, sizeof buf);
    CHECK_STATUS(fastsm2_pubkey_to_bytes(buf, &len, NULL, 0), A);
    CHECK(len == 0 && fs2t_all_zero(buf, sizeof buf));

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
    CHECK(fs2t_all_zero(buf, 32));

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
    CHECK(len == 0 && fs2t_all_zero(buf, sizeof buf));
    len = sizeof buf;
    CHECK_STATUS(fastsm2_pubkey_serialize(NULL, &len, &pub, FASTSM2_KEYFMT_DER), A);
    CHECK_STATUS(fastsm2_pubkey_serialize(buf, NULL, &pub, FASTSM2_KEYFMT_DER), A);
    len = sizeof buf;
    CHECK_STATUS(fastsm2_pubkey_serialize(buf, &len, NULL, FASTSM2_KEYFMT_DER), A);
    CHECK(len == 0);
    fastsm2_privkey_clear(&key);
}

int main(void)
{
    test_privkey_range();
    test_pubkey_bytes();
    test_null_pointers();
    CHECK(fs2t_verify_non_boolean == 0);
    return fs2t_finish("test_keys");
}
