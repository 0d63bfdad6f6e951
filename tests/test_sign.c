/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Signatures fed bad input (GB/T 32918.2 clauses 6.1 and 7.1): r and s out
 * of [1, n-1] or r + s = n (B1, B2, B5), nonces out of range, signer IDs
 * too short or too long (5.5), NULL pointers. The exact FASTSM2_ERR_* code,
 * zeroed outputs, never a crash, and fastsm2_verify() /
 * fastsm2_verify_digest() returning exactly 1 or 0 whatever happens.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

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
    CHECK(fs2t_vb(fastsm2_verify(&pub, NULL, 0, msg, sizeof msg - 1, good)) == 1);
    CHECK(fs2t_vb(fastsm2_verify_digest(&pub, e, good)) == 1);

    /* Each case: a signature and its expected status. */
    unsigned char sig[64];
    for (int c = 0; c < 9; c++) {
        memcpy(sig, good, 64);
        int want = FASTSM2_ERR_SIG_RANGE;
        const char *what = "";
        switch (c) {
        case 0:
            memset(sig, 0, 32);
            what = "r = 0";
            break;
        case 1:
            memset(sig + 32, 0, 32);
            what = "s = 0";
            break;
        case 2:
            memcpy(sig, fs2t_n, 32);
            what = "r = n";
            break;
        case 3:
            memcpy(sig + 32, fs2t_n, 32);
            what = "s = n";
            break;
        case 4: /* s = n - r */
            memcpy(sig + 32, sig, 32);
            fs2t_be_rsub(sig + 32, fs2t_n);
            what = "r + s = n";
            break;
        case 5:
            memset(sig, 0xFF, 32);
            what = "r = 2^256-1";
            break;
        case 6:
            memset(sig + 32, 0xFF, 32);
            what = "s = 2^256-1";
            break;
        case 7:
            memset(sig, 0, 64);
            what = "r = s = 0";
            break;
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
        CHECK(fs2t_vb(fastsm2_verify(&pub, NULL, 0, msg, sizeof msg - 1, sig)) == 0);
        CHECK(fs2t_vb(fastsm2_verify_digest(&pub, e, sig)) == 0);
    }
    /* r = n - 1 and s = n - 1 are in range: a bad signature, not a range
     * error (r + s = 2n - 2 != n). */
    memcpy(sig, fs2t_n, 32);
    sig[31] -= 1;
    memcpy(sig + 32, sig, 32);
    CHECK_STATUS(fastsm2_verify_digest_status(&pub, e, sig), FASTSM2_ERR_BAD_SIGNATURE);
    CHECK(fs2t_vb(fastsm2_verify_digest(&pub, e, sig)) == 0);

    /* sig_from_der: r = 0, r = n are range errors; junk is a DER error;
     * the output is zeroed. */
    {
        unsigned char der[80], out[64];
        size_t n = 0;
        der[n++] = 0x30;
        der[n++] = 3 + 35;
        der[n++] = 0x02;
        der[n++] = 0x01;
        der[n++] = 0x00; /* r = 0 */
        der[n++] = 0x02;
        der[n++] = 0x21;
        der[n++] = 0x00;
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
        CHECK(fs2t_all_zero(out, 64));
        static const unsigned char junk[] = {0x30, 0x03, 0x02, 0x01};
        memset(out, 0xAA, 64);
        CHECK_STATUS(fastsm2_sig_from_der(out, junk, sizeof junk), FASTSM2_ERR_DER);
        CHECK(fs2t_all_zero(out, 64));
        unsigned char nsig[64];
        memcpy(nsig, fs2t_n, 32);
        memcpy(nsig + 32, good + 32, 32);
        size_t dlen = sizeof der;
        CHECK_STATUS(fastsm2_sig_to_der(der, &dlen, nsig), FASTSM2_OK);
        memset(out, 0xAA, 64);
        CHECK_STATUS(fastsm2_sig_from_der(out, der, dlen), FASTSM2_ERR_SIG_RANGE);
        CHECK(fs2t_all_zero(out, 64));
    }

    /* Nonces: k = 0, n, n + 1, 2^256-1 -> FASTSM2_ERR_SCALAR, sig zeroed;
     * k = 1, n - 1 fine. */
    unsigned char k[32];
    for (int c = 0; c < 6; c++) {
        memset(k, 0, 32);
        int want = FASTSM2_ERR_SCALAR;
        switch (c) {
        case 0: break;
        case 1: memcpy(k, fs2t_n, 32); break;
        case 2:
            memcpy(k, fs2t_n, 32);
            k[31] += 1;
            break;
        case 3: memset(k, 0xFF, 32); break;
        case 4:
            k[31] = 1;
            want = FASTSM2_OK;
            break;
        case 5:
            memcpy(k, fs2t_n, 32);
            k[31] -= 1;
            want = FASTSM2_OK;
            break;
        }
        memset(sig, 0xAA, 64);
        CHECK_STATUS(fastsm2_sign_digest_with_nonce(sig, &key, e, k), want);
        if (want == FASTSM2_OK)
            CHECK(fs2t_vb(fastsm2_verify_digest(&pub, e, sig)) == 1);
        else
            CHECK(fs2t_all_zero(sig, 64));
    }
    fastsm2_privkey_clear(&key);
}

/* ---------------------------------------------------------------------- */

static void test_ids(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    fs2t_keypair(&key, &pub);

    unsigned char *id = malloc(65537);
    fs2t_rand_bytes(id, 65537);
    const char msg[] = "id checks";
    unsigned char sig[64], good[64], z[32];
    CHECK_STATUS(fastsm2_sign(good, &key, NULL, 0, msg, sizeof msg - 1), FASTSM2_OK);

    static const size_t bad[] = {8192, 8193, 65536};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t idlen = bad[i];
        memset(sig, 0xAA, 64);
        CHECK_STATUS(fastsm2_sign(sig, &key, id, idlen, msg, sizeof msg - 1), FASTSM2_ERR_ID);
        CHECK(fs2t_all_zero(sig, 64));
        CHECK_STATUS(fastsm2_verify_status(&pub, id, idlen, msg, sizeof msg - 1, good), FASTSM2_ERR_ID);
        CHECK(fs2t_vb(fastsm2_verify(&pub, id, idlen, msg, sizeof msg - 1, good)) == 0);
        fastsm2_privkey k2 = key;
        fastsm2_pubkey p2 = pub;
        CHECK_STATUS(fastsm2_privkey_set_id(&k2, id, idlen), FASTSM2_ERR_ID);
        CHECK_STATUS(fastsm2_pubkey_set_id(&p2, id, idlen), FASTSM2_ERR_ID);
        memset(z, 0xAA, 32);
        CHECK_STATUS(fastsm2_compute_z(z, &pub, id, idlen), FASTSM2_ERR_ID);
        CHECK(fs2t_all_zero(z, 32));
    }

    /* 8191 bytes is the longest allowed: sign / verify / set_id. */
    CHECK_STATUS(fastsm2_sign(sig, &key, id, 8191, msg, sizeof msg - 1), FASTSM2_OK);
    CHECK(fs2t_vb(fastsm2_verify(&pub, id, 8191, msg, sizeof msg - 1, sig)) == 1);
    CHECK(fs2t_vb(fastsm2_verify(&pub, id, 8190, msg, sizeof msg - 1, sig)) == 0);
    CHECK(fs2t_vb(fastsm2_verify(&pub, NULL, 0, msg, sizeof msg - 1, sig)) == 0);
    {
        fastsm2_privkey k2 = key;
        fastsm2_pubkey p2 = pub;
        CHECK_STATUS(fastsm2_privkey_set_id(&k2, id, 8191), FASTSM2_OK);
        CHECK_STATUS(fastsm2_pubkey_set_id(&p2, id, 8191), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sign(sig, &k2, NULL, 0, msg, sizeof msg - 1), FASTSM2_OK);
        CHECK(fs2t_vb(fastsm2_verify(&p2, NULL, 0, msg, sizeof msg - 1, sig)) == 1);
        CHECK(fs2t_vb(fastsm2_verify(&pub, id, 8191, msg, sizeof msg - 1, sig)) == 1);
        CHECK(fs2t_vb(fastsm2_verify(&pub, NULL, 0, msg, sizeof msg - 1, sig)) == 0);
        /* An ID above the cache limit and one at it. */
        CHECK_STATUS(fastsm2_privkey_set_id(&k2, id, FASTSM2_CACHED_ID_MAX + 1), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sign(sig, &k2, NULL, 0, msg, sizeof msg - 1), FASTSM2_OK);
        CHECK(fs2t_vb(fastsm2_verify(&pub, id, FASTSM2_CACHED_ID_MAX + 1, msg, sizeof msg - 1, sig)) == 1);
        CHECK_STATUS(fastsm2_privkey_set_id(&k2, id, FASTSM2_CACHED_ID_MAX), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sign(sig, &k2, NULL, 0, msg, sizeof msg - 1), FASTSM2_OK);
        CHECK(fs2t_vb(fastsm2_verify(&pub, id, FASTSM2_CACHED_ID_MAX, msg, sizeof msg - 1, sig)) == 1);
    }

    /* The empty ID (id non-NULL, idlen 0) is an ID of its own: not the
     * key's ID (id NULL), not a one-byte ID; as a call argument and as the
     * key's ID (set_id). OpenSSL's view of it: test_openssl_diff. */
    {
        unsigned char zd[32], ze[32], z1[32], ze2[32];
        CHECK_STATUS(fastsm2_compute_z(zd, &pub, NULL, 0), FASTSM2_OK);
        CHECK_STATUS(fastsm2_compute_z(ze, &pub, "", 0), FASTSM2_OK);
        CHECK_STATUS(fastsm2_compute_z(z1, &pub, "\0", 1), FASTSM2_OK);
        CHECK(memcmp(zd, ze, 32) != 0 && memcmp(z1, ze, 32) != 0);
        CHECK_STATUS(fastsm2_sign(sig, &key, "", 0, msg, sizeof msg - 1), FASTSM2_OK);
        CHECK(fs2t_vb(fastsm2_verify(&pub, "", 0, msg, sizeof msg - 1, sig)) == 1);
        CHECK_STATUS(fastsm2_verify_status(&pub, id, 0, msg, sizeof msg - 1, sig), FASTSM2_OK);
        CHECK(fs2t_vb(fastsm2_verify(&pub, NULL, 0, msg, sizeof msg - 1, sig)) == 0);
        CHECK(fs2t_vb(fastsm2_verify(&pub, "\0", 1, msg, sizeof msg - 1, sig)) == 0);
        CHECK(fs2t_vb(fastsm2_verify(&pub, "", 0, msg, sizeof msg - 1, good)) == 0);
        fastsm2_privkey k2 = key;
        fastsm2_pubkey p2 = pub;
        CHECK_STATUS(fastsm2_privkey_set_id(&k2, "", 0), FASTSM2_OK);
        CHECK_STATUS(fastsm2_pubkey_set_id(&p2, "", 0), FASTSM2_OK);
        CHECK_STATUS(fastsm2_compute_z(ze2, &p2, NULL, 0), FASTSM2_OK);
        CHECK(memcmp(ze2, ze, 32) == 0);
        CHECK_STATUS(fastsm2_sign(sig, &k2, NULL, 0, msg, sizeof msg - 1), FASTSM2_OK);
        CHECK(fs2t_vb(fastsm2_verify(&p2, NULL, 0, msg, sizeof msg - 1, sig)) == 1);
        CHECK(fs2t_vb(fastsm2_verify(&pub, "", 0, msg, sizeof msg - 1, sig)) == 1);
        CHECK(fs2t_vb(fastsm2_verify(&p2, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN, msg, sizeof msg - 1, sig)) == 0);
        /* and a NULL ID with a length is still an argument error */
        CHECK_STATUS(fastsm2_sign(sig, &key, NULL, 1, msg, sizeof msg - 1), FASTSM2_ERR_ARG);
        fastsm2_privkey_clear(&k2);
    }
    free(id);
    fastsm2_privkey_clear(&key);
}

/* ---------------------------------------------------------------------- */

static void test_null_pointers(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    fs2t_keypair(&key, &pub);
    unsigned char e[32] = {9}, k[32] = {0, 1}, sig[64], buf[512];
    size_t len;
    const char msg[] = "msg";
    CHECK_STATUS(fastsm2_sign_digest(sig, &key, e), FASTSM2_OK);

    const int A = FASTSM2_ERR_ARG;
    unsigned char s2[64];
    CHECK_STATUS(fastsm2_sign(NULL, &key, NULL, 0, msg, 3), A);
    memset(s2, 0xAA, 64);
    CHECK_STATUS(fastsm2_sign(s2, NULL, NULL, 0, msg, 3), A);
    CHECK(fs2t_all_zero(s2, 64));
    memset(s2, 0xAA, 64);
    CHECK_STATUS(fastsm2_sign(s2, &key, NULL, 0, NULL, 3), A);
    CHECK(fs2t_all_zero(s2, 64));
    CHECK_STATUS(fastsm2_sign_digest(NULL, &key, e), A);
    memset(s2, 0xAA, 64);
    CHECK_STATUS(fastsm2_sign_digest(s2, NULL, e), A);
    CHECK(fs2t_all_zero(s2, 64));
    CHECK_STATUS(fastsm2_sign_digest(s2, &key, NULL), A);
    CHECK_STATUS(fastsm2_sign_digest_with_nonce(NULL, &key, e, k), A);
    CHECK_STATUS(fastsm2_sign_digest_with_nonce(s2, NULL, e, k), A);
    CHECK_STATUS(fastsm2_sign_digest_with_nonce(s2, &key, NULL, k), A);
    memset(s2, 0xAA, 64);
    CHECK_STATUS(fastsm2_sign_digest_with_nonce(s2, &key, e, NULL), A);
    CHECK(fs2t_all_zero(s2, 64));

    CHECK(fs2t_vb(fastsm2_verify(NULL, NULL, 0, msg, 3, sig)) == 0);
    CHECK(fs2t_vb(fastsm2_verify(&pub, NULL, 0, NULL, 3, sig)) == 0);
    CHECK(fs2t_vb(fastsm2_verify(&pub, NULL, 0, msg, 3, NULL)) == 0);
    CHECK(fs2t_vb(fastsm2_verify_digest(NULL, e, sig)) == 0);
    CHECK(fs2t_vb(fastsm2_verify_digest(&pub, NULL, sig)) == 0);
    CHECK(fs2t_vb(fastsm2_verify_digest(&pub, e, NULL)) == 0);
    CHECK(fs2t_vb(fastsm2_verify_digest(&pub, e, sig)) == 1);
    CHECK_STATUS(fastsm2_verify_status(NULL, NULL, 0, msg, 3, sig), A);
    CHECK_STATUS(fastsm2_verify_status(&pub, NULL, 0, NULL, 3, sig), A);
    CHECK_STATUS(fastsm2_verify_status(&pub, NULL, 0, msg, 3, NULL), A);
    CHECK_STATUS(fastsm2_verify_digest_status(NULL, e, sig), A);
    CHECK_STATUS(fastsm2_verify_digest_status(&pub, NULL, sig), A);
    CHECK_STATUS(fastsm2_verify_digest_status(&pub, e, NULL), A);
    /* No ID but a length: an argument error, as set_id(NULL, 5) is, never
     * a silent fall-back to the key's ID. */
    memset(s2, 0xAA, 64);
    CHECK_STATUS(fastsm2_sign(s2, &key, NULL, 5, msg, 3), A);
    CHECK(fs2t_all_zero(s2, 64));
    CHECK_STATUS(fastsm2_sign(s2, &key, NULL, 0, msg, 3), FASTSM2_OK);
    CHECK_STATUS(fastsm2_verify_status(&pub, NULL, 0, msg, 3, s2), FASTSM2_OK);
    CHECK_STATUS(fastsm2_verify_status(&pub, NULL, 5, msg, 3, s2), A);
    CHECK(fs2t_vb(fastsm2_verify(&pub, NULL, 16, msg, 3, s2)) == 0);
    unsigned char z[32];
    memset(z, 0xAA, 32);
    CHECK_STATUS(fastsm2_compute_z(z, &pub, NULL, 5), A);
    CHECK(fs2t_all_zero(z, 32));
    CHECK_STATUS(fastsm2_privkey_set_id(&key, NULL, 5), A);
    CHECK_STATUS(fastsm2_pubkey_set_id(&pub, NULL, 5), A);

    len = sizeof buf;
    CHECK_STATUS(fastsm2_sig_to_der(NULL, &len, sig), A);
    CHECK_STATUS(fastsm2_sig_to_der(buf, NULL, sig), A);
    len = sizeof buf;
    CHECK_STATUS(fastsm2_sig_to_der(buf, &len, NULL), A);
    CHECK(len == 0);
    CHECK_STATUS(fastsm2_sig_from_der(NULL, buf, 8), A);
    memset(s2, 0xAA, 64);
    CHECK_STATUS(fastsm2_sig_from_der(s2, NULL, 8), A);
    CHECK(fs2t_all_zero(s2, 64));
    fastsm2_privkey_clear(&key);
}

int main(void)
{
    test_signature_ranges();
    test_ids();
    test_null_pointers();
    CHECK(fs2t_verify_non_boolean == 0);
    return fs2t_finish("test_sign");
}
