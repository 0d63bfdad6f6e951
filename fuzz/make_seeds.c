/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writes the seed corpora of fuzz/corpus/<target>/: valid inputs of each
 * kind for the fixed keys of fuzz_util.h, with fixed nonces so that the
 * files are the same on every run. Usage: make_seeds DIR (DIR/<target>
 * must exist). tests/harness/fuzz.sh --seeds runs it.
 */
#include <stdio.h>

#include "fuzz_util.h"

static const char *dir;

static void put(const char *target, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", dir, target, name);
    FILE *f = fopen(path, "wb");
    FZ_CHECK(f != NULL);
    FZ_CHECK(fwrite(p, 1, n, f) == n);
    FZ_CHECK(fclose(f) == 0);
}

static void fill(unsigned char *p, size_t n, unsigned x)
{
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (unsigned char)(x >> 16);
    }
}

int main(int argc, char **argv)
{
    FZ_CHECK(argc == 2);
    dir = argv[1];
    fastsm2_privkey ka, kb;
    fastsm2_pubkey pa, pb;
    fz_key(&ka, &pa, 0);
    fz_key(&kb, &pb, 1);
    unsigned char buf[4096], e[32], k[32], sig[64], der[FASTSM2_SIG_DER_MAX];
    char name[64];
    size_t len;

    /* DER signatures: r and s of every DER length from 31 to 33 bytes */
    for (unsigned i = 0; i < 12; i++) {
        fill(e, 32, i);
        fill(k, 32, 100 + i);
        k[0] &= 0x7F;
        FZ_CHECK(fastsm2_sign_digest_with_nonce(sig, &ka, e, k) == FASTSM2_OK);
        if (i % 3 == 1)
            sig[0] &= 0x7F; /* r without a leading 00 */
        if (i % 3 == 2)
            sig[0] = 0, sig[1] |= 0x80; /* r one byte shorter */
        len = sizeof der;
        FZ_CHECK(fastsm2_sig_to_der(der, &len, sig) == FASTSM2_OK);
        snprintf(name, sizeof name, "sig-%u", i);
        put("sig_der", name, der, len);
    }
    put("sig_der", "raw64", sig, 64);

    /* public keys: points in both forms, SPKI DER and PEM, for both keys */
    for (int w = 0; w < 2; w++) {
        const fastsm2_pubkey *p = w ? &pb : &pa;
        for (int c = 0; c < 2; c++) {
            len = sizeof buf;
            FZ_CHECK(fastsm2_pubkey_to_bytes(buf, &len, p, c) == FASTSM2_OK);
            snprintf(name, sizeof name, "point-%d-%s", w, c ? "compressed" : "uncompressed");
            put("pubkey", name, buf, len);
        }
        static const int fmts[] = {FASTSM2_KEYFMT_DER, FASTSM2_KEYFMT_PEM};
        for (int f = 0; f < 2; f++) {
            len = sizeof buf;
            FZ_CHECK(fastsm2_pubkey_serialize(buf, &len, p, fmts[f]) == FASTSM2_OK);
            snprintf(name, sizeof name, "spki-%d.%s", w, f ? "pem" : "der");
            put("pubkey", name, buf, len);
        }
    }

    /* private keys: both keys in the four formats */
    static const int kfmts[] = {FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_DER, FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_PEM,
                                FASTSM2_KEYFMT_SEC1 | FASTSM2_KEYFMT_DER, FASTSM2_KEYFMT_SEC1 | FASTSM2_KEYFMT_PEM};
    static const char *kfnames[] = {"pkcs8.der", "pkcs8.pem", "sec1.der", "sec1.pem"};
    for (int w = 0; w < 2; w++)
        for (int f = 0; f < 4; f++) {
            len = sizeof buf;
            FZ_CHECK(fastsm2_privkey_serialize(buf, &len, w ? &kb : &ka, kfmts[f]) == FASTSM2_OK);
            snprintf(name, sizeof name, "key-%d-%s", w, kfnames[f]);
            put("privkey", name, buf, len);
        }

    /* ciphertexts for key A (flags byte, piece seed, ciphertext) and the
     * encryptor's inputs (flags byte, piece seed, k, message) */
    static const size_t lens[] = {1, 31, 32, 33, 100, 257, 1500};
    for (unsigned fl = 0; fl < 3; fl++)
        for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            unsigned char msg[1500];
            fill(msg, lens[i], (unsigned)(fl * 31 + i));
            fill(k, 32, (unsigned)(fl * 77 + i + 1));
            k[0] &= 0x7F;
            len = sizeof buf - 2;
            FZ_CHECK(fastsm2_encrypt_with_nonce(buf + 2, &len, &pa, msg, lens[i], fz_ct_flags((uint8_t)fl), k) ==
                     FASTSM2_OK);
            buf[0] = (unsigned char)fl;
            buf[1] = (unsigned char)(i * 37);
            snprintf(name, sizeof name, "ct-%u-%zu", fl, lens[i]);
            put("ciphertext", name, buf, len + 2);
            buf[0] = (unsigned char)fl;
            buf[1] = (unsigned char)(i * 41);
            memcpy(buf + 2, k, 32);
            memcpy(buf + 34, msg, lens[i]);
            snprintf(name, sizeof name, "msg-%u-%zu", fl, lens[i]);
            put("encrypt_stream", name, buf, 34 + lens[i]);
        }

    /* key exchange: each mode; modes 1 and 2 carry the peer's true R (and
     * a made-up confirmation), compressed and not */
    for (unsigned mode = 0; mode < 3; mode++)
        for (unsigned c = 0; c < 2; c++) {
            size_t n = 0;
            unsigned char ra[32], rb[32], R[65];
            buf[n++] = (unsigned char)mode;
            buf[n++] = 0, buf[n++] = (unsigned char)(15 + 17 * c); /* klen - 1 */
            buf[n++] = (unsigned char)(c ? 5 : 0), buf[n++] = (unsigned char)(c ? 16 : 0);
            if (c) {
                memcpy(buf + n, "alice", 5), n += 5;
                memcpy(buf + n, "1234567812345678", 16), n += 16;
            }
            fill(ra, 32, mode * 2 + c + 1), ra[0] &= 0x7F;
            fill(rb, 32, mode * 2 + c + 9), rb[0] &= 0x7F;
            memcpy(buf + n, ra, 32), n += 32;
            memcpy(buf + n, rb, 32), n += 32;
            if (mode == 0) {
                buf[n++] = 77; /* the bit to flip */
            } else {
                /* the peer's R: R = r G for its nonce, by a throwaway context */
                fastsm2_kx_ctx x;
                const unsigned char *r = mode == 1 ? ra : rb;
                FZ_CHECK(fastsm2_kx_init(&x, mode == 1 ? FASTSM2_KX_INITIATOR : FASTSM2_KX_RESPONDER,
                                         mode == 1 ? &ka : &kb, NULL, 0, mode == 1 ? &pb : &pa, NULL, 0) == FASTSM2_OK);
                FZ_CHECK(fastsm2_kx_start_with_nonce(&x, R, r) == FASTSM2_OK);
                fastsm2_kx_clear(&x);
                if (c) {
                    R[0] = (unsigned char)(2 | (R[64] & 1));
                    buf[n++] = 33;
                    memcpy(buf + n, R, 33), n += 33;
                } else {
                    buf[n++] = 65;
                    memcpy(buf + n, R, 65), n += 65;
                }
                fill(buf + n, 32, 5), n += 32;
            }
            snprintf(name, sizeof name, "kx-%u-%u", mode, c);
            put("kx", name, buf, n);
        }
    fastsm2_privkey_clear(&ka);
    fastsm2_privkey_clear(&kb);
    return 0;
}
