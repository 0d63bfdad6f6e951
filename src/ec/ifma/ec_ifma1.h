/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AVX-512 IFMA single-operation fixed-base multiplication (ec_ifma1.c):
 * ONE kG with its 37 signed 7-bit windows (fs2_ecmult_gen's recoding and
 * base-point tables, fs2_gen_table) spread over the eight 64-bit lanes of
 * five 52-bit-limb ZMM vectors: lane l sums the windows 5l .. 5l + 4 (lane
 * 7: 35 and 36), so the 37 mixed additions in a row of the one-lane loop
 * become 4 rounds of eight-lane additions (the first window of each lane
 * only sets it), each round's table entries read by a full scan of that
 * round's 64 entries with masks. The caller adds the eight partial sums
 * (src/ec/ec_backend.c, complete additions on the MULX field).
 *
 * Why windows and not products: a lane-parallel doubling or mixed
 * addition (the 3-4 independent products of each step in the lanes) was
 * measured 3x slower than the MULX field here (bench/ifma1/micro.c,
 * docs/BENCHMARKS.md): the 52-bit Montgomery product's latency is about
 * twice the MULX one, and a point operation is a chain of 4-5 of them.
 */
#ifndef FS2_EC_IFMA1_H
#define FS2_EC_IFMA1_H

#include "ec/ec.h"

/* Windows per lane, and the lanes' windows padded to 8 x 5 = 40. */
#define FS2_IFMA1_LANES   8
#define FS2_IFMA1_ROUNDS  5
#define FS2_IFMA1_WINDOWS 40

#if defined(__x86_64__)
/* xyz[l] = the partial sum of lane l (X, Y, Z, 4 limbs each, the shared
 * Montgomery form of field/field.h, canonical): sum over w in
 * [5l, 5l + 5) of d_w 2^(7w) G, d_w given by |d_w| = dig[w] <= 64, negative
 * where neg[w] = 1; dig[37..39] must be 0. Z = 0 for a lane whose digits
 * are all zero. Constant time in the digits: every entry of a round's
 * table is read in every round, the digits only make the masks that pick
 * and negate. Needs AVX-512F/VL and IFMA (the caller checks the CPU). */
FS2_HIDDEN void fs2_ifma1_gen_parts(uint64_t (*xyz)[12], const uint8_t dig[FS2_IFMA1_WINDOWS],
                                    const uint8_t neg[FS2_IFMA1_WINDOWS]);
#endif

#endif
