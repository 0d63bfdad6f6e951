/* SPDX-License-Identifier: Apache-2.0 */
/* The CPU-feature word (src/cpu.h). */
#include "cpu.h"

#if defined(__x86_64__)
#include <cpuid.h>

static uint32_t cpu_probe(void)
{
    unsigned a, b, c, d;
    uint32_t f = 0;
    if (__get_cpuid_max(0, 0) < 7)
        return 0;
    __cpuid(1, a, b, c, d);
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (c & (1u << 25))
        f |= FS2_CPU_X86_AESNI;
    if (c & (1u << 1))
        f |= FS2_CPU_X86_PCLMUL;
    uint64_t xcr0 = 0;
    if (osxsave) {
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        xcr0 = ((uint64_t)hi << 32) | lo;
    }
    __cpuid_count(7, 0, a, b, c, d);
    if (b & (1u << 8))
        f |= FS2_CPU_X86_BMI2;
    if (b & (1u << 19))
        f |= FS2_CPU_X86_ADX;
    /* XCR0: XMM and YMM state (bits 1-2); for AVX-512 also opmask, ZMM0-15
     * upper halves and ZMM16-31 (bits 5-7) */
    if (avx && (b & (1u << 5)) && (xcr0 & 6) == 6)
        f |= FS2_CPU_X86_AVX2;
    /* leaf 7 ECX: GFNI (bit 8), VAES (9), VPCLMULQDQ (10); the wide forms
     * with the AVX2 state */
    if (c & (1u << 8))
        f |= FS2_CPU_X86_GFNI;
    if ((f & FS2_CPU_X86_AVX2) && (c & (1u << 9)))
        f |= FS2_CPU_X86_VAES;
    if ((f & FS2_CPU_X86_AVX2) && (c & (1u << 10)))
        f |= FS2_CPU_X86_VPCLMUL;
    /* AVX-512 F (bit 16), BW (30), VL (31) */
    if ((f & FS2_CPU_X86_AVX2) && (b & (1u << 16)) && (b & (1u << 30)) && (b & (1u << 31)) && (xcr0 & 0xe6) == 0xe6)
        f |= FS2_CPU_X86_AVX512;
        /* AVX-512 IFMA (bit 21). Offered in GCC builds only: clang turns the
     * table scans of the IFMA kG into gathers, which the trace test
     * (ctime_ifma_trace) cannot clear as constant time. */
#if !defined(__clang__)
    if ((f & FS2_CPU_X86_AVX512) && (b & (1u << 21)))
        f |= FS2_CPU_X86_IFMA;
#endif
    return f;
}

#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>

#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1UL << 1)
#endif
#ifndef HWCAP_SM3
#define HWCAP_SM3 (1UL << 18)
#endif
#ifndef HWCAP_AES
#define HWCAP_AES (1UL << 3)
#endif
#ifndef HWCAP_PMULL
#define HWCAP_PMULL (1UL << 4)
#endif
#ifndef HWCAP_SM4
#define HWCAP_SM4 (1UL << 19)
#endif

static uint32_t cpu_probe(void)
{
    unsigned long hw = getauxval(AT_HWCAP);
    uint32_t f = 0;
    if (hw & HWCAP_ASIMD)
        f |= FS2_CPU_ARM_ASIMD;
    if (hw & HWCAP_SM3)
        f |= FS2_CPU_ARM_SM3;
    if (hw & HWCAP_AES)
        f |= FS2_CPU_ARM_AES;
    if (hw & HWCAP_PMULL)
        f |= FS2_CPU_ARM_PMULL;
    if (hw & HWCAP_SM4)
        f |= FS2_CPU_ARM_SM4;
    return f;
}

#elif defined(__aarch64__) && defined(__APPLE__)
#include <sys/sysctl.h>

/* 1 if the sysctl flag NAME exists and is set. */
static int cpu_sysctl_flag(const char *name)
{
    int v = 0;
    size_t len = sizeof v;
    return sysctlbyname(name, &v, &len, NULL, 0) == 0 && v != 0;
}

static uint32_t cpu_probe(void)
{
    uint32_t f = FS2_CPU_ARM_ASIMD; /* every Apple arm64 CPU has it */
    if (cpu_sysctl_flag("hw.optional.arm.FEAT_SM3"))
        f |= FS2_CPU_ARM_SM3;
    if (cpu_sysctl_flag("hw.optional.arm.FEAT_AES"))
        f |= FS2_CPU_ARM_AES;
    if (cpu_sysctl_flag("hw.optional.arm.FEAT_PMULL"))
        f |= FS2_CPU_ARM_PMULL;
    if (cpu_sysctl_flag("hw.optional.arm.FEAT_SM4"))
        f |= FS2_CPU_ARM_SM4;
    return f;
}

#else
/* Other systems (AArch64 ones without getauxval among them): the generic
 * backend. */
static uint32_t cpu_probe(void)
{
    return 0;
}
#endif

/* Bit 31 marks the word as read. Threads that race on the first call store
 * the same value. */
#define FS2_CPU_READ (1u << 31)

uint32_t fs2_cpu_features(void)
{
    static uint32_t word;
    uint32_t w = __atomic_load_n(&word, __ATOMIC_RELAXED);
    if (!(w & FS2_CPU_READ)) {
        w = cpu_probe() | FS2_CPU_READ;
        __atomic_store_n(&word, w, __ATOMIC_RELAXED);
    }
    return w & ~FS2_CPU_READ;
}
