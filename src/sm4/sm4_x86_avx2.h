/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The YMM operations of src/sm4/sm4_x86_tmpl.h (eight blocks a register,
 * lanes in the block order 0, 2, 4, 6, 1, 3, 5, 7), shared by the AVX2
 * tables; the includer defines FS2_VT (its target attribute) and v_tau,
 * x_tau. Included once by each of sm4_avx2_aesni.c, sm4_avx2_vaes.c and
 * sm4_avx2_gfni.c.
 */
#ifndef FS2_SM4_X86_AVX2_H
#define FS2_SM4_X86_AVX2_H

#ifndef FS2_SM4_SIMDE /* (the SIMDe build includes its own, emulated) */
#include <immintrin.h>
#endif

#define FS2_V  __m256i
#define FS2_VN 8

static FS2_VT inline __m256i v_set1(uint32_t w)
{
    return _mm256_set1_epi32((int)w);
}

static FS2_VT inline __m256i v_xor(__m256i a, __m256i b)
{
    return _mm256_xor_si256(a, b);
}

static FS2_VT inline __m256i v_xor4(__m256i a, __m256i b, __m256i c, __m256i d)
{
    return _mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d));
}

/* Byte shuffles within each 32-bit word: rotations by 8, 16, 24 and the
 * big-endian load. */
#define FS2_V_ROT8                                                                                                   \
    _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, \
                     12, 13, 14)
#define FS2_V_ROT16                                                                                                  \
    _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, \
                     15, 12, 13)
#define FS2_V_ROT24                                                                                                  \
    _mm256_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, \
                     14, 15, 12)
#define FS2_V_BSWAP                                                                                                  \
    _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, \
                     14, 13, 12)

/* L (GB/T 32907 6.2): B ^ (B ^ B<<<8 ^ B<<<16) <<< 2 ^ B<<<24. */
static FS2_VT inline __m256i v_lin(__m256i b)
{
    __m256i t =
        _mm256_xor_si256(_mm256_xor_si256(b, _mm256_shuffle_epi8(b, FS2_V_ROT8)), _mm256_shuffle_epi8(b, FS2_V_ROT16));
    t = _mm256_or_si256(_mm256_slli_epi32(t, 2), _mm256_srli_epi32(t, 30));
    return _mm256_xor_si256(_mm256_xor_si256(b, t), _mm256_shuffle_epi8(b, FS2_V_ROT24));
}

static FS2_VT inline void v_load(__m256i x[4], const unsigned char *in)
{
    __m256i a = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)in), FS2_V_BSWAP);
    __m256i b = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(in + 32)), FS2_V_BSWAP);
    __m256i c = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(in + 64)), FS2_V_BSWAP);
    __m256i d = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(in + 96)), FS2_V_BSWAP);
    __m256i t0 = _mm256_unpacklo_epi32(a, b), t1 = _mm256_unpackhi_epi32(a, b);
    __m256i t2 = _mm256_unpacklo_epi32(c, d), t3 = _mm256_unpackhi_epi32(c, d);
    x[0] = _mm256_unpacklo_epi64(t0, t2);
    x[1] = _mm256_unpackhi_epi64(t0, t2);
    x[2] = _mm256_unpacklo_epi64(t1, t3);
    x[3] = _mm256_unpackhi_epi64(t1, t3);
}

static FS2_VT inline void v_store_xor(unsigned char *out, const __m256i y[4], const unsigned char *m)
{
    __m256i t0 = _mm256_unpacklo_epi32(y[0], y[1]), t1 = _mm256_unpackhi_epi32(y[0], y[1]);
    __m256i t2 = _mm256_unpacklo_epi32(y[2], y[3]), t3 = _mm256_unpackhi_epi32(y[2], y[3]);
    __m256i r[4] = {_mm256_unpacklo_epi64(t0, t2), _mm256_unpackhi_epi64(t0, t2), _mm256_unpacklo_epi64(t1, t3),
                    _mm256_unpackhi_epi64(t1, t3)};
    for (int i = 0; i < 4; i++) {
        __m256i v = _mm256_shuffle_epi8(r[i], FS2_V_BSWAP);
        if (m)
            v = _mm256_xor_si256(v, _mm256_loadu_si256((const __m256i *)(m + 32 * i)));
        _mm256_storeu_si256((__m256i *)(out + 32 * i), v);
    }
}

static FS2_VT inline void v_ctr(__m256i x[4], const unsigned char ctr[16], uint32_t k)
{
    x[0] = v_set1(fs2_load32_be(ctr));
    x[1] = v_set1(fs2_load32_be(ctr + 4));
    x[2] = v_set1(fs2_load32_be(ctr + 8));
    x[3] = _mm256_add_epi32(v_set1(fs2_load32_be(ctr + 12) + k), _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7));
}

/* The nibble lookups of an affine map (sm4_sbox.h's FS2_SM4_AESNI_*). */
static FS2_VT inline __m256i v_affine(__m256i x, __m256i lo, __m256i hi)
{
    const __m256i m = _mm256_set1_epi8(0x0F);
    return _mm256_xor_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(x, m)),
                            _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(x, 4), m)));
}

/* AES's inverse ShiftRows as a byte shuffle: AESENCLAST's ShiftRows then
 * puts every byte back where it was. */
#define FS2_V_ISR 0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3

#endif
