/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CPU-feature word: what this CPU, and its operating system, let the
 * library run. Read once, at first use (CPUID and XGETBV on x86-64, the
 * kernel's HWCAP bits on AArch64), and kept; every dispatcher reads this
 * word (src/backend/backend.c and the tables' cpu_needs), none asks the
 * CPU itself.
 */
#ifndef FS2_CPU_H
#define FS2_CPU_H

#include "internal.h"

/* x86-64 */
#define FS2_CPU_X86_BMI2   (1u << 0) /* MULX, RORX */
#define FS2_CPU_X86_ADX    (1u << 1) /* ADCX, ADOX */
#define FS2_CPU_X86_AVX2   (1u << 2) /* with the OS saving the YMM state */
#define FS2_CPU_X86_AVX512 (1u << 3) /* F + BW + VL, with the OS saving the ZMM state */
#define FS2_CPU_X86_IFMA   (1u << 4) /* AVX512-IFMA (VPMADD52LUQ/HUQ), with AVX512 above */
/* AArch64 */
#define FS2_CPU_ARM_ASIMD  (1u << 8)
#define FS2_CPU_ARM_SM3    (1u << 9) /* the ARMv8.2 SM3 instructions */

/* The word; the same value on every call and in every thread. */
FS2_HIDDEN uint32_t fs2_cpu_features(void);

/* 1 if every feature in needs is present. */
static inline int fs2_cpu_has(uint32_t needs)
{
    return (fs2_cpu_features() & needs) == needs;
}

#endif
