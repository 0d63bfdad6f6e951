/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4 table "avx2-vaes" (src/sm4/sm4_ops.h): "avx2-aesni" with VAES
 * (AESENCLAST on both halves of a YMM register at once) and VPCLMULQDQ
 * (GHASH two blocks an instruction), four register sets a pass. For
 * x86-64 CPUs with VAES and VPCLMULQDQ on 256 bits but no GFNI (Zen 3).
 */
#include "cpu.h"
#include "sm4_ops.h"

#if defined(__x86_64__)
#include "sm4_sbox.h"

#define FS2_VT         __attribute__((target("avx2,aes,pclmul,vaes,vpclmulqdq")))
#define FS2_GH_TARGET  FS2_VT
#define FS2_GH_VPCLMUL 1
#include "ghash_x86_impl.h"
#include "sm4_x86_avx2.h"

/* the affine maps' nibble tables (sm4_sbox.h), loaded rather than set:
 * bytes above 0x7F are not chars (_mm_setr_epi8 takes chars) */
static const uint8_t tau_tabs[4][16] = {
    {FS2_SM4_AESNI_PRE_LO}, {FS2_SM4_AESNI_PRE_HI}, {FS2_SM4_AESNI_POST_LO}, {FS2_SM4_AESNI_POST_HI}};
#define tau_tab(i) _mm_loadu_si128((const __m128i *)tau_tabs[i])

static FS2_VT inline __m256i v_tau(__m256i x)
{
    const __m256i pre_lo = _mm256_broadcastsi128_si256(tau_tab(0));
    const __m256i pre_hi = _mm256_broadcastsi128_si256(tau_tab(1));
    const __m256i post_lo = _mm256_broadcastsi128_si256(tau_tab(2));
    const __m256i post_hi = _mm256_broadcastsi128_si256(tau_tab(3));
    const __m256i isr = _mm256_setr_epi8(FS2_V_ISR, FS2_V_ISR);
    __m256i y = _mm256_shuffle_epi8(v_affine(x, pre_lo, pre_hi), isr);
    return v_affine(_mm256_aesenclast_epi128(y, _mm256_setzero_si256()), post_lo, post_hi);
}

static FS2_VT inline __m128i x_tau(__m128i x)
{
    const __m128i pre_lo = tau_tab(0), pre_hi = tau_tab(1);
    const __m128i post_lo = tau_tab(2), post_hi = tau_tab(3);
    const __m128i m = _mm_set1_epi8(0x0F), isr = _mm_setr_epi8(FS2_V_ISR);
    x = _mm_xor_si128(_mm_shuffle_epi8(pre_lo, _mm_and_si128(x, m)),
                      _mm_shuffle_epi8(pre_hi, _mm_and_si128(_mm_srli_epi16(x, 4), m)));
    x = _mm_aesenclast_si128(_mm_shuffle_epi8(x, isr), _mm_setzero_si128());
    return _mm_xor_si128(_mm_shuffle_epi8(post_lo, _mm_and_si128(x, m)),
                         _mm_shuffle_epi8(post_hi, _mm_and_si128(_mm_srli_epi16(x, 4), m)));
}

#define FS2_VSETS     4
#define FS2_VTABLE    fs2_sm4_ops_avx2_vaes
#define FS2_VNAME     "avx2-vaes"
#define FS2_VNEEDS    (FS2_CPU_X86_AVX2 | FS2_CPU_X86_AESNI | FS2_CPU_X86_PCLMUL | FS2_CPU_X86_VAES | FS2_CPU_X86_VPCLMUL)
#define FS2_GH_BLOCKS fs2_gh_blocks2
#include "sm4_x86_tmpl.h"

#endif
