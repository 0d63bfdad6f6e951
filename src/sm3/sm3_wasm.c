/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM3 table of WebAssembly builds with SIMD (-msimd128, the npm
 * package's fastsm2-simd.wasm): one stream by the portable C (a stream's
 * rounds are sequential; 32-bit lanes gain nothing there), four
 * independent streams in the 32-bit lanes of 128-bit vectors for the
 * multi-buffer calls (the KDF's counter blocks, fastsm2_sm3_many): the
 * lanes template (sm3_lanes_tmpl.h) over WebAssembly SIMD operations.
 *
 * Constant time, as every SM3 table: straight-line vector code (adds,
 * shifts, xors, bit selects, byte shuffles with constant patterns), no
 * branch and no memory index that depends on a message or a state; engines
 * compile these to fixed-latency SIMD instructions. The whole file is for
 * WebAssembly with SIMD; elsewhere it compiles to nothing.
 */
#include "sm3_ops.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include "sm3_scalar.h"

/* The 4 big-endian words of 16 bytes. */
static inline v128_t fs2_load_be4_wasm(const unsigned char *p)
{
    v128_t v = wasm_v128_load(p);
    return wasm_i8x16_shuffle(v, v, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
}

/* w[0..15] = the 16 big-endian words of each lane's block at blocks[l] +
 * off, word j of lane l in lane l of w[j] (4 x 4 transposes). */
static inline void fs2_load4x16_wasm(v128_t *w, const unsigned char *const *blocks, size_t off)
{
    for (int k = 0; k < 4; k++) {
        v128_t r0 = fs2_load_be4_wasm(blocks[0] + off + 16 * k), r1 = fs2_load_be4_wasm(blocks[1] + off + 16 * k);
        v128_t r2 = fs2_load_be4_wasm(blocks[2] + off + 16 * k), r3 = fs2_load_be4_wasm(blocks[3] + off + 16 * k);
        v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);
        v128_t t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
        w[4 * k + 0] = wasm_i64x2_shuffle(t0, t2, 0, 2);
        w[4 * k + 1] = wasm_i64x2_shuffle(t0, t2, 1, 3);
        w[4 * k + 2] = wasm_i64x2_shuffle(t1, t3, 0, 2);
        w[4 * k + 3] = wasm_i64x2_shuffle(t1, t3, 1, 3);
    }
}

#define FS2_V  v128_t
#define FS2_VN 4
#define FS2_VTARGET
#define FS2_VNAME                   fs2_sm3_compress_x4_wasm
#define FS2_VADD(a, b)              wasm_i32x4_add((a), (b))
#define FS2_VXOR(a, b)              wasm_v128_xor((a), (b))
#define FS2_VROTL(a, n)             wasm_v128_or(wasm_i32x4_shl((a), (n)), wasm_u32x4_shr((a), 32 - (n)))
#define FS2_VSET1(k)                wasm_i32x4_splat((int32_t)(k))
#define FS2_VXOR3(a, b, c)          wasm_v128_xor(wasm_v128_xor((a), (b)), (c))
/* majority: where a and b differ, c decides */
#define FS2_VMAJ(a, b, c)           wasm_v128_bitselect((c), (a), wasm_v128_xor((a), (b)))
/* (a & b) | (~a & c) is one bit select */
#define FS2_VCH(a, b, c)            wasm_v128_bitselect((b), (c), (a))
/* x <<< 8 in every lane: one byte shuffle */
#define FS2_VROTL8(a)               wasm_i8x16_shuffle((a), (a), 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14)
#define FS2_VLOAD_BLOCKS(w, p, off) fs2_load4x16_wasm((w), (p), (off))
#include "sm3_lanes_tmpl.h"

const fs2_sm3_ops fs2_sm3_ops_wasm_simd = {
    .name = "wasm-simd",
    .cpu_needs = 0,
    .compress = fs2_sm3_compress_generic,
    .lanes = 4,
    .compress_lanes = fs2_sm3_compress_x4_wasm,
};
#endif
