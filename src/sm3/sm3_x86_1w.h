/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One-stream SM3 compression for x86-64 (GB/T 32905 5.3.2 - 5.3.3), the
 * rounds in inline assembly (BMI2) and the message expansion in SIMD
 * registers, one block ahead. Included by sm3_x86.c once per SIMD flavour;
 * the includer defines
 *   FS2_1W_NAME          the function's name
 *   FS2_1W_TARGET        its target attribute string (always with "bmi2")
 *   FS2_1W_ROTL(x, n)    rotate the four 32-bit lanes of an __m128i left
 *   FS2_1W_XOR3(a, b, c) a ^ b ^ c on __m128i
 *
 * Why this shape (measured on AMD Zen 5, 8 KiB messages): the scalar C
 * compression runs out of integer ALUs, not latency: about 33 ALU
 * operations a round, a third of them the message expansion. Here
 *  - the expansion of block i+1 runs in XMM registers while the rounds of
 *    block i run on the integer units, into the other half of a two-block
 *    buffer (ping-pong). A block later the vector stores have long left the
 *    store queue, so the rounds' 32-bit loads do not wait on store
 *    forwarding from 128-bit stores (expanding the same block just ahead of
 *    its rounds, or copying between buffers, ran slower than plain C);
 *  - the rounds are written in assembly (26 integer operations a round), so
 *    that the compiler cannot reassociate the sums or add register copies,
 *    and GG1 starts before the new E is complete: the last round leaves
 *    E = y ^ z with y = x ^ (x <<< 9), z = x <<< 17 (x = TT2, so E = P0(x)),
 *    and GG1(E, F, G) = G ^ (E & (F ^ G)) is formed as
 *    G ^ (z & m) ^ (y & m), m = F ^ G, one step earlier than from E.
 * Four words of W per vector step: W_j+3 depends on W_j, so the step first
 * computes all four with W_j taken as zero in W_j+3, then adds the missing
 * term P1(W_j <<< 15) to lane 3 (P1 is linear over xor).
 *
 * Registers: A..H, y, z and two temporaries, twelve in all, so that the asm
 * still gets its operands in unoptimised builds that keep a frame pointer
 * (ASan). The asm reads only the W / W' buffer (the round constants are
 * immediates). Constant time: no branch or memory index depends on the
 * message or the state (the only branches are on the block count).
 */

/* Hand-laid inline assembly: its operand columns are kept as written. */
/* clang-format off */

#ifndef FS2_SM3_X86_1W_ROUNDS
#define FS2_SM3_X86_1W_ROUNDS

/* Buffer layout: W_0..W_67 at word 0, W'_0..W'_63 at word 68. */
#define FS2_1W_BUFW (68 + 64)

/* W_i and W'_i: the buffer's address is operand w (a register). */
#define FS2_1W_S_(x) #x
#define FS2_1W_W(i) FS2_1W_S_(4 * (i)) "(%q[w])"
#define FS2_1W_WP(i) FS2_1W_S_(4 * (68 + (i))) "(%q[w])"
#define FS2_1W_R(x) "%[" #x "]"

/* t0 = A <<< 12, t1 = SS1 = ((A <<< 12) + E + (T_j <<< j)) <<< 7; the
 * round constant is the immediate operand k (a signed 32-bit displacement). */
#define FS2_1W_HEAD(a, e, k)                                                                          \
    "rorx $20, " FS2_1W_R(a) ", %[t0]\n\t"                                                            \
    "lea %c[" #k "](%q[t0]), %[t1]\n\t"                                                               \
    "add " FS2_1W_R(e) ", %[t1]\n\t"                                                                  \
    "rorx $25, %[t1], %[t1]\n\t"

/* d = TT1 = FF + D + W'_j + (SS1 ^ A <<< 12), the new A; h = TT2 (GG + H +
 * W_j already in h) and then the new E = P0(TT2) = y ^ z; B <<<= 9,
 * F <<<= 19. */
#define FS2_1W_TAIL(ff, b, d, f, h, j)                                                                \
    "add " FS2_1W_WP(j) ", " FS2_1W_R(d) "\n\t"                                                       \
    "add " ff ", " FS2_1W_R(d) "\n\t"                                                                 \
    "xor %[t1], %[t0]\n\t"                                                                            \
    "add %[t0], " FS2_1W_R(d) "\n\t"                                                                  \
    "add %[t1], " FS2_1W_R(h) "\n\t"                                                                  \
    "rorx $23, " FS2_1W_R(h) ", %[y]\n\t"                                                             \
    "rorx $15, " FS2_1W_R(h) ", %[z]\n\t"                                                             \
    "xor " FS2_1W_R(h) ", %[y]\n\t"                                                                   \
    "mov %[y], " FS2_1W_R(h) "\n\t"                                                                   \
    "xor %[z], " FS2_1W_R(h) "\n\t"                                                                   \
    "rorx $23, " FS2_1W_R(b) ", " FS2_1W_R(b) "\n\t"                                                  \
    "rorx $13, " FS2_1W_R(f) ", " FS2_1W_R(f) "\n\t"

/* Rounds 0..15: FF0 = GG0 = x ^ y ^ z (y and z serve as temporaries). */
#define FS2_1W_ROUND0(a, b, c, d, e, f, g, h, j, k)                                                   \
    FS2_1W_HEAD(a, e, k)                                                                              \
    "mov " FS2_1W_R(f) ", %[y]\n\t"                                                                   \
    "xor " FS2_1W_R(g) ", %[y]\n\t"                                                                   \
    "xor " FS2_1W_R(e) ", %[y]\n\t"                                                                   \
    "add " FS2_1W_W(j) ", " FS2_1W_R(h) "\n\t"                                                        \
    "add %[y], " FS2_1W_R(h) "\n\t"                                                                   \
    "mov " FS2_1W_R(b) ", %[y]\n\t"                                                                   \
    "xor " FS2_1W_R(c) ", %[y]\n\t"                                                                   \
    "xor " FS2_1W_R(a) ", %[y]\n\t"                                                                   \
    FS2_1W_TAIL("%[y]", b, d, f, h, j)

/* Rounds 16..63: GG1 = g ^ (z & m) ^ (y & m), m = f ^ g (see above), and
 * FF1 = (a & (b ^ c)) ^ (b & c), the majority. */
#define FS2_1W_ROUND1(a, b, c, d, e, f, g, h, j, k)                                                   \
    "mov " FS2_1W_R(f) ", %[t0]\n\t"                                                                  \
    "xor " FS2_1W_R(g) ", %[t0]\n\t"                                                                  \
    "and %[t0], %[z]\n\t"                                                                             \
    "xor " FS2_1W_R(g) ", %[z]\n\t"                                                                   \
    "and %[t0], %[y]\n\t"                                                                             \
    "xor %[y], %[z]\n\t"                                                                              \
    "add " FS2_1W_W(j) ", " FS2_1W_R(h) "\n\t"                                                        \
    "add %[z], " FS2_1W_R(h) "\n\t"                                                                   \
    FS2_1W_HEAD(a, e, k)                                                                              \
    "mov " FS2_1W_R(b) ", %[y]\n\t"                                                                   \
    "xor " FS2_1W_R(c) ", %[y]\n\t"                                                                   \
    "and " FS2_1W_R(a) ", %[y]\n\t"                                                                   \
    "mov " FS2_1W_R(b) ", %[z]\n\t"                                                                   \
    "and " FS2_1W_R(c) ", %[z]\n\t"                                                                   \
    "xor %[z], %[y]\n\t"                                                                              \
    FS2_1W_TAIL("%[y]", b, d, f, h, j)

/* Four rounds; the register roles rotate as in sm3_scalar.h and are back in
 * place afterwards. */
#define FS2_1W_ROUND4(R, j)                                                                           \
    R(A, B, C, D, E, F, G, H, (j), k0)                                                                \
    R(D, A, B, C, H, E, F, G, (j) + 1, k1)                                                            \
    R(C, D, A, B, G, H, E, F, (j) + 2, k2)                                                            \
    R(B, C, D, A, F, G, H, E, (j) + 3, k3)

/* The "memory" clobber stands for the reads of cur[] (and keeps the
 * expansion's stores into the other half in program order around the
 * rounds, where they are interleaved on purpose). */
#define FS2_1W_KI(j) "i"((int32_t)FS2_SM3_K(j))
#define FS2_1W_ASM4(R, j)                                                                             \
    __asm__(FS2_1W_ROUND4(R, j)                                                                       \
            : [A] "+r"(A), [B] "+r"(B), [C] "+r"(C), [D] "+r"(D), [E] "+r"(E), [F] "+r"(F),           \
              [G] "+r"(G), [H] "+r"(H), [y] "+r"(y), [z] "+r"(z), [t0] "=&r"(t0), [t1] "=&r"(t1)       \
            : [w] "r"(cur), [k0] FS2_1W_KI(j), [k1] FS2_1W_KI((j) + 1), [k2] FS2_1W_KI((j) + 2),       \
              [k3] FS2_1W_KI((j) + 3)                                                                 \
            : "cc", "memory")

/* The first block's W and W' in scalar code, straight into buf: the rounds'
 * 32-bit loads then get their values by store forwarding, which they would
 * not from 128-bit stores just made (that cost about 700 cycles a call).
 * The empty asm keeps GCC from vectorizing the loops. */
static inline __attribute__((always_inline)) void fs2_1w_expand_scalar(uint32_t *w, const unsigned char *p)
{
    for (int j = 0; j < 16; j++) {
        uint32_t v = fs2_load32_be(p + 4 * j);
        __asm__("" : "+r"(v));
        w[j] = v;
    }
    for (int j = 16; j < 68; j++) {
        uint32_t x = w[j - 16] ^ w[j - 9] ^ FS2_ROTL32(w[j - 3], 15);
        uint32_t v = FS2_P1(x) ^ FS2_ROTL32(w[j - 13], 7) ^ w[j - 6];
        __asm__("" : "+r"(v));
        w[j] = v;
    }
    for (int j = 0; j < 64; j++) {
        uint32_t v = w[j] ^ w[j + 4];
        __asm__("" : "+r"(v));
        w[68 + j] = v;
    }
}

#endif /* FS2_SM3_X86_1W_ROUNDS */

/* ---- the expansion in the includer's SIMD flavour, and the function ---- */

/* X0..X3 hold W_{j-16} .. W_{j-1}; afterwards X0 holds W_j .. W_{j+3}.
 * Stores W_j .. W_j+3 and W'_{j-4} .. W'_{j-1} into nxt. */
#define FS2_1W_EXPAND(X0, X1, X2, X3, j)                                                              \
    do {                                                                                              \
        __m128i w9_ = _mm_alignr_epi8((X2), (X1), 12);                                                \
        __m128i w13_ = _mm_alignr_epi8((X1), (X0), 12);                                               \
        __m128i w6_ = _mm_alignr_epi8((X3), (X2), 8);                                                 \
        __m128i w3_ = _mm_srli_si128((X3), 4); /* W_{j-3}, W_{j-2}, W_{j-1}, 0 */                    \
        __m128i t_ = FS2_1W_XOR3((X0), w9_, FS2_1W_ROTL(w3_, 15));                                    \
        __m128i n_ = FS2_1W_XOR3(FS2_1W_ROTL(t_, 15), FS2_1W_ROTL(t_, 23), t_);                       \
        n_ = FS2_1W_XOR3(n_, FS2_1W_ROTL(w13_, 7), w6_);                                              \
        /* lane 3 += P1(W_j <<< 15) = (W_j <<< 15) ^ (W_j <<< 30) ^ (W_j <<< 6) */                   \
        __m128i u_ = _mm_slli_si128(n_, 12);                                                          \
        n_ = _mm_xor_si128(n_, FS2_1W_XOR3(FS2_1W_ROTL(u_, 15), FS2_1W_ROTL(u_, 30), FS2_1W_ROTL(u_, 6))); \
        _mm_store_si128((__m128i *)(nxt + (j)), n_);                                                  \
        _mm_store_si128((__m128i *)(nxt + 68 + (j)-4), _mm_xor_si128((X3), n_));                      \
        X0 = n_;                                                                                      \
    } while (0)

/* Step k (0..12) of the expansion into nxt: W_{16+4k} .. W_{19+4k}. */
#define FS2_1W_STEP(k)                                                                                \
    do {                                                                                              \
        switch ((k) & 3) {                                                                            \
        case 0: FS2_1W_EXPAND(X0, X1, X2, X3, 16 + 4 * (k)); break;                                   \
        case 1: FS2_1W_EXPAND(X1, X2, X3, X0, 16 + 4 * (k)); break;                                   \
        case 2: FS2_1W_EXPAND(X2, X3, X0, X1, 16 + 4 * (k)); break;                                   \
        default: FS2_1W_EXPAND(X3, X0, X1, X2, 16 + 4 * (k)); break;                                  \
        }                                                                                             \
    } while (0)

/* The block at p: W_0..W_15 (big-endian words) and W'_0..W'_11 into nxt. */
#define FS2_1W_LOAD(p)                                                                                \
    do {                                                                                              \
        const __m128i bs_ = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);     \
        X0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p)), bs_);                           \
        X1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)((p) + 16)), bs_);                    \
        X2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)((p) + 32)), bs_);                    \
        X3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)((p) + 48)), bs_);                    \
        _mm_store_si128((__m128i *)(nxt + 0), X0);                                                    \
        _mm_store_si128((__m128i *)(nxt + 4), X1);                                                    \
        _mm_store_si128((__m128i *)(nxt + 8), X2);                                                    \
        _mm_store_si128((__m128i *)(nxt + 12), X3);                                                   \
        _mm_store_si128((__m128i *)(nxt + 68 + 0), _mm_xor_si128(X0, X1));                            \
        _mm_store_si128((__m128i *)(nxt + 68 + 4), _mm_xor_si128(X1, X2));                            \
        _mm_store_si128((__m128i *)(nxt + 68 + 8), _mm_xor_si128(X2, X3));                            \
    } while (0)

__attribute__((target(FS2_1W_TARGET))) void FS2_1W_NAME(uint32_t state[8], const unsigned char *blocks,
                                                       size_t nblocks)
{
    uint32_t buf[2][FS2_1W_BUFW] __attribute__((aligned(16)));
    uint32_t A = state[0], B = state[1], C = state[2], D = state[3];
    uint32_t E = state[4], F = state[5], G = state[6], H = state[7];
    uint32_t y = 0, z = 0, t0, t1;
    uint32_t *cur = buf[0], *nxt = buf[0];
    __m128i X0, X1, X2, X3;

    if (nblocks == 0)
        return;
    fs2_1w_expand_scalar(buf[0], blocks);
    while (nblocks--) {
        /* The rounds read cur (this block); the vector unit expands the
         * next block (or this one again after the last) into nxt. */
        cur = nxt;
        nxt = cur == buf[0] ? buf[1] : buf[0];
        const unsigned char *p = blocks + (nblocks ? 64 : 0);
        FS2_1W_LOAD(p);
        FS2_1W_ASM4(FS2_1W_ROUND0, 0);
        FS2_1W_STEP(0);
        FS2_1W_ASM4(FS2_1W_ROUND0, 4);
        FS2_1W_STEP(1);
        FS2_1W_ASM4(FS2_1W_ROUND0, 8);
        FS2_1W_STEP(2);
        FS2_1W_ASM4(FS2_1W_ROUND0, 12);
        FS2_1W_STEP(3);
        FS2_1W_ASM4(FS2_1W_ROUND1, 16);
        FS2_1W_STEP(4);
        FS2_1W_ASM4(FS2_1W_ROUND1, 20);
        FS2_1W_STEP(5);
        FS2_1W_ASM4(FS2_1W_ROUND1, 24);
        FS2_1W_STEP(6);
        FS2_1W_ASM4(FS2_1W_ROUND1, 28);
        FS2_1W_STEP(7);
        FS2_1W_ASM4(FS2_1W_ROUND1, 32);
        FS2_1W_STEP(8);
        FS2_1W_ASM4(FS2_1W_ROUND1, 36);
        FS2_1W_STEP(9);
        FS2_1W_ASM4(FS2_1W_ROUND1, 40);
        FS2_1W_STEP(10);
        FS2_1W_ASM4(FS2_1W_ROUND1, 44);
        FS2_1W_STEP(11);
        FS2_1W_ASM4(FS2_1W_ROUND1, 48);
        FS2_1W_STEP(12);
        FS2_1W_ASM4(FS2_1W_ROUND1, 52);
        FS2_1W_ASM4(FS2_1W_ROUND1, 56);
        FS2_1W_ASM4(FS2_1W_ROUND1, 60);

        FS2_SM3_FEED_FORWARD(state);
        blocks += 64;
    }
    (void)t0;
    (void)t1;
    fs2_wipe(buf, sizeof buf);
}

#undef FS2_1W_EXPAND
#undef FS2_1W_STEP
#undef FS2_1W_LOAD
#undef FS2_1W_NAME
#undef FS2_1W_TARGET
#undef FS2_1W_ROTL
#undef FS2_1W_XOR3
/* clang-format on */
