/* SPDX-License-Identifier: Apache-2.0 */
/* The x86-64 backends' point functions, one set per CPU level, each built
 * in its own file from src/backend_impl.h over src/field/field_x86.h. */
#ifndef FS2_BACKEND_X86_H
#define FS2_BACKEND_X86_H

#include "backend.h"

#define FS2_X86_DECLARE(level)                                                                       \
    FS2_HIDDEN void fs2_##level##_ecmult_gen(fs2_affine *r, const uint64_t k[4]);                     \
    FS2_HIDDEN void fs2_##level##_ecmult_const(fs2_affine *r, const fs2_affine *p, const fs2_pubtab *tab,   \
                                               const uint64_t k[4]);                                  \
    FS2_HIDDEN int fs2_##level##_verify_check(const uint64_t s[4], const uint64_t t[4], const fs2_affine *p, \
                                              const fs2_pubtab *tab, const uint64_t v[4]);           \
    FS2_HIDDEN void fs2_##level##_ecmult_kx(fs2_affine *u, const fs2_affine *p, const fs2_affine *r,    \
                                            const uint64_t x[4], const uint64_t t[4]);               \
    FS2_HIDDEN void fs2_##level##_pub_precompute(fs2_pubtab *r, const fs2_affine *p);                \
    FS2_HIDDEN void fs2_##level##_scalar_inv_mont(uint64_t r[4], const uint64_t a[4]);                \
    FS2_HIDDEN void fs2_##level##_ecmult_gen_many(fs2_affine *r, const uint64_t (*k)[4], size_t n);  \
    FS2_HIDDEN void fs2_##level##_ecmult_gen_inv(fs2_affine *r, const uint64_t k[4], uint64_t q[4],    \
                                                 const uint64_t a[4]);                               \
    FS2_HIDDEN void fs2_##level##_ecmult_gen_const(fs2_affine *r, fs2_affine *s, const fs2_affine *p,  \
                                                   const fs2_pubtab *tab, const uint64_t k[4]);

/* Define the exported functions of one level from the static fs2_be_*
 * of the including file. */
#define FS2_X86_DEFINE(level)                                                                        \
    void fs2_##level##_ecmult_gen(fs2_affine *r, const uint64_t k[4]) { fs2_be_ecmult_gen(r, k); }   \
    void fs2_##level##_ecmult_const(fs2_affine *r, const fs2_affine *p, const fs2_pubtab *tab,       \
                                    const uint64_t k[4])                                             \
    {                                                                                                \
        fs2_be_ecmult_const(r, p, tab, k);                                                          \
    }                                                                                                \
    int fs2_##level##_verify_check(const uint64_t s[4], const uint64_t t[4], const fs2_affine *p,     \
                                   const fs2_pubtab *tab, const uint64_t v[4])                       \
    {                                                                                                \
        return fs2_be_verify_check(s, t, p, tab, v);                                                \
    }                                                                                                \
    void fs2_##level##_ecmult_kx(fs2_affine *u, const fs2_affine *p, const fs2_affine *r,            \
                                 const uint64_t x[4], const uint64_t t[4])                           \
    {                                                                                                \
        fs2_be_ecmult_kx(u, p, r, x, t);                                                             \
    }                                                                                                \
    void fs2_##level##_pub_precompute(fs2_pubtab *r, const fs2_affine *p) { fs2_be_pub_precompute(r, p); } \
    void fs2_##level##_scalar_inv_mont(uint64_t r[4], const uint64_t a[4]) { fs2_be_scalar_inv_mont(r, a); } \
    void fs2_##level##_ecmult_gen_many(fs2_affine *r, const uint64_t (*k)[4], size_t n)             \
    {                                                                                                \
        fs2_be_ecmult_gen_many(r, k, n);                                                             \
    }                                                                                                \
    void fs2_##level##_ecmult_gen_inv(fs2_affine *r, const uint64_t k[4], uint64_t q[4], const uint64_t a[4]) \
    {                                                                                                \
        fs2_be_ecmult_gen_inv(r, k, q, a);                                                           \
    }                                                                                                \
    void fs2_##level##_ecmult_gen_const(fs2_affine *r, fs2_affine *s, const fs2_affine *p,            \
                                        const fs2_pubtab *tab, const uint64_t k[4])                  \
    {                                                                                                \
        fs2_be_ecmult_gen_const(r, s, p, tab, k);                                                    \
    }

#if defined(__x86_64__)
FS2_X86_DECLARE(adx)
FS2_X86_DECLARE(avx2)
#endif

#endif
