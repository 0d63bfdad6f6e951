/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every SM4 table this CPU can run against the portable one
 * (src/sm4/sm4_ops.h; the list comes from the dispatch itself): each slot
 * on random block counts around the tables' widths, unaligned and in
 * place, and every mode of the public API (ECB, CBC, CTR, OFB, CFB, GCM,
 * CCM, XTS in both orders) on random lengths, byte for byte. A table that
 * this CPU cannot run is named and left out (its tests run where it can).
 */
#include "sm4t.h"

#define MAXB 300 /* blocks */

static unsigned char in_a[16 * MAXB + 64], out_g[16 * MAXB + 64], out_t[16 * MAXB + 64];

/* A block count: small ones, the tables' widths and their neighbours, or
 * any. */
static size_t rand_blocks(void)
{
    static const size_t around[] = {0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129};
    return fs2t_rand_below(3) ? around[fs2t_rand_below(sizeof around / sizeof around[0])] : fs2t_rand_below(MAXB + 1);
}

/* Run slot s of table t on n blocks from in (at offset oi) into out (at
 * offset oo; in place when inplace), with chaining values from st. */
static void run_slot(const fs2_sm4_ops *t, int s, const fs2_sm4_key *k, unsigned char *out, const unsigned char *in,
                     size_t n, unsigned char st[16], uint64_t xi[2])
{
    switch (s) {
    case 0: t->blocks(k->rk, out, in, n); break;
    case 1: t->blocks(k->rkd, out, in, n); break;
    case 2: t->ctr32(k->rk, out, in, n, st); break;
    case 3: t->cbc_enc(k->rk, out, in, n, st); break;
    case 4: t->cbc_dec(k->rkd, out, in, n, st); break;
    case 5: t->cbc_mac(k->rk, st, in, n); break;
    case 6: t->xts(k->rk, out, in, n, st, FS2_XTS_GB); break;
    case 7: t->xts(k->rkd, out, in, n, st, FS2_XTS_IEEE); break;
    case 8: t->ghash(xi, k->hpow, in, n); break;
    case 9:
    case 10:
        if (t->gcm) {
            t->gcm(k, out, in, n, st, xi, s == 10);
        } else if (s == 10) { /* what the modes do without the slot */
            t->ctr32(k->rk, out, in, n, st);
            t->ghash(xi, k->hpow, out, n);
        } else {
            t->ghash(xi, k->hpow, in, n);
            t->ctr32(k->rk, out, in, n, st);
        }
        break;
    }
}

static void test_slots(const fs2_sm4_ops *t)
{
    static const char *const names[] = {"blocks",   "blocks (rkd)", "ctr32", "cbc_enc",   "cbc_dec",  "cbc_mac",
                                        "xts (GB)", "xts (IEEE)",   "ghash", "gcm (dec)", "gcm (enc)"};
    const fs2_sm4_ops *g = &fs2_sm4_ops_generic;
    fastsm2_sm4_key key;
    sm4t_rand_key(&key, NULL);
    const fs2_sm4_key *k = (const fs2_sm4_key *)&key;
    for (int s = 0; s < 11; s++) {
        unsigned long cases = 0, ok = 0;
        for (int iter = 0; iter < 25; iter++) {
            size_t n = rand_blocks(), oi = fs2t_rand_below(16), oo = fs2t_rand_below(16);
            int inplace = iter % 3 == 0;
            unsigned char st_g[16], st_t[16];
            uint64_t x_g[2], x_t[2];
            fs2t_rand_bytes(in_a + oi, 16 * n);
            fs2t_rand_bytes(st_g, 16);
            if (s == 2 || s >= 9) /* a counter whose last 32 bits wrap now and then */
                fs2_store32_be(st_g + 12, 0xFFFFFFFFu - (uint32_t)fs2t_rand_below(2 * MAXB));
            memcpy(st_t, st_g, 16);
            fs2t_rand_bytes(x_g, sizeof x_g);
            memcpy(x_t, x_g, sizeof x_g);
            run_slot(g, s, k, out_g + oo, in_a + oi, n, st_g, x_g);
            if (inplace) {
                memcpy(out_t + oi, in_a + oi, 16 * n);
                run_slot(t, s, k, out_t + oi, out_t + oi, n, st_t, x_t);
                memmove(out_t + oo, out_t + oi, 16 * n);
            } else {
                run_slot(t, s, k, out_t + oo, in_a + oi, n, st_t, x_t);
            }
            int same = memcmp(st_g, st_t, 16) == 0 && memcmp(x_g, x_t, sizeof x_g) == 0;
            if (s != 5 && s != 8)
                same &= memcmp(out_g + oo, out_t + oo, 16 * n) == 0;
            cases++;
            fs2t_count(&ok, same, "%s %s: %zu blocks, offsets %zu %zu, in place %d", t->name, names[s], n, oi, oo,
                       inplace);
        }
        CHECK(ok == cases);
    }
    fastsm2_sm4_key_clear(&key);
}

/* Every public mode on one random input: the outputs one after another
 * into dst; returns their total length. */
static size_t run_modes(unsigned char *dst, const fastsm2_sm4_key *key, const fastsm2_sm4_key *key2,
                        const unsigned char *iv, size_t ivlen, const unsigned char *in, size_t len, size_t off)
{
    static unsigned char buf[16 * MAXB + 64];
    size_t at = 0, cap, l16 = len - len % 16;
    unsigned char *w = buf + off;
    int st = 0;
    memcpy(w, in, len);
    st |= fastsm2_sm4_ecb_encrypt(w, key, w, l16) ^ 1;
    memcpy(dst + at, w, l16), at += l16;
    memcpy(w, in, len);
    cap = len + 16;
    st |= fastsm2_sm4_cbc_encrypt(w, &cap, key, iv, FASTSM2_SM4_PAD_PKCS7, w, len) ^ 1;
    memcpy(dst + at, w, cap), at += cap;
    cap = l16;
    st |= fastsm2_sm4_cbc_decrypt(w, &cap, key, iv, FASTSM2_SM4_PAD_NONE, in, l16) ^ 1;
    memcpy(dst + at, w, cap), at += cap;
    st |= fastsm2_sm4_ctr(w, key, iv, in, len) ^ 1;
    memcpy(dst + at, w, len), at += len;
    for (int mode = FASTSM2_SM4_OFB; mode <= FASTSM2_SM4_CFB; mode++)
        for (int enc = 0; enc <= 1; enc++) {
            fastsm2_sm4_ctx c;
            size_t o = 0;
            st |= fastsm2_sm4_init(&c, mode, enc, 0, key, iv, 16) ^ 1;
            memcpy(w, in, len);
            for (size_t i = 0; i < len;) {
                size_t p = fs2t_rand_piece(len - i, 0, 200), ol = p;
                st |= fastsm2_sm4_update(&c, w + i, &ol, w + i, p) ^ 1;
                i += p, o += ol;
            }
            cap = 0;
            st |= fastsm2_sm4_final(&c, NULL, &cap) ^ 1;
            memcpy(dst + at, w, o), at += o;
        }
    st |= fastsm2_sm4_gcm_encrypt(w, dst + at, 16, key, iv, ivlen, in, len / 3, in, len) ^ 1;
    at += 16;
    memcpy(dst + at, w, len), at += len;
    st |= fastsm2_sm4_ccm_encrypt(w, dst + at, 16, key, iv, 12, in, len / 5, in, len) ^ 1;
    at += 16;
    memcpy(dst + at, w, len), at += len;
    if (len >= 16)
        for (int std = 0; std <= 1; std++) {
            st |= fastsm2_sm4_xts_encrypt(w, key, key2, std, iv, in, len) ^ 1;
            memcpy(dst + at, w, len), at += len;
            st |= fastsm2_sm4_xts_decrypt(w, key, key2, std, iv, in, len) ^ 1;
            memcpy(dst + at, w, len), at += len;
        }
    CHECK(st == 0);
    return at;
}

static void test_modes(const fs2_sm4_ops *t)
{
    static unsigned char in[16 * MAXB], a[40 * 16 * MAXB], b[40 * 16 * MAXB];
    unsigned long cases = 0, ok = 0;
    for (int iter = 0; iter < 12; iter++) {
        fastsm2_sm4_key key, key2;
        unsigned char iv[40];
        size_t ivlen = iter % 2 ? 12 : 1 + fs2t_rand_below(40);
        sm4t_rand_key(&key, NULL);
        sm4t_rand_key(&key2, NULL);
        fs2t_rand_bytes(iv, sizeof iv);
        size_t len = fs2t_rand_len_bytes(in, 0, 16 * MAXB - 16), off = fs2t_rand_below(16);
        /* (the streams' pieces differ between the runs: their output
         * does not depend on them) */
        fs2_sm4_force(&fs2_sm4_ops_generic);
        size_t la = run_modes(a, &key, &key2, iv, ivlen, in, len, off);
        fs2_sm4_force(t);
        size_t lb = run_modes(b, &key, &key2, iv, ivlen, in, len, 15 - off);
        cases++;
        fs2t_count(&ok, la == lb && memcmp(a, b, la) == 0, "%s: every mode on %zu bytes", t->name, len);
        fastsm2_sm4_key_clear(&key);
        fastsm2_sm4_key_clear(&key2);
    }
    CHECK(ok == cases);
}

int main(void)
{
    const fs2_sm4_ops *tables[16];
    size_t n = sm4t_tables(tables, 16);
    CHECK(n >= 1 && tables[0] == &fs2_sm4_ops_generic);
    for (size_t i = 0; i < n; i++) {
        printf("SM4 table %s against generic\n", tables[i]->name);
        CHECK(fs2_sm4_self_test(tables[i]) == 1);
        test_slots(tables[i]);
        test_modes(tables[i]);
    }
    fs2_sm4_force(NULL);
    return fs2t_finish("test_sm4_tables");
}
