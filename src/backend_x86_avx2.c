/* SPDX-License-Identifier: Apache-2.0 */
/* x86-64 "avx2" level: the adx level's arithmetic, with the whole file
 * compiled for AVX2 so that the constant-time table scans (and other
 * copies) use 32-byte vectors. Only called when CPUID reports AVX2. */
#if defined(__x86_64__)
#pragma GCC target("avx2,bmi2,adx")
#include "backend_x86.h"
#include "field/field_x86.h"
#include "field/field_generic.h"
#include "point/group_impl.h"

#include <immintrin.h>

/* Constant-time table lookup with 32-byte vectors: every entry is loaded
 * and ANDed with a mask that is all ones only for entry idx - 1 (the mask
 * comes from comparing a running counter with idx, so no address or branch
 * depends on idx). Widths are multiples of 4 limbs (8: affine points, 12:
 * Jacobian points). */
#define FS2_HAVE_SELECT_LIMBS 1
static inline void fs2_select_limbs(void *out, const uint64_t *table, unsigned entries, unsigned width,
                                    unsigned idx)
{
    __m256i acc[3] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    const __m256i want = _mm256_set1_epi64x((long long)idx), one = _mm256_set1_epi64x(1);
    __m256i cnt = one;
    for (unsigned j = 0; j < entries; j++) {
        __m256i m = _mm256_cmpeq_epi64(cnt, want);
        const uint64_t *e = table + (size_t)width * j;
        for (unsigned l = 0; l < width / 4; l++)
            acc[l] = _mm256_or_si256(acc[l], _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(e + 4 * l)), m));
        cnt = _mm256_add_epi64(cnt, one);
    }
    for (unsigned l = 0; l < width / 4; l++)
        _mm256_storeu_si256((__m256i *)out + l, acc[l]);
}

#include "ecmult/ecmult_impl.h"
#include "backend_impl.h"

FS2_X86_DEFINE(avx2)
#endif
