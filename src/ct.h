/* SPDX-License-Identifier: Apache-2.0 */
/* Constant-time building blocks shared by every layer: an optimisation
 * barrier and the masks made through it.
 *
 * A mask is 0 or all ones, made from a secret bit, and used with AND/OR to
 * select without a branch. A compiler that can prove a value is 0 or all
 * ones may turn `x & mask` back into a branch on the bit (clang 14 does so
 * in the table scans at -O3). Passing the bit through fs2_ct_barrier_u64
 * hides where the value came from, so no such rewrite is possible; the
 * valgrind constant-time test (tests/ctime) checks the result with gcc and
 * clang. Every mask derived from secret data is made with these helpers. */
#ifndef FS2_CT_H
#define FS2_CT_H

#include <stdint.h>

/* a, unchanged, but opaque to the optimiser (an empty asm that claims to
 * modify it). Costs nothing at run time. */
static inline uint64_t fs2_ct_barrier_u64(uint64_t a)
{
    __asm__("" : "+r"(a));
    return a;
}

static inline uint32_t fs2_ct_barrier_u32(uint32_t a)
{
    __asm__("" : "+r"(a));
    return a;
}

/* All ones if bit (0 or 1) is 1, else 0. */
static inline uint64_t fs2_ct_mask_u64(uint64_t bit)
{
    return (uint64_t)0 - fs2_ct_barrier_u64(bit);
}

static inline uint32_t fs2_ct_mask_u32(uint32_t bit)
{
    return 0u - fs2_ct_barrier_u32(bit);
}

/* All ones if x == 0, else 0. */
static inline uint64_t fs2_ct_is_zero_u64(uint64_t x)
{
    return fs2_ct_mask_u64(((x | ((uint64_t)0 - x)) >> 63) ^ 1);
}

#endif
