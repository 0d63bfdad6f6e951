/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Key exchange fed bad input (GB/T 32918.3 clause 6.1): calls out of order,
 * a peer's R off the curve or of a wrong length, nonces out of range,
 * signer IDs too short or too long, NULL pointers. The exact
 * FASTSM2_ERR_* code, zeroed outputs, never a crash; the real exchange
 * still agrees afterwards.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static void test_kx_errors(void)
{
    fastsm2_privkey ka, kb;
    fastsm2_pubkey pa, pb;
    fs2t_keypair(&ka, &pa);
    fs2t_keypair(&kb, &pb);

    fastsm2_kx_ctx a, b;
    unsigned char ra[65], rb[65], key[32], conf[32];

    /* Bad role. */
    memset(&a, 0xAA, sizeof a);
    CHECK_STATUS(fastsm2_kx_init(&a, 2, &ka, NULL, 0, &pb, NULL, 0), FASTSM2_ERR_ARG);
    CHECK(fs2t_all_zero(&a, sizeof a));
    CHECK_STATUS(fastsm2_kx_init(&a, -1, &ka, NULL, 0, &pb, NULL, 0), FASTSM2_ERR_ARG);

    CHECK_STATUS(fastsm2_kx_init(&a, FASTSM2_KX_INITIATOR, &ka, NULL, 0, &pb, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_kx_init(&b, FASTSM2_KX_RESPONDER, &kb, NULL, 0, &pa, NULL, 0), FASTSM2_OK);

    /* Out of order: compute / confirmation before start. */
    CHECK_STATUS(fastsm2_kx_start(&b, rb), FASTSM2_OK);
    memset(key, 0xAA, sizeof key);
    CHECK_STATUS(fastsm2_kx_compute(&a, key, 16, rb, 65), FASTSM2_ERR_STATE);
    CHECK(fs2t_all_zero(key, 16));
    memset(conf, 0xAA, 32);
    CHECK_STATUS(fastsm2_kx_confirmation(conf, &a), FASTSM2_ERR_STATE);
    CHECK(fs2t_all_zero(conf, 32));
    CHECK_STATUS(fastsm2_kx_verify_confirmation(&a, conf), FASTSM2_ERR_STATE);

    /* Started, not computed: confirmation still out of order. */
    CHECK_STATUS(fastsm2_kx_start(&a, ra), FASTSM2_OK);
    memset(conf, 0xAA, 32);
    CHECK_STATUS(fastsm2_kx_confirmation(conf, &a), FASTSM2_ERR_STATE);
    CHECK(fs2t_all_zero(conf, 32));
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
        case 3: memcpy(badR + 1, fs2t_p, 32); break;
        case 5: badR[0] = 5; break;
        default: break;
        }
        fastsm2_kx_ctx b2 = b;
        memset(key, 0xAA, sizeof key);
        int st = fastsm2_kx_compute(&b2, key, 16, badR, rc[i].len);
        if (st != rc[i].want)
            fprintf(stderr, "kx_compute: %s\n", rc[i].what);
        CHECK_STATUS(st, rc[i].want);
        CHECK(fs2t_all_zero(key, 16));
        fastsm2_kx_clear(&b2);
    }
    /* klen must be 1..65536 (the header's contract): 0 and 65537 are
     * FASTSM2_ERR_LENGTH, whatever the rest. */
    {
        static unsigned char big[65537];
        fastsm2_kx_ctx b2 = b;
        CHECK_STATUS(fastsm2_kx_compute(&b2, key, 0, ra, 65), FASTSM2_ERR_LENGTH);
        CHECK_STATUS(fastsm2_kx_compute(&b2, big, sizeof big, ra, 65), FASTSM2_ERR_LENGTH);
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
        CHECK(fs2t_all_zero(R, 65));
        memcpy(r, fs2t_n, 32);
        memset(R, 0xAA, 65);
        CHECK_STATUS(fastsm2_kx_start_with_nonce(&c, R, r), FASTSM2_ERR_SCALAR);
        CHECK(fs2t_all_zero(R, 65));
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

/* IDs of 0 or more than 8191 bytes (GB/T 32918.2 5.5, through Z_A and Z_B)
 * on either side; 8191 bytes on both is fine. */
static void test_kx_ids(void)
{
    fastsm2_privkey key, key2;
    fastsm2_pubkey pub, peer;
    fs2t_keypair(&key, &pub);
    fs2t_keypair(&key2, &peer);

    unsigned char *id = malloc(65537);
    fs2t_rand_bytes(id, 65537);
    static const size_t bad[] = {8192, 8193, 65536};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t idlen = bad[i];
        fastsm2_kx_ctx kx;
        CHECK_STATUS(fastsm2_kx_init(&kx, FASTSM2_KX_INITIATOR, &key, id, idlen, &peer, NULL, 0), FASTSM2_ERR_ID);
        CHECK_STATUS(fastsm2_kx_init(&kx, FASTSM2_KX_RESPONDER, &key, NULL, 0, &peer, id, idlen), FASTSM2_ERR_ID);
        CHECK(fs2t_all_zero(&kx, sizeof kx));
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

static void test_null_pointers(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    fs2t_keypair(&key, &pub);
    unsigned char k[32] = {0, 1}, buf[512];

    const int A = FASTSM2_ERR_ARG;
    fastsm2_kx_clear(NULL);
    fastsm2_kx_ctx c;
    unsigned char R[65];
    CHECK_STATUS(fastsm2_kx_init(NULL, 0, &key, NULL, 0, &pub, NULL, 0), A);
    CHECK_STATUS(fastsm2_kx_init(&c, 0, NULL, NULL, 0, &pub, NULL, 0), A);
    CHECK_STATUS(fastsm2_kx_init(&c, 0, &key, NULL, 0, NULL, NULL, 0), A);
    /* No ID but a length: an argument error, as set_id(NULL, 5) is. */
    CHECK_STATUS(fastsm2_kx_init(&c, 0, &key, NULL, 5, &pub, NULL, 0), A);
    CHECK_STATUS(fastsm2_kx_init(&c, 0, &key, NULL, 0, &pub, NULL, 5), A);
    CHECK_STATUS(fastsm2_kx_init(&c, 0, &key, NULL, 0, &pub, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_kx_start(NULL, R), A);
    CHECK_STATUS(fastsm2_kx_start(&c, NULL), A);
    CHECK_STATUS(fastsm2_kx_start_with_nonce(NULL, R, k), A);
    CHECK_STATUS(fastsm2_kx_start_with_nonce(&c, NULL, k), A);
    memset(R, 0xAA, 65);
    CHECK_STATUS(fastsm2_kx_start_with_nonce(&c, R, NULL), A);
    CHECK(fs2t_all_zero(R, 65));
    CHECK_STATUS(fastsm2_kx_start(&c, R), FASTSM2_OK);
    CHECK_STATUS(fastsm2_kx_compute(NULL, buf, 16, R, 65), A);
    CHECK_STATUS(fastsm2_kx_compute(&c, NULL, 16, R, 65), A);
    memset(buf, 0xAA, 16);
    CHECK_STATUS(fastsm2_kx_compute(&c, buf, 16, NULL, 65), A);
    CHECK(fs2t_all_zero(buf, 16));
    CHECK_STATUS(fastsm2_kx_confirmation(NULL, &c), A);
    memset(buf, 0xAA, 32);
    CHECK_STATUS(fastsm2_kx_confirmation(buf, NULL), A);
    CHECK(fs2t_all_zero(buf, 32));
    CHECK_STATUS(fastsm2_kx_verify_confirmation(NULL, buf), A);
    CHECK_STATUS(fastsm2_kx_verify_confirmation(&c, NULL), A);
    fastsm2_kx_clear(&c);
    fastsm2_privkey_clear(&key);
}

/* ---------------------------------------------------------------------- */

/* fastsm2_ecdh (RFC 8998 curveSM2): both sides agree; [d]G's x is the
 * public key's x; [1]P is P; compressed points are read; bad points and
 * NULLs get their codes with the output zeroed. */
static void test_ecdh(void)
{
    fastsm2_privkey ka, kb, one;
    fastsm2_pubkey pa, pb;
    fs2t_keypair(&ka, &pa);
    fs2t_keypair(&kb, &pb);
    unsigned char ea[65], eb[65], ca[33], sa[32], sb[32], s2[32];
    size_t n = sizeof ea;
    CHECK_STATUS(fastsm2_pubkey_to_bytes(ea, &n, &pa, 0), FASTSM2_OK);
    n = sizeof eb;
    CHECK_STATUS(fastsm2_pubkey_to_bytes(eb, &n, &pb, 0), FASTSM2_OK);
    n = sizeof ca;
    CHECK_STATUS(fastsm2_pubkey_to_bytes(ca, &n, &pa, 1), FASTSM2_OK);
    CHECK_STATUS(fastsm2_ecdh(sa, &ka, eb, 65), FASTSM2_OK);
    CHECK_STATUS(fastsm2_ecdh(sb, &kb, ea, 65), FASTSM2_OK);
    CHECK(memcmp(sa, sb, 32) == 0);
    CHECK(!fs2t_all_zero(sa, 32));
    CHECK_STATUS(fastsm2_ecdh(s2, &kb, ca, 33), FASTSM2_OK);
    CHECK(memcmp(s2, sb, 32) == 0);
    /* d = 1: [1]P = P, so the output is P's x. */
    unsigned char d1[32] = {0};
    d1[31] = 1;
    CHECK_STATUS(fastsm2_privkey_from_bytes(&one, d1), FASTSM2_OK);
    CHECK_STATUS(fastsm2_ecdh(s2, &one, eb, 65), FASTSM2_OK);
    CHECK(memcmp(s2, eb + 1, 32) == 0);
    /* [d]G = the public key: G from the curve's generator, x then y. */
    unsigned char g[65];
    g[0] = 4;
    CHECK(fs2t_unhex(g + 1, 64,
                     "32C4AE2C1F1981195F9904466A39C9948FE30BBFF2660BE1715A4589334C74C7"
                     "BC3736A2F4F6779C59BDCEE36B692153D0A9877CC62A474002DF32E52139F0A0") == 64);
    CHECK_STATUS(fastsm2_ecdh(s2, &ka, g, 65), FASTSM2_OK);
    CHECK(memcmp(s2, ea + 1, 32) == 0);
    /* Bad points: off the curve, all zero, wrong length. */
    unsigned char bad[65];
    memcpy(bad, eb, 65);
    bad[64] ^= 1;
    memset(s2, 0xAA, 32);
    CHECK_STATUS(fastsm2_ecdh(s2, &ka, bad, 65), FASTSM2_ERR_POINT);
    CHECK(fs2t_all_zero(s2, 32));
    memset(bad, 0, 65);
    CHECK_STATUS(fastsm2_ecdh(s2, &ka, bad, 65), FASTSM2_ERR_POINT);
    memset(s2, 0xAA, 32);
    CHECK_STATUS(fastsm2_ecdh(s2, &ka, eb, 64), FASTSM2_ERR_LENGTH);
    CHECK(fs2t_all_zero(s2, 32));
    /* NULLs. */
    CHECK_STATUS(fastsm2_ecdh(NULL, &ka, eb, 65), FASTSM2_ERR_ARG);
    memset(s2, 0xAA, 32);
    CHECK_STATUS(fastsm2_ecdh(s2, NULL, eb, 65), FASTSM2_ERR_ARG);
    CHECK(fs2t_all_zero(s2, 32));
    CHECK_STATUS(fastsm2_ecdh(s2, &ka, NULL, 65), FASTSM2_ERR_ARG);
    fastsm2_privkey_clear(&ka);
    fastsm2_privkey_clear(&kb);
    fastsm2_privkey_clear(&one);
}

int main(void)
{
    test_kx_errors();
    test_kx_ids();
    test_null_pointers();
    test_ecdh();
    return fs2t_finish("test_kx");
}
