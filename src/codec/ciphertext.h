/* SPDX-License-Identifier: Apache-2.0 */
/* The SM2 ciphertext codec (src/codec/ciphertext.c): bytes only. */
#ifndef FS2_CIPHERTEXT_H
#define FS2_CIPHERTEXT_H

#include "internal.h"

/* Where C1, C3 and C2 of GB/T 32918.4 clause 6.1 lie in each layout the
 * library speaks (flags: raw C1C3C2, raw C1C2C3 (FASTSM2_CT_RAW [|
 * FASTSM2_CT_C1C2C3]), or GM/T 0009 DER SEQUENCE { INTEGER x, INTEGER y, OCTET STRING C3, OCTET STRING C2 }).
 * Offsets count from the ciphertext's first byte; C2 starts right after
 * the prefix (c2_off is its length, at most FASTSM2_CT_PREFIX_MAX). */
typedef struct {
    unsigned char c1[65]; /* C1 as a SEC1 point: 04||x||y, or 02/03||x (raw, read) */
    size_t c1len;         /* 65 or 33 */
    uint64_t c3_off;
    uint64_t c2_off;
    uint64_t c2_len;
    uint64_t total; /* the whole ciphertext */
} fs2_ct_layout;
/* Bytes of a ciphertext holding c2len bytes of C2: exact for raw, an upper
 * bound for DER (its INTEGERs may come out shorter); 0 when too large. */
FS2_HIDDEN size_t fs2_ct_max_size(size_t c2len, int flags);
/* Write the prefix for C1 = (x1, y1) and c2len bytes of C2 into
 * out[0..cap): C1, the DER headers, and C3 as 32 zero bytes where it comes
 * before C2; fill *l. The caller puts C2 at l->c2_off and C3 at
 * l->c3_off. Returns the prefix length, or 0 when it does not fit. */
FS2_HIDDEN size_t fs2_ct_write_prefix(fs2_ct_layout *l, unsigned char *out, size_t cap, const unsigned char x1[32],
                                      const unsigned char y1[32], uint64_t c2len, int flags);
/* The layout of a ciphertext of ctlen bytes from its first prefixlen bytes
 * (at least min(ctlen, FASTSM2_CT_PREFIX_MAX)). Strict: DER with definite
 * lengths in their shortest form, minimal non-negative INTEGERs of at most
 * 256 bits, a C3 of 32 bytes, lengths adding up to ctlen (so, re-encoded,
 * the same bytes). FASTSM2_OK, or FASTSM2_ERR_CIPHERTEXT (*l zeroed). C2
 * may be empty, and C1 is not checked against the curve: both are the
 * protocol's to refuse. */
FS2_HIDDEN int fs2_ct_read_prefix(fs2_ct_layout *l, const unsigned char *prefix, size_t prefixlen, uint64_t ctlen,
                                  int flags);

#endif
