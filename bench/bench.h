/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastsm2-speed: fastsm2 and OpenSSL 3 measured side by side in one process.
 *
 * The shape: every measurement is a bench_case, a row of a table that names
 * an implementation ("fastsm2", "openssl", "openssl-p256", ...), an operation
 * ("sign", "sm3-1024", ...), and four callbacks: set up a context, run the
 * operation once, check the result of the last run, tear down. One generic
 * timing function (bench_slice) drives every case; speed.c schedules the
 * cases of one operation in alternating slices. Adding an operation or an
 * implementation is a new table entry (plus its callbacks), never a new copy
 * of the timing loop.
 */
#ifndef FS2_BENCH_H
#define FS2_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "fastsm2.h"

#define BENCH_MAX_DATA 8192 /* largest message hashed or encrypted */

/* What every case may use, made once at start-up: one SM2 key pair held by
 * both libraries (so that each side can check the other's output), a P-256
 * key, a message and its SM2 digest e = SM3(Z_A || msg) for the default ID. */
typedef struct {
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    EVP_PKEY *sm2;  /* the same key pair in OpenSSL */
    EVP_PKEY *p256; /* ECDSA P-256 yardstick key */
    EVP_MD *sm3;    /* fetched once */
    unsigned char msg[32];
    unsigned char e[32];
    unsigned char data[BENCH_MAX_DATA]; /* random plaintext / hash input */
} bench_env;

typedef struct bench_case bench_case;

struct bench_case {
    const char *impl; /* "fastsm2", "openssl", "openssl-p256" */
    const char *op;   /* "sign", "encrypt-4096", "sm3-64", ... */
    size_t param;     /* operation size in bytes (message, plaintext), 0 if none */
    int mbps;         /* 1: report MB/s (param bytes per call), 0: ops/s */
    /* Make the context for this case; NULL on failure (after a message). */
    void *(*setup)(const bench_env *env, const bench_case *c);
    /* Run the operation once: 1 on success, 0 on failure. */
    int (*run)(void *ctx);
    /* Check the output of the last run (and interop with the other side):
     * 1 if right, 0 after printing what is wrong. */
    int (*check)(void *ctx);
    void (*teardown)(void *ctx);
    /* NULL, or a function that says why this CPU cannot run the case (a
     * sentence), or returns NULL when it can. */
    const char *(*why_not)(const bench_case *c);
    /* > 0: each call does this many operations (a batch); ops/s counts them */
    size_t items;
};

/* The case tables of each implementation, NULL-terminated by op. */
extern const bench_case bench_fastsm2_cases[];
extern const bench_case bench_openssl_cases[];
/* Multi-buffer SM3, KDF and long-message encryption (bench_sm3lanes.c). */
extern const bench_case bench_sm3lanes_cases[];

/* Monotonic wall clock in seconds. */
double bench_now(void);

/* The generic timing function: call run(ctx) repeatedly for about `seconds`
 * of wall time (in batches that grow until one batch takes ~0.2 ms, so that
 * reading the clock costs nothing against fast operations). Writes the
 * number of calls per second into *rate. Returns 1, or 0 as soon as a call
 * fails. */
int bench_slice(int (*run)(void *ctx), void *ctx, double seconds, double *rate);

/* Print a failure of impl/op with a reason to stderr; returns 0 so that a
 * check can `return bench_fail(...)`. */
int bench_fail(const char *impl, const char *op, const char *what);

/* Cross-checks through OpenSSL, used by the fastsm2 cases (bench_openssl.c).
 * Each returns 1 if OpenSSL accepts / reproduces, else 0. */
int bench_ossl_sm2_verify_msg(const bench_env *env, const unsigned char *msg, size_t msglen, const unsigned char *der,
                              size_t derlen);
int bench_ossl_sm2_verify_digest(const bench_env *env, const unsigned char e[32], const unsigned char *der,
                                 size_t derlen);
int bench_ossl_sm2_decrypt(const bench_env *env, unsigned char *out, size_t *outlen, const unsigned char *ct,
                           size_t ctlen);

#endif
