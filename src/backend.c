/* SPDX-License-Identifier: Apache-2.0 */
/* Backend selection: once, at first use, by CPU features, after a
 * known-answer self-test; FASTSM2_CPU=<name> forces one. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

#include "sm3/sm3_impl.h"

static int generic_available(void) { return 1; }

static const fs2_backend fs2_backend_generic = {
    .name = "generic",
    .available = generic_available,
    .sm3_compress = fs2_sm3_compress_generic,
    .sm3_lanes = 1,
    .sm3_compress_lanes = fs2_sm3_compress_lanes1,
    .ec = &fs2_ec_ops_generic,
};

#if defined(__x86_64__)
extern const fs2_backend fs2_backend_adx, fs2_backend_avx2, fs2_backend_avx512;
#endif
#if defined(__aarch64__)
extern const fs2_backend fs2_backend_armv8, fs2_backend_armv8_sm3; /* src/backend_aarch64.c */
#endif

/* Generic first (the reference the tests compare every other backend
 * with); selection tries the others fastest first, generic last. */
const fs2_backend *const fs2_backends[] = {
    &fs2_backend_generic,
#if defined(__x86_64__)
    &fs2_backend_avx512,
    &fs2_backend_avx2,
    &fs2_backend_adx,
#endif
#if defined(__aarch64__)
    &fs2_backend_armv8_sm3,
    &fs2_backend_armv8,
#endif
    NULL,
};

static const fs2_backend *selected;
static pthread_once_t select_once = PTHREAD_ONCE_INIT;

/* Known answers: SM3("abc") (GB/T 32905 A.1) and 1*G, 2*G. */
static int self_test(const fs2_backend *b)
{
    static const uint32_t abc_digest[8] = {0x66c7f0f4, 0x62eeedd9, 0xd1f2d46b, 0xdc10e4e2,
                                           0x4167c487, 0x5cf2f7a2, 0x297da02b, 0x8f4ba8e0};
    static const uint32_t iv[8] = {0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
                                   0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e};
    static const uint64_t gx[4] = {0x715A4589334C74C7ULL, 0x8FE30BBFF2660BE1ULL, 0x5F9904466A39C994ULL,
                                   0x32C4AE2C1F198119ULL};
    static const uint64_t gy[4] = {0x02DF32E52139F0A0ULL, 0xD0A9877CC62A4740ULL, 0x59BDCEE36B692153ULL,
                                   0xBC3736A2F4F6779CULL};
    unsigned char block[64] = {'a', 'b', 'c', 0x80};
    uint32_t st[8];
    block[63] = 24;
    memcpy(st, iv, sizeof st);
    b->sm3_compress(st, block, 1);
    if (memcmp(st, abc_digest, sizeof st))
        return 0;
    uint64_t one[4] = {1, 0, 0, 0}, two[4] = {2, 0, 0, 0};
    fs2_affine g, g2a, g2b;
    b->ec->mul_base(&g, one);
    if (g.infinity || memcmp(g.x, gx, 32) || memcmp(g.y, gy, 32))
        return 0;
    b->ec->mul_base(&g2a, two);
    b->ec->mul(&g2b, &g, NULL, two);
    return !g2a.infinity && !memcmp(&g2a, &g2b, sizeof g2a);
}

static void select_backend(void)
{
    const char *want = getenv("FASTSM2_CPU");
    if (want && *want) {
        for (size_t i = 0; fs2_backends[i]; i++)
            if (!strcmp(fs2_backends[i]->name, want) && fs2_backends[i]->available() &&
                self_test(fs2_backends[i])) {
                selected = fs2_backends[i];
                return;
            }
    }
    for (size_t i = 1; fs2_backends[i]; i++)
        if (fs2_backends[i]->available() && self_test(fs2_backends[i])) {
            selected = fs2_backends[i];
            return;
        }
    selected = &fs2_backend_generic;
}

const fs2_backend *fs2_backend_get(void)
{
    pthread_once(&select_once, select_backend);
    return selected;
}

int fs2_backend_force(const char *name)
{
    fs2_backend_get();
    for (size_t i = 0; fs2_backends[i]; i++)
        if (!strcmp(fs2_backends[i]->name, name) && fs2_backends[i]->available()) {
            selected = fs2_backends[i];
            return 1;
        }
    return 0;
}

const fs2_ec_ops *fs2_ec_table(size_t i)
{
    for (size_t k = 0; fs2_backends[k]; k++) {
        size_t j = 0;
        while (j < k && fs2_backends[j]->ec != fs2_backends[k]->ec)
            j++;
        if (j == k && i-- == 0) /* first use of this table */
            return fs2_backends[k]->ec;
    }
    return NULL;
}

int fs2_ec_table_available(const fs2_ec_ops *ec)
{
    for (size_t k = 0; fs2_backends[k]; k++)
        if (fs2_backends[k]->ec == ec && fs2_backends[k]->available())
            return 1;
    return 0;
}

const fs2_ec_ops *fs2_ec(void)
{
    return fs2_backend_get()->ec;
}

int fs2_backend_force_unchecked(const char *name)
{
    fs2_backend_get();
    for (size_t i = 0; fs2_backends[i]; i++)
        if (!strcmp(fs2_backends[i]->name, name)) {
            selected = fs2_backends[i];
            return 1;
        }
    return 0;
}

const char *fastsm2_backend_name(void)
{
    return fs2_backend_get()->name;
}

const char *fastsm2_backend_available(size_t i)
{
    for (size_t k = 0; fs2_backends[k]; k++)
        if (fs2_backends[k]->available() && i-- == 0)
            return fs2_backends[k]->name;
    return NULL;
}
