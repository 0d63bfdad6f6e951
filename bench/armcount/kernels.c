/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The aarch64 field kernels as functions of their own, linked into opcount
 * for bench/armcount/mca.py (the library inlines them into the point
 * formulas, so it has no such symbols): the product, and a run of
 * squarings (the loop body one squaring, its output the next one's input).
 */
#if defined(__aarch64__)
#define FS2_FIELD FS2_FIELD_AARCH64
#include "field/field.h"

__attribute__((noinline)) void armcount_a64_mul_p(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    fs2_a64_mul_p(r, a, b);
}

__attribute__((noinline)) void armcount_a64_sqr_n_p(uint64_t r[4], const uint64_t a[4], unsigned n)
{
    fs2_fe x;
    memcpy(x.v, a, 32);
    for (unsigned i = 0; i < n; i++)
        fs2_a64_sqr_p(x.v, x.v);
    memcpy(r, x.v, 32);
}
#endif
