/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4 table "avx512-gfni" (src/sm4/sm4_ops.h): sixteen blocks a ZMM
 * register, four register sets a pass (src/sm4/sm4_x86_tmpl.h); the S-box
 * two GFNI instructions over 64 bytes (sm4_sbox.h derives the matrices),
 * L by four VPROLD and two VPTERNLOGD; GHASH by VPCLMULQDQ. For x86-64
 * CPUs with AVX-512 (F, BW, VL), GFNI and VPCLMULQDQ (Ice Lake and later,
 * Zen 4 and later).
 */
#include "cpu.h"
#include "sm4_ops.h"

#if defined(__x86_64__)
#include "sm4_sbox.h"
#include "sm4_x86_simde.h"

#if defined(FS2_SM4_SIMDE)
#define FS2_VT
#else
#define FS2_VT __attribute__((target("avx512f,avx512bw,avx512vl,avx2,gfni,pclmul,vpclmulqdq")))
#endif
#define FS2_GH_TARGET  FS2_VT
#define FS2_GH_VPCLMUL 1
#include "ghash_x86_impl.h"
#include "sm4_x86_avx512.h"

static FS2_VT inline __m512i v_tau(__m512i x)
{
    x = _mm512_gf2p8affine_epi64_epi8(x, _mm512_set1_epi64((long long)FS2_SM4_GFNI_PRE), FS2_SM4_GFNI_PRE_C);
    return _mm512_gf2p8affineinv_epi64_epi8(x, _mm512_set1_epi64((long long)FS2_SM4_GFNI_POST), FS2_SM4_GFNI_POST_C);
}

static FS2_VT inline __m128i x_tau(__m128i x)
{
    x = _mm_gf2p8affine_epi64_epi8(x, _mm_set1_epi64x((long long)FS2_SM4_GFNI_PRE), FS2_SM4_GFNI_PRE_C);
    return _mm_gf2p8affineinv_epi64_epi8(x, _mm_set1_epi64x((long long)FS2_SM4_GFNI_POST), FS2_SM4_GFNI_POST_C);
}

/* L on XMM words by VPROLD and VPTERNLOGD (the one-block path). */
#define FS2_X_LIN1 1
static FS2_VT inline __m128i x_lin1(__m128i b)
{
    __m128i t = _mm_ternarylogic_epi32(b, _mm_rol_epi32(b, 2), _mm_rol_epi32(b, 10), 0x96);
    return _mm_ternarylogic_epi32(t, _mm_rol_epi32(b, 18), _mm_rol_epi32(b, 24), 0x96);
}

#define FS2_VSETS 4
#if defined(FS2_SM4_SIMDE)
#define FS2_VTABLE fs2_sm4_ops_avx512_gfni_simde
#define FS2_VNEEDS 0
#else
#define FS2_VTABLE fs2_sm4_ops_avx512_gfni
#define FS2_VNEEDS (FS2_CPU_X86_AVX2 | FS2_CPU_X86_AVX512 | FS2_CPU_X86_GFNI | FS2_CPU_X86_PCLMUL | FS2_CPU_X86_VPCLMUL)
#endif
#define FS2_VNAME     "avx512-gfni"
#define FS2_GH_BLOCKS fs2_gh_blocks2
#include "sm4_x86_tmpl.h"

#endif
