/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Known answers: the worked examples of GB/T 32918.5-2016 (signature,
 * encryption, key exchange) on sm2p256v1, read from tests/vectors/gbt32918-examples.txt
 * with fs2t_vector(). Every intermediate value the example gives (public
 * key, Z_A, e, r||s, C1/C3/C2, R_A/R_B, K, S_B/S_A) is compared byte for
 * byte, and each result is also checked the other way round (verify,
 * decrypt, confirm), including rejection of a one-bit change.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Load a hex vector of exactly len bytes. */
static void vec(unsigned char *out, size_t len, const char *section, const char *key, int nth)
{
    size_t n = fs2t_unhex(out, len, fs2t_vector(section, key, nth));
    if (n != len) {
        fprintf(stderr, "vector [%s] %s: %zu bytes, want %zu\n", section, key, n, len);
        exit(2);
    }
}

/* A hex vector of any length up to cap; returns its length. */
static size_t vec_var(unsigned char *out, size_t cap, const char *section, const char *key, int nth)
{
    return fs2t_unhex(out, cap, fs2t_vector(section, key, nth));
}

static int all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    unsigned char acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= b[i];
    return acc == 0;
}

/* ---------------------------------------------------------------------- */
/* A minimal DER writer for the expected GM/T 0009 ciphertext (test-side,  */
/* independent of the library's encoder).                                  */
/* ---------------------------------------------------------------------- */

static size_t der_len(unsigned char *out, size_t len)
{
    if (len < 0x80) {
        out[0] = (unsigned char)len;
        return 1;
    }
    if (len < 0x100) {
        out[0] = 0x81;
        out[1] = (unsigned char)len;
        return 2;
    }
    out[0] = 0x82;
    out[1] = (unsigned char)(len >> 8);
    out[2] = (unsigned char)len;
    return 3;
}

static size_t der_tlv(unsigned char *out, unsigned char tag, const unsigned char *v, size_t vlen)
{
    size_t n = 0;
    out[n++] = tag;
    n += der_len(out + n, vlen);
    memcpy(out + n, v, vlen);
    return n + vlen;
}

/* INTEGER from a 32-byte unsigned big-endian value: minimal, with a 00
 * in front when the top bit is set. */
static size_t der_uint(unsigned char *out, const unsigned char v[32])
{
    unsigned char tmp[33];
    size_t i = 0;
    while (i < 31 && v[i] == 0)
        i++;
    size_t n = 0;
    if (v[i] & 0x80)
        tmp[n++] = 0;
    memcpy(tmp + n, v + i, 32 - i);
    n += 32 - i;
    return der_tlv(out, 0x02, tmp, n);
}

/* SEQUENCE { INTEGER x, INTEGER y, OCTET STRING c3, OCTET STRING c2 } */
static size_t der_ciphertext(unsigned char *out, const unsigned char x[32], const unsigned char y[32],
                             const unsigned char c3[32], const unsigned char *c2, size_t c2len)
{
    unsigned char *body = malloc(c2len + 200);
    size_t n = 0;
    n += der_uint(body + n, x);
    n += der_uint(body + n, y);
    n += der_tlv(body + n, 0x04, c3, 32);
    n += der_tlv(body + n, 0x04, c2, c2len);
    size_t m = der_tlv(out, 0x30, body, n);
    free(body);
    return m;
}

/* ---------------------------------------------------------------------- */
/* GB/T 32918.5 signature example                                         */
/* ---------------------------------------------------------------------- */

static void test_sign(void)
{
    unsigned char d[32], px[32], py[32], za[32], e[32], k[32], r[32], s[32];
    vec(d, 32, "sign", "d", 0);
    vec(px, 32, "sign", "Px", 0);
    vec(py, 32, "sign", "Py", 0);
    vec(za, 32, "sign", "ZA", 0);
    vec(e, 32, "sign", "e", 0);
    vec(k, 32, "sign", "k", 0);
    vec(r, 32, "sign", "r", 0);
    vec(s, 32, "sign", "s", 0);
    const char *id = fs2t_vector("sign", "id_ascii", 0);
    char idbuf[64];
    snprintf(idbuf, sizeof idbuf, "%s", id);
    size_t idlen = strlen(idbuf);
    char msg[128];
    snprintf(msg, sizeof msg, "%s", fs2t_vector("sign", "msg_ascii", 0));
    size_t msglen = strlen(msg);

    fastsm2_privkey key;
    fastsm2_pubkey pub, pub2;
    CHECK_STATUS(fastsm2_privkey_from_bytes(&key, d), FASTSM2_OK);

    unsigned char dback[32];
    CHECK_STATUS(fastsm2_privkey_to_bytes(dback, &key), FASTSM2_OK);
    CHECK(memcmp(dback, d, 32) == 0);

    /* Public key P = dG. */
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);
    unsigned char pt[65], want_pt[65];
    size_t ptlen = sizeof pt;
    want_pt[0] = 0x04;
    memcpy(want_pt + 1, px, 32);
    memcpy(want_pt + 33, py, 32);
    CHECK_STATUS(fastsm2_pubkey_to_bytes(pt, &ptlen, &pub, 0), FASTSM2_OK);
    CHECK(ptlen == 65 && memcmp(pt, want_pt, 65) == 0);

    /* Compressed form: 02/03 by the parity of y, and it loads back. */
    unsigned char cpt[65];
    size_t cptlen = sizeof cpt;
    CHECK_STATUS(fastsm2_pubkey_to_bytes(cpt, &cptlen, &pub, 1), FASTSM2_OK);
    CHECK(cptlen == 33 && cpt[0] == (unsigned char)(2 + (py[31] & 1)) && memcmp(cpt + 1, px, 32) == 0);
    CHECK_STATUS(fastsm2_pubkey_from_bytes(&pub2, cpt, cptlen), FASTSM2_OK);
    ptlen = sizeof pt;
    CHECK_STATUS(fastsm2_pubkey_to_bytes(pt, &ptlen, &pub2, 0), FASTSM2_OK);
    CHECK(ptlen == 65 && memcmp(pt, want_pt, 65) == 0);

    /* The same key loaded from its SEC1 bytes. */
    CHECK_STATUS(fastsm2_pubkey_from_bytes(&pub2, want_pt, 65), FASTSM2_OK);

    /* Z_A with the explicit ID, with the key's (default) ID, and from the
     * public key loaded from bytes. */
    unsigned char z[32];
    CHECK_STATUS(fastsm2_compute_z(z, &pub, idbuf, idlen), FASTSM2_OK);
    CHECK(memcmp(z, za, 32) == 0);
    memset(z, 0, 32);
    CHECK_STATUS(fastsm2_compute_z(z, &pub, NULL, 0), FASTSM2_OK);
    CHECK(memcmp(z, za, 32) == 0); /* the example's ID is the default one */
    memset(z, 0, 32);
    CHECK_STATUS(fastsm2_compute_z(z, &pub2, idbuf, idlen), FASTSM2_OK);
    CHECK(memcmp(z, za, 32) == 0);

    /* e = SM3(Z_A || M). */
    unsigned char zm[32 + 128], e2[32];
    memcpy(zm, za, 32);
    memcpy(zm + 32, msg, msglen);
    fastsm2_sm3(e2, zm, 32 + msglen);
    CHECK(memcmp(e2, e, 32) == 0);
    fastsm2_sm3_ctx hctx;
    fastsm2_sm3_init(&hctx);
    fastsm2_sm3_update(&hctx, za, 32);
    fastsm2_sm3_update(&hctx, msg, msglen);
    fastsm2_sm3_final(e2, &hctx);
    CHECK(memcmp(e2, e, 32) == 0);

    /* Signing with the example's k gives exactly (r, s). */
    unsigned char sig[64], want_sig[64];
    memcpy(want_sig, r, 32);
    memcpy(want_sig + 32, s, 32);
    CHECK_STATUS(fastsm2_sign_digest_with_nonce(sig, &key, e, k), FASTSM2_OK);
    CHECK(memcmp(sig, want_sig, 64) == 0);

    /* Verification: digest and message APIs, explicit and default ID,
     * both public-key objects. */
    CHECK(fastsm2_verify_digest(&pub, e, want_sig) == 1);
    CHECK_STATUS(fastsm2_verify_digest_status(&pub, e, want_sig), FASTSM2_OK);
    CHECK(fastsm2_verify(&pub, idbuf, idlen, msg, msglen, want_sig) == 1);
    CHECK(fastsm2_verify(&pub, NULL, 0, msg, msglen, want_sig) == 1);
    CHECK(fastsm2_verify(&pub2, idbuf, idlen, msg, msglen, want_sig) == 1);
    CHECK_STATUS(fastsm2_verify_status(&pub, idbuf, idlen, msg, msglen, want_sig), FASTSM2_OK);

    /* One flipped bit anywhere in the signature, in e, in the message or
     * in the ID is rejected. */
    int all_rejected = 1;
    for (int bit = 0; bit < 512; bit += 7) {
        unsigned char bad[64];
        memcpy(bad, want_sig, 64);
        bad[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        int v1 = fastsm2_verify_digest(&pub, e, bad);
        int v2 = fastsm2_verify(&pub, idbuf, idlen, msg, msglen, bad);
        if (v1 != 0 || v2 != 0)
            all_rejected = 0;
    }
    CHECK(all_rejected);
    {
        unsigned char bad_e[32];
        memcpy(bad_e, e, 32);
        bad_e[31] ^= 1;
        CHECK(fastsm2_verify_digest(&pub, bad_e, want_sig) == 0);
        CHECK_STATUS(fastsm2_verify_digest_status(&pub, bad_e, want_sig), FASTSM2_ERR_BAD_SIGNATURE);
        char bad_msg[128];
        memcpy(bad_msg, msg, msglen);
        bad_msg[0] ^= 0x01;
        CHECK(fastsm2_verify(&pub, idbuf, idlen, bad_msg, msglen, want_sig) == 0);
        CHECK_STATUS(fastsm2_verify_status(&pub, idbuf, idlen, bad_msg, msglen, want_sig), FASTSM2_ERR_BAD_SIGNATURE);
        char bad_id[64];
        memcpy(bad_id, idbuf, idlen);
        bad_id[idlen - 1] ^= 0x01;
        CHECK(fastsm2_verify(&pub, bad_id, idlen, msg, msglen, want_sig) == 0);
        CHECK(fastsm2_verify(&pub, idbuf, idlen - 1, msg, msglen, want_sig) == 0);
    }

    /* fastsm2_sign with a fresh k signs the same message verifiably, and
     * two signatures differ (fresh nonces). */
    unsigned char sig2[64], sig3[64];
    CHECK_STATUS(fastsm2_sign(sig2, &key, idbuf, idlen, msg, msglen), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sign(sig3, &key, NULL, 0, msg, msglen), FASTSM2_OK);
    CHECK(fastsm2_verify(&pub, idbuf, idlen, msg, msglen, sig2) == 1);
    CHECK(fastsm2_verify(&pub, NULL, 0, msg, msglen, sig3) == 1);
    CHECK(fastsm2_verify_digest(&pub, e, sig2) == 1);
    CHECK(memcmp(sig2, sig3, 64) != 0);
    CHECK_STATUS(fastsm2_sign_digest(sig2, &key, e), FASTSM2_OK);
    CHECK(fastsm2_verify_digest(&pub, e, sig2) == 1);

    /* DER round trip of the known signature. */
    unsigned char der[FASTSM2_SIG_DER_MAX], back[64];
    size_t derlen = sizeof der;
    CHECK_STATUS(fastsm2_sig_to_der(der, &derlen, want_sig), FASTSM2_OK);
    /* r and s both have the top bit set: 30 46 02 21 00 r 02 21 00 s */
    CHECK(derlen == 72 && der[0] == 0x30 && der[1] == 0x46 && der[2] == 0x02 && der[3] == 0x21 && der[4] == 0x00 &&
          memcmp(der + 5, r, 32) == 0 && der[37] == 0x02 && der[38] == 0x21 && der[39] == 0x00 &&
          memcmp(der + 40, s, 32) == 0);
    CHECK_STATUS(fastsm2_sig_from_der(back, der, derlen), FASTSM2_OK);
    CHECK(memcmp(back, want_sig, 64) == 0);

    fastsm2_privkey_clear(&key);
    CHECK(all_zero(&key, sizeof key));
}

/* ---------------------------------------------------------------------- */
/* GB/T 32918.5 encryption example                                        */
/* ---------------------------------------------------------------------- */

static void test_encrypt(void)
{
    unsigned char d[32], k[32], c1[65], c3[32], c2[256];
    vec(d, 32, "sign", "d", 0); /* same key and k as the signature example */
    vec(k, 32, "sign", "k", 0);
    vec(c1, 65, "encrypt", "C1", 0);
    vec(c3, 32, "encrypt", "C3", 0);
    size_t c2len = vec_var(c2, sizeof c2, "encrypt", "C2", 0);
    char msg[256];
    snprintf(msg, sizeof msg, "%s", fs2t_vector("encrypt", "msg_ascii", 0));
    size_t msglen = strlen(msg);
    CHECK(c2len == msglen);

    fastsm2_privkey key;
    fastsm2_pubkey pub;
    CHECK_STATUS(fastsm2_privkey_from_bytes(&key, d), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);

    /* Expected encodings. */
    unsigned char want_c1c3c2[512], want_c1c2c3[512], want_der[512];
    size_t rawlen = 65 + 32 + c2len;
    memcpy(want_c1c3c2, c1, 65);
    memcpy(want_c1c3c2 + 65, c3, 32);
    memcpy(want_c1c3c2 + 97, c2, c2len);
    memcpy(want_c1c2c3, c1, 65);
    memcpy(want_c1c2c3 + 65, c2, c2len);
    memcpy(want_c1c2c3 + 65 + c2len, c3, 32);
    size_t derlen = der_ciphertext(want_der, c1 + 1, c1 + 33, c3, c2, c2len);
    /* The vectors file says y1 needs the leading 00: check our own writer. */
    CHECK(c1[33] >= 0x80 && derlen == 2 + 34 + 35 + 34 + 2 + c2len);

    CHECK(fastsm2_ciphertext_size(msglen, FASTSM2_CT_RAW) == rawlen);
    CHECK(fastsm2_ciphertext_size(msglen, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3) == rawlen);
    CHECK(fastsm2_ciphertext_size(msglen, FASTSM2_CT_DER) >= derlen);

    struct {
        int flags;
        const unsigned char *want;
        size_t wantlen;
    } cases[] = {
        {FASTSM2_CT_RAW, want_c1c3c2, rawlen},
        {FASTSM2_CT_RAW | FASTSM2_CT_C1C3C2, want_c1c3c2, rawlen},
        {FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, want_c1c2c3, rawlen},
        {FASTSM2_CT_DER, want_der, derlen},
        {FASTSM2_CT_DER | FASTSM2_CT_C1C2C3, want_der, derlen}, /* DER ignores the order */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned char out[512], pt[512];
        size_t outlen = fastsm2_ciphertext_size(msglen, cases[i].flags);
        CHECK(outlen <= sizeof out);
        CHECK_STATUS(fastsm2_encrypt_with_nonce(out, &outlen, &pub, msg, msglen, cases[i].flags, k), FASTSM2_OK);
        CHECK(outlen == cases[i].wantlen && memcmp(out, cases[i].want, cases[i].wantlen) == 0);

        /* Decrypt the expected bytes (not only our own output). */
        size_t ptlen = sizeof pt;
        memset(pt, 0xAA, sizeof pt);
        CHECK_STATUS(fastsm2_decrypt(pt, &ptlen, &key, cases[i].want, cases[i].wantlen, cases[i].flags), FASTSM2_OK);
        CHECK(ptlen == msglen && memcmp(pt, msg, msglen) == 0);

        /* Exactly msglen bytes of room is enough. */
        ptlen = msglen;
        CHECK_STATUS(fastsm2_decrypt(pt, &ptlen, &key, cases[i].want, cases[i].wantlen, cases[i].flags), FASTSM2_OK);
        CHECK(ptlen == msglen && memcmp(pt, msg, msglen) == 0);

        /* A flipped bit in C3 is caught. */
        unsigned char bad[512];
        memcpy(bad, cases[i].want, cases[i].wantlen);
        if (cases[i].want == want_der)
            bad[derlen - c2len - 1 - 2] ^= 0x01; /* last byte of C3 */
        else if (cases[i].want == want_c1c2c3)
            bad[rawlen - 1] ^= 0x01;
        else
            bad[65] ^= 0x01;
        ptlen = sizeof pt;
        CHECK_STATUS(fastsm2_decrypt(pt, &ptlen, &key, bad, cases[i].wantlen, cases[i].flags), FASTSM2_ERR_DECRYPT);
        CHECK(ptlen == 0 && all_zero(pt, sizeof pt));
    }

    /* A random-nonce encryption decrypts too, in every format. */
    int flagset[] = {FASTSM2_CT_DER, FASTSM2_CT_RAW, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3};
    for (size_t i = 0; i < 3; i++) {
        unsigned char out[512], pt[512];
        size_t outlen = sizeof out, ptlen = sizeof pt;
        CHECK_STATUS(fastsm2_encrypt(out, &outlen, &pub, msg, msglen, flagset[i]), FASTSM2_OK);
        CHECK(outlen <= fastsm2_ciphertext_size(msglen, flagset[i]));
        CHECK_STATUS(fastsm2_decrypt(pt, &ptlen, &key, out, outlen, flagset[i]), FASTSM2_OK);
        CHECK(ptlen == msglen && memcmp(pt, msg, msglen) == 0);
    }
    fastsm2_privkey_clear(&key);
}

/* ---------------------------------------------------------------------- */
/* GB/T 32918.5 key-exchange example                                      */
/* ---------------------------------------------------------------------- */

static void sec1(unsigned char out[65], const char *section, const char *kx, const char *ky)
{
    out[0] = 0x04;
    vec(out + 1, 32, section, kx, 0);
    vec(out + 33, 32, section, ky, 0);
}

static void test_key_exchange(void)
{
    unsigned char dA[32], dB[32], rA[32], rB[32], PA[65], PB[65], RA[65], RB[65];
    unsigned char zA[32], zB[32], K[16], SB[32], SA[32];
    vec(dA, 32, "key_exchange", "dA", 0);
    vec(dB, 32, "key_exchange", "dB", 0);
    vec(rA, 32, "key_exchange", "rA", 0);
    vec(rB, 32, "key_exchange", "rB", 0);
    sec1(PA, "key_exchange", "PAx", "PAy");
    sec1(PB, "key_exchange", "PBx", "PBy");
    sec1(RA, "key_exchange", "RAx", "RAy");
    sec1(RB, "key_exchange", "RBx", "RBy");
    vec(zA, 32, "key_exchange", "ZA", 0);
    vec(zB, 32, "key_exchange", "ZB", 0);
    vec(K, 16, "key_exchange", "K", 0);
    vec(SB, 32, "key_exchange", "SB", 0);
    vec(SA, 32, "key_exchange", "SA", 0);

    fastsm2_privkey keyA, keyB;
    fastsm2_pubkey pubA, pubB;
    CHECK_STATUS(fastsm2_privkey_from_bytes(&keyA, dA), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_from_bytes(&keyB, dB), FASTSM2_OK);
    CHECK_STATUS(fastsm2_pubkey_from_bytes(&pubA, PA, 65), FASTSM2_OK);
    CHECK_STATUS(fastsm2_pubkey_from_bytes(&pubB, PB, 65), FASTSM2_OK);

    /* The key pairs match the example's public keys. */
    {
        fastsm2_pubkey p;
        unsigned char b[65];
        size_t blen = sizeof b;
        CHECK_STATUS(fastsm2_privkey_pubkey(&p, &keyA), FASTSM2_OK);
        CHECK_STATUS(fastsm2_pubkey_to_bytes(b, &blen, &p, 0), FASTSM2_OK);
        CHECK(blen == 65 && memcmp(b, PA, 65) == 0);
        blen = sizeof b;
        CHECK_STATUS(fastsm2_privkey_pubkey(&p, &keyB), FASTSM2_OK);
        CHECK_STATUS(fastsm2_pubkey_to_bytes(b, &blen, &p, 0), FASTSM2_OK);
        CHECK(blen == 65 && memcmp(b, PB, 65) == 0);
    }

    /* Z_A and Z_B with the default ID. */
    unsigned char z[32];
    CHECK_STATUS(fastsm2_compute_z(z, &pubA, NULL, 0), FASTSM2_OK);
    CHECK(memcmp(z, zA, 32) == 0);
    CHECK_STATUS(fastsm2_compute_z(z, &pubB, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN), FASTSM2_OK);
    CHECK(memcmp(z, zB, 32) == 0);

    /* Run the example twice: default IDs as NULL, then spelled out. */
    for (int pass = 0; pass < 2; pass++) {
        const char *id = pass ? FASTSM2_DEFAULT_ID : NULL;
        size_t idlen = pass ? FASTSM2_DEFAULT_ID_LEN : 0;
        fastsm2_kx_ctx a, b;
        CHECK_STATUS(fastsm2_kx_init(&a, FASTSM2_KX_INITIATOR, &keyA, id, idlen, &pubB, id, idlen), FASTSM2_OK);
        CHECK_STATUS(fastsm2_kx_init(&b, FASTSM2_KX_RESPONDER, &keyB, id, idlen, &pubA, id, idlen), FASTSM2_OK);

        unsigned char ra[65], rb[65];
        CHECK_STATUS(fastsm2_kx_start_with_nonce(&a, ra, rA), FASTSM2_OK);
        CHECK(memcmp(ra, RA, 65) == 0);
        CHECK_STATUS(fastsm2_kx_start_with_nonce(&b, rb, rB), FASTSM2_OK);
        CHECK(memcmp(rb, RB, 65) == 0);

        unsigned char ka[16], kb[16];
        /* B computes first (it receives R_A), then A. */
        CHECK_STATUS(fastsm2_kx_compute(&b, kb, 16, RA, 65), FASTSM2_OK);
        CHECK(memcmp(kb, K, 16) == 0);
        CHECK_STATUS(fastsm2_kx_compute(&a, ka, 16, RB, 65), FASTSM2_OK);
        CHECK(memcmp(ka, K, 16) == 0);

        unsigned char sb[32], sa[32];
        CHECK_STATUS(fastsm2_kx_confirmation(sb, &b), FASTSM2_OK);
        CHECK(memcmp(sb, SB, 32) == 0);
        CHECK_STATUS(fastsm2_kx_confirmation(sa, &a), FASTSM2_OK);
        CHECK(memcmp(sa, SA, 32) == 0);

        CHECK_STATUS(fastsm2_kx_verify_confirmation(&a, SB), FASTSM2_OK);
        CHECK_STATUS(fastsm2_kx_verify_confirmation(&b, SA), FASTSM2_OK);

        /* Each side rejects a flipped byte in the peer's confirmation, and
         * its own confirmation in place of the peer's. */
        int rejected = 1;
        for (int i = 0; i < 32; i++) {
            unsigned char bad[32];
            memcpy(bad, SB, 32);
            bad[i] ^= (unsigned char)(1u << (i % 8));
            if (fastsm2_kx_verify_confirmation(&a, bad) != FASTSM2_ERR_CONFIRM)
                rejected = 0;
            memcpy(bad, SA, 32);
            bad[i] ^= 0x80;
            if (fastsm2_kx_verify_confirmation(&b, bad) != FASTSM2_ERR_CONFIRM)
                rejected = 0;
        }
        CHECK(rejected);
        CHECK_STATUS(fastsm2_kx_verify_confirmation(&a, SA), FASTSM2_ERR_CONFIRM);
        CHECK_STATUS(fastsm2_kx_verify_confirmation(&b, SB), FASTSM2_ERR_CONFIRM);

        fastsm2_kx_clear(&a);
        fastsm2_kx_clear(&b);
        CHECK(all_zero(&a, sizeof a) && all_zero(&b, sizeof b));
    }
    fastsm2_privkey_clear(&keyA);
    fastsm2_privkey_clear(&keyB);
}

/* A random key exchange between fresh keys with custom IDs: both sides
 * derive the same key for several lengths, and the confirmations match. */
static void test_key_exchange_random(void)
{
    static const size_t klens[] = {1, 32, 100};
    const char idA[] = "alice@example.com", idB[] = "bob";
    for (size_t t = 0; t < sizeof klens / sizeof klens[0]; t++) {
        size_t klen = klens[t];
        fastsm2_privkey keyA, keyB;
        fastsm2_pubkey pubA, pubB;
        CHECK_STATUS(fastsm2_privkey_generate(&keyA), FASTSM2_OK);
        CHECK_STATUS(fastsm2_privkey_generate(&keyB), FASTSM2_OK);
        CHECK_STATUS(fastsm2_privkey_pubkey(&pubA, &keyA), FASTSM2_OK);
        CHECK_STATUS(fastsm2_privkey_pubkey(&pubB, &keyB), FASTSM2_OK);

        fastsm2_kx_ctx a, b;
        CHECK_STATUS(fastsm2_kx_init(&a, FASTSM2_KX_INITIATOR, &keyA, idA, strlen(idA), &pubB, idB, strlen(idB)),
                     FASTSM2_OK);
        CHECK_STATUS(fastsm2_kx_init(&b, FASTSM2_KX_RESPONDER, &keyB, idB, strlen(idB), &pubA, idA, strlen(idA)),
                     FASTSM2_OK);
        unsigned char ra[65], rb[65];
        CHECK_STATUS(fastsm2_kx_start(&a, ra), FASTSM2_OK);
        CHECK_STATUS(fastsm2_kx_start(&b, rb), FASTSM2_OK);
        CHECK(ra[0] == 0x04 && rb[0] == 0x04 && memcmp(ra, rb, 65) != 0);

        unsigned char ka[100], kb[100];
        memset(ka, 0x11, sizeof ka);
        memset(kb, 0x22, sizeof kb);
        CHECK_STATUS(fastsm2_kx_compute(&b, kb, klen, ra, 65), FASTSM2_OK);
        CHECK_STATUS(fastsm2_kx_compute(&a, ka, klen, rb, 65), FASTSM2_OK);
        CHECK(memcmp(ka, kb, klen) == 0);
        /* Nothing written past klen. */
        CHECK(klen == sizeof ka || (ka[klen] == 0x11 && kb[klen] == 0x22));

        unsigned char sa[32], sb[32];
        CHECK_STATUS(fastsm2_kx_confirmation(&sb[0], &b), FASTSM2_OK);
        CHECK_STATUS(fastsm2_kx_confirmation(&sa[0], &a), FASTSM2_OK);
        CHECK(memcmp(sa, sb, 32) != 0);
        CHECK_STATUS(fastsm2_kx_verify_confirmation(&a, sb), FASTSM2_OK);
        CHECK_STATUS(fastsm2_kx_verify_confirmation(&b, sa), FASTSM2_OK);

        /* The responder with a wrong idea of A's ID gets a different key
         * and a confirmation that A rejects. */
        fastsm2_kx_ctx b2;
        unsigned char rb2[65], kb2[100];
        CHECK_STATUS(fastsm2_kx_init(&b2, FASTSM2_KX_RESPONDER, &keyB, idB, strlen(idB), &pubA, "alice", 5),
                     FASTSM2_OK);
        CHECK_STATUS(fastsm2_kx_start(&b2, rb2), FASTSM2_OK);
        CHECK_STATUS(fastsm2_kx_compute(&b2, kb2, klen, ra, 65), FASTSM2_OK);
        CHECK(klen < 4 || memcmp(kb2, ka, klen) != 0);
        unsigned char sb2[32];
        CHECK_STATUS(fastsm2_kx_confirmation(sb2, &b2), FASTSM2_OK);
        CHECK_STATUS(fastsm2_kx_verify_confirmation(&a, sb2), FASTSM2_ERR_CONFIRM);

        fastsm2_kx_clear(&a);
        fastsm2_kx_clear(&b);
        fastsm2_kx_clear(&b2);
        fastsm2_privkey_clear(&keyA);
        fastsm2_privkey_clear(&keyB);
    }
}

static void test_sm3(void)
{
    for (int i = 0; i < 2; i++) {
        unsigned char want[32], got[32];
        vec(want, 32, "sm3", "digest", i);
        const char *m = fs2t_vector("sm3", "msg_ascii", i);
        char buf[256];
        snprintf(buf, sizeof buf, "%s", m);
        fastsm2_sm3(got, buf, strlen(buf));
        CHECK(memcmp(got, want, 32) == 0);
    }
}

int main(void)
{
    test_sm3();
    test_sign();
    test_encrypt();
    test_key_exchange();
    test_key_exchange_random();
    return fs2t_finish("test_kat");
}
