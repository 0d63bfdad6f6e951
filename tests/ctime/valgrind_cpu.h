/* SPDX-License-Identifier: Apache-2.0 */
/* The CPU features whose instructions valgrind 3.19+ executes although its
 * virtual CPUID does not report all of them (ADX): a table that needs no
 * more runs under the valgrind test (tests/ctime/ctime_test.c), forced
 * where its CPUID check fails. Not AVX-512 (valgrind cannot run it), not
 * VAES or VPCLMULQDQ on YMM, not GFNI: the SM4 tables that need those are
 * traced instead (tests/ctime/sm4_trace_target.c); nothing of AArch64
 * (valgrind does not run under qemu-user). */
#ifndef FS2_VALGRIND_CPU_H
#define FS2_VALGRIND_CPU_H

#include "cpu.h"

#define FS2T_VALGRIND_EXECUTES \
    (FS2_CPU_X86_BMI2 | FS2_CPU_X86_ADX | FS2_CPU_X86_AVX2 | FS2_CPU_X86_AESNI | FS2_CPU_X86_PCLMUL)

#endif
