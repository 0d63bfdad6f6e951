/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Multi-buffer SM3 compression (GB/T 32905 5.3.2 - 5.3.3), one 32-bit lane
 * per message, written once over a small set of vector operations and
 * included by sm3_x86.c for each vector width (and by sm3_aarch64.c for
 * NEON); the function it defines is static. The includer defines:
 *   FS2_V            the vector type (one SM3 word per lane)
 *   FS2_VN           the number of lanes
 *   FS2_VTARGET      the function attribute (target("..."))
 *   FS2_VADD(a, b), FS2_VXOR(a, b), FS2_VROTL(a, n), FS2_VSET1(k)
 *   FS2_VXOR3(a, b, c)  a ^ b ^ c
 *   FS2_VMAJ(a, b, c)   FF_j for 16 <= j <= 63 (majority)
 *   FS2_VCH(a, b, c)    GG_j for 16 <= j <= 63 ((a & b) | (~a & c))
 *   FS2_VROTL8(a)       optional: a <<< 8 in one instruction
 *   FS2_VLOAD_BLOCKS(w, blocks, off)  w[0..15] = the big-endian words of the
 *                       block at blocks[i] + off, lane i (a transpose)
 *   FS2_VNAME        the function's name
 *
 * Shape: the 16 words of each lane's block are transposed into 16 vectors
 * (word j of every lane in one register), W_16 .. W_67 are expanded four at
 * a time just before the rounds that use them, and the rounds are the scalar
 * code's with each operation a vector one (the register roles rotate as in
 * sm3_scalar.h, so there are no moves). The chaining values go in and out
 * through a small transposed copy once per call, not once per block.
 *
 * Constant time: straight-line vector code; no branch or memory index
 * depends on a message or a state. The only branch is the block count.
 */

/* GB/T 32905 4.4 on vectors. Where a rotation costs three instructions
 * (AVX2) and a rotation by 8 one byte shuffle, the includer defines
 * FS2_VROTL8 and P1 shares one rotation: (x <<< 15) ^ (x <<< 23) =
 * (x ^ (x <<< 8)) <<< 15. P0, which is on the rounds' critical path, keeps
 * its two rotations independent (one step shorter, two shifts more). */
#ifdef FS2_VROTL8
#define FS2_VP0(x) FS2_VXOR(FS2_VXOR((x), FS2_VROTL((x), 9)), FS2_VROTL((x), 17))
#define FS2_VP1(x) FS2_VXOR((x), FS2_VROTL(FS2_VXOR((x), FS2_VROTL8(x)), 15))
#else
#define FS2_VP0(x) FS2_VXOR3((x), FS2_VROTL((x), 9), FS2_VROTL((x), 17))
#define FS2_VP1(x) FS2_VXOR3((x), FS2_VROTL((x), 15), FS2_VROTL((x), 23))
#endif

/* FS2_VPIN(x) keeps the compiler from reassociating the sums below: the
 * order is chosen so that the values of the previous round (A, E) enter
 * last, through one addition each, and everything else is summed ahead. */
#ifndef FS2_VPIN
#define FS2_VPIN(x) ((void)0)
#endif

/* One round j with the registers in the roles a..h (see sm3_scalar.h). */
#define FS2_VROUND(FF, GG, a, b, c, d, e, f, g, h, j)        \
    do {                                                     \
        FS2_V a12_ = FS2_VROTL(a, 12);                       \
        FS2_V ak_ = FS2_VADD(a12_, FS2_VSET1(fs2_sm3_k[j])); \
        FS2_V dw_ = FS2_VADD(d, FS2_VXOR(w[j], w[(j) + 4])); \
        FS2_V hw_ = FS2_VADD(h, w[j]);                       \
        FS2_VPIN(ak_);                                       \
        FS2_VPIN(dw_);                                       \
        FS2_VPIN(hw_);                                       \
        FS2_V ss1_ = FS2_VROTL(FS2_VADD(ak_, e), 7);         \
        FS2_V t1_ = FS2_VADD(FF(a, b, c), dw_);              \
        FS2_V t2_ = FS2_VADD(GG(e, f, g), hw_);              \
        FS2_VPIN(t1_);                                       \
        FS2_VPIN(t2_);                                       \
        b = FS2_VROTL(b, 9);                                 \
        f = FS2_VROTL(f, 19);                                \
        d = FS2_VADD(t1_, FS2_VXOR(ss1_, a12_));             \
        h = FS2_VP0(FS2_VADD(t2_, ss1_));                    \
    } while (0)

#define FS2_VROUND4(FF, GG, j)                               \
    do {                                                     \
        FS2_VROUND(FF, GG, A, B, C, D, E, F, G, H, (j));     \
        FS2_VROUND(FF, GG, D, A, B, C, H, E, F, G, (j) + 1); \
        FS2_VROUND(FF, GG, C, D, A, B, G, H, E, F, (j) + 2); \
        FS2_VROUND(FF, GG, B, C, D, A, F, G, H, E, (j) + 3); \
    } while (0)

/* GB/T 32905 5.3.2 message expansion. */
#define FS2_VEXPAND(j)                                                                                           \
    (w[j] = FS2_VXOR3(FS2_VP1(FS2_VXOR3(w[(j)-16], w[(j)-9], FS2_VROTL(w[(j)-3], 15))), FS2_VROTL(w[(j)-13], 7), \
                      w[(j)-6]))

#define FS2_VEXPAND_ROUND4(FF, GG, j) \
    do {                              \
        FS2_VEXPAND((j) + 4);         \
        FS2_VEXPAND((j) + 5);         \
        FS2_VEXPAND((j) + 6);         \
        FS2_VEXPAND((j) + 7);         \
        FS2_VROUND4(FF, GG, j);       \
    } while (0)

static FS2_VTARGET void FS2_VNAME(uint32_t (*state)[8], const unsigned char *const *blocks, size_t nblocks)
{
    FS2_V w[68];
    uint32_t t[8][FS2_VN] __attribute__((aligned(64)));
    FS2_V A, B, C, D, E, F, G, H;
    FS2_V A0, B0, C0, D0, E0, F0, G0, H0;
    size_t off = 0;

    for (int l = 0; l < FS2_VN; l++)
        for (int i = 0; i < 8; i++)
            t[i][l] = state[l][i];
    A = A0 = *(const FS2_V *)t[0];
    B = B0 = *(const FS2_V *)t[1];
    C = C0 = *(const FS2_V *)t[2];
    D = D0 = *(const FS2_V *)t[3];
    E = E0 = *(const FS2_V *)t[4];
    F = F0 = *(const FS2_V *)t[5];
    G = G0 = *(const FS2_V *)t[6];
    H = H0 = *(const FS2_V *)t[7];

    while (nblocks--) {
        FS2_VLOAD_BLOCKS(w, blocks, off);
        off += 64;

        FS2_VROUND4(FS2_VXOR3, FS2_VXOR3, 0);
        FS2_VROUND4(FS2_VXOR3, FS2_VXOR3, 4);
        FS2_VROUND4(FS2_VXOR3, FS2_VXOR3, 8);
        FS2_VEXPAND_ROUND4(FS2_VXOR3, FS2_VXOR3, 12);
        /* Rounds 16..63 as a loop over 16 rounds: with all 64 unrolled
         * (about 20 KB of AVX2 code) the 8-lane version ran 3-5% slower on
         * Zen 5; the 16-lane one is the same either way. */
        for (int j = 16; j < 64; j += 16) {
            FS2_VEXPAND_ROUND4(FS2_VMAJ, FS2_VCH, j);
            FS2_VEXPAND_ROUND4(FS2_VMAJ, FS2_VCH, j + 4);
            FS2_VEXPAND_ROUND4(FS2_VMAJ, FS2_VCH, j + 8);
            FS2_VEXPAND_ROUND4(FS2_VMAJ, FS2_VCH, j + 12);
        }

        /* V(i+1) = ABCDEFGH xor V(i) */
        A = A0 = FS2_VXOR(A, A0);
        B = B0 = FS2_VXOR(B, B0);
        C = C0 = FS2_VXOR(C, C0);
        D = D0 = FS2_VXOR(D, D0);
        E = E0 = FS2_VXOR(E, E0);
        F = F0 = FS2_VXOR(F, F0);
        G = G0 = FS2_VXOR(G, G0);
        H = H0 = FS2_VXOR(H, H0);
    }

    *(FS2_V *)t[0] = A;
    *(FS2_V *)t[1] = B;
    *(FS2_V *)t[2] = C;
    *(FS2_V *)t[3] = D;
    *(FS2_V *)t[4] = E;
    *(FS2_V *)t[5] = F;
    *(FS2_V *)t[6] = G;
    *(FS2_V *)t[7] = H;
    for (int l = 0; l < FS2_VN; l++)
        for (int i = 0; i < 8; i++)
            state[l][i] = t[i][l];
    fs2_wipe(w, sizeof w);
    fs2_wipe(t, sizeof t);
}

#undef FS2_VP0
#undef FS2_VP1
#undef FS2_VROUND
#undef FS2_VROUND4
#undef FS2_VEXPAND
#undef FS2_VEXPAND_ROUND4
/* the parameters too, so that the next instantiation starts clean */
#undef FS2_V
#undef FS2_VN
#undef FS2_VTARGET
#undef FS2_VNAME
#undef FS2_VADD
#undef FS2_VXOR
#undef FS2_VROTL
#undef FS2_VSET1
#undef FS2_VXOR3
#undef FS2_VMAJ
#undef FS2_VCH
#undef FS2_VROTL8
#undef FS2_VPIN
#undef FS2_VLOAD_BLOCKS
