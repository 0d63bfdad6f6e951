/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM4 S-box on the 16 bytes of a WebAssembly SIMD vector by 12
 * i8x16.swizzle lookups of nibbles in 16-entry tables, 10 XORs, an AND
 * and a shift (FS2_SM4_VP_* of sm4_sbox.h; tools/gen_sm4_sbox.py derives
 * them and checks the formulas below on all 256 inputs):
 *   k = K_LO[x & 15] ^ K_HI[x >> 4], i = I_LO[x & 15] ^ I_HI[x >> 4]
 *       (the input's affine map and the isomorphism into GF((2^4)^2):
 *       the tower element i Y + k),
 *   j = i ^ k, iak = INV[i] ^ AK[k], jak = INV[j] ^ AK[k],
 *   io = INV[iak] ^ j, jo = INV[jak] ^ i
 *       (the inversion: io = N/(k + a i), jo = N/(k + a j), N the norm),
 *   S(x) = OUT_IO[io] ^ OUT_JO[jo] ^ 0xD3
 *       (1/io and 1/jo, the inverse's coordinates, through the isomorphism
 *       back and the output's affine map).
 * INV[0] and AK[0] are 0x80, which stays 16 or more under XOR with a
 * nibble, and swizzle gives 0 for such an index (the WebAssembly
 * specification): that is the inversion's 1/0, and gives the right
 * result for every input, 0 included.
 *
 * Constant time: each lookup is a swizzle of a fixed 16-byte table vector
 * (loaded once, from a fixed address) by data-dependent index bytes, a
 * shuffle instruction in the engines (PSHUFB/VPSHUFB on x86, TBL on
 * AArch64) whose time does not depend on the index; no branch, no
 * address depends on the data. For WebAssembly with SIMD only
 * (sm4_wasm_simd.c, tests/test_sm4_wasm_sbox.c).
 */
#ifndef FS2_SM4_WASM_SBOX_H
#define FS2_SM4_WASM_SBOX_H

#include <wasm_simd128.h>

#include "sm4_sbox.h"

/* The tables, then the mask of the low nibble, then the output constant. */
#define FS2_SM4_VP_BYTES 160
#define FS2_SM4_VP_TABLE_DATA                                                                                         \
    FS2_SM4_VP_K_LO, FS2_SM4_VP_K_HI, FS2_SM4_VP_I_LO, FS2_SM4_VP_I_HI, FS2_SM4_VP_AK, FS2_SM4_VP_INV,                \
        FS2_SM4_VP_OUT_IO, FS2_SM4_VP_OUT_JO, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, \
        0x0F, 0x0F, 0x0F, 0x0F, 0xD3, 0xD3, 0xD3, 0xD3, 0xD3, 0xD3, 0xD3, 0xD3, 0xD3, 0xD3, 0xD3, 0xD3, 0xD3, 0xD3,   \
        0xD3, 0xD3

/* The table vectors, loaded once per call of a mode (kept in registers
 * across the rounds). */
typedef struct {
    v128_t klo, khi, ilo, ihi, ak, inv, oio, ojo, m0f, c;
} fs2_sm4_vp;

static inline void fs2_sm4_vp_load(fs2_sm4_vp *t, const unsigned char *tab)
{
    t->klo = wasm_v128_load(tab);
    t->khi = wasm_v128_load(tab + 16);
    t->ilo = wasm_v128_load(tab + 32);
    t->ihi = wasm_v128_load(tab + 48);
    t->ak = wasm_v128_load(tab + 64);
    t->inv = wasm_v128_load(tab + 80);
    t->oio = wasm_v128_load(tab + 96);
    t->ojo = wasm_v128_load(tab + 112);
    t->m0f = wasm_v128_load(tab + 128);
    t->c = wasm_v128_load(tab + 144);
}

/* S(x) ^ 0xD3 on each byte of x: the S-box less its output constant
 * (sm4_wasm_simd.c moves that into the round keys). */
static inline v128_t fs2_sm4_vp_sbox_lin(const fs2_sm4_vp *t, v128_t x)
{
    v128_t lo = wasm_v128_and(x, t->m0f), hi = wasm_v128_and(wasm_u16x8_shr(x, 4), t->m0f);
    v128_t k = wasm_v128_xor(wasm_i8x16_swizzle(t->klo, lo), wasm_i8x16_swizzle(t->khi, hi));
    v128_t i = wasm_v128_xor(wasm_i8x16_swizzle(t->ilo, lo), wasm_i8x16_swizzle(t->ihi, hi));
    v128_t j = wasm_v128_xor(i, k);
    v128_t ak = wasm_i8x16_swizzle(t->ak, k);
    v128_t iak = wasm_v128_xor(wasm_i8x16_swizzle(t->inv, i), ak);
    v128_t jak = wasm_v128_xor(wasm_i8x16_swizzle(t->inv, j), ak);
    v128_t io = wasm_v128_xor(wasm_i8x16_swizzle(t->inv, iak), j);
    v128_t jo = wasm_v128_xor(wasm_i8x16_swizzle(t->inv, jak), i);
    return wasm_v128_xor(wasm_i8x16_swizzle(t->oio, io), wasm_i8x16_swizzle(t->ojo, jo));
}

/* S on each byte of x. */
static inline v128_t fs2_sm4_vp_sbox(const fs2_sm4_vp *t, v128_t x)
{
    return wasm_v128_xor(fs2_sm4_vp_sbox_lin(t, x), t->c);
}

#endif
