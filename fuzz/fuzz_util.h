/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared by the libFuzzer targets of fuzz/: a reader that takes typed
 * values off the front of the fuzzer's input, fixed keys, and FZ_CHECK,
 * which aborts (a finding) when a property fails.
 */
#ifndef FS2_FUZZ_UTIL_H
#define FS2_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastsm2.h"

#define FZ_CHECK(cond)                                                                  \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                    \
        }                                                                               \
    } while (0)

typedef struct {
    const uint8_t *p;
    size_t n;
} fz_in;

/* The next byte, or 0 when the input is used up. */
static inline uint8_t fz_u8(fz_in *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}

static inline uint16_t fz_u16(fz_in *in)
{
    uint16_t hi = fz_u8(in);
    return (uint16_t)(hi << 8 | fz_u8(in));
}

/* n bytes into out, zero-filled past the end of the input. */
static inline void fz_bytes(fz_in *in, uint8_t *out, size_t n)
{
    size_t m = n < in->n ? n : in->n;
    memcpy(out, in->p, m);
    memset(out + m, 0, n - m);
    in->p += m;
    in->n -= m;
}

/* 1 if the n bytes at p are all zero (what a refused call leaves). */
static inline int fz_all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    unsigned char acc = 0;
    while (n--)
        acc |= *b++;
    return acc == 0;
}

/* Fixed keys: d = 0x01..0x20 (A) and 0x21..0x40 (B), public keys from
 * them. The seed corpora's ciphertexts and key-exchange messages are made
 * for these (fuzz/make_seeds.c). */
static inline void fz_key(fastsm2_privkey *key, fastsm2_pubkey *pub, int which)
{
    unsigned char d[32];
    for (int i = 0; i < 32; i++)
        d[i] = (unsigned char)(1 + i + 32 * which);
    FZ_CHECK(fastsm2_privkey_from_bytes(key, d) == FASTSM2_OK);
    if (pub)
        FZ_CHECK(fastsm2_privkey_pubkey(pub, key) == FASTSM2_OK);
}

/* The four ciphertext layouts: DER, raw C1C3C2, raw C1C2C3, and DER with
 * the C1C2C3 bit (which the library refuses or ignores consistently). */
static inline int fz_ct_flags(uint8_t b)
{
    static const int f[4] = {FASTSM2_CT_DER, FASTSM2_CT_RAW | FASTSM2_CT_C1C3C2, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3,
                             FASTSM2_CT_DER | FASTSM2_CT_C1C2C3};
    return f[b & 3];
}

#endif
