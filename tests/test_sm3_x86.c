/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The x86-64 one-stream SM3 compressions (src/sm3/sm3_x86.c, GB/T 32905
 * 5.3) against the portable fs2_sm3_compress_generic, each one that this CPU
 * can run, called directly rather than through an SM3 table (the avx512
 * table only reaches the assembly one from 4 blocks on):
 *  - random chaining values, 0..70 blocks per call (both buffer halves of
 *    the one-block-ahead expansion, odd and even counts, the last block's
 *    self-expansion), block pointers at every offset mod 16;
 *  - the output does not depend on what follows the last block (the
 *    expansion reads ahead only inside the caller's blocks);
 *  - each x86 SM3 table's compress, and that the CPU-feature word reports
 *    AVX-512 exactly when the compiler's CPU check does;
 *  - fastsm2_sm3 of large messages against OpenSSL (end to end, whichever
 *    backend runs).
 * Elsewhere it exits 77 (skipped).
 */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "internal.h"
#include "sm3/sm3_ops.h"
#include "testutil.h"

#if defined(__x86_64__)
typedef void (*fs2t_compress_fn)(uint32_t state[8], const unsigned char *blocks, size_t nblocks);

/* Compare f with the generic compression over many shapes of input. */
static void check_impl(const char *name, fs2t_compress_fn f)
{
    enum { MAXB = 70 };
    unsigned char *mem = malloc(64 * MAXB + 16 + 64);
    unsigned long bad = 0;
    if (mem == NULL)
        abort();
    for (size_t nb = 0; nb <= MAXB; nb++) {
        for (size_t off = 0; off < 16; off += (nb < 10 ? 1 : 5)) {
            uint32_t got[8], want[8];
            unsigned char *p = mem + off;
            fs2t_rand_bytes(mem, 64 * MAXB + 16 + 64);
            fs2t_rand_bytes(want, sizeof want);
            memcpy(got, want, sizeof want);
            fs2_sm3_compress_generic(want, p, nb);
            f(got, p, nb);
            if (memcmp(got, want, sizeof want) != 0)
                bad++;
            /* the bytes after the last block must not matter */
            memcpy(got, want, sizeof want);
            fs2_sm3_compress_generic(want, p, nb);
            for (size_t i = 64 * nb; i < 64 * nb + 64; i++)
                p[i] ^= 0xa5;
            f(got, p, nb);
            if (memcmp(got, want, sizeof want) != 0)
                bad++;
        }
    }
    if (bad)
        fprintf(stderr, "%s: %lu mismatches\n", name, bad);
    CHECK(bad == 0);
    free(mem);
}

static void ossl_sm3(unsigned char out[32], const void *data, size_t len)
{
    unsigned int n = 0;
    if (!EVP_Digest(data, len, out, &n, EVP_sm3(), NULL) || n != 32)
        abort();
}

int main(void)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("bmi2")) {
        return fs2t_skip("test_sm3_x86", "no BMI2");
    }
    check_impl("fs2_sm3_x86_bmi2", fs2_sm3_x86_bmi2);
    int has512 =
        __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    CHECK(((fs2_cpu_features() & FS2_CPU_X86_AVX512) != 0) == has512);
    if (has512)
        check_impl("fs2_sm3_x86_avx512vl", fs2_sm3_x86_avx512vl);
    else
        printf("test_sm3_x86: no AVX-512VL, fs2_sm3_x86_avx512vl not run\n");
    const fs2_sm3_ops *tables[] = {&fs2_sm3_ops_bmi2, &fs2_sm3_ops_avx2, &fs2_sm3_ops_avx512};
    for (size_t i = 0; i < 3; i++) {
        if (fs2_cpu_has(tables[i]->cpu_needs))
            check_impl(tables[i]->name, tables[i]->compress);
        else
            printf("test_sm3_x86: SM3 %s not available, not run\n", tables[i]->name);
    }

    /* end to end: whole messages, with a tail, through the public API */
    static const size_t lens[] = {255, 256, 257, 1000, 8192, 65536 + 13};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        unsigned char *m = malloc(lens[i]), got[32], want[32];
        if (m == NULL)
            abort();
        fs2t_rand_bytes(m, lens[i]);
        fastsm2_sm3(got, m, lens[i]);
        ossl_sm3(want, m, lens[i]);
        CHECK(memcmp(got, want, 32) == 0);
        free(m);
    }
    return fs2t_finish("test_sm3_x86");
}
#else
int main(void)
{
    return fs2t_skip("test_sm3_x86", "not x86-64");
}
#endif
