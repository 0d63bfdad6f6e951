/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Enveloped data streamed (include/fastsm2.h, "enveloped data, streamed"):
 * a message made as prefix + pieces + final has the same structure as
 * fastsm2_cms_encrypt's (every tag, OID, version and fixed length) and
 * opens with fastsm2_cms_decrypt; fastsm2_cms_encrypt's messages open
 * streamed; for CBC and GCM, lengths 0, 1, 15, 16, 17 and a few KB, in
 * pieces of several sizes. A head cut anywhere before the ciphertext asks
 * for more; hostile heads, tails and misuse get their named errors, and a
 * tampered message releases nothing, with the in-memory call's status.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define BIG (1 << 16)

static size_t make_cert(unsigned char *out, const char *subject, const fastsm2_privkey *key)
{
    fastsm2_x509_builder *b;
    fastsm2_pubkey pub;
    size_t n = BIG;
    CHECK_STATUS(fastsm2_x509_builder_new(&b), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_subject(b, subject), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, key), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_public_key(b, &pub), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_validity(b, 1735689600, 1735689600 + 3650LL * 86400), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_make_certificate(out, &n, b, key, NULL, 0, NULL, 0, FASTSM2_KEYFMT_DER), FASTSM2_OK);
    fastsm2_x509_builder_free(b);
    return n;
}

/* The message streamed: prefix, then the content in pieces of `piece`
 * bytes, then final. */
static unsigned char *stream_seal(size_t *n, const unsigned char *content, size_t len, const unsigned char *rcpts,
                                  size_t rcptslen, int cipher, unsigned flags, size_t piece)
{
    fastsm2_cms_stream s;
    size_t bound = 0;
    CHECK_STATUS(fastsm2_cms_encrypt_init(&s, NULL, &bound, len, rcpts, rcptslen, cipher, flags), FASTSM2_OK);
    unsigned char *m = malloc(bound + len + 16 + FASTSM2_CMS_FINAL_MAX);
    size_t k = bound;
    CHECK_STATUS(fastsm2_cms_encrypt_init(&s, m, &k, len, rcpts, rcptslen, cipher, flags), FASTSM2_OK);
    CHECK(k <= bound);
    for (size_t i = 0; i < len; i += piece) {
        size_t step = len - i < piece ? len - i : piece, w = step + 15;
        CHECK_STATUS(fastsm2_cms_encrypt_update(&s, m + k, &w, content + i, step), FASTSM2_OK);
        k += w;
    }
    size_t w = FASTSM2_CMS_FINAL_MAX;
    CHECK_STATUS(fastsm2_cms_encrypt_final(&s, m + k, &w), FASTSM2_OK);
    *n = k + w;
    return m;
}

/* The message opened streamed from its first headlen bytes, the ciphertext
 * in pieces: the status, and on success the content in out. */
static int stream_open(unsigned char *out, size_t *outlen, const unsigned char *m, size_t mn, size_t headlen,
                       const fastsm2_privkey *key, const unsigned char *cert, size_t certlen, size_t piece)
{
    fastsm2_cms_stream s;
    uint64_t off, ctlen, total;
    size_t k = 0;
    *outlen = 0;
    int r = fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, m, headlen, key, cert, certlen);
    if (r != FASTSM2_OK)
        return r;
    CHECK(total == mn && off + ctlen <= total);
    for (uint64_t i = 0; i < ctlen; i += piece) {
        size_t step = ctlen - i < piece ? (size_t)(ctlen - i) : piece, w = step + 15;
        if ((r = fastsm2_cms_decrypt_update(&s, out + k, &w, m + off + i, step)) != FASTSM2_OK)
            return r;
        k += w;
    }
    size_t w = FASTSM2_CMS_FINAL_MAX;
    memset(out + k, 0xA5, w);
    r = fastsm2_cms_decrypt_final(&s, out + k, &w, m + off + ctlen, (size_t)(total - off - ctlen));
    if (r != FASTSM2_OK) {
        size_t nz = 0; /* on failure, out zeroed over its capacity */
        for (size_t i = 0; i < FASTSM2_CMS_FINAL_MAX; i++)
            nz += out[k + i] != 0;
        CHECK(w == 0 && nz == 0);
        return r;
    }
    *outlen = k + w;
    return r;
}

/* A message's structure as text: every tag, nested; OIDs and INTEGERs with
 * their contents; other primitives with their length, except the SM2
 * ciphertexts (OCTET STRINGs over 64 bytes, whose lengths vary). */
static void shape(char *out, size_t cap, const unsigned char *p, size_t n)
{
    size_t o = strlen(out);
    while (n >= 2 && o + 64 < cap) {
        unsigned tag = p[0];
        size_t len = p[1], h = 2;
        if (len & 0x80) {
            size_t k = len & 0x7F;
            len = 0;
            for (size_t i = 0; i < k; i++)
                len = len << 8 | p[2 + i];
            h += k;
        }
        if (h + len > n) {
            snprintf(out + o, cap - o, "!");
            return;
        }
        if (tag & 0x20) {
            snprintf(out + o, cap - o, "%02x{", tag);
            shape(out, cap, p + h, len);
            o = strlen(out);
            snprintf(out + o, cap - o, "}");
        } else if (tag == 0x06 || tag == 0x02) {
            o += (size_t)snprintf(out + o, cap - o, "%02x:", tag);
            for (size_t i = 0; i < len && o + 8 < cap; i++)
                o += (size_t)snprintf(out + o, cap - o, "%02x", p[h + i]);
            snprintf(out + o, cap - o, " ");
        } else if (tag == 0x04 && len > 64) {
            snprintf(out + o, cap - o, "04:ct ");
        } else {
            snprintf(out + o, cap - o, "%02x/%zu ", tag, len);
        }
        o = strlen(out);
        p += h + len;
        n -= h + len;
    }
    if (n != 0)
        snprintf(out + strlen(out), cap - strlen(out), "!rest");
}

static void same_shape(const unsigned char *a, size_t an, const unsigned char *b, size_t bn)
{
    char *sa = calloc(1, 8192), *sb = calloc(1, 8192);
    shape(sa, 8192, a, an);
    shape(sb, 8192, b, bn);
    CHECK(strchr(sa, '!') == NULL && strcmp(sa, sb) == 0);
    if (strcmp(sa, sb) != 0)
        fprintf(stderr, "in memory: %s\nstreamed:  %s\n", sa, sb);
    free(sa);
    free(sb);
}

static unsigned char *seal(size_t *n, const unsigned char *content, size_t len, const unsigned char *rcpts,
                           size_t rcptslen, int cipher, unsigned flags)
{
    size_t need = 0;
    CHECK_STATUS(fastsm2_cms_encrypt(NULL, &need, content, len, rcpts, rcptslen, cipher, flags), FASTSM2_OK);
    unsigned char *out = malloc(need);
    *n = need;
    CHECK_STATUS(fastsm2_cms_encrypt(out, n, content, len, rcpts, rcptslen, cipher, flags), FASTSM2_OK);
    return out;
}

/* Where n first occurs in h (0 if nowhere: CHECKed). */
static size_t find(const unsigned char *h, size_t hn, const unsigned char *n, size_t nn)
{
    for (size_t i = 0; i + nn <= hn; i++)
        if (memcmp(h + i, n, nn) == 0)
            return i;
    CHECK(0);
    return 0;
}

static fastsm2_privkey ka, kb, kc;
static unsigned char *ca, *cb, *cc, *both;
static size_t na, nb, nc;

/* Both ways, every kind and length, one and two recipients. */
static void test_both_ways(void)
{
    static const struct {
        int cipher;
        unsigned flags;
    } kinds[] = {{FASTSM2_CMS_SM4_CBC, 0},
                 {FASTSM2_CMS_SM4_GCM, 0},
                 {FASTSM2_CMS_SM4_CBC, FASTSM2_CMS_GMT0010},
                 {FASTSM2_CMS_SM4_CBC, FASTSM2_CMS_KEYID},
                 {FASTSM2_CMS_SM4_GCM, FASTSM2_CMS_KEYID}};
    static const size_t lens[] = {0, 1, 15, 16, 17, 4099};
    static const size_t pieces[] = {1, 7, 16, 1000, 65536};
    unsigned char content[4099], *out = malloc(8192);
    for (size_t i = 0; i < sizeof content; i++)
        content[i] = (unsigned char)(i * 13 + 5);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
            size_t len = lens[l], piece = pieces[(k + l) % 5], mn, sn, n;
            const unsigned char *rc = l % 2 ? both : ca;
            size_t rcn = l % 2 ? na + nb : na;
            unsigned char *m = seal(&mn, content, len, rc, rcn, kinds[k].cipher, kinds[k].flags);
            unsigned char *sm = stream_seal(&sn, content, len, rc, rcn, kinds[k].cipher, kinds[k].flags, piece);
            same_shape(m, mn, sm, sn);
            fastsm2_cms_info i1, i2;
            CHECK_STATUS(fastsm2_cms_get_info(&i1, m, mn), FASTSM2_OK);
            CHECK_STATUS(fastsm2_cms_get_info(&i2, sm, sn), FASTSM2_OK);
            CHECK(i1.type == i2.type && i1.gmt0010 == i2.gmt0010 && i1.recipients == i2.recipients &&
                  i1.cipher == i2.cipher && i2.cipher == kinds[k].cipher);
            /* streamed -> in memory */
            n = 8192;
            CHECK_STATUS(fastsm2_cms_decrypt(out, &n, sm, sn, &ka, NULL, 0), FASTSM2_OK);
            CHECK(n == len && memcmp(out, content, len) == 0);
            /* in memory -> streamed, with and without the certificate, the head whole or just long enough */
            CHECK_STATUS(stream_open(out, &n, m, mn, mn, &ka, ca, na, piece), FASTSM2_OK);
            CHECK(n == len && memcmp(out, content, len) == 0);
            CHECK_STATUS(stream_open(out, &n, sm, sn, sn, &ka, NULL, 0, 16), FASTSM2_OK);
            CHECK(n == len && memcmp(out, content, len) == 0);
            if (l % 2) {
                CHECK_STATUS(stream_open(out, &n, sm, sn, sn, &kb, cb, nb, piece + 3), FASTSM2_OK);
                CHECK(n == len && memcmp(out, content, len) == 0);
            }
            free(m);
            free(sm);
        }
    }
    free(out);
}

/* A head cut anywhere before the ciphertext: FASTSM2_ERR_LENGTH (give
 * more), then the stream opens from exactly the bytes before it. */
static void test_short_heads(void)
{
    unsigned char content[40], out[128];
    memset(content, 0x3C, sizeof content);
    for (int cipher = FASTSM2_CMS_SM4_CBC; cipher <= FASTSM2_CMS_SM4_GCM; cipher++) {
        size_t sn, n;
        unsigned char *sm = stream_seal(&sn, content, sizeof content, both, na + nb, cipher, 0, 40);
        fastsm2_cms_stream s;
        uint64_t off, ctlen, total;
        CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, sm, sn, &kb, NULL, 0), FASTSM2_OK);
        fastsm2_cms_stream_clear(&s);
        uint64_t o2, c2, t2;
        CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &o2, &c2, &t2, sm, 0, &kb, NULL, 0), FASTSM2_ERR_UNSUPPORTED);
        CHECK(o2 == 0 && c2 == 0 && t2 == 0);
        size_t bad = 0;
        for (size_t h = 1; h < off; h++) {
            bad += fastsm2_cms_decrypt_init(&s, &o2, &c2, &t2, sm, h, &kb, NULL, 0) != FASTSM2_ERR_LENGTH;
        }
        CHECK(bad == 0);
        CHECK_STATUS(stream_open(out, &n, sm, sn, (size_t)off, &kb, NULL, 0, 5), FASTSM2_OK);
        CHECK(n == sizeof content && memcmp(out, content, n) == 0);
        free(sm);
    }
}

/* fastsm2_cms_decrypt and the stream agree on a message; the stream's
 * status is returned. */
static int both_open(const unsigned char *m, size_t mn, const fastsm2_privkey *key, const unsigned char *cert,
                     size_t certlen)
{
    unsigned char out[4200];
    size_t n = sizeof out, sn;
    int a = fastsm2_cms_decrypt(out, &n, m, mn, key, cert, certlen);
    int b = stream_open(out, &sn, m, mn, mn, key, cert, certlen, 64);
    CHECK(a == b);
    if (a != b)
        fprintf(stderr, "in memory %s, streamed %s\n", fastsm2_error_name(a), fastsm2_error_name(b));
    return b;
}

/* The offset of the encryptedContent's bytes. */
static size_t ct_at(const unsigned char *m, size_t mn)
{
    fastsm2_cms_stream s;
    uint64_t off = 0, ctlen, total;
    CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, m, mn, &ka, NULL, 0), FASTSM2_OK);
    fastsm2_cms_stream_clear(&s);
    return (size_t)off;
}

static void test_hostile(void)
{
    unsigned char content[16], *t = malloc(8192);
    fastsm2_cms_stream s;
    uint64_t off, ctlen, total;
    size_t mn, gn, n, at;
    memset(content, 0x41, sizeof content);
    unsigned char *m = seal(&mn, content, sizeof content, ca, na, FASTSM2_CMS_SM4_CBC, 0);
    unsigned char *g = seal(&gn, content, sizeof content, ca, na, FASTSM2_CMS_SM4_GCM, 0);
    CHECK(m[0] == 0x30 && m[1] == 0x82 && g[1] == 0x82);

    /* the key's: both open; another key, or a certificate not the key's */
    CHECK_STATUS(both_open(m, mn, &ka, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(both_open(g, gn, &ka, ca, na), FASTSM2_OK);
    CHECK_STATUS(both_open(m, mn, &kc, NULL, 0), FASTSM2_ERR_RECIPIENT);
    CHECK_STATUS(both_open(g, gn, &kc, cc, nc), FASTSM2_ERR_RECIPIENT);
    CHECK_STATUS(both_open(g, gn, &kc, ca, na), FASTSM2_ERR_POINT);

    /* CBC: the last padding byte made 0x11 through the first block */
    at = ct_at(m, mn);
    memcpy(t, m, mn);
    t[at + 15] ^= 1;
    CHECK_STATUS(both_open(t, mn, &ka, NULL, 0), FASTSM2_ERR_PADDING);
    /* GCM: a ciphertext bit, a tag bit */
    at = ct_at(g, gn);
    memcpy(t, g, gn);
    t[at] ^= 0x80;
    CHECK_STATUS(both_open(t, gn, &ka, NULL, 0), FASTSM2_ERR_TAG);
    memcpy(t, g, gn);
    t[gn - 1] ^= 1;
    CHECK_STATUS(both_open(t, gn, &ka, NULL, 0), FASTSM2_ERR_TAG);

    /* the heads: PEM, BER's indefinite form, signed data, lengths that disagree */
    n = 8192;
    CHECK_STATUS(fastsm2_pem_encode((char *)t, &n, "CMS", g, gn), FASTSM2_OK);
    CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, t, n, &ka, NULL, 0), FASTSM2_ERR_UNSUPPORTED);
    memcpy(t, g, gn);
    t[1] = 0x80; /* SEQUENCE of indefinite length */
    CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, t, gn, &ka, NULL, 0), FASTSM2_ERR_UNSUPPORTED);
    memcpy(t, g, gn);
    t[3] ^= 1; /* the ContentInfo's length: no longer the [0]'s end */
    CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, t, gn, &ka, NULL, 0), FASTSM2_ERR_DER);
    memcpy(t, g, gn);
    at = ct_at(g, gn);
    t[at - 1] ^= 1; /* the encryptedContent's length: no longer its SEQUENCE's end */
    CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, t, gn, &ka, NULL, 0), FASTSM2_ERR_DER);
    CHECK(fastsm2_cms_decrypt(t + 4096, &n, t, gn, &ka, NULL, 0) != FASTSM2_OK);
    memcpy(t, g, gn);
    t[at - 2] = 0xA0; /* [0] constructed: BER's segmented OCTET STRING */
    CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, t, gn, &ka, NULL, 0), FASTSM2_ERR_UNSUPPORTED);
    {
        /* the content type: id-signedData (ARG, as fastsm2_cms_decrypt), an unknown one */
        static const unsigned char auth_oid[] = {0x06, 0x0B, 0x2A, 0x86, 0x48, 0x86, 0xF7,
                                                 0x0D, 0x01, 0x09, 0x10, 0x01, 0x17};
        CHECK(memcmp(g + 4, auth_oid, sizeof auth_oid) == 0);
        memcpy(t, g, gn);
        t[4 + 12] ^= 0x01; /* ...1.22 */
        CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, t, gn, &ka, NULL, 0), FASTSM2_ERR_ALGORITHM);
        static const unsigned char sig_oid[] = {0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02};
        unsigned char sd[64] = {0x30, 0x0F};
        memcpy(sd + 2, sig_oid, sizeof sig_oid);
        sd[13] = 0xA0;
        sd[14] = 0x02;
        sd[15] = 0x30;
        sd[16] = 0x00;
        sd[1] = 15;
        CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, sd, 17, &ka, NULL, 0), FASTSM2_ERR_ARG);
    }
    {
        /* the version, and the cipher's OID */
        static const unsigned char gcm_oid[] = {0x06, 0x08, 0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x68, 0x08};
        memcpy(t, g, gn);
        unsigned char *v = t + 4 + 13 + 4 + 4; /* ContentInfo, OID, [0], SEQUENCE headers (all 0x82 lengths) */
        CHECK(v[0] == 0x02 && v[1] == 0x01 && v[2] == 0x00);
        v[2] = 5;
        CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, t, gn, &ka, NULL, 0), FASTSM2_ERR_DER);
        memcpy(t, g, gn);
        unsigned char *o = t + find(g, gn, gcm_oid, sizeof gcm_oid);
        o[9] ^= 0x01;
        CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, t, gn, &ka, NULL, 0), FASTSM2_ERR_ALGORITHM);
        CHECK_STATUS(both_open(t, gn, &ka, NULL, 0), FASTSM2_ERR_ALGORITHM);
    }

    /* the tails: a byte more, a tag a byte short (the lengths made to agree) */
    {
        unsigned char out[64];
        size_t w;
        at = ct_at(g, gn);
        size_t tl = gn - at - 16;
        unsigned char tail[64];
        memcpy(tail, g + at + 16, tl);
        CHECK(tl == 18 && tail[0] == 0x04 && tail[1] == 0x10);
        CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, g, gn, &ka, NULL, 0), FASTSM2_OK);
        w = sizeof out;
        CHECK_STATUS(fastsm2_cms_decrypt_update(&s, out, &w, g + at, 16), FASTSM2_OK);
        tail[tl] = 0;
        w = sizeof out;
        CHECK_STATUS(fastsm2_cms_decrypt_final(&s, out, &w, tail, tl + 1), FASTSM2_ERR_DER);
        CHECK(w == 0);
        CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, g, gn, &ka, NULL, 0), FASTSM2_OK);
        w = sizeof out;
        CHECK_STATUS(fastsm2_cms_decrypt_update(&s, out, &w, g + at, 16), FASTSM2_OK);
        tail[1] = 0x0F;
        w = sizeof out;
        CHECK_STATUS(fastsm2_cms_decrypt_final(&s, out, &w, tail, tl - 1), FASTSM2_ERR_TAG);
        /* and after final, nothing more */
        w = sizeof out;
        CHECK_STATUS(fastsm2_cms_decrypt_update(&s, out, &w, g + at, 1), FASTSM2_ERR_STATE);
    }
    free(m);
    free(g);
    free(t);
}

/* Lengths that disagree with the announced ones, flags refused, misuse. */
static void test_misuse(void)
{
    fastsm2_cms_stream s;
    unsigned char prefix[4096], out[64], in[64] = {0};
    uint64_t off, ctlen, total;
    size_t n, w;
    for (int cipher = FASTSM2_CMS_SM4_CBC; cipher <= FASTSM2_CMS_SM4_GCM; cipher++) {
        n = sizeof prefix;
        CHECK_STATUS(fastsm2_cms_encrypt_init(&s, prefix, &n, 20, ca, na, cipher, 0), FASTSM2_OK);
        w = sizeof out;
        CHECK_STATUS(fastsm2_cms_encrypt_update(&s, out, &w, in, 21), FASTSM2_ERR_LENGTH);
        CHECK(w == 0);
        w = sizeof out;
        CHECK_STATUS(fastsm2_cms_encrypt_final(&s, out, &w), FASTSM2_ERR_STATE);
        n = sizeof prefix;
        CHECK_STATUS(fastsm2_cms_encrypt_init(&s, prefix, &n, 20, ca, na, cipher, 0), FASTSM2_OK);
        w = sizeof out;
        CHECK_STATUS(fastsm2_cms_encrypt_update(&s, out, &w, in, 19), FASTSM2_OK);
        w = sizeof out;
        CHECK_STATUS(fastsm2_cms_encrypt_final(&s, out, &w), FASTSM2_ERR_LENGTH);
        CHECK(w == 0);
        n = 10;
        CHECK_STATUS(fastsm2_cms_encrypt_init(&s, prefix, &n, 20, ca, na, cipher, 0), FASTSM2_ERR_BUFFER_TOO_SMALL);
        CHECK(n == 0);
        w = sizeof out;
        CHECK_STATUS(fastsm2_cms_encrypt_update(&s, out, &w, in, 1), FASTSM2_ERR_STATE);
        /* the message's own length, and its ciphertext's, announced wrongly to the reader */
        n = sizeof prefix;
        CHECK_STATUS(fastsm2_cms_encrypt_init(&s, prefix, &n, 20, ca, na, cipher, 0), FASTSM2_OK);
        fastsm2_cms_stream_clear(&s);
        CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, prefix, n, &ka, NULL, 0), FASTSM2_OK);
        CHECK(off == n && ctlen == (cipher == FASTSM2_CMS_SM4_CBC ? 32u : 20u) &&
              total == n + ctlen + (cipher == FASTSM2_CMS_SM4_CBC ? 0 : 18));
        w = sizeof out;
        CHECK_STATUS(fastsm2_cms_decrypt_update(&s, out, &w, in, (size_t)ctlen + 1), FASTSM2_ERR_LENGTH);
        CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, prefix, n, &ka, NULL, 0), FASTSM2_OK);
        w = sizeof out;
        CHECK_STATUS(fastsm2_cms_decrypt_update(&s, out, &w, in, (size_t)ctlen - 1), FASTSM2_OK);
        w = sizeof out;
        CHECK_STATUS(fastsm2_cms_decrypt_final(&s, out, &w, NULL, 0), FASTSM2_ERR_LENGTH);
    }
    /* flags: PEM and GmSSL's form are the in-memory call's; GCM has no GM/T 0010 type */
    n = sizeof prefix;
    CHECK_STATUS(fastsm2_cms_encrypt_init(&s, prefix, &n, 1, ca, na, FASTSM2_CMS_SM4_CBC, FASTSM2_CMS_PEM),
                 FASTSM2_ERR_ARG);
    n = sizeof prefix;
    CHECK_STATUS(fastsm2_cms_encrypt_init(&s, prefix, &n, 1, ca, na, FASTSM2_CMS_SM4_CBC, FASTSM2_CMS_GMSSL),
                 FASTSM2_ERR_ARG);
    n = sizeof prefix;
    CHECK_STATUS(fastsm2_cms_encrypt_init(&s, prefix, &n, 1, ca, na, FASTSM2_CMS_SM4_GCM, FASTSM2_CMS_GMT0010),
                 FASTSM2_ERR_ARG);
    n = sizeof prefix;
    CHECK_STATUS(fastsm2_cms_encrypt_init(&s, prefix, &n, 1, ca, na, 3, 0), FASTSM2_ERR_ARG);
    n = sizeof prefix;
    CHECK_STATUS(fastsm2_cms_encrypt_init(&s, prefix, &n, (uint64_t)1 << 37, ca, na, FASTSM2_CMS_SM4_GCM, 0),
                 FASTSM2_ERR_LENGTH);
    n = sizeof prefix;
    CHECK(fastsm2_cms_encrypt_init(&s, prefix, &n, 1, in, sizeof in, FASTSM2_CMS_SM4_CBC, 0) != FASTSM2_OK);
    /* a 5 GiB CBC content: its headers only (the lengths' long forms) */
    n = sizeof prefix;
    CHECK_STATUS(fastsm2_cms_encrypt_init(&s, prefix, &n, (uint64_t)5 << 30, ca, na, FASTSM2_CMS_SM4_CBC, 0),
                 FASTSM2_OK);
    fastsm2_cms_stream_clear(&s);
    CHECK_STATUS(fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, prefix, n, &ka, NULL, 0), FASTSM2_OK);
    CHECK(off == n && ctlen == ((uint64_t)5 << 30) + 16 && total == n + ctlen);
    fastsm2_cms_stream_clear(&s);
    /* never started */
    memset(&s, 0, sizeof s);
    w = sizeof out;
    CHECK_STATUS(fastsm2_cms_decrypt_final(&s, out, &w, NULL, 0), FASTSM2_ERR_STATE);
    w = sizeof out;
    CHECK_STATUS(fastsm2_cms_encrypt_final(&s, out, &w), FASTSM2_ERR_STATE);
    CHECK_STATUS(fastsm2_cms_decrypt_init(NULL, &off, &ctlen, &total, prefix, n, &ka, NULL, 0), FASTSM2_ERR_ARG);
}

int main(void)
{
    ca = malloc(BIG);
    cb = malloc(BIG);
    cc = malloc(BIG);
    both = malloc(2 * BIG);
    CHECK_STATUS(fastsm2_privkey_generate(&ka), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_generate(&kb), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_generate(&kc), FASTSM2_OK);
    na = make_cert(ca, "/CN=Alice", &ka);
    nb = make_cert(cb, "/CN=Bob", &kb);
    nc = make_cert(cc, "/CN=Carol", &kc);
    memcpy(both, ca, na);
    memcpy(both + na, cb, nb);
    test_both_ways();
    test_short_heads();
    test_hostile();
    test_misuse();
    free(ca);
    free(cb);
    free(cc);
    free(both);
    return fs2t_finish("test_cms_stream");
}
