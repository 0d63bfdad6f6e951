/* SPDX-License-Identifier: Apache-2.0 */
/* SM3 (GB/T 32905 5.3) for the x86-64 backends. PLACEHOLDER: lanes are
 * compressed one by one with the portable code until the SIMD versions land. */
#include "sm3_impl.h"

#if defined(__x86_64__)
void fs2_sm3_compress_x86(uint32_t state[8], const unsigned char *blocks, size_t nblocks)
{
    fs2_sm3_compress_generic(state, blocks, nblocks);
}

void fs2_sm3_compress_x8_avx2(uint32_t (*state)[8], const unsigned char *const *blocks, size_t nblocks)
{
    for (int i = 0; i < 8; i++)
        fs2_sm3_compress_generic(state[i], blocks[i], nblocks);
}

void fs2_sm3_compress_x16_avx512(uint32_t (*state)[8], const unsigned char *const *blocks, size_t nblocks)
{
    for (int i = 0; i < 16; i++)
        fs2_sm3_compress_generic(state[i], blocks[i], nblocks);
}
#endif
