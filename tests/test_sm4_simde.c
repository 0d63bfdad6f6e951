/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM4 tables this CPU cannot run (GFNI, AVX-512), built a second time
 * over SIMDe's portable versions of the same intrinsics (Debian's
 * libsimde-dev; tests/CMakeLists.txt compiles their sources with
 * FS2_SM4_SIMDE into this program, as tables named *_simde that need
 * nothing of the CPU), against the portable table: every slot and every
 * mode, as tests/test_sm4_tables.c does for the tables that run here. The
 * tables' list comes from the dispatch: each table that needs GFNI or
 * AVX-512 and that this CPU cannot run must have an emulated twin here. On a CPU that runs them natively they are tested
 * natively too. Under qemu-user (test-x86-cpus) the twins, which need
 * nothing of the CPU, only pass their self-test. Without SIMDe (or off
 * x86-64): skipped (77).
 */
#include "cpu.h"
#include "sm4t_tables.h"

#if defined(FS2_SM4_SIMDE) && defined(__x86_64__)
extern const fs2_sm4_ops fs2_sm4_ops_avx2_gfni_simde, fs2_sm4_ops_avx512_gfni_simde;
static const fs2_sm4_ops *const emulated[] = {&fs2_sm4_ops_avx2_gfni_simde, &fs2_sm4_ops_avx512_gfni_simde};

int main(void)
{
    const fs2_sm4_ops *t;
    int ran = 0;
    for (size_t i = 0; (t = fs2_sm4_table(i)) != NULL; i++) {
        const fs2_sm4_ops *twin = NULL;
        for (size_t j = 0; j < sizeof emulated / sizeof emulated[0]; j++)
            if (strcmp(emulated[j]->name, t->name) == 0)
                twin = emulated[j];
        if (fs2_sm4_table_available(t) && twin == NULL)
            continue; /* runs natively: test_sm4_tables */
        /* The GFNI and AVX-512 tables must have a twin: no CPU of the
         * development machine runs them. The AES-NI/VAES ones need none: an
         * older CPU (test-x86-cpus's qemu models) lacks them, and every x86
         * machine this project is tested on has them natively. */
        int must = (t->cpu_needs & (FS2_CPU_X86_GFNI | FS2_CPU_X86_AVX512)) != 0;
        CHECK(twin != NULL || !must);
        if (twin == NULL) {
            printf("SM4 table %s: this CPU cannot run it%s\n", t->name,
                   must ? " and it has no emulated twin" : ", tested natively where the CPU has it");
            continue;
        }
        printf("SM4 table %s, emulated by SIMDe, against generic%s\n", t->name,
               fs2_sm4_table_available(t) ? " (it also runs natively here)" : "");
        CHECK(fs2_sm4_self_test(twin) == 1);
        ran++;
        if (getenv("FS2T_QEMU_USER") != NULL) { /* the twins need nothing of the CPU: once, natively */
            printf("  (under qemu-user: the self-test only; every slot and mode natively in make test)\n");
            continue;
        }
        sm4t_test_slots(twin);
        sm4t_test_modes(twin);
    }
    fs2_sm4_force(NULL);
    CHECK(ran > 0);
    return fs2t_finish("test_sm4_simde");
}
#else
int main(void)
{
    return fs2t_skip("test_sm4_simde", "no SIMDe headers (Debian's libsimde-dev) or not x86-64");
}
#endif
