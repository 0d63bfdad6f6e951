/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM4 seam (docs/ARCHITECTURE.md): the block cipher of GB/T 32907 and
 * GCM's GHASH (NIST SP 800-38D 6.4) as an operations table, one per
 * implementation, chosen once per process from the CPU-feature word
 * (src/cpu.h) after a known-answer self-test (src/sm4/sm4_select.c). The
 * modes of operation (src/sym/sm4*.c) reach SM4 through fs2_sm4() only.
 *
 * One canonical key (fs2_sm4_key) serves every table: the round keys as
 * GB/T 32907 clause 7.3 defines them, and GCM's hash key with its powers
 * as 128-bit integers, so that a key made under one table works under any
 * other. A table that wants another form derives it inside a call.
 *
 * GHASH's representation: a 16-byte block B of GCM is the 128-bit integer
 * that B spells in big-endian order, stored as two 64-bit words {low,
 * high} (low = the last 8 bytes). Bit 127 is the coefficient of x^0 and
 * bit 0 that of x^127 (SP 800-38D 6.3); a PCLMULQDQ/PMULL backend loads a
 * block byte-reversed and has it in its register as is.
 *
 * Contracts shared by every slot:
 *  - Constant time: no branch, no memory index and no variable-time
 *    instruction depends on round keys, hash-key powers, data or tweaks;
 *    only on the block counts (public).
 *  - out may equal in (in place); any other overlap is not allowed. n may
 *    be 0; no alignment is required of any buffer.
 *  - rk is a key's rk (encryption) or rkd (decryption): the block function
 *    is the same with the round keys in the other order (clause 7.2).
 */
#ifndef FS2_SM4_OPS_H
#define FS2_SM4_OPS_H

#include "internal.h"

/* H^1 .. H^16: enough for 16 blocks aggregated per reduction. */
#define FS2_GHASH_POWERS  16
/* fs2_sm4_key.check of a key made by fs2_sm4_key_expand. */
#define FS2_SM4_KEY_CHECK 0x534D344B65793031ULL /* "SM4Key01" */

/* What fastsm2_sm4_key holds (may_alias: the public type is reached
 * through a cast). */
typedef struct fs2_sm4_key {
    uint32_t rk[32];                    /* round keys rk_0 .. rk_31 (clause 7.3) */
    uint32_t rkd[32];                   /* rk_31 .. rk_0: decryption */
    uint64_t hpow[FS2_GHASH_POWERS][2]; /* hpow[i] = H^(i+1), H = E_K(0^128), {low, high} */
    uint64_t check;                     /* FS2_SM4_KEY_CHECK */
} __attribute__((may_alias)) fs2_sm4_key;

/* XTS's two orders of multiplication by alpha (the header's
 * FASTSM2_SM4_XTS_GB / _IEEE). */
#define FS2_XTS_GB   0
#define FS2_XTS_IEEE 1

typedef struct fs2_sm4_ops {
    const char *name;
    /* The FS2_CPU_* features the CPU must have (src/cpu.h). */
    uint32_t cpu_needs;
    /* GB/T 32907 clause 7.1 on n independent blocks (ECB). */
    void (*blocks)(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n);
    /* CTR, SP 800-38A 6.5, with GCM's inc32 (SP 800-38D 6.2): out_k = in_k
     * XOR E(ctr_k), k < n, where ctr_k is ctr with k added to its last 4
     * bytes as a big-endian number modulo 2^32 (the other 12 bytes never
     * change). GCM's counter can be secret (from GHASH for IVs of other
     * than 12 bytes): where it wraps chooses no branch. ctr is not
     * updated. */
    void (*ctr32)(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                  const unsigned char ctr[16]);
    /* CBC, SP 800-38A 6.2, with rk (cbc_enc) or rkd (cbc_dec); iv is the
     * chaining value in and out (the last ciphertext block). */
    void (*cbc_enc)(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n, unsigned char iv[16]);
    void (*cbc_dec)(const uint32_t rkd[32], unsigned char *out, const unsigned char *in, size_t n,
                    unsigned char iv[16]);
    /* CBC-MAC (CCM, SP 800-38C): mac = E(... E(E(mac ^ in_0) ^ in_1) ...). */
    void (*cbc_mac)(const uint32_t rk[32], unsigned char mac[16], const unsigned char *in, size_t n);
    /* XTS without ciphertext stealing (IEEE 1619 5.3.1 / GB/T 17964): out_k =
     * E(in_k ^ T_k) ^ T_k with rk or rkd, T_0 = t, T_k+1 = T_k * alpha in
     * the order of standard (FS2_XTS_GB or _IEEE); t becomes T_n. */
    void (*xts)(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n, unsigned char t[16],
                int standard);
    /* GHASH (SP 800-38D 6.4): for each block b, xi = (xi ^ b) * H, with
     * hpow the key's powers (reads H^1 .. H^min(n, 16) only). */
    void (*ghash)(uint64_t xi[2], const uint64_t (*hpow)[2], const unsigned char *in, size_t n);
    /* GCM's bulk (SP 800-38D 7.1 steps 3-5): ctr32 with key->rk from
     * counter block ctr (inc32, as ctr32), and GHASH with key->hpow over the ciphertext (out
     * when enc, in when not), interleaved. NULL: the modes make the two
     * calls. */
    void (*gcm)(const fs2_sm4_key *key, unsigned char *out, const unsigned char *in, size_t n,
                const unsigned char ctr[16], uint64_t xi[2], int enc);
} fs2_sm4_ops;

/* ---- the portable tables' parts (src/sm4/sm4_generic.c, ghash_generic.c),
 * which other tables may reuse for slots they do not speed up ---------- */

/* The key schedule of clause 7.3 into k->rk and k->rkd (the rest of k is
 * the caller's). */
FS2_HIDDEN void fs2_sm4_key_schedule(fs2_sm4_key *k, const unsigned char key[16]);
/* Bitsliced, 16 blocks per pass. */
FS2_HIDDEN void fs2_sm4_blocks_generic(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n);
FS2_HIDDEN extern const fs2_sm4_ops fs2_sm4_ops_generic;
/* The slots written over another table's `blocks` (CBC encryption and
 * CBC-MAC one block at a time, OFB-like chains): used by tables that have
 * nothing faster for them. */
FS2_HIDDEN void fs2_sm4_cbc_enc_by(void (*blocks)(const uint32_t *, unsigned char *, const unsigned char *, size_t),
                                   const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                                   unsigned char iv[16]);
/* XTS over a table's `blocks`, 16 blocks per pass (tweaks t, t * alpha,
 * ...; t advanced past the last): for tables with no XTS of their own. */
FS2_HIDDEN void fs2_sm4_xts_by(void (*blocks)(const uint32_t *, unsigned char *, const unsigned char *, size_t),
                               const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                               unsigned char t[16], int standard);
/* T * alpha in GF(2^128), in place, in the order of standard. */
FS2_HIDDEN void fs2_xts_mul_alpha(unsigned char t[16], int standard);
/* One GHASH multiplication, portable: x = x * y (both in the representation
 * above). */
FS2_HIDDEN void fs2_ghash_mul_generic(uint64_t x[2], const uint64_t y[2]);
FS2_HIDDEN void fs2_ghash_generic(uint64_t xi[2], const uint64_t (*hpow)[2], const unsigned char *in, size_t n);

#if defined(__x86_64__)
/* x86-64 (src/sm4/sm4_x86_tmpl.h over 8 or 16 blocks a register):
 *   avx2-aesni  AVX2, the S-box through AESENCLAST on XMM halves, PCLMULQDQ;
 *   avx2-vaes   AVX2 with VAES and VPCLMULQDQ on YMM registers;
 *   avx2-gfni   AVX2 with GF2P8AFFINE(INV)QB, VPCLMULQDQ;
 *   avx512-gfni AVX-512 with GFNI and VPCLMULQDQ on ZMM registers. */
FS2_HIDDEN extern const fs2_sm4_ops fs2_sm4_ops_avx2_aesni, fs2_sm4_ops_avx2_vaes, fs2_sm4_ops_avx2_gfni,
    fs2_sm4_ops_avx512_gfni;
#endif
#if defined(__aarch64__)
/* AArch64 (src/sm4/sm4_aarch64_*.c, docs/ARM.md): armv8-sm4 with the SM4
 * instructions, armv8-aes with NEON and the AES instructions; PMULL GHASH. */
FS2_HIDDEN extern const fs2_sm4_ops fs2_sm4_ops_armv8_sm4, fs2_sm4_ops_armv8_aes;
#endif

#if defined(__wasm_simd128__)
/* WebAssembly with SIMD (src/sm4/sm4_wasm_simd.c): the S-box by 16
 * i8x16.swizzle lookups, four blocks a vector; the portable GHASH. */
FS2_HIDDEN extern const fs2_sm4_ops fs2_sm4_ops_wasm_simd;
#endif

/* ---- selection (src/sm4/sm4_select.c) ---------------------------------- */

/* The table in use: FASTSM2_SM4=<name> if this CPU can run it and it
 * passes its self-test; the portable one under FASTSM2_CPU=generic;
 * otherwise the first of fs2_sm4_table() after generic that this CPU can
 * run and that passes (generic last). Chosen once, thread-safe. */
FS2_HIDDEN const fs2_sm4_ops *fs2_sm4(void);
/* Every table of this build, generic first, NULL past the last: what the
 * tests walk. */
FS2_HIDDEN const fs2_sm4_ops *fs2_sm4_table(size_t i);
/* 1 if this CPU can run t (its cpu_needs). */
FS2_HIDDEN int fs2_sm4_table_available(const fs2_sm4_ops *t);
/* The known-answer self-test of a table (GB/T 32907 A.1 through every
 * slot, against the portable table on a few blocks): 1 if it passes. */
FS2_HIDDEN int fs2_sm4_self_test(const fs2_sm4_ops *t);
/* For tests: make t the table in use (t NULL: choose again as at start).
 * The constant-time test forces tables valgrind's CPUID hides. */
FS2_HIDDEN void fs2_sm4_force(const fs2_sm4_ops *t);

/* A whole key (round keys, H and its powers) with the table in use. */
FS2_HIDDEN void fs2_sm4_key_expand(fs2_sm4_key *k, const unsigned char key[16]);

#endif
