/* SPDX-License-Identifier: Apache-2.0 */
/* The portable backend: the reference every other backend is tested
 * against. Field: field/field_generic.h (4 x 64-bit Montgomery). */
#include "backend.h"
#define FS2_FIELD FS2_FIELD_GENERIC
#include "field/field.h"
#include "point/group_impl.h"
#include "ecmult/ecmult_impl.h"
#include "backend_impl.h"
#include "sm3/sm3_impl.h"

static int generic_available(void) { return 1; }

void fs2_generic_scalar_inv_mont(uint64_t r[4], const uint64_t a[4]) { fs2_be_scalar_inv_mont(r, a); }

FS2_HIDDEN const fs2_backend fs2_backend_generic = {
    .name = "generic",
    .available = generic_available,
    .sm3_compress = fs2_sm3_compress_generic,
    .ecmult_gen = fs2_be_ecmult_gen,
    .ecmult_const = fs2_be_ecmult_const,
    .verify_check = fs2_be_verify_check,
    .ecmult_kx = fs2_be_ecmult_kx,
    .pub_precompute = fs2_be_pub_precompute,
    .sm3_lanes = 1,
    .sm3_compress_lanes = fs2_sm3_compress_lanes1,
    .scalar_inv_mont = fs2_generic_scalar_inv_mont,
    .ecmult_gen_many = fs2_be_ecmult_gen_many,
    .ecmult_gen_inv = fs2_be_ecmult_gen_inv,
    .ecmult_gen_const = fs2_be_ecmult_gen_const,
};
