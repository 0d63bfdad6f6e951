/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM3 seam (docs/ARCHITECTURE.md): the SM3 compression function (GB/T
 * 32905 5.3) as an operations table, one per implementation. The hash, the
 * KDF and the batch hashing API (src/hash/) reach SM3 through the selected
 * table only (fs2_sm3(), src/backend/backend.h), chosen from the
 * CPU-feature word (src/cpu.h) independently of the EC table.
 *
 * Every function here is constant time: no branch and no memory index
 * depends on the message or the state (only on the block count).
 */
#ifndef FS2_SM3_OPS_H
#define FS2_SM3_OPS_H

#include "internal.h"

typedef struct fs2_sm3_ops {
    const char *name;
    /* The FS2_CPU_* features the CPU must have (src/cpu.h). */
    uint32_t cpu_needs;
    /* One stream: nblocks consecutive 64-byte blocks compressed into
     * state. */
    void (*compress)(uint32_t state[8], const unsigned char *blocks, size_t nblocks);
    /* Multi-buffer: lanes independent streams at once, lane i compressing
     * nblocks consecutive 64-byte blocks from blocks[i] into state[i] (every
     * lane takes the same number of blocks; lanes may read the same
     * blocks). lanes is 1 and compress_lanes NULL for an implementation
     * without SIMD lanes. */
    unsigned lanes;
    void (*compress_lanes)(uint32_t (*state)[8], const unsigned char *const *blocks, size_t nblocks);
} fs2_sm3_ops;

/* The portable C compression (src/sm3/sm3_generic.c), the reference, and
 * its table. */
FS2_HIDDEN void fs2_sm3_compress_generic(uint32_t state[8], const unsigned char *blocks, size_t nblocks);
FS2_HIDDEN extern const fs2_sm3_ops fs2_sm3_ops_generic;

#if defined(__x86_64__)
/* src/sm3/sm3_x86.c:
 *   bmi2    the portable C built for BMI2 (RORX), one stream;
 *   avx2    bmi2's one stream, 8 lanes in the 32-bit lanes of YMM registers;
 *   avx512  one stream with the rounds in BMI2 assembly and the message
 *           expansion in AVX-512VL (from FS2_SM3_X86_1W_MIN blocks on),
 *           16 lanes in ZMM registers. */
FS2_HIDDEN extern const fs2_sm3_ops fs2_sm3_ops_bmi2, fs2_sm3_ops_avx2, fs2_sm3_ops_avx512;
/* Their one-stream functions, for the tests (the avx512 table runs
 * fs2_sm3_x86_avx512vl from FS2_SM3_X86_1W_MIN blocks on, the BMI2 C code
 * below). */
FS2_HIDDEN void fs2_sm3_x86_bmi2(uint32_t state[8], const unsigned char *blocks, size_t nblocks);
FS2_HIDDEN void fs2_sm3_x86_avx512vl(uint32_t state[8], const unsigned char *blocks, size_t nblocks);
#define FS2_SM3_X86_1W_MIN 4
#endif

#if defined(__aarch64__)
/* src/sm3/sm3_aarch64.c:
 *   neon       the portable C for one stream, 4 lanes in NEON registers;
 *   armv8-sm3  the ARMv8.2 SM3 instructions, one stream (fewer
 *              instructions per block than the 4 NEON lanes). */
FS2_HIDDEN extern const fs2_sm3_ops fs2_sm3_ops_neon, fs2_sm3_ops_armv8_sm3;
#endif

#if defined(__wasm_simd128__)
/* src/sm3/sm3_wasm.c: WebAssembly with SIMD: the portable C for one
 * stream, 4 lanes in 128-bit vectors. */
FS2_HIDDEN extern const fs2_sm3_ops fs2_sm3_ops_wasm_simd;
#endif

#endif
