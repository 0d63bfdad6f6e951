/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Differential tests against the system OpenSSL 3 libcrypto, both ways:
 *
 *  ours -> OpenSSL: our keys serialized (PKCS#8/SEC1, PEM/DER, SPKI) load
 *    in OpenSSL with the same d and public point; our signatures (raw ->
 *    DER) verify in EVP_DigestVerify with SM3 and the ID; our default
 *    ciphertexts (GM/T 0009 DER, C1C3C2) decrypt in EVP_PKEY_decrypt.
 *  OpenSSL -> ours: OpenSSL keys (PEM PKCS#8, PEM "EC PRIVATE KEY", DER
 *    SEC1, DER PKCS#8, SPKI, bare SEC1 points) parse here; its signatures
 *    verify here; its ciphertexts decrypt here.
 *
 * With the default ID and custom IDs; a wrong ID must fail on both sides.
 * OpenSSL hashes an EMPTY ID when none is set (not the default
 * 1234567812345678), so the OpenSSL side sets the ID explicitly, except in
 * test_empty_id: there no ID is set on OpenSSL's side and ours is the empty
 * ID (id "" with idlen 0, include/fastsm2.h).
 *
 * Also the scalar multiplication d*G for random and edge scalars against
 * EC_POINT_mul on the SM2 group.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "testossl.h"

/* Iterations per direction; each holds 2 signatures and 1 encryption, so
 * 3 * ITERS random cases per direction. */
#define ITERS 110

static unsigned long n_cases_out, n_cases_in;

static int our_pub_bytes(const fastsm2_pubkey *pub, unsigned char out[65])
{
    size_t len = 65;
    return fastsm2_pubkey_to_bytes(out, &len, pub, 0) == FASTSM2_OK && len == 65;
}

/* ---------------------------------------------------------------------- */
/* ours -> OpenSSL                                                         */
/* ---------------------------------------------------------------------- */

static void test_ours_to_openssl(void)
{
    /* our key formats and the same as OpenSSL reads them */
    static const int keyfmts[4][2] = {{FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_PEM, FS2T_PEM_PKCS8},
                                      {FASTSM2_KEYFMT_SEC1 | FASTSM2_KEYFMT_PEM, FS2T_PEM_SEC1},
                                      {FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_DER, FS2T_DER_PKCS8},
                                      {FASTSM2_KEYFMT_SEC1 | FASTSM2_KEYFMT_DER, FS2T_DER_SEC1}};
    struct fs2t_tally t = {0};

    for (int it = 0; it < ITERS; it++) {
        fastsm2_privkey key;
        fastsm2_pubkey pub;
        if (fastsm2_privkey_generate(&key) != FASTSM2_OK || fastsm2_privkey_pubkey(&pub, &key) != FASTSM2_OK) {
            CHECK(0);
            continue;
        }
        unsigned char d[32], P[65], od[32], oP[65];
        CHECK_STATUS(fastsm2_privkey_to_bytes(d, &key), FASTSM2_OK);
        CHECK(our_pub_bytes(&pub, P));

        /* Private key file -> OpenSSL: same d, same public point. */
        int fmt = keyfmts[it % 4][0];
        unsigned char buf[1024];
        size_t buflen = sizeof buf;
        CHECK_STATUS(fastsm2_privkey_serialize(buf, &buflen, &key, fmt), FASTSM2_OK);
        int pem = (fmt & FASTSM2_KEYFMT_PEM) != 0;
        if (pem)
            CHECK(buflen < sizeof buf && buf[buflen] == 0 && strlen((char *)buf) == buflen);
        EVP_PKEY *opk = fs2t_ossl_read_key(NULL, buf, buflen, keyfmts[it % 4][1]);
        int k_ok = opk != NULL && EVP_PKEY_is_a(opk, "SM2") && fs2t_ossl_priv_bytes(opk, od) &&
                   memcmp(od, d, 32) == 0 && fs2t_ossl_pub_bytes(opk, oP) && memcmp(oP, P, 65) == 0;
        fs2t_count(&t.key_ok, k_ok, "ours->OpenSSL: private key (fmt %d) did not load or differs\n", fmt);
        if (!opk) {
            fastsm2_privkey_clear(&key);
            continue;
        }

        /* Public key file (SPKI PEM / DER) -> OpenSSL. */
        buflen = sizeof buf;
        int pfmt = (it & 1) ? FASTSM2_KEYFMT_PEM : FASTSM2_KEYFMT_DER;
        CHECK_STATUS(fastsm2_pubkey_serialize(buf, &buflen, &pub, pfmt), FASTSM2_OK);
        EVP_PKEY *opub =
            fs2t_ossl_read_key(NULL, buf, buflen, pfmt == FASTSM2_KEYFMT_PEM ? FS2T_PEM_SPKI : FS2T_DER_SPKI);
        CHECK(opub != NULL && EVP_PKEY_is_a(opub, "SM2") && fs2t_ossl_pub_bytes(opub, oP) && memcmp(oP, P, 65) == 0);
        if (!opub)
            opub = opk, EVP_PKEY_up_ref(opk);

        /* Signatures, default ID (ours: the key's ID) and a custom ID. */
        unsigned char msg[300], id[40];
        size_t msglen = fs2t_rand_len_bytes(msg, 0, 300);
        for (int custom = 0; custom < 2; custom++) {
            size_t sidlen;
            const unsigned char *sid = fs2t_sig_id(custom, id, &sidlen);
            unsigned char sig[64], der[FASTSM2_SIG_DER_MAX];
            size_t derlen = sizeof der;
            int st = custom ? fastsm2_sign(sig, &key, sid, sidlen, msg, msglen)
                            : fastsm2_sign(sig, &key, NULL, 0, msg, msglen);
            CHECK_STATUS(st, FASTSM2_OK);
            CHECK_STATUS(fastsm2_sig_to_der(der, &derlen, sig), FASTSM2_OK);
            t.sigs++;
            int v = fs2t_ossl_verify(NULL, NULL, opub, sid, sidlen, msg, msglen, der, derlen);
            fs2t_count(&t.sig_ok, v, "ours->OpenSSL: signature not accepted (it %d, custom %d, msglen %zu)\n", it,
                       custom, msglen);
            /* A wrong ID (one byte changed, or default vs custom) fails. */
            unsigned char wid[40];
            fs2t_wrong_id(wid, sid, sidlen, 0);
            int bad1 = fs2t_ossl_verify(NULL, NULL, opub, wid, sidlen, msg, msglen, der, derlen);
            /* custom: the default ID; default: a 15-byte prefix of it. */
            int bad2 = custom ? fs2t_ossl_verify(NULL, NULL, opub, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN, msg,
                                                 msglen, der, derlen)
                              : fs2t_ossl_verify(NULL, NULL, opub, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN - 1, msg,
                                                 msglen, der, derlen);
            t.sig_bad_rejected += (unsigned long)(bad1 == 0 && bad2 == 0);
            /* And here too. */
            CHECK(fastsm2_verify(&pub, wid, sidlen, msg, msglen, sig) == 0);
        }

        /* Encryption, default flags (DER, C1C3C2), 1..300 bytes. */
        unsigned char pt[300];
        size_t ptlen = fs2t_rand_len_bytes(pt, 1, 300);
        unsigned char ct[600];
        size_t ctlen = sizeof ct;
        CHECK_STATUS(fastsm2_encrypt(ct, &ctlen, &pub, pt, ptlen, 0), FASTSM2_OK);
        t.cts++;
        fs2t_count(&t.ct_ok, fs2t_ossl_decrypts_to(NULL, NULL, opk, ct, ctlen, pt, ptlen),
                   "ours->OpenSSL: ciphertext (ptlen %zu) not decrypted\n", ptlen);

        EVP_PKEY_free(opub);
        EVP_PKEY_free(opk);
        fastsm2_privkey_clear(&key);
    }
    n_cases_out += fs2t_tally_finish(&t, "ours -> OpenSSL", ITERS, 2);
}

/* ---------------------------------------------------------------------- */
/* OpenSSL -> ours                                                         */
/* ---------------------------------------------------------------------- */

static void test_openssl_to_ours(void)
{
    struct fs2t_tally t = {0};

    for (int it = 0; it < ITERS; it++) {
        unsigned char od[32], oP[65], P[65], d[32];
        EVP_PKEY *opk = fs2t_ossl_keygen_bytes(NULL, NULL, od, oP);

        /* Private key file -> ours. */
        size_t len;
        unsigned char *file = fs2t_ossl_write_key(opk, it % 4, &len);
        fastsm2_privkey key;
        fastsm2_pubkey pub, pub2;
        int st = fastsm2_privkey_parse(&key, file, len);
        free(file);
        int k_ok = st == FASTSM2_OK && fastsm2_privkey_to_bytes(d, &key) == FASTSM2_OK && memcmp(d, od, 32) == 0 &&
                   fastsm2_privkey_pubkey(&pub2, &key) == FASTSM2_OK && our_pub_bytes(&pub2, P) &&
                   memcmp(P, oP, 65) == 0;
        fs2t_count(&t.key_ok, k_ok, "OpenSSL->ours: private key form %d: %s\n", it % 4, fastsm2_error_name(st));
        if (st != FASTSM2_OK) {
            EVP_PKEY_free(opk);
            continue;
        }

        /* Public key file (SPKI PEM, DER) or a bare SEC1 point -> ours. */
        if (it % 3 == 2) {
            st = fastsm2_pubkey_parse(&pub, oP, 65);
        } else {
            file = fs2t_ossl_write_key(opk, FS2T_PEM_SPKI + it % 3, &len);
            st = fastsm2_pubkey_parse(&pub, file, len);
            free(file);
        }
        CHECK_STATUS(st, FASTSM2_OK);
        if (st != FASTSM2_OK)
            pub = pub2;
        CHECK(our_pub_bytes(&pub, P) && memcmp(P, oP, 65) == 0);

        /* OpenSSL's signatures verify here. */
        unsigned char msg[300], id[40];
        size_t msglen = fs2t_rand_len_bytes(msg, 0, 300);
        for (int custom = 0; custom < 2; custom++) {
            size_t sidlen;
            const unsigned char *sid = fs2t_sig_id(custom, id, &sidlen);
            unsigned char der[128], sig[64];
            size_t derlen = sizeof der;
            if (!fs2t_ossl_sign(NULL, NULL, opk, sid, sidlen, msg, msglen, der, &derlen))
                fs2t_ossl_die("sign");
            t.sigs++;
            st = fastsm2_sig_from_der(sig, der, derlen);
            CHECK_STATUS(st, FASTSM2_OK);
            int v = st == FASTSM2_OK && (custom ? fastsm2_verify(&pub, sid, sidlen, msg, msglen, sig)
                                                : fastsm2_verify(&pub, NULL, 0, msg, msglen, sig)) == 1;
            /* The digest API with e computed from our Z agrees. */
            unsigned char z[32], e[32];
            fastsm2_sm3_ctx h;
            CHECK_STATUS(fastsm2_compute_z(z, &pub, sid, sidlen), FASTSM2_OK);
            fastsm2_sm3_init(&h);
            fastsm2_sm3_update(&h, z, 32);
            fastsm2_sm3_update(&h, msg, msglen);
            fastsm2_sm3_final(e, &h);
            v = v && fastsm2_verify_digest(&pub, e, sig) == 1;
            fs2t_count(&t.sig_ok, v, "OpenSSL->ours: signature not accepted (it %d, custom %d, msglen %zu)\n", it,
                       custom, msglen);

            /* Wrong ID fails here and in OpenSSL. */
            unsigned char wid[40];
            fs2t_wrong_id(wid, sid, sidlen, 1);
            int bad_here = fastsm2_verify(&pub, wid, sidlen, msg, msglen, sig);
            int bad_here2 = fastsm2_verify(&pub, sid, sidlen - 1, msg, msglen, sig);
            int bad_there = fs2t_ossl_verify(NULL, NULL, opk, wid, sidlen, msg, msglen, der, derlen);
            t.sig_bad_rejected += (unsigned long)(bad_here == 0 && bad_here2 == 0 && bad_there == 0);
        }

        /* OpenSSL's ciphertexts decrypt here. */
        unsigned char pt[300], out[300];
        size_t ptlen = fs2t_rand_len_bytes(pt, 1, 300);
        size_t ctlen = 0;
        unsigned char *ct = fs2t_ossl_crypt(NULL, NULL, opk, 1, pt, ptlen, &ctlen);
        if (!ct)
            fs2t_ossl_die("encrypt");
        t.cts++;
        size_t outlen = sizeof out;
        st = fastsm2_decrypt(out, &outlen, &key, ct, ctlen, 0);
        int c_ok = st == FASTSM2_OK && outlen == ptlen && memcmp(out, pt, ptlen) == 0;
        fs2t_count(&t.ct_ok, c_ok, "OpenSSL->ours: ciphertext (ptlen %zu) not decrypted: %s\n", ptlen,
                   fastsm2_error_name(st));
        free(ct);

        fastsm2_privkey_clear(&key);
        EVP_PKEY_free(opk);
    }
    n_cases_in += fs2t_tally_finish(&t, "OpenSSL -> ours", ITERS, 2);
}

/* An L-byte plaintext both ways, one-shot and streaming (pieces of odd
 * sizes), on every backend this CPU has (the KDF runs in 1, 8 or 16 SIMD
 * lanes). */
static void test_long_plaintext(size_t L)
{
    unsigned char *pt = malloc(L), *out = malloc(L), *ct = malloc(L + 256);
    fs2t_rand_bytes(pt, L);
    EVP_PKEY *opk = fs2t_ossl_keygen(NULL, NULL);
    size_t flen;
    unsigned char *file = fs2t_ossl_write_key(opk, FS2T_PEM_PKCS8, &flen);
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    CHECK_STATUS(fastsm2_privkey_parse(&key, file, flen), FASTSM2_OK);
    free(file);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);

    size_t octlen = 0;
    unsigned char *oct = fs2t_ossl_crypt(NULL, NULL, opk, 1, pt, L, &octlen);
    if (!oct)
        fs2t_ossl_die("encrypt long");
    const char *was = fastsm2_backend_name();
    for (size_t bi = 0; fs2_backends[bi]; bi++) {
        if (!fs2_backend_available(fs2_backends[bi]))
            continue;
        CHECK(fs2_backend_force(fs2_backends[bi]->name) == 1);
        size_t ctlen = L + 256;
        CHECK(fastsm2_ciphertext_size(L, 0) <= ctlen);
        CHECK_STATUS(fastsm2_encrypt(ct, &ctlen, &pub, pt, L, 0), FASTSM2_OK);
        CHECK(fs2t_ossl_decrypts_to(NULL, NULL, opk, ct, ctlen, pt, L));
        n_cases_out++;

        size_t outlen = L;
        CHECK_STATUS(fastsm2_decrypt(out, &outlen, &key, oct, octlen, 0), FASTSM2_OK);
        CHECK(outlen == L && memcmp(out, pt, L) == 0);
        n_cases_in++;

        /* Streaming: ours in pieces -> OpenSSL, OpenSSL -> ours in pieces. */
        ctlen = fs2t_stream_encrypt(ct, L + 256, &pub, pt, L, 0, NULL, 1000 + 37 * bi);
        CHECK(ctlen > 0);
        CHECK(fs2t_ossl_decrypts_to(NULL, NULL, opk, ctlen ? ct : NULL, ctlen, pt, L));
        memset(out, 0, L);
        CHECK_STATUS(fs2t_stream_decrypt(out, &outlen, &key, oct, octlen, 0, 4093 + 64 * bi), FASTSM2_OK);
        CHECK(outlen == L && memcmp(out, pt, L) == 0);
        /* ... and a flipped C2 byte fails B6 in the stream too. */
        oct[octlen - 1] ^= 1;
        CHECK_STATUS(fs2t_stream_decrypt(out, &outlen, &key, oct, octlen, 0, 4096), FASTSM2_ERR_DECRYPT);
        oct[octlen - 1] ^= 1;
    }
    CHECK(fs2_backend_force(was) == 1);
    free(oct);

    fastsm2_privkey_clear(&key);
    EVP_PKEY_free(opk);
    free(pt);
    free(out);
    free(ct);
}

/* ---------------------------------------------------------------------- */
/* The empty ID: OpenSSL with no ID set <-> ours with id "", idlen 0        */
/* ---------------------------------------------------------------------- */

static void test_empty_id(void)
{
    unsigned long ok_out = 0, ok_in = 0, n = 0;
    /* OpenSSL's empty ID: no ID set up to 3.x; from 4.0 on, no ID set means
     * the default ID, and the empty one is set explicitly */
    const int nd = fs2t_ossl_no_id_is_default();
    const void *oid = nd ? "" : NULL;
    for (int it = 0; it < 16; it++, n++) {
        unsigned char d[32], P[65];
        EVP_PKEY *opk = fs2t_ossl_keygen_bytes(NULL, NULL, d, P);
        fastsm2_privkey key;
        fastsm2_pubkey pub;
        CHECK_STATUS(fastsm2_privkey_from_bytes(&key, d), FASTSM2_OK);
        CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);
        unsigned char msg[200], sig[64], der[FASTSM2_SIG_DER_MAX], oder[FASTSM2_SIG_DER_MAX], osig[64];
        size_t msglen = fs2t_rand_len_bytes(msg, 0, sizeof msg), derlen = sizeof der, oderlen = sizeof oder;

        /* ours, empty ID -> OpenSSL with no ID set: accepted; with the
         * default ID set: refused */
        CHECK_STATUS(fastsm2_sign(sig, &key, "", 0, msg, msglen), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sig_to_der(der, &derlen, sig), FASTSM2_OK);
        int v = fs2t_ossl_verify(NULL, NULL, opk, oid, 0, msg, msglen, der, derlen);
        ok_out += (unsigned long)v;
        if (!v)
            fprintf(stderr, "empty ID: ours -> OpenSSL (no ID set) not accepted (it %d)\n", it);
        CHECK(fs2t_ossl_verify(NULL, NULL, opk, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN, msg, msglen, der, derlen) ==
              0);

        /* OpenSSL with no ID set -> ours: valid with the empty ID, not with
         * the key's (default) ID nor with a one-byte ID */
        CHECK(fs2t_ossl_sign(NULL, NULL, opk, oid, 0, msg, msglen, oder, &oderlen));
        CHECK_STATUS(fastsm2_sig_from_der(osig, oder, oderlen), FASTSM2_OK);
        v = fastsm2_verify(&pub, "", 0, msg, msglen, osig) == 1;
        ok_in += (unsigned long)v;
        if (!v)
            fprintf(stderr, "empty ID: OpenSSL (no ID set) -> ours not accepted (it %d)\n", it);
        CHECK_STATUS(fastsm2_verify_status(&pub, "", 0, msg, msglen, osig), FASTSM2_OK);
        CHECK(fastsm2_verify(&pub, NULL, 0, msg, msglen, osig) == 0);
        CHECK(fastsm2_verify(&pub, "\0", 1, msg, msglen, osig) == 0);

        /* a key whose own ID is the empty one (set_id "", 0) signs the same way */
        fastsm2_privkey k2 = key;
        CHECK_STATUS(fastsm2_privkey_set_id(&k2, "", 0), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sign(sig, &k2, NULL, 0, msg, msglen), FASTSM2_OK);
        derlen = sizeof der;
        CHECK_STATUS(fastsm2_sig_to_der(der, &derlen, sig), FASTSM2_OK);
        CHECK(fs2t_ossl_verify(NULL, NULL, opk, oid, 0, msg, msglen, der, derlen));
        fastsm2_privkey_clear(&k2);
        /* and OpenSSL's own choice with no ID set: the default ID from 4.0
         * on (ours: the key's ID), the empty ID before */
        oderlen = sizeof oder;
        CHECK(fs2t_ossl_sign(NULL, NULL, opk, NULL, 0, msg, msglen, oder, &oderlen));
        CHECK_STATUS(fastsm2_sig_from_der(osig, oder, oderlen), FASTSM2_OK);
        CHECK(fastsm2_verify(&pub, nd ? NULL : "", 0, msg, msglen, osig) == 1);
        CHECK(fastsm2_verify(&pub, nd ? "" : NULL, 0, msg, msglen, osig) == 0);
        fastsm2_privkey_clear(&key);
        EVP_PKEY_free(opk);
    }
    printf("empty ID: %lu/%lu ours -> OpenSSL, %lu/%lu OpenSSL -> ours (no ID set there)\n", ok_out, n, ok_in, n);
    CHECK(ok_out == n && ok_in == n);
}

/* ---------------------------------------------------------------------- */
/* d*G against EC_POINT_mul                                                */
/* ---------------------------------------------------------------------- */

/* d*G by the library (uncompressed and compressed) against OpenSSL. */
static void check_scalar(const unsigned char d[32], const unsigned char want[65], const unsigned char wantc[33],
                         const char *label)
{
    unsigned char got[65];
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    int st = fastsm2_privkey_from_bytes(&key, d);
    CHECK_STATUS(st, FASTSM2_OK);
    int ok = st == FASTSM2_OK && fastsm2_privkey_pubkey(&pub, &key) == FASTSM2_OK && our_pub_bytes(&pub, got) &&
             memcmp(got, want, 65) == 0;
    if (ok) {
        size_t clen = sizeof got;
        ok = fastsm2_pubkey_to_bytes(got, &clen, &pub, 1) == FASTSM2_OK && clen == 33 && memcmp(got, wantc, 33) == 0;
    }
    if (!ok) {
        char hex[65];
        fs2t_hex(hex, d, 32);
        fprintf(stderr, "d*G differs from OpenSSL for %s d = %s\n", label, hex);
    }
    CHECK(ok);
    fastsm2_privkey_clear(&key);
}

int main(void)
{
    fs2t_ossl_scalars(check_scalar, 60);
    test_ours_to_openssl();
    test_openssl_to_ours();
    test_empty_id();
    test_long_plaintext(4096);
    test_long_plaintext(1048576);
    printf("random cases: %lu ours -> OpenSSL, %lu OpenSSL -> ours\n", n_cases_out, n_cases_in);
    CHECK(n_cases_out >= 300 && n_cases_in >= 300);
    return fs2t_finish("test_openssl_diff");
}
