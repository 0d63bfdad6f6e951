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
    /* Encrypted private keys (fuzz_privkey_enc): each scheme, DER and PEM,
     * 1 to 3 iterations, password "fuzz-pw"; salt and IV come from the
     * library's generator, so these files differ from run to run. */
    static const int schemes[] = {FASTSM2_PBE_SM3_SM4, FASTSM2_PBE_SHA256_SM4, FASTSM2_PBE_SHA256_AES256};
    for (int s = 0; s < 3; s++)
        for (int pem = 0; pem < 2; pem++) {
            len = sizeof buf;
            FZ_CHECK(fastsm2_privkey_serialize_encrypted(buf, &len, s == 1 ? &kb : &ka,
                                                         pem ? FASTSM2_KEYFMT_PEM : FASTSM2_KEYFMT_DER, schemes[s],
                                                         (uint32_t)(1 + s), "fuzz-pw", 7) == FASTSM2_OK);
            snprintf(name, sizeof name, "enc-%d-%s", schemes[s], pem ? "pem" : "der");
            put("privkey_enc", name, buf, len);
        }
    len = sizeof buf; /* a plain key: read by the same calls */
    FZ_CHECK(fastsm2_privkey_serialize(buf, &len, &ka, FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_DER) == FASTSM2_OK);
    put("privkey_enc", "plain-der", buf, len);

    /* Certificates (fuzz_cert), built by hand around the keys' SPKI: v3
     * with extensions, v1 with a negative serial, a long serial with [1]
     * [2] [3]. tests/harness/fuzz.sh --seeds adds GmSSL's PEM certificates from
     * tests/fixtures. */
    for (int c = 0; c < 3; c++) {
        unsigned char spki[128], tbs[512];
        size_t sl = sizeof spki, n = 0;
        FZ_CHECK(fastsm2_pubkey_serialize(spki, &sl, c == 1 ? &pb : &pa, FASTSM2_KEYFMT_DER) == FASTSM2_OK);
        if (c != 1) /* version [0] { INTEGER 2 } */
            tbs[n++] = 0xA0, tbs[n++] = 3, tbs[n++] = 0x02, tbs[n++] = 1, tbs[n++] = 2;
        static const unsigned char ser0[] = {0x02, 0x01, 0x01}, ser1[] = {0x02, 0x01, 0x85},
                                   ser2[] = {0x02, 0x09, 0x00, 0x81, 2, 3, 4, 5, 6, 7, 8};
        const unsigned char *ser = c == 0 ? ser0 : c == 1 ? ser1 : ser2;
        size_t sn = c == 0 ? sizeof ser0 : c == 1 ? sizeof ser1 : sizeof ser2;
        memcpy(tbs + n, ser, sn), n += sn;
        /* signature sm2sign-with-sm3, issuer CN=a, validity, subject CN=a */
        static const unsigned char alg[] = {0x30, 0x0A, 0x06, 0x08, 0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x83, 0x75};
        static const unsigned char name_a[] = {0x30, 0x0C, 0x31, 0x0A, 0x30, 0x08, 0x06,
                                               0x03, 0x55, 0x04, 0x03, 0x0C, 0x01, 0x61};
        static const unsigned char validity[] = {0x30, 0x1E, 0x17, 0x0D, '2', '6', '0',  '1',  '0', '1', '0',
                                                 '0',  '0',  '0',  '0',  '0', 'Z', 0x17, 0x0D, '3', '6', '0',
                                                 '1',  '0',  '1',  '0',  '0', '0', '0',  '0',  '0', 'Z'};
        memcpy(tbs + n, alg, sizeof alg), n += sizeof alg;
        memcpy(tbs + n, name_a, sizeof name_a), n += sizeof name_a;
        memcpy(tbs + n, validity, sizeof validity), n += sizeof validity;
        memcpy(tbs + n, name_a, sizeof name_a), n += sizeof name_a;
        memcpy(tbs + n, spki, sl), n += sl;
        if (c == 0) { /* [3] { SEQUENCE { basicConstraints } } */
            static const unsigned char ext[] = {0xA3, 0x0E, 0x30, 0x0C, 0x30, 0x0A, 0x06, 0x03,
                                                0x55, 0x1D, 0x13, 0x04, 0x03, 0x30, 0x01, 0xFF};
            memcpy(tbs + n, ext, sizeof ext), n += sizeof ext;
        }
        if (c == 2) { /* [1] and [2] unique IDs, then an empty [3] list */
            static const unsigned char ids[] = {0x81, 0x02, 0x00, 0x01, 0x82, 0x02, 0x00, 0x02, 0xA3, 0x02, 0x30, 0x00};
            memcpy(tbs + n, ids, sizeof ids), n += sizeof ids;
        }
        /* Certificate: SEQUENCE { tbs, alg, BIT STRING (a 72-byte signature's room) } */
        size_t body = 3 + n + sizeof alg + 2 + 73;
        size_t m = 0;
        buf[m++] = 0x30, buf[m++] = 0x82, buf[m++] = (unsigned char)(body >> 8), buf[m++] = (unsigned char)body;
        buf[m++] = 0x30, buf[m++] = 0x81, buf[m++] = (unsigned char)n;
        memcpy(buf + m, tbs, n), m += n;
        memcpy(buf + m, alg, sizeof alg), m += sizeof alg;
        buf[m++] = 0x03, buf[m++] = 73, buf[m++] = 0x00;
        fill(buf + m, 72, 900 + (unsigned)c), m += 72;
        snprintf(name, sizeof name, "cert-%d", c);
        put("cert", name, buf, m);
        fastsm2_pubkey chk;
        FZ_CHECK(fastsm2_pubkey_parse_certificate(&chk, buf, m) == FASTSM2_OK);
    }

    /* SM4-GCM and SM4-CCM (fuzz_sm4_aead): sealed under its fixed key,
     * the IV, tag and AAD lengths in front; fuzz_sm4_cbc: CBC ciphertexts
     * of padded plaintexts under its fixed key */
    {
        fastsm2_sm4_key sk;
        unsigned char k4[16], hdr[7];
        for (int i = 0; i < 16; i++)
            k4[i] = (unsigned char)(0xA0 + i);
        FZ_CHECK(fastsm2_sm4_key_init(&sk, k4) == FASTSM2_OK);
        static const unsigned char shapes[][4] = {/* ccm, ivlen, taglen, aadlen */
                                                  {0, 12, 16, 20}, {0, 1, 4, 0}, {0, 60, 12, 33},
                                                  {1, 12, 16, 20}, {1, 7, 4, 0}, {1, 13, 10, 3}};
        for (unsigned c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
            unsigned char iv[64], aad[64], pt[200], ct[200], tag[16];
            size_t n = 0, ptlen = 17 + 29 * c;
            int ccm = shapes[c][0];
            size_t ivlen = shapes[c][1], taglen = shapes[c][2], aadlen = shapes[c][3];
            fill(iv, ivlen, 300 + c), fill(aad, aadlen, 400 + c), fill(pt, ptlen, 500 + c);
            FZ_CHECK((ccm ? fastsm2_sm4_ccm_encrypt(ct, tag, taglen, &sk, iv, ivlen, aad, aadlen, pt, ptlen)
                          : fastsm2_sm4_gcm_encrypt(ct, tag, taglen, &sk, iv, ivlen, aad, aadlen, pt, ptlen)) ==
                     FASTSM2_OK);
            hdr[0] = (unsigned char)ccm, hdr[1] = (unsigned char)ivlen, hdr[2] = (unsigned char)taglen;
            hdr[3] = (unsigned char)aadlen, hdr[4] = (unsigned char)(7 * c), hdr[5] = 0, hdr[6] = (unsigned char)c;
            memcpy(buf + n, hdr, 7), n += 7;
            memcpy(buf + n, iv, ivlen), n += ivlen;
            memcpy(buf + n, aad, aadlen), n += aadlen;
            memcpy(buf + n, tag, taglen), n += taglen;
            memcpy(buf + n, ct, ptlen), n += ptlen;
            snprintf(name, sizeof name, "%s-%u", ccm ? "ccm" : "gcm", c);
            put("sm4_aead", name, buf, n);
        }
        fastsm2_sm4_key_clear(&sk);
        for (int i = 0; i < 16; i++)
            k4[i] = (unsigned char)(0x30 + 7 * i);
        FZ_CHECK(fastsm2_sm4_key_init(&sk, k4) == FASTSM2_OK);
        for (unsigned c = 0; c < 5; c++) {
            unsigned char pt[80];
            size_t ptlen = 13 * c, n = 17;
            fill(buf, 17, 600 + c); /* the piece seed and the IV */
            fill(pt, ptlen, 700 + c);
            size_t ctlen = sizeof buf - n;
            FZ_CHECK(fastsm2_sm4_cbc_encrypt(buf + n, &ctlen, &sk, buf + 1, FASTSM2_SM4_PAD_PKCS7, pt, ptlen) ==
                     FASTSM2_OK);
            snprintf(name, sizeof name, "cbc-%u", c);
            put("sm4_cbc", name, buf, n + ctlen);
        }
        fastsm2_sm4_key_clear(&sk);
    }

    /* Certificates and requests made by the builder (fuzz_x509): a CA, a
     * leaf with every extension it writes, a request; their signatures
     * made again with fixed nonces so that the files do not change. */
    {
        fastsm2_x509_builder *b;
        unsigned char ca[4096], out[4096];
        size_t can = 0;
        static const unsigned char serial[] = {0x40, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
        for (int c = 0; c < 3; c++) {
            FZ_CHECK(fastsm2_x509_builder_new(&b) == FASTSM2_OK);
            FZ_CHECK(fastsm2_x509_set_subject(b, c == 0 ? "/C=CN/O=fastsm2/CN=Fuzz CA"
                                                        : "/C=CN/ST=Beijing/O=fastsm2/CN=fuzz.example+UID=x") ==
                     FASTSM2_OK);
            FZ_CHECK(fastsm2_x509_set_serial(b, serial, sizeof serial) == FASTSM2_OK);
            FZ_CHECK(fastsm2_x509_set_validity(b, 1735689600, 2556144000LL) == FASTSM2_OK);
            if (c == 0) {
                FZ_CHECK(fastsm2_x509_set_basic_constraints(b, 1, 2) == FASTSM2_OK);
                FZ_CHECK(fastsm2_x509_set_key_usage(b, FASTSM2_KU_KEY_CERT_SIGN | FASTSM2_KU_CRL_SIGN) == FASTSM2_OK);
            } else {
                FZ_CHECK(fastsm2_x509_set_public_key(b, &pb) == FASTSM2_OK);
                FZ_CHECK(fastsm2_x509_set_key_usage(b, FASTSM2_KU_TLCP_SIGN | FASTSM2_KU_DECIPHER_ONLY) == FASTSM2_OK);
                FZ_CHECK(fastsm2_x509_set_ext_key_usage(b, 0x7F) == FASTSM2_OK);
                FZ_CHECK(fastsm2_x509_add_san(b, "DNS:fuzz.example") == FASTSM2_OK);
                FZ_CHECK(fastsm2_x509_add_san(b, "IP:2001:db8::7") == FASTSM2_OK);
                FZ_CHECK(fastsm2_x509_add_san(b, "email:f@example.com") == FASTSM2_OK);
                FZ_CHECK(fastsm2_x509_add_extension(b, "1.2.3.4", 1, (const unsigned char *)"\x05\x00", 2) ==
                         FASTSM2_OK);
            }
            len = sizeof out;
            if (c == 2)
                FZ_CHECK(fastsm2_x509_make_request(out, &len, b, &kb, NULL, 0, FASTSM2_KEYFMT_DER) == FASTSM2_OK);
            else
                FZ_CHECK(fastsm2_x509_make_certificate(out, &len, b, &ka, c ? ca : NULL, c ? can : 0, NULL, 0,
                                                       FASTSM2_KEYFMT_DER) == FASTSM2_OK);
            fastsm2_x509_builder_free(b);
            /* again with a fixed nonce: SEQUENCE { tbs, SM2-with-SM3, BIT STRING } */
            unsigned char tbs[4096], z[32];
            size_t tn = sizeof tbs;
            FZ_CHECK(fastsm2_x509_get_der(tbs, &tn, FASTSM2_X509_TBS_DER, out, len) == FASTSM2_OK);
            fastsm2_sm3_ctx h;
            FZ_CHECK(fastsm2_compute_z(z, c == 2 ? &pb : &pa, NULL, 0) == FASTSM2_OK);
            fastsm2_sm3_init(&h);
            fastsm2_sm3_update(&h, z, 32);
            fastsm2_sm3_update(&h, tbs, tn);
            fastsm2_sm3_final(e, &h);
            fill(k, 32, 300 + (unsigned)c);
            k[0] &= 0x7F;
            FZ_CHECK(fastsm2_sign_digest_with_nonce(sig, c == 2 ? &kb : &ka, e, k) == FASTSM2_OK);
            size_t dl = sizeof der;
            FZ_CHECK(fastsm2_sig_to_der(der, &dl, sig) == FASTSM2_OK);
            static const unsigned char alg[] = {0x30, 0x0A, 0x06, 0x08, 0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x83, 0x75};
            size_t body = tn + sizeof alg + 3 + dl, m = 0;
            buf[m++] = 0x30, buf[m++] = 0x82, buf[m++] = (unsigned char)(body >> 8), buf[m++] = (unsigned char)body;
            memcpy(buf + m, tbs, tn), m += tn;
            memcpy(buf + m, alg, sizeof alg), m += sizeof alg;
            buf[m++] = 0x03, buf[m++] = (unsigned char)(dl + 1), buf[m++] = 0;
            memcpy(buf + m, der, dl), m += dl;
            if (c == 0) {
                memcpy(ca, buf, m);
                can = m;
            }
            static const char *const names[] = {"ca", "leaf", "request"};
            put("x509", names[c], buf, m);
            if (c < 2) {
                fastsm2_x509_verify_params vp;
                int depth;
                fastsm2_x509_verify_params_init(&vp);
                vp.time = 1767225600;
                FZ_CHECK(fastsm2_x509_verify_chain(&depth, buf, m, NULL, 0, ca, can, &vp) ==
                         (c == 0 ? FASTSM2_OK : FASTSM2_ERR_CRITICAL));
            } else {
                FZ_CHECK(fastsm2_x509_verify_request(buf, m, NULL, 0) == FASTSM2_OK);
            }
            /* the same in PEM */
            char pem[8192];
            size_t pn = sizeof pem;
            FZ_CHECK(fastsm2_pem_encode(pem, &pn, c == 2 ? "CERTIFICATE REQUEST" : "CERTIFICATE", buf, m) ==
                     FASTSM2_OK);
            snprintf(name, sizeof name, "%s.pem", names[c]);
            put("x509", name, pem, pn);
        }
    }

    /* Name strings (fuzz_x509_name): each attribute, escapes, a multi-valued
     * RDN, a dotted OID, and a subjectAltName after a NUL. */
    {
        static const char *const names[] = {
            "/C=CN/ST=Beijing/L=Haidian/O=fastsm2/OU=PKI/CN=name.example",
            "/CN=a\\/b\\+c\\=d\\\\e/emailAddress=a@example.com",
            "/CN=x+UID=u1/DC=example/serialNumber=1234/title=T/GN=G/SN=S/street=St/postalCode=100000",
            "/2.5.4.97=VAT-1/CN=\xe4\xb8\xad\\x09",
            "",
        };
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            snprintf(name, sizeof name, "name-%zu", i);
            put("x509_name", name, names[i], strlen(names[i]));
        }
        static const char with_san[] = "/CN=san\0DNS:san.example";
        put("x509_name", "name-san", with_san, sizeof with_san - 1);
    }

    fastsm2_privkey_clear(&ka);
    fastsm2_privkey_clear(&kb);
    return 0;
}
