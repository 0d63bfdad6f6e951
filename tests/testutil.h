/* SPDX-License-Identifier: Apache-2.0 */
/* A tiny test harness: CHECK() counts, the program prints
 * "N passed, N failed" and exits non-zero on any failure. */
#ifndef FS2_TESTUTIL_H
#define FS2_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fastsm2.h"

extern unsigned long fs2t_passed, fs2t_failed;

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (cond) {                                                                      \
            fs2t_passed++;                                                               \
        } else {                                                                         \
            fs2t_failed++;                                                               \
            if (fs2t_failed <= 30)                                                       \
                fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                                \
    } while (0)

/* CHECK that a call returned a given status, printing both names if not. */
#define CHECK_STATUS(call, want)                                                               \
    do {                                                                                       \
        int fs2t_got_ = (call);                                                                \
        if (fs2t_got_ == (want)) {                                                             \
            fs2t_passed++;                                                                     \
        } else {                                                                               \
            fs2t_failed++;                                                                     \
            if (fs2t_failed <= 30)                                                             \
                fprintf(stderr, "%s:%d: %s returned %s, want %s\n", __FILE__, __LINE__, #call, \
                        fastsm2_error_name(fs2t_got_), fastsm2_error_name(want));              \
        }                                                                                      \
    } while (0)

/* Print the summary line and return the exit code for main(). */
int fs2t_finish(const char *name);
/* The exit status of a test that cannot run here: ctest's SKIP_RETURN_CODE
 * (every test has it, set in CMakeLists.txt) shows it as skipped, not passed. */
#define FS2T_SKIP 77
/* Print "NAME: WHY, skipped" and return FS2T_SKIP, for main() to return: a
 * test that cannot run here. */
int fs2t_skip(const char *name, const char *why);

/* One direction of a differential test: the cases tried and passed. */
struct fs2t_tally {
    unsigned long key_ok, sigs, sig_ok, sig_bad_rejected, cts, ct_ok;
};
/* *passed += ok; a failure prints the printf-style note (while fewer than
 * 10 CHECKs have failed). */
void fs2t_count(unsigned long *passed, int ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* CHECK that all `iters` keys, sigs_per_key * iters signatures (each with
 * its wrong IDs rejected) and iters ciphertexts passed, print the counts
 * after `name`; returns the signatures and ciphertexts tried. */
unsigned long fs2t_tally_finish(const struct fs2t_tally *t, const char *name, unsigned long iters,
                                unsigned long sigs_per_key);

/* The length of a stream's next piece: a draw in [min, max], cut to the
 * `left` bytes left. */
size_t fs2t_rand_piece(size_t left, size_t min, size_t max);
/* Public-key encryption through the streaming API, the message (C2) in
 * pieces of `piece` bytes, or of random sizes 1..700 for piece 0.
 * fs2t_stream_encrypt uses the nonce k (NULL: a random one) and returns
 * the ciphertext's length (at most cap), 0 on any failure;
 * fs2t_stream_decrypt returns FASTSM2_OK and *outlen, or the first error. */
size_t fs2t_stream_encrypt(unsigned char *ct, size_t cap, const fastsm2_pubkey *pub, const unsigned char *msg,
                           size_t len, int flags, const unsigned char *k, size_t piece);
int fs2t_stream_decrypt(unsigned char *out, size_t *outlen, const fastsm2_privkey *key, const unsigned char *ct,
                        size_t ctlen, int flags, size_t piece);

/* Hex (upper or lower case, no separators) to bytes; returns the length, or
 * aborts the test on bad input. */
size_t fs2t_unhex(unsigned char *out, size_t cap, const char *hex);
void fs2t_hex(char *out, const unsigned char *in, size_t len);

/* Deterministic test randomness (xoshiro-style; seed from FS2T_SEED or a
 * fixed default, printed once so failures can be replayed). */
void fs2t_rand_bytes(void *buf, size_t n);
uint64_t fs2t_rand_u64(void);
/* A draw in [0, n), n > 0. */
size_t fs2t_rand_below(size_t n);
/* A random ID of 1..40 bytes into id, never the default ID (its first
 * byte a lower-case letter); returns its length. */
size_t fs2t_rand_id(unsigned char id[40]);
/* A length drawn in [min, max] and that many random bytes into buf; returns
 * the length. */
size_t fs2t_rand_len_bytes(unsigned char *buf, size_t min, size_t max);
/* The signer's ID of case `kind` (0 the default ID, 1 a random one drawn
 * into id, 2 none: NULL, *len 0), and a wrong one for it: sid with bit 0 of
 * the first byte (first) or bit 5 of the last byte flipped, or "x" for no
 * ID; fs2t_wrong_id returns its length. */
const unsigned char *fs2t_sig_id(int kind, unsigned char id[40], size_t *len);
size_t fs2t_wrong_id(unsigned char wid[40], const unsigned char *sid, size_t sidlen, int first);

/* Look up "key = value" in section [section] of
 * tests/vectors/gbt32918-examples.txt (its path compiled in as
 * FS2T_VECTORS_FILE); the nth (0-based) match.
 * Returns a static buffer, or aborts if missing. */
const char *fs2t_vector(const char *section, const char *key, int nth);
/* The value of key in [section] of tests/vectors/FILE ("" for an empty
 * value), or NULL if the section or the key is not there. */
const char *fs2t_vector_file(const char *file, const char *section, const char *key);

/* Read a whole file (malloc'd); NULL on error. */
unsigned char *fs2t_read_file(const char *path, size_t *len);
int fs2t_write_file(const char *path, const void *data, size_t len);

/* The curve's constants, 32 bytes big-endian (GB/T 32918.5): the order n,
 * the prime p and the base point's coordinates. */
extern const unsigned char fs2t_n[32], fs2t_p[32], fs2t_gx[32], fs2t_gy[32];
/* G as a 65-byte SEC1 point 04||x||y. */
void fs2t_sec1_g(unsigned char out[65]);
/* An x in [0, p) with no point on the curve (found with OpenSSL). */
void fs2t_x_off_curve(unsigned char x[32]);

/* A fresh key pair from the library's generator, CHECKed. */
void fs2t_keypair(fastsm2_privkey *key, fastsm2_pubkey *pub);
/* A malloc'd buffer of *len random bytes (*len below maxlen, drawn), its
 * first byte set to `first` when it has one and first >= 0: the input of a
 * parser fuzz. */
unsigned char *fs2t_rand_input(size_t maxlen, int first, size_t *len);

/* 1 if the n bytes at p are all zero. */
int fs2t_all_zero(const void *p, size_t n);
/* a += v (mod 2^256), a 32 bytes big-endian. */
void fs2t_be_add(unsigned char a[32], unsigned v);
/* a = (b - a) mod 2^256, 32 bytes big-endian. */
void fs2t_be_rsub(unsigned char a[32], const unsigned char b[32]);

/* Every fastsm2_verify* 1/0 result goes through fs2t_vb, which returns it
 * and counts in fs2t_verify_non_boolean any value other than 1 or 0 (a
 * test CHECKs that the count is 0 before it finishes). */
extern unsigned long fs2t_verify_non_boolean;
int fs2t_vb(int v);

/* A random 32-byte number with a random count of leading zero bytes and a
 * random top bit: every length of a DER INTEGER comes up. */
void fs2t_rand_int256(unsigned char a[32]);
/* One to three random edits of b[0..*len) (cap bytes of room): a flipped
 * bit, a byte set, a cut, a byte inserted or deleted, a length-like byte. */
void fs2t_mutate(unsigned char *b, size_t *len, size_t cap);

#endif
