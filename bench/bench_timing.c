/* SPDX-License-Identifier: Apache-2.0 */
/* The one timing loop of fastsm2-speed. */
#include <stdio.h>
#include <time.h>

#include "bench.h"

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int bench_slice(int (*run)(void *ctx), void *ctx, double seconds, double *rate)
{
    uint64_t calls = 0, batch = 1;
    double start = bench_now(), now = start;

    for (;;) {
        double batch_start = now;
        for (uint64_t i = 0; i < batch; i++)
            if (!run(ctx))
                return 0;
        calls += batch;
        now = bench_now();
        if (now - start >= seconds)
            break;
        /* Grow the batch while a batch is shorter than 0.2 ms: the clock is
         * then read at most every ~0.2-0.4 ms, and the slice overshoots its
         * length by no more than that. */
        if (now - batch_start < 2e-4 && batch < ((uint64_t)1 << 24))
            batch *= 2;
    }
    *rate = (double)calls / (now - start);
    return 1;
}

int bench_fail(const char *impl, const char *op, const char *what)
{
    fprintf(stderr, "fastsm2-speed: CHECK FAILED: %s %s: %s\n", impl, op, what);
    return 0;
}
