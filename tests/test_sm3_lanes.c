/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Multi-buffer SM3 and the lane-parallel KDF, on every backend in the
 * dispatch table that this CPU can run (SM3 tables of 1, 4, 8 or 16 lanes):
 *  - compress_lanes against the generic compression lane by lane, with
 *    random states, unaligned and separately placed blocks, 0..9 blocks;
 *  - fastsm2_sm3_many against OpenSSL's SM3 for every length 0..300 (each
 *    lane count sees messages of every length in every lane position),
 *    unequal lengths in one call, a few large messages, n = 0, 1, 2, 17,
 *    33, and its bad arguments;
 *  - the KDF of every output length 1..1025 with the lanes engine against
 *    the scalar engine and an independent KDF built on OpenSSL's SM3, for
 *    Z of 64 bytes (SM2 encryption), 0, 5, 55, 60 and 128 bytes (one- and
 *    two-block counter templates), and drawn in pieces of odd sizes.
 */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "hash/kdf.h"
#include "testutil.h"

static void ossl_sm3(unsigned char out[32], const void *data, size_t len)
{
    unsigned int n = 0;
    if (!EVP_Digest(data, len, out, &n, EVP_sm3(), NULL) || n != 32)
        abort();
}

/* KDF(Z, len) from OpenSSL's SM3 (GB/T 32918.4 5.4.3, written out). */
static void ref_kdf(unsigned char *out, size_t len, const unsigned char *z, size_t zlen)
{
    unsigned char *buf = malloc(zlen + 4), h[32];
    uint32_t ct = 1;
    if (zlen)
        memcpy(buf, z, zlen);
    while (len) {
        size_t n = len < 32 ? len : 32;
        buf[zlen] = (unsigned char)(ct >> 24);
        buf[zlen + 1] = (unsigned char)(ct >> 16);
        buf[zlen + 2] = (unsigned char)(ct >> 8);
        buf[zlen + 3] = (unsigned char)ct;
        ossl_sm3(h, buf, zlen + 4);
        memcpy(out, h, n);
        out += n;
        len -= n;
        ct++;
    }
    free(buf);
}

static void test_compress_lanes(const fs2_sm3_ops *be)
{
    enum { MAXNB = 9 };
    unsigned lanes = be->lanes;
    /* one lane: no lanes function; else 2..16 lanes and the function */
    CHECK(lanes >= 1 && lanes <= 16 && (lanes == 1) == (be->compress_lanes == NULL));
    if (lanes < 2 || lanes > 16 || be->compress_lanes == NULL)
        return;
    unsigned char *mem[16];
    const unsigned char *ptr[16];
    uint32_t got[16][8], want[16][8];
    unsigned long bad = 0;
    for (unsigned l = 0; l < lanes; l++)
        mem[l] = malloc(64 * MAXNB + 16);
    for (int it = 0; it < 60; it++) {
        size_t nb = (size_t)(it % (MAXNB + 1));
        fs2t_rand_bytes(got, sizeof got);
        memcpy(want, got, sizeof got);
        for (unsigned l = 0; l < lanes; l++) {
            /* a different misalignment in every lane */
            ptr[l] = mem[l] + (l + (unsigned)it) % 16;
            fs2t_rand_bytes((void *)ptr[l], 64 * nb);
            fs2_sm3_compress_generic(want[l], ptr[l], nb);
        }
        be->compress_lanes(got, ptr, nb);
        for (unsigned l = 0; l < lanes; l++)
            bad += memcmp(got[l], want[l], 32) != 0;
    }
    /* Lanes may read the same blocks (the KDF and sm3_many do that). */
    for (unsigned l = 0; l < lanes; l++) {
        ptr[l] = mem[0];
        memset(got[l], (int)l, 32);
        memcpy(want[l], got[l], 32);
        fs2_sm3_compress_generic(want[l], mem[0], 3);
    }
    be->compress_lanes(got, ptr, 3);
    for (unsigned l = 0; l < lanes; l++)
        bad += memcmp(got[l], want[l], 32) != 0;
    if (bad)
        fprintf(stderr, "SM3 %s: %lu lanes differ from the generic compression\n", be->name, bad);
    CHECK(bad == 0);
    for (unsigned l = 0; l < lanes; l++)
        free(mem[l]);
}

static void test_many(const fs2_backend *be)
{
    enum { MAXLEN = 300, N = MAXLEN + 1 };
    unsigned char *msgs[N], *dig = malloc(32 * (N + 64)), want[32];
    const unsigned char *cm[N];
    size_t lens[N];
    unsigned long bad = 0;

    /* Every length 0..300, in order and then reversed and rotated, so that
     * each length meets different neighbours and lane positions. */
    for (int order = 0; order < 3; order++) {
        for (size_t i = 0; i < N; i++) {
            size_t len = order == 0 ? i : order == 1 ? MAXLEN - i : (i * 37) % N;
            lens[i] = len;
            msgs[i] = malloc(len + 1);
            fs2t_rand_bytes(msgs[i], len);
            cm[i] = msgs[i];
        }
        CHECK_STATUS(fastsm2_sm3_many(dig, cm, lens, N), FASTSM2_OK);
        for (size_t i = 0; i < N; i++) {
            ossl_sm3(want, msgs[i], lens[i]);
            bad += memcmp(dig + 32 * i, want, 32) != 0;
            free(msgs[i]);
        }
    }
    if (bad)
        fprintf(stderr, "backend %s: fastsm2_sm3_many wrong on %lu short messages\n", be->name, bad);
    CHECK(bad == 0);

    /* Large and unequal: a few hundred KiB beside tiny ones, odd counts. */
    static const size_t big[] = {100000, 3, 65536, 64, 0, 8192, 70001, 55, 56, 119, 120, 4096, 1, 200000, 63, 128, 9};
    size_t nbig = sizeof big / sizeof big[0];
    for (size_t i = 0; i < nbig; i++) {
        lens[i] = big[i];
        msgs[i] = malloc(big[i] + 1);
        fs2t_rand_bytes(msgs[i], big[i]);
        cm[i] = msgs[i];
    }
    static const size_t counts[] = {1, 2, 5, 16, 17};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        size_t n = counts[c];
        memset(dig, 0xaa, 32 * n);
        CHECK_STATUS(fastsm2_sm3_many(dig, cm, lens, n), FASTSM2_OK);
        for (size_t i = 0; i < n; i++) {
            ossl_sm3(want, msgs[i], lens[i]);
            CHECK(memcmp(dig + 32 * i, want, 32) == 0);
        }
    }
    /* Equal lengths (the lanes never fall out of step), 33 messages. */
    for (size_t i = 0; i < 33; i++) {
        lens[i] = 1000;
        cm[i] = msgs[0] + 7 * i;
    }
    CHECK_STATUS(fastsm2_sm3_many(dig, cm, lens, 33), FASTSM2_OK);
    for (size_t i = 0; i < 33; i++) {
        ossl_sm3(want, cm[i], 1000);
        CHECK(memcmp(dig + 32 * i, want, 32) == 0);
    }
    for (size_t i = 0; i < nbig; i++)
        free(msgs[i]);

    /* n = 0 does nothing; NULL messages of length 0 are the empty one. */
    CHECK_STATUS(fastsm2_sm3_many(NULL, NULL, NULL, 0), FASTSM2_OK);
    const unsigned char *nulls[3] = {NULL, NULL, NULL};
    size_t zeros[3] = {0, 0, 0};
    CHECK_STATUS(fastsm2_sm3_many(dig, nulls, zeros, 3), FASTSM2_OK);
    ossl_sm3(want, "", 0);
    CHECK(memcmp(dig, want, 32) == 0 && memcmp(dig + 64, want, 32) == 0);
    /* Bad arguments: named error, digests zeroed. */
    size_t one[3] = {0, 1, 0};
    static const unsigned char zero32[32];
    memset(dig, 0xaa, 96);
    CHECK_STATUS(fastsm2_sm3_many(dig, nulls, one, 3), FASTSM2_ERR_ARG);
    CHECK(memcmp(dig, zero32, 32) == 0 && memcmp(dig + 64, zero32, 32) == 0);
    CHECK_STATUS(fastsm2_sm3_many(NULL, cm, lens, 1), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm3_many(dig, NULL, lens, 1), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm3_many(dig, cm, NULL, 1), FASTSM2_ERR_ARG);
    free(dig);
}

static int all_zero(const unsigned char *p, size_t n)
{
    unsigned char acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

static void test_kdf(const fs2_backend *be)
{
    static const size_t zlens[] = {64, 0, 5, 55, 60, 128};
    enum { MAXOUT = 1025 };
    unsigned char z[128], in[MAXOUT], ref[MAXOUT], lanes_out[MAXOUT], scalar_out[MAXOUT], x[MAXOUT];
    unsigned long bad = 0;

    for (size_t zi = 0; zi < sizeof zlens / sizeof zlens[0]; zi++) {
        size_t zlen = zlens[zi];
        fs2t_rand_bytes(z, sizeof z);
        fs2t_rand_bytes(in, sizeof in);
        ref_kdf(ref, MAXOUT, z, zlen);
        /* Every length: t is a prefix of the longest t. */
        for (size_t len = 1; len <= MAXOUT; len++) {
            if (zlen != 64 && len % 7 != 1 && len < 600)
                continue; /* every length for SM2's Z, a sample for the others */
            int r1 = fs2_kdf_xor_ex(lanes_out, NULL, len, z, zlen, FS2_KDF_LANES);
            int r2 = fs2_kdf_xor_ex(scalar_out, NULL, len, z, zlen, FS2_KDF_SCALAR);
            /* 0 exactly when t is all zero (GB/T 32918.4 7.1 A5: a new k),
             * which a random Z gives for short t: 1/256 for one byte */
            int want = !all_zero(ref, len);
            bad += r1 != want || r2 != want;
            bad += memcmp(lanes_out, ref, len) != 0;
            bad += memcmp(scalar_out, ref, len) != 0;
            /* XOR form, and in place */
            fs2_kdf_xor_ex(x, in, len, z, zlen, FS2_KDF_LANES);
            for (size_t i = 0; i < len; i++)
                bad += x[i] != (unsigned char)(in[i] ^ ref[i]);
            memcpy(x, in, len);
            fs2_kdf_xor_ex(x, x, len, z, zlen, FS2_KDF_LANES);
            for (size_t i = 0; i < len; i++)
                bad += x[i] != (unsigned char)(in[i] ^ ref[i]);
        }
        /* The stream in pieces of odd sizes equals one call. */
        static const size_t pieces[] = {1, 31, 33, 64, 5, 96, 200, 3, 500, 92};
        fs2_kdf_ctx k;
        fs2_kdf_init(&k, z, zlen, FS2_KDF_LANES);
        size_t at = 0;
        for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
            fs2_kdf_stream(&k, x + at, in + at, pieces[p]);
            at += pieces[p];
        }
        CHECK(at == MAXOUT);
        for (size_t i = 0; i < MAXOUT; i++)
            bad += x[i] != (unsigned char)(in[i] ^ ref[i]);
        CHECK(fs2_kdf_nonzero(&k) == 1);
        /* The public KDF agrees. */
        CHECK_STATUS(fastsm2_kdf(x, MAXOUT, z, zlen), FASTSM2_OK);
        CHECK(memcmp(x, ref, MAXOUT) == 0);
    }
    /* 64 KiB from one Z: crosses many full lane groups. */
    size_t biglen = 65536 + 17;
    unsigned char *b1 = malloc(biglen), *b2 = malloc(biglen);
    fs2_kdf_xor_ex(b1, NULL, biglen, z, 64, FS2_KDF_LANES);
    ref_kdf(b2, biglen, z, 64);
    CHECK(memcmp(b1, b2, biglen) == 0);
    free(b1);
    free(b2);
    if (bad)
        fprintf(stderr, "backend %s: %lu KDF mismatches\n", be->name, bad);
    CHECK(bad == 0);
}

int main(void)
{
    int ran = 0;
    for (size_t i = 0; fs2_backends[i]; i++) {
        const fs2_backend *be = fs2_backends[i];
        if (!fs2_backend_available(be)) {
            printf("backend %s: not available on this CPU, skipped\n", be->name);
            continue;
        }
        CHECK(fs2_backend_force(be->name) == 1);
        printf("backend %s: SM3 %s, %u lanes\n", be->name, be->sm3->name, be->sm3->lanes);
        test_compress_lanes(be->sm3);
        test_many(be);
        test_kdf(be);
        ran++;
    }
    CHECK(ran >= 1);
    return fs2t_finish("test_sm3_lanes");
}
