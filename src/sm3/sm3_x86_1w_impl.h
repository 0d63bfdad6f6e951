/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one-stream SM3 compressions of sm3_x86.c (GB/T 32905 5.3), each
 * callable on its own so that the tests can check all that the CPU runs
 * (fs2_sm3_compress_x86 picks one of them at run time).
 */
#ifndef FS2_SM3_X86_1W_IMPL_H
#define FS2_SM3_X86_1W_IMPL_H

#include "../internal.h"

#if defined(__x86_64__)
/* Scalar C (sm3_scalar.h) built for BMI2: any x86 backend. */
FS2_HIDDEN void fs2_sm3_x86_bmi2(uint32_t state[8], const unsigned char *blocks, size_t nblocks);
/* Rounds in BMI2 assembly, expansion in AVX-512VL XMM code (level 2). */
FS2_HIDDEN void fs2_sm3_x86_avx512vl(uint32_t state[8], const unsigned char *blocks, size_t nblocks);
/* What this CPU runs for FS2_SM3_X86_1W_MIN blocks or more: 1 bmi2,
 * 2 avx512vl (with BMI2, AVX-512F/VL and the OS's ZMM state). */
FS2_HIDDEN int fs2_sm3_x86_level(void);
#define FS2_SM3_X86_1W_MIN 4
#endif

#endif
