/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The program that tests/harness/arm-ctime/trace.sh runs under qemu-aarch64 with
 * the trace plugin (tracehash.c): the secret-dependent operations, each
 * once per secret set, cut into segments by calls to trace_mark(), so that
 * the plugin hashes the blocks and memory addresses of each operation
 * alone. For a constant-time library the hash of an operation is the same
 * for every secret set.
 *
 * Secret sets: d = 1, d = n - 2, k = 1, k = n - 1 (and mixtures), then
 * random ones from FS2T_SEED (tests/testutil.c). Each set runs
 *   keyload      fastsm2_privkey_from_bytes (d): dG and (1 + d)^-1
 *   sign-first   the key's first signature
 *   sign-later   a second signature, another nonce
 *   kG           the EC table's mul_base
 *   kP           its mul on a fixed public point, no tables
 *   kP-tables    the same with the point's tables
 *   encrypt      a secret nonce and plaintext, to a fresh public key object
 *   encrypt-tab  the same to a key object with its tables made
 *   decrypt      the set's ciphertext (C1 the same for all: a fixed public
 *                nonce; C2 and C3 the set's), success path
 *   decrypt-bad  the same with C3 flipped: the failure path
 *   kx-init, kx-start, kx-compute, kx-confirm
 *                a key exchange as the initiator (secret d and r_A) against
 *                a fixed responder (public key and R_B fixed)
 *   sm4-key      two SM4 key schedules (the set's 32 key bytes)
 *   sm4-ctr, sm4-cbc-enc, sm4-cbc-dec (PKCS#7 checked and removed),
 *   sm4-gcm-enc, sm4-gcm-dec, sm4-gcm-bad (a flipped tag: the failure path),
 *   sm4-ccm-enc, sm4-ccm-dec, sm4-xts-gb, sm4-xts-ieee (decryption)
 *                the set's SM4LEN secret bytes (eight-block loops, a
 *                partial block; XTS with ciphertext stealing) under the
 *                SM4 table in use, with fixed public IVs, nonces and AAD
 * and the positive controls, whose traces must differ between sets:
 *   verify       signature verification of the set's own signature and
 *                public key (public inputs, variable time by design)
 *   planted-branch  a loop whose count is the low byte of d
 *   planted-load    a table load indexed by the low byte of d
 * Everything else (copying the set's inputs into the fixed buffers the
 * operations use, checking their results) runs in the "glue" segments
 * between operations, which are not compared. A first pass over set 0 is
 * the warm-up (one-time initialisation: the backend choice, Z_A's shared
 * prefix, lazy binding) and is not compared either.
 *
 * Output (stdout): "backend NAME", one "op INDEX NAME SET" line per
 * operation segment in order (SET -1: warm-up), and "trace_driver: N
 * passed, N failed" for the functional checks. Operation INDEX is segment
 * 2 * INDEX + 1 of the plugin's count (segment 0 runs up to the first mark;
 * every operation is followed by one glue segment).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "fastsm2.h"
#include "testutil.h"

#define NSETS  12
#define MSGLEN 19
#define CTLEN  (97 + MSGLEN)

/* The segment boundary: the plugin cuts the trace each time this runs. */
__attribute__((noinline, noipa, used)) void trace_mark(void)
{
    __asm__ volatile("" ::: "memory");
}

typedef struct {
    unsigned char d[32], k[32], k2[32], r[32], msg[MSGLEN];
    unsigned char sk[32], spt[200]; /* SM4: keys, plaintext */
} secret_set;
#define SM4LEN 200 /* 12 blocks and 8 bytes */

/* n = FFFFFFFE FFFFFFFF FFFFFFFF FFFFFFFF 7203DF6B 21C6052B 53BBF409 39D54123 */
static const unsigned char N_BE[32] = {0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                       0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x72, 0x03, 0xDF, 0x6B, 0x21, 0xC6,
                                       0x05, 0x2B, 0x53, 0xBB, 0xF4, 0x09, 0x39, 0xD5, 0x41, 0x23};

static secret_set sets[NSETS];
static secret_set cur; /* the set now running: the operations read only this */

/* Fixed public inputs. */
static unsigned char E[32];
static fastsm2_pubkey pub_fixed_fresh, pub_fixed_tab, pub_b;
static fs2_affine p_fixed;
static const fs2_pubtab *p_fixed_tab;
static unsigned char rb[65];
static fastsm2_privkey key_b;

/* Per-set public data made in the glue. */
static unsigned char ct_sets[NSETS][CTLEN];
static unsigned char sig_sets[NSETS][64];
static fastsm2_pubkey pub_sets[NSETS];

/* The working objects and buffers the operations use (fixed addresses). */
static fastsm2_privkey key;
static fastsm2_pubkey pubw;
static fastsm2_kx_ctx kxa;
static fs2_affine pt;
static uint64_t kk[4];
static unsigned char sig[64], sig2[64], ct[CTLEN], ctbad[CTLEN], pt_out[64], ra[65], kab[16], conf[32];
static unsigned char vsig[64];
static size_t ctlen, outlen, outlen_bad;
static int st, st2;
static const fastsm2_pubkey *vpub;
static volatile unsigned sink;
static unsigned char planted_table[256];
static fastsm2_sm4_key sk1, sk2;
static unsigned char s_ct[SM4LEN + 16], s_out[SM4LEN + 16], s_tag[16], s_tagbad[16];
static size_t s_len;
static const unsigned char S_IV[16] = {0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87,
                                       0x78, 0x69, 0x5a, 0x4b, 0x3c, 0xff, 0xff, 0xfe};
static const unsigned char S_AAD[20] = {0x17, 0x03, 0x03, 0x00, 0xd8};

static struct {
    const char *name;
    int set;
} labels[NSETS * 32 + 64];
static int nlab;

/* Start an operation segment (the label is written before the mark, in the
 * glue segment), and end it. */
static void op_begin(const char *name, int set)
{
    labels[nlab].name = name;
    labels[nlab].set = set;
    nlab++;
    trace_mark();
}

static void op_end(void)
{
    trace_mark();
}

/* b = n - m (big-endian), m small */
static void n_minus(unsigned char b[32], unsigned m)
{
    memcpy(b, N_BE, 32);
    b[31] = (unsigned char)(b[31] - m); /* n's low byte is 0x23: no borrow */
}

static void small(unsigned char b[32], unsigned m)
{
    memset(b, 0, 32);
    b[31] = (unsigned char)m;
}

/* a random scalar in [1, n - 1 - extra] */
static void random_scalar(unsigned char b[32], unsigned extra)
{
    unsigned char lim[32];
    n_minus(lim, 1 + extra);
    for (;;) {
        fs2t_rand_bytes(b, 32);
        int zero = 1;
        for (int i = 0; i < 32; i++)
            zero &= b[i] == 0;
        if (!zero && memcmp(b, lim, 32) <= 0)
            return;
    }
}

static void make_sets(void)
{
    for (int i = 0; i < NSETS; i++) {
        secret_set *s = &sets[i];
        random_scalar(s->d, 1);
        random_scalar(s->k, 0);
        random_scalar(s->k2, 0);
        random_scalar(s->r, 0);
        fs2t_rand_bytes(s->msg, MSGLEN);
        fs2t_rand_bytes(s->sk, 32);
        fs2t_rand_bytes(s->spt, SM4LEN);
    }
    /* the edges: d in {1, n-2}, k, k2, r in {1, n-1} */
    small(sets[0].d, 1), small(sets[0].k, 1), n_minus(sets[0].k2, 1), small(sets[0].r, 1);
    n_minus(sets[1].d, 2), n_minus(sets[1].k, 1), small(sets[1].k2, 1), n_minus(sets[1].r, 1);
    small(sets[2].d, 1), n_minus(sets[2].k, 1), small(sets[2].k2, 1), n_minus(sets[2].r, 1);
    n_minus(sets[3].d, 2), small(sets[3].k, 1), n_minus(sets[3].k2, 1), small(sets[3].r, 1);
    small(sets[4].d, 2), small(sets[4].k, 2);
}

/* The operations of one set (set -1: the warm-up, with set 0's secrets). */
static void run_set(int si)
{
    int s = si < 0 ? 0 : si;
    fastsm2_pubkey own;
    unsigned char e2[32], d_back[32];

    /* glue: the set's secrets into the fixed buffers */
    cur = sets[s];
    fastsm2_privkey_clear(&key);

    op_begin("keyload", si);
    st = fastsm2_privkey_from_bytes(&key, cur.d);
    op_end();
    CHECK(st == FASTSM2_OK);
    CHECK(fastsm2_privkey_to_bytes(d_back, &key) == FASTSM2_OK && memcmp(d_back, cur.d, 32) == 0);
    CHECK(fastsm2_privkey_pubkey(&own, &key) == FASTSM2_OK);

    op_begin("sign-first", si);
    st = fastsm2_sign_digest_with_nonce(sig, &key, E, cur.k);
    op_end();
    CHECK(st == FASTSM2_OK && fastsm2_verify_digest(&own, E, sig) == 1);
    memcpy(sig_sets[s], sig, 64);
    pub_sets[s] = own;

    op_begin("sign-later", si);
    st = fastsm2_sign_digest_with_nonce(sig2, &key, E, cur.k2);
    op_end();
    CHECK(st == FASTSM2_OK && fastsm2_verify_digest(&own, E, sig2) == 1);

    /* kG and kP through the backend's entry points (k as limbs) */
    const fs2_ec_ops *ec = fs2_ec(), *ref = fs2_backends[0]->ec; /* generic: the reference */
    fs2_u256_from_be(kk, cur.k);
    op_begin("kG", si);
    ec->mul_base(&pt, kk);
    op_end();
    {
        fs2_affine q;
        ref->mul_base(&q, kk);
        CHECK(memcmp(&q, &pt, sizeof q) == 0 && !pt.infinity);
    }
    op_begin("kP", si);
    ec->mul(&pt, &p_fixed, NULL, kk);
    op_end();
    {
        fs2_affine q;
        ref->mul(&q, &p_fixed, NULL, kk);
        CHECK(memcmp(&q, &pt, sizeof q) == 0 && !pt.infinity);
    }
    op_begin("kP-tables", si);
    ec->mul(&pt, &p_fixed, p_fixed_tab, kk);
    op_end();
    {
        fs2_affine q;
        ref->mul(&q, &p_fixed, NULL, kk);
        CHECK(memcmp(&q, &pt, sizeof q) == 0);
    }

    /* encryption: a secret nonce (k2) and plaintext to the fixed key */
    pubw = pub_fixed_fresh;
    ctlen = sizeof ct;
    op_begin("encrypt", si);
    st = fastsm2_encrypt_with_nonce(ct, &ctlen, &pubw, cur.msg, MSGLEN, FASTSM2_CT_RAW, cur.k2);
    op_end();
    CHECK(st == FASTSM2_OK && ctlen == CTLEN);
    pubw = pub_fixed_tab;
    ctlen = sizeof ct;
    op_begin("encrypt-tab", si);
    st2 = fastsm2_encrypt_with_nonce(ct, &ctlen, &pubw, cur.msg, MSGLEN, FASTSM2_CT_RAW, cur.k2);
    op_end();
    CHECK(st2 == FASTSM2_OK && ctlen == CTLEN);

    /* decryption of the set's ciphertext (made in main with a fixed k) */
    memcpy(ct, ct_sets[s], CTLEN);
    memcpy(ctbad, ct_sets[s], CTLEN);
    ctbad[65 + 7] ^= 0x20; /* a C3 byte */
    outlen = sizeof pt_out;
    op_begin("decrypt", si);
    st = fastsm2_decrypt(pt_out, &outlen, &key, ct, CTLEN, FASTSM2_CT_RAW);
    op_end();
    CHECK(st == FASTSM2_OK && outlen == MSGLEN && memcmp(pt_out, cur.msg, MSGLEN) == 0);
    outlen_bad = sizeof pt_out;
    op_begin("decrypt-bad", si);
    st2 = fastsm2_decrypt(pt_out, &outlen_bad, &key, ctbad, CTLEN, FASTSM2_CT_RAW);
    op_end();
    CHECK(st2 == FASTSM2_ERR_DECRYPT && outlen_bad == 0);

    /* key exchange, initiator A (secret d, r) against the fixed responder */
    fastsm2_kx_clear(&kxa);
    op_begin("kx-init", si);
    st = fastsm2_kx_init(&kxa, FASTSM2_KX_INITIATOR, &key, NULL, 0, &pub_b, NULL, 0);
    op_end();
    CHECK(st == FASTSM2_OK);
    op_begin("kx-start", si);
    st = fastsm2_kx_start_with_nonce(&kxa, ra, cur.r);
    op_end();
    CHECK(st == FASTSM2_OK);
    op_begin("kx-compute", si);
    st = fastsm2_kx_compute(&kxa, kab, sizeof kab, rb, sizeof rb);
    op_end();
    CHECK(st == FASTSM2_OK);
    op_begin("kx-confirm", si);
    st = fastsm2_kx_confirmation(conf, &kxa);
    op_end();
    CHECK(st == FASTSM2_OK);
    {
        /* the responder's side agrees (same fixed r_B, so the same R_B) */
        fastsm2_kx_ctx b;
        unsigned char rb2[65], kb[16], confb[32];
        static const unsigned char RB_NONCE[32] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99};
        CHECK(fastsm2_kx_init(&b, FASTSM2_KX_RESPONDER, &key_b, NULL, 0, &own, NULL, 0) == FASTSM2_OK);
        CHECK(fastsm2_kx_start_with_nonce(&b, rb2, RB_NONCE) == FASTSM2_OK && memcmp(rb2, rb, 65) == 0);
        CHECK(fastsm2_kx_compute(&b, kb, sizeof kb, ra, sizeof ra) == FASTSM2_OK && memcmp(kb, kab, 16) == 0);
        CHECK(fastsm2_kx_verify_confirmation(&b, conf) == FASTSM2_OK);
        CHECK(fastsm2_kx_confirmation(confb, &b) == FASTSM2_OK &&
              fastsm2_kx_verify_confirmation(&kxa, confb) == FASTSM2_OK);
        fastsm2_kx_clear(&b);
    }

    /* SM4 under the table in use */
    fastsm2_sm4_key_clear(&sk1);
    fastsm2_sm4_key_clear(&sk2);
    op_begin("sm4-key", si);
    st = fastsm2_sm4_key_init(&sk1, cur.sk);
    st2 = fastsm2_sm4_key_init(&sk2, cur.sk + 16);
    op_end();
    CHECK(st == FASTSM2_OK && st2 == FASTSM2_OK);
    {
        /* the references: ECB block by block through the same key */
        unsigned char ks[SM4LEN + 16], ctr[16];
        memcpy(ctr, S_IV, 16);
        for (size_t b = 0; b < SM4LEN; b += 16) {
            CHECK(fastsm2_sm4_ecb_encrypt(ks + b, &sk1, ctr, 16) == FASTSM2_OK);
            for (int j = 15; j >= 0 && ++ctr[j] == 0; j--)
                ;
        }
        op_begin("sm4-ctr", si);
        st = fastsm2_sm4_ctr(s_out, &sk1, S_IV, cur.spt, SM4LEN);
        op_end();
        for (size_t j = 0; j < SM4LEN; j++)
            ks[j] ^= cur.spt[j];
        CHECK(st == FASTSM2_OK && memcmp(s_out, ks, SM4LEN) == 0);
    }
    s_len = sizeof s_ct;
    op_begin("sm4-cbc-enc", si);
    st = fastsm2_sm4_cbc_encrypt(s_ct, &s_len, &sk1, S_IV, FASTSM2_SM4_PAD_PKCS7, cur.spt, SM4LEN);
    op_end();
    CHECK(st == FASTSM2_OK && s_len == (SM4LEN / 16 + 1) * 16);
    s_len = sizeof s_out;
    op_begin("sm4-cbc-dec", si);
    st = fastsm2_sm4_cbc_decrypt(s_out, &s_len, &sk1, S_IV, FASTSM2_SM4_PAD_PKCS7, s_ct, (SM4LEN / 16 + 1) * 16);
    op_end();
    CHECK(st == FASTSM2_OK && s_len == SM4LEN && memcmp(s_out, cur.spt, SM4LEN) == 0);
    op_begin("sm4-gcm-enc", si);
    st = fastsm2_sm4_gcm_encrypt(s_ct, s_tag, 16, &sk1, S_IV, 12, S_AAD, sizeof S_AAD, cur.spt, SM4LEN);
    op_end();
    CHECK(st == FASTSM2_OK);
    op_begin("sm4-gcm-dec", si);
    st = fastsm2_sm4_gcm_decrypt(s_out, &sk1, S_IV, 12, S_AAD, sizeof S_AAD, s_ct, SM4LEN, s_tag, 16);
    op_end();
    CHECK(st == FASTSM2_OK && memcmp(s_out, cur.spt, SM4LEN) == 0);
    memcpy(s_tagbad, s_tag, 16);
    s_tagbad[15] ^= 1;
    op_begin("sm4-gcm-bad", si);
    st = fastsm2_sm4_gcm_decrypt(s_out, &sk1, S_IV, 12, S_AAD, sizeof S_AAD, s_ct, SM4LEN, s_tagbad, 16);
    op_end();
    CHECK(st == FASTSM2_ERR_TAG);
    op_begin("sm4-ccm-enc", si);
    st = fastsm2_sm4_ccm_encrypt(s_ct, s_tag, 16, &sk1, S_IV, 12, S_AAD, sizeof S_AAD, cur.spt, SM4LEN);
    op_end();
    CHECK(st == FASTSM2_OK);
    op_begin("sm4-ccm-dec", si);
    st = fastsm2_sm4_ccm_decrypt(s_out, &sk1, S_IV, 12, S_AAD, sizeof S_AAD, s_ct, SM4LEN, s_tag, 16);
    op_end();
    CHECK(st == FASTSM2_OK && memcmp(s_out, cur.spt, SM4LEN) == 0);
    CHECK(fastsm2_sm4_xts_encrypt(s_ct, &sk1, &sk2, FASTSM2_SM4_XTS_GB, S_IV, cur.spt, SM4LEN) == FASTSM2_OK);
    op_begin("sm4-xts-gb", si);
    st = fastsm2_sm4_xts_decrypt(s_out, &sk1, &sk2, FASTSM2_SM4_XTS_GB, S_IV, s_ct, SM4LEN);
    op_end();
    CHECK(st == FASTSM2_OK && memcmp(s_out, cur.spt, SM4LEN) == 0);
    CHECK(fastsm2_sm4_xts_encrypt(s_ct, &sk1, &sk2, FASTSM2_SM4_XTS_IEEE, S_IV, cur.spt, SM4LEN) == FASTSM2_OK);
    op_begin("sm4-xts-ieee", si);
    st = fastsm2_sm4_xts_decrypt(s_out, &sk1, &sk2, FASTSM2_SM4_XTS_IEEE, S_IV, s_ct, SM4LEN);
    op_end();
    CHECK(st == FASTSM2_OK && memcmp(s_out, cur.spt, SM4LEN) == 0);

    /* positive controls: these must differ between sets */
    memcpy(vsig, sig_sets[s], 64);
    vpub = &pub_sets[s];
    op_begin("verify", si);
    st = fastsm2_verify_digest(vpub, E, vsig);
    op_end();
    CHECK(st == 1);
    op_begin("planted-branch", si);
    for (unsigned i = 0; i < cur.d[31]; i++)
        sink = sink + i;
    op_end();
    op_begin("planted-load", si);
    sink = sink + planted_table[cur.d[31]];
    op_end();

    memcpy(e2, E, 32);
    e2[0] ^= 1;
    CHECK(fastsm2_verify_digest(&own, e2, sig) == 0);
}

int main(void)
{
    const fs2_backend *be = fs2_backend_get();
    unsigned char d0[32], db[32], k0[32], pb[65];
    size_t len;
    fastsm2_privkey k_fixed;

    printf("backend %s\n", be->name);
    printf("sm4 %s\n", fastsm2_sm4_backend_name());
    for (int i = 0; i < 32; i++) {
        E[i] = (unsigned char)(0xa5 ^ (7 * i));
        d0[i] = (unsigned char)(0x5a + 3 * i);
        db[i] = (unsigned char)(0x21 + 11 * i);
        k0[i] = (unsigned char)(0x3c + 5 * i);
    }
    for (int i = 0; i < 256; i++)
        planted_table[i] = (unsigned char)i;
    make_sets();

    /* the fixed public inputs */
    CHECK(fastsm2_privkey_from_bytes(&k_fixed, d0) == FASTSM2_OK);
    CHECK(fastsm2_privkey_pubkey(&pub_fixed_fresh, &k_fixed) == FASTSM2_OK);
    len = sizeof pb;
    CHECK(fastsm2_pubkey_to_bytes(pb, &len, &pub_fixed_fresh, 0) == FASTSM2_OK && len == 65);
    CHECK(fastsm2_pubkey_from_bytes(&pub_fixed_fresh, pb, 65) == FASTSM2_OK);
    CHECK(fastsm2_pubkey_from_bytes(&pub_fixed_tab, pb, 65) == FASTSM2_OK);
    CHECK(fastsm2_pubkey_precompute(&pub_fixed_tab) == FASTSM2_OK); /* the key object's tables */
    fs2_u256_from_be(p_fixed.x, pb + 1);
    fs2_u256_from_be(p_fixed.y, pb + 33);
    p_fixed.infinity = 0;
    {
        static fs2_pubtab tab;
        fs2_ec()->precompute_var(&tab, &p_fixed);
        p_fixed_tab = &tab;
    }
    CHECK(fastsm2_privkey_from_bytes(&key_b, db) == FASTSM2_OK);
    CHECK(fastsm2_privkey_pubkey(&pub_b, &key_b) == FASTSM2_OK);
    {
        fastsm2_kx_ctx b;
        static const unsigned char RB_NONCE[32] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99};
        CHECK(fastsm2_kx_init(&b, FASTSM2_KX_RESPONDER, &key_b, NULL, 0, &pub_b, NULL, 0) == FASTSM2_OK);
        CHECK(fastsm2_kx_start_with_nonce(&b, rb, RB_NONCE) == FASTSM2_OK);
        fastsm2_kx_clear(&b);
    }
    /* each set's ciphertext: its plaintext to its key, with the fixed k0
     * (so every C1 is k0 G) */
    for (int s = 0; s < NSETS; s++) {
        fastsm2_privkey k;
        fastsm2_pubkey p;
        CHECK(fastsm2_privkey_from_bytes(&k, sets[s].d) == FASTSM2_OK);
        CHECK(fastsm2_privkey_pubkey(&p, &k) == FASTSM2_OK);
        len = CTLEN;
        CHECK(fastsm2_encrypt_with_nonce(ct_sets[s], &len, &p, sets[s].msg, MSGLEN, FASTSM2_CT_RAW, k0) == FASTSM2_OK &&
              len == CTLEN);
        CHECK(s == 0 || memcmp(ct_sets[s], ct_sets[0], 65) == 0);
        fastsm2_privkey_clear(&k);
    }

    run_set(-1);
    for (int s = 0; s < NSETS; s++)
        run_set(s);
    trace_mark(); /* ends the last glue segment */

    for (int i = 0; i < nlab; i++)
        printf("op %d %s %d\n", i, labels[i].name, labels[i].set);
    fastsm2_privkey_clear(&key);
    fastsm2_privkey_clear(&key_b);
    fastsm2_privkey_clear(&k_fixed);
    fastsm2_sm4_key_clear(&sk1);
    fastsm2_sm4_key_clear(&sk2);
    return fs2t_finish("trace_driver");
}
