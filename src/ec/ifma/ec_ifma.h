/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AVX-512 IFMA multi-buffer point arithmetic (ec_ifma.c): eight
 * independent scalar multiplications in lockstep, one in each 64-bit lane
 * of the ZMM registers, over field elements of five 52-bit limbs (radix
 * 2^52, Montgomery form with R = 2^260) multiplied by VPMADD52LUQ and
 * VPMADD52HUQ. Used by the "avx512-ifma" build of the EC backend
 * (src/ec/ec_backend.c with FS2_EC_IFMA) for its batch slots; it runs only
 * where the CPU-feature word has FS2_CPU_X86_IFMA.
 *
 * The scalars' signed digits are made by the caller (the recoding of
 * src/ec/ecmult_impl.h, so that the batch path and the one-at-a-time path
 * use the same digits); points come back Jacobian, in the shared
 * Montgomery form of field/field.h (R = 2^256, 4 limbs, canonical), for
 * the caller's one shared inversion. Lanes past n are computed on zero
 * digits and not written.
 */
#ifndef FS2_EC_IFMA_H
#define FS2_EC_IFMA_H

#include "ec/ec.h"

#define FS2_IFMA_LANES 8

#if defined(__x86_64__)
/* xyz[i] = k_i G (X, Y, Z: 4 limbs each), k_i given by its 37 signed 7-bit
 * digits |d| = dig[w][i] <= 64, negative where neg[w][i] = 1 (fs2_ecmult_gen's
 * recoding); Z = 0 where every digit is zero. i < n <= 8. Constant time in
 * the digits: every table entry is read for every lane, the digits only
 * make the masks of the selections; no branch or address depends on
 * them. */
FS2_HIDDEN void fs2_ifma_gen(uint64_t (*xyz)[12], const uint8_t (*dig)[FS2_IFMA_LANES],
                             const uint8_t (*neg)[FS2_IFMA_LANES], size_t n);

/* Variable time (public inputs: verification): xz[i] = (X, Z) of
 * sG + tP_i, Jacobian, P_i given by its cached tables tab[i]; s by its
 * 37 signed 7-bit digits (sd, sneg, as above), t = t0 + 2^128 t1 by two
 * streams of 26 signed 5-bit digits (td[c][w], tneg[c][w]: |d| <= 16, the
 * recoding of fs2_ecmult_const_windows). Z = 0 for the point at infinity.
 * Returns a bit mask of the lanes that met an addition of equal or
 * opposite points (which the incomplete formula cannot make): the caller
 * recomputes those lanes another way. i < n <= 8. */
FS2_HIDDEN unsigned fs2_ifma_sum_var(uint64_t (*xz)[8], const uint8_t (*sd)[FS2_IFMA_LANES],
                                     const uint8_t (*sneg)[FS2_IFMA_LANES], const uint8_t (*td)[26][FS2_IFMA_LANES],
                                     const uint8_t (*tneg)[26][FS2_IFMA_LANES], const fs2_pubtab *const *tab, size_t n);
#endif

#endif
