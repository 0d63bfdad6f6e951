/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The WebAssembly SIMD S-box (src/sm4/sm4_wasm_sbox.h: 12 swizzle lookups
 * of nibbles, the inversion in GF((2^4)^2)) on all 256 inputs, each in
 * several lanes, against the S-box's table (FS2_SM4_ROWS) and against the
 * Boolean circuit of the bitsliced backends (fs2_sm4_sbox_bs), two forms
 * tools/gen_sm4_sbox.py derives separately. Built with -msimd128 by
 * js/test/wasm-ctests.sh and run in Node; elsewhere it skips (77).
 */
#include <stdio.h>

#if defined(__wasm_simd128__)
#include <stdint.h>

#define FS2_SM4_BS_T uint8_t
#include "sm4/sm4_wasm_sbox.h"

static const unsigned char rows[256] = {FS2_SM4_ROWS};
static const unsigned char tables[FS2_SM4_VP_BYTES] __attribute__((aligned(16))) = {FS2_SM4_VP_TABLE_DATA};

static unsigned char sbox_bs(unsigned char x)
{
    uint8_t p[8];
    for (int k = 0; k < 8; k++)
        p[k] = (uint8_t)(0 - ((x >> k) & 1));
    fs2_sm4_sbox_bs(p);
    unsigned char r = 0;
    for (int k = 0; k < 8; k++)
        r |= (unsigned char)((p[k] & 1) << k);
    return r;
}

int main(void)
{
    fs2_sm4_vp t;
    fs2_sm4_vp_load(&t, tables);
    int bad = 0;
    /* step 1: inputs 16v .. 16v + 15 in lanes 0 .. 15; step 7 and 45:
     * every input in other lanes (both odd, so each covers all 256) */
    static const unsigned steps[3] = {1, 7, 45};
    for (int s = 0; s < 3; s++)
        for (unsigned v = 0; v < 16; v++) {
            unsigned char in[16], out[16];
            for (unsigned l = 0; l < 16; l++)
                in[l] = (unsigned char)((16 * v + l) * steps[s]);
            wasm_v128_store(out, fs2_sm4_vp_sbox(&t, wasm_v128_load(in)));
            for (int l = 0; l < 16; l++)
                if (out[l] != rows[in[l]] || out[l] != sbox_bs(in[l])) {
                    fprintf(stderr, "test_sm4_wasm_sbox: S(0x%02X) = 0x%02X in lane %d, not 0x%02X\n", in[l], out[l], l,
                            rows[in[l]]);
                    bad = 1;
                }
        }
    if (bad)
        return 1;
    printf("test_sm4_wasm_sbox: the swizzle S-box agrees with the table and the circuit on all 256 inputs\n");
    return 0;
}
#else
int main(void)
{
    printf("test_sm4_wasm_sbox: not a WebAssembly SIMD build (skipped)\n");
    return 77;
}
#endif
