/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Making requests (RFC 2986) and certificates (RFC 5280 4.1): the builder
 * holds what they say, fastsm2_x509_make_request and
 * fastsm2_x509_make_certificate write and sign them with SM2-with-SM3.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <time.h>

#include "x509/x509.h"

#include "codec/pem.h"

/* One extension held by the builder: its OID and value as DER contents. */
typedef struct {
    unsigned char oid[40];
    size_t oidlen;
    int critical;
    unsigned char *value;
    size_t valuelen;
} ext_entry;

#define MAX_EXTS 64

struct fastsm2_x509_builder {
    fs2_dbuf subject; /* a whole Name element */
    int has_subject;
    unsigned char spki[128];
    size_t spkilen;
    unsigned char serial[20];
    size_t serial_len;
    int has_validity;
    int64_t not_before, not_after;
    ext_entry ext[MAX_EXTS];
    size_t next;
    fs2_dbuf san; /* GeneralName elements, one after another */
    int san_critical_asked;
};

static const unsigned char oid_bc[3] = {0x55, 0x1D, 0x13};
static const unsigned char oid_ku[3] = {0x55, 0x1D, 0x0F};
static const unsigned char oid_eku[3] = {0x55, 0x1D, 0x25};
static const unsigned char oid_san[3] = {0x55, 0x1D, 0x11};
static const unsigned char oid_skid[3] = {0x55, 0x1D, 0x0E};
static const unsigned char oid_akid[3] = {0x55, 0x1D, 0x23};

int fastsm2_x509_builder_new(fastsm2_x509_builder **b)
{
    if (b == NULL)
        return FASTSM2_ERR_ARG;
    *b = calloc(1, sizeof **b);
    if (*b == NULL)
        return FASTSM2_ERR_NO_MEMORY;
    fs2_dbuf_init(&(*b)->subject);
    fs2_dbuf_init(&(*b)->san);
    return FASTSM2_OK;
}

void fastsm2_x509_builder_free(fastsm2_x509_builder *b)
{
    if (b == NULL)
        return;
    fs2_dbuf_free(&b->subject);
    fs2_dbuf_free(&b->san);
    for (size_t i = 0; i < b->next; i++)
        free(b->ext[i].value);
    free(b);
}

/* Set (replace) an extension; value NULL removes it. */
static int set_ext(fastsm2_x509_builder *b, const unsigned char *oid, size_t oidlen, int critical,
                   const unsigned char *value, size_t valuelen)
{
    size_t i;
    if (oidlen > sizeof b->ext[0].oid)
        return FASTSM2_ERR_NAME;
    for (i = 0; i < b->next; i++)
        if (b->ext[i].oidlen == oidlen && memcmp(b->ext[i].oid, oid, oidlen) == 0)
            break;
    if (value == NULL) {
        if (i < b->next) {
            free(b->ext[i].value);
            memmove(&b->ext[i], &b->ext[i + 1], (b->next - i - 1) * sizeof b->ext[0]);
            b->next--;
        }
        return FASTSM2_OK;
    }
    unsigned char *copy = malloc(valuelen ? valuelen : 1);
    if (copy == NULL)
        return FASTSM2_ERR_NO_MEMORY;
    memcpy(copy, value, valuelen);
    if (i == b->next) {
        if (b->next == MAX_EXTS) {
            free(copy);
            return FASTSM2_ERR_TOO_LARGE;
        }
        b->next++;
    } else {
        free(b->ext[i].value);
    }
    memcpy(b->ext[i].oid, oid, oidlen);
    b->ext[i].oidlen = oidlen;
    b->ext[i].critical = critical != 0;
    b->ext[i].value = copy;
    b->ext[i].valuelen = valuelen;
    return FASTSM2_OK;
}

static int set_ext_dbuf(fastsm2_x509_builder *b, const unsigned char *oid, size_t oidlen, int critical, fs2_dbuf *v)
{
    int ret = v->err ? v->err : set_ext(b, oid, oidlen, critical, v->p, v->n);
    fs2_dbuf_free(v);
    return ret;
}

int fastsm2_x509_set_subject(fastsm2_x509_builder *b, const char *name)
{
    fs2_dbuf n;
    if (b == NULL || name == NULL)
        return FASTSM2_ERR_ARG;
    fs2_dbuf_init(&n);
    int ret = fs2_name_from_string(&n, name);
    if (ret != FASTSM2_OK) {
        fs2_dbuf_free(&n);
        return ret;
    }
    fs2_dbuf_free(&b->subject);
    b->subject = n;
    b->has_subject = 1;
    return FASTSM2_OK;
}

int fastsm2_x509_set_subject_der(fastsm2_x509_builder *b, const unsigned char *der, size_t derlen)
{
    fs2_span s;
    if (b == NULL || der == NULL)
        return FASTSM2_ERR_ARG;
    fs2_der_init(&s, der, derlen);
    if (!fs2_name_check(&s))
        return FASTSM2_ERR_DER;
    fs2_dbuf_free(&b->subject);
    fs2_dbuf_put(&b->subject, der, derlen);
    if (b->subject.err)
        return b->subject.err;
    b->has_subject = 1;
    return FASTSM2_OK;
}

int fastsm2_x509_set_public_key(fastsm2_x509_builder *b, const fastsm2_pubkey *pub)
{
    size_t n = sizeof b->spki;
    if (b == NULL || pub == NULL)
        return FASTSM2_ERR_ARG;
    int ret = fastsm2_pubkey_serialize(b->spki, &n, pub, FASTSM2_KEYFMT_DER);
    b->spkilen = ret == FASTSM2_OK ? n : 0;
    return ret;
}

int fastsm2_x509_set_serial(fastsm2_x509_builder *b, const unsigned char *serial, size_t len)
{
    if (b == NULL || serial == NULL)
        return FASTSM2_ERR_ARG;
    while (len > 1 && serial[0] == 0) {
        serial++;
        len--;
    }
    if (len == 0 || len > 20 || (len == 1 && serial[0] == 0) || (len == 20 && (serial[0] & 0x80u)))
        return FASTSM2_ERR_LENGTH;
    memcpy(b->serial, serial, len);
    b->serial_len = len;
    return FASTSM2_OK;
}

int fastsm2_x509_set_validity(fastsm2_x509_builder *b, int64_t not_before, int64_t not_after)
{
    if (b == NULL || not_after < not_before || not_before < FS2_TIME_MIN || not_after > FS2_TIME_MAX)
        return FASTSM2_ERR_ARG;
    b->not_before = not_before;
    b->not_after = not_after;
    b->has_validity = 1;
    return FASTSM2_OK;
}

int fastsm2_x509_set_basic_constraints(fastsm2_x509_builder *b, int ca, int path_len)
{
    static const unsigned char yes = 0xFF;
    fs2_dbuf v;
    if (b == NULL || path_len < -1)
        return FASTSM2_ERR_ARG;
    if (!ca)
        return set_ext(b, oid_bc, sizeof oid_bc, 1, NULL, 0);
    fs2_dbuf_init(&v);
    size_t m = fs2_dbuf_open(&v, FS2_DER_SEQUENCE);
    fs2_dbuf_tlv(&v, 0x01u, &yes, 1);
    if (path_len >= 0)
        fs2_dbuf_small_uint(&v, (unsigned)path_len);
    fs2_dbuf_close(&v, m);
    return set_ext_dbuf(b, oid_bc, sizeof oid_bc, 1, &v);
}

int fastsm2_x509_set_key_usage(fastsm2_x509_builder *b, unsigned usage)
{
    unsigned char bits[3] = {0, 0, 0};
    fs2_dbuf v;
    if (b == NULL || usage > 0x1FFu)
        return FASTSM2_ERR_ARG;
    if (usage == 0)
        return set_ext(b, oid_ku, sizeof oid_ku, 1, NULL, 0);
    int high = 0;
    for (int i = 0; i < 9; i++)
        if (usage & (1u << i)) {
            bits[1 + i / 8] |= (unsigned char)(0x80u >> (i % 8));
            high = i;
        }
    bits[0] = (unsigned char)(7 - high % 8); /* unused bits of the last byte */
    fs2_dbuf_init(&v);
    fs2_dbuf_tlv(&v, FS2_DER_BIT_STRING, bits, (size_t)(2 + high / 8));
    return set_ext_dbuf(b, oid_ku, sizeof oid_ku, 1, &v);
}

int fastsm2_x509_set_ext_key_usage(fastsm2_x509_builder *b, unsigned usage)
{
    static const unsigned char kp[7] = {0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03};
    static const unsigned char last[6] = {1, 2, 3, 4, 8, 9};
    static const unsigned char any[4] = {0x55, 0x1D, 0x25, 0x00};
    fs2_dbuf v;
    if (b == NULL || usage > 0x7Fu)
        return FASTSM2_ERR_ARG;
    if (usage == 0)
        return set_ext(b, oid_eku, sizeof oid_eku, 0, NULL, 0);
    fs2_dbuf_init(&v);
    size_t m = fs2_dbuf_open(&v, FS2_DER_SEQUENCE);
    for (int i = 0; i < 6; i++)
        if (usage & (1u << i)) {
            unsigned char oid[8];
            memcpy(oid, kp, 7);
            oid[7] = last[i];
            fs2_dbuf_tlv(&v, FS2_DER_OID, oid, 8);
        }
    if (usage & FASTSM2_EKU_ANY)
        fs2_dbuf_tlv(&v, FS2_DER_OID, any, sizeof any);
    fs2_dbuf_close(&v, m);
    return set_ext_dbuf(b, oid_eku, sizeof oid_eku, 0, &v);
}

static int prefix_is(const char *s, const char *p, size_t *skip)
{
    size_t n = strlen(p);
    for (size_t i = 0; i < n; i++) {
        int a = (unsigned char)s[i], c = (unsigned char)p[i];
        if (a >= 'A' && a <= 'Z')
            a += 32;
        if (c >= 'A' && c <= 'Z')
            c += 32;
        if (a != c)
            return 0;
    }
    *skip = n;
    return 1;
}

int fastsm2_x509_add_san(fastsm2_x509_builder *b, const char *san)
{
    size_t skip, n;
    unsigned tag;
    unsigned char ip[16];
    if (b == NULL || san == NULL)
        return FASTSM2_ERR_ARG;
    if (prefix_is(san, "DNS:", &skip))
        tag = 0x82u;
    else if (prefix_is(san, "email:", &skip))
        tag = 0x81u;
    else if (prefix_is(san, "URI:", &skip))
        tag = 0x86u;
    else if (prefix_is(san, "IP:", &skip))
        tag = 0x87u;
    else
        return FASTSM2_ERR_NAME;
    const char *v = san + skip;
    n = strlen(v);
    if (n == 0)
        return FASTSM2_ERR_NAME;
    if (tag == 0x87u) {
        if (inet_pton(AF_INET, v, ip) == 1)
            fs2_dbuf_tlv(&b->san, tag, ip, 4);
        else if (inet_pton(AF_INET6, v, ip) == 1)
            fs2_dbuf_tlv(&b->san, tag, ip, 16);
        else
            return FASTSM2_ERR_NAME;
    } else {
        for (size_t i = 0; i < n; i++) /* IA5String: ASCII, and printable here */
            if ((unsigned char)v[i] <= 0x20u || (unsigned char)v[i] >= 0x7Fu)
                return FASTSM2_ERR_NAME;
        if ((tag == 0x81u && strchr(v, '@') == NULL) || (tag == 0x86u && strchr(v, ':') == NULL))
            return FASTSM2_ERR_NAME;
        fs2_dbuf_tlv(&b->san, tag, v, n);
    }
    return b->san.err ? b->san.err : FASTSM2_OK;
}

/* A subjectAltName extension's value taken into the builder's list. */
static int take_san(fastsm2_x509_builder *b, const unsigned char *value, size_t valuelen, int critical)
{
    fs2_der_in in, seq, el;
    unsigned tag;
    fs2_der_init(&in, value, valuelen);
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || !fs2_der_at_end(&in) || fs2_der_at_end(&seq))
        return FASTSM2_ERR_DER;
    fs2_der_in walk = seq;
    while (!fs2_der_at_end(&walk))
        if (!fs2_der_get_any(&walk, &tag, &el) || (tag & 0xC0u) != 0x80u || (tag & 0x1Fu) > 8)
            return FASTSM2_ERR_DER;
    fs2_dbuf_free(&b->san);
    fs2_dbuf_put(&b->san, seq.p, seq.n);
    b->san_critical_asked = critical;
    return b->san.err ? b->san.err : FASTSM2_OK;
}

static int add_ext_der(fastsm2_x509_builder *b, const unsigned char *oid, size_t oidlen, int critical,
                       const unsigned char *value, size_t valuelen)
{
    fs2_der_in in, el;
    unsigned tag;
    fs2_span o;
    fs2_der_init(&in, value, valuelen);
    if (!fs2_der_get_any(&in, &tag, &el) || !fs2_der_at_end(&in))
        return FASTSM2_ERR_DER;
    fs2_der_init(&o, oid, oidlen);
    if (fs2_x509_ext_kind(&o) == FS2_EXT_SAN)
        return take_san(b, value, valuelen, critical);
    return set_ext(b, oid, oidlen, critical, value, valuelen);
}

int fastsm2_x509_add_extension(fastsm2_x509_builder *b, const char *oid, int critical, const unsigned char *value,
                               size_t valuelen)
{
    fs2_dbuf o;
    if (b == NULL || oid == NULL || value == NULL)
        return FASTSM2_ERR_ARG;
    fs2_dbuf_init(&o);
    int ok = fs2_oid_from_string(&o, oid, strlen(oid));
    int ret = o.err ? o.err : !ok ? FASTSM2_ERR_NAME : add_ext_der(b, o.p, o.n, critical, value, valuelen);
    fs2_dbuf_free(&o);
    return ret;
}

int fastsm2_x509_set_request(fastsm2_x509_builder *b, const unsigned char *req, size_t reqlen, const void *id,
                             size_t idlen, unsigned flags)
{
    fs2_x509 x;
    unsigned char *buf;
    fastsm2_pubkey pub;
    int ret;

    if (b == NULL || req == NULL || (flags & ~FASTSM2_X509_COPY_EXTENSIONS))
        return FASTSM2_ERR_ARG;
    if ((ret = fs2_x509_load(&x, &buf, req, reqlen, FASTSM2_X509_REQUEST)) != FASTSM2_OK)
        return ret;
    if ((ret = fs2_x509_check_sig(&x, &x.spki, id, idlen)) != FASTSM2_OK ||
        (ret = fs2_x509_spki_key(&pub, &x.spki)) != FASTSM2_OK ||
        (ret = fastsm2_x509_set_public_key(b, &pub)) != FASTSM2_OK ||
        (ret = fastsm2_x509_set_subject_der(b, x.subject.p, x.subject.n)) != FASTSM2_OK)
        goto done;
    if (flags & FASTSM2_X509_COPY_EXTENSIONS) {
        fs2_der_in walk = x.exts;
        fs2_span oid, value;
        int critical;
        while (x.exts.p != NULL && fs2_x509_next_ext(&walk, &oid, &critical, &value) == 1) {
            int kind = fs2_x509_ext_kind(&oid);
            if (kind == FS2_EXT_SKID || kind == FS2_EXT_AKID) /* the issuer's to write */
                continue;
            if ((ret = add_ext_der(b, oid.p, oid.n, critical, value.p, value.n)) != FASTSM2_OK)
                goto done;
        }
    }
done:
    free(buf);
    return ret;
}

/* ---- writing --------------------------------------------------------- */

static void put_ext(fs2_dbuf *o, const unsigned char *oid, size_t oidlen, int critical, const unsigned char *v,
                    size_t vlen)
{
    static const unsigned char yes = 0xFF;
    size_t m = fs2_dbuf_open(o, FS2_DER_SEQUENCE);
    fs2_dbuf_tlv(o, FS2_DER_OID, oid, oidlen);
    if (critical)
        fs2_dbuf_tlv(o, 0x01u, &yes, 1);
    fs2_dbuf_tlv(o, FS2_DER_OCTET_STRING, v, vlen);
    fs2_dbuf_close(o, m);
}

static void put_ext_entry(fs2_dbuf *o, const ext_entry *e)
{
    put_ext(o, e->oid, e->oidlen, e->critical, e->value, e->valuelen);
}

/* The Extensions SEQUENCE: the known ones first, in a fixed order, then
 * the rest as added; the key identifiers when given (certificates). An
 * empty subject makes the subjectAltName critical (RFC 5280 4.2.1.6). */
static void put_exts(fs2_dbuf *o, const fastsm2_x509_builder *b, int empty_subject, const unsigned char *skid,
                     const unsigned char *akid, size_t akidlen)
{
    static const unsigned char *const order[] = {oid_bc, oid_ku, oid_eku};
    size_t m = fs2_dbuf_open(o, FS2_DER_SEQUENCE);
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < b->next; i++)
            if (b->ext[i].oidlen == 3 && memcmp(b->ext[i].oid, order[k], 3) == 0)
                put_ext_entry(o, &b->ext[i]);
    if (b->san.n) {
        fs2_dbuf v;
        fs2_dbuf_init(&v);
        fs2_dbuf_tlv(&v, FS2_DER_SEQUENCE, b->san.p, b->san.n);
        if (v.err)
            o->err = v.err;
        else
            put_ext(o, oid_san, 3, empty_subject || b->san_critical_asked, v.p, v.n);
        fs2_dbuf_free(&v);
    }
    if (skid != NULL) {
        unsigned char v[22] = {FS2_DER_OCTET_STRING, 20};
        memcpy(v + 2, skid, 20);
        put_ext(o, oid_skid, 3, 0, v, sizeof v);
    }
    if (akid != NULL) {
        unsigned char v[40];
        v[0] = FS2_DER_SEQUENCE;
        v[1] = (unsigned char)(akidlen + 2);
        v[2] = 0x80u;
        v[3] = (unsigned char)akidlen;
        memcpy(v + 4, akid, akidlen);
        put_ext(o, oid_akid, 3, 0, v, akidlen + 4);
    }
    for (size_t i = 0; i < b->next; i++) {
        const ext_entry *e = &b->ext[i];
        int known = 0;
        for (size_t k = 0; k < 3; k++)
            known |= e->oidlen == 3 && memcmp(e->oid, order[k], 3) == 0;
        if (!known)
            put_ext_entry(o, e);
    }
    fs2_dbuf_close(o, m);
}

static int has_exts(const fastsm2_x509_builder *b)
{
    return b->next != 0 || b->san.n != 0;
}

static void put_sig_alg(fs2_dbuf *o)
{
    size_t m = fs2_dbuf_open(o, FS2_DER_SEQUENCE);
    fs2_dbuf_tlv(o, FS2_DER_OID, fs2_oid_sm2_sm3, sizeof fs2_oid_sm2_sm3);
    fs2_dbuf_close(o, m);
}

/* SEQUENCE { tbs, SM2-with-SM3, BIT STRING { signature } }, the signature
 * made over tbs by key with the signer ID; or, when out is NULL, the size
 * such a thing can reach, in fmt. */
static int sign_and_emit(unsigned char *out, size_t *outlen, const fs2_dbuf *tbs, const fastsm2_privkey *key,
                         const void *id, size_t idlen, int fmt, const char *label)
{
    unsigned char raw[64], sig[FASTSM2_SIG_DER_MAX + 1];
    size_t siglen = FASTSM2_SIG_DER_MAX;
    fs2_dbuf o;
    int ret;

    if (out == NULL) { /* the longest signature: 72 bytes of DER */
        size_t body = tbs->n + 12 + fs2_der_hdr_len(FASTSM2_SIG_DER_MAX + 1) + FASTSM2_SIG_DER_MAX + 1;
        size_t n = fs2_der_hdr_len(body) + body;
        return fs2_x509_emit_fmt(NULL, outlen, NULL, n, fmt, label);
    }
    if ((ret = fastsm2_sign(raw, key, id, idlen, tbs->p, tbs->n)) != FASTSM2_OK ||
        (ret = fastsm2_sig_to_der(sig + 1, &siglen, raw)) != FASTSM2_OK) {
        memset(out, 0, *outlen);
        *outlen = 0;
        return ret;
    }
    sig[0] = 0; /* no unused bits */
    fs2_dbuf_init(&o);
    size_t m = fs2_dbuf_open(&o, FS2_DER_SEQUENCE);
    fs2_dbuf_put(&o, tbs->p, tbs->n);
    put_sig_alg(&o);
    fs2_dbuf_tlv(&o, FS2_DER_BIT_STRING, sig, siglen + 1);
    fs2_dbuf_close(&o, m);
    if (o.err) {
        ret = o.err;
        memset(out, 0, *outlen);
        *outlen = 0;
    } else {
        ret = fs2_x509_emit_fmt(out, outlen, o.p, o.n, fmt, label);
    }
    fs2_dbuf_free(&o);
    return ret;
}

static int bad_out(unsigned char *out, size_t *outlen, int ret)
{
    if (out != NULL && outlen != NULL)
        memset(out, 0, *outlen);
    if (outlen != NULL)
        *outlen = 0;
    return ret;
}

int fastsm2_x509_make_request(unsigned char *out, size_t *outlen, const fastsm2_x509_builder *b,
                              const fastsm2_privkey *key, const void *id, size_t idlen, int fmt)
{
    unsigned char spki[128];
    size_t spkilen = sizeof spki;
    fastsm2_pubkey pub;
    fs2_dbuf tbs;
    int ret;

    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    if (b == NULL || key == NULL || (!b->has_subject && b->san.n == 0) ||
        (fmt != FASTSM2_KEYFMT_DER && fmt != FASTSM2_KEYFMT_PEM) || (id == NULL && idlen != 0))
        return bad_out(out, outlen, FASTSM2_ERR_ARG);
    if ((ret = fastsm2_privkey_pubkey(&pub, key)) != FASTSM2_OK ||
        (ret = fastsm2_pubkey_serialize(spki, &spkilen, &pub, FASTSM2_KEYFMT_DER)) != FASTSM2_OK)
        return bad_out(out, outlen, ret);
    fs2_dbuf_init(&tbs);
    size_t m = fs2_dbuf_open(&tbs, FS2_DER_SEQUENCE);
    fs2_dbuf_small_uint(&tbs, 0);
    if (b->has_subject)
        fs2_dbuf_put(&tbs, b->subject.p, b->subject.n);
    else
        fs2_dbuf_tlv(&tbs, FS2_DER_SEQUENCE, NULL, 0);
    fs2_dbuf_put(&tbs, spki, spkilen);
    size_t attrs = fs2_dbuf_open(&tbs, FS2_DER_CTX0_CONS);
    if (has_exts(b)) {
        size_t a = fs2_dbuf_open(&tbs, FS2_DER_SEQUENCE);
        fs2_dbuf_tlv(&tbs, FS2_DER_OID, fs2_oid_ext_request, sizeof fs2_oid_ext_request);
        size_t set = fs2_dbuf_open(&tbs, FS2_DER_SET);
        put_exts(&tbs, b, !b->has_subject || b->subject.n == 2, NULL, NULL, 0);
        fs2_dbuf_close(&tbs, set);
        fs2_dbuf_close(&tbs, a);
    }
    fs2_dbuf_close(&tbs, attrs);
    fs2_dbuf_close(&tbs, m);
    ret = tbs.err ? bad_out(out, outlen, tbs.err)
                  : sign_and_emit(out, outlen, &tbs, key, id, idlen, fmt, "CERTIFICATE REQUEST");
    fs2_dbuf_free(&tbs);
    return ret;
}

int fastsm2_x509_make_certificate(unsigned char *out, size_t *outlen, const fastsm2_x509_builder *b,
                                  const fastsm2_privkey *issuer_key, const unsigned char *issuer_cert,
                                  size_t issuer_certlen, const void *id, size_t idlen, int fmt)
{
    fs2_x509 ix;
    unsigned char *ibuf = NULL, spki[128], serial[20], skid[20], akid[32];
    size_t spkilen = sizeof spki, serial_len, akidlen;
    fastsm2_pubkey ipub, cpub;
    fs2_dbuf tbs;
    int ret;

    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    if (b == NULL || issuer_key == NULL || (!b->has_subject && b->san.n == 0) ||
        (fmt != FASTSM2_KEYFMT_DER && fmt != FASTSM2_KEYFMT_PEM) || (id == NULL && idlen != 0))
        return bad_out(out, outlen, FASTSM2_ERR_ARG);
    fs2_dbuf_init(&tbs);
    if ((ret = fastsm2_privkey_pubkey(&ipub, issuer_key)) != FASTSM2_OK)
        goto fail;
    /* the subject's key */
    if (b->spkilen) {
        memcpy(spki, b->spki, b->spkilen);
        spkilen = b->spkilen;
    } else if (issuer_cert == NULL) {
        if ((ret = fastsm2_pubkey_serialize(spki, &spkilen, &ipub, FASTSM2_KEYFMT_DER)) != FASTSM2_OK)
            goto fail;
    } else {
        ret = FASTSM2_ERR_ARG;
        goto fail;
    }
    /* its key identifier: over the subjectPublicKey bits */
    {
        fs2_der_in in, seq, alg, bits;
        fs2_der_init(&in, spki, spkilen);
        if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || !fs2_der_get(&seq, FS2_DER_SEQUENCE, &alg) ||
            !fs2_der_get_bits(&seq, &bits)) {
            ret = FASTSM2_ERR_ARG;
            goto fail;
        }
        fs2_x509_key_id(skid, &bits);
    }
    /* the issuer: its name, and its key identifier as our authority's */
    if (issuer_cert != NULL) {
        if ((ret = fs2_x509_load(&ix, &ibuf, issuer_cert, issuer_certlen, FASTSM2_X509_CERTIFICATE)) != FASTSM2_OK)
            goto fail;
        unsigned char a[65], c[65];
        size_t alen = sizeof a, clen = sizeof c;
        if ((ret = fs2_x509_spki_key(&cpub, &ix.spki)) != FASTSM2_OK ||
            (ret = fastsm2_pubkey_to_bytes(a, &alen, &ipub, 0)) != FASTSM2_OK ||
            (ret = fastsm2_pubkey_to_bytes(c, &clen, &cpub, 0)) != FASTSM2_OK)
            goto fail;
        if (alen != clen || memcmp(a, c, alen) != 0) {
            ret = FASTSM2_ERR_POINT; /* issuer_key is not the key of issuer_cert */
            goto fail;
        }
        if (ix.skid.n > 0 && ix.skid.n <= sizeof akid) {
            memcpy(akid, ix.skid.p, ix.skid.n);
            akidlen = ix.skid.n;
        } else {
            fs2_x509_key_id(akid, &ix.spk);
            akidlen = 20;
        }
    } else {
        memcpy(akid, skid, 20);
        akidlen = 20;
    }
    /* the serial: 16 random bytes, positive, the first one from 0x40 on so
     * that the INTEGER is 16 bytes long */
    if (b->serial_len) {
        memcpy(serial, b->serial, b->serial_len);
        serial_len = b->serial_len;
    } else {
        if (!fs2_random_bytes(serial, 16)) {
            ret = FASTSM2_ERR_RANDOM;
            goto fail;
        }
        fs2_declassify(serial, 16); /* public: it is written into the certificate */
        serial[0] = (unsigned char)((serial[0] & 0x3Fu) | 0x40u);
        serial_len = 16;
    }
    int64_t nb = b->not_before, na = b->not_after;
    if (!b->has_validity) {
        nb = (int64_t)time(NULL);
        na = nb + 365 * 86400;
    }

    size_t m = fs2_dbuf_open(&tbs, FS2_DER_SEQUENCE);
    size_t v = fs2_dbuf_open(&tbs, FS2_DER_CTX0_CONS);
    fs2_dbuf_small_uint(&tbs, 2);
    fs2_dbuf_close(&tbs, v);
    fs2_dbuf_uint(&tbs, serial, serial_len);
    put_sig_alg(&tbs);
    if (issuer_cert != NULL)
        fs2_dbuf_put(&tbs, ix.subject.p, ix.subject.n);
    else if (b->has_subject)
        fs2_dbuf_put(&tbs, b->subject.p, b->subject.n);
    else
        fs2_dbuf_tlv(&tbs, FS2_DER_SEQUENCE, NULL, 0);
    size_t val = fs2_dbuf_open(&tbs, FS2_DER_SEQUENCE);
    if (!fs2_time_put(&tbs, nb) || !fs2_time_put(&tbs, na)) {
        ret = FASTSM2_ERR_ARG;
        goto fail;
    }
    fs2_dbuf_close(&tbs, val);
    if (b->has_subject)
        fs2_dbuf_put(&tbs, b->subject.p, b->subject.n);
    else
        fs2_dbuf_tlv(&tbs, FS2_DER_SEQUENCE, NULL, 0);
    fs2_dbuf_put(&tbs, spki, spkilen);
    size_t e = fs2_dbuf_open(&tbs, 0xA3u);
    put_exts(&tbs, b, !b->has_subject || b->subject.n == 2, skid, akid, akidlen);
    fs2_dbuf_close(&tbs, e);
    fs2_dbuf_close(&tbs, m);
    if (tbs.err) {
        ret = tbs.err;
        goto fail;
    }
    ret = sign_and_emit(out, outlen, &tbs, issuer_key, id, idlen, fmt, "CERTIFICATE");
    fs2_dbuf_free(&tbs);
    free(ibuf);
    return ret;
fail:
    fs2_dbuf_free(&tbs);
    free(ibuf);
    return bad_out(out, outlen, ret);
}
