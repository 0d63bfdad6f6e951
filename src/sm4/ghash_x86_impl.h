/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GHASH (NIST SP 800-38D 6.4) by carry-less multiplication on x86-64, for
 * the SM4 tables of src/sm4/sm4_x86_tmpl.h: included once by each table's
 * source, its functions static inline with the includer's target
 * attribute. The includer defines FS2_GH_TARGET (the attribute) and, for
 * the 256-bit forms, FS2_GH_VPCLMUL.
 *
 * Representation (src/sm4/sm4_ops.h): a block is a big-endian 128-bit
 * number, so a byte-reversed load puts it in an XMM register as is, and a
 * key's power hpow[i] = {low, high} loads straight. The product of two
 * such numbers, 255 bits with x^k at bit 254 - k, is shifted left by one
 * and folded as src/sm4/ghash_generic.c does (its comment derives the
 * fold); one fold serves a whole group of blocks: the products X_j H^(m-j)
 * are summed (Karatsuba's three parts apart) before it.
 *
 * Constant time: PCLMULQDQ, shifts and XORs; no branch and no memory
 * index depends on data or on H.
 */
#ifndef FS2_GHASH_X86_IMPL_H
#define FS2_GHASH_X86_IMPL_H

#ifndef FS2_SM4_SIMDE /* (the SIMDe build includes its own, emulated) */
#include <immintrin.h>
#endif

#include "sm4_ops.h"

/* The three Karatsuba sums of a group of products. */
typedef struct {
    __m128i lo, mid, hi;
} fs2_gh_acc;

static FS2_GH_TARGET inline __m128i fs2_gh_bswap(__m128i x)
{
    return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* A block of data as a number. */
static FS2_GH_TARGET inline __m128i fs2_gh_load(const unsigned char *p)
{
    return fs2_gh_bswap(_mm_loadu_si128((const __m128i *)p));
}

static FS2_GH_TARGET inline __m128i fs2_gh_hpow(const uint64_t (*hpow)[2], size_t i)
{
    return _mm_loadu_si128((const __m128i *)hpow[i]);
}

static FS2_GH_TARGET inline void fs2_gh_zero(fs2_gh_acc *a)
{
    a->lo = a->mid = a->hi = _mm_setzero_si128();
}

/* acc += x * h */
static FS2_GH_TARGET inline void fs2_gh_mul_acc(fs2_gh_acc *a, __m128i x, __m128i h)
{
    __m128i xk = _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4E)), hk = _mm_xor_si128(h, _mm_shuffle_epi32(h, 0x4E));
    a->lo = _mm_xor_si128(a->lo, _mm_clmulepi64_si128(x, h, 0x00));
    a->hi = _mm_xor_si128(a->hi, _mm_clmulepi64_si128(x, h, 0x11));
    a->mid = _mm_xor_si128(a->mid, _mm_clmulepi64_si128(xk, hk, 0x00));
}

/* x >> k and x << k as 128-bit numbers, 0 < k < 64. */
#define FS2_GH_SHR(x, k) _mm_or_si128(_mm_srli_epi64((x), (k)), _mm_slli_epi64(_mm_srli_si128((x), 8), 64 - (k)))
#define FS2_GH_SHL(x, k) _mm_or_si128(_mm_slli_epi64((x), (k)), _mm_srli_epi64(_mm_slli_si128((x), 8), 64 - (k)))

/* The sum of the group's products, reduced. */
static FS2_GH_TARGET inline __m128i fs2_gh_reduce(const fs2_gh_acc *a)
{
    __m128i mid = _mm_xor_si128(a->mid, _mm_xor_si128(a->lo, a->hi));
    __m128i p0 = _mm_xor_si128(a->lo, _mm_slli_si128(mid, 8)); /* bits 0..127 */
    __m128i p1 = _mm_xor_si128(a->hi, _mm_srli_si128(mid, 8)); /* bits 128..255 */
    /* shifted left by one */
    p1 = _mm_or_si128(FS2_GH_SHL(p1, 1), _mm_srli_epi64(_mm_srli_si128(p0, 8), 63));
    p0 = FS2_GH_SHL(p0, 1);
    /* E = L ^ (L << 127) ^ (L << 126) ^ (L << 121), L = p0: the shifts
     * reach the high word only, from the low one */
    __m128i l0 = _mm_slli_si128(p0, 8); /* L's low word in the high lane */
    __m128i d = _mm_xor_si128(_mm_xor_si128(_mm_slli_epi64(l0, 63), _mm_slli_epi64(l0, 62)), _mm_slli_epi64(l0, 57));
    __m128i e = _mm_xor_si128(p0, d);
    __m128i r = _mm_xor_si128(_mm_xor_si128(e, FS2_GH_SHR(e, 1)), _mm_xor_si128(FS2_GH_SHR(e, 2), FS2_GH_SHR(e, 7)));
    return _mm_xor_si128(p1, r);
}

/* GHASH over n blocks: groups of up to FS2_GHASH_POWERS blocks, one
 * reduction each; xi enters with the group's first block. */
static FS2_GH_TARGET inline void fs2_gh_blocks(__m128i *xi, const uint64_t (*hpow)[2], const unsigned char *in,
                                               size_t n)
{
    while (n > 0) {
        size_t m = n < FS2_GHASH_POWERS ? n : FS2_GHASH_POWERS;
        fs2_gh_acc a;
        fs2_gh_zero(&a);
        fs2_gh_mul_acc(&a, _mm_xor_si128(*xi, fs2_gh_load(in)), fs2_gh_hpow(hpow, m - 1));
        for (size_t j = 1; j < m; j++)
            fs2_gh_mul_acc(&a, fs2_gh_load(in + 16 * j), fs2_gh_hpow(hpow, m - 1 - j));
        *xi = fs2_gh_reduce(&a);
        in += 16 * m;
        n -= m;
    }
}

#ifdef FS2_GH_VPCLMUL
/* The same over two blocks a register (VPCLMULQDQ on YMM): the lanes'
 * sums are added before the reduction. */
typedef struct {
    __m256i lo, mid, hi;
} fs2_gh_acc2;

static FS2_GH_TARGET inline __m256i fs2_gh_load2(const unsigned char *p)
{
    const __m256i rev = _mm256_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8,
                                        9, 10, 11, 12, 13, 14, 15);
    return _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)p), rev);
}

/* H^(i+1) in the low lane, H^i in the high one: the powers of two
 * consecutive blocks, the first one's first. */
static FS2_GH_TARGET inline __m256i fs2_gh_hpow2(const uint64_t (*hpow)[2], size_t i)
{
    return _mm256_set_m128i(fs2_gh_hpow(hpow, i - 1), fs2_gh_hpow(hpow, i));
}

static FS2_GH_TARGET inline void fs2_gh_mul_acc2(fs2_gh_acc2 *a, __m256i x, __m256i h)
{
    __m256i xk = _mm256_xor_si256(x, _mm256_shuffle_epi32(x, 0x4E)),
            hk = _mm256_xor_si256(h, _mm256_shuffle_epi32(h, 0x4E));
    a->lo = _mm256_xor_si256(a->lo, _mm256_clmulepi64_epi128(x, h, 0x00));
    a->hi = _mm256_xor_si256(a->hi, _mm256_clmulepi64_epi128(x, h, 0x11));
    a->mid = _mm256_xor_si256(a->mid, _mm256_clmulepi64_epi128(xk, hk, 0x00));
}

static FS2_GH_TARGET inline __m128i fs2_gh_reduce2(const fs2_gh_acc2 *a)
{
    fs2_gh_acc s;
    s.lo = _mm_xor_si128(_mm256_castsi256_si128(a->lo), _mm256_extracti128_si256(a->lo, 1));
    s.mid = _mm_xor_si128(_mm256_castsi256_si128(a->mid), _mm256_extracti128_si256(a->mid, 1));
    s.hi = _mm_xor_si128(_mm256_castsi256_si128(a->hi), _mm256_extracti128_si256(a->hi, 1));
    return fs2_gh_reduce(&s);
}

/* GHASH over n blocks, two a register where the group allows. */
static FS2_GH_TARGET inline void fs2_gh_blocks2(__m128i *xi, const uint64_t (*hpow)[2], const unsigned char *in,
                                                size_t n)
{
    while (n > 0) {
        size_t m = n < FS2_GHASH_POWERS ? n : FS2_GHASH_POWERS, j = 0;
        fs2_gh_acc2 a;
        a.lo = a.mid = a.hi = _mm256_setzero_si256();
        __m256i x0 = _mm256_set_m128i(_mm_setzero_si128(), *xi);
        for (; j + 2 <= m; j += 2) {
            fs2_gh_mul_acc2(&a, _mm256_xor_si256(fs2_gh_load2(in + 16 * j), x0), fs2_gh_hpow2(hpow, m - 1 - j));
            x0 = _mm256_setzero_si256();
        }
        if (j < m) { /* one block left: the low lane only */
            __m256i x = _mm256_set_m128i(_mm_setzero_si128(), fs2_gh_load(in + 16 * j));
            fs2_gh_mul_acc2(&a, _mm256_xor_si256(x, x0), _mm256_set_m128i(_mm_setzero_si128(), fs2_gh_hpow(hpow, 0)));
        }
        *xi = fs2_gh_reduce2(&a);
        in += 16 * m;
        n -= m;
    }
}
#endif

#endif
