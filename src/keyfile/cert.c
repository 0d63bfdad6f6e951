/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public key of an X.509 certificate (RFC 5280 clause 4.1): the
 * certificate is read as a container of a SubjectPublicKeyInfo, nothing
 * more. Its signature, validity dates, issuer and extensions are NOT
 * checked (the caller trusts the file as it would trust a public key file).
 */
#include <stdlib.h>

#include "keyfile.h"

#include "codec/der.h"
#include "codec/pem.h"

#define CERT_DER_MAX 65536 /* a certificate larger than this is refused */

/*
 * Certificate ::= SEQUENCE { tbsCertificate TBSCertificate,
 *   signatureAlgorithm AlgorithmIdentifier, signatureValue BIT STRING }
 * TBSCertificate ::= SEQUENCE { version [0] EXPLICIT OPTIONAL,
 *   serialNumber INTEGER, signature AlgorithmIdentifier, issuer Name,
 *   validity Validity, subject Name, subjectPublicKeyInfo SPKI, ... }
 * Sets *spki to the whole SPKI element. 1, or 0 when malformed.
 */
/* An INTEGER's contents as DER has them (X.690 8.3.2): at least one byte,
 * and no leading byte that the next one makes redundant (00 before a byte
 * under 0x80, FF before one from 0x80). */
static int der_integer_ok(const fs2_der_in *el)
{
    if (el->n == 0)
        return 0;
    if (el->n > 1 && ((el->p[0] == 0x00 && el->p[1] < 0x80) || (el->p[0] == 0xFF && el->p[1] >= 0x80)))
        return 0;
    return 1;
}

static int find_spki(const unsigned char *der, size_t derlen, fs2_der_in *spki)
{
    fs2_der_in in, cert, tbs, el, bits;
    unsigned tag;

    fs2_der_init(&in, der, derlen);
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &cert) || !fs2_der_at_end(&in))
        return 0;
    if (!fs2_der_get(&cert, FS2_DER_SEQUENCE, &tbs) || !fs2_der_get(&cert, FS2_DER_SEQUENCE, &el) ||
        !fs2_der_get_bits(&cert, &bits) || !fs2_der_at_end(&cert))
        return 0;
    if (fs2_der_peek_tag(&tbs) == (int)FS2_DER_CTX0_CONS) {
        /* version [0] EXPLICIT INTEGER, and nothing else inside */
        fs2_der_in ver, v;
        if (!fs2_der_get(&tbs, FS2_DER_CTX0_CONS, &ver) || !fs2_der_get(&ver, FS2_DER_INTEGER, &v) ||
            !der_integer_ok(&v) || !fs2_der_at_end(&ver))
            return 0;
    }
    /* serialNumber: an INTEGER in DER (negative and over-long ones exist:
     * RFC 5280's positive, 20-byte rule is not enforced; an empty one or
     * one with a redundant leading byte is not DER). */
    if (!fs2_der_get(&tbs, FS2_DER_INTEGER, &el) || !der_integer_ok(&el))
        return 0;
    for (int i = 0; i < 4; i++) /* signature, issuer, validity, subject */
        if (!fs2_der_get(&tbs, FS2_DER_SEQUENCE, &el))
            return 0;
    const unsigned char *start = tbs.p;
    if (!fs2_der_get(&tbs, FS2_DER_SEQUENCE, &el))
        return 0;
    fs2_der_init(spki, start, (size_t)(tbs.p - start));
    /* The optional fields after it: [1], [2] IMPLICIT, [3] EXPLICIT, each
     * at most once and in this order (DER encodes a SEQUENCE's fields in
     * their order). */
    unsigned last = 0;
    while (!fs2_der_at_end(&tbs)) {
        if (!fs2_der_get_any(&tbs, &tag, &el) ||
            (tag != 0x81u && tag != 0x82u && tag != 0xA1u && tag != 0xA2u && tag != 0xA3u))
            return 0;
        if ((tag & 0x1Fu) <= last)
            return 0;
        last = tag & 0x1Fu;
    }
    return 1;
}

int fs2_cert_is_certificate(const unsigned char *der, size_t derlen)
{
    fs2_der_in spki;
    return find_spki(der, derlen, &spki);
}

static const char *const cert_labels[] = {"CERTIFICATE"};

int fastsm2_pubkey_parse_certificate(fastsm2_pubkey *pub, const unsigned char *in, size_t inlen)
{
    unsigned char *buf = NULL;
    const unsigned char *der = in;
    size_t derlen = inlen;
    fs2_der_in spki;
    int which, ret;

    if (pub == NULL)
        return FASTSM2_ERR_ARG;
    memset(pub, 0, sizeof *pub);
    if (in == NULL)
        return FASTSM2_ERR_ARG;
    if (inlen > 4 * CERT_DER_MAX)
        return FASTSM2_ERR_TOO_LARGE;
    if (!(inlen > 0 && in[0] == FS2_DER_SEQUENCE)) {
        size_t cap = inlen / 4 * 3 + 3 < CERT_DER_MAX ? inlen / 4 * 3 + 3 : CERT_DER_MAX;
        if ((buf = malloc(cap)) == NULL)
            return FASTSM2_ERR_NO_MEMORY;
        ret = fs2_pem_decode(buf, cap, &derlen, &which, in, inlen, cert_labels, 1, NULL);
        if (ret != FASTSM2_OK) {
            free(buf);
            return ret;
        }
        der = buf;
    } else if (inlen > CERT_DER_MAX) {
        return FASTSM2_ERR_TOO_LARGE;
    }
    if (!find_spki(der, derlen, &spki))
        ret = FASTSM2_ERR_DER;
    else
        ret = fs2_keyfile_parse_spki(pub, spki.p, spki.n);
    free(buf);
    if (ret != FASTSM2_OK)
        memset(pub, 0, sizeof *pub);
    return ret;
}
