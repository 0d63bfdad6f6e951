/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM3 compression (GB/T 32905-2016 clause 5.3) for the CUDA backend, and the
 * per-signature nonce derivation built on it. __host__ __device__ like the
 * field code, so tests/gpu checks both against the CPU library's SM3.
 *
 * Nonce derivation (documented in docs/GPU.md): for item i of a batch,
 *   X = SM3(seed || d || e || i || 0x00) || SM3(seed || d || e || i || 0x01)
 *   k = X mod n, and k = 1 in the (2^-256) case X mod n = 0,
 * with seed 32 bytes drawn from the OS CSPRNG for each batch call, d the
 * signer's key (32 bytes), e the digest (32 bytes), i the item's index in
 * the batch as 8 bytes big-endian. X has 512 bits, so k's bias is below
 * 2^-256. The first 64-byte block (seed || d) is shared by both hashes.
 */
#ifndef FS2_GPU_SM3_CUH
#define FS2_GPU_SM3_CUH

#include "sm2_gpu_field.cuh"

#define FS2G_SM3_IV                                                                                            \
    {                                                                                                          \
        0x7380166Fu, 0x4914B2B9u, 0x172442D7u, 0xDA8A0600u, 0xA96F30BCu, 0x163138AAu, 0xE38DEE4Du, 0xB0FB0E4Eu \
    }

FS2G_HD uint32_t fs2g_rotl(uint32_t x, int n)
{
    n &= 31;
    return n ? (x << n) | (x >> (32 - n)) : x;
}

/* One compression: state = CF(state, block), the block as 16 big-endian
 * words already loaded. Every round is unrolled so that the message
 * schedule stays in a 16-word ring of registers. */
FS2G_HDU void fs2g_sm3_compress(uint32_t st[8], const uint32_t block[16])
{
    FS2G_COUNT_OP(FS2G_OP_SM3_COMPRESS);
    uint32_t w[16];
    FS2G_UNROLL
    for (int i = 0; i < 16; i++)
        w[i] = block[i];
    uint32_t A = st[0], B = st[1], C = st[2], D = st[3], E = st[4], F = st[5], G = st[6], H = st[7];
    FS2G_UNROLL
    for (int j = 0; j < 64; j++) {
        /* W[j+4], needed for W'[j] = W[j] ^ W[j+4]: from j = 12 on it is an
         * expanded word, computed into the slot of W[j+4-16] */
        if (j >= 12) {
            int k = j + 4; /* W[k] = P1(W[k-16] ^ W[k-9] ^ (W[k-3] <<< 15)) ^ (W[k-13] <<< 7) ^ W[k-6] */
            uint32_t x = w[(k - 16) & 15] ^ w[(k - 9) & 15] ^ fs2g_rotl(w[(k - 3) & 15], 15);
            x = x ^ fs2g_rotl(x, 15) ^ fs2g_rotl(x, 23);
            w[k & 15] = x ^ fs2g_rotl(w[(k - 13) & 15], 7) ^ w[(k - 6) & 15];
        }
        uint32_t wj = w[j & 15], wj4 = w[(j + 4) & 15];
        uint32_t tj = j < 16 ? 0x79CC4519u : 0x7A879D8Au;
        uint32_t a12 = fs2g_rotl(A, 12);
        uint32_t ss1 = fs2g_rotl(a12 + E + fs2g_rotl(tj, j % 32), 7);
        uint32_t ss2 = ss1 ^ a12;
        uint32_t ff = j < 16 ? (A ^ B ^ C) : ((A & B) | (A & C) | (B & C));
        uint32_t gg = j < 16 ? (E ^ F ^ G) : ((E & F) | (~E & G));
        uint32_t tt1 = ff + D + ss2 + (wj ^ wj4);
        uint32_t tt2 = gg + H + ss1 + wj;
        D = C;
        C = fs2g_rotl(B, 9);
        B = A;
        A = tt1;
        H = G;
        G = fs2g_rotl(F, 19);
        F = E;
        E = tt2 ^ fs2g_rotl(tt2, 9) ^ fs2g_rotl(tt2, 17);
    }
    st[0] ^= A;
    st[1] ^= B;
    st[2] ^= C;
    st[3] ^= D;
    st[4] ^= E;
    st[5] ^= F;
    st[6] ^= G;
    st[7] ^= H;
}

/* The state after the shared first block seed || d (both as little-endian
 * words of the big-endian integers, i.e. word 7 is the first 4 bytes). */
FS2G_HD void fs2g_nonce_prefix(uint32_t st[8], const uint32_t seed[8], const uint32_t d[8])
{
    const uint32_t iv[8] = FS2G_SM3_IV;
    uint32_t blk[16];
    FS2G_UNROLL
    for (int i = 0; i < 8; i++) {
        st[i] = iv[i];
        blk[i] = seed[7 - i];
        blk[8 + i] = d[7 - i];
    }
    fs2g_sm3_compress(st, blk);
}

/* k for item `index` from the prefix state (fs2g_nonce_prefix) and e. */
FS2G_HD void fs2g_nonce_derive(uint32_t k[8], const uint32_t prefix[8], const uint32_t e[8], uint64_t index)
{
    uint32_t h[2][8];
    FS2G_UNROLL
    for (int c = 0; c < 2; c++) {
        uint32_t blk[16];
        FS2G_UNROLL
        for (int i = 0; i < 8; i++) {
            blk[i] = e[7 - i];
            h[c][i] = prefix[i];
        }
        blk[8] = (uint32_t)(index >> 32);
        blk[9] = (uint32_t)index;
        blk[10] = ((uint32_t)c << 24) | 0x00800000u; /* counter byte, then the 0x80 pad */
        blk[11] = 0;
        blk[12] = 0;
        blk[13] = 0;
        blk[14] = 0;
        blk[15] = 105 * 8; /* message length in bits */
        fs2g_sm3_compress(h[c], blk);
    }
    uint32_t hi[8], lo[8];
    FS2G_UNROLL
    for (int i = 0; i < 8; i++) {
        hi[i] = h[0][7 - i];
        lo[i] = h[1][7 - i];
    }
    fs2g_fn_reduce512(k, hi, lo);
    /* X mod n = 0 (probability 2^-256) becomes 1, without a branch */
    k[0] |= fs2g_is_zero(k) & 1u;
}

#endif
