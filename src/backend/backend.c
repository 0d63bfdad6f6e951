/* SPDX-License-Identifier: Apache-2.0 */
/* Backend selection (src/backend/backend.h): once, at first use, from the
 * CPU-feature word, after a known-answer self-test of both tables;
 * FASTSM2_CPU=<name> forces one. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cpu.h"

static const fs2_backend generic = {"generic", &fs2_ec_ops_generic, &fs2_sm3_ops_generic};
#if defined(__x86_64__)
/* adx: the MULX/ADX field with scalar SM3 (the portable C built for BMI2);
 * avx2: that field with AVX2 table scans, 8-lane SM3; avx512: the avx2 EC
 * with AVX-512 SM3 (16 lanes, and the AVX-512VL one-stream compression). */
static const fs2_backend x86_adx = {"adx", &fs2_ec_ops_adx, &fs2_sm3_ops_bmi2};
static const fs2_backend x86_avx2 = {"avx2", &fs2_ec_ops_avx2, &fs2_sm3_ops_avx2};
static const fs2_backend x86_avx512 = {"avx512", &fs2_ec_ops_avx2, &fs2_sm3_ops_avx512};
/* avx512-ifma: avx512 with the batch slots in eight AVX-512 IFMA lanes */
static const fs2_backend x86_avx512_ifma = {"avx512-ifma", &fs2_ec_ops_avx512ifma, &fs2_sm3_ops_avx512};
#endif
#if defined(__aarch64__)
/* armv8: the MUL/UMULH field with NEON table scans, portable SM3 with 4
 * NEON lanes; armv8-sm3: the same EC with the SM3 instructions. */
static const fs2_backend arm_armv8 = {"armv8", &fs2_ec_ops_armv8, &fs2_sm3_ops_neon};
static const fs2_backend arm_armv8_sm3 = {"armv8-sm3", &fs2_ec_ops_armv8, &fs2_sm3_ops_armv8_sm3};
#endif

#if !defined(FS2_HAVE_INT128)
/* w32: the field in 32-bit words, where the compiler has no 64 x 64 ->
 * 128-bit product (WebAssembly, 32-bit targets, FASTSM2_NO_INT128): about
 * twice the generic field's speed there. */
#if defined(__wasm_simd128__)
/* with WebAssembly SIMD: the field's SIMD products and table scans (a
 * compile-time choice inside the w32 build), SM3 in 4 lanes */
static const fs2_backend w32 = {"w32", &fs2_ec_ops_w32, &fs2_sm3_ops_wasm_simd};
#else
static const fs2_backend w32 = {"w32", &fs2_ec_ops_w32, &fs2_sm3_ops_generic};
#endif
#endif

/* Generic first (the reference the tests compare every other backend
 * with); selection tries the others fastest first, generic last. */
const fs2_backend *const fs2_backends[] = {
    &generic,
#if defined(__x86_64__)
    &x86_avx512_ifma,
    &x86_avx512,
    &x86_avx2,
    &x86_adx,
#endif
#if defined(__aarch64__)
    &arm_armv8_sm3,
    &arm_armv8,
#endif
#if !defined(FS2_HAVE_INT128)
    &w32,
#endif
    NULL,
};

static const fs2_backend *selected;
static pthread_once_t select_once = PTHREAD_ONCE_INIT;

int fs2_backend_available(const fs2_backend *b)
{
    return fs2_cpu_has(b->ec->cpu_needs | b->sm3->cpu_needs);
}

/* SM3("abc") (GB/T 32905 A.1) from one block, and five blocks through each
 * function of the table against the portable compression. */
static int sm3_self_test(const fs2_sm3_ops *t)
{
    static const uint32_t abc_digest[8] = {0x66c7f0f4, 0x62eeedd9, 0xd1f2d46b, 0xdc10e4e2,
                                           0x4167c487, 0x5cf2f7a2, 0x297da02b, 0x8f4ba8e0};
    static const uint32_t iv[8] = {0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
                                   0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e};
    unsigned char abc[64] = {'a', 'b', 'c', 0x80}, msg[5 * 64];
    uint32_t st[16][8], want[8];
    const unsigned char *ptr[16];
    abc[63] = 24;
    memcpy(st[0], iv, sizeof iv);
    t->compress(st[0], abc, 1);
    if (memcmp(st[0], abc_digest, sizeof abc_digest))
        return 0;
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (unsigned char)(i * 13 + 7);
    memcpy(want, iv, sizeof iv);
    fs2_sm3_compress_generic(want, msg, 5);
    memcpy(st[0], iv, sizeof iv);
    t->compress(st[0], msg, 5);
    if (memcmp(st[0], want, sizeof want))
        return 0;
    if (t->lanes < 2)
        return t->lanes == 1 && t->compress_lanes == NULL;
    if (t->lanes > 16 || t->compress_lanes == NULL)
        return 0;
    for (unsigned l = 0; l < t->lanes; l++) {
        memcpy(st[l], iv, sizeof iv);
        ptr[l] = msg;
    }
    t->compress_lanes(st, ptr, 5);
    for (unsigned l = 0; l < t->lanes; l++)
        if (memcmp(st[l], want, sizeof want))
            return 0;
    return 1;
}

/* 1G against the standard's G, and 2G two ways. */
static int ec_self_test(const fs2_ec_ops *t)
{
    static const uint64_t gx[4] = {0x715A4589334C74C7ULL, 0x8FE30BBFF2660BE1ULL, 0x5F9904466A39C994ULL,
                                   0x32C4AE2C1F198119ULL};
    static const uint64_t gy[4] = {0x02DF32E52139F0A0ULL, 0xD0A9877CC62A4740ULL, 0x59BDCEE36B692153ULL,
                                   0xBC3736A2F4F6779CULL};
    uint64_t one[4] = {1, 0, 0, 0}, two[4] = {2, 0, 0, 0};
    fs2_affine g, g2a, g2b;
    t->mul_base(&g, one);
    if (g.infinity || memcmp(g.x, gx, 32) || memcmp(g.y, gy, 32))
        return 0;
    t->mul_base(&g2a, two);
    t->mul(&g2b, &g, NULL, two);
    return !g2a.infinity && !memcmp(&g2a, &g2b, sizeof g2a);
}

static int usable(const fs2_backend *b)
{
    return fs2_backend_available(b) && ec_self_test(b->ec) && sm3_self_test(b->sm3);
}

static void select_backend(void)
{
    const char *want = getenv("FASTSM2_CPU");
    if (want && *want) {
        for (size_t i = 0; fs2_backends[i]; i++)
            if (!strcmp(fs2_backends[i]->name, want) && usable(fs2_backends[i])) {
                selected = fs2_backends[i];
                return;
            }
    }
    for (size_t i = 1; fs2_backends[i]; i++)
        if (usable(fs2_backends[i])) {
            selected = fs2_backends[i];
            return;
        }
    selected = &generic;
}

const fs2_backend *fs2_backend_get(void)
{
    pthread_once(&select_once, select_backend);
    return selected;
}

const fs2_ec_ops *fs2_ec(void)
{
    return fs2_backend_get()->ec;
}

const fs2_sm3_ops *fs2_sm3(void)
{
    return fs2_backend_get()->sm3;
}

/* b's EC table (sm3 = 0) or SM3 table (sm3 = 1). */
static const void *table_of(const fs2_backend *b, int sm3)
{
    return sm3 ? (const void *)b->sm3 : (const void *)b->ec;
}

/* The i-th distinct table of that kind among the backends'. */
static const void *nth_table(size_t i, int sm3)
{
    for (size_t k = 0; fs2_backends[k]; k++) {
        const void *t = table_of(fs2_backends[k], sm3);
        size_t j = 0;
        while (j < k && table_of(fs2_backends[j], sm3) != t)
            j++;
        if (j == k && i-- == 0) /* t's first backend */
            return t;
    }
    return NULL;
}

const fs2_ec_ops *fs2_ec_table(size_t i)
{
    return nth_table(i, 0);
}

const fs2_sm3_ops *fs2_sm3_table(size_t i)
{
    return nth_table(i, 1);
}

static int force(const char *name, int checked)
{
    fs2_backend_get();
    for (size_t i = 0; fs2_backends[i]; i++)
        if (!strcmp(fs2_backends[i]->name, name) && (!checked || fs2_backend_available(fs2_backends[i]))) {
            selected = fs2_backends[i];
            return 1;
        }
    return 0;
}

int fs2_backend_force(const char *name)
{
    return force(name, 1);
}

int fs2_backend_force_unchecked(const char *name)
{
    return force(name, 0);
}

const char *fastsm2_backend_name(void)
{
    return fs2_backend_get()->name;
}

const char *fastsm2_backend_available(size_t i)
{
    for (size_t k = 0; fs2_backends[k]; k++)
        if (fs2_backend_available(fs2_backends[k]) && i-- == 0)
            return fs2_backends[k]->name;
    return NULL;
}
