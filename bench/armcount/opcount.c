/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs one operation N times, for executed-instruction counts under
 * qemu-aarch64 with bench/armcount/insncount.c (see count.sh):
 *
 *   opcount fastsm2|openssl sign|verify|verify-fresh|kg|kp|sm3|sm3x4|sm4-ctr|sm4-gcm N
 *
 * sign/verify: a 32-byte digest e (GB/T 32918.2 6.1 A5 on: e given), with
 * one key object that the set-up has already used (fastsm2: the key's
 * cached (1 + d)^-1, the public key's tables, made at its second use): the
 * steady state; verify-fresh (fastsm2 only): a new public key object from
 * its 65 bytes for each verification (fastsm2_pubkey_from_bytes, then
 * fastsm2_verify_digest), a key seen for the first time;
 * kg/kp: scalar multiplication with the affine result (inversion included);
 * sm3: one hash of N 64-byte blocks; sm3x4 (fastsm2 only): four N-block
 * messages through fastsm2_sm3_many (the backend's SM3 lanes); sm4-ctr,
 * sm4-gcm: N 16-byte blocks (run_fastsm2_sm4; OpenSSL: CTR only). Every run does the same set-up (fixed
 * key, digest, scalar; one signature for verify), so (count(N) - count(0)) / N
 * is one operation. fastsm2's backend is the one FASTSM2_CPU forces (or the
 * one it picks); its kg/kp are the backend's entry points, as sign, encrypt
 * and key exchange use them.
 */
#define OPENSSL_SUPPRESS_DEPRECATED /* EC_POINT_mul: OpenSSL 3.0's own kG/kP */
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "fastsm2.h"

static const unsigned char D[32] = {0x11, 0x18, 0x1f, 0x26, 0x2d, 0x34, 0x3b, 0x42, 0x49, 0x50, 0x57,
                                    0x5e, 0x65, 0x6c, 0x73, 0x7a, 0x81, 0x88, 0x8f, 0x96, 0x9d, 0xa4,
                                    0xab, 0xb2, 0xb9, 0xc0, 0xc7, 0xce, 0xd5, 0xdc, 0xe3, 0xea};

static void die(const char *what)
{
    fprintf(stderr, "opcount: %s failed\n", what);
    exit(1);
}

/* SM4: N blocks in messages of up to SM4_MSG bytes (the figure per block
 * at 16 KiB messages: per-message work, J0 and the tag for GCM, shared out
 * over 1024 blocks). sm4-ctr: fastsm2_sm4_ctr; sm4-gcm:
 * fastsm2_sm4_gcm_encrypt (12-byte nonce, no AAD, 16-byte tag). The SM4
 * table is the one FASTSM2_SM4 names (or the one the library picks). */
#define SM4_MSG 16384

static int run_fastsm2_sm4(const char *op, long n)
{
    static unsigned char msg[SM4_MSG], ct[SM4_MSG];
    unsigned char key16[16], iv[16], tag[16];
    fastsm2_sm4_key key;
    int gcm = !strcmp(op, "sm4-gcm");
    if (!gcm && strcmp(op, "sm4-ctr"))
        return 0;
    for (int i = 0; i < 16; i++) {
        key16[i] = (unsigned char)(0x31 + 7 * i);
        iv[i] = (unsigned char)(0x90 ^ i);
    }
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (unsigned char)(i * 13);
    if (fastsm2_sm4_key_init(&key, key16) != FASTSM2_OK)
        die("fastsm2 sm4 key");
    for (long left = n; left > 0;) {
        size_t len = left * 16 < SM4_MSG ? (size_t)left * 16 : SM4_MSG;
        int st = gcm ? fastsm2_sm4_gcm_encrypt(ct, tag, 16, &key, iv, 12, NULL, 0, msg, len)
                     : fastsm2_sm4_ctr(ct, &key, iv, msg, len);
        if (st != FASTSM2_OK)
            die("fastsm2 sm4");
        left -= (long)(len / 16);
    }
    printf("fastsm2 (SM4 %s) %s %ld %u\n", fastsm2_sm4_backend_name(), op, n, ct[0] & 1u);
    fastsm2_sm4_key_clear(&key);
    return 1;
}

static int run_fastsm2(const char *op, long n, const unsigned char e[32], const unsigned char k[32], unsigned char *buf)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    unsigned char sig[64], h[32];
    unsigned sink = 0;
    if (!strncmp(op, "sm4-", 4))
        return run_fastsm2_sm4(op, n);
    if (fastsm2_privkey_from_bytes(&key, D) != FASTSM2_OK || fastsm2_privkey_pubkey(&pub, &key) != FASTSM2_OK)
        die("fastsm2 key");
    /* the signature verified: a fixed nonce, so that every run verifies the
     * same (r, s) (verification time depends on s and r + s) */
    if (fastsm2_sign_digest_with_nonce(sig, &key, e, k) != FASTSM2_OK)
        die("fastsm2 sign");
    /* "verify": a key in steady use, its tables made */
    if (fastsm2_pubkey_precompute(&pub) != FASTSM2_OK || fastsm2_verify_digest(&pub, e, sig) != 1)
        die("fastsm2 verify");
    unsigned char pb[65];
    size_t pblen = sizeof pb;
    if (fastsm2_pubkey_to_bytes(pb, &pblen, &pub, 0) != FASTSM2_OK || pblen != 65)
        die("fastsm2 pubkey_to_bytes");
    const fs2_ec_ops *b = fs2_ec();
    uint64_t kk[4];
    fs2_u256_from_be(kk, k);
    fs2_affine g, r;
    b->mul_base(&g, kk); /* a public point for kp */
    if (!strcmp(op, "sign")) {
        for (long i = 0; i < n; i++) {
            if (fastsm2_sign_digest(sig, &key, e) != FASTSM2_OK)
                die("fastsm2 sign");
            sink += sig[0];
        }
    } else if (!strcmp(op, "verify")) {
        for (long i = 0; i < n; i++)
            if (fastsm2_verify_digest(&pub, e, sig) != 1)
                die("fastsm2 verify");
    } else if (!strcmp(op, "verify-fresh")) {
        for (long i = 0; i < n; i++) {
            fastsm2_pubkey fresh;
            if (fastsm2_pubkey_from_bytes(&fresh, pb, 65) != FASTSM2_OK || fastsm2_verify_digest(&fresh, e, sig) != 1)
                die("fastsm2 verify-fresh");
        }
    } else if (!strcmp(op, "kg")) {
        for (long i = 0; i < n; i++) {
            b->mul_base(&r, kk);
            sink += (unsigned)r.x[0];
        }
    } else if (!strcmp(op, "kp")) {
        for (long i = 0; i < n; i++) {
            b->mul(&r, &g, NULL, kk); /* a fresh point: no tables */
            sink += (unsigned)r.x[0];
        }
    } else if (!strcmp(op, "sm3")) {
        fastsm2_sm3(h, buf, (size_t)n * 64);
        sink += h[0];
    } else if (!strcmp(op, "sm3x4")) {
        /* four messages of N blocks each, hashed at once (the backend's
         * lanes): count / 4 is one lane's share of a block */
        unsigned char d4[4 * 32];
        const unsigned char *msgs[4] = {buf, buf, buf, buf};
        size_t lens[4] = {(size_t)n * 64, (size_t)n * 64, (size_t)n * 64, (size_t)n * 64};
        if (fastsm2_sm3_many(d4, msgs, lens, 4) != FASTSM2_OK)
            die("fastsm2 sm3_many");
        sink += d4[0];
    } else {
        return 0;
    }
    printf("fastsm2 (%s) %s %ld %u\n", fastsm2_backend_name(), op, n, sink & 1);
    return 1;
}

/* OpenSSL's SM4-CTR (EVP, 16 KiB messages as above; OpenSSL 3.0 has no
 * SM4-GCM). */
static int run_openssl_sm4(const char *op, long n)
{
    static unsigned char msg[SM4_MSG], ct[SM4_MSG];
    unsigned char key16[16], iv[16];
    int outl;
    if (strcmp(op, "sm4-ctr"))
        return 0;
    for (int i = 0; i < 16; i++) {
        key16[i] = (unsigned char)(0x31 + 7 * i);
        iv[i] = (unsigned char)(0x90 ^ i);
    }
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (!c)
        die("openssl sm4 ctx");
    for (long left = n; left > 0;) {
        int len = left * 16 < SM4_MSG ? (int)left * 16 : SM4_MSG;
        if (EVP_EncryptInit_ex(c, EVP_sm4_ctr(), NULL, key16, iv) != 1 ||
            EVP_EncryptUpdate(c, ct, &outl, msg, len) != 1)
            die("openssl sm4-ctr");
        left -= len / 16;
    }
    EVP_CIPHER_CTX_free(c);
    printf("openssl %s %s %ld %u\n", OpenSSL_version(OPENSSL_VERSION), op, n, ct[0] & 1u);
    return 1;
}

static int run_openssl(const char *op, long n, const unsigned char e[32], const unsigned char k[32], unsigned char *buf)
{
    if (!strncmp(op, "sm4-", 4))
        return run_openssl_sm4(op, n);
    unsigned sink = 0;
    EVP_PKEY *pkey = EVP_PKEY_Q_keygen(NULL, NULL, "SM2");
    EVP_PKEY_CTX *ctx = pkey ? EVP_PKEY_CTX_new(pkey, NULL) : NULL;
    unsigned char sig[80], h[32];
    size_t siglen = sizeof sig;
    if (!ctx || EVP_PKEY_sign_init(ctx) != 1 || EVP_PKEY_sign(ctx, sig, &siglen, e, 32) != 1)
        die("openssl key/sign");
    EC_GROUP *grp = EC_GROUP_new_by_curve_name(NID_sm2);
    BN_CTX *bn = BN_CTX_new();
    BIGNUM *kb = BN_bin2bn(k, 32, NULL), *x = BN_new(), *y = BN_new();
    EC_POINT *pt = grp ? EC_POINT_new(grp) : NULL, *q = grp ? EC_POINT_new(grp) : NULL;
    if (!grp || !bn || !kb || !x || !y || !pt || !q || !EC_POINT_mul(grp, q, kb, NULL, NULL, bn))
        die("openssl group");
    if (!strcmp(op, "sign")) {
        for (long i = 0; i < n; i++) {
            siglen = sizeof sig;
            if (EVP_PKEY_sign(ctx, sig, &siglen, e, 32) != 1)
                die("openssl sign");
            sink += sig[4];
        }
    } else if (!strcmp(op, "verify")) {
        EVP_PKEY_CTX *vctx = EVP_PKEY_CTX_new(pkey, NULL);
        if (!vctx || EVP_PKEY_verify_init(vctx) != 1)
            die("openssl verify init");
        for (long i = 0; i < n; i++)
            if (EVP_PKEY_verify(vctx, sig, siglen, e, 32) != 1)
                die("openssl verify");
        EVP_PKEY_CTX_free(vctx);
    } else if (!strcmp(op, "kg")) {
        for (long i = 0; i < n; i++) {
            if (!EC_POINT_mul(grp, pt, kb, NULL, NULL, bn) || !EC_POINT_get_affine_coordinates(grp, pt, x, y, bn))
                die("openssl kg");
            sink += (unsigned)BN_is_odd(x);
        }
    } else if (!strcmp(op, "kp")) {
        for (long i = 0; i < n; i++) {
            if (!EC_POINT_mul(grp, pt, NULL, q, kb, bn) || !EC_POINT_get_affine_coordinates(grp, pt, x, y, bn))
                die("openssl kp");
            sink += (unsigned)BN_is_odd(x);
        }
    } else if (!strcmp(op, "sm3")) {
        if (EVP_Digest(buf, (size_t)n * 64, h, NULL, EVP_sm3(), NULL) != 1)
            die("openssl sm3");
        sink += h[0];
    } else {
        return 0;
    }
    printf("openssl %s %s %ld %u\n", OpenSSL_version(OPENSSL_VERSION), op, n, sink & 1);
    EC_POINT_free(pt);
    EC_POINT_free(q);
    BN_free(kb);
    BN_free(x);
    BN_free(y);
    BN_CTX_free(bn);
    EC_GROUP_free(grp);
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(pkey);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: opcount fastsm2|openssl sign|verify|verify-fresh|kg|kp|sm3|sm3x4|sm4-ctr|sm4-gcm N\n");
        return 2;
    }
    long n = strtol(argv[3], NULL, 10);
    if (n < 0 || n > 1000000)
        return 2;
    unsigned char e[32], k[32];
    for (int i = 0; i < 32; i++) {
        e[i] = (unsigned char)(0xa5 ^ i);
        k[i] = (unsigned char)(0x3c + 5 * i);
    }
    unsigned char *buf = calloc((size_t)n + 1, 64);
    if (!buf)
        return 1;
    int ok = !strcmp(argv[1], "fastsm2")   ? run_fastsm2(argv[2], n, e, k, buf)
             : !strcmp(argv[1], "openssl") ? run_openssl(argv[2], n, e, k, buf)
                                           : 0;
    free(buf);
    if (!ok) {
        fprintf(stderr, "opcount: unknown library or operation\n");
        return 2;
    }
    return 0;
}
