/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The intrinsics of an SM4 table's source: the compiler's (immintrin.h),
 * or, when FS2_SM4_SIMDE is defined, SIMDe's portable versions of the
 * same names (Debian's libsimde-dev), so that a table this CPU cannot run
 * (GFNI, AVX-512) is built and tested here all the same
 * (tests/test_sm4_simde.c). The SIMDe build takes the includer's
 * FS2_VT_SIMDE_NAME for its table, needs no CPU feature and uses no
 * target attribute.
 */
#ifndef FS2_SM4_X86_SIMDE_H
#define FS2_SM4_X86_SIMDE_H

#if defined(FS2_SM4_SIMDE)
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>
#include <simde/x86/clmul.h>
#include <simde/x86/gfni.h>
#else
#include <immintrin.h>
#endif

#endif
