/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The scalar SM3 compression (GB/T 32905 5.3.2 - 5.3.3) as an always-inline
 * body, so that one source gives the portable function (sm3_generic.c) and the x86
 * BMI2 one (sm3_x86.c, compiled with target("bmi2"): every rotation becomes
 * a non-destructive RORX, which saves the register copies that ROL needs).
 *
 * Shape of the compression:
 *  - the 68 words W_j of the message expansion go into a small array, W_16
 *    .. W_67 computed four at a time between the rounds that need them;
 *    W'_j = W_j ^ W_{j+4} is formed inside the round (no W' array);
 *  - the 64 rounds are unrolled by macro, 4 rounds per step, and instead of
 *    moving the eight registers A..H at the end of each round the next round
 *    is called with the roles of the variables rotated (after 4 rounds they
 *    are back in place): a round writes only TT1 (into the variable that
 *    plays D, which becomes the new A), P0(TT2) (into H, the new E), and the
 *    rotations B <<< 9 and F <<< 19 in place;
 *  - the round constants T_j <<< (j mod 32) are a 64-entry table computed at
 *    compile time by a macro; the rounds index it with literals, so the
 *    compiler turns every entry into an immediate.
 * Constant time by construction: no branch and no memory index depends on
 * the message or the state.
 */
#ifndef FS2_SM3_SCALAR_H
#define FS2_SM3_SCALAR_H

#include "../internal.h"

#define FS2_ROTL32(x, n) ((uint32_t)((x) << ((n)&31)) | (uint32_t)((x) >> ((32 - ((n)&31)) & 31)))

/* GB/T 32905 4.2: T_j = 79CC4519 for 0 <= j <= 15, 7A879D8A for 16 <= j <= 63. */
#define FS2_SM3_T(j)   ((j) < 16 ? 0x79CC4519u : 0x7A879D8Au)
/* The round constant of round j: T_j <<< (j mod 32) (GB/T 32905 5.3.3). */
#define FS2_SM3_K(j)   FS2_ROTL32(FS2_SM3_T(j), (j) % 32)
#define FS2_SM3_K4(j)  FS2_SM3_K(j), FS2_SM3_K((j) + 1), FS2_SM3_K((j) + 2), FS2_SM3_K((j) + 3)
#define FS2_SM3_K16(j) FS2_SM3_K4(j), FS2_SM3_K4((j) + 4), FS2_SM3_K4((j) + 8), FS2_SM3_K4((j) + 12)

/* V(i+1) = ABCDEFGH xor V(i) (GB/T 32905 5.3.2), the working variables
 * reloaded with the new state for the next block. */
#define FS2_SM3_FEED_FORWARD(state) \
    do {                            \
        A = (state)[0] ^= A;        \
        B = (state)[1] ^= B;        \
        C = (state)[2] ^= C;        \
        D = (state)[3] ^= D;        \
        E = (state)[4] ^= E;        \
        F = (state)[5] ^= F;        \
        G = (state)[6] ^= G;        \
        H = (state)[7] ^= H;        \
    } while (0)

static const uint32_t fs2_sm3_k[64] = {
    FS2_SM3_K16(0),
    FS2_SM3_K16(16),
    FS2_SM3_K16(32),
    FS2_SM3_K16(48),
};

/* GB/T 32905 4.3 boolean functions and 4.4 permutations. */
#define FS2_FF0(x, y, z) ((x) ^ (y) ^ (z))
#define FS2_GG0(x, y, z) ((x) ^ (y) ^ (z))
#define FS2_FF1(x, y, z) (((x) & (y)) | (((x) | (y)) & (z))) /* majority */
#define FS2_GG1(x, y, z) ((((y) ^ (z)) & (x)) ^ (z))         /* x ? y : z */
#define FS2_P0(x)        ((x) ^ FS2_ROTL32((x), 9) ^ FS2_ROTL32((x), 17))
#define FS2_P1(x)        ((x) ^ FS2_ROTL32((x), 15) ^ FS2_ROTL32((x), 23))

/* FS2_SM3_PIN(x): an empty asm statement that makes x opaque, so that the
 * compiler cannot reassociate the sums of the round. Without it GCC adds
 * the round's late inputs (the new A and E of the previous round) early and
 * the precomputable terms after them, which lengthens the two dependency
 * chains that bound one SM3 stream. With it, each chain link is one step:
 * E enters through ak + E, and SS1 through one last addition each into
 * TT1 and TT2. No instruction is emitted. */
#if defined(__GNUC__)
#define FS2_SM3_PIN(x) __asm__("" : "+r"(x))
#else
#define FS2_SM3_PIN(x) ((void)0)
#endif

/* One round j with the registers in the roles a..h. Afterwards the roles
 * are (d, a, b, c, h, e, f, g): d holds the new A and h the new E. */
#define FS2_SM3_ROUND(FF, GG, a, b, c, d, e, f, g, h, j) \
    do {                                                 \
        uint32_t a12_ = FS2_ROTL32(a, 12);               \
        uint32_t ak_ = a12_ + fs2_sm3_k[j];              \
        uint32_t dw_ = (d) + (w[j] ^ w[(j) + 4]);        \
        uint32_t hw_ = (h) + w[j];                       \
        FS2_SM3_PIN(ak_);                                \
        FS2_SM3_PIN(dw_);                                \
        FS2_SM3_PIN(hw_);                                \
        uint32_t ss1_ = FS2_ROTL32(ak_ + (e), 7);        \
        uint32_t t1_ = FF(a, b, c) + dw_;                \
        uint32_t t2_ = GG(e, f, g) + hw_;                \
        FS2_SM3_PIN(t1_);                                \
        FS2_SM3_PIN(t2_);                                \
        b = FS2_ROTL32(b, 9);                            \
        f = FS2_ROTL32(f, 19);                           \
        d = t1_ + (ss1_ ^ a12_);                         \
        h = FS2_P0(t2_ + ss1_);                          \
    } while (0)

/* Four rounds j..j+3; the roles come back to (A, ..., H). */
#define FS2_SM3_ROUND4(FF, GG, j)                               \
    do {                                                        \
        FS2_SM3_ROUND(FF, GG, A, B, C, D, E, F, G, H, (j));     \
        FS2_SM3_ROUND(FF, GG, D, A, B, C, H, E, F, G, (j) + 1); \
        FS2_SM3_ROUND(FF, GG, C, D, A, B, G, H, E, F, (j) + 2); \
        FS2_SM3_ROUND(FF, GG, B, C, D, A, F, G, H, E, (j) + 3); \
    } while (0)

/* The same for j >= 12, expanding W_{j+4} .. W_{j+7} (needed by W'_j ..
 * W'_{j+3}) just before: the expansion is interleaved with the rounds as
 * scalar code with literal indices. (A separate expansion loop gets
 * auto-vectorized 2 words wide by GCC 12, whose 8-byte loads of W_{j-3}
 * then straddle two earlier stores and miss store forwarding on every
 * step: the whole compression ran 2.5x slower.) */
#define FS2_SM3_EXPAND_ROUND4(FF, GG, j) \
    do {                                 \
        FS2_SM3_EXPAND((j) + 4);         \
        FS2_SM3_EXPAND((j) + 5);         \
        FS2_SM3_EXPAND((j) + 6);         \
        FS2_SM3_EXPAND((j) + 7);         \
        FS2_SM3_ROUND4(FF, GG, j);       \
    } while (0)

/* GB/T 32905 5.3.2 message expansion: W_j for 16 <= j <= 67. */
#define FS2_SM3_EXPAND(j) \
    (w[j] = FS2_P1(w[(j)-16] ^ w[(j)-9] ^ FS2_ROTL32(w[(j)-3], 15)) ^ FS2_ROTL32(w[(j)-13], 7) ^ w[(j)-6])

static inline __attribute__((always_inline)) void
fs2_sm3_compress_scalar_body(uint32_t state[8], const unsigned char *blocks, size_t nblocks)
{
    uint32_t w[68];
    uint32_t A = state[0], B = state[1], C = state[2], D = state[3];
    uint32_t E = state[4], F = state[5], G = state[6], H = state[7];

    while (nblocks--) {
        for (int j = 0; j < 16; j++)
            w[j] = fs2_load32_be(blocks + 4 * j);

        FS2_SM3_ROUND4(FS2_FF0, FS2_GG0, 0);
        FS2_SM3_ROUND4(FS2_FF0, FS2_GG0, 4);
        FS2_SM3_ROUND4(FS2_FF0, FS2_GG0, 8);
        FS2_SM3_EXPAND_ROUND4(FS2_FF0, FS2_GG0, 12);
        FS2_SM3_EXPAND_ROUND4(FS2_FF1, FS2_GG1, 16);
        FS2_SM3_EXPAND_ROUND4(FS2_FF1, FS2_GG1, 20);
        FS2_SM3_EXPAND_ROUND4(FS2_FF1, FS2_GG1, 24);
        FS2_SM3_EXPAND_ROUND4(FS2_FF1, FS2_GG1, 28);
        FS2_SM3_EXPAND_ROUND4(FS2_FF1, FS2_GG1, 32);
        FS2_SM3_EXPAND_ROUND4(FS2_FF1, FS2_GG1, 36);
        FS2_SM3_EXPAND_ROUND4(FS2_FF1, FS2_GG1, 40);
        FS2_SM3_EXPAND_ROUND4(FS2_FF1, FS2_GG1, 44);
        FS2_SM3_EXPAND_ROUND4(FS2_FF1, FS2_GG1, 48);
        FS2_SM3_EXPAND_ROUND4(FS2_FF1, FS2_GG1, 52);
        FS2_SM3_EXPAND_ROUND4(FS2_FF1, FS2_GG1, 56);
        FS2_SM3_EXPAND_ROUND4(FS2_FF1, FS2_GG1, 60);

        FS2_SM3_FEED_FORWARD(state);
        blocks += 64;
    }
    fs2_wipe(w, sizeof w);
}

#endif
