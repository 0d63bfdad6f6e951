/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fs2_sm3_compress_generic, the portable reference SM3 compression (GB/T
 * 32905 5.3), and the generic SM3 table. It is constant time by
 * construction: no branch and no memory index depends on the message or
 * the state. Its body lives in sm3_scalar.h (shared with the x86 BMI2 build
 * of the same code); the other SM3 tables are in sm3_x86.c and
 * sm3_aarch64.c.
 */
#include "sm3/sm3_ops.h"
#include "sm3/sm3_scalar.h"

void fs2_sm3_compress_generic(uint32_t state[8], const unsigned char *blocks, size_t nblocks)
{
    fs2_sm3_compress_scalar_body(state, blocks, nblocks);
}

const fs2_sm3_ops fs2_sm3_ops_generic = {
    .name = "generic",
    .cpu_needs = 0,
    .compress = fs2_sm3_compress_generic,
    .lanes = 1,
};
