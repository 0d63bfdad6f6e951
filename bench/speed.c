/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastsm2-speed: single-thread operations per second of fastsm2 beside the
 * system OpenSSL 3 (SM2, SM3, and ECDSA P-256 as the yardstick), measured in
 * one process run so that every ratio comes from the same machine state.
 *
 * Method: each record (implementation, operation) gets S seconds of timed
 * work (--seconds, default 1.0), cut into R slices (--rounds, default 5).
 * The implementations of one operation take turns slice by slice (fastsm2,
 * OpenSSL, P-256, fastsm2, ...), and each keeps its best slice: noise that
 * slows the machine for a while hits every side alike, and the best slice is
 * the least disturbed. Before timing, each case runs once (warm-up) and its
 * output is checked, with the other library where it can be (signatures
 * verify on both sides, ciphertexts decrypt on both sides, digests agree);
 * the output of the last timed call is checked again. A failed check marks
 * the record FAILED and the program exits 1.
 *
 * By default the rows a user compares run: keygen (alone, and with the new key's
 * first signature), signatures, encryption
 * at three sizes, key exchange, SM3. --all adds the internal A/B rows (the
 * SIMD lanes, the KDF against its scalar engine, more sizes). A row this
 * CPU cannot run is printed with the reason instead of figures.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "bench.h"
#include "bench_env.h"
#include "bench_gpu.h"
#include "bench_sm4.h"
#include "bench_threads.h"

#define MAX_CASES 64

/* The rows of the table, in the order they are measured. p256_op names the
 * P-256 record a row is compared with (NULL: none); internal rows (the A/B
 * comparisons of the project's own engines) run only with --all or --ops. */
typedef struct {
    const char *op;
    const char *p256_op;
    int internal;
} bench_row;

static const bench_row rows[] = {
    {"keygen", "keygen", 0},
    {"keygen-sign", NULL, 0},
    {"sign", "sign", 0},
    {"verify", "verify", 0},
    {"sign-digest", "sign", 0},
    {"verify-digest", "verify", 0},
    {"sign-digest-batch", NULL, 0},
    {"verify-digest-batch", NULL, 0},
    {"encrypt-32", NULL, 0},
    {"decrypt-32", NULL, 0},
    {"encrypt-4096", NULL, 0},
    {"decrypt-4096", NULL, 0},
    {"encrypt-1048576", NULL, 0},
    {"decrypt-1048576", NULL, 0},
    {"kx", NULL, 0},
    {"sm3-64", NULL, 0},
    {"sm3-1024", NULL, 0},
    {"sm3-8192", NULL, 0},
    {"sm3-x8-8192", NULL, 1},
    {"sm3-x16-8192", NULL, 1},
    {"kdf-1024", NULL, 1},
    {"kdf-1024-scalar", NULL, 1},
    {"kdf-4096", NULL, 1},
    {"kdf-4096-scalar", NULL, 1},
    {"encrypt-65536", NULL, 1},
    {"decrypt-65536", NULL, 1},
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

/* Every implementation's case table. A new implementation is one more line. */
static const bench_case *const case_tables[] = {
    bench_fastsm2_cases,
    bench_openssl_cases,
    bench_sm3lanes_cases,
};

typedef struct {
    const bench_case *c;
    double best;     /* calls per second */
    int state;       /* 0 not run, 1 measured, -1 failed, 2 not runnable on this CPU */
    const char *why; /* state 2: the reason */
} bench_record;

static bench_record records[MAX_CASES];
static size_t nrecords;

static int selected[NROWS];
static double opt_seconds = 1.0;
static int opt_rounds = 5;
static int opt_json;
static int opt_all;

/* ---- options ---------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f, "usage: fastsm2-speed [--seconds S] [--rounds R] [--all | --ops a,b,c] [--json] [--list] [--help]\n"
               "\n"
               "Single-thread speed of fastsm2 beside OpenSSL 3 (SM2, SM3) and OpenSSL's\n"
               "ECDSA P-256, in one process run. By default the rows a user compares:\n"
               "keygen (alone and with a first signature), sign, verify, encrypt/decrypt\n"
               "of 32 B, 4 KiB and 1 MiB, key exchange, SM3.\n"
               "\n"
               "  --all        add the internal rows: the A/B comparisons of fastsm2's own\n"
               "               engines (SM3 in 8 and 16 SIMD lanes, the KDF in lanes against\n"
               "               its scalar engine, encrypt/decrypt with each, 64 KiB)\n"
               "  --threads N  the batch API with 1 and N threads instead (0: all cores)\n"
               "  --seconds S  timed seconds per record (implementation, operation), fractional\n"
               "               allowed (default 1.0)\n"
               "  --rounds R   slices per record, alternating between implementations; the\n"
               "               best slice counts (default 5)\n"
               "  --ops LIST   comma-separated operations, internal ones too (see --list)\n"
               "  --json       print one JSON object instead of the table\n"
               "  --list       list the operations and implementations\n"
               "  --gpu        the GPU batch API instead (see --gpu --help; docs/GPU.md)\n"
               "  --sm4        SM4 in every mode instead, beside OpenSSL's SM4 and AES-128\n"
               "               (see --sm4 --help; docs/SM4.md)\n"
               "  --help       this text\n"
               "\n"
               "Units: ops/s; sm3-*, kdf-* and the 64 KiB and 1 MiB encrypt/decrypt rows in\n"
               "MB/s (1 MB = 10^6 bytes). Every result is checked (signatures verify in both\n"
               "libraries, ciphertexts decrypt in both); a failed check exits 1. A row this\n"
               "CPU cannot run says why. Usage errors exit 2.\n");
}

static void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "fastsm2-speed: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    usage(stderr);
    exit(2);
}

static int row_index(const char *op, size_t len)
{
    for (size_t i = 0; i < NROWS; i++)
        if (strlen(rows[i].op) == len && strncmp(rows[i].op, op, len) == 0)
            return (int)i;
    return -1;
}

static void parse_ops(const char *list)
{
    const char *p = list;
    int any = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len > 0) {
            int i = row_index(p, len);
            if (i < 0)
                usage_error("unknown operation in --ops: %s", list);
            selected[i] = 1;
            any = 1;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    if (!any)
        usage_error("--ops needs at least one operation%s", "");
}

static double parse_seconds(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !(v > 0.0) || v > 3600.0)
        usage_error("bad --seconds value: %s (want a number in (0, 3600])", s);
    return v;
}

static int parse_rounds(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < 1 || v > 1000)
        usage_error("bad --rounds value: %s (want 1..1000)", s);
    return (int)v;
}

/* Accept "--name value" and "--name=value". Returns the value or NULL if
 * argv[*i] is not this option. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc)
        usage_error("%s needs a value", name);
    return argv[++*i];
}

static void list_ops(void)
{
    printf("operations and their implementations:\n");
    for (size_t r = 0; r < NROWS; r++) {
        printf("  %-24s", rows[r].op);
        for (size_t k = 0; k < nrecords; k++)
            if (strcmp(records[k].c->op, rows[r].op) == 0)
                printf(" %s", records[k].c->impl);
        if (rows[r].p256_op && strcmp(rows[r].p256_op, rows[r].op) != 0)
            printf(" (compared with openssl-p256 %s)", rows[r].p256_op);
        if (rows[r].internal)
            printf(" [internal: --all]");
        printf("\n");
    }
}

/* ---- records ----------------------------------------------------------- */

static void collect_cases(void)
{
    for (size_t t = 0; t < sizeof(case_tables) / sizeof(case_tables[0]); t++)
        for (const bench_case *c = case_tables[t]; c->op; c++) {
            if (nrecords == MAX_CASES) {
                fprintf(stderr, "fastsm2-speed: more than %d cases\n", MAX_CASES);
                exit(1);
            }
            records[nrecords++].c = c;
        }
}

static bench_record *find_record(const char *impl, const char *op)
{
    for (size_t k = 0; k < nrecords; k++)
        if (strcmp(records[k].c->impl, impl) == 0 && strcmp(records[k].c->op, op) == 0)
            return &records[k];
    return NULL;
}

static int op_selected(const char *op)
{
    int i = row_index(op, strlen(op));
    return i >= 0 && selected[i];
}

/* Measure row r: every case of its operation, plus the P-256 record it is
 * compared with when that record has no row of its own in this run. */
static void measure_row(const bench_env *env, size_t r)
{
    bench_record *group[MAX_CASES];
    void *ctx[MAX_CASES];
    size_t n = 0;

    for (size_t k = 0; k < nrecords; k++)
        if (strcmp(records[k].c->op, rows[r].op) == 0 && records[k].state == 0)
            group[n++] = &records[k];
    if (rows[r].p256_op && !op_selected(rows[r].p256_op)) {
        bench_record *p = find_record("openssl-p256", rows[r].p256_op);
        if (p && p->state == 0)
            group[n++] = p;
    }

    /* Set up, warm up (one call), check; a case this CPU cannot run is
     * left out with its reason. */
    for (size_t g = 0; g < n; g++) {
        const bench_case *c = group[g]->c;
        ctx[g] = NULL;
        if (c->why_not && (group[g]->why = c->why_not(c)) != NULL) {
            group[g]->state = 2;
            continue;
        }
        ctx[g] = c->setup(env, c);
        if (!ctx[g]) {
            bench_fail(c->impl, c->op, "set-up failed");
            group[g]->state = -1;
        } else if (!c->run(ctx[g])) {
            bench_fail(c->impl, c->op, "the warm-up call failed");
            group[g]->state = -1;
        } else if (!c->check(ctx[g])) {
            group[g]->state = -1;
        }
    }

    /* Alternating slices; the best slice of each case counts. */
    double slice = opt_seconds / opt_rounds;
    for (int round = 0; round < opt_rounds; round++)
        for (size_t g = 0; g < n; g++) {
            const bench_case *c = group[g]->c;
            double rate = 0.0;
            if (group[g]->state != 0)
                continue;
            if (!bench_slice(c->run, ctx[g], slice, &rate)) {
                bench_fail(c->impl, c->op, "a call failed during timing");
                group[g]->state = -1;
                continue;
            }
            if (rate > group[g]->best)
                group[g]->best = rate;
        }

    /* Check the output of the last timed call; tear down. */
    for (size_t g = 0; g < n; g++) {
        const bench_case *c = group[g]->c;
        if (group[g]->state == 0)
            group[g]->state = c->check(ctx[g]) ? 1 : -1;
        if (ctx[g])
            c->teardown(ctx[g]);
    }
}

/* The reported value: ops/s, or MB/s (10^6 bytes) for hashing. */
static double record_value(const bench_record *rec)
{
    if (rec->c->mbps)
        return rec->best * (double)rec->c->param / 1e6;
    return rec->c->items ? rec->best * (double)rec->c->items : rec->best;
}

static const char *record_unit(const bench_record *rec)
{
    return rec->c->mbps ? "MB/s" : "ops/s";
}

/* ---- machine description ---------------------------------------------- */

static void cpu_model(char *out, size_t outlen)
{
    static const char *const keys[] = {"model name", "Hardware", "Processor", "cpu model"};
    char line[512];
    snprintf(out, outlen, "unknown");
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
        FILE *f = fopen("/proc/cpuinfo", "r");
        if (!f)
            return;
        size_t klen = strlen(keys[k]);
        while (fgets(line, sizeof(line), f)) {
            if (strncmp(line, keys[k], klen) != 0)
                continue;
            char *colon = strchr(line + klen, ':');
            if (!colon)
                continue;
            /* Only blanks may sit between the key and the colon. */
            int ok = 1;
            for (char *q = line + klen; q < colon; q++)
                if (*q != ' ' && *q != '\t')
                    ok = 0;
            if (!ok)
                continue;
            char *v = colon + 1;
            while (*v == ' ' || *v == '\t')
                v++;
            size_t vl = strlen(v);
            while (vl > 0 && isspace((unsigned char)v[vl - 1]))
                v[--vl] = '\0';
            if (vl > 0) {
                snprintf(out, outlen, "%s", v);
                fclose(f);
                return;
            }
        }
        fclose(f);
    }
}

/* ---- output -------------------------------------------------------------- */

static void json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", stdout); break;
        case '\\': fputs("\\\\", stdout); break;
        case '\n': fputs("\\n", stdout); break;
        case '\r': fputs("\\r", stdout); break;
        case '\t': fputs("\\t", stdout); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                printf("\\u%04x", *p);
            else
                putchar(*p);
        }
    }
    putchar('"');
}

/* The records in state `state` (-1: failed, with no reason; 2: not
 * runnable here, with the reason) as JSON objects, comma-separated. */
static void print_json_records(int state)
{
    int first = 1;
    for (size_t k = 0; k < nrecords; k++) {
        if (records[k].state != state)
            continue;
        printf("%s{\"impl\": ", first ? "" : ", ");
        json_string(records[k].c->impl);
        printf(", \"op\": ");
        json_string(records[k].c->op);
        if (state == 2) {
            printf(", \"why\": ");
            json_string(records[k].why);
        }
        printf("}");
        first = 0;
    }
}

static void print_json(const char *cpu)
{
    int first = 1;
    printf("{\"cpu\": ");
    json_string(cpu);
    printf(", \"backend\": ");
    json_string(fastsm2_backend_name());
    printf(", \"openssl_version\": ");
    json_string(OpenSSL_version(OPENSSL_VERSION));
    printf(", \"fastsm2_version\": ");
    json_string(fastsm2_version());
    printf(", \"seconds\": %.6g, \"rounds\": %d, \"threads\": 1, \"results\": [", opt_seconds, opt_rounds);
    /* In table order: row by row, then any record of an operation without
     * a row. */
    for (size_t i = 0; i < nrecords * (NROWS + 1); i++) {
        size_t r = i / nrecords;
        const bench_record *rec = &records[i % nrecords];
        if (rec->state != 1)
            continue;
        if (r < NROWS ? strcmp(rec->c->op, rows[r].op) != 0 : row_index(rec->c->op, strlen(rec->c->op)) >= 0)
            continue;
        printf("%s\n  {\"impl\": ", first ? "" : ",");
        json_string(rec->c->impl);
        printf(", \"op\": ");
        json_string(rec->c->op);
        printf(", \"value\": %.*f, \"unit\": \"%s\"}", rec->c->mbps ? 2 : 1, record_value(rec), record_unit(rec));
        first = 0;
    }
    printf("\n], \"not_run\": [");
    print_json_records(2);
    printf("], \"failures\": [");
    print_json_records(-1);
    printf("]}\n");
}

static void cell_value(char *out, size_t n, const bench_record *rec)
{
    if (!rec || rec->state == 0 || rec->state == 2)
        snprintf(out, n, "-");
    else if (rec->state < 0)
        snprintf(out, n, "FAILED");
    else
        snprintf(out, n, "%.1f", record_value(rec));
}

static void cell_ratio(char *out, size_t n, const bench_record *a, const bench_record *b)
{
    if (!a || !b || a->state != 1 || b->state != 1 || b->best <= 0.0)
        snprintf(out, n, "-");
    else
        snprintf(out, n, "%.2f", a->best / b->best); /* ops/s ratio = MB/s ratio */
}

static void print_header(const char *cpu)
{
    printf("fastsm2-speed: single thread, best of %d slices, %.6g s per record\n", opt_rounds, opt_seconds);
    printf("CPU:      %s\n", cpu);
    printf("backend:  %s\n", fastsm2_backend_name());
    printf("fastsm2:  %s\n", fastsm2_version());
    printf("OpenSSL:  %s\n", OpenSSL_version(OPENSSL_VERSION));
    printf("units:    ops/s; rows marked (MB/s) in MB/s (1 MB = 10^6 bytes); sm3-xL rows: all L lanes together\n");
    printf("P-256:    ECDSA on a 32-byte digest; sign-digest/verify-digest are compared with P-256 sign/verify\n");
    printf("rows:     %s\n\n", opt_all ? "all, the internal A/B rows included"
                                       : "those selected (--all adds the internal A/B rows; --list names them)");
    printf("%-28s %12s %12s %14s %20s %14s\n", "op", "fastsm2", "OpenSSL SM2", "OpenSSL P-256", "fastsm2/OpenSSL-SM2",
           "fastsm2/P-256");
    printf("%-28s %12s %12s %14s %20s %14s\n", "--", "-------", "-----------", "-------------", "-------------------",
           "-------------");
    fflush(stdout);
}

static void print_row(size_t r)
{
    const bench_record *fs = find_record("fastsm2", rows[r].op);
    const bench_record *os = find_record("openssl", rows[r].op);
    const bench_record *p256 = rows[r].p256_op ? find_record("openssl-p256", rows[r].p256_op) : NULL;
    char name[40], v1[32], v2[32], v3[32], r1[32], r2[32];

    snprintf(name, sizeof(name), "%s%s", rows[r].op, fs && fs->c->mbps ? " (MB/s)" : "");
    if (fs && fs->state == 2) {
        printf("%-28s not run: %s\n", name, fs->why);
        fflush(stdout);
        return;
    }
    cell_value(v1, sizeof(v1), fs);
    cell_value(v2, sizeof(v2), os);
    if (p256)
        cell_value(v3, sizeof(v3), p256);
    else
        snprintf(v3, sizeof(v3), " ");
    cell_ratio(r1, sizeof(r1), fs, os);
    if (p256)
        cell_ratio(r2, sizeof(r2), fs, p256);
    else
        snprintf(r2, sizeof(r2), " ");
    printf("%-28s %12s %12s %14s %20s %14s\n", name, v1, v2, v3, r1, r2);
    fflush(stdout);
}

/* ---- main ------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static bench_env env;
    char cpu[256];
    int any_selected = 0, list = 0, failed = 0;

    for (int i = 1; i < argc; i++) { /* tables of their own: --gpu (bench_gpu.c), --threads (bench_threads.c) */
        if (strcmp(argv[i], "--gpu") == 0)
            return bench_gpu_main(argc, argv);
        if (strcmp(argv[i], "--threads") == 0)
            return bench_threads_main(argc, argv);
        if (strcmp(argv[i], "--sm4") == 0)
            return bench_sm4_main(argc, argv);
    }
    collect_cases();
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            opt_json = 1;
        } else if (strcmp(argv[i], "--list") == 0) {
            list = 1;
        } else if (strcmp(argv[i], "--all") == 0) {
            opt_all = 1;
        } else if ((v = opt_value(argc, argv, &i, "--seconds")) != NULL) {
            opt_seconds = parse_seconds(v);
        } else if ((v = opt_value(argc, argv, &i, "--rounds")) != NULL) {
            opt_rounds = parse_rounds(v);
        } else if ((v = opt_value(argc, argv, &i, "--ops")) != NULL) {
            parse_ops(v);
            any_selected = 1;
        } else {
            usage_error("unknown option: %s", argv[i]);
        }
    }
    if (list) {
        list_ops();
        return 0;
    }
    if (any_selected && opt_all)
        usage_error("--all and --ops do not go together%s", "");
    if (!any_selected)
        for (size_t r = 0; r < NROWS; r++)
            selected[r] = opt_all || !rows[r].internal;

    cpu_model(cpu, sizeof(cpu));
    if (!bench_env_init(&env)) {
        bench_env_free(&env);
        return 1;
    }
    if (!opt_json)
        print_header(cpu);
    for (size_t r = 0; r < NROWS; r++) {
        if (!selected[r])
            continue;
        measure_row(&env, r);
        if (!opt_json)
            print_row(r);
    }
    if (opt_json)
        print_json(cpu);
    bench_env_free(&env);

    for (size_t k = 0; k < nrecords; k++)
        if (records[k].state < 0)
            failed = 1;
    if (failed) {
        fprintf(stderr, "fastsm2-speed: some results were wrong (see above); exit 1\n");
        return 1;
    }
    return 0;
}
