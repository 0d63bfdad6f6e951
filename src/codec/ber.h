/* SPDX-License-Identifier: Apache-2.0 */
/*
 * BER to DER, for the messages whose outer layers RFC 5652 lets be BER
 * (CMS: BouncyCastle's generators and `openssl cms -stream` write
 * indefinite lengths and the content as a constructed OCTET STRING).
 * Internal to the library (src/codec).
 *
 * What is changed: indefinite lengths (X.690 8.1.3.6) become definite, long
 * lengths their shortest form, and a constructed OCTET STRING (8.7.3) the
 * primitive one of its pieces' bytes, at any depth. Nothing else: the tags,
 * the order of elements and every primitive element's contents stay as
 * they are, for the strict reader (der.h) to judge. Refused (0): a
 * high-tag-number form, an indefinite length on a primitive element, an
 * end-of-contents octet pair where no indefinite element is open, a piece
 * of a constructed OCTET STRING that is not one, more than FS2_BER_DEPTH
 * levels, and anything cut short or with bytes after the element.
 */
#ifndef FS2_BER_H
#define FS2_BER_H

#include "internal.h"

#define FS2_BER_DEPTH 32

/* The one element at in[0..inlen) converted: *changed says whether its DER
 * differs from it (0: it is DER as far as this file judges, and out is not
 * written), *derlen the DER's size. out NULL (or *changed 0) measures only;
 * otherwise out holds cap >= *derlen bytes. 1 on success, 0 if the input
 * is not BER this file reads. The cost is the number of elements times the
 * depth; primitive contents are copied once and never read. */
FS2_HIDDEN int fs2_ber_to_der(unsigned char *out, size_t cap, size_t *derlen, int *changed, const unsigned char *in,
                              size_t inlen);

#endif
