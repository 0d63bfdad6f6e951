/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Constant-time test, in the manner of libsecp256k1's ctime tests: every
 * secret (private key bytes, the private key object, nonces, key-exchange
 * scalars, decrypted plaintext) is marked as undefined memory for valgrind
 * memcheck before the library sees it. Memcheck then reports any branch,
 * memory address or variable-time use that depends on it ("Conditional jump
 * or move depends on uninitialised value(s)", "Use of uninitialised value of
 * size 8"), and tests/CMakeLists.txt runs this program with
 * --error-exitcode=42. After each call the test marks the status and the
 * public outputs defined again before it looks at them.
 *
 * Values the library computes from secrets but that are public by design
 * (validity flags, the C3 comparison result, the public key...) are the
 * library's to declassify (fs2_declassify); the test never does that for it.
 *
 * The whole sequence runs once per backend in fs2_backends[] that this CPU
 * can run, and the test checks that these walked every EC and SM3 table
 * this CPU can run; then the SM4 calls (key schedule, every mode both
 * ways, GHASH, the tag and padding checks) once per SM4 table this CPU
 * can run (fs2_sm4_table). Run it outside valgrind and it is a plain
 * functional test. `ctime_test control` is the positive control: a
 * table lookup at a secret index, which memcheck must report (ctest
 * ctime_valgrind_control).
 */
#include <stdio.h>
#include <string.h>

#include "ctime.h"

#include "backend/backend.h"
#include "cpu.h"
#include "fastsm2.h"
#include "sm4/sm4_ops.h"
#include "sym/sym.h"

/* The GB/T 32918.5 examples (hex in the shared vectors file; repeated here
 * as bytes because this program is kept free of the test harness). */
static const unsigned char D_SIGN[32] = {0x39, 0x45, 0x20, 0x8F, 0x7B, 0x21, 0x44, 0xB1, 0x3F, 0x36, 0xE3,
                                         0x8A, 0xC6, 0xD3, 0x9F, 0x95, 0x88, 0x93, 0x93, 0x69, 0x28, 0x60,
                                         0xB5, 0x1A, 0x42, 0xFB, 0x81, 0xEF, 0x4D, 0xF7, 0xC5, 0xB8};
static const unsigned char PX_SIGN[32] = {0x09, 0xF9, 0xDF, 0x31, 0x1E, 0x54, 0x21, 0xA1, 0x50, 0xDD, 0x7D,
                                          0x16, 0x1E, 0x4B, 0xC5, 0xC6, 0x72, 0x17, 0x9F, 0xAD, 0x18, 0x33,
                                          0xFC, 0x07, 0x6B, 0xB0, 0x8F, 0xF3, 0x56, 0xF3, 0x50, 0x20};
static const unsigned char PY_SIGN[32] = {0xCC, 0xEA, 0x49, 0x0C, 0xE2, 0x67, 0x75, 0xA5, 0x2D, 0xC6, 0xEA,
                                          0x71, 0x8C, 0xC1, 0xAA, 0x60, 0x0A, 0xED, 0x05, 0xFB, 0xF3, 0x5E,
                                          0x08, 0x4A, 0x66, 0x32, 0xF6, 0x07, 0x2D, 0xA9, 0xAD, 0x13};
static const unsigned char E_SIGN[32] = {0xF0, 0xB4, 0x3E, 0x94, 0xBA, 0x45, 0xAC, 0xCA, 0xAC, 0xE6, 0x92,
                                         0xED, 0x53, 0x43, 0x82, 0xEB, 0x17, 0xE6, 0xAB, 0x5A, 0x19, 0xCE,
                                         0x7B, 0x31, 0xF4, 0x48, 0x6F, 0xDF, 0xC0, 0xD2, 0x86, 0x40};
static const unsigned char K_SIGN[32] = {0x59, 0x27, 0x6E, 0x27, 0xD5, 0x06, 0x86, 0x1A, 0x16, 0x68, 0x0F,
                                         0x3A, 0xD9, 0xC0, 0x2D, 0xCC, 0xEF, 0x3C, 0xC1, 0xFA, 0x3C, 0xDB,
                                         0xE4, 0xCE, 0x6D, 0x54, 0xB8, 0x0D, 0xEA, 0xC1, 0xBC, 0x21};
static const unsigned char RS_SIGN[64] = {0xF5, 0xA0, 0x3B, 0x06, 0x48, 0xD2, 0xC4, 0x63, 0x0E, 0xEA, 0xC5, 0x13, 0xE1,
                                          0xBB, 0x81, 0xA1, 0x59, 0x44, 0xDA, 0x38, 0x27, 0xD5, 0xB7, 0x41, 0x43, 0xAC,
                                          0x7E, 0xAC, 0xEE, 0xE7, 0x20, 0xB3, 0xB1, 0xB6, 0xAA, 0x29, 0xDF, 0x21, 0x2F,
                                          0xD8, 0x76, 0x31, 0x82, 0xBC, 0x0D, 0x42, 0x1C, 0xA1, 0xBB, 0x90, 0x38, 0xFD,
                                          0x1F, 0x7F, 0x42, 0xD4, 0x84, 0x0B, 0x69, 0xC4, 0x85, 0xBB, 0xC1, 0xAA};
static const char MSG_ENC[] = "encryption standard";
/* C1 = 04 || x1 || y1 (kG for the example's k) */
static const unsigned char C1_ENC[64] = {0x04, 0xEB, 0xFC, 0x71, 0x8E, 0x8D, 0x17, 0x98, 0x62, 0x04, 0x32, 0x26, 0x8E,
                                         0x77, 0xFE, 0xB6, 0x41, 0x5E, 0x2E, 0xDE, 0x0E, 0x07, 0x3C, 0x0F, 0x4F, 0x64,
                                         0x0E, 0xCD, 0x2E, 0x14, 0x9A, 0x73, 0xE8, 0x58, 0xF9, 0xD8, 0x1E, 0x54, 0x30,
                                         0xA5, 0x7B, 0x36, 0xDA, 0xAB, 0x8F, 0x95, 0x0A, 0x3C, 0x64, 0xE6, 0xEE, 0x6A,
                                         0x63, 0x09, 0x4D, 0x99, 0x28, 0x3A, 0xFF, 0x76, 0x7E, 0x12, 0x4D, 0xF0};
static const unsigned char C3_ENC[32] = {0x59, 0x98, 0x3C, 0x18, 0xF8, 0x09, 0xE2, 0x62, 0x92, 0x3C, 0x53,
                                         0xAE, 0xC2, 0x95, 0xD3, 0x03, 0x83, 0xB5, 0x4E, 0x39, 0xD6, 0x09,
                                         0xD1, 0x60, 0xAF, 0xCB, 0x19, 0x08, 0xD0, 0xBD, 0x87, 0x66};
static const unsigned char C2_ENC[19] = {0x21, 0x88, 0x6C, 0xA9, 0x89, 0xCA, 0x9C, 0x7D, 0x58, 0x08,
                                         0x73, 0x07, 0xCA, 0x93, 0x09, 0x2D, 0x65, 0x1E, 0xFA};
static const unsigned char DA_KX[32] = {0x81, 0xEB, 0x26, 0xE9, 0x41, 0xBB, 0x5A, 0xF1, 0x6D, 0xF1, 0x16,
                                        0x49, 0x5F, 0x90, 0x69, 0x52, 0x72, 0xAE, 0x2C, 0xD6, 0x3D, 0x6C,
                                        0x4A, 0xE1, 0x67, 0x84, 0x18, 0xBE, 0x48, 0x23, 0x00, 0x29};
static const unsigned char RA_KX[32] = {0xD4, 0xDE, 0x15, 0x47, 0x4D, 0xB7, 0x4D, 0x06, 0x49, 0x1C, 0x44,
                                        0x0D, 0x30, 0x5E, 0x01, 0x24, 0x00, 0x99, 0x0F, 0x3E, 0x39, 0x0C,
                                        0x7E, 0x87, 0x15, 0x3C, 0x12, 0xDB, 0x2E, 0xA6, 0x0B, 0xB3};
static const unsigned char DB_KX[32] = {0x78, 0x51, 0x29, 0x91, 0x7D, 0x45, 0xA9, 0xEA, 0x54, 0x37, 0xA5,
                                        0x93, 0x56, 0xB8, 0x23, 0x38, 0xEA, 0xAD, 0xDA, 0x6C, 0xEB, 0x19,
                                        0x90, 0x88, 0xF1, 0x4A, 0xE1, 0x0D, 0xEF, 0xA2, 0x29, 0xB5};
static const unsigned char RB_KX[32] = {0x7E, 0x07, 0x12, 0x48, 0x14, 0xB3, 0x09, 0x48, 0x91, 0x25, 0xEA,
                                        0xED, 0x10, 0x11, 0x13, 0x16, 0x4E, 0xBF, 0x0F, 0x34, 0x58, 0xC5,
                                        0xBD, 0x88, 0x33, 0x5C, 0x1F, 0x9D, 0x59, 0x62, 0x43, 0xD6};
static const unsigned char K_KX[16] = {0x6C, 0x89, 0x34, 0x73, 0x54, 0xDE, 0x24, 0x84,
                                       0xC6, 0x0B, 0x4A, 0xB1, 0xFD, 0xE4, 0xC6, 0xE5};
static const unsigned char SB_KX[32] = {0xD3, 0xA0, 0xFE, 0x15, 0xDE, 0xE1, 0x85, 0xCE, 0xAE, 0x90, 0x7A,
                                        0x6B, 0x59, 0x5C, 0xC3, 0x2A, 0x26, 0x6E, 0xD7, 0xB3, 0x36, 0x7E,
                                        0x99, 0x83, 0xA8, 0x96, 0xDC, 0x32, 0xFA, 0x20, 0xF8, 0xEB};
static const unsigned char SA_KX[32] = {0x18, 0xC7, 0x89, 0x4B, 0x38, 0x16, 0xDF, 0x16, 0xCF, 0x07, 0xB0,
                                        0x5C, 0x5E, 0xC0, 0xBE, 0xF5, 0xD6, 0x55, 0xD5, 0x8F, 0x77, 0x9C,
                                        0xC1, 0xB4, 0x00, 0xA4, 0xF3, 0x88, 0x46, 0x44, 0xDB, 0x88};

static int all_zero(const unsigned char *p, size_t n)
{
    unsigned char acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

/* Load d as a secret; return the status (public). */
static int load_secret_key(fastsm2_privkey *key, const unsigned char d_in[32])
{
    unsigned char d[32];
    memcpy(d, d_in, 32);
    SECRET(d, 32);
    int st = fastsm2_privkey_from_bytes(key, d);
    PUBLIC(&st, sizeof st);
    memset(d, 0, 32); /* a store of defined zeros: no report */
    return st;
}

/* The public key of a key whose object is secret: P is public, declassify
 * the copy we take. */
static int public_of(fastsm2_pubkey *pub, const fastsm2_privkey *key)
{
    int st = fastsm2_privkey_pubkey(pub, key);
    PUBLIC(&st, sizeof st);
    PUBLIC(pub, sizeof *pub);
    return st;
}

static void run_backend(const char *name)
{
    printf("backend %s\n", name);
    fflush(stdout);

    fastsm2_privkey key;
    fastsm2_pubkey pub;
    int st;

    /* ---- key generation core: P = dG and (1+d)^-1 from secret d ---- */
    st = load_secret_key(&key, D_SIGN);
    CT_CHECK(st == FASTSM2_OK);
    if (st != FASTSM2_OK)
        return;
    CT_CHECK(public_of(&pub, &key) == FASTSM2_OK);
    CT_CHECK(fastsm2_pubkey_precompute(&pub) == FASTSM2_OK); /* pub: with its tables */
    {
        unsigned char pt[65];
        size_t len = sizeof pt;
        st = fastsm2_pubkey_to_bytes(pt, &len, &pub, 0);
        CT_CHECK(st == FASTSM2_OK && len == 65 && pt[0] == 0x04 && memcmp(pt + 1, PX_SIGN, 32) == 0 &&
                 memcmp(pt + 33, PY_SIGN, 32) == 0);
    }

    /* ---- sign_digest: fresh k from the CSPRNG ---- */
    {
        unsigned char sig[64];
        SECRET(&key, sizeof key);
        st = fastsm2_sign_digest(sig, &key, E_SIGN);
        PUBLIC(&st, sizeof st);
        PUBLIC(sig, 64);
        CT_CHECK(st == FASTSM2_OK && fastsm2_verify_digest(&pub, E_SIGN, sig) == 1);
    }

    /* ---- sign_digest_with_nonce: secret key and secret k ---- */
    {
        unsigned char sig[64], k[32];
        memcpy(k, K_SIGN, 32);
        SECRET(&key, sizeof key);
        SECRET(k, 32);
        st = fastsm2_sign_digest_with_nonce(sig, &key, E_SIGN, k);
        PUBLIC(&st, sizeof st);
        PUBLIC(sig, 64);
        CT_CHECK(st == FASTSM2_OK && memcmp(sig, RS_SIGN, 64) == 0);
        CT_CHECK(fastsm2_verify_digest(&pub, E_SIGN, sig) == 1);
    }

    /* ---- batch signing: nonces drawn together, kG sharing one inversion ---- */
    {
        unsigned char sigs[64 * 5], es[32 * 5];
        for (int i = 0; i < 5; i++)
            memcpy(es + 32 * i, E_SIGN, 32);
        SECRET(&key, sizeof key);
        st = fastsm2_sign_digest_batch(sigs, &key, 1, es, 5, 1);
        PUBLIC(&st, sizeof st);
        PUBLIC(sigs, sizeof sigs);
        CT_CHECK(st == FASTSM2_OK);
        for (int i = 0; i < 5; i++)
            CT_CHECK(fastsm2_verify_digest(&pub, E_SIGN, sigs + 64 * i) == 1);
    }

    /* ---- sign (message API, the key's cached Z_A) ---- */
    {
        unsigned char sig[64];
        const char msg[] = "message digest";
        SECRET(&key, sizeof key);
        st = fastsm2_sign(sig, &key, NULL, 0, msg, sizeof msg - 1);
        PUBLIC(&st, sizeof st);
        PUBLIC(sig, 64);
        CT_CHECK(st == FASTSM2_OK && fastsm2_verify(&pub, NULL, 0, msg, sizeof msg - 1, sig) == 1);
        CT_CHECK(fastsm2_verify_digest(&pub, E_SIGN, sig) == 1);
    }

    /* ---- encrypt with a secret k and a secret plaintext ---- */
    unsigned char ct[200];
    size_t ctlen = sizeof ct;
    {
        unsigned char k[32], msg[sizeof MSG_ENC - 1];
        memcpy(k, K_SIGN, 32);
        memcpy(msg, MSG_ENC, sizeof msg);
        SECRET(k, 32);
        SECRET(msg, sizeof msg);
        /* Twice: with a public key object without tables (kP_B in one
         * 256-bit stream) and with pub, whose tables are made (two 128-bit
         * streams). */
        fastsm2_pubkey fresh;
        CT_CHECK(public_of(&fresh, &key) == FASTSM2_OK);
        for (int use = 0; use < 2; use++) {
            ctlen = sizeof ct;
            SECRET(k, 32);
            SECRET(msg, sizeof msg);
            st = fastsm2_encrypt_with_nonce(ct, &ctlen, use ? &pub : &fresh, msg, sizeof msg, FASTSM2_CT_RAW, k);
            PUBLIC(&st, sizeof st);
            PUBLIC(&ctlen, sizeof ctlen);
            PUBLIC(ct, sizeof ct);
            CT_CHECK(st == FASTSM2_OK && ctlen == 97 + sizeof msg && ct[0] == 0x04 && memcmp(ct + 1, C1_ENC, 64) == 0 &&
                     memcmp(ct + 65, C3_ENC, 32) == 0 && memcmp(ct + 97, C2_ENC, sizeof C2_ENC) == 0);
        }
    }

    /* ---- decrypt: secret key; the plaintext is secret until C3 checks ---- */
    {
        unsigned char out[64];
        size_t outlen = sizeof out;
        SECRET(&key, sizeof key);
        st = fastsm2_decrypt(out, &outlen, &key, ct, ctlen, FASTSM2_CT_RAW);
        PUBLIC(&st, sizeof st);
        PUBLIC(&outlen, sizeof outlen);
        PUBLIC(out, sizeof out);
        CT_CHECK(st == FASTSM2_OK && outlen == sizeof MSG_ENC - 1 && memcmp(out, MSG_ENC, outlen) == 0);

        /* The failure path (C3 mismatch) must not leak the plaintext
         * either: a flipped C2 byte. */
        unsigned char bad[200];
        memcpy(bad, ct, ctlen);
        bad[100] ^= 0x01;
        outlen = sizeof out;
        SECRET(&key, sizeof key);
        st = fastsm2_decrypt(out, &outlen, &key, bad, ctlen, FASTSM2_CT_RAW);
        PUBLIC(&st, sizeof st);
        PUBLIC(&outlen, sizeof outlen);
        PUBLIC(out, sizeof out);
        CT_CHECK(st == FASTSM2_ERR_DECRYPT && outlen == 0 && all_zero(out, sizeof out));

        /* The DER form, encrypted with a fresh k. */
        unsigned char der[200];
        size_t derlen = sizeof der;
        st = fastsm2_encrypt(der, &derlen, &pub, MSG_ENC, sizeof MSG_ENC - 1, FASTSM2_CT_DER);
        PUBLIC(&st, sizeof st);
        PUBLIC(&derlen, sizeof derlen);
        PUBLIC(der, sizeof der);
        CT_CHECK(st == FASTSM2_OK);
        outlen = sizeof out;
        SECRET(&key, sizeof key);
        st = fastsm2_decrypt(out, &outlen, &key, der, derlen, FASTSM2_CT_DER);
        PUBLIC(&st, sizeof st);
        PUBLIC(&outlen, sizeof outlen);
        PUBLIC(out, sizeof out);
        CT_CHECK(st == FASTSM2_OK && outlen == sizeof MSG_ENC - 1 && memcmp(out, MSG_ENC, outlen) == 0);
    }

    /* ---- a long secret plaintext: the KDF runs in the SIMD lanes (three
     * counters or more) on backends that have them ---- */
    {
        enum { LONG = 1000 };
        static unsigned char lmsg[LONG], lct[LONG + 200], lout[LONG];
        unsigned char k[32];
        size_t lctlen = sizeof lct, loutlen = sizeof lout;
        for (size_t i = 0; i < LONG; i++)
            lmsg[i] = (unsigned char)(i * 7 + 1);
        memcpy(k, K_SIGN, 32);
        SECRET(k, 32);
        SECRET(lmsg, LONG);
        st = fastsm2_encrypt_with_nonce(lct, &lctlen, &pub, lmsg, LONG, FASTSM2_CT_RAW, k);
        PUBLIC(&st, sizeof st);
        PUBLIC(&lctlen, sizeof lctlen);
        PUBLIC(lct, sizeof lct);
        CT_CHECK(st == FASTSM2_OK && lctlen == 97 + LONG);
        SECRET(&key, sizeof key);
        st = fastsm2_decrypt(lout, &loutlen, &key, lct, lctlen, FASTSM2_CT_RAW);
        PUBLIC(&st, sizeof st);
        PUBLIC(&loutlen, sizeof loutlen);
        PUBLIC(lout, sizeof lout);
        PUBLIC(lmsg, LONG);
        CT_CHECK(st == FASTSM2_OK && loutlen == LONG && memcmp(lout, lmsg, LONG) == 0);
    }

    /* ---- private key serialization ---- */
    {
        static const int fmts[4] = {FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_DER,
                                    FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_PEM, FASTSM2_KEYFMT_SEC1 | FASTSM2_KEYFMT_DER,
                                    FASTSM2_KEYFMT_SEC1 | FASTSM2_KEYFMT_PEM};
        for (int i = 0; i < 4; i++) {
            unsigned char out[512];
            size_t outlen = sizeof out;
            SECRET(&key, sizeof key);
            st = fastsm2_privkey_serialize(out, &outlen, &key, fmts[i]);
            PUBLIC(&st, sizeof st);
            PUBLIC(&outlen, sizeof outlen);
            PUBLIC(out, sizeof out);
            CT_CHECK(st == FASTSM2_OK);
            /* It loads back to the same d (the parse sees public bytes). */
            fastsm2_privkey back;
            unsigned char d[32];
            st = fastsm2_privkey_parse(&back, out, outlen);
            PUBLIC(&st, sizeof st);
            CT_CHECK(st == FASTSM2_OK);
            st = fastsm2_privkey_to_bytes(d, &back);
            PUBLIC(&st, sizeof st);
            PUBLIC(d, 32);
            CT_CHECK(st == FASTSM2_OK && memcmp(d, D_SIGN, 32) == 0);
            fastsm2_privkey_clear(&back);
        }
    }
    fastsm2_privkey_clear(&key);

    /* ---- key exchange: secret keys, secret r_A / r_B ---- */
    {
        fastsm2_privkey ka, kb;
        fastsm2_pubkey pa, pb;
        int sa = load_secret_key(&ka, DA_KX), sb = load_secret_key(&kb, DB_KX);
        CT_CHECK(sa == FASTSM2_OK && sb == FASTSM2_OK);
        if (sa != FASTSM2_OK || sb != FASTSM2_OK)
            return;
        CT_CHECK(public_of(&pa, &ka) == FASTSM2_OK);
        CT_CHECK(public_of(&pb, &kb) == FASTSM2_OK);

        fastsm2_kx_ctx a, b;
        SECRET(&ka, sizeof ka);
        st = fastsm2_kx_init(&a, FASTSM2_KX_INITIATOR, &ka, NULL, 0, &pb, NULL, 0);
        PUBLIC(&st, sizeof st);
        CT_CHECK(st == FASTSM2_OK);
        SECRET(&kb, sizeof kb);
        st = fastsm2_kx_init(&b, FASTSM2_KX_RESPONDER, &kb, NULL, 0, &pa, NULL, 0);
        PUBLIC(&st, sizeof st);
        CT_CHECK(st == FASTSM2_OK);

        unsigned char r[32], RA[65], RB[65];
        memcpy(r, RA_KX, 32);
        SECRET(r, 32);
        st = fastsm2_kx_start_with_nonce(&a, RA, r);
        PUBLIC(&st, sizeof st);
        PUBLIC(RA, 65);
        CT_CHECK(st == FASTSM2_OK && RA[0] == 0x04);
        memcpy(r, RB_KX, 32);
        SECRET(r, 32);
        st = fastsm2_kx_start_with_nonce(&b, RB, r);
        PUBLIC(&st, sizeof st);
        PUBLIC(RB, 65);
        CT_CHECK(st == FASTSM2_OK && RB[0] == 0x04);

        unsigned char kA[16], kB[16];
        st = fastsm2_kx_compute(&b, kB, 16, RA, 65);
        PUBLIC(&st, sizeof st);
        PUBLIC(kB, 16);
        CT_CHECK(st == FASTSM2_OK && memcmp(kB, K_KX, 16) == 0);
        st = fastsm2_kx_compute(&a, kA, 16, RB, 65);
        PUBLIC(&st, sizeof st);
        PUBLIC(kA, 16);
        CT_CHECK(st == FASTSM2_OK && memcmp(kA, K_KX, 16) == 0);

        unsigned char cb[32], ca[32];
        st = fastsm2_kx_confirmation(cb, &b);
        PUBLIC(&st, sizeof st);
        PUBLIC(cb, 32);
        CT_CHECK(st == FASTSM2_OK && memcmp(cb, SB_KX, 32) == 0);
        st = fastsm2_kx_confirmation(ca, &a);
        PUBLIC(&st, sizeof st);
        PUBLIC(ca, 32);
        CT_CHECK(st == FASTSM2_OK && memcmp(ca, SA_KX, 32) == 0);

        st = fastsm2_kx_verify_confirmation(&a, cb);
        PUBLIC(&st, sizeof st);
        CT_CHECK(st == FASTSM2_OK);
        st = fastsm2_kx_verify_confirmation(&b, ca);
        PUBLIC(&st, sizeof st);
        CT_CHECK(st == FASTSM2_OK);
        cb[5] ^= 0x40;
        st = fastsm2_kx_verify_confirmation(&a, cb);
        PUBLIC(&st, sizeof st);
        CT_CHECK(st == FASTSM2_ERR_CONFIRM);

        /* A random r (from the CSPRNG) and a fresh exchange. */
        fastsm2_kx_ctx a2, b2;
        SECRET(&ka, sizeof ka);
        SECRET(&kb, sizeof kb);
        st = fastsm2_kx_init(&a2, FASTSM2_KX_INITIATOR, &ka, "A", 1, &pb, "B", 1);
        PUBLIC(&st, sizeof st);
        CT_CHECK(st == FASTSM2_OK);
        st = fastsm2_kx_init(&b2, FASTSM2_KX_RESPONDER, &kb, "B", 1, &pa, "A", 1);
        PUBLIC(&st, sizeof st);
        CT_CHECK(st == FASTSM2_OK);
        st = fastsm2_kx_start(&a2, RA);
        PUBLIC(&st, sizeof st);
        PUBLIC(RA, 65);
        CT_CHECK(st == FASTSM2_OK);
        st = fastsm2_kx_start(&b2, RB);
        PUBLIC(&st, sizeof st);
        PUBLIC(RB, 65);
        CT_CHECK(st == FASTSM2_OK);
        unsigned char k1[40], k2[40];
        st = fastsm2_kx_compute(&a2, k1, 40, RB, 65);
        PUBLIC(&st, sizeof st);
        PUBLIC(k1, 40);
        CT_CHECK(st == FASTSM2_OK);
        st = fastsm2_kx_compute(&b2, k2, 40, RA, 65);
        PUBLIC(&st, sizeof st);
        PUBLIC(k2, 40);
        CT_CHECK(st == FASTSM2_OK && memcmp(k1, k2, 40) == 0);

        /* ---- ECDH (fastsm2_ecdh, RFC 8998 curveSM2): secret d, public peer point ---- */
        {
            unsigned char ea[65], eb[65], xa[32], xb[32];
            size_t n = sizeof ea;
            CT_CHECK(fastsm2_pubkey_to_bytes(ea, &n, &pa, 0) == FASTSM2_OK);
            n = sizeof eb;
            CT_CHECK(fastsm2_pubkey_to_bytes(eb, &n, &pb, 0) == FASTSM2_OK);
            SECRET(&ka, sizeof ka);
            st = fastsm2_ecdh(xa, &ka, eb, 65);
            PUBLIC(&st, sizeof st);
            PUBLIC(xa, 32);
            CT_CHECK(st == FASTSM2_OK);
            SECRET(&kb, sizeof kb);
            st = fastsm2_ecdh(xb, &kb, ea, 65);
            PUBLIC(&st, sizeof st);
            PUBLIC(xb, 32);
            CT_CHECK(st == FASTSM2_OK && memcmp(xa, xb, 32) == 0);
        }

        fastsm2_kx_clear(&a);
        fastsm2_kx_clear(&b);
        fastsm2_kx_clear(&a2);
        fastsm2_kx_clear(&b2);
        fastsm2_privkey_clear(&ka);
        fastsm2_privkey_clear(&kb);
    }
}

/* The calls that draw their own secrets from the OS: with
 * fs2_ctime_classify_random set, every random byte the library draws is
 * undefined memory, so keygen, signing, encryption and the key exchange are
 * checked with their real nonces and keys, not only through the *_with_nonce
 * and from_bytes twins. */
static void run_random(const char *name)
{
    fastsm2_privkey ka, kb;
    fastsm2_pubkey pa, pb;
    unsigned char e[32] = {1, 2, 3}, sig[64], ct[256], pt[64], ra[65], rb[65], k1[32], k2[32], sa[32], sb[32];
    static const char msg[] = "random secrets";
    size_t ctlen = sizeof ct, ptlen = sizeof pt;
    int ret;

    printf("backend %s: with random secrets\n", name);
    fs2_ctime_classify_random = 1;
    ret = fastsm2_privkey_generate(&ka);
    PUBLIC(&ret, sizeof ret);
    CT_CHECK(ret == FASTSM2_OK);
    ret = fastsm2_privkey_generate(&kb);
    PUBLIC(&ret, sizeof ret);
    CT_CHECK(ret == FASTSM2_OK);
    CT_CHECK(fastsm2_privkey_pubkey(&pa, &ka) == FASTSM2_OK);
    CT_CHECK(fastsm2_privkey_pubkey(&pb, &kb) == FASTSM2_OK);

    ret = fastsm2_sign_digest(sig, &ka, e);
    PUBLIC(&ret, sizeof ret);
    PUBLIC(sig, sizeof sig);
    CT_CHECK(ret == FASTSM2_OK);
    CT_CHECK(fastsm2_verify_digest(&pa, e, sig) == 1);
    ret = fastsm2_sign(sig, &ka, NULL, 0, msg, sizeof msg - 1);
    PUBLIC(&ret, sizeof ret);
    PUBLIC(sig, sizeof sig);
    CT_CHECK(ret == FASTSM2_OK);
    CT_CHECK(fastsm2_verify(&pa, NULL, 0, msg, sizeof msg - 1, sig) == 1);

    ret = fastsm2_encrypt(ct, &ctlen, &pa, msg, sizeof msg - 1, 0);
    PUBLIC(&ret, sizeof ret);
    PUBLIC(&ctlen, sizeof ctlen);
    PUBLIC(ct, sizeof ct);
    CT_CHECK(ret == FASTSM2_OK);
    ret = fastsm2_decrypt(pt, &ptlen, &ka, ct, ctlen, 0);
    PUBLIC(&ret, sizeof ret);
    PUBLIC(&ptlen, sizeof ptlen);
    PUBLIC(pt, sizeof pt);
    CT_CHECK(ret == FASTSM2_OK && ptlen == sizeof msg - 1 && memcmp(pt, msg, ptlen) == 0);

    fastsm2_kx_ctx xa, xb;
    CT_CHECK(fastsm2_kx_init(&xa, FASTSM2_KX_INITIATOR, &ka, NULL, 0, &pb, NULL, 0) == FASTSM2_OK);
    CT_CHECK(fastsm2_kx_init(&xb, FASTSM2_KX_RESPONDER, &kb, NULL, 0, &pa, NULL, 0) == FASTSM2_OK);
    ret = fastsm2_kx_start(&xa, ra);
    PUBLIC(&ret, sizeof ret);
    CT_CHECK(ret == FASTSM2_OK);
    ret = fastsm2_kx_start(&xb, rb);
    PUBLIC(&ret, sizeof ret);
    CT_CHECK(ret == FASTSM2_OK);
    ret = fastsm2_kx_compute(&xb, k2, sizeof k2, ra, sizeof ra);
    PUBLIC(&ret, sizeof ret);
    CT_CHECK(ret == FASTSM2_OK);
    ret = fastsm2_kx_compute(&xa, k1, sizeof k1, rb, sizeof rb);
    PUBLIC(&ret, sizeof ret);
    CT_CHECK(ret == FASTSM2_OK);
    CT_CHECK(fastsm2_kx_confirmation(sb, &xb) == FASTSM2_OK);
    CT_CHECK(fastsm2_kx_confirmation(sa, &xa) == FASTSM2_OK);
    PUBLIC(sa, sizeof sa);
    PUBLIC(sb, sizeof sb);
    ret = fastsm2_kx_verify_confirmation(&xa, sb);
    PUBLIC(&ret, sizeof ret);
    CT_CHECK(ret == FASTSM2_OK);
    ret = fastsm2_kx_verify_confirmation(&xb, sa);
    PUBLIC(&ret, sizeof ret);
    CT_CHECK(ret == FASTSM2_OK);
    PUBLIC(k1, sizeof k1);
    PUBLIC(k2, sizeof k2);
    CT_CHECK(memcmp(k1, k2, sizeof k1) == 0);
    fs2_ctime_classify_random = 0;
    fastsm2_kx_clear(&xa);
    fastsm2_kx_clear(&xb);
    fastsm2_privkey_clear(&ka);
    fastsm2_privkey_clear(&kb);
}

/* ---- SM4 (the public API, src/sym/sm4*.c over src/sm4/) ------------------ */

/* st, made public (the status of a call is public by contract). */
static int pub_status(int st)
{
    PUBLIC(&st, sizeof st);
    return st;
}

/* The streaming ECB/CBC/CTR/OFB/CFB over len bytes of in, in pieces of
 * 7..41 bytes; the output public afterwards. Returns its length, or -1. */
static long sm4_stream(unsigned char *out, int mode, int enc, int pad, const fastsm2_sm4_key *key,
                       const unsigned char *iv, const unsigned char *in, size_t len)
{
    fastsm2_sm4_ctx c;
    size_t o = 0, ol;
    int ecb = mode == FASTSM2_SM4_ECB;
    if (pub_status(fastsm2_sm4_init(&c, mode, enc, pad, key, ecb ? NULL : iv, ecb ? 0 : 16)) != FASTSM2_OK)
        return -1;
    for (size_t i = 0, p = 7; i < len; i += p, p = p % 35 + 7) {
        if (p > len - i)
            p = len - i;
        ol = p + 15;
        if (pub_status(fastsm2_sm4_update(&c, out + o, &ol, in + i, p)) != FASTSM2_OK)
            return -1;
        o += ol;
    }
    ol = 16;
    if (pub_status(fastsm2_sm4_final(&c, out + o, &ol)) != FASTSM2_OK)
        return -1;
    PUBLIC(out, o + ol);
    return (long)(o + ol);
}

/* Every SM4 call with a secret key and secret plaintexts on the table in
 * use: the key schedule (with H and its powers), ECB, CBC with its
 * unpadding (good and bad), CTR, the five streams, GCM (an IV of 12 bytes,
 * and one of 20, whose J0 comes from the secret GHASH) with its tag check
 * passing and failing, one-shot and streaming, CCM, XTS in both orders
 * with ciphertext stealing. IVs, ciphertexts and tags given are public. */
static void run_sm4(const char *name)
{
    unsigned char k[32], iv[20], pt[200], ct[232], back[232], tag[16];
    fastsm2_sm4_key key, key2;
    size_t n;
    printf("SM4 table %s\n", name);
    fflush(stdout);
    for (int i = 0; i < 32; i++)
        k[i] = (unsigned char)(11 * i + 3);
    for (int i = 0; i < 20; i++)
        iv[i] = (unsigned char)(5 * i + 1);
    for (int i = 0; i < 200; i++)
        pt[i] = (unsigned char)(13 * i + 9);
    SECRET(k, 32);
    CT_CHECK(pub_status(fastsm2_sm4_key_init(&key, k)) == FASTSM2_OK);
    CT_CHECK(pub_status(fastsm2_sm4_key_init(&key2, k + 16)) == FASTSM2_OK);
    SECRET(pt, sizeof pt);
    /* ECB */
    CT_CHECK(pub_status(fastsm2_sm4_ecb_encrypt(ct, &key, pt, 192)) == FASTSM2_OK);
    PUBLIC(ct, 192);
    CT_CHECK(pub_status(fastsm2_sm4_ecb_decrypt(back, &key, ct, 192)) == FASTSM2_OK);
    PUBLIC(back, 192);
    PUBLIC(pt, sizeof pt);
    CT_CHECK(memcmp(back, pt, 192) == 0);
    /* CBC with PKCS#7, and a bad padding */
    SECRET(pt, sizeof pt);
    n = sizeof ct;
    CT_CHECK(pub_status(fastsm2_sm4_cbc_encrypt(ct, &n, &key, iv, FASTSM2_SM4_PAD_PKCS7, pt, 195)) == FASTSM2_OK);
    PUBLIC(&n, sizeof n);
    PUBLIC(ct, sizeof ct);
    CT_CHECK(n == 208);
    n = sizeof back;
    CT_CHECK(pub_status(fastsm2_sm4_cbc_decrypt(back, &n, &key, iv, FASTSM2_SM4_PAD_PKCS7, ct, 208)) == FASTSM2_OK);
    PUBLIC(back, sizeof back);
    PUBLIC(pt, sizeof pt);
    CT_CHECK(n == 195 && memcmp(back, pt, 195) == 0);
    ct[191] ^= 1; /* the last block's plaintext changes: its padding breaks */
    n = sizeof back;
    CT_CHECK(pub_status(fastsm2_sm4_cbc_decrypt(back, &n, &key, iv, FASTSM2_SM4_PAD_PKCS7, ct, 208)) ==
             FASTSM2_ERR_PADDING);
    /* CTR */
    SECRET(pt, sizeof pt);
    CT_CHECK(pub_status(fastsm2_sm4_ctr(ct, &key, iv, pt, 199)) == FASTSM2_OK);
    PUBLIC(ct, 199);
    CT_CHECK(pub_status(fastsm2_sm4_ctr(back, &key, iv, ct, 199)) == FASTSM2_OK);
    PUBLIC(back, 199);
    PUBLIC(pt, sizeof pt);
    CT_CHECK(memcmp(back, pt, 199) == 0);
    /* the streams, both directions */
    for (int mode = FASTSM2_SM4_ECB; mode <= FASTSM2_SM4_CFB; mode++) {
        int pad = mode <= FASTSM2_SM4_CBC ? FASTSM2_SM4_PAD_PKCS7 : FASTSM2_SM4_PAD_NONE;
        SECRET(pt, sizeof pt);
        long cl = sm4_stream(ct, mode, FASTSM2_SM4_ENCRYPT, pad, &key, iv, pt, 197);
        long bl = sm4_stream(back, mode, FASTSM2_SM4_DECRYPT, pad, &key, iv, ct, cl > 0 ? (size_t)cl : 0);
        PUBLIC(pt, sizeof pt);
        CT_CHECK(cl > 0 && bl == 197 && memcmp(back, pt, 197) == 0);
    }
    /* GCM: one-shot and streaming, a good and a bad tag; IVs of 12 and 20 */
    for (size_t ivlen = 12; ivlen <= 20; ivlen += 8) {
        fastsm2_sm4_gcm_ctx g;
        SECRET(pt, sizeof pt);
        CT_CHECK(pub_status(fastsm2_sm4_gcm_encrypt(ct, tag, 16, &key, iv, ivlen, iv, 7, pt, 200)) == FASTSM2_OK);
        PUBLIC(ct, 200);
        PUBLIC(tag, 16);
        CT_CHECK(pub_status(fastsm2_sm4_gcm_decrypt(back, &key, iv, ivlen, iv, 7, ct, 200, tag, 16)) == FASTSM2_OK);
        PUBLIC(back, 200);
        PUBLIC(pt, sizeof pt);
        CT_CHECK(memcmp(back, pt, 200) == 0);
        tag[3] ^= 4;
        CT_CHECK(pub_status(fastsm2_sm4_gcm_decrypt(back, &key, iv, ivlen, iv, 7, ct, 200, tag, 16)) ==
                 FASTSM2_ERR_TAG);
        tag[3] ^= 4;
        CT_CHECK(pub_status(fastsm2_sm4_gcm_init(&g, FASTSM2_SM4_DECRYPT, &key, iv, ivlen)) == FASTSM2_OK);
        CT_CHECK(pub_status(fastsm2_sm4_gcm_aad(&g, iv, 3)) == FASTSM2_OK);
        CT_CHECK(pub_status(fastsm2_sm4_gcm_aad(&g, iv + 3, 4)) == FASTSM2_OK);
        CT_CHECK(pub_status(fastsm2_sm4_gcm_update(&g, back, ct, 37)) == FASTSM2_OK);
        CT_CHECK(pub_status(fastsm2_sm4_gcm_update(&g, back + 37, ct + 37, 163)) == FASTSM2_OK);
        CT_CHECK(pub_status(fastsm2_sm4_gcm_decrypt_final(&g, tag, 16)) == FASTSM2_OK);
        PUBLIC(back, 200);
        CT_CHECK(memcmp(back, pt, 200) == 0);
        SECRET(pt, sizeof pt);
        CT_CHECK(pub_status(fastsm2_sm4_gcm_init(&g, FASTSM2_SM4_ENCRYPT, &key, iv, ivlen)) == FASTSM2_OK);
        CT_CHECK(pub_status(fastsm2_sm4_gcm_aad(&g, iv, 7)) == FASTSM2_OK);
        CT_CHECK(pub_status(fastsm2_sm4_gcm_update(&g, back, pt, 200)) == FASTSM2_OK);
        CT_CHECK(pub_status(fastsm2_sm4_gcm_encrypt_final(&g, tag, 12)) == FASTSM2_OK);
        PUBLIC(back, 200);
        PUBLIC(tag, 12);
        PUBLIC(pt, sizeof pt);
        CT_CHECK(memcmp(back, ct, 200) == 0);
    }
    /* CCM */
    SECRET(pt, sizeof pt);
    CT_CHECK(pub_status(fastsm2_sm4_ccm_encrypt(ct, tag, 16, &key, iv, 12, iv, 5, pt, 200)) == FASTSM2_OK);
    PUBLIC(ct, 200);
    PUBLIC(tag, 16);
    CT_CHECK(pub_status(fastsm2_sm4_ccm_decrypt(back, &key, iv, 12, iv, 5, ct, 200, tag, 16)) == FASTSM2_OK);
    PUBLIC(back, 200);
    PUBLIC(pt, sizeof pt);
    CT_CHECK(memcmp(back, pt, 200) == 0);
    ct[100] ^= 1;
    CT_CHECK(pub_status(fastsm2_sm4_ccm_decrypt(back, &key, iv, 12, iv, 5, ct, 200, tag, 16)) == FASTSM2_ERR_TAG);
    /* XTS, both orders, 199 bytes: ciphertext stealing */
    for (int std = FASTSM2_SM4_XTS_GB; std <= FASTSM2_SM4_XTS_IEEE; std++) {
        SECRET(pt, sizeof pt);
        CT_CHECK(pub_status(fastsm2_sm4_xts_encrypt(ct, &key, &key2, std, iv, pt, 199)) == FASTSM2_OK);
        PUBLIC(ct, 199);
        CT_CHECK(pub_status(fastsm2_sm4_xts_decrypt(back, &key, &key2, std, iv, ct, 199)) == FASTSM2_OK);
        PUBLIC(back, 199);
        PUBLIC(pt, sizeof pt);
        CT_CHECK(memcmp(back, pt, 199) == 0);
    }
    fastsm2_sm4_key_clear(&key);
    fastsm2_sm4_key_clear(&key2);
    PUBLIC(k, sizeof k);
}

/* The positive control (argument "control"): an SM4 S-box looked up in a
 * table at a secret index, the way table-based SM4 code does. Memcheck
 * must report it: the ctest ctime_valgrind_control expects valgrind's
 * error exit. */
static int run_control(void)
{
    static volatile unsigned char sbox[256];
    unsigned char k[16] = {0x01, 0x23, 0x45, 0x67};
    for (int i = 0; i < 256; i++)
        sbox[i] = (unsigned char)(i * 7 + 3);
    SECRET(k, sizeof k);
    unsigned char v = sbox[k[1] ^ k[2]];
    PUBLIC(&v, 1);
    printf("ctime control: table lookup at a secret index gave %u\n", v);
    return 0;
}

/* The features whose instructions valgrind 3.19+ executes although its
 * virtual CPUID does not report all of them (ADX): a backend that needs no
 * more is forced under valgrind even where its CPUID check fails. Not
 * AVX-512 (valgrind cannot run it at all: the avx512 SM3 table is tested
 * natively only), nor anything of AArch64 (valgrind does not run under
 * qemu-user). */
#define VALGRIND_EXECUTES (FS2_CPU_X86_BMI2 | FS2_CPU_X86_ADX | FS2_CPU_X86_AVX2)

static int runnable(uint32_t needs)
{
    return fs2_cpu_has(needs) || (RUNNING_ON_VALGRIND && (needs & ~(uint32_t)VALGRIND_EXECUTES) == 0);
}

/* The symmetric code of encrypted key files (src/sym): secret keys,
 * passwords and plaintexts through SM4, AES-256, SHA-256, HMAC, PBKDF2 and
 * CBC unpadding, then a whole encrypted key file written and read back
 * with a secret key and a secret password. */
static void run_sym(const char *name)
{
    unsigned char key[32], in[48], out[48], back[48], mac[32], dk[40];
    printf("backend %s: symmetric\n", name);
    fflush(stdout);
    for (int i = 0; i < 32; i++)
        key[i] = (unsigned char)(3 * i + 1);
    for (int i = 0; i < 48; i++)
        in[i] = (unsigned char)(7 * i + 5);
    {
        fs2_aes256_key ak;
        SECRET(in, 48);
        fs2_aes256_set_key(&ak, key);
        fs2_aes256_encrypt(&ak, out, in);
        fs2_aes256_decrypt(&ak, back, out);
        PUBLIC(back, 16);
        PUBLIC(in, 48);
        CT_CHECK(memcmp(back, in, 16) == 0);
    }
    for (int cipher = FS2_CIPHER_SM4; cipher <= FS2_CIPHER_AES256; cipher++) {
        fs2_block_key bk;
        unsigned char iv[16] = {1, 2, 3};
        size_t blen = 0;
        SECRET(key, 32);
        SECRET(in, 48);
        fs2_block_set_key(&bk, cipher, key);
        fs2_cbc_encrypt_pad(&bk, out, iv, in, 40);
        PUBLIC(out, 48); /* a ciphertext */
        int ok = fs2_cbc_decrypt_unpad(&bk, back, &blen, iv, out, 48);
        PUBLIC(&ok, sizeof ok);
        PUBLIC(&blen, sizeof blen);
        PUBLIC(back, 48);
        PUBLIC(in, 48);
        CT_CHECK(ok == 1 && blen == 40 && memcmp(back, in, 40) == 0);
    }
    for (int hash = FS2_HASH_SM3; hash <= FS2_HASH_SHA256; hash++) {
        fs2_hmac_ctx h;
        SECRET(key, 32);
        SECRET(in, 48);
        fs2_hmac_init(&h, hash, key, 32);
        fs2_hmac_update(&h, in, 48);
        fs2_hmac_final(mac, &h);
        PUBLIC(mac, 32);
        SECRET(key, 32);
        fs2_pbkdf2(dk, sizeof dk, hash, key, 20, in, 8, 3);
        PUBLIC(dk, sizeof dk);
        PUBLIC(in, 48);
        CT_CHECK(!all_zero(mac, 32) && !all_zero(dk, sizeof dk));
    }
    {
        SECRET(key, 32);
        SECRET(in, 48);
        int st = fastsm2_hmac_sm3(mac, key, 32, in, 48);
        PUBLIC(&st, sizeof st);
        PUBLIC(mac, 32);
        CT_CHECK(st == FASTSM2_OK);
    }
    /* An encrypted key file, each scheme: the key and the password secret;
     * the file comes out public (the library declassifies the ciphertext),
     * and is read back with the password secret. */
    static const int schemes[3] = {FASTSM2_PBE_SM3_SM4, FASTSM2_PBE_SHA256_SM4, FASTSM2_PBE_SHA256_AES256};
    for (int s = 0; s < 3; s++) {
        fastsm2_privkey k, back_key;
        char pw[] = "correct horse";
        unsigned char file[FASTSM2_PRIVKEY_ENCRYPTED_MAX], d[32];
        size_t flen = sizeof file;
        int st = load_secret_key(&k, D_SIGN);
        CT_CHECK(st == FASTSM2_OK);
        SECRET(&k, sizeof k);
        SECRET(pw, sizeof pw);
        st = fastsm2_privkey_serialize_encrypted(file, &flen, &k, FASTSM2_KEYFMT_PEM, schemes[s], 2, pw, sizeof pw - 1);
        PUBLIC(&st, sizeof st);
        PUBLIC(&flen, sizeof flen);
        PUBLIC(file, sizeof file);
        CT_CHECK(st == FASTSM2_OK);
        SECRET(pw, sizeof pw);
        st = fastsm2_privkey_parse_encrypted(&back_key, file, flen, pw, sizeof pw - 1);
        PUBLIC(&st, sizeof st);
        CT_CHECK(st == FASTSM2_OK);
        st = fastsm2_privkey_to_bytes(d, &back_key);
        PUBLIC(&st, sizeof st);
        PUBLIC(d, 32);
        CT_CHECK(st == FASTSM2_OK && memcmp(d, D_SIGN, 32) == 0);
        fastsm2_privkey_clear(&k);
        fastsm2_privkey_clear(&back_key);
    }
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "control") == 0)
        return run_control();
    int ran = 0;
    const void *walked[32];
    size_t nwalked = 0;
    for (size_t i = 0; fs2_backends[i] != NULL; i++) {
        const fs2_backend *be = fs2_backends[i];
        int forced;
        if (fs2_backend_available(be)) {
            forced = fs2_backend_force(be->name);
        } else if (runnable(be->ec->cpu_needs | be->sm3->cpu_needs)) {
            printf("backend %s: hidden by valgrind's CPUID, forced\n", be->name);
            forced = fs2_backend_force_unchecked(be->name);
        } else {
            printf("backend %s: cannot run here, skipped\n", be->name);
            continue;
        }
        CT_CHECK(forced == 1);
        if (forced != 1)
            continue;
        CT_CHECK(strcmp(fastsm2_backend_name(), be->name) == 0);
        printf("backend %s: EC %s, SM3 %s\n", be->name, be->ec->name, be->sm3->name);
        run_backend(be->name);
        run_random(be->name);
        run_sym(be->name);
        if (nwalked + 2 <= sizeof walked / sizeof walked[0]) {
            walked[nwalked++] = be->ec;
            walked[nwalked++] = be->sm3;
        }
        ran++;
    }
    CT_CHECK(ran > 0);
    /* Every table that can run here was walked by some backend. */
    const fs2_ec_ops *ec;
    const fs2_sm3_ops *sm3;
    for (size_t i = 0; (ec = fs2_ec_table(i)) != NULL; i++) {
        int seen = 0;
        for (size_t w = 0; w < nwalked; w++)
            seen |= walked[w] == (const void *)ec;
        if (!seen)
            printf("EC %s: not walked (cannot run here)\n", ec->name);
        CT_CHECK(seen || !runnable(ec->cpu_needs));
    }
    for (size_t i = 0; (sm3 = fs2_sm3_table(i)) != NULL; i++) {
        int seen = 0;
        for (size_t w = 0; w < nwalked; w++)
            seen |= walked[w] == (const void *)sm3;
        if (!seen)
            printf("SM3 %s: not walked (cannot run here)\n", sm3->name);
        CT_CHECK(seen || !runnable(sm3->cpu_needs));
    }
    /* SM4: every table of the SM4 dispatch that can run here */
    const fs2_sm4_ops *sm4;
    int sm4_ran = 0;
    for (size_t i = 0; (sm4 = fs2_sm4_table(i)) != NULL; i++) {
        if (!runnable(sm4->cpu_needs)) {
            printf("SM4 %s: not walked (cannot run here)\n", sm4->name);
            continue;
        }
        fs2_sm4_force(sm4);
        CT_CHECK(strcmp(fastsm2_sm4_backend_name(), sm4->name) == 0);
        run_sm4(sm4->name);
        sm4_ran++;
    }
    fs2_sm4_force(NULL);
    CT_CHECK(sm4_ran > 0);
    return ct_finish("ctime_test");
}
