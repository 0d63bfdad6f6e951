/* SPDX-License-Identifier: Apache-2.0 */
/* SM3 (GB/T 32905), the SM2 KDF (GB/T 32918.4 5.4.3), every backend's SM3
 * compression, status-code names and the small utilities of src/util.c.
 * OpenSSL's EVP_sm3() is the independent reference. */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "backend/backend.h"
#include "hash/kdf.h"
#include "cpu.h"
#include "internal.h"
#include "testutil.h"

static void ossl_sm3(unsigned char out[32], const void *data, size_t len)
{
    unsigned int olen = 0;
    if (!EVP_Digest(data, len, out, &olen, EVP_sm3(), NULL) || olen != 32) {
        fprintf(stderr, "OpenSSL EVP_sm3 failed\n");
        exit(2);
    }
}

/* How many of SM3(m) in one call and streamed in random pieces of 0..maxpiece
 * bytes differ from OpenSSL's (0, 1 or 2). */
static int sm3_mismatches(const unsigned char *m, size_t len, size_t maxpiece)
{
    unsigned char want[32], got[32];
    ossl_sm3(want, m, len);
    fastsm2_sm3(got, m, len);
    int bad = memcmp(got, want, 32) != 0;
    fastsm2_sm3_ctx ctx;
    fastsm2_sm3_init(&ctx);
    for (size_t off = 0, n; off < len; off += n) {
        n = fs2t_rand_piece(len - off, 0, maxpiece);
        fastsm2_sm3_update(&ctx, m + off, n);
    }
    fastsm2_sm3_final(got, &ctx);
    return bad + (memcmp(got, want, 32) != 0);
}

/* The KDF written out from GB/T 32918.4 5.4.3 with OpenSSL's SM3. */
static void ref_kdf(unsigned char *out, size_t outlen, const unsigned char *z, size_t zlen)
{
    unsigned char *buf = malloc(zlen + 4), h[32];
    if (zlen)
        memcpy(buf, z, zlen);
    for (uint32_t ct = 1; outlen; ct++) {
        buf[zlen] = (unsigned char)(ct >> 24);
        buf[zlen + 1] = (unsigned char)(ct >> 16);
        buf[zlen + 2] = (unsigned char)(ct >> 8);
        buf[zlen + 3] = (unsigned char)ct;
        ossl_sm3(h, buf, zlen + 4);
        size_t n = outlen < 32 ? outlen : 32;
        memcpy(out, h, n);
        out += n;
        outlen -= n;
    }
    free(buf);
}

static void test_kat(void)
{
    for (int i = 0; i < 2; i++) {
        /* fs2t_vector returns a static buffer: copy before the next call */
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", fs2t_vector("sm3", "msg_ascii", i));
        unsigned char want[32], got[32];
        char hex[65];
        CHECK(fs2t_unhex(want, sizeof want, fs2t_vector("sm3", "digest", i)) == 32);
        fastsm2_sm3(got, msg, strlen(msg));
        if (memcmp(got, want, 32)) {
            fs2t_hex(hex, got, 32);
            fprintf(stderr, "SM3 KAT %d: got %s\n", i, hex);
        }
        CHECK(memcmp(got, want, 32) == 0);

        /* Streaming, one byte at a time. */
        fastsm2_sm3_ctx ctx;
        fastsm2_sm3_init(&ctx);
        for (size_t k = 0; msg[k]; k++)
            fastsm2_sm3_update(&ctx, msg + k, 1);
        fastsm2_sm3_final(got, &ctx);
        CHECK(memcmp(got, want, 32) == 0);
        /* final wipes the context */
        static const fastsm2_sm3_ctx zero;
        CHECK(memcmp(&ctx, &zero, sizeof ctx) == 0);
    }

    /* The empty message, and one million 'a'. */
    unsigned char want[32], got[32];
    ossl_sm3(want, "", 0);
    fastsm2_sm3(got, "", 0);
    CHECK(memcmp(got, want, 32) == 0);
    fastsm2_sm3(got, NULL, 0);
    CHECK(memcmp(got, want, 32) == 0);

    size_t mlen = 1000000;
    unsigned char *m = malloc(mlen);
    memset(m, 'a', mlen);
    CHECK(sm3_mismatches(m, mlen, 4999) == 0);
    free(m);
}

static void test_streaming(void)
{
    unsigned char msg[200], want[32], got[32];
    fs2t_rand_bytes(msg, sizeof msg);
    fastsm2_sm3(want, msg, sizeof msg);
    unsigned long bad = 0;
    for (size_t i = 0; i <= sizeof msg; i++) {
        for (size_t j = i; j <= sizeof msg; j++) {
            fastsm2_sm3_ctx ctx;
            fastsm2_sm3_init(&ctx);
            fastsm2_sm3_update(&ctx, msg, i);
            fastsm2_sm3_update(&ctx, msg + i, j - i);
            fastsm2_sm3_update(&ctx, msg + j, sizeof msg - j);
            fastsm2_sm3_final(got, &ctx);
            bad += memcmp(got, want, 32) != 0;
        }
    }
    CHECK(bad == 0);
    /* The one-shot itself against OpenSSL. */
    ossl_sm3(got, msg, sizeof msg);
    CHECK(memcmp(got, want, 32) == 0);
    /* A copied context continues independently (the KDF relies on it). */
    fastsm2_sm3_ctx a, b;
    fastsm2_sm3_init(&a);
    fastsm2_sm3_update(&a, msg, 70);
    memcpy(&b, &a, sizeof a);
    fastsm2_sm3_update(&a, msg + 70, 130);
    fastsm2_sm3_final(got, &a);
    CHECK(memcmp(got, want, 32) == 0);
    fastsm2_sm3_update(&b, msg + 70, 130);
    fastsm2_sm3_final(got, &b);
    CHECK(memcmp(got, want, 32) == 0);
}

static void test_random_lengths(void)
{
    unsigned char *buf = malloc(2000);
    unsigned long bad = 0;
    for (int it = 0; it < 600; it++) {
        /* every length 0..199, then random ones up to 2000 */
        size_t len = it < 200 ? (size_t)it : (size_t)(fs2t_rand_u64() % 2001);
        fs2t_rand_bytes(buf, len);
        bad += (unsigned long)sm3_mismatches(buf, len, 149);
    }
    CHECK(bad == 0);
    free(buf);
}

static void test_kdf(void)
{
    static const size_t zlens[] = {0,  1,  2,  3,  4,  31, 32,  33,  51,  52,  55,  56, 59,
                                   60, 63, 64, 65, 68, 96, 119, 120, 127, 128, 129, 130};
    unsigned char z[130], want[300], got[300], in[300], x[300];
    unsigned long bad = 0;
    for (size_t zi = 0; zi < sizeof zlens / sizeof zlens[0]; zi++) {
        size_t zlen = zlens[zi];
        fs2t_rand_bytes(z, zlen);
        ref_kdf(want, sizeof want, z, zlen);
        for (size_t len = 1; len <= 300; len++) {
            memset(got, 0xA5, sizeof got);
            if (fastsm2_kdf(got, len, zlen ? z : NULL, zlen) != FASTSM2_OK)
                bad++;
            /* prefix of the long output, and nothing written past len */
            bad += memcmp(got, want, len) != 0;
            bad += len < sizeof got && got[len] != 0xA5;
        }
    }
    CHECK(bad == 0);

    /* fs2_kdf_xor: t itself, out = in ^ t, in place; returns 1. */
    bad = 0;
    for (int it = 0; it < 200; it++) {
        size_t zlen = (size_t)(fs2t_rand_u64() % 131), len = 1 + (size_t)(fs2t_rand_u64() % 300);
        fs2t_rand_bytes(z, zlen);
        fs2t_rand_bytes(in, len);
        CHECK_STATUS(fastsm2_kdf(want, len, z, zlen), FASTSM2_OK);
        bad += fs2_kdf_xor(got, NULL, len, z, zlen) != 1;
        bad += memcmp(got, want, len) != 0;
        bad += fs2_kdf_xor(got, in, len, z, zlen) != 1;
        for (size_t i = 0; i < len; i++)
            bad += got[i] != (unsigned char)(in[i] ^ want[i]);
        memcpy(x, in, len);
        bad += fs2_kdf_xor(x, x, len, z, zlen) != 1;
        bad += memcmp(x, got, len) != 0;
    }
    CHECK(bad == 0);
    /* Z may overlap the output (it is absorbed first). */
    fs2t_rand_bytes(z, 64);
    ref_kdf(want, 100, z, 64);
    memcpy(x, z, 64);
    CHECK_STATUS(fastsm2_kdf(x, 100, x, 64), FASTSM2_OK);
    CHECK(memcmp(x, want, 100) == 0);

    /* The GB/T 32918.4 KDF on Z of the size encryption uses (x2 || y2),
     * against the reference, for a long output. */
    unsigned char big[4000], bigref[4000];
    ref_kdf(bigref, sizeof bigref, z, 64);
    CHECK_STATUS(fastsm2_kdf(big, sizeof big, z, 64), FASTSM2_OK);
    CHECK(memcmp(big, bigref, sizeof big) == 0);

    /* Bad arguments. */
    CHECK_STATUS(fastsm2_kdf(NULL, 5, z, 10), FASTSM2_ERR_ARG);
    memset(got, 0xA5, 5);
    CHECK_STATUS(fastsm2_kdf(got, 5, NULL, 3), FASTSM2_ERR_ARG);
    CHECK(got[0] == 0 && got[4] == 0);
    CHECK_STATUS(fastsm2_kdf(NULL, 0, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_kdf(got, 5, NULL, 0), FASTSM2_OK);
    ref_kdf(want, 5, z, 0);
    CHECK(memcmp(got, want, 5) == 0);
    if (sizeof(size_t) > 4) {
        /* klen must stay below (2^32 - 1) * 256 bits (5.4.3) */
        CHECK_STATUS(fastsm2_kdf(got, (size_t)((uint64_t)0xFFFFFFFFu * 32u), z, 4), FASTSM2_ERR_ARG);
    }
    /* An empty t has no zero to reject: 1, see src/hash/sm3_kdf.c. */
    CHECK(fs2_kdf_xor(got, NULL, 0, z, 4) == 1);
}

static void test_errors(void)
{
    static const char *const names[] = {
        /* 1 */ "FASTSM2_OK",
        /* 0 */ "FASTSM2_ERR_UNKNOWN",
        "FASTSM2_ERR_ARG",
        "FASTSM2_ERR_BUFFER_TOO_SMALL",
        "FASTSM2_ERR_DER",
        "FASTSM2_ERR_PEM",
        "FASTSM2_ERR_LENGTH",
        "FASTSM2_ERR_SIG_RANGE",
        "FASTSM2_ERR_PRIVATE_KEY",
        "FASTSM2_ERR_POINT",
        "FASTSM2_ERR_BAD_SIGNATURE",
        "FASTSM2_ERR_DECRYPT",
        "FASTSM2_ERR_CIPHERTEXT",
        "FASTSM2_ERR_ID",
        "FASTSM2_ERR_RANDOM",
        "FASTSM2_ERR_KEY_FORMAT",
        "FASTSM2_ERR_KDF_ZERO",
        "FASTSM2_ERR_NO_MEMORY",
        "FASTSM2_ERR_CONFIRM",
        "FASTSM2_ERR_STATE",
        "FASTSM2_ERR_UNSUPPORTED",
        "FASTSM2_ERR_SCALAR",
        "FASTSM2_ERR_ENCRYPTED_KEY",
        "FASTSM2_ERR_PASSWORD",
        "FASTSM2_ERR_KEY_CIPHER",
        "FASTSM2_ERR_CURVE",
        "FASTSM2_ERR_CERTIFICATE",
        "FASTSM2_ERR_TOO_LARGE",
        "FASTSM2_ERR_ITERATIONS",
        "FASTSM2_ERR_TAG",
        "FASTSM2_ERR_PADDING",
        "FASTSM2_ERR_IV",
        "FASTSM2_ERR_PUBLIC_KEY",
        "FASTSM2_ERR_NOT_YET_VALID",
        "FASTSM2_ERR_EXPIRED",
        "FASTSM2_ERR_NOT_CA",
        "FASTSM2_ERR_PATH_LENGTH",
        "FASTSM2_ERR_KEY_USAGE",
        "FASTSM2_ERR_ISSUER",
        "FASTSM2_ERR_CHAIN_LOOP",
        "FASTSM2_ERR_CRITICAL",
        "FASTSM2_ERR_NAME",
        "FASTSM2_ERR_ALGORITHM",
        "FASTSM2_ERR_DIGEST",
        "FASTSM2_ERR_RECIPIENT",
    };
    CHECK(sizeof names / sizeof names[0] == (size_t)(2 - FASTSM2_ERR_LAST));
    for (int code = 1; code >= FASTSM2_ERR_LAST; code--) {
        const char *want = names[1 - code];
        const char *n = fastsm2_error_name(code), *s = fastsm2_strerror(code);
        CHECK(n != NULL && s != NULL);
        if (!n || !s)
            continue;
        CHECK(strcmp(n, want) == 0);
        size_t wl = strlen(want);
        /* "NAME: description" with a non-empty description */
        CHECK(strncmp(s, want, wl) == 0 && s[wl] == ':' && s[wl + 1] == ' ' && s[wl + 2] != 0);
    }
    CHECK(strcmp(fastsm2_error_name(FASTSM2_ERR_DER), "FASTSM2_ERR_DER") == 0);
    CHECK(strcmp(fastsm2_strerror(FASTSM2_ERR_DER), "FASTSM2_ERR_DER: malformed or non-strict DER") == 0);
    CHECK(strcmp(fastsm2_error_name(FASTSM2_ERR_LAST - 1), "FASTSM2_ERR_UNKNOWN") == 0);
    CHECK(strcmp(fastsm2_error_name(2), "FASTSM2_ERR_UNKNOWN") == 0);
    CHECK(strncmp(fastsm2_strerror(-1000), "FASTSM2_ERR_UNKNOWN", 19) == 0);
    CHECK(strcmp(fastsm2_version(), FASTSM2_VERSION_STRING) == 0);
}

static void test_backends(void)
{
    enum { MAXB = 17 };
    unsigned char *msg = malloc(64 * MAXB);
    int navail = 0, have_generic = 0;
    const fs2_sm3_ops *t;
    /* Every SM3 table against the generic compression. */
    CHECK(fs2_sm3_table(0) == &fs2_sm3_ops_generic);
    for (size_t ti = 0; (t = fs2_sm3_table(ti)) != NULL; ti++) {
        CHECK(t->name != NULL && t->compress != NULL);
        if (!fs2_cpu_has(t->cpu_needs)) {
            printf("SM3 %s: not available on this CPU, skipped\n", t->name);
            continue;
        }
        unsigned long bad = 0;
        for (int it = 0; it < 200; it++) {
            size_t nb = (size_t)(it < MAXB + 1 ? it : (int)(fs2t_rand_u64() % (MAXB + 1)));
            uint32_t s1[8], s2[8];
            fs2t_rand_bytes(s1, sizeof s1);
            memcpy(s2, s1, sizeof s1);
            fs2t_rand_bytes(msg, 64 * nb);
            fs2_sm3_compress_generic(s1, msg, nb);
            t->compress(s2, msg, nb);
            bad += memcmp(s1, s2, sizeof s1) != 0;
        }
        if (bad)
            fprintf(stderr, "SM3 %s: compress differs from generic\n", t->name);
        CHECK(bad == 0);
    }
    /* The whole hash with each backend forced, against OpenSSL. */
    CHECK(fs2_backends[0] != NULL);
    for (size_t bi = 0; fs2_backends[bi]; bi++) {
        const fs2_backend *be = fs2_backends[bi];
        CHECK(be->name != NULL && be->ec != NULL && be->sm3 != NULL);
        if (!fs2_backend_available(be))
            continue;
        navail++;
        have_generic |= strcmp(be->name, "generic") == 0;
        CHECK(fs2_backend_force(be->name) == 1);
        CHECK(fs2_sm3() == be->sm3 && fs2_ec() == be->ec);
        unsigned char want[32], got[32];
        for (size_t len = 0; len < 64 * MAXB; len += 37) {
            fs2t_rand_bytes(msg, len);
            ossl_sm3(want, msg, len);
            fastsm2_sm3(got, msg, len);
            CHECK(memcmp(got, want, 32) == 0);
        }
    }
    CHECK(navail >= 1 && have_generic);

    /* The generic compression leaves the state alone for 0 blocks, and
     * reads its input unaligned. */
    uint32_t s[8] = {1, 2, 3, 4, 5, 6, 7, 8}, s0[8];
    memcpy(s0, s, sizeof s);
    fs2_sm3_compress_generic(s, msg, 0);
    CHECK(memcmp(s, s0, sizeof s) == 0);
    uint32_t s3[8];
    memcpy(s3, s, sizeof s);
    fs2t_rand_bytes(msg, 64 * 3);
    memmove(msg + 1, msg, 64 * 2);
    fs2_sm3_compress_generic(s, msg + 1, 2);
    memmove(msg, msg + 1, 64 * 2);
    fs2_sm3_compress_generic(s3, msg, 2);
    CHECK(memcmp(s, s3, sizeof s) == 0);
    free(msg);
}

static void test_util(void)
{
    unsigned char a[64], b[64];
    fs2t_rand_bytes(a, sizeof a);
    memcpy(b, a, sizeof a);
    CHECK(fs2_ct_memeq(a, b, sizeof a) == 1);
    CHECK(fs2_ct_memeq(a, b, 0) == 1);
    for (size_t i = 0; i < sizeof a; i++) {
        for (int bit = 0; bit < 8; bit++) {
            b[i] ^= (unsigned char)(1u << bit);
            CHECK(fs2_ct_memeq(a, b, sizeof a) == 0);
            b[i] ^= (unsigned char)(1u << bit);
        }
    }
    fs2_wipe(b, sizeof b);
    for (size_t i = 0; i < sizeof b; i++)
        CHECK(b[i] == 0);
    fs2_wipe(NULL, 0);

    unsigned char r1[64], r2[64];
    memset(r1, 0, sizeof r1);
    memset(r2, 0, sizeof r2);
    CHECK(fs2_random_bytes(r1, sizeof r1) == 1);
    CHECK(fs2_random_bytes(r2, sizeof r2) == 1);
    CHECK(memcmp(r1, r2, sizeof r1) != 0);
    CHECK(fs2_random_bytes(r1, 0) == 1);
    unsigned char *big = calloc(1, 1 << 20);
    CHECK(fs2_random_bytes(big, 1 << 20) == 1);
    /* 1 MiB of zeros at the end would mean a short read went unnoticed */
    unsigned acc = 0;
    for (size_t i = (1 << 20) - 256; i < (1 << 20); i++)
        acc |= big[i];
    CHECK(acc != 0);
    free(big);
}

int main(void)
{
    test_kat();
    test_streaming();
    test_random_lengths();
    test_kdf();
    test_errors();
    test_backends();
    test_util();
    return fs2t_finish("test_sm3");
}
