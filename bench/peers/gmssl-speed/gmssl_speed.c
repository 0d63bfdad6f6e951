/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gmssl-speed: times GmSSL 3's SM2 and SM3 (built from a GmSSL source tree
 * by bench/peers/speed-peers.sh, with its x86-64 assembly) on the operations of
 * `fastsm2 speed`, and prints them in the JSON shape of `fastsm2 speed
 * --json` with impl "gmssl", for bench/bench-table.py:
 *
 *   gmssl-speed [--seconds S] [--rounds R] [--ops a,b,c] [--json]
 *
 * The rows, through GmSSL's own public API:
 *   keygen         sm2_key_generate
 *   keygen-sign    sm2_key_generate, then sm2_sign of a digest with the
 *                  new key (the one-shot call: its (1 + d)^-1 is computed
 *                  per call, which is the first signature's cost)
 *   sign           its sign context (Z_A kept; reset, update, finish), which
 *                  draws 32 nonces and their points at a time
 *   sign-digest    sm2_fast_sign, from 32 nonces pre-drawn by
 *                  sm2_fast_sign_pre_compute (its cost counted, shared by 32)
 *   verify         its verify context (Z_A and the key's table kept)
 *   verify-digest  sm2_do_verify
 *   encrypt-32, decrypt-32  sm2_encrypt / sm2_decrypt (DER; GmSSL takes at
 *                  most 255 bytes, so no longer rows)
 *   sm3-8192       sm3_init, update, finish
 * Each operation runs R slices of S seconds; the best slice counts. Every
 * result is checked (signatures verify, ciphertexts decrypt to their
 * plaintext) before timing; a failed check exits 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gmssl/rand.h>
#include <gmssl/sm2.h>
#include <gmssl/sm3.h>
#include <gmssl/version.h>

static SM2_KEY key;
static uint8_t msg[32], dgst[32], buf[8192];
static SM2_SIGN_CTX sctx;
static SM2_VERIFY_CTX vctx;
static uint8_t sig[SM2_MAX_SIGNATURE_SIZE];
static size_t siglen;
static SM2_SIGNATURE dsig;
static sm2_z256_t fast_priv;
static SM2_SIGN_PRE_COMP pre[SM2_SIGN_PRE_COMP_COUNT];
static int npre;
static uint8_t plain[32], ct[SM2_MAX_CIPHERTEXT_SIZE];
static size_t ctlen;

static void fail(const char *what)
{
    fprintf(stderr, "gmssl-speed: CHECK FAILED: %s\n", what);
    exit(1);
}

static int op_keygen(void)
{
    SM2_KEY k;
    return sm2_key_generate(&k) == 1;
}

static int op_keygen_sign(void)
{
    SM2_KEY k;
    uint8_t s[SM2_MAX_SIGNATURE_SIZE];
    size_t n;
    return sm2_key_generate(&k) == 1 && sm2_sign(&k, dgst, s, &n) == 1;
}

static int op_sign(void)
{
    return sm2_sign_reset(&sctx) == 1 && sm2_sign_update(&sctx, msg, sizeof msg) == 1 &&
           sm2_sign_finish(&sctx, sig, &siglen) == 1;
}

static int op_sign_digest(void)
{
    if (npre == 0) {
        if (sm2_fast_sign_pre_compute(pre) != 1)
            return 0;
        npre = SM2_SIGN_PRE_COMP_COUNT;
    }
    return sm2_fast_sign(fast_priv, &pre[--npre], dgst, &dsig) == 1;
}

static int op_verify(void)
{
    return sm2_verify_reset(&vctx) == 1 && sm2_verify_update(&vctx, msg, sizeof msg) == 1 &&
           sm2_verify_finish(&vctx, sig, siglen) == 1;
}

static int op_verify_digest(void)
{
    return sm2_do_verify(&key, dgst, &dsig) == 1;
}

static int op_encrypt(void)
{
    uint8_t c[SM2_MAX_CIPHERTEXT_SIZE];
    size_t n;
    return sm2_encrypt(&key, plain, sizeof plain, c, &n) == 1;
}

static int op_decrypt(void)
{
    uint8_t p[SM2_MAX_PLAINTEXT_SIZE];
    size_t n;
    return sm2_decrypt(&key, ct, ctlen, p, &n) == 1 && n == sizeof plain;
}

static int op_sm3(void)
{
    SM3_CTX c;
    uint8_t h[32];
    sm3_init(&c);
    sm3_update(&c, buf, sizeof buf);
    sm3_finish(&c, h);
    buf[0] ^= h[0];
    return 1;
}

static void setup_checks(void)
{
    uint8_t z[32], p[SM2_MAX_PLAINTEXT_SIZE];
    size_t n;
    SM3_CTX c;
    if (sm2_key_generate(&key) != 1)
        fail("keygen");
    memset(msg, 'a', sizeof msg);
    /* e = SM3(Z_A || M), the digest the -digest rows sign */
    if (sm2_compute_z(z, &key.public_key, SM2_DEFAULT_ID, SM2_DEFAULT_ID_LENGTH) != 1)
        fail("Z_A");
    sm3_init(&c);
    sm3_update(&c, z, sizeof z);
    sm3_update(&c, msg, sizeof msg);
    sm3_finish(&c, dgst);
    {
        SM2_KEY k;
        uint8_t s[SM2_MAX_SIGNATURE_SIZE];
        size_t n;
        if (sm2_key_generate(&k) != 1 || sm2_sign(&k, dgst, s, &n) != 1 || sm2_verify(&k, dgst, s, n) != 1)
            fail("keygen-sign: the signature does not verify");
    }
    if (sm2_sign_init(&sctx, &key, SM2_DEFAULT_ID, SM2_DEFAULT_ID_LENGTH) != 1 ||
        sm2_verify_init(&vctx, &key, SM2_DEFAULT_ID, SM2_DEFAULT_ID_LENGTH) != 1)
        fail("sign/verify contexts");
    if (!op_sign() || !op_verify() || sm2_verify(&key, dgst, sig, siglen) != 1)
        fail("sign: the signature does not verify");
    if (sm2_fast_sign_compute_key(&key, fast_priv) != 1 || !op_sign_digest() || !op_verify_digest())
        fail("sign-digest: the signature does not verify");
    if (rand_bytes(plain, sizeof plain) != 1 || sm2_encrypt(&key, plain, sizeof plain, ct, &ctlen) != 1 ||
        sm2_decrypt(&key, ct, ctlen, p, &n) != 1 || n != sizeof plain || memcmp(p, plain, n))
        fail("encrypt-32: the ciphertext does not decrypt to its plaintext");
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static const struct {
    const char *name;
    int (*run)(void);
    int bytes; /* > 0: MB/s of this many bytes a call */
} ops[] = {
    {"keygen", op_keygen, 0},      {"keygen-sign", op_keygen_sign, 0}, {"sign", op_sign, 0},
    {"verify", op_verify, 0},      {"sign-digest", op_sign_digest, 0}, {"verify-digest", op_verify_digest, 0},
    {"encrypt-32", op_encrypt, 0}, {"decrypt-32", op_decrypt, 0},      {"sm3-8192", op_sm3, (int)sizeof buf},
};
#define NOPS (sizeof ops / sizeof ops[0])

int main(int argc, char **argv)
{
    double seconds = 1.0;
    int rounds = 5, json = 0;
    const char *want = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ops") && i + 1 < argc)
            want = argv[++i];
        else if (!strcmp(argv[i], "--json"))
            json = 1;
        else {
            fprintf(stderr, "usage: gmssl-speed [--seconds S] [--rounds R] [--ops a,b,c] [--json]\n");
            return 2;
        }
    }
    if (seconds <= 0 || rounds < 1) {
        fprintf(stderr, "gmssl-speed: --seconds must be > 0 and --rounds >= 1\n");
        return 2;
    }
    setup_checks();
    if (json) {
        const char *v = gmssl_version_str(); /* "GmSSL 3.3.0-dev..." */
        printf("{\n  \"impl\": \"gmssl\",\n  \"version\": \"%s\",\n  \"results\": [",
               strncmp(v, "GmSSL ", 6) ? v : v + 6);
    }
    int first = 1;
    for (size_t o = 0; o < NOPS; o++) {
        if (want) { /* a row GmSSL has no counterpart of is left out */
            size_t n = strlen(ops[o].name);
            const char *s = want;
            int found = 0;
            while ((s = strstr(s, ops[o].name)) != NULL) {
                if ((s == want || s[-1] == ',') && (s[n] == ',' || s[n] == 0))
                    found = 1;
                s += n;
            }
            if (!found)
                continue;
        }
        double best = 0;
        for (int r = 0; r < rounds; r++) {
            long calls = 0;
            double t0 = now(), t;
            do {
                if (!ops[o].run())
                    fail(ops[o].name);
                calls++;
            } while ((t = now()) - t0 < seconds);
            if (calls / (t - t0) > best)
                best = calls / (t - t0);
        }
        double v = ops[o].bytes ? best * ops[o].bytes / 1e6 : best;
        const char *unit = ops[o].bytes ? "MB/s" : "ops/s";
        if (json)
            printf("%s\n    {\"impl\": \"gmssl\", \"op\": \"%s\", \"value\": %.1f, \"unit\": \"%s\"}", first ? "" : ",",
                   ops[o].name, v, unit);
        else
            printf("%-18s %12.1f %s\n", ops[o].name, v, unit);
        first = 0;
    }
    if (json)
        printf("\n  ]\n}\n");
    /* the sign-digest row's last signature still verifies */
    if (!op_verify_digest())
        fail("sign-digest: the last signature does not verify");
    return 0;
}
