/* SPDX-License-Identifier: Apache-2.0 */
/* Multi-buffer SM3 (GB/T 32905 5.3): the portable one-lane case. */
#include "sm3_impl.h"

void fs2_sm3_compress_lanes1(uint32_t (*state)[8], const unsigned char *const *blocks, size_t nblocks)
{
    fs2_sm3_compress_generic(state[0], blocks[0], nblocks);
}
