/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ZMM operations of src/sm4/sm4_x86_tmpl.h: sixteen blocks a
 * register, lanes in the block order 0, 4, 8, 12, 1, 5, 9, 13, ...; the
 * rotations by VPROLD, the XORs of three by VPTERNLOGD. The includer
 * defines FS2_VT and v_tau, x_tau.
 */
#ifndef FS2_SM4_X86_AVX512_H
#define FS2_SM4_X86_AVX512_H

#include "sm4_x86_simde.h"

#define FS2_V  __m512i
#define FS2_VN 16

static FS2_VT inline __m512i v_set1(uint32_t w)
{
    return _mm512_set1_epi32((int)w);
}

static FS2_VT inline __m512i v_xor(__m512i a, __m512i b)
{
    return _mm512_xor_si512(a, b);
}

static FS2_VT inline __m512i v_xor4(__m512i a, __m512i b, __m512i c, __m512i d)
{
    return _mm512_xor_si512(_mm512_ternarylogic_epi32(a, b, c, 0x96), d);
}

/* L (GB/T 32907 6.2): B ^ B<<<2 ^ B<<<10 ^ B<<<18 ^ B<<<24. */
static FS2_VT inline __m512i v_lin(__m512i b)
{
    __m512i t = _mm512_ternarylogic_epi32(b, _mm512_rol_epi32(b, 2), _mm512_rol_epi32(b, 10), 0x96);
    return _mm512_ternarylogic_epi32(t, _mm512_rol_epi32(b, 18), _mm512_rol_epi32(b, 24), 0x96);
}

static FS2_VT inline __m512i v_bswap(__m512i x)
{
    const __m512i m = _mm512_set_epi32(0x0C0D0E0F, 0x08090A0B, 0x04050607, 0x00010203, 0x0C0D0E0F, 0x08090A0B,
                                       0x04050607, 0x00010203, 0x0C0D0E0F, 0x08090A0B, 0x04050607, 0x00010203,
                                       0x0C0D0E0F, 0x08090A0B, 0x04050607, 0x00010203);
    return _mm512_shuffle_epi8(x, m);
}

static FS2_VT inline void v_load(__m512i x[4], const unsigned char *in)
{
    __m512i a = v_bswap(_mm512_loadu_si512((const void *)in)), b = v_bswap(_mm512_loadu_si512((const void *)(in + 64)));
    __m512i c = v_bswap(_mm512_loadu_si512((const void *)(in + 128)));
    __m512i d = v_bswap(_mm512_loadu_si512((const void *)(in + 192)));
    __m512i t0 = _mm512_unpacklo_epi32(a, b), t1 = _mm512_unpackhi_epi32(a, b);
    __m512i t2 = _mm512_unpacklo_epi32(c, d), t3 = _mm512_unpackhi_epi32(c, d);
    x[0] = _mm512_unpacklo_epi64(t0, t2);
    x[1] = _mm512_unpackhi_epi64(t0, t2);
    x[2] = _mm512_unpacklo_epi64(t1, t3);
    x[3] = _mm512_unpackhi_epi64(t1, t3);
}

static FS2_VT inline void v_store_xor(unsigned char *out, const __m512i y[4], const unsigned char *m)
{
    __m512i t0 = _mm512_unpacklo_epi32(y[0], y[1]), t1 = _mm512_unpackhi_epi32(y[0], y[1]);
    __m512i t2 = _mm512_unpacklo_epi32(y[2], y[3]), t3 = _mm512_unpackhi_epi32(y[2], y[3]);
    __m512i r[4] = {_mm512_unpacklo_epi64(t0, t2), _mm512_unpackhi_epi64(t0, t2), _mm512_unpacklo_epi64(t1, t3),
                    _mm512_unpackhi_epi64(t1, t3)};
    for (int i = 0; i < 4; i++) {
        __m512i v = v_bswap(r[i]);
        if (m)
            v = _mm512_xor_si512(v, _mm512_loadu_si512((const void *)(m + 64 * i)));
        _mm512_storeu_si512((void *)(out + 64 * i), v);
    }
}

static FS2_VT inline void v_ctr(__m512i x[4], const unsigned char ctr[16], uint32_t k)
{
    x[0] = v_set1(fs2_load32_be(ctr));
    x[1] = v_set1(fs2_load32_be(ctr + 4));
    x[2] = v_set1(fs2_load32_be(ctr + 8));
    x[3] = _mm512_add_epi32(v_set1(fs2_load32_be(ctr + 12) + k),
                            _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
}

#endif
