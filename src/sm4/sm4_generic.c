/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The portable SM4 table (src/sm4/sm4_ops.h): GB/T 32907 bitsliced, 16
 * blocks per pass in 64-bit words, the reference every other table is
 * tested against.
 *
 * Layout of a pass: the state X0..X3 of 16 blocks is 4 x 8 bit planes;
 * plane j of word Xw holds bit j of every byte of Xw, at bit position
 * 16 * l + b for byte lane l (l = 0 the least significant byte of the
 * 32-bit word) of block b. So a rotation of the words by 8 bits is a
 * rotation of each plane by 16, and the linear map L of clause 6.2 costs
 * a few rotations and XORs per plane; the S-box is the circuit of
 * sm4_sbox.h (36 ANDs, no table). The round keys are spread into planes
 * once per call. Nothing indexes memory or branches on keys or data.
 */
#include "sm4_ops.h"

#define FS2_SM4_BS_T uint64_t
#include "sm4_sbox.h"

/* Blocks per pass. */
#define BS_N 16

static inline uint64_t rotl64(uint64_t x, unsigned n)
{
    return (x << n) | (x >> (64 - n));
}

/* Transpose the 8 x 8 bit matrix in x: bit 8r + c <-> bit 8c + r. */
static inline uint64_t transpose8(uint64_t x)
{
    uint64_t t;
    t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAULL;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCULL;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ULL;
    x ^= t ^ (t << 28);
    return x;
}

/* The 8 planes of a 32-bit word broadcast to every block: plane j has the
 * 16 bits of lane l set when bit j of byte lane l of w is. */
static void spread_word(uint64_t planes[8], uint32_t w)
{
    uint64_t t = transpose8(w); /* byte j: bit l = bit j of lane l */
    for (int j = 0; j < 8; j++) {
        uint64_t nib = (t >> (8 * j)) & 0xF;
        planes[j] = ((nib * 0x0000200040008001ULL) & 0x0001000100010001ULL) * 0xFFFFu;
    }
}

/* tau (clause 6.2) on the four bytes of w, by the circuit in planes of
 * four bits. */
static uint32_t sbox_word(uint32_t w)
{
    uint64_t t = transpose8(w), p[8];
    for (int j = 0; j < 8; j++)
        p[j] = (t >> (8 * j)) & 0xF;
    fs2_sm4_sbox_bs(p);
    uint64_t u = 0;
    for (int j = 0; j < 8; j++)
        u |= (p[j] & 0xF) << (8 * j);
    return (uint32_t)transpose8(u);
}

static inline uint32_t rotl32(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32 - n));
}

void fs2_sm4_key_schedule(fs2_sm4_key *k, const unsigned char key[16])
{
    /* FK (clause 7.3) */
    static const uint32_t fk[4] = {0xA3B1BAC6u, 0x56AA3350u, 0x677D9197u, 0xB27022DCu};
    uint32_t w[4];
    for (int i = 0; i < 4; i++)
        w[i] = fs2_load32_be(key + 4 * i) ^ fk[i];
    for (unsigned i = 0; i < 32; i++) {
        /* CK_i: bytes (4i + j) * 7 mod 256, j = 0..3 (clause 7.3) */
        uint32_t ck = 0;
        for (unsigned j = 0; j < 4; j++)
            ck = (ck << 8) | (((4 * i + j) * 7) & 0xFFu);
        uint32_t b = sbox_word(w[1] ^ w[2] ^ w[3] ^ ck);
        uint32_t nk = w[0] ^ b ^ rotl32(b, 13) ^ rotl32(b, 23); /* L' */
        k->rk[i] = nk;
        k->rkd[31 - i] = nk;
        w[0] = w[1];
        w[1] = w[2];
        w[2] = w[3];
        w[3] = nk;
    }
    fs2_wipe(w, sizeof w);
}

/* Up to 16 blocks into planes x[word][plane]; missing blocks are zero. */
static void bs_load(uint64_t x[4][8], const unsigned char *in, size_t n)
{
    memset(x, 0, 4 * 8 * sizeof(uint64_t));
    for (unsigned w = 0; w < 4; w++)
        for (unsigned half = 0; half < 2; half++)
            for (unsigned lane = 0; lane < 4; lane++) {
                uint64_t u = 0;
                for (unsigned k = 0; k < 8; k++) {
                    size_t b = 8 * half + k;
                    if (b < n) /* the count is public */
                        u |= (uint64_t)in[16 * b + 4 * w + 3 - lane] << (8 * k);
                }
                u = transpose8(u);
                for (unsigned j = 0; j < 8; j++)
                    x[w][j] |= ((u >> (8 * j)) & 0xFF) << (16 * lane + 8 * half);
            }
}

/* The reverse of bs_load, words in the order given. */
static void bs_store(unsigned char *out, size_t n, const uint64_t *const xw[4])
{
    for (unsigned w = 0; w < 4; w++)
        for (unsigned half = 0; half < 2; half++)
            for (unsigned lane = 0; lane < 4; lane++) {
                uint64_t u = 0;
                for (unsigned j = 0; j < 8; j++)
                    u |= ((xw[w][j] >> (16 * lane + 8 * half)) & 0xFF) << (8 * j);
                u = transpose8(u);
                for (unsigned k = 0; k < 8; k++) {
                    size_t b = 8 * half + k;
                    if (b < n)
                        out[16 * b + 4 * w + 3 - lane] = (unsigned char)(u >> (8 * k));
                }
            }
}

/* One round (clause 7.1): a ^= T(b ^ c ^ d ^ rk), T = L(tau(.)). */
static inline void bs_round(uint64_t a[8], const uint64_t b[8], const uint64_t c[8], const uint64_t d[8],
                            const uint64_t k[8])
{
    uint64_t t[8], r[8];
    for (int j = 0; j < 8; j++)
        t[j] = b[j] ^ c[j] ^ d[j] ^ k[j];
    fs2_sm4_sbox_bs(t);
    /* r = t <<< 2: bits 0, 1 of a byte come from bits 6, 7 of the byte
     * below it in the word (the lane below: a plane rotation by 16) */
    r[0] = rotl64(t[6], 16);
    r[1] = rotl64(t[7], 16);
    for (int j = 2; j < 8; j++)
        r[j] = t[j - 2];
    /* L(B) = B ^ B<<<2 ^ B<<<10 ^ B<<<18 ^ B<<<24 */
    for (int j = 0; j < 8; j++)
        a[j] ^= t[j] ^ rotl64(t[j], 48) ^ r[j] ^ rotl64(r[j], 16) ^ rotl64(r[j], 32);
}

/* One block the plain way, the S-box by the circuit on the four bytes of
 * a word: no round keys to spread and no 16-block pass, so a chain of
 * single blocks (CBC encryption, CBC-MAC, OFB) costs a third as much. */
static void one_block(const uint32_t rk[32], unsigned char out[16], const unsigned char in[16])
{
    uint32_t x0 = fs2_load32_be(in), x1 = fs2_load32_be(in + 4), x2 = fs2_load32_be(in + 8),
             x3 = fs2_load32_be(in + 12);
    for (int i = 0; i < 32; i += 4) {
        uint32_t b;
        b = sbox_word(x1 ^ x2 ^ x3 ^ rk[i]);
        x0 ^= b ^ rotl32(b, 2) ^ rotl32(b, 10) ^ rotl32(b, 18) ^ rotl32(b, 24);
        b = sbox_word(x2 ^ x3 ^ x0 ^ rk[i + 1]);
        x1 ^= b ^ rotl32(b, 2) ^ rotl32(b, 10) ^ rotl32(b, 18) ^ rotl32(b, 24);
        b = sbox_word(x3 ^ x0 ^ x1 ^ rk[i + 2]);
        x2 ^= b ^ rotl32(b, 2) ^ rotl32(b, 10) ^ rotl32(b, 18) ^ rotl32(b, 24);
        b = sbox_word(x0 ^ x1 ^ x2 ^ rk[i + 3]);
        x3 ^= b ^ rotl32(b, 2) ^ rotl32(b, 10) ^ rotl32(b, 18) ^ rotl32(b, 24);
    }
    fs2_store32_be(out, x3);
    fs2_store32_be(out + 4, x2);
    fs2_store32_be(out + 8, x1);
    fs2_store32_be(out + 12, x0);
}

void fs2_sm4_blocks_generic(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n)
{
    uint64_t kp[32][8], x[4][8];
    if (n <= 2) { /* the count is public */
        for (size_t i = 0; i < n; i++)
            one_block(rk, out + 16 * i, in + 16 * i);
        return;
    }
    for (int i = 0; i < 32; i++)
        spread_word(kp[i], rk[i]);
    while (n > 0) {
        size_t m = n < BS_N ? n : BS_N;
        bs_load(x, in, m);
        for (int i = 0; i < 32; i += 4) {
            bs_round(x[0], x[1], x[2], x[3], kp[i]);
            bs_round(x[1], x[2], x[3], x[0], kp[i + 1]);
            bs_round(x[2], x[3], x[0], x[1], kp[i + 2]);
            bs_round(x[3], x[0], x[1], x[2], kp[i + 3]);
        }
        /* R (clause 7.1): X35, X34, X33, X32 */
        const uint64_t *const res[4] = {x[3], x[2], x[1], x[0]};
        bs_store(out, m, res);
        in += 16 * m;
        out += 16 * m;
        n -= m;
    }
    fs2_wipe(kp, sizeof kp);
    fs2_wipe(x, sizeof x);
}

static inline void xor16(unsigned char *r, const unsigned char *a, const unsigned char *b)
{
    for (int i = 0; i < 16; i++)
        r[i] = a[i] ^ b[i];
}

/* The counter block ctr with k added to its last 4 bytes (no carry out). */
static inline void ctr_add(unsigned char out[16], const unsigned char ctr[16], uint32_t k)
{
    memcpy(out, ctr, 12);
    fs2_store32_be(out + 12, fs2_load32_be(ctr + 12) + k);
}

static void ctr32_generic(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                          const unsigned char ctr[16])
{
    unsigned char ks[16 * BS_N];
    uint32_t k = 0;
    while (n > 0) {
        size_t m = n < BS_N ? n : BS_N;
        for (size_t i = 0; i < m; i++)
            ctr_add(ks + 16 * i, ctr, k++);
        fs2_sm4_blocks_generic(rk, ks, ks, m);
        for (size_t i = 0; i < 16 * m; i++)
            out[i] = in[i] ^ ks[i];
        in += 16 * m;
        out += 16 * m;
        n -= m;
    }
    fs2_wipe(ks, sizeof ks);
}

void fs2_sm4_cbc_enc_by(void (*blocks)(const uint32_t *, unsigned char *, const unsigned char *, size_t),
                        const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                        unsigned char iv[16])
{
    unsigned char x[16];
    for (size_t i = 0; i < n; i++) {
        xor16(x, in + 16 * i, iv);
        blocks(rk, iv, x, 1);
        memcpy(out + 16 * i, iv, 16);
    }
    fs2_wipe(x, sizeof x);
}

static void cbc_enc_generic(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                            unsigned char iv[16])
{
    fs2_sm4_cbc_enc_by(fs2_sm4_blocks_generic, rk, out, in, n, iv);
}

static void cbc_dec_generic(const uint32_t rkd[32], unsigned char *out, const unsigned char *in, size_t n,
                            unsigned char iv[16])
{
    unsigned char c[16 * BS_N], p[16 * BS_N];
    while (n > 0) {
        size_t m = n < BS_N ? n : BS_N;
        memcpy(c, in, 16 * m); /* in place: the ciphertext chains */
        fs2_sm4_blocks_generic(rkd, p, c, m);
        xor16(out, p, iv);
        for (size_t i = 1; i < m; i++)
            xor16(out + 16 * i, p + 16 * i, c + 16 * (i - 1));
        memcpy(iv, c + 16 * (m - 1), 16);
        in += 16 * m;
        out += 16 * m;
        n -= m;
    }
    fs2_wipe(p, sizeof p);
}

static void cbc_mac_generic(const uint32_t rk[32], unsigned char mac[16], const unsigned char *in, size_t n)
{
    unsigned char x[16];
    for (size_t i = 0; i < n; i++) {
        xor16(x, mac, in + 16 * i);
        fs2_sm4_blocks_generic(rk, mac, x, 1);
    }
    fs2_wipe(x, sizeof x);
}

void fs2_xts_mul_alpha(unsigned char t[16], int standard)
{
    if (standard == FS2_XTS_IEEE) {
        /* IEEE 1619 5.2: t as a little-endian number, times x, reduced by
         * x^128 + x^7 + x^2 + x + 1 */
        unsigned char carry = (unsigned char)(0u - (t[15] >> 7)) & 0x87;
        for (int i = 15; i > 0; i--)
            t[i] = (unsigned char)((t[i] << 1) | (t[i - 1] >> 7));
        t[0] = (unsigned char)((t[0] << 1) ^ carry);
    } else {
        /* GB/T 17964-2021: t in GCM's bit order (a big-endian number with
         * the coefficient of x^0 in its top bit), times x */
        unsigned char carry = (unsigned char)(0u - (t[15] & 1)) & 0xE1;
        for (int i = 15; i > 0; i--)
            t[i] = (unsigned char)((t[i] >> 1) | (t[i - 1] << 7));
        t[0] = (unsigned char)((t[0] >> 1) ^ carry);
    }
}

void fs2_sm4_xts_by(void (*blocks)(const uint32_t *, unsigned char *, const unsigned char *, size_t),
                    const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n, unsigned char t[16],
                    int standard)
{
    unsigned char tw[16 * BS_N], x[16 * BS_N];
    while (n > 0) {
        size_t m = n < BS_N ? n : BS_N;
        for (size_t i = 0; i < m; i++) {
            memcpy(tw + 16 * i, t, 16);
            fs2_xts_mul_alpha(t, standard);
        }
        for (size_t i = 0; i < 16 * m; i++)
            x[i] = in[i] ^ tw[i];
        blocks(rk, x, x, m);
        for (size_t i = 0; i < 16 * m; i++)
            out[i] = x[i] ^ tw[i];
        in += 16 * m;
        out += 16 * m;
        n -= m;
    }
    fs2_wipe(tw, sizeof tw);
    fs2_wipe(x, sizeof x);
}

static void xts_generic(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                        unsigned char t[16], int standard)
{
    fs2_sm4_xts_by(fs2_sm4_blocks_generic, rk, out, in, n, t, standard);
}

const fs2_sm4_ops fs2_sm4_ops_generic = {
    .name = "generic",
    .cpu_needs = 0,
    .blocks = fs2_sm4_blocks_generic,
    .ctr32 = ctr32_generic,
    .cbc_enc = cbc_enc_generic,
    .cbc_dec = cbc_dec_generic,
    .cbc_mac = cbc_mac_generic,
    .xts = xts_generic,
    .ghash = fs2_ghash_generic,
    .gcm = NULL,
};
