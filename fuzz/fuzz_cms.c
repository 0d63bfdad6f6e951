/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CMS messages (fastsm2_cms_*, PEM or DER): whatever the input, the
 * readers and verifiers answer a named status and never read past it; a
 * message that parses gives its parts, each read back; a signed message
 * that verifies with its attached content also verifies when the content
 * is given as its SM3 digest only if detached, and never with a changed
 * content. The first input byte, when 0xFF, splits the rest into a
 * message and a detached content at the next byte's offset. Enveloped data
 * is opened with the key of tests/fixtures/pki/fastsm2/leaf.key (the
 * recipient of the corpus's enveloped seeds): a named status, and on
 * failure no plaintext; and streamed (fastsm2_cms_decrypt_init/update/
 * final), agreeing with it where both open it.
 */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *content = NULL;
    size_t clen = 0;
    if (size > 2 && data[0] == 0xFF) {
        size_t cut = data[1] < size - 2 ? data[1] : size - 2;
        content = data + 2;
        clen = cut;
        data += 2 + cut;
        size -= 2 + cut;
    }
    fastsm2_cms_info info;
    int st = fastsm2_cms_get_info(&info, data, size);
    {
        static const unsigned char d[32] = {0x41, 0x72, 0x4f, 0x63, 0x4d, 0x3a, 0xd1, 0xf0, 0xed, 0x2e, 0xcb,
                                            0x70, 0x3d, 0x05, 0x41, 0x44, 0xe6, 0x68, 0xdd, 0x55, 0x9a, 0x4c,
                                            0x80, 0xd2, 0xfd, 0xf0, 0x47, 0x68, 0x8f, 0xf7, 0x26, 0x86};
        static fastsm2_privkey key;
        static int have;
        if (!have)
            have = fastsm2_privkey_from_bytes(&key, d) == FASTSM2_OK;
        FZ_CHECK(have);
        size_t n = size, q = 0;
        unsigned char *p = malloc(n ? n : 1);
        FZ_CHECK(p != NULL);
        int ds = fastsm2_cms_decrypt(p, &n, data, size, &key, NULL, 0);
        FZ_CHECK(ds == FASTSM2_OK || (ds < 0 && ds >= FASTSM2_ERR_LAST));
        if (ds != FASTSM2_OK)
            FZ_CHECK(n == 0 && fz_all_zero(p, size));
        else
            FZ_CHECK(n <= size && st == FASTSM2_OK && info.type != FASTSM2_CMS_SIGNED_DATA &&
                     fastsm2_cms_decrypt(NULL, &q, data, size, &key, NULL, 0) == FASTSM2_OK && q == n);
        /* streamed, the input as the head and the ciphertext in pieces of 7 bytes: named statuses, no
         * plaintext from a failed final, and where both open it the same content */
        fastsm2_cms_stream s;
        uint64_t off, ctlen, total;
        int is = fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, data, size, &key, NULL, 0);
        FZ_CHECK(is == FASTSM2_OK || (is < 0 && is >= FASTSM2_ERR_LAST));
        if (is == FASTSM2_OK && total == size) {
            FZ_CHECK(off + ctlen <= total);
            unsigned char *o = malloc((size_t)ctlen + 32);
            size_t got = 0, w;
            int us = FASTSM2_OK;
            FZ_CHECK(o != NULL);
            for (uint64_t i = 0; i < ctlen && us == FASTSM2_OK; i += 7) {
                size_t step = ctlen - i < 7 ? (size_t)(ctlen - i) : 7;
                w = step + 15;
                us = fastsm2_cms_decrypt_update(&s, o + got, &w, data + off + i, step);
                FZ_CHECK(us == FASTSM2_OK && w <= step + 15);
                got += w;
            }
            w = 32;
            int fs = fastsm2_cms_decrypt_final(&s, o + got, &w, data + off + ctlen, (size_t)(total - off - ctlen));
            FZ_CHECK(fs == FASTSM2_OK || (fs < 0 && fs >= FASTSM2_ERR_LAST));
            if (fs != FASTSM2_OK)
                FZ_CHECK(w == 0 && fz_all_zero(o + got, 32));
            if (fs == FASTSM2_OK && ds == FASTSM2_OK)
                FZ_CHECK(got + w == n && memcmp(o, p, n) == 0);
            free(o);
        }
        fastsm2_cms_stream_clear(&s);
        free(p);
    }
    int vst = fastsm2_cms_verify(data, size, content, clen, NULL, 0, NULL, 0, 0);
    FZ_CHECK(vst == FASTSM2_OK || (vst < 0 && vst >= FASTSM2_ERR_LAST));
    int vst2 = fastsm2_cms_verify(data, size, content, clen, NULL, 0, "", 0, 0);
    FZ_CHECK(vst2 == FASTSM2_OK || (vst2 < 0 && vst2 >= FASTSM2_ERR_LAST));
    if (st != FASTSM2_OK) {
        FZ_CHECK(st < 0 && st >= FASTSM2_ERR_LAST && fz_all_zero(&info, sizeof info));
        FZ_CHECK(vst != FASTSM2_OK);
        return 0;
    }
    FZ_CHECK(info.type >= FASTSM2_CMS_SIGNED_DATA && info.type <= FASTSM2_CMS_AUTH_ENVELOPED_DATA);
    static const int parts[] = {FASTSM2_CMS_CONTENT, FASTSM2_CMS_SIGNER, FASTSM2_CMS_CERTS, FASTSM2_CMS_DER};
    unsigned char *der = NULL;
    size_t dn = 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        size_t n = 0;
        int s = fastsm2_cms_get(NULL, &n, parts[i], data, size);
        FZ_CHECK(s == FASTSM2_OK || (s < 0 && s >= FASTSM2_ERR_LAST));
        if (s != FASTSM2_OK)
            continue;
        unsigned char *p = malloc(n ? n : 1);
        size_t m = n;
        FZ_CHECK(p != NULL && fastsm2_cms_get(p, &m, parts[i], data, size) == FASTSM2_OK && m <= n);
        if (parts[i] == FASTSM2_CMS_CONTENT)
            FZ_CHECK(m == info.content_len && !info.detached);
        if (parts[i] == FASTSM2_CMS_SIGNER) {
            fastsm2_x509_info xi;
            FZ_CHECK(fastsm2_x509_get_info(&xi, p, m) == FASTSM2_OK && xi.kind == FASTSM2_X509_CERTIFICATE);
        }
        if (parts[i] == FASTSM2_CMS_DER) {
            der = p;
            dn = m;
            continue;
        }
        free(p);
    }
    FZ_CHECK(der != NULL);
    fastsm2_cms_info info2;
    FZ_CHECK(fastsm2_cms_get_info(&info2, der, dn) == FASTSM2_OK);
    FZ_CHECK(info2.type == info.type && info2.detached == info.detached && info2.signers == info.signers);
    FZ_CHECK(fastsm2_cms_verify(der, dn, content, clen, NULL, 0, NULL, 0, 0) == vst);
    if (vst == FASTSM2_OK && info.type == FASTSM2_CMS_SIGNED_DATA) {
        unsigned char d[32];
        if (info.detached) {
            fastsm2_sm3(d, content, clen);
            int ds = fastsm2_cms_verify_digest(der, dn, d, NULL, 0, NULL, 0);
            FZ_CHECK(ds == FASTSM2_OK || ds == FASTSM2_ERR_ARG); /* ARG: a signer without attributes */
            if (clen > 0) {
                unsigned char *c2 = malloc(clen);
                memcpy(c2, content, clen);
                c2[clen - 1] ^= 1;
                FZ_CHECK(fastsm2_cms_verify(der, dn, c2, clen, NULL, 0, NULL, 0, 0) != FASTSM2_OK);
                free(c2);
            }
        }
    }
    free(der);
    return 0;
}
