/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small strict DER (ITU-T X.690 clause 10) reader and writer, for the few
 * structures SM2 needs: signatures, GM/T 0009 ciphertexts, PKCS#8, SEC1 and
 * SPKI keys. Internal to the library (src/codec).
 *
 * Reader: every function takes a cursor (fs2_der_in), reads one element of
 * the expected kind from its front and advances it; it returns 1 on success
 * and 0 on any malformation, leaving the cursor where it was. What "strict"
 * means here:
 *  - single-byte tags only (the high-tag-number form is refused);
 *  - definite lengths in their shortest form (no 0x80 indefinite form, no
 *    long form for lengths below 128, no leading zero length bytes), and
 *    never beyond the end of the enclosing element;
 *  - INTEGERs non-empty and minimal (no redundant leading 00 or FF);
 *    negative INTEGERs are refused, as no field we read may be negative;
 *  - BIT STRINGs with 0 unused bits only (all our BIT STRINGs hold bytes);
 *  - NULL is empty; OBJECT IDENTIFIERs are non-empty and minimal;
 *  - the caller checks "no trailing bytes" with fs2_der_at_end() at every
 *    level.
 *
 * Writer: a bounded buffer with a sticky overflow flag; callers compute sizes
 * with the *_len helpers, which saturate at SIZE_MAX instead of wrapping.
 */
#ifndef FS2_DER_H
#define FS2_DER_H

#include "internal.h"

#define FS2_DER_INTEGER      0x02u
#define FS2_DER_BIT_STRING   0x03u
#define FS2_DER_OCTET_STRING 0x04u
#define FS2_DER_NULL         0x05u
#define FS2_DER_OID          0x06u
#define FS2_DER_SEQUENCE     0x30u
#define FS2_DER_SET          0x31u
#define FS2_DER_CTX0_CONS    0xA0u /* [0] constructed (EXPLICIT, or IMPLICIT SET) */
#define FS2_DER_CTX1_CONS    0xA1u /* [1] constructed (EXPLICIT) */
#define FS2_DER_CTX1_PRIM    0x81u /* [1] IMPLICIT BIT STRING (PKCS#8 v2) */

/* A read cursor: n bytes left at p. */
typedef struct {
    const unsigned char *p;
    size_t n;
} fs2_der_in;

static inline void fs2_der_init(fs2_der_in *in, const unsigned char *p, size_t n)
{
    in->p = p;
    in->n = n;
}

static inline int fs2_der_at_end(const fs2_der_in *in)
{
    return in->n == 0;
}

/* The tag byte of the next element, or -1 when the cursor is empty. */
static inline int fs2_der_peek_tag(const fs2_der_in *in)
{
    return in->n ? (int)in->p[0] : -1;
}

/* Whether the contents in `body` are exactly the n bytes at b. */
static inline int fs2_der_body_is(const fs2_der_in *body, const unsigned char *b, size_t n)
{
    return body->n == n && (n == 0 || memcmp(body->p, b, n) == 0);
}

/* The header (tag and length) of the element at the front of in, without
 * advancing: *tag, the length of its contents in *len, and the header's
 * size (tag and length bytes); 0 when the header is cut short or not
 * strict (a high-tag-number form, the indefinite form, more than 8 length
 * bytes, a long form not the shortest). The contents may run past the
 * cursor's end (a ciphertext read from its prefix, src/codec/ciphertext.c):
 * the caller compares. fs2_der_get_any reads every header through it. */
FS2_HIDDEN size_t fs2_der_get_hdr(const fs2_der_in *in, unsigned *tag, uint64_t *len);
/* Read one element of any single-byte tag: *tag and its contents. */
FS2_HIDDEN int fs2_der_get_any(fs2_der_in *in, unsigned *tag, fs2_der_in *body);
/* Read one element whose tag must be `tag`. */
FS2_HIDDEN int fs2_der_get(fs2_der_in *in, unsigned tag, fs2_der_in *body);
/* Read a non-negative minimal INTEGER into out[0..outlen) big-endian,
 * left-padded with zeros; 0 if it does not fit. */
FS2_HIDDEN int fs2_der_get_uint(fs2_der_in *in, unsigned char *out, size_t outlen);
/* Read a BIT STRING with 0 unused bits; *bits = its bytes (may be empty). */
FS2_HIDDEN int fs2_der_get_bits(fs2_der_in *in, fs2_der_in *bits);
/* Read a well-formed OBJECT IDENTIFIER; *oid = its content bytes. */
FS2_HIDDEN int fs2_der_get_oid(fs2_der_in *in, fs2_der_in *oid);
/* Read NULL (05 00). */
FS2_HIDDEN int fs2_der_get_null(fs2_der_in *in);

/* A write buffer: cap bytes at p, n written; overflow set once a write did
 * not fit (later writes are then dropped). */
typedef struct {
    unsigned char *p;
    size_t cap;
    size_t n;
    int overflow;
} fs2_der_out;

static inline void fs2_der_out_init(fs2_der_out *o, unsigned char *p, size_t cap)
{
    o->p = p;
    o->cap = p ? cap : 0;
    o->n = 0;
    o->overflow = 0;
}

/* Size of the whole element holding len content bytes (tag + length +
 * contents), saturating at SIZE_MAX. */
FS2_HIDDEN size_t fs2_der_tlv_len(size_t len);
/* Size of the minimal INTEGER element holding the unsigned big-endian
 * number be[0..n) (n >= 1; all zero encodes as 02 01 00). */
FS2_HIDDEN size_t fs2_der_uint_len(const unsigned char *be, size_t n);

FS2_HIDDEN void fs2_der_put_bytes(fs2_der_out *o, const void *p, size_t n);
FS2_HIDDEN void fs2_der_put_hdr(fs2_der_out *o, unsigned tag, size_t len);
FS2_HIDDEN void fs2_der_put_tlv(fs2_der_out *o, unsigned tag, const void *p, size_t n);
FS2_HIDDEN void fs2_der_put_uint(fs2_der_out *o, const unsigned char *be, size_t n);

#endif
