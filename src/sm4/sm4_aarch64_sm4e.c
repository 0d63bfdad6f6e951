/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM4 table "armv8-sm4" (src/sm4/sm4_ops.h): the ARMv8.2 SM4
 * instructions (FEAT_SM4) and PMULL GHASH (src/sm4/ghash_aarch64_impl.h).
 *
 * SM4E Vd.4S, Vn.4S runs four rounds of GB/T 32907 clause 7.1 on the state
 * {X_i, X_i+1, X_i+2, X_i+3} in lanes 0..3 of Vd with the round keys
 * rk_i..rk_i+3 in the lanes of Vn (the order of the key's rk array, so
 * eight vectors loaded from it as they are): a block is REV32 (its four
 * big-endian words as lanes) and eight SM4Es, and the result, {X32, X33,
 * X34, X35}, reversed byte for byte (one TBL) is the ciphertext
 * (X35, X34, X33, X32 big-endian). Eight blocks are in flight in the
 * parallel modes; CTR's counters are kept word-swapped, so inc32 is a
 * 32-bit add in lane 3 (which wraps as inc32 does). GCM runs eight blocks
 * of counter mode and their GHASH in one pass. CBC encryption and
 * CBC-MAC are one chain of blocks. The key schedule is the common one
 * (src/sm4/sm4_generic.c).
 *
 * The functions carry their own target attribute, so the library still
 * runs on any ARMv8-A core; the table is chosen only where the kernel
 * reports SM4 and PMULL. Constant time: SM4E, PMULL, TBL with fixed
 * indices, EOR and shifts; no branch or address depends on keys or data.
 */
#include "cpu.h"
#include "sm4_ops.h"

#if defined(__aarch64__)
#include <arm_neon.h>

#if defined(__clang__)
#define FS2_A64_TARGET __attribute__((target("sm4,aes")))
#else
#define FS2_A64_TARGET __attribute__((target("arch=armv8.2-a+sm4+crypto")))
#endif

#include "ghash_aarch64_impl.h"

/* Blocks in flight. */
#define W 8

/* Reverses the 16 bytes of a vector: {X32..X35} -> the ciphertext. */
static const uint8_t rev16_idx[16] = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};

typedef struct {
    uint32x4_t k[8];
    uint8x16_t rev;
} sm4e_keys;

FS2_A64_TARGET static inline void sm4e_load(sm4e_keys *s, const uint32_t rk[32])
{
    for (int j = 0; j < 8; j++)
        s->k[j] = vld1q_u32(rk + 4 * j);
    s->rev = vld1q_u8(rev16_idx);
}

/* 32 rounds on a state in lanes (the block's words as numbers). */
FS2_A64_TARGET static inline uint32x4_t sm4e_rounds(const sm4e_keys *s, uint32x4_t x)
{
    for (int j = 0; j < 8; j++)
        x = vsm4eq_u32(x, s->k[j]);
    return x;
}

/* A block's bytes into lanes, and a finished state to bytes. */
FS2_A64_TARGET static inline uint32x4_t sm4e_in(uint8x16_t b)
{
    return vreinterpretq_u32_u8(vrev32q_u8(b));
}

FS2_A64_TARGET static inline uint8x16_t sm4e_out(const sm4e_keys *s, uint32x4_t x)
{
    return vqtbl1q_u8(vreinterpretq_u8_u32(x), s->rev);
}

FS2_A64_TARGET static void sm4e_blocks(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n)
{
    sm4e_keys s;
    sm4e_load(&s, rk);
    for (; n >= W; n -= W, in += 16 * W, out += 16 * W) {
        uint32x4_t x[W];
        for (int i = 0; i < W; i++)
            x[i] = sm4e_in(vld1q_u8(in + 16 * i));
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < W; i++)
                x[i] = vsm4eq_u32(x[i], s.k[j]);
        for (int i = 0; i < W; i++)
            vst1q_u8(out + 16 * i, sm4e_out(&s, x[i]));
    }
    for (; n > 0; n--, in += 16, out += 16)
        vst1q_u8(out, sm4e_out(&s, sm4e_rounds(&s, sm4e_in(vld1q_u8(in)))));
}

/* The counter block as lanes, and {0, 0, 0, 1}. */
FS2_A64_TARGET static inline uint32x4_t ctr_lanes(const unsigned char ctr[16])
{
    return sm4e_in(vld1q_u8(ctr));
}

FS2_A64_TARGET static void sm4e_cbc_enc(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                                        unsigned char iv[16])
{
    sm4e_keys s;
    sm4e_load(&s, rk);
    uint8x16_t c = vld1q_u8(iv);
    for (; n > 0; n--, in += 16, out += 16) {
        c = sm4e_out(&s, sm4e_rounds(&s, sm4e_in(veorq_u8(c, vld1q_u8(in)))));
        vst1q_u8(out, c);
    }
    vst1q_u8(iv, c);
}

FS2_A64_TARGET static void sm4e_cbc_dec(const uint32_t rkd[32], unsigned char *out, const unsigned char *in, size_t n,
                                        unsigned char iv[16])
{
    sm4e_keys s;
    sm4e_load(&s, rkd);
    uint8x16_t prev = vld1q_u8(iv);
    for (; n >= W; n -= W, in += 16 * W, out += 16 * W) {
        uint8x16_t c[W];
        uint32x4_t x[W];
        for (int i = 0; i < W; i++) {
            c[i] = vld1q_u8(in + 16 * i); /* before an in-place store */
            x[i] = sm4e_in(c[i]);
        }
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < W; i++)
                x[i] = vsm4eq_u32(x[i], s.k[j]);
        vst1q_u8(out, veorq_u8(sm4e_out(&s, x[0]), prev));
        for (int i = 1; i < W; i++)
            vst1q_u8(out + 16 * i, veorq_u8(sm4e_out(&s, x[i]), c[i - 1]));
        prev = c[W - 1];
    }
    for (; n > 0; n--, in += 16, out += 16) {
        uint8x16_t c = vld1q_u8(in);
        vst1q_u8(out, veorq_u8(sm4e_out(&s, sm4e_rounds(&s, sm4e_in(c))), prev));
        prev = c;
    }
    vst1q_u8(iv, prev);
}

FS2_A64_TARGET static void sm4e_cbc_mac(const uint32_t rk[32], unsigned char mac[16], const unsigned char *in, size_t n)
{
    sm4e_keys s;
    sm4e_load(&s, rk);
    uint8x16_t m = vld1q_u8(mac);
    for (; n > 0; n--, in += 16)
        m = sm4e_out(&s, sm4e_rounds(&s, sm4e_in(veorq_u8(m, vld1q_u8(in)))));
    vst1q_u8(mac, m);
}

/* XTS's tweak T (bytes) times alpha, kept in the form each order shifts
 * most simply: IEEE 1619 as the little-endian number (the vector as
 * loaded); GB/T 17964 as the big-endian one with its halves swapped
 * (REV64 of the bytes), turned back into bytes by REV64. */
FS2_A64_TARGET static inline uint64x2_t xts_mul_alpha_ieee(uint64x2_t t)
{
    const uint64x2_t red = {0x87, 1};
    uint64x2_t m = vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_u64(t), 63));
    return veorq_u64(vshlq_n_u64(t, 1), vandq_u64(vextq_u64(m, m, 1), red));
}

FS2_A64_TARGET static inline uint64x2_t xts_mul_alpha_gb(uint64x2_t t)
{
    const uint64x2_t red = {0xE1ULL << 56, 1ULL << 63};
    uint64x2_t m = vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_u64(vshlq_n_u64(t, 63)), 63));
    return veorq_u64(vshrq_n_u64(t, 1), vandq_u64(vextq_u64(m, m, 1), red));
}

FS2_A64_TARGET static void sm4e_xts(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                                    unsigned char tw[16], int standard)
{
    sm4e_keys s;
    sm4e_load(&s, rk);
    const int gb = standard == FS2_XTS_GB; /* public */
    uint8x16_t tb = vld1q_u8(tw);
    uint64x2_t t = vreinterpretq_u64_u8(gb ? vrev64q_u8(tb) : tb);
#define XTS_NEXT()                                                               \
    do {                                                                         \
        t = gb ? xts_mul_alpha_gb(t) : xts_mul_alpha_ieee(t);                    \
        tb = gb ? vrev64q_u8(vreinterpretq_u8_u64(t)) : vreinterpretq_u8_u64(t); \
    } while (0)
    for (; n >= W; n -= W, in += 16 * W, out += 16 * W) {
        uint8x16_t twk[W];
        uint32x4_t x[W];
        for (int i = 0; i < W; i++) {
            twk[i] = tb;
            x[i] = sm4e_in(veorq_u8(vld1q_u8(in + 16 * i), tb));
            XTS_NEXT();
        }
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < W; i++)
                x[i] = vsm4eq_u32(x[i], s.k[j]);
        for (int i = 0; i < W; i++)
            vst1q_u8(out + 16 * i, veorq_u8(sm4e_out(&s, x[i]), twk[i]));
    }
    for (; n > 0; n--, in += 16, out += 16) {
        vst1q_u8(out, veorq_u8(sm4e_out(&s, sm4e_rounds(&s, sm4e_in(veorq_u8(vld1q_u8(in), tb)))), tb));
        XTS_NEXT();
    }
#undef XTS_NEXT
    vst1q_u8(tw, tb);
}

/* ---- the 8-block loops of CTR and GCM as inline assembly -------------
 * (GCC's register allocation of the intrinsics version reloaded constants
 * and table halves inside the loop: 218 instructions per 8 GCM blocks
 * against these loops' 180.) Register use, set up by each loop itself:
 *   v16-v23  the round keys (SM4E's second operand, four rounds each)
 *   v24      rev16_idx (TBL: the state {X32..X35} to ciphertext bytes)
 *   v25      {0, 0, 0, 1}: inc32 on the word-swapped counter
 *   v26      {0xC2 << 56, 0}: GHASH's reduction constant; v27 zero
 *   v28      the next counter block (word-swapped); v29 GHASH's state
 *   v0-v15, v30, v31  blocks, data and products. */
static const uint8_t loop_consts[48] = {15, 14, 13, 12, 11, 10, 9, 8,    7, 6, 5, 4, 3, 2, 1, 0,
                                        0,  0,  0,  0,  0,  0,  0, 0,    0, 0, 0, 0, 1, 0, 0, 0,
                                        0,  0,  0,  0,  0,  0,  0, 0xC2, 0, 0, 0, 0, 0, 0, 0, 0};

/* clang-format off */
#define A64_SETUP                                          \
    "ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [%[rk]], #64\n" \
    "ld1 {v20.4s, v21.4s, v22.4s, v23.4s}, [%[rk]]\n"      \
    "ld1 {v24.16b, v25.16b, v26.16b}, [%[cst]]\n"          \
    "movi v27.2d, #0\n"                                    \
    "ld1 {v28.16b}, [%[ctr]]\n"                            \
    "rev32 v28.16b, v28.16b\n"
/* eight counter blocks into v0-v7; v28 advances by 8 */
#define A64_CTRS                 \
    "mov v0.16b, v28.16b\n"      \
    "add v1.4s, v0.4s, v25.4s\n" \
    "add v2.4s, v1.4s, v25.4s\n" \
    "add v3.4s, v2.4s, v25.4s\n" \
    "add v4.4s, v3.4s, v25.4s\n" \
    "add v5.4s, v4.4s, v25.4s\n" \
    "add v6.4s, v5.4s, v25.4s\n" \
    "add v7.4s, v6.4s, v25.4s\n" \
    "add v28.4s, v7.4s, v25.4s\n"
#define A64_SM4E1(k)         \
    "sm4e v0.4s, " k ".4s\n" \
    "sm4e v1.4s, " k ".4s\n" \
    "sm4e v2.4s, " k ".4s\n" \
    "sm4e v3.4s, " k ".4s\n" \
    "sm4e v4.4s, " k ".4s\n" \
    "sm4e v5.4s, " k ".4s\n" \
    "sm4e v6.4s, " k ".4s\n" \
    "sm4e v7.4s, " k ".4s\n"
/* the 32 rounds of v0-v7, then each reversed into its key stream block */
#define A64_SM4E8                                                                        \
    A64_SM4E1("v16")                                                                     \
    A64_SM4E1("v17")                                                                     \
    A64_SM4E1("v18") A64_SM4E1("v19") A64_SM4E1("v20") A64_SM4E1("v21") A64_SM4E1("v22") \
        A64_SM4E1("v23") "tbl v0.16b, {v0.16b}, v24.16b\n"                               \
                         "tbl v1.16b, {v1.16b}, v24.16b\n"                               \
                         "tbl v2.16b, {v2.16b}, v24.16b\n"                               \
                         "tbl v3.16b, {v3.16b}, v24.16b\n"                               \
                         "tbl v4.16b, {v4.16b}, v24.16b\n"                               \
                         "tbl v5.16b, {v5.16b}, v24.16b\n"                               \
                         "tbl v6.16b, {v6.16b}, v24.16b\n"                               \
                         "tbl v7.16b, {v7.16b}, v24.16b\n"
#define A64_LOAD8                                            \
    "ld1 {v8.16b, v9.16b, v10.16b, v11.16b}, [%[in]], #64\n" \
    "ld1 {v12.16b, v13.16b, v14.16b, v15.16b}, [%[in]], #64\n"
/* v0-v7 ^= v8-v15, stored */
#define A64_XOR_STORE8                                      \
    "eor v0.16b, v0.16b, v8.16b\n"                          \
    "eor v1.16b, v1.16b, v9.16b\n"                          \
    "eor v2.16b, v2.16b, v10.16b\n"                         \
    "eor v3.16b, v3.16b, v11.16b\n"                         \
    "eor v4.16b, v4.16b, v12.16b\n"                         \
    "eor v5.16b, v5.16b, v13.16b\n"                         \
    "eor v6.16b, v6.16b, v14.16b\n"                         \
    "eor v7.16b, v7.16b, v15.16b\n"                         \
    "st1 {v0.16b, v1.16b, v2.16b, v3.16b}, [%[out]], #64\n" \
    "st1 {v4.16b, v5.16b, v6.16b, v7.16b}, [%[out]], #64\n"
/* clang-format on */
/* nb (a multiple of 8, > 0) blocks of CTR from the counter block ctr. */
FS2_A64_TARGET static void sm4e_ctr8_asm(const uint32_t *rk, unsigned char *out, const unsigned char *in, size_t nb,
                                         const unsigned char *ctr)
{
    const uint8_t *cst = loop_consts;
    /* clang-format off */
    __asm__ volatile(
        A64_SETUP
        "1:\n"
        A64_CTRS A64_SM4E8 A64_LOAD8 A64_XOR_STORE8
        "subs %[n], %[n], #8\n"
        "b.ne 1b\n"
        : [rk] "+r"(rk), [in] "+r"(in), [out] "+r"(out), [n] "+r"(nb)
        : [cst] "r"(cst), [ctr] "r"(ctr)
        : A64_CLOBBERS);
    /* clang-format on */
}

/* nb (a multiple of 8, > 0) blocks of GCM; xi the GHASH state (in, out).
 * Encryption hashes the output blocks (v0-v7), decryption the input ones
 * (v8-v15), loaded before the key stream is XORed in. */
FS2_A64_TARGET static void sm4e_gcm8_asm(const uint32_t *rk, unsigned char *out, const unsigned char *in, size_t nb,
                                         const unsigned char *ctr, uint64_t xi[2], const uint64x2_t *tab, int enc)
{
    const uint8_t *cst = loop_consts;
    /* clang-format off */
    if (enc) { /* public */
        __asm__ volatile(
            A64_SETUP
            "ld1 {v29.2d}, [%[xi]]\n"
            "1:\n"
            A64_CTRS A64_SM4E8 A64_LOAD8 A64_XOR_STORE8
            A64_GHASH8("v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7",
                       "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15")
            "subs %[n], %[n], #8\n"
            "b.ne 1b\n"
            "st1 {v29.2d}, [%[xi]]\n"
            : [rk] "+r"(rk), [in] "+r"(in), [out] "+r"(out), [n] "+r"(nb), [tab] "+r"(tab)
            : [cst] "r"(cst), [ctr] "r"(ctr), [xi] "r"(xi)
            : A64_CLOBBERS);
    } else {
        __asm__ volatile(
            A64_SETUP
            "ld1 {v29.2d}, [%[xi]]\n"
            "1:\n"
            A64_CTRS A64_LOAD8 A64_SM4E8 A64_XOR_STORE8
            A64_GHASH8("v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15",
                       "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7")
            "subs %[n], %[n], #8\n"
            "b.ne 1b\n"
            "st1 {v29.2d}, [%[xi]]\n"
            : [rk] "+r"(rk), [in] "+r"(in), [out] "+r"(out), [n] "+r"(nb), [tab] "+r"(tab)
            : [cst] "r"(cst), [ctr] "r"(ctr), [xi] "r"(xi)
            : A64_CLOBBERS);
    }
    /* clang-format on */
}

FS2_A64_TARGET static void sm4e_ctr32(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                                      const unsigned char ctr[16])
{
    sm4e_keys s;
    size_t nb = n & ~(size_t)(W - 1);
    if (nb > 0)
        sm4e_ctr8_asm(rk, out, in, nb, ctr);
    if (nb == n)
        return;
    sm4e_load(&s, rk);
    const uint32x4_t one = {0, 0, 0, 1};
    uint32x4_t c = vaddq_u32(ctr_lanes(ctr), vsetq_lane_u32((uint32_t)nb, vdupq_n_u32(0), 3));
    for (in += 16 * nb, out += 16 * nb, n -= nb; n > 0; n--, in += 16, out += 16) {
        vst1q_u8(out, veorq_u8(vld1q_u8(in), sm4e_out(&s, sm4e_rounds(&s, c))));
        c = vaddq_u32(c, one);
    }
}

/* GCM's bulk: eight blocks of counter mode and their GHASH per pass (the
 * loop above), the rest one block at a time and hashed together. */
FS2_A64_TARGET static void sm4e_gcm(const fs2_sm4_key *key, unsigned char *out, const unsigned char *in, size_t n,
                                    const unsigned char ctr[16], uint64_t xi[2], int enc)
{
    sm4e_keys s;
    fs2_a64_ghash_tab t;
    uint64x2_t tab[12];
    uint8x16_t d[W];
    if (n == 0)
        return;
    fs2_a64_ghash_prep(&t, key->hpow, n < W ? n : W);
    size_t nb = n & ~(size_t)(W - 1);
    if (nb > 0) {
        fs2_a64_tab_make(tab, &t);
        sm4e_gcm8_asm(key->rk, out, in, nb, ctr, xi, tab, enc);
        fs2_wipe(tab, sizeof tab);
    }
    if (nb < n) {
        sm4e_load(&s, key->rk);
        const uint32x4_t one = {0, 0, 0, 1};
        uint32x4_t c = vaddq_u32(ctr_lanes(ctr), vsetq_lane_u32((uint32_t)nb, vdupq_n_u32(0), 3));
        in += 16 * nb;
        out += 16 * nb;
        n -= nb;
        for (size_t i = 0; i < n; i++) {
            uint8x16_t v = vld1q_u8(in + 16 * i), o = veorq_u8(v, sm4e_out(&s, sm4e_rounds(&s, c)));
            vst1q_u8(out + 16 * i, o);
            d[i] = enc ? o : v;
            c = vaddq_u32(c, one);
        }
        vst1q_u64(xi, fs2_a64_ghash_group(&t, vld1q_u64(xi), d, n));
    }
    fs2_wipe(&t, sizeof t);
}

const fs2_sm4_ops fs2_sm4_ops_armv8_sm4 = {
    .name = "armv8-sm4",
    .cpu_needs = FS2_CPU_ARM_ASIMD | FS2_CPU_ARM_SM4 | FS2_CPU_ARM_PMULL,
    .blocks = sm4e_blocks,
    .ctr32 = sm4e_ctr32,
    .cbc_enc = sm4e_cbc_enc,
    .cbc_dec = sm4e_cbc_dec,
    .cbc_mac = sm4e_cbc_mac,
    .xts = sm4e_xts,
    .ghash = fs2_a64_ghash,
    .gcm = sm4e_gcm,
};

#endif
