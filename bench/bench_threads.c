/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `fastsm2-speed --threads N`: how the batch API scales over cores. The
 * batch calls fastsm2_sign_digest_batch / fastsm2_verify_digest_batch
 * (BATCH items a call, one key) run with 1 thread and with N threads in
 * alternating slices, each keeping its best slice, so that the ratio comes
 * from one run. Every batch's output is checked (signatures verify on the
 * single-item API; every verification result is 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_threads.h"

#define BATCH 512

typedef struct {
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    unsigned char e[BATCH * 32];
    unsigned char sig[BATCH * 64];
    int res[BATCH];
    unsigned threads;
    int verify; /* 0: sign, 1: verify */
} threads_ctx;

static int run_batch(void *p)
{
    threads_ctx *c = p;
    if (c->verify)
        return fastsm2_verify_digest_batch(c->res, &c->pub, 1, c->e, c->sig, BATCH, c->threads) == FASTSM2_OK;
    return fastsm2_sign_digest_batch(c->sig, &c->key, 1, c->e, BATCH, c->threads) == FASTSM2_OK;
}

static int check_batch(const threads_ctx *c)
{
    for (size_t i = 0; i < BATCH; i++) {
        if (c->verify ? c->res[i] != 1 : fastsm2_verify_digest(&c->pub, c->e + 32 * i, c->sig + 64 * i) != 1) {
            fprintf(stderr, "fastsm2-speed: CHECK FAILED: %s-batch item %zu\n", c->verify ? "verify" : "sign", i);
            return 0;
        }
    }
    return 1;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: fastsm2-speed --threads N [--seconds S] [--rounds R] [--json]\n"
            "  Batch sign and verify (%d digests a call) with 1 thread and with N\n"
            "  threads (0: all online cores), alternating slices, best slice each;\n"
            "  prints ops/s and the N-thread/1-thread ratio.\n",
            BATCH);
}

int bench_threads_main(int argc, char **argv)
{
    long nthreads = -1;
    double seconds = 1.0;
    int rounds = 5, json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            char *end;
            nthreads = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end)
                nthreads = -1;
        } else if (!strcmp(argv[i], "--threads")) {
            nthreads = -1;
        } else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr,
                    "fastsm2-speed: with --threads, unknown or incomplete option '%s' (try --threads 2 --help)\n",
                    argv[i]);
            return 2;
        }
    }
    if (nthreads < 0 || nthreads > 1024 || seconds <= 0 || rounds < 1) {
        fprintf(stderr,
                "fastsm2-speed: --threads wants N in [0, 1024] (0: all cores), --seconds S > 0, --rounds R >= 1\n");
        return 2;
    }
    threads_ctx *ctx = calloc(4, sizeof *ctx); /* sign 1, sign N, verify 1, verify N */
    if (!ctx)
        return 1;
    if (fastsm2_privkey_generate(&ctx[0].key) != FASTSM2_OK ||
        fastsm2_privkey_pubkey(&ctx[0].pub, &ctx[0].key) != FASTSM2_OK ||
        fastsm2_pubkey_precompute(&ctx[0].pub) != FASTSM2_OK)
        return 1;
    for (size_t i = 0; i < sizeof ctx[0].e; i++)
        ctx[0].e[i] = (unsigned char)(i * 131 + 7);
    for (int k = 1; k < 4; k++)
        ctx[k] = ctx[0];
    for (int k = 0; k < 4; k++) {
        ctx[k].verify = k >= 2;
        ctx[k].threads = (k & 1) ? (unsigned)nthreads : 1;
    }
    /* the verify contexts verify signatures made once */
    if (!run_batch(&ctx[0]) || !check_batch(&ctx[0]))
        return 1;
    memcpy(ctx[2].sig, ctx[0].sig, sizeof ctx[0].sig);
    memcpy(ctx[3].sig, ctx[0].sig, sizeof ctx[0].sig);

    double best[4] = {0, 0, 0, 0};
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < 4; k++) {
            double rate;
            if (!bench_slice(run_batch, &ctx[k], seconds / rounds, &rate) || !check_batch(&ctx[k]))
                return 1;
            rate *= BATCH;
            if (rate > best[k])
                best[k] = rate;
        }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned shown = nthreads ? (unsigned)nthreads : (unsigned)(online > 0 ? online : 1);
    if (json) {
        printf("[\n");
        for (int k = 0; k < 4; k++)
            printf("  {\"impl\": \"fastsm2\", \"op\": \"%s-batch\", \"threads\": %u, \"value\": %.1f, \"unit\": "
                   "\"ops/s\", \"backend\": \"%s\"}%s\n",
                   k >= 2 ? "verify" : "sign", (k & 1) ? shown : 1, best[k], fastsm2_backend_name(), k < 3 ? "," : "");
        printf("]\n");
    } else {
        printf("fastsm2-speed --threads %u%s: batch API, %d digests a call, best of %d slices, backend %s\n\n", shown,
               nthreads ? "" : " (all online cores)", BATCH, rounds, fastsm2_backend_name());
        printf("%-14s %14s %14s %10s\n", "op", "1 thread", "N threads", "ratio");
        printf("%-14s %14.1f %14.1f %10.2f\n", "sign-batch", best[0], best[1], best[1] / best[0]);
        printf("%-14s %14.1f %14.1f %10.2f\n", "verify-batch", best[2], best[3], best[3] / best[2]);
    }
    fastsm2_privkey_clear(&ctx[0].key);
    fastsm2_privkey_clear(&ctx[1].key);
    free(ctx);
    return 0;
}
