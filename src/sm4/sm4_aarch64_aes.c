/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM4 table "armv8-aes" (src/sm4/sm4_ops.h) for ARMv8 cores without
 * the SM4 instructions: NEON with the AES instructions (FEAT_AES) for the
 * S-box, PMULL GHASH (src/sm4/ghash_aarch64_impl.h).
 *
 * Layout: four blocks a group, transposed, register j holding word j of
 * each block (LD4/ST4 do the transposition, REV32 the byte order), two
 * groups in flight. One round, X0 ^= L(tau(X1 ^ X2 ^ X3 ^ rk)), on a group:
 *   - S-box through AES's (src/sm4/sm4_sbox.h, tools/gen_sm4_sbox.py):
 *     tau(x) = POST(SubBytes(PRE(x))) byte by byte, PRE and POST affine,
 *     each two TBL lookups of the low and the high nibble. PRE is linear
 *     plus a constant, so PRE(s ^ rk) = PRE_lin(s) ^ PRE(rk): PRE(rk) of
 *     all 32 round keys is made once per call and enters as AESE's round
 *     key (AESE is SubBytes(ShiftRows(v ^ k)); the key, the same word in
 *     every column, is unmoved by ShiftRows). ShiftRows, which moves bytes
 *     between the blocks, is undone in advance by one TBL on fixed
 *     indices. 12 instructions.
 *   - L(B) = B ^ (B <<< 24) ^ ((B ^ B <<< 8 ^ B <<< 16) <<< 2): TBL for the
 *     byte rotations 8 and 24, REV32 on halves for 16, SHL + SRI for 2;
 *     10 instructions with the XOR into X0.
 *   - X1 ^ X2 ^ X3 shares X2 ^ X3 with the next round: 1.5 EORs.
 * 23.5 instructions a round for four blocks, about 190 a block. Bitsliced
 * SM4 in 128-bit registers would take more: the S-box circuit alone is 161
 * gates per 32 blocks, with L and the key, 250 or more a round, about 260 a
 * block before the transpositions, and four words of eight planes fill
 * all 32 registers.
 *
 * CBC encryption and CBC-MAC run one block in lane 0 of a group (the
 * other lanes idle). The key schedule is the common one.
 *
 * Constant time: TBL indices that come from data index registers, not
 * memory (TBL's timing depends on the number of table registers only);
 * AESE, PMULL, EOR, shifts; no branch or address depends on keys or data.
 */
#include "cpu.h"
#include "sm4_ops.h"

#if defined(__aarch64__)
#include <arm_neon.h>

#include "sm4_sbox.h"

#if defined(__clang__)
#define FS2_A64_TARGET __attribute__((target("aes")))
#else
#define FS2_A64_TARGET __attribute__((target("arch=armv8-a+crypto")))
#endif
#define FS2_A64_INLINE FS2_A64_TARGET static inline __attribute__((always_inline))

#include "ghash_aarch64_impl.h"

/* PRE without its constant (PRE_LO[0]): the linear part, for the state. */
#define PRE_C 0x23
static const uint8_t pre_lo[16] = {FS2_SM4_AESNI_PRE_LO}, pre_hi[16] = {FS2_SM4_AESNI_PRE_HI},
                     post_lo[16] = {FS2_SM4_AESNI_POST_LO}, post_hi[16] = {FS2_SM4_AESNI_POST_HI};
/* v = ShiftRows^-1(u): byte 4c + r of v is byte 4((c - r) mod 4) + r of u. */
static const uint8_t inv_sr[16] = {0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3};
/* word <<< 8 and <<< 24 in each lane */
static const uint8_t rot8[16] = {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14};
static const uint8_t rot24[16] = {1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12};

/* The constants of a call, in registers, and PRE(rk_i) of each round key
 * (its four bytes, the same in each lane when loaded). */
struct aes_ctx {
    uint8x16_t mask, plo, phi, qlo, qhi, isr, r8, r24;
    uint32_t kp[32];
};
typedef struct aes_ctx aes_ctx;

FS2_A64_INLINE uint8x16_t nib_lookup(uint8x16_t x, uint8x16_t mask, uint8x16_t lo, uint8x16_t hi)
{
    return veorq_u8(vqtbl1q_u8(lo, vandq_u8(x, mask)), vqtbl1q_u8(hi, vshrq_n_u8(x, 4)));
}

FS2_A64_TARGET static void aes_setup(aes_ctx *c, const uint32_t rk[32])
{
    c->mask = vdupq_n_u8(0x0F);
    c->plo = veorq_u8(vld1q_u8(pre_lo), vdupq_n_u8(PRE_C));
    c->phi = vld1q_u8(pre_hi);
    c->qlo = vld1q_u8(post_lo);
    c->qhi = vld1q_u8(post_hi);
    c->isr = vld1q_u8(inv_sr);
    c->r8 = vld1q_u8(rot8);
    c->r24 = vld1q_u8(rot24);
    const uint8x16_t plo_c = vld1q_u8(pre_lo); /* with the constant */
    for (int j = 0; j < 8; j++) {
        uint8x16_t k = vreinterpretq_u8_u32(vld1q_u32(rk + 4 * j));
        vst1q_u32(c->kp + 4 * j, vreinterpretq_u32_u8(nib_lookup(k, c->mask, plo_c, c->phi)));
    }
}

/* T(s ^ rk) = L(tau(s ^ rk)) for one group, k = PRE(rk) in every lane. */
FS2_A64_INLINE uint32x4_t aes_t(const aes_ctx *c, uint32x4_t s, uint8x16_t k)
{
    uint8x16_t u = nib_lookup(vreinterpretq_u8_u32(s), c->mask, c->plo, c->phi);
    uint8x16_t w = vaeseq_u8(vqtbl1q_u8(u, c->isr), k);
    uint8x16_t b = nib_lookup(w, c->mask, c->qlo, c->qhi);
    uint8x16_t y =
        veorq_u8(veorq_u8(b, vqtbl1q_u8(b, c->r8)), vreinterpretq_u8_u16(vrev32q_u16(vreinterpretq_u16_u8(b))));
    uint32x4_t y32 = vreinterpretq_u32_u8(y);
    uint32x4_t z = vsriq_n_u32(vshlq_n_u32(y32, 2), y32, 30);
    return veorq_u32(vreinterpretq_u32_u8(veorq_u8(b, vqtbl1q_u8(b, c->r24))), z);
}

FS2_A64_INLINE uint8x16_t aes_key(const aes_ctx *c, int i)
{
    return vreinterpretq_u8_u32(vld1q_dup_u32(c->kp + i));
}

/* 32 rounds on G groups (x[4 g + j]: word j of group g): the tails of
 * fewer than 8 blocks and the one-block chains. */
#define AES_ROUNDS(c, x, G)                                                    \
    do {                                                                       \
        for (int r_ = 0; r_ < 32; r_ += 4) {                                   \
            uint8x16_t k0_ = aes_key(c, r_), k1_ = aes_key(c, r_ + 1);         \
            uint8x16_t k2_ = aes_key(c, r_ + 2), k3_ = aes_key(c, r_ + 3);     \
            for (int g_ = 0; g_ < (G); g_++) {                                 \
                uint32x4_t *X_ = (x) + 4 * g_;                                 \
                uint32x4_t t_ = veorq_u32(X_[2], X_[3]);                       \
                X_[0] = veorq_u32(X_[0], aes_t(c, veorq_u32(t_, X_[1]), k0_)); \
                X_[1] = veorq_u32(X_[1], aes_t(c, veorq_u32(t_, X_[0]), k1_)); \
                t_ = veorq_u32(X_[0], X_[1]);                                  \
                X_[2] = veorq_u32(X_[2], aes_t(c, veorq_u32(t_, X_[3]), k2_)); \
                X_[3] = veorq_u32(X_[3], aes_t(c, veorq_u32(t_, X_[2]), k3_)); \
            }                                                                  \
        }                                                                      \
    } while (0)

/* ---- the 8-block loops of ECB and CTR as inline assembly --------------
 * (GCC's allocation of the two-group rounds above spilled: 207
 * instructions a CTR block against these loops' 196). Registers:
 *   v16-v23  mask 0x0F, PRE's linear lookups (lo, hi), POST's (lo, hi),
 *            inv_sr, rot8, rot24: aes_ctx's first eight vectors
 *   v24      PRE(rk_i) of the round (LD1R from aes_ctx.kp)
 *   v0-v3, v4-v7  the words of groups A and B (two groups in flight)
 *   v8-v11, v12-v15  their temporaries: s (the S-box input, then B), b,
 *            c, d (the XOR shared by two rounds); also the data and the
 *            output at the ends. */
#define AG_A              "v0", "v1", "v2", "v3", "v8", "v9", "v10", "v11"
#define AG_B              "v4", "v5", "v6", "v7", "v12", "v13", "v14", "v15"
/* T into Xd with s the S-box input (b, c temporaries); each line a macro
 * applied to both groups in turn: (Xd, s, b, c) */
#define AT01(Xd, s, b, c) "and " b ".16b, " s ".16b, v16.16b\n"
#define AT02(Xd, s, b, c) "ushr " s ".16b, " s ".16b, #4\n"
#define AT03(Xd, s, b, c) "tbl " b ".16b, {v17.16b}, " b ".16b\n"
#define AT04(Xd, s, b, c) "tbl " s ".16b, {v18.16b}, " s ".16b\n"
#define AT05(Xd, s, b, c) "eor " s ".16b, " s ".16b, " b ".16b\n"
#define AT06(Xd, s, b, c) "tbl " s ".16b, {" s ".16b}, v21.16b\n"
#define AT07(Xd, s, b, c) "aese " s ".16b, v24.16b\n"
#define AT08(Xd, s, b, c) "and " b ".16b, " s ".16b, v16.16b\n"
#define AT09(Xd, s, b, c) "ushr " s ".16b, " s ".16b, #4\n"
#define AT10(Xd, s, b, c) "tbl " b ".16b, {v19.16b}, " b ".16b\n"
#define AT11(Xd, s, b, c) "tbl " s ".16b, {v20.16b}, " s ".16b\n"
#define AT12(Xd, s, b, c) "eor " s ".16b, " s ".16b, " b ".16b\n"
#define AT13(Xd, s, b, c) "tbl " b ".16b, {" s ".16b}, v22.16b\n"
#define AT14(Xd, s, b, c) "rev32 " c ".8h, " s ".8h\n"
#define AT15(Xd, s, b, c) "eor " b ".16b, " b ".16b, " s ".16b\n"
#define AT16(Xd, s, b, c) "eor " b ".16b, " b ".16b, " c ".16b\n"
#define AT17(Xd, s, b, c) "tbl " c ".16b, {" s ".16b}, v23.16b\n"
#define AT18(Xd, s, b, c) "eor " Xd ".16b, " Xd ".16b, " s ".16b\n"
#define AT19(Xd, s, b, c) "eor " Xd ".16b, " Xd ".16b, " c ".16b\n"
#define AT20(Xd, s, b, c) "shl " c ".4s, " b ".4s, #2\n"
#define AT21(Xd, s, b, c) "sri " c ".4s, " b ".4s, #30\n"
#define AT22(Xd, s, b, c) "eor " Xd ".16b, " Xd ".16b, " c ".16b\n"
#define AT2(A, B)                                                                                                     \
    AT01 A AT01 B AT02 A AT02 B AT03 A AT03 B AT04 A AT04 B AT05 A AT05 B AT06 A AT06 B AT07 A AT07 B AT08 A AT08 B   \
        AT09 A AT09 B AT10 A AT10 B AT11 A AT11 B AT12 A AT12 B AT13 A AT13 B AT14 A AT14 B AT15 A AT15 B AT16 A AT16 \
            B AT17 A AT17 B AT18 A AT18 B AT19 A AT19 B AT20 A AT20 B AT21 A AT21 B AT22 A AT22 B
#define AXOR(d, a, b)                   "eor " d ".16b, " a ".16b, " b ".16b\n"
#define AKEY                            "ld1r {v24.4s}, [%[kp]], #4\n"
/* the four rounds i..i+3 on a group (X0..X3, s, b, c, d): which word each
 * round updates, and the S-box input d ^ (the word d lacks) */
#define AR0(X0, X1, X2, X3, s, b, c, d) AXOR(d, X2, X3) AXOR(s, d, X1)
#define AR1(X0, X1, X2, X3, s, b, c, d) AXOR(s, d, X0)
#define AR2(X0, X1, X2, X3, s, b, c, d) AXOR(d, X0, X1) AXOR(s, d, X3)
#define AR3(X0, X1, X2, X3, s, b, c, d) AXOR(s, d, X2)
#define AD0(X0, X1, X2, X3, s, b, c, d) (X0, s, b, c)
#define AD1(X0, X1, X2, X3, s, b, c, d) (X1, s, b, c)
#define AD2(X0, X1, X2, X3, s, b, c, d) (X2, s, b, c)
#define AD3(X0, X1, X2, X3, s, b, c, d) (X3, s, b, c)
#define AEXP(m, args)                   m args
#define AROUND(R, D)                    AKEY AEXP(R, (AG_A)) AEXP(R, (AG_B)) AEXP(AT2, (AEXP(D, (AG_A)), AEXP(D, (AG_B))))
#define AROUNDS4                        AROUND(AR0, AD0) AROUND(AR1, AD1) AROUND(AR2, AD2) AROUND(AR3, AD3)
#define AROUNDS32                       AROUNDS4 AROUNDS4 AROUNDS4 AROUNDS4 AROUNDS4 AROUNDS4 AROUNDS4 AROUNDS4 "sub %[kp], %[kp], #128\n"
#define ASETUP                                                  \
    "ld1 {v16.16b, v17.16b, v18.16b, v19.16b}, [%[cst]], #64\n" \
    "ld1 {v20.16b, v21.16b, v22.16b, v23.16b}, [%[cst]]\n"
#define AREV(d, x) "rev32 " d ".16b, " x ".16b\n"
/* clause 7.1's R of groups A and B: X35..X32 byte-swapped into v8-v11 and
 * v12-v15 (for ST4) */
#define AOUT_A     AREV("v8", "v3") AREV("v9", "v2") AREV("v10", "v1") AREV("v11", "v0")
#define AOUT_B     AREV("v12", "v7") AREV("v13", "v6") AREV("v14", "v5") AREV("v15", "v4")
#define ACLOBBERS                                                                                                  \
    "memory", "cc", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", \
        "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29",   \
        "v30", "v31"

/* ECB on nb blocks (a multiple of 8, > 0). */
FS2_A64_TARGET static void aes_ecb8_asm(const aes_ctx *c, unsigned char *out, const unsigned char *in, size_t nb)
{
    const void *cst = c;
    const uint32_t *kp = c->kp;
    /* clang-format off */
    __asm__ volatile(
        ASETUP
        "1:\n"
        "ld4 {v8.4s, v9.4s, v10.4s, v11.4s}, [%[in]], #64\n"
        "ld4 {v12.4s, v13.4s, v14.4s, v15.4s}, [%[in]], #64\n"
        AREV("v0", "v8") AREV("v1", "v9") AREV("v2", "v10") AREV("v3", "v11")
        AREV("v4", "v12") AREV("v5", "v13") AREV("v6", "v14") AREV("v7", "v15")
        AROUNDS32
        AOUT_A AOUT_B
        "st4 {v8.4s, v9.4s, v10.4s, v11.4s}, [%[out]], #64\n"
        "st4 {v12.4s, v13.4s, v14.4s, v15.4s}, [%[out]], #64\n"
        "subs %[n], %[n], #8\n"
        "b.ne 1b\n"
        : [in] "+r"(in), [out] "+r"(out), [n] "+r"(nb), [kp] "+r"(kp), [cst] "+r"(cst)
        :
        : ACLOBBERS);
    /* clang-format on */
}

/* CTR: the counter blocks of groups A and B from v25-v28 (v28 advances),
 * and the key stream of a group XORed into four blocks of data */
#define ACTR_WORDS(X0, X1, X2, X3) \
    "mov " X0 ".16b, v25.16b\n"    \
    "mov " X1 ".16b, v26.16b\n"    \
    "mov " X2 ".16b, v27.16b\n"    \
    "mov " X3 ".16b, v28.16b\n"    \
    "add v28.4s, v28.4s, v29.4s\n"
#define ACTR_XOR(OUT, k0, k1, k2, k3, d0, d1, d2, d3)                                                        \
    "ld4 {" d0 ".4s, " d1 ".4s, " d2 ".4s, " d3 ".4s}, [%[in]], #64\n" OUT AXOR(k0, k0, d0) AXOR(k1, k1, d1) \
        AXOR(k2, k2, d2) AXOR(k3, k3, d3) "st4 {" k0 ".4s, " k1 ".4s, " k2 ".4s, " k3 ".4s}, [%[out]], #64\n"

/* CTR on nb blocks (a multiple of 8, > 0); ctrv: the counter's words w0,
 * w1, w2 in every lane and w3 + {0, 1, 2, 3} (v25-v28; v29 = 4). */
FS2_A64_TARGET static void aes_ctr8_asm(const aes_ctx *c, unsigned char *out, const unsigned char *in, size_t nb,
                                        const uint32x4_t ctrv[4])
{
    const void *cst = c;
    const uint32_t *kp = c->kp;
    /* clang-format off */
    __asm__ volatile(
        ASETUP
        "ld1 {v25.4s, v26.4s, v27.4s, v28.4s}, [%[ctrv]]\n"
        "movi v29.4s, #4\n"
        "1:\n"
        ACTR_WORDS("v0", "v1", "v2", "v3")
        ACTR_WORDS("v4", "v5", "v6", "v7")
        AROUNDS32
        ACTR_XOR(AOUT_A, "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15")
        ACTR_XOR(AOUT_B, "v12", "v13", "v14", "v15", "v8", "v9", "v10", "v11")
        "subs %[n], %[n], #8\n"
        "b.ne 1b\n"
        : [in] "+r"(in), [out] "+r"(out), [n] "+r"(nb), [kp] "+r"(kp), [cst] "+r"(cst)
        : [ctrv] "r"(ctrv)
        : ACLOBBERS);
    /* clang-format on */
}

/* Four blocks in, transposed (words as numbers); and out, in the order of
 * clause 7.1's R (X35, X34, X33, X32), byte-swapped for storing. */
FS2_A64_INLINE void group_in(uint32x4_t x[4], const unsigned char *p)
{
    uint32x4x4_t v = vld4q_u32((const uint32_t *)(const void *)p);
    x[0] = vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(v.val[0])));
    x[1] = vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(v.val[1])));
    x[2] = vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(v.val[2])));
    x[3] = vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(v.val[3])));
}

FS2_A64_INLINE uint32x4x4_t group_res(const uint32x4_t x[4])
{
    uint32x4x4_t v;
    v.val[0] = vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(x[3])));
    v.val[1] = vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(x[2])));
    v.val[2] = vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(x[1])));
    v.val[3] = vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(x[0])));
    return v;
}

FS2_A64_INLINE void group_out(unsigned char *p, const uint32x4_t x[4])
{
    vst4q_u32((uint32_t *)(void *)p, group_res(x));
}

/* m < 4 blocks through a zeroed group buffer (the count is public). */
FS2_A64_INLINE void part_load(unsigned char buf[64], const unsigned char *p, size_t m)
{
    memset(buf, 0, 64);
    memcpy(buf, p, 16 * m);
}

/* ECB on whole groups of the n blocks at in (8, then 4); returns how many
 * blocks it did. */
FS2_A64_TARGET static size_t aes_ecb_groups(const aes_ctx *c, unsigned char *out, const unsigned char *in, size_t n)
{
    size_t done = n & ~(size_t)7;
    if (done > 0)
        aes_ecb8_asm(c, out, in, done);
    if (n - done >= 4) {
        uint32x4_t x[4];
        group_in(x, in + 16 * done);
        AES_ROUNDS(c, x, 1);
        group_out(out + 16 * done, x);
        done += 4;
    }
    return done;
}

FS2_A64_TARGET static void aes_blocks(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n)
{
    aes_ctx c;
    if (n == 0)
        return;
    aes_setup(&c, rk);
    size_t done = aes_ecb_groups(&c, out, in, n);
    if (done < n) {
        unsigned char buf[64];
        uint32x4_t x[4];
        part_load(buf, in + 16 * done, n - done);
        group_in(x, buf);
        AES_ROUNDS(&c, x, 1);
        group_out(buf, x);
        memcpy(out + 16 * done, buf, 16 * (n - done));
        fs2_wipe(buf, sizeof buf);
    }
    fs2_wipe(&c, sizeof c);
}

/* Counter mode on one group: counter words w0..w2 (every block), w3 + {0,
 * 1, 2, 3} as the last word; m blocks of in XOR the key stream into out. */
FS2_A64_INLINE void ctr_words(uint32x4_t x[4], const uint32x4_t w[3], uint32x4_t last)
{
    x[0] = w[0];
    x[1] = w[1];
    x[2] = w[2];
    x[3] = last;
}

FS2_A64_INLINE void xor_out(unsigned char *out, const unsigned char *in, const uint32x4_t x[4])
{
    uint32x4x4_t k = group_res(x), d = vld4q_u32((const uint32_t *)(const void *)in);
    for (int j = 0; j < 4; j++)
        d.val[j] = veorq_u32(d.val[j], k.val[j]);
    vst4q_u32((uint32_t *)(void *)out, d);
}

/* ctr32 over n blocks with the context made (shared with GCM). */
FS2_A64_TARGET static void aes_ctr_run(const aes_ctx *c, unsigned char *out, const unsigned char *in, size_t n,
                                       const unsigned char ctr[16])
{
    uint32x4_t w[3];
    for (int j = 0; j < 3; j++)
        w[j] = vdupq_n_u32(fs2_load32_be(ctr + 4 * j));
    const uint32x4_t lane = {0, 1, 2, 3}, four = vdupq_n_u32(4);
    uint32x4_t last = vaddq_u32(vdupq_n_u32(fs2_load32_be(ctr + 12)), lane);
    size_t nb = n & ~(size_t)7;
    if (nb > 0) {
        const uint32x4_t ctrv[4] = {w[0], w[1], w[2], last};
        aes_ctr8_asm(c, out, in, nb, ctrv);
        last = vaddq_u32(last, vdupq_n_u32((uint32_t)nb));
        in += 16 * nb;
        out += 16 * nb;
        n -= nb;
    }
    while (n > 0) {
        size_t m = n < 4 ? n : 4;
        uint32x4_t x[4];
        ctr_words(x, w, last);
        last = vaddq_u32(last, four);
        AES_ROUNDS(c, x, 1);
        if (m == 4) {
            xor_out(out, in, x);
        } else {
            unsigned char buf[64];
            part_load(buf, in, m);
            xor_out(buf, buf, x);
            memcpy(out, buf, 16 * m);
            fs2_wipe(buf, sizeof buf);
        }
        in += 16 * m;
        out += 16 * m;
        n -= m;
    }
}

FS2_A64_TARGET static void aes_ctr32(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                                     const unsigned char ctr[16])
{
    aes_ctx c;
    if (n == 0)
        return;
    aes_setup(&c, rk);
    aes_ctr_run(&c, out, in, n, ctr);
    fs2_wipe(&c, sizeof c);
}

/* One block in lane 0 of a group (a chain: CBC encryption, CBC-MAC). */
FS2_A64_INLINE uint8x16_t aes_one(const aes_ctx *c, uint8x16_t b)
{
    uint32x4_t v = vreinterpretq_u32_u8(vrev32q_u8(b)), x[4];
    const uint32x4_t zero = vdupq_n_u32(0);
    x[0] = vcopyq_laneq_u32(zero, 0, v, 0);
    x[1] = vcopyq_laneq_u32(zero, 0, v, 1);
    x[2] = vcopyq_laneq_u32(zero, 0, v, 2);
    x[3] = vcopyq_laneq_u32(zero, 0, v, 3);
    AES_ROUNDS(c, x, 1);
    uint32x4_t r = vcopyq_laneq_u32(zero, 0, x[3], 0);
    r = vcopyq_laneq_u32(r, 1, x[2], 0);
    r = vcopyq_laneq_u32(r, 2, x[1], 0);
    r = vcopyq_laneq_u32(r, 3, x[0], 0);
    return vrev32q_u8(vreinterpretq_u8_u32(r));
}

FS2_A64_TARGET static void aes_cbc_enc(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                                       unsigned char iv[16])
{
    aes_ctx c;
    if (n == 0)
        return;
    aes_setup(&c, rk);
    uint8x16_t v = vld1q_u8(iv);
    for (; n > 0; n--, in += 16, out += 16) {
        v = aes_one(&c, veorq_u8(v, vld1q_u8(in)));
        vst1q_u8(out, v);
    }
    vst1q_u8(iv, v);
    fs2_wipe(&c, sizeof c);
}

FS2_A64_TARGET static void aes_cbc_mac(const uint32_t rk[32], unsigned char mac[16], const unsigned char *in, size_t n)
{
    aes_ctx c;
    if (n == 0)
        return;
    aes_setup(&c, rk);
    uint8x16_t v = vld1q_u8(mac);
    for (; n > 0; n--, in += 16)
        v = aes_one(&c, veorq_u8(v, vld1q_u8(in)));
    vst1q_u8(mac, v);
    fs2_wipe(&c, sizeof c);
}

FS2_A64_TARGET static void aes_cbc_dec(const uint32_t rkd[32], unsigned char *out, const unsigned char *in, size_t n,
                                       unsigned char iv[16])
{
    aes_ctx c;
    unsigned char p[128], last[16];
    if (n == 0)
        return;
    aes_setup(&c, rkd);
    while (n > 0) {
        size_t m = n < 8 ? n : 8;
        /* decrypt into p, then XOR the previous ciphertexts (read before
         * an in-place store overwrites them) */
        size_t done = aes_ecb_groups(&c, p, in, m);
        if (done < m) {
            unsigned char buf[64];
            uint32x4_t x[4];
            part_load(buf, in + 16 * done, m - done);
            group_in(x, buf);
            AES_ROUNDS(&c, x, 1);
            group_out(p + 16 * done, x);
            fs2_wipe(buf, sizeof buf);
        }
        memcpy(last, in + 16 * (m - 1), 16);
        for (size_t i = m - 1; i > 0; i--)
            vst1q_u8(out + 16 * i, veorq_u8(vld1q_u8(p + 16 * i), vld1q_u8(in + 16 * (i - 1))));
        vst1q_u8(out, veorq_u8(vld1q_u8(p), vld1q_u8(iv)));
        memcpy(iv, last, 16);
        in += 16 * m;
        out += 16 * m;
        n -= m;
    }
    fs2_wipe(p, sizeof p);
    fs2_wipe(&c, sizeof c);
}

/* XTS's tweaks times alpha: as in sm4_aarch64_sm4e.c (IEEE: the
 * little-endian number; GB: the big-endian one, halves swapped). */
FS2_A64_INLINE uint64x2_t xts_mul_alpha_ieee(uint64x2_t t)
{
    const uint64x2_t red = {0x87, 1};
    uint64x2_t m = vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_u64(t), 63));
    return veorq_u64(vshlq_n_u64(t, 1), vandq_u64(vextq_u64(m, m, 1), red));
}

FS2_A64_INLINE uint64x2_t xts_mul_alpha_gb(uint64x2_t t)
{
    const uint64x2_t red = {0xE1ULL << 56, 1ULL << 63};
    uint64x2_t m = vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_u64(vshlq_n_u64(t, 63)), 63));
    return veorq_u64(vshrq_n_u64(t, 1), vandq_u64(vextq_u64(m, m, 1), red));
}

FS2_A64_TARGET static void aes_xts(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                                   unsigned char tw[16], int standard)
{
    aes_ctx c;
    unsigned char t[128], x[128];
    if (n == 0)
        return;
    aes_setup(&c, rk);
    const int gb = standard == FS2_XTS_GB; /* public */
    uint8x16_t tb = vld1q_u8(tw);
    uint64x2_t tv = vreinterpretq_u64_u8(gb ? vrev64q_u8(tb) : tb);
    while (n > 0) {
        size_t m = n < 8 ? n : 8;
        for (size_t i = 0; i < m; i++) {
            vst1q_u8(t + 16 * i, tb);
            vst1q_u8(x + 16 * i, veorq_u8(vld1q_u8(in + 16 * i), tb));
            tv = gb ? xts_mul_alpha_gb(tv) : xts_mul_alpha_ieee(tv);
            tb = gb ? vrev64q_u8(vreinterpretq_u8_u64(tv)) : vreinterpretq_u8_u64(tv);
        }
        size_t done = aes_ecb_groups(&c, x, x, m);
        if (done < m) {
            uint32x4_t s[4];
            memset(x + 16 * m, 0, 16 * (8 - m));
            group_in(s, x + 16 * done);
            AES_ROUNDS(&c, s, 1);
            group_out(x + 16 * done, s);
        }
        for (size_t i = 0; i < m; i++)
            vst1q_u8(out + 16 * i, veorq_u8(vld1q_u8(x + 16 * i), vld1q_u8(t + 16 * i)));
        in += 16 * m;
        out += 16 * m;
        n -= m;
    }
    vst1q_u8(tw, tb);
    fs2_wipe(t, sizeof t);
    fs2_wipe(x, sizeof x);
    fs2_wipe(&c, sizeof c);
}

/* GCM's bulk: counter mode and GHASH over pieces of GCM_PIECE blocks (the
 * ciphertext hashed while it is in the cache; before an in-place
 * decryption overwrites it). */
#define GCM_PIECE 64

FS2_A64_TARGET static void aes_gcm(const fs2_sm4_key *key, unsigned char *out, const unsigned char *in, size_t n,
                                   const unsigned char ctr[16], uint64_t xi[2], int enc)
{
    aes_ctx c;
    fs2_a64_ghash_tab t;
    uint64x2_t tab[12];
    unsigned char cb[16];
    if (n == 0)
        return;
    aes_setup(&c, key->rk);
    fs2_a64_ghash_prep(&t, key->hpow, n < 8 ? n : 8);
    if (n >= 8)
        fs2_a64_tab_make(tab, &t);
    memcpy(cb, ctr, 16);
    while (n > 0) {
        size_t m = n < GCM_PIECE ? n : GCM_PIECE;
        if (!enc)
            fs2_a64_ghash_with(&t, tab, xi, in, m);
        aes_ctr_run(&c, out, in, m, cb);
        if (enc)
            fs2_a64_ghash_with(&t, tab, xi, out, m);
        fs2_store32_be(cb + 12, fs2_load32_be(cb + 12) + (uint32_t)m);
        in += 16 * m;
        out += 16 * m;
        n -= m;
    }
    fs2_wipe(&t, sizeof t);
    fs2_wipe(tab, sizeof tab);
    fs2_wipe(&c, sizeof c);
    fs2_wipe(cb, sizeof cb);
}

const fs2_sm4_ops fs2_sm4_ops_armv8_aes = {
    .name = "armv8-aes",
    .cpu_needs = FS2_CPU_ARM_ASIMD | FS2_CPU_ARM_AES | FS2_CPU_ARM_PMULL,
    .blocks = aes_blocks,
    .ctr32 = aes_ctr32,
    .cbc_enc = aes_cbc_enc,
    .cbc_dec = aes_cbc_dec,
    .cbc_mac = aes_cbc_mac,
    .xts = aes_xts,
    .ghash = fs2_a64_ghash,
    .gcm = aes_gcm,
};

#endif
