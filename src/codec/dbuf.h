/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A growable DER writer (X.690 clause 10) for structures whose lengths are
 * not known before their contents are written: certificates, requests and
 * CMS messages (src/x509/, src/cms/). Internal to the library (src/codec).
 *
 * An element is opened (its tag and a one-byte placeholder length written)
 * and closed when its contents are complete: the length is then written in
 * its shortest form, the contents moved right when it takes more than one
 * byte. Elements nest; close them in the reverse order of opening. A SET OF
 * can be closed sorted, as DER orders its elements (X.690 11.6).
 *
 * Errors are sticky: a failed allocation, or a size over FS2_DBUF_MAX, sets
 * err (FASTSM2_ERR_NO_MEMORY / FASTSM2_ERR_TOO_LARGE) and every later call
 * does nothing. The buffer may hold secrets only briefly: fs2_dbuf_free
 * wipes what it held, and growing wipes the old copy.
 */
#ifndef FS2_DBUF_H
#define FS2_DBUF_H

#include "internal.h"

/* The largest structure built in memory (1 GiB): larger contents are
 * streamed by their callers around a prefix and a suffix. */
#define FS2_DBUF_MAX ((size_t)1 << 30)

typedef struct {
    unsigned char *p;
    size_t n, cap;
    int err; /* 0, or the first error */
} fs2_dbuf;

FS2_HIDDEN void fs2_dbuf_init(fs2_dbuf *b);
/* Wipe and free the contents; b is empty again. */
FS2_HIDDEN void fs2_dbuf_free(fs2_dbuf *b);
FS2_HIDDEN void fs2_dbuf_put(fs2_dbuf *b, const void *p, size_t n);
/* Start an element of this tag: returns the mark to close it with. */
FS2_HIDDEN size_t fs2_dbuf_open(fs2_dbuf *b, unsigned tag);
FS2_HIDDEN void fs2_dbuf_close(fs2_dbuf *b, size_t mark);
/* Close a SET OF: its elements (complete DER elements) sorted by their
 * encodings, as X.690 11.6 orders them. */
FS2_HIDDEN void fs2_dbuf_close_sorted(fs2_dbuf *b, size_t mark);
/* tag, length and n content bytes. */
FS2_HIDDEN void fs2_dbuf_tlv(fs2_dbuf *b, unsigned tag, const void *p, size_t n);
/* The minimal INTEGER for the unsigned big-endian be[0..n). */
FS2_HIDDEN void fs2_dbuf_uint(fs2_dbuf *b, const unsigned char *be, size_t n);
/* A small non-negative INTEGER. */
FS2_HIDDEN void fs2_dbuf_small_uint(fs2_dbuf *b, unsigned v);
/* A header alone: tag and the length len (contents written by the caller,
 * or elsewhere: a streamed content). */
FS2_HIDDEN void fs2_dbuf_hdr(fs2_dbuf *b, unsigned tag, uint64_t len);
/* Size of a header for a content of len bytes. */
FS2_HIDDEN size_t fs2_der_hdr_len(uint64_t len);

#endif
