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
#define FS2_CPU_X86_BMI2    (1u << 0)  /* MULX, RORX */
#define FS2_CPU_X86_ADX     (1u << 1)  /* ADCX, ADOX */
#define FS2_CPU_X86_AVX2    (1u << 2)  /* with the OS saving the YMM state */
#define FS2_CPU_X86_AVX512  (1u << 3)  /* F + BW + VL, with the OS saving the ZMM state */
#define FS2_CPU_X86_IFMA    (1u << 4)  /* AVX512-IFMA (VPMADD52LUQ/HUQ), with AVX512 above */
#define FS2_CPU_X86_AESNI   (1u << 5)  /* AESENC/AESENCLAST on XMM registers */
#define FS2_CPU_X86_PCLMUL  (1u << 6)  /* PCLMULQDQ on XMM registers */
#define FS2_CPU_X86_VAES    (1u << 7)  /* VAES: AES on YMM (and with AVX512, ZMM) registers, with AVX2 above */
#define FS2_CPU_X86_VPCLMUL (1u << 13) /* VPCLMULQDQ on YMM (ZMM) registers, with AVX2 above */
#define FS2_CPU_X86_GFNI    (1u << 14) /* GF2P8AFFINEQB/GF2P8AFFINEINVQB (and their VEX/EVEX forms with AVX2/AVX512) */
/* AArch64 */
#define FS2_CPU_ARM_ASIMD   (1u << 8)
#define FS2_CPU_ARM_SM3     (1u << 9)  /* the ARMv8.2 SM3 instructions */
#define FS2_CPU_ARM_AES     (1u << 10) /* AESE/AESMC (FEAT_AES) */
#define FS2_CPU_ARM_PMULL   (1u << 11) /* PMULL/PMULL2 on 64-bit lanes (FEAT_PMULL) */
#define FS2_CPU_ARM_SM4     (1u << 12) /* SM4E/SM4EKEY (FEAT_SM4) */

/* The word; the same value on every call and in every thread. */
FS2_HIDDEN uint32_t fs2_cpu_features(void);

/* 1 if every feature in needs is present. */
static inline int fs2_cpu_has(uint32_t needs)
{
    return (fs2_cpu_features() & needs) == needs;
}

#endif
