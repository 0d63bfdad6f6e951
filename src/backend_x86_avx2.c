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
#include "ecmult/ecmult_impl.h"
#include "backend_impl.h"

FS2_X86_DEFINE(avx2)
#endif
