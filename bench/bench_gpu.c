/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastsm2 speed --gpu: the GPU batch API (sign, verify, keygen) for batch
 * sizes 2^LO .. 2^HI, end to end (host buffers in, host buffers out,
 * transfers included: impl "fastsm2-gpu") and the kernel alone
 * ("fastsm2-gpu-kernel"), the constant-time mode beside them
 * ("fastsm2-gpu-ct", "fastsm2-gpu-ct-kernel"), and the CPU batch API over
 * every core in the same run ("fastsm2-cpu-batch"), so that the GPU's
 * advantage is a ratio. Each (impl, op, batch) keeps its best of several
 * runs (at least 2, for about --seconds / 5); latency is that best run's
 * time per batch. Results are checked: GPU signatures verify (all on the
 * GPU, a sample on the CPU), valid signatures are accepted, public keys
 * equal the CPU's; a failed check exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_gpu.h"
#include "gpu/gpu_internal.h"

typedef struct {
    const char *impl, *op;
    size_t batch;
    double ops, latency_s;
} gpu_rec;

#define MAX_RECS 512
static gpu_rec recs[MAX_RECS];
static size_t nrecs;
static int g_json, g_failed;
static double g_seconds = 1.0;
static unsigned g_lo = 10, g_hi = 24;
/* sign, verify (one key), keygen, verify-keys (a key per item) */
#define NOPS 4
static int g_ops[NOPS] = {1, 1, 1, 1};
static const char *const op_names[NOPS] = {"sign", "verify", "keygen", "verify-keys"};
/* verify-keys: 64 keys, each over a run of items; at most 2^18 items (the
 * per-item key structures take 2.3 KB each) */
#define NVKEYS     64
#define VKEYS_MAXN ((size_t)1 << 18)

static void add_rec(const char *impl, const char *op, size_t batch, double ops, double lat)
{
    if (nrecs < MAX_RECS)
        recs[nrecs++] = (gpu_rec){impl, op, batch, ops, lat};
    if (!g_json) {
        printf("%-22s %-11s 2^%-3u %14.0f ops/s %12.3f ms\n", impl, op, (unsigned)__builtin_ctzll(batch), ops,
               lat * 1e3);
        fflush(stdout);
    }
}

static int fail(const char *what)
{
    fprintf(stderr, "fastsm2-speed --gpu: CHECK FAILED: %s\n", what);
    g_failed = 1;
    return 0;
}

/* Inputs for the largest batch, shared by every size. */
typedef struct {
    size_t n;
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    unsigned char *e, *sigs, *vsigs, *privs, *pubs;
    int *res;
    /* verify-keys: item i is signed by key i * NVKEYS / nk in ksigs */
    size_t nk;
    fastsm2_pubkey *kpubs;
    unsigned char *ksigs;
} gpu_inputs;

/* One op on the GPU: end to end when kernel_s is NULL. */
static int run_op(fastsm2_gpu *g, int op, gpu_inputs *in, size_t n, double *kernel_s)
{
    switch (op) {
    case 0: return fs2_gpu_sign_timed(g, in->sigs, &in->key, 1, in->e, n, kernel_s);
    case 1: return fs2_gpu_verify_timed(g, in->res, &in->pub, 1, in->e, in->vsigs, n, kernel_s);
    case 3: return fs2_gpu_verify_timed(g, in->res, in->kpubs, n, in->e, in->ksigs, n, kernel_s);
    default: return fs2_gpu_keygen_timed(g, in->pubs, in->privs, n, kernel_s);
    }
}

static int check_op(fastsm2_gpu *g, int op, gpu_inputs *in, size_t n)
{
    size_t step = n / 97 + 1;
    if (op == 0) {
        for (size_t i = 0; i < n; i += step)
            if (fastsm2_verify_digest(&in->pub, in->e + 32 * i, in->sigs + 64 * i) != 1)
                return fail("a GPU signature does not verify on the CPU");
        int *r = malloc(sizeof(int) * n);
        int ok = r && fastsm2_gpu_verify_digest_batch(g, r, &in->pub, 1, in->e, in->sigs, n) == FASTSM2_OK;
        for (size_t i = 0; ok && i < n; i++)
            ok = r[i] == 1;
        free(r);
        return ok ? 1 : fail("a GPU signature does not verify on the GPU");
    }
    if (op == 1 || op == 3) {
        for (size_t i = 0; i < n; i++)
            if (in->res[i] != 1)
                return fail("the GPU rejects a valid signature");
        return 1;
    }
    for (size_t i = 0; i < n; i += step) {
        fastsm2_privkey k;
        fastsm2_pubkey p;
        unsigned char want[65];
        size_t len = sizeof want;
        if (fastsm2_privkey_from_bytes(&k, in->privs + 32 * i) != FASTSM2_OK ||
            fastsm2_privkey_pubkey(&p, &k) != FASTSM2_OK || fastsm2_pubkey_to_bytes(want, &len, &p, 0) != FASTSM2_OK ||
            memcmp(want, in->pubs + 65 * i, 65) != 0)
            return fail("a GPU public key differs from the CPU's");
    }
    return 1;
}

/* Best of several runs for about budget seconds (at least 2). */
static void measure(fastsm2_gpu *g, const char *impl, const char *kimpl, int op, gpu_inputs *in, size_t n)
{
    double best = 1e30, kbest = 1e30, spent = 0, budget = g_seconds / 5;
    for (int run = 0; run < 2 || spent < budget; run++) {
        double t0 = bench_now();
        int ret = run_op(g, op, in, n, NULL);
        double t = bench_now() - t0;
        spent += t;
        if (ret != FASTSM2_OK) {
            fprintf(stderr, "fastsm2-speed --gpu: %s %s: %s (%s)\n", impl, op_names[op], fastsm2_strerror(ret),
                    fs2_gpu_last_error(g));
            g_failed = 1;
            return;
        }
        if (t < best)
            best = t;
        if (run > 50)
            break;
    }
    if (!check_op(g, op, in, n))
        return;
    add_rec(impl, op_names[op], n, (double)n / best, best);
    if (!kimpl)
        return;
    for (int run = 0; run < 3; run++) {
        double ks = 0;
        if (run_op(g, op, in, n, &ks) != FASTSM2_OK || ks <= 0) {
            fail("kernel timing failed");
            return;
        }
        if (ks < kbest)
            kbest = ks;
    }
    add_rec(kimpl, op_names[op], n, (double)n / kbest, kbest);
}

static void measure_cpu(int op, gpu_inputs *in, size_t n, unsigned threads)
{
    double best = 1e30;
    for (int run = 0; run < 3; run++) {
        double t0 = bench_now();
        int ret = op == 0 ? fastsm2_sign_digest_batch(in->sigs, &in->key, 1, in->e, n, 0)
                          : fastsm2_verify_digest_batch(in->res, &in->pub, 1, in->e, in->vsigs, n, 0);
        double t = bench_now() - t0;
        if (ret != FASTSM2_OK) {
            fail("the CPU batch API failed");
            return;
        }
        if (t < best)
            best = t;
    }
    if (op == 1)
        for (size_t i = 0; i < n; i++)
            if (in->res[i] != 1) {
                fail("the CPU batch API rejects a GPU signature");
                return;
            }
    (void)threads;
    add_rec("fastsm2-cpu-batch", op_names[op], n, (double)n / best, best);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: fastsm2-speed --gpu [--json] [--seconds S] [--batches LO-HI]\n"
               "                          [--ops sign,verify,keygen,verify-keys]\n"
               "\n"
               "The GPU batch API on device 0 for batch sizes 2^LO..2^HI (default 10-24): end to\n"
               "end (fastsm2-gpu) and kernel only (fastsm2-gpu-kernel), the constant-time mode\n"
               "(fastsm2-gpu-ct), and the CPU batch API on every core (fastsm2-cpu-batch).\n"
               "verify: one public key for the batch; verify-keys: a key per item (64 keys;\n"
               "batches up to 2^18). FASTSM2_GPU_TABLE_BITS=8|12|16 sets the fast mode's table\n"
               "width, FASTSM2_GPU_KEY_TABLE_BITS the one-key verification's (docs/GPU.md).\n");
}

/* "--name value" or "--name=value" */
static const char *opt_val(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0' || *i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

static int parse_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (strcmp(argv[i], "--gpu") == 0)
            continue;
        if (strcmp(argv[i], "--json") == 0) {
            g_json = 1;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if ((v = opt_val(argc, argv, &i, "--seconds")) != NULL) {
            char *end;
            g_seconds = strtod(v, &end);
            if (*end || !(g_seconds > 0) || g_seconds > 3600)
                return 0;
        } else if ((v = opt_val(argc, argv, &i, "--batches")) != NULL) {
            unsigned lo, hi;
            if (sscanf(v, "%u-%u", &lo, &hi) != 2 || lo > hi || hi > 26)
                return 0;
            g_lo = lo, g_hi = hi;
        } else if ((v = opt_val(argc, argv, &i, "--ops")) != NULL) {
            int any = 0;
            for (int op = 0; op < NOPS; op++)
                g_ops[op] = 0;
            /* comma-separated names */
            for (const char *p = v; *p;) {
                size_t len = strcspn(p, ",");
                int known = 0;
                for (int op = 0; op < NOPS; op++)
                    if (strlen(op_names[op]) == len && strncmp(p, op_names[op], len) == 0)
                        g_ops[op] = known = any = 1;
                if (!known)
                    return 0;
                p += len + (p[len] == ',');
            }
            if (!any)
                return 0;
        } else {
            return 0;
        }
    }
    return 1;
}

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        if ((unsigned char)*s >= 0x20)
            putchar(*s);
    }
    putchar('"');
}

static int inputs_new(gpu_inputs *in, fastsm2_gpu *g, size_t n)
{
    memset(in, 0, sizeof(*in));
    in->n = n;
    in->e = malloc(32 * n);
    in->sigs = malloc(64 * n);
    in->vsigs = malloc(64 * n);
    in->privs = malloc(32 * n);
    in->pubs = malloc(65 * n);
    in->res = malloc(sizeof(int) * n);
    if (!in->e || !in->sigs || !in->vsigs || !in->privs || !in->pubs || !in->res)
        return fail("out of host memory");
    if (fastsm2_privkey_generate(&in->key) != FASTSM2_OK || fastsm2_privkey_pubkey(&in->pub, &in->key) != FASTSM2_OK)
        return fail("key generation");
    /* random digests and private keys (d < 2^255 < n - 1, d != 0) */
    uint64_t x = 0x9E3779B97F4A7C15ULL ^ (uint64_t)getpid();
    for (size_t i = 0; i < 32 * n; i += 8) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        memcpy(in->privs + i, &x, 8);
        uint64_t y = x * 0xD1342543DE82EF95ULL;
        memcpy(in->e + i, &y, 8);
    }
    for (size_t i = 0; i < n; i++) {
        in->privs[32 * i] &= 0x7F;
        in->privs[32 * i + 31] |= 1;
    }
    /* valid signatures to verify, made on the GPU and checked on the CPU */
    if (fastsm2_gpu_sign_digest_batch(g, in->vsigs, &in->key, 1, in->e, n) != FASTSM2_OK)
        return fail("signing the verification inputs");
    for (size_t i = 0; i < n; i += n / 31 + 1)
        if (fastsm2_verify_digest(&in->pub, in->e + 32 * i, in->vsigs + 64 * i) != 1)
            return fail("a GPU signature does not verify on the CPU");
    if (!g_ops[3])
        return 1;
    /* a key per item: NVKEYS keys over runs of items */
    in->nk = n < VKEYS_MAXN ? n : VKEYS_MAXN;
    in->kpubs = malloc(sizeof(*in->kpubs) * in->nk);
    in->ksigs = malloc(64 * in->nk);
    if (!in->kpubs || !in->ksigs)
        return fail("out of host memory");
    for (size_t j = 0; j < NVKEYS; j++) {
        size_t a = j * in->nk / NVKEYS, b = (j + 1) * in->nk / NVKEYS;
        fastsm2_privkey k;
        fastsm2_pubkey p;
        if (fastsm2_privkey_generate(&k) != FASTSM2_OK || fastsm2_privkey_pubkey(&p, &k) != FASTSM2_OK)
            return fail("key generation");
        if (b > a && fastsm2_gpu_sign_digest_batch(g, in->ksigs + 64 * a, &k, 1, in->e + 32 * a, b - a) != FASTSM2_OK)
            return fail("signing the verification inputs");
        for (size_t i = a; i < b; i++)
            in->kpubs[i] = p;
        if (b > a && fastsm2_verify_digest(&p, in->e + 32 * a, in->ksigs + 64 * a) != 1)
            return fail("a GPU signature does not verify on the CPU");
        fastsm2_privkey_clear(&k);
    }
    return 1;
}

static void inputs_free(gpu_inputs *in)
{
    free(in->e), free(in->sigs), free(in->vsigs), free(in->privs), free(in->pubs), free(in->res);
    free(in->kpubs), free(in->ksigs);
    fastsm2_privkey_clear(&in->key);
}

int bench_gpu_main(int argc, char **argv)
{
    if (!parse_args(argc, argv)) {
        usage(stderr);
        return 2;
    }
    fastsm2_gpu *g = NULL, *gct = NULL;
    int ret = fastsm2_gpu_new(&g, 0, 0);
    if (ret != FASTSM2_OK) {
        fprintf(stderr, "fastsm2-speed --gpu: no GPU context: %s%s%s\n", fastsm2_strerror(ret),
                fastsm2_gpu_device_count() > 0 ? "; " : " (no CUDA device, or built without CUDA)",
                fastsm2_gpu_device_count() > 0 ? fs2_gpu_last_error(g) : "");
        return 1;
    }
    ret = fastsm2_gpu_new(&gct, 0, FASTSM2_GPU_CONSTANT_TIME);
    if (ret != FASTSM2_OK) {
        fprintf(stderr, "fastsm2-speed --gpu: constant-time context: %s\n", fastsm2_strerror(ret));
        fastsm2_gpu_free(g);
        return 1;
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (!g_json) {
        printf("fastsm2-speed --gpu: device %s, fast-mode table %d bits, %ld CPU threads for the CPU batch rows\n",
               fastsm2_gpu_device_name(g), fs2_gpu_table_bits(g), ncpu);
        printf("%-22s %-11s %-5s %20s %15s\n", "impl", "op", "batch", "throughput", "latency/batch");
    }
    gpu_inputs in;
    size_t nmax = (size_t)1 << g_hi;
    if (inputs_new(&in, g, nmax)) {
        for (int op = 0; op < NOPS; op++) {
            if (!g_ops[op])
                continue;
            for (unsigned lg = g_lo; lg <= g_hi && !g_failed; lg++) {
                size_t n = (size_t)1 << lg;
                if (op == 3 && n > in.nk) /* at most 2^18 items: the largest allowed */
                    n = in.nk;
                measure(g, "fastsm2-gpu", "fastsm2-gpu-kernel", op, &in, n);
                measure(gct, "fastsm2-gpu-ct", "fastsm2-gpu-ct-kernel", op, &in, n);
                if (op == 3 && n == in.nk)
                    break;
            }
            if (op < 2 && !g_failed) /* CPU batch API, every core, 2^16 items */
                measure_cpu(op, &in, nmax < ((size_t)1 << 16) ? nmax : ((size_t)1 << 16), (unsigned)ncpu);
        }
    }
    if (g_json) {
        printf("{\"device\": ");
        json_str(fastsm2_gpu_device_name(g));
        printf(", \"table_bits\": %d, \"cpu_threads\": %ld, \"fastsm2_version\": ", fs2_gpu_table_bits(g), ncpu);
        json_str(fastsm2_version());
        printf(", \"results\": [");
        for (size_t i = 0; i < nrecs; i++) {
            printf("%s\n  {\"impl\": ", i ? "," : "");
            json_str(recs[i].impl);
            printf(", \"op\": ");
            json_str(recs[i].op);
            printf(", \"batch\": %zu, \"value\": %.1f, \"unit\": \"ops/s\", \"latency_ms\": %.4f, \"device\": ",
                   recs[i].batch, recs[i].ops, recs[i].latency_s * 1e3);
            json_str(strncmp(recs[i].impl, "fastsm2-gpu", 11) == 0 ? fastsm2_gpu_device_name(g) : "cpu");
            printf("}");
        }
        printf("\n], \"failed\": %s}\n", g_failed ? "true" : "false");
    } else {
        /* the best batch of each (impl, op), and the GPU/CPU ratios */
        printf("\nbest batch per row:\n");
        for (int op = 0; op < NOPS; op++) {
            double cpu = 0;
            for (size_t i = 0; i < nrecs; i++)
                if (strcmp(recs[i].op, op_names[op]) == 0 && strcmp(recs[i].impl, "fastsm2-cpu-batch") == 0)
                    cpu = recs[i].ops;
            const char *impls[] = {"fastsm2-gpu", "fastsm2-gpu-kernel", "fastsm2-gpu-ct", "fastsm2-gpu-ct-kernel",
                                   "fastsm2-cpu-batch"};
            for (size_t m = 0; m < 5; m++) {
                const gpu_rec *b = NULL;
                for (size_t i = 0; i < nrecs; i++)
                    if (strcmp(recs[i].op, op_names[op]) == 0 && strcmp(recs[i].impl, impls[m]) == 0 &&
                        (!b || recs[i].ops > b->ops))
                        b = &recs[i];
                if (!b)
                    continue;
                printf("%-22s %-11s 2^%-3u %14.0f ops/s", b->impl, b->op, (unsigned)__builtin_ctzll(b->batch), b->ops);
                if (cpu > 0)
                    printf("  %8.1fx the CPU batch API", b->ops / cpu);
                printf("\n");
            }
        }
    }
    inputs_free(&in);
    fastsm2_gpu_free(g);
    fastsm2_gpu_free(gct);
    if (g_failed)
        fprintf(stderr, "fastsm2-speed --gpu: some results were wrong (see above); exit 1\n");
    return g_failed ? 1 : 0;
}
