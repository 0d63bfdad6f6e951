/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AES-256, FIPS 197, in constant time (see sym.h): the S-box of clause
 * 5.1.1 computed as the affine map of the inverse in GF(2^8) (modulo
 * x^8+x^4+x^3+x+1), eight bytes at a time; MixColumns with masked xtime.
 * Only for the AES-256-CBC key files OpenSSL writes (`openssl genpkey
 * -aes-256-cbc`); the FIPS 197 examples and OpenSSL check it.
 */
#include "sym.h"

#include "gf256.h"

#define AES_RED 0x1Bu

/* SubBytes on eight bytes: b_i + b_{i+4} + b_{i+5} + b_{i+6} + b_{i+7} + c_i
 * (clause 5.1.1, c = 0x63) applied to the inverse. */
static uint64_t aes_sub8(uint64_t x)
{
    uint64_t b = fs2_gf_inv(x, AES_RED);
    return b ^ fs2_gf_rotr(b, 4) ^ fs2_gf_rotr(b, 5) ^ fs2_gf_rotr(b, 6) ^ fs2_gf_rotr(b, 7) ^ (0x63u * FS2_GF_LSB);
}

/* InvSubBytes (clause 5.3.2): the inverse of the affine map, then the
 * inverse in the field. */
static uint64_t aes_inv_sub8(uint64_t y)
{
    uint64_t b = fs2_gf_rotr(y, 2) ^ fs2_gf_rotr(y, 5) ^ fs2_gf_rotr(y, 7) ^ (0x05u * FS2_GF_LSB);
    return fs2_gf_inv(b, AES_RED);
}

static uint64_t load64_le(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static void store64_le(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void sub_bytes(unsigned char s[16], int inverse)
{
    for (int h = 0; h < 16; h += 8) {
        uint64_t v = load64_le(s + h);
        store64_le(s + h, inverse ? aes_inv_sub8(v) : aes_sub8(v));
    }
}

/* ShiftRows (5.1.2): row r of the column-major state turns left by r. */
static void shift_rows(unsigned char s[16], int inverse)
{
    unsigned char t[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            int from = inverse ? (c - r + 4) % 4 : (c + r) % 4;
            t[4 * c + r] = s[4 * from + r];
        }
    memcpy(s, t, 16);
    fs2_wipe(t, sizeof t);
}

static unsigned char xt(unsigned char a)
{
    return (unsigned char)fs2_gf_xtime(a, AES_RED);
}

/* MixColumns (5.1.3) or InvMixColumns (5.3.3) on each column. */
static void mix_columns(unsigned char s[16], int inverse)
{
    for (int c = 0; c < 4; c++) {
        unsigned char *a = s + 4 * c;
        unsigned char a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
        if (inverse) {
            /* Row i: {0e}a_i + {0b}a_{i+1} + {0d}a_{i+2} + {09}a_{i+3},
             * from the multiples {02}, {04}, {08} of each byte. */
            unsigned char x2[4], x4[4], x8[4], v[4] = {a0, a1, a2, a3};
            for (int i = 0; i < 4; i++) {
                x2[i] = xt(v[i]);
                x4[i] = xt(x2[i]);
                x8[i] = xt(x4[i]);
            }
            for (int i = 0; i < 4; i++) {
                int j = (i + 1) % 4, k = (i + 2) % 4, l = (i + 3) % 4;
                a[i] = (unsigned char)((x8[i] ^ x4[i] ^ x2[i]) ^ /* 0e */
                                       (x8[j] ^ x2[j] ^ v[j]) ^  /* 0b */
                                       (x8[k] ^ x4[k] ^ v[k]) ^  /* 0d */
                                       (x8[l] ^ v[l]));          /* 09 */
            }
            fs2_wipe(x2, 4);
            fs2_wipe(x4, 4);
            fs2_wipe(x8, 4);
            fs2_wipe(v, 4);
        } else {
            unsigned char t = (unsigned char)(a0 ^ a1 ^ a2 ^ a3);
            a[0] = (unsigned char)(a0 ^ t ^ xt((unsigned char)(a0 ^ a1)));
            a[1] = (unsigned char)(a1 ^ t ^ xt((unsigned char)(a1 ^ a2)));
            a[2] = (unsigned char)(a2 ^ t ^ xt((unsigned char)(a2 ^ a3)));
            a[3] = (unsigned char)(a3 ^ t ^ xt((unsigned char)(a3 ^ a0)));
        }
    }
}

static void add_round_key(unsigned char s[16], const unsigned char rk[16])
{
    for (int i = 0; i < 16; i++)
        s[i] ^= rk[i];
}

/* KeyExpansion (5.2) for Nk = 8, Nr = 14. */
void fs2_aes256_set_key(fs2_aes256_key *k, const unsigned char key[32])
{
    unsigned char *w = &k->rk[0][0]; /* 60 words of 4 bytes */
    unsigned char rcon = 1;
    memcpy(w, key, 32);
    for (int i = 8; i < 60; i++) {
        unsigned char t[4];
        memcpy(t, w + 4 * (i - 1), 4);
        if (i % 8 == 0 || i % 8 == 4) {
            if (i % 8 == 0) { /* RotWord */
                unsigned char t0 = t[0];
                t[0] = t[1];
                t[1] = t[2];
                t[2] = t[3];
                t[3] = t0;
            }
            uint64_t v = (uint64_t)t[0] | ((uint64_t)t[1] << 8) | ((uint64_t)t[2] << 16) | ((uint64_t)t[3] << 24);
            v = aes_sub8(v); /* SubWord; the upper lanes are discarded */
            for (int j = 0; j < 4; j++)
                t[j] = (unsigned char)(v >> (8 * j));
            if (i % 8 == 0) {
                t[0] ^= rcon;
                rcon = xt(rcon); /* public: the round number */
            }
        }
        for (int j = 0; j < 4; j++)
            w[4 * i + j] = (unsigned char)(w[4 * (i - 8) + j] ^ t[j]);
        fs2_wipe(t, sizeof t);
    }
}

void fs2_aes256_encrypt(const fs2_aes256_key *k, unsigned char out[16], const unsigned char in[16])
{
    unsigned char s[16];
    memcpy(s, in, 16);
    add_round_key(s, k->rk[0]);
    for (int r = 1; r < 14; r++) {
        sub_bytes(s, 0);
        shift_rows(s, 0);
        mix_columns(s, 0);
        add_round_key(s, k->rk[r]);
    }
    sub_bytes(s, 0);
    shift_rows(s, 0);
    add_round_key(s, k->rk[14]);
    memcpy(out, s, 16);
    fs2_wipe(s, sizeof s);
}

/* InvCipher (5.3). */
void fs2_aes256_decrypt(const fs2_aes256_key *k, unsigned char out[16], const unsigned char in[16])
{
    unsigned char s[16];
    memcpy(s, in, 16);
    add_round_key(s, k->rk[14]);
    for (int r = 13; r >= 1; r--) {
        shift_rows(s, 1);
        sub_bytes(s, 1);
        add_round_key(s, k->rk[r]);
        mix_columns(s, 1);
    }
    shift_rows(s, 1);
    sub_bytes(s, 1);
    add_round_key(s, k->rk[0]);
    memcpy(out, s, 16);
    fs2_wipe(s, sizeof s);
}
