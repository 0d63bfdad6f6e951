/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4 table "avx2-gfni" (src/sm4/sm4_ops.h): eight blocks a YMM register,
 * four register sets a pass (src/sm4/sm4_x86_tmpl.h), the S-box two GFNI
 * instructions over 32 bytes (GF2P8AFFINEQB into AES's field,
 * GF2P8AFFINEINVQB inverting there and mapping back: sm4_sbox.h derives
 * the matrices); GHASH by VPCLMULQDQ on YMM. For x86-64 CPUs with AVX2 and
 * GFNI but no AVX-512 (Alder Lake and later client cores).
 */
#include "cpu.h"
#include "sm4_ops.h"

#if defined(__x86_64__)
#include "sm4_sbox.h"
#include "sm4_x86_simde.h"

#if defined(FS2_SM4_SIMDE)
#define FS2_VT
#else
#define FS2_VT __attribute__((target("avx2,gfni,pclmul,vpclmulqdq")))
#endif
#define FS2_GH_TARGET  FS2_VT
#define FS2_GH_VPCLMUL 1
#include "ghash_x86_impl.h"
#include "sm4_x86_avx2.h"

static FS2_VT inline __m256i v_tau(__m256i x)
{
    x = _mm256_gf2p8affine_epi64_epi8(x, _mm256_set1_epi64x((long long)FS2_SM4_GFNI_PRE), FS2_SM4_GFNI_PRE_C);
    return _mm256_gf2p8affineinv_epi64_epi8(x, _mm256_set1_epi64x((long long)FS2_SM4_GFNI_POST), FS2_SM4_GFNI_POST_C);
}

static FS2_VT inline __m128i x_tau(__m128i x)
{
    x = _mm_gf2p8affine_epi64_epi8(x, _mm_set1_epi64x((long long)FS2_SM4_GFNI_PRE), FS2_SM4_GFNI_PRE_C);
    return _mm_gf2p8affineinv_epi64_epi8(x, _mm_set1_epi64x((long long)FS2_SM4_GFNI_POST), FS2_SM4_GFNI_POST_C);
}

#define FS2_VSETS 4
#if defined(FS2_SM4_SIMDE)
#define FS2_VTABLE fs2_sm4_ops_avx2_gfni_simde
#define FS2_VNEEDS 0
#else
#define FS2_VTABLE fs2_sm4_ops_avx2_gfni
#define FS2_VNEEDS (FS2_CPU_X86_AVX2 | FS2_CPU_X86_GFNI | FS2_CPU_X86_PCLMUL | FS2_CPU_X86_VPCLMUL)
#endif
#define FS2_VNAME     "avx2-gfni"
#define FS2_GH_BLOCKS fs2_gh_blocks2
#include "sm4_x86_tmpl.h"

#endif
