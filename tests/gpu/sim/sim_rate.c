/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One batch of the GPU API as one chunk (one kernel launch), for the timing
 * model of GPGPU-Sim (tests/harness/test-gpu-sim.sh rates): the simulator prints
 * the launch's cycles, IPC, occupancy and cache statistics, from which the
 * script derives simulated operations per second. The results are checked
 * too: every signature verifies on the CPU, every CPU signature verifies on
 * the device. verify: one public key for the batch (tP by a fixed-base
 * table of the key, built before the timed launch by the same call run
 * once functionally); verify-keys: a key per item (8 keys in turn; tP by
 * the window).
 * With FS2_SIM_TIMED_ONLY=1 everything but the timed launch (the table
 * build above all) runs in the simulator's functional mode and the timed
 * launch in its performance (timing) mode: GPGPU-Sim reads
 * PTX_SIM_MODE_FUNC at every launch.
 * Usage: sim_rate sign|sign-ct|verify|verify-keys N
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_internal.h"

/* marks the timed launch in the simulator's log */
static void begins(const char *what, size_t n, const fastsm2_gpu *g)
{
    printf("sim_rate: timed batch begins: %s, %zu items, table width %d\n", what, n, fs2_gpu_table_bits(g));
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    const char *what = argv[1];
    size_t n = (size_t)strtoul(argv[2], NULL, 10);
    int ct = strcmp(what, "sign-ct") == 0, keys = strcmp(what, "verify-keys") == 0;
    int verify = keys || strcmp(what, "verify") == 0;
    if (n == 0 || (!ct && !verify && strcmp(what, "sign") != 0))
        return 2;
    fastsm2_privkey key[8];
    fastsm2_pubkey pub[8];
    for (int i = 0; i < 8; i++)
        if (fastsm2_privkey_generate(&key[i]) != FASTSM2_OK || fastsm2_privkey_pubkey(&pub[i], &key[i]) != FASTSM2_OK)
            return 1;
    fastsm2_pubkey *pubs = malloc(sizeof(*pubs) * n);
    if (!pubs)
        return 1;
    for (size_t i = 0; i < n; i++)
        pubs[i] = pub[keys ? i % 8 : 0];
    unsigned char *e = malloc(32 * n), *s = malloc(64 * n);
    int *res = malloc(sizeof(int) * n);
    if (!e || !s || !res)
        return 1;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 32; j++)
            e[32 * i + j] = (unsigned char)(i * 131 + j * 7 + 1);
    int timed_only = getenv("FS2_SIM_TIMED_ONLY") && strcmp(getenv("FS2_SIM_TIMED_ONLY"), "1") == 0;
    if (timed_only)
        setenv("PTX_SIM_MODE_FUNC", "1", 1);
    fastsm2_gpu *g = NULL;
    int ret = fastsm2_gpu_new(&g, 0, ct ? FASTSM2_GPU_CONSTANT_TIME : 0);
    if (ret != FASTSM2_OK) {
        fprintf(stderr, "sim_rate: fastsm2_gpu_new: %d %s\n", ret, fs2_gpu_last_error(g));
        return 1;
    }
    double ks = 0;
    size_t bad = 0;
    if (verify) {
        for (size_t i = 0; i < n; i++)
            if (fastsm2_sign_digest(s + 64 * i, &key[keys ? i % 8 : 0], e + 32 * i) != FASTSM2_OK)
                return 1;
        if (!keys) /* the key's table: built by this call, kept for the timed one */
            ret = fs2_gpu_verify_timed(g, res, pubs, 1, e, s, n, &ks);
        begins(what, n, g);
        if (timed_only)
            setenv("PTX_SIM_MODE_FUNC", "0", 1);
        if (ret == FASTSM2_OK)
            ret = fs2_gpu_verify_timed(g, res, pubs, keys ? n : 1, e, s, n, &ks);
        for (size_t i = 0; i < n; i++)
            bad += res[i] != 1;
    } else {
        begins(what, n, g);
        if (timed_only)
            setenv("PTX_SIM_MODE_FUNC", "0", 1);
        ret = fs2_gpu_sign_timed(g, s, key, 1, e, n, &ks);
        for (size_t i = 0; i < n; i++)
            bad += fastsm2_verify_digest(&pub[0], e + 32 * i, s + 64 * i) != 1;
    }
    if (timed_only)
        setenv("PTX_SIM_MODE_FUNC", "1", 1);
    printf("sim_rate: timed batch ends: %s\n", ret == FASTSM2_OK ? "ok" : "error");
    fastsm2_gpu_free(g);
    for (int i = 0; i < 8; i++)
        fastsm2_privkey_clear(&key[i]);
    free(e), free(s), free(res), free(pubs);
    if (ret != FASTSM2_OK || bad) {
        fprintf(stderr, "sim_rate: %s: status %d, %zu of %zu results wrong\n", what, ret, bad, n);
        return 1;
    }
    printf("sim_rate: %s: %zu results checked on the CPU\n", what, n);
    return 0;
}
