/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading certificates (RFC 5280 4.1) and requests (RFC 2986 4.1) strictly,
 * with the extensions this library processes (RFC 5280 4.2.1), and what
 * the public API says of them: fastsm2_x509_get_info, _get_text, _get_der,
 * _public_key.
 */
#include <stdio.h>
#include <stdlib.h>

#include "x509/x509.h"

#include "codec/pem.h"
#include "keyfile/keyfile.h"

const unsigned char fs2_oid_sm2_sm3[8] = {0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x83, 0x75};
const unsigned char fs2_oid_sm2_sign[9] = {0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D, 0x01};
const unsigned char fs2_oid_sm3[8] = {0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x83, 0x11};
const unsigned char fs2_oid_ext_request[9] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x0E};

/* id-ce 2.5.29.x: 55 1D x */
static const struct {
    unsigned char last;
    int kind;
} known_exts[] = {
    {0x13, FS2_EXT_BASIC_CONSTRAINTS},
    {0x0F, FS2_EXT_KEY_USAGE},
    {0x25, FS2_EXT_EXT_KEY_USAGE},
    {0x11, FS2_EXT_SAN},
    {0x0E, FS2_EXT_SKID},
    {0x23, FS2_EXT_AKID},
};

/* id-kp 1.3.6.1.5.5.7.3.x and their FASTSM2_EKU_* bits */
static const unsigned char oid_kp[7] = {0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03};
static const struct {
    unsigned char last;
    unsigned bit;
    const char *name;
} kp_names[] = {
    {1, FASTSM2_EKU_SERVER_AUTH, "serverAuth"},     {2, FASTSM2_EKU_CLIENT_AUTH, "clientAuth"},
    {3, FASTSM2_EKU_CODE_SIGNING, "codeSigning"},   {4, FASTSM2_EKU_EMAIL_PROTECTION, "emailProtection"},
    {8, FASTSM2_EKU_TIME_STAMPING, "timeStamping"}, {9, FASTSM2_EKU_OCSP_SIGNING, "OCSPSigning"},
};
static const unsigned char oid_any_eku[4] = {0x55, 0x1D, 0x25, 0x00};

static const char *const ku_names[9] = {"digitalSignature", "nonRepudiation", "keyEncipherment",
                                        "dataEncipherment", "keyAgreement",   "keyCertSign",
                                        "cRLSign",          "encipherOnly",   "decipherOnly"};

int fs2_span_eq(const fs2_span *a, const fs2_span *b)
{
    return a->n == b->n && (a->n == 0 || memcmp(a->p, b->p, a->n) == 0);
}

int fs2_x509_ext_kind(const fs2_span *oid)
{
    if (oid->n != 3 || oid->p[0] != 0x55 || oid->p[1] != 0x1D)
        return 0;
    for (size_t i = 0; i < sizeof known_exts / sizeof known_exts[0]; i++)
        if (oid->p[2] == known_exts[i].last)
            return known_exts[i].kind;
    return 0;
}

int fs2_x509_alg_is_sm2(const fs2_span *alg, int sign_ok)
{
    fs2_der_in a = *alg, oid;
    if (!fs2_der_get_oid(&a, &oid))
        return 0;
    if (!fs2_der_body_is(&oid, fs2_oid_sm2_sm3, sizeof fs2_oid_sm2_sm3) &&
        !(sign_ok && fs2_der_body_is(&oid, fs2_oid_sm2_sign, sizeof fs2_oid_sm2_sign)))
        return 0;
    if (!fs2_der_at_end(&a) && !fs2_der_get_null(&a))
        return 0;
    return fs2_der_at_end(&a);
}

/* BOOLEAN in DER: 01 01 00 or FF. */
static int get_bool(fs2_der_in *in, int *v)
{
    fs2_der_in save = *in, b;
    if (!fs2_der_get(in, 0x01u, &b) || b.n != 1 || (b.p[0] != 0 && b.p[0] != 0xFF)) {
        *in = save;
        return 0;
    }
    *v = b.p[0] != 0;
    return 1;
}

/* An INTEGER's contents in DER (X.690 8.3.2): non-empty, minimal. */
static int int_ok(const fs2_span *v)
{
    if (v->n == 0)
        return 0;
    return !(v->n > 1 && ((v->p[0] == 0 && v->p[1] < 0x80) || (v->p[0] == 0xFF && v->p[1] >= 0x80)));
}

int fs2_x509_next_ext(fs2_der_in *exts, fs2_span *oid, int *critical, fs2_span *value)
{
    fs2_der_in ext;
    if (fs2_der_at_end(exts))
        return 0;
    if (!fs2_der_get(exts, FS2_DER_SEQUENCE, &ext) || !fs2_der_get_oid(&ext, oid))
        return -1;
    *critical = 0;
    if (fs2_der_peek_tag(&ext) == 0x01 && !get_bool(&ext, critical))
        return -1;
    if (!fs2_der_get(&ext, FS2_DER_OCTET_STRING, value) || !fs2_der_at_end(&ext))
        return -1;
    return 1;
}

/* keyUsage: a named BIT STRING (X.690 8.6), bit i the mask bit i. */
static int parse_ku(fs2_x509 *x, const fs2_span *v)
{
    fs2_der_in in = *v, b;
    if (!fs2_der_get(&in, FS2_DER_BIT_STRING, &b) || !fs2_der_at_end(&in) || b.n == 0 || b.p[0] > 7 ||
        (b.n == 1 && b.p[0] != 0))
        return 0;
    unsigned unused = b.p[0];
    if (b.n > 1 && (b.p[b.n - 1] & ((1u << unused) - 1u)))
        return 0;
    x->ku = 0;
    for (size_t i = 1; i < b.n; i++)
        for (unsigned j = 0; j < 8; j++)
            if ((b.p[i] >> (7 - j)) & 1u) {
                size_t bit = (i - 1) * 8 + j;
                if (bit < 9)
                    x->ku |= 1u << bit;
            }
    x->has_ku = 1;
    return 1;
}

static int parse_bc(fs2_x509 *x, const fs2_span *v)
{
    fs2_der_in in = *v, seq, n;
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || !fs2_der_at_end(&in))
        return 0;
    x->ca = 0;
    x->path_len = -1;
    if (fs2_der_peek_tag(&seq) == 0x01 && !get_bool(&seq, &x->ca))
        return 0;
    if (!fs2_der_at_end(&seq)) {
        if (!fs2_der_get(&seq, FS2_DER_INTEGER, &n) || !int_ok(&n) || (n.p[0] & 0x80u) || !fs2_der_at_end(&seq))
            return 0;
        /* a limit beyond any chain: kept as a large one */
        unsigned long v_ = 0;
        for (size_t i = 0; i < n.n; i++)
            v_ = v_ > 0xFFFFFFu ? 0x7FFFFFFFu : (v_ << 8) | n.p[i];
        x->path_len = v_ > 0x7FFFFFFFu ? 0x7FFFFFFF : (int)v_;
    }
    x->has_bc = 1;
    return 1;
}

static int parse_eku(fs2_x509 *x, const fs2_span *v)
{
    fs2_der_in in = *v, seq, oid;
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || !fs2_der_at_end(&in) || fs2_der_at_end(&seq))
        return 0;
    x->eku = 0;
    while (!fs2_der_at_end(&seq)) {
        if (!fs2_der_get_oid(&seq, &oid))
            return 0;
        if (fs2_der_body_is(&oid, oid_any_eku, sizeof oid_any_eku))
            x->eku |= FASTSM2_EKU_ANY;
        if (oid.n == sizeof oid_kp + 1 && memcmp(oid.p, oid_kp, sizeof oid_kp) == 0)
            for (size_t i = 0; i < sizeof kp_names / sizeof kp_names[0]; i++)
                if (oid.p[sizeof oid_kp] == kp_names[i].last)
                    x->eku |= kp_names[i].bit;
    }
    x->has_eku = 1;
    return 1;
}

/* GeneralNames: a non-empty SEQUENCE of context-tagged names [0]..[8]. */
static int parse_san(fs2_x509 *x, const fs2_span *v)
{
    fs2_der_in in = *v, seq, el;
    unsigned tag;
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || !fs2_der_at_end(&in) || fs2_der_at_end(&seq))
        return 0;
    x->san = seq;
    while (!fs2_der_at_end(&seq))
        if (!fs2_der_get_any(&seq, &tag, &el) || (tag & 0xC0u) != 0x80u || (tag & 0x1Fu) > 8)
            return 0;
    return 1;
}

static int parse_skid(fs2_x509 *x, const fs2_span *v)
{
    fs2_der_in in = *v;
    return fs2_der_get(&in, FS2_DER_OCTET_STRING, &x->skid) && fs2_der_at_end(&in);
}

static int parse_akid(fs2_x509 *x, const fs2_span *v)
{
    fs2_der_in in = *v, seq, el;
    unsigned tag;
    int prev = -1;
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || !fs2_der_at_end(&in))
        return 0;
    while (!fs2_der_at_end(&seq)) {
        if (!fs2_der_get_any(&seq, &tag, &el))
            return 0;
        /* [0] IMPLICIT keyIdentifier, [1] authorityCertIssuer, [2] serial,
         * in this order */
        int num = (int)(tag & 0x1Fu);
        if ((tag != 0x80u && tag != 0xA1u && tag != 0x82u) || num <= prev)
            return 0;
        prev = num;
        if (tag == 0x80u)
            x->akid = el;
    }
    return 1;
}

/* The extensions: each once, the known ones strictly. */
static int parse_exts(fs2_x509 *x)
{
    fs2_der_in walk = x->exts, walk2;
    fs2_span oid, value, oid2, value2;
    int critical, critical2, r;
    x->next = 0;
    while ((r = fs2_x509_next_ext(&walk, &oid, &critical, &value)) == 1) {
        x->next++;
        /* no OID twice (RFC 5280 4.2) */
        walk2 = walk;
        while ((r = fs2_x509_next_ext(&walk2, &oid2, &critical2, &value2)) == 1)
            if (fs2_span_eq(&oid, &oid2))
                return 0;
        if (r < 0)
            return 0;
        int ok = 1;
        switch (fs2_x509_ext_kind(&oid)) {
        case FS2_EXT_BASIC_CONSTRAINTS: ok = parse_bc(x, &value); break;
        case FS2_EXT_KEY_USAGE: ok = parse_ku(x, &value); break;
        case FS2_EXT_EXT_KEY_USAGE: ok = parse_eku(x, &value); break;
        case FS2_EXT_SAN:
            ok = parse_san(x, &value);
            x->san_critical = critical;
            break;
        case FS2_EXT_SKID: ok = parse_skid(x, &value); break;
        case FS2_EXT_AKID: ok = parse_akid(x, &value); break;
        default:
            if (critical)
                x->unknown_critical++;
        }
        if (!ok)
            return 0;
    }
    return r == 0;
}

/* The extensionRequest attribute of a request's attributes (PKCS#9): its
 * one Extensions value becomes x->exts. Other attributes are skipped. */
static int request_exts(fs2_x509 *x, const fs2_span *attrs)
{
    fs2_der_in in = *attrs, attr, oid, values, exts;
    while (!fs2_der_at_end(&in)) {
        if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &attr) || !fs2_der_get_oid(&attr, &oid) ||
            !fs2_der_get(&attr, FS2_DER_SET, &values) || !fs2_der_at_end(&attr))
            return 0;
        if (!fs2_der_body_is(&oid, fs2_oid_ext_request, sizeof fs2_oid_ext_request))
            continue;
        if (x->exts.p != NULL) /* twice */
            return 0;
        if (!fs2_der_get(&values, FS2_DER_SEQUENCE, &exts) || !fs2_der_at_end(&values))
            return 0;
        x->exts = exts;
    }
    return 1;
}

static int get_spki(fs2_x509 *x, fs2_der_in *tbs)
{
    const unsigned char *start = tbs->p;
    fs2_der_in spki, alg;
    if (!fs2_der_get(tbs, FS2_DER_SEQUENCE, &spki))
        return 0;
    fs2_der_init(&x->spki, start, (size_t)(tbs->p - start));
    return fs2_der_get(&spki, FS2_DER_SEQUENCE, &alg) && fs2_der_get_bits(&spki, &x->spk) && fs2_der_at_end(&spki);
}

static int get_name(fs2_der_in *in, fs2_span *name)
{
    const unsigned char *start = in->p;
    fs2_der_in body;
    if (!fs2_der_get(in, FS2_DER_SEQUENCE, &body))
        return 0;
    fs2_der_init(name, start, (size_t)(in->p - start));
    return fs2_name_check(name);
}

int fs2_x509_parse(fs2_x509 *x, const unsigned char *der, size_t derlen)
{
    fs2_der_in in, outer, tbs, el, alg_inner;
    unsigned tag;

    memset(x, 0, sizeof *x);
    x->path_len = -1;
    fs2_der_init(&in, der, derlen);
    fs2_der_init(&x->der, der, derlen);
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &outer) || !fs2_der_at_end(&in))
        return FASTSM2_ERR_DER;
    const unsigned char *tstart = outer.p;
    if (!fs2_der_get(&outer, FS2_DER_SEQUENCE, &tbs))
        return FASTSM2_ERR_DER;
    fs2_der_init(&x->tbs, tstart, (size_t)(outer.p - tstart));
    if (!fs2_der_get(&outer, FS2_DER_SEQUENCE, &x->sig_alg) || !fs2_der_get_bits(&outer, &x->sig) ||
        !fs2_der_at_end(&outer))
        return FASTSM2_ERR_DER;

    /* a request's info: INTEGER 0, Name, SPKI, [0] attributes (4 elements,
     * the last [0]); a certificate's TBS has at least 6 */
    size_t count = 0;
    unsigned last = 0;
    fs2_der_in walk = tbs;
    while (fs2_der_get_any(&walk, &tag, &el)) {
        count++;
        last = tag;
    }
    if (!fs2_der_at_end(&walk))
        return FASTSM2_ERR_DER;
    if (count == 4 && last == FS2_DER_CTX0_CONS) {
        fs2_der_in attrs;
        x->kind = FASTSM2_X509_REQUEST;
        x->version = 1;
        if (!fs2_der_get(&tbs, FS2_DER_INTEGER, &el) || el.n != 1 || el.p[0] != 0 || !get_name(&tbs, &x->subject) ||
            !get_spki(x, &tbs) || !fs2_der_get(&tbs, FS2_DER_CTX0_CONS, &attrs) || !request_exts(x, &attrs))
            return FASTSM2_ERR_DER;
    } else {
        x->kind = FASTSM2_X509_CERTIFICATE;
        x->version = 1;
        if (fs2_der_peek_tag(&tbs) == (int)FS2_DER_CTX0_CONS) {
            fs2_der_in ver, v;
            if (!fs2_der_get(&tbs, FS2_DER_CTX0_CONS, &ver) || !fs2_der_get(&ver, FS2_DER_INTEGER, &v) ||
                !fs2_der_at_end(&ver) || v.n != 1 || v.p[0] > 2)
                return FASTSM2_ERR_DER;
            x->version = v.p[0] + 1;
        }
        fs2_der_in validity;
        if (!fs2_der_get(&tbs, FS2_DER_INTEGER, &x->serial) || !int_ok(&x->serial) ||
            !fs2_der_get(&tbs, FS2_DER_SEQUENCE, &alg_inner) || !fs2_span_eq(&alg_inner, &x->sig_alg) ||
            !get_name(&tbs, &x->issuer) || !fs2_der_get(&tbs, FS2_DER_SEQUENCE, &validity) ||
            !fs2_time_get(&validity, &x->not_before) || !fs2_time_get(&validity, &x->not_after) ||
            !fs2_der_at_end(&validity) || !get_name(&tbs, &x->subject) || !get_spki(x, &tbs))
            return FASTSM2_ERR_DER;
        /* issuerUniqueID [1], subjectUniqueID [2] (v2, v3), extensions [3] (v3) */
        unsigned prev = 0;
        while (!fs2_der_at_end(&tbs)) {
            if (!fs2_der_get_any(&tbs, &tag, &el))
                return FASTSM2_ERR_DER;
            unsigned num = tag & 0x1Fu;
            if (num <= prev || x->version < 2)
                return FASTSM2_ERR_DER;
            prev = num;
            if (tag == 0xA3u && x->version == 3) {
                fs2_der_in exts = el;
                if (!fs2_der_get(&exts, FS2_DER_SEQUENCE, &x->exts) || !fs2_der_at_end(&exts) ||
                    fs2_der_at_end(&x->exts))
                    return FASTSM2_ERR_DER;
            } else if (tag != 0x81u && tag != 0x82u && tag != 0xA1u && tag != 0xA2u) {
                return FASTSM2_ERR_DER;
            }
        }
    }
    if (x->exts.p != NULL && !parse_exts(x))
        return FASTSM2_ERR_DER;
    return FASTSM2_OK;
}

/* ---- output helpers ------------------------------------------------------ */

int fs2_x509_emit(unsigned char *out, size_t *outlen, const unsigned char *p, size_t n, int nul)
{
    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    if (out == NULL) {
        *outlen = n + (nul != 0);
        return FASTSM2_OK;
    }
    if (*outlen < n + (nul != 0)) {
        memset(out, 0, *outlen);
        *outlen = 0;
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    if (n)
        memcpy(out, p, n);
    if (nul)
        out[n] = 0;
    *outlen = n;
    return FASTSM2_OK;
}

int fs2_x509_emit_fmt(unsigned char *out, size_t *outlen, const unsigned char *der, size_t n, int fmt,
                      const char *label)
{
    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    if (fmt == FASTSM2_KEYFMT_DER)
        return fs2_x509_emit(out, outlen, der, n, 0);
    if (fmt != FASTSM2_KEYFMT_PEM) {
        if (out != NULL)
            memset(out, 0, *outlen);
        *outlen = 0;
        return FASTSM2_ERR_ARG;
    }
    size_t need = fs2_pem_encoded_len(label, n) + 1;
    if (out == NULL) {
        *outlen = need;
        return FASTSM2_OK;
    }
    return fs2_pem_encode(out, outlen, label, der, n);
}

/* ---- the public API -------------------------------------------------- */

static void fill_info(fastsm2_x509_info *info, const fs2_x509 *x)
{
    fastsm2_pubkey pub;
    memset(info, 0, sizeof *info);
    info->kind = x->kind;
    info->version = x->version;
    if (x->kind == FASTSM2_X509_CERTIFICATE) {
        fs2_span s = x->serial;
        int negative = (s.p[0] & 0x80u) != 0;
        if (s.n > 1 && s.p[0] == 0) {
            s.p++;
            s.n--;
        }
        if (!negative && s.n <= sizeof info->serial && !(s.n == 1 && s.p[0] == 0)) {
            memcpy(info->serial, s.p, s.n);
            info->serial_len = s.n;
        }
        info->not_before = x->not_before;
        info->not_after = x->not_after;
        info->self_issued = fs2_span_eq(&x->issuer, &x->subject);
    }
    info->sm2_key = fs2_x509_spki_key(&pub, &x->spki) == FASTSM2_OK;
    info->has_basic_constraints = x->has_bc;
    info->ca = x->ca;
    info->path_len = x->path_len;
    info->has_key_usage = x->has_ku;
    info->key_usage = x->ku;
    info->has_ext_key_usage = x->has_eku;
    info->ext_key_usage = x->eku;
    info->skid_len = x->skid.n < sizeof info->skid ? x->skid.n : sizeof info->skid;
    if (info->skid_len)
        memcpy(info->skid, x->skid.p, info->skid_len);
    info->akid_len = x->akid.n < sizeof info->akid ? x->akid.n : sizeof info->akid;
    if (info->akid_len)
        memcpy(info->akid, x->akid.p, info->akid_len);
    info->extensions = x->next;
    info->unknown_critical = x->unknown_critical;
    fastsm2_sm3(info->fingerprint, x->der.p, x->der.n);
}

int fastsm2_x509_get_info(fastsm2_x509_info *info, const unsigned char *in, size_t inlen)
{
    fs2_x509 x;
    unsigned char *buf = NULL;
    if (info == NULL)
        return FASTSM2_ERR_ARG;
    memset(info, 0, sizeof *info);
    int ret = fs2_x509_load(&x, &buf, in, inlen, 0);
    if (ret == FASTSM2_OK)
        fill_info(info, &x);
    free(buf);
    return ret;
}

int fastsm2_x509_public_key(fastsm2_pubkey *pub, const unsigned char *in, size_t inlen)
{
    fs2_x509 x;
    unsigned char *buf = NULL;
    if (pub == NULL)
        return FASTSM2_ERR_ARG;
    memset(pub, 0, sizeof *pub);
    int ret = fs2_x509_load(&x, &buf, in, inlen, 0);
    if (ret == FASTSM2_OK)
        ret = fs2_x509_spki_key(pub, &x.spki);
    free(buf);
    return ret;
}

/* GeneralNames as "DNS:a, IP:192.0.2.1, ..." */
static void san_text(fs2_dbuf *b, const fs2_span *san)
{
    fs2_der_in in = *san, el;
    unsigned tag;
    int first = 1;
    char t[64];
    while (fs2_der_get_any(&in, &tag, &el)) {
        if (!first)
            fs2_dbuf_str(b, ", ");
        first = 0;
        switch (tag) {
        case 0x81u: fs2_dbuf_str(b, "email:"); break;
        case 0x82u: fs2_dbuf_str(b, "DNS:"); break;
        case 0x86u: fs2_dbuf_str(b, "URI:"); break;
        case 0x87u: fs2_dbuf_str(b, "IP:"); break;
        case 0xA4u: fs2_dbuf_str(b, "DirName:"); break;
        default:
            snprintf(t, sizeof t, "[%u]:#", tag & 0x1Fu);
            fs2_dbuf_str(b, t);
            fs2_dbuf_hex(b, el.p, el.n, NULL);
            continue;
        }
        if (tag == 0x87u && el.n == 4) {
            snprintf(t, sizeof t, "%u.%u.%u.%u", el.p[0], el.p[1], el.p[2], el.p[3]);
            fs2_dbuf_str(b, t);
        } else if (tag == 0x87u && el.n == 16) {
            for (int i = 0; i < 16; i += 2) {
                snprintf(t, sizeof t, i ? ":%x" : "%x", (unsigned)(el.p[i] << 8 | el.p[i + 1]));
                fs2_dbuf_str(b, t);
            }
        } else if (tag == 0xA4u) {
            if (fs2_name_to_string(b, &el) != FASTSM2_OK)
                fs2_dbuf_str(b, "?");
        } else if (tag == 0x87u) {
            fs2_dbuf_str(b, "#");
            fs2_dbuf_hex(b, el.p, el.n, NULL);
        } else {
            for (size_t i = 0; i < el.n; i++) {
                unsigned char c = el.p[i];
                if (c < 0x20u || c >= 0x7Fu) {
                    snprintf(t, sizeof t, "\\x%02X", c);
                    fs2_dbuf_str(b, t);
                } else {
                    fs2_dbuf_put(b, &c, 1);
                }
            }
        }
    }
}

static void bits_text(fs2_dbuf *b, unsigned bits, const char *const *names, size_t n)
{
    int first = 1;
    for (size_t i = 0; i < n; i++)
        if (bits & (1u << i)) {
            fs2_dbuf_str(b, first ? "" : ", ");
            fs2_dbuf_str(b, names[i]);
            first = 0;
        }
}

static void eku_text(fs2_dbuf *b, const fs2_x509 *x)
{
    fs2_der_in in = x->exts;
    fs2_span oid, value, eoid;
    int critical, first = 1;
    while (fs2_x509_next_ext(&in, &oid, &critical, &value) == 1) {
        if (fs2_x509_ext_kind(&oid) != FS2_EXT_EXT_KEY_USAGE)
            continue;
        fs2_der_in v = value, seq;
        if (!fs2_der_get(&v, FS2_DER_SEQUENCE, &seq))
            return;
        while (fs2_der_get_oid(&seq, &eoid)) {
            const char *name = NULL;
            if (fs2_der_body_is(&eoid, oid_any_eku, sizeof oid_any_eku))
                name = "anyExtendedKeyUsage";
            if (eoid.n == sizeof oid_kp + 1 && memcmp(eoid.p, oid_kp, sizeof oid_kp) == 0)
                for (size_t i = 0; i < sizeof kp_names / sizeof kp_names[0]; i++)
                    if (eoid.p[sizeof oid_kp] == kp_names[i].last)
                        name = kp_names[i].name;
            fs2_dbuf_str(b, first ? "" : ", ");
            first = 0;
            if (name)
                fs2_dbuf_str(b, name);
            else
                fs2_oid_to_string(b, &eoid);
        }
    }
}

static void line(fs2_dbuf *b, const char *label)
{
    fs2_dbuf_str(b, "    ");
    fs2_dbuf_str(b, label);
    fs2_dbuf_str(b, ": ");
}

static void text_all(fs2_dbuf *b, const fs2_x509 *x)
{
    char t[96];
    int cert = x->kind == FASTSM2_X509_CERTIFICATE;
    fastsm2_pubkey pub;
    fs2_dbuf_str(b, cert ? "Certificate:\n" : "Certificate request:\n");
    snprintf(t, sizeof t, "    Version: %d\n", x->version);
    fs2_dbuf_str(b, t);
    if (cert) {
        line(b, "Serial number");
        fs2_dbuf_hex(b, x->serial.p, x->serial.n, NULL);
        fs2_dbuf_str(b, "\n");
    }
    line(b, "Signature algorithm");
    fs2_dbuf_str(b, fs2_x509_alg_is_sm2(&x->sig_alg, 1) ? "SM2-with-SM3" : "not SM2-with-SM3");
    fs2_dbuf_str(b, "\n");
    if (cert) {
        line(b, "Issuer");
        fs2_name_to_string(b, &x->issuer);
        fs2_dbuf_str(b, "\n");
        line(b, "Not before");
        fs2_time_text(b, x->not_before);
        fs2_dbuf_str(b, "\n");
        line(b, "Not after");
        fs2_time_text(b, x->not_after);
        fs2_dbuf_str(b, "\n");
    }
    line(b, "Subject");
    fs2_name_to_string(b, &x->subject);
    fs2_dbuf_str(b, "\n");
    line(b, "Public key");
    if (fs2_x509_spki_key(&pub, &x->spki) == FASTSM2_OK) {
        unsigned char pt[65];
        size_t ptlen = sizeof pt;
        fs2_dbuf_str(b, "SM2 ");
        if (fastsm2_pubkey_to_bytes(pt, &ptlen, &pub, 0) == FASTSM2_OK)
            fs2_dbuf_hex(b, pt, ptlen, NULL);
    } else {
        fs2_dbuf_str(b, "not an SM2 key");
    }
    fs2_dbuf_str(b, "\n");
    /* the extensions, in their order */
    fs2_der_in in = x->exts;
    fs2_span oid, value;
    int critical;
    while (x->exts.p != NULL && fs2_x509_next_ext(&in, &oid, &critical, &value) == 1) {
        const char *crit = critical ? " (critical)" : "";
        switch (fs2_x509_ext_kind(&oid)) {
        case FS2_EXT_BASIC_CONSTRAINTS:
            snprintf(t, sizeof t, "    Basic constraints%s: CA:%s", crit, x->ca ? "TRUE" : "FALSE");
            fs2_dbuf_str(b, t);
            if (x->path_len >= 0) {
                snprintf(t, sizeof t, ", pathlen:%d", x->path_len);
                fs2_dbuf_str(b, t);
            }
            break;
        case FS2_EXT_KEY_USAGE:
            snprintf(t, sizeof t, "    Key usage%s: ", crit);
            fs2_dbuf_str(b, t);
            bits_text(b, x->ku, ku_names, 9);
            break;
        case FS2_EXT_EXT_KEY_USAGE:
            snprintf(t, sizeof t, "    Extended key usage%s: ", crit);
            fs2_dbuf_str(b, t);
            eku_text(b, x);
            break;
        case FS2_EXT_SAN:
            snprintf(t, sizeof t, "    Subject alternative names%s: ", crit);
            fs2_dbuf_str(b, t);
            san_text(b, &x->san);
            break;
        case FS2_EXT_SKID:
            snprintf(t, sizeof t, "    Subject key identifier%s: ", crit);
            fs2_dbuf_str(b, t);
            fs2_dbuf_hex(b, x->skid.p, x->skid.n, ":");
            break;
        case FS2_EXT_AKID:
            snprintf(t, sizeof t, "    Authority key identifier%s: ", crit);
            fs2_dbuf_str(b, t);
            fs2_dbuf_hex(b, x->akid.p, x->akid.n, ":");
            break;
        default:
            fs2_dbuf_str(b, "    Extension ");
            fs2_oid_to_string(b, &oid);
            snprintf(t, sizeof t, "%s: %zu bytes", crit, value.n);
            fs2_dbuf_str(b, t);
        }
        fs2_dbuf_str(b, "\n");
    }
    unsigned char fp[32];
    fastsm2_sm3(fp, x->der.p, x->der.n);
    line(b, "SM3 fingerprint");
    fs2_dbuf_hex(b, fp, sizeof fp, ":");
    fs2_dbuf_str(b, "\n");
}

int fastsm2_x509_get_text(char *out, size_t *outlen, int what, const unsigned char *in, size_t inlen)
{
    fs2_x509 x;
    unsigned char *buf = NULL;
    fs2_dbuf b;
    int ret;

    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    fs2_dbuf_init(&b);
    if ((ret = fs2_x509_load(&x, &buf, in, inlen, 0)) != FASTSM2_OK)
        goto done;
    int cert = x.kind == FASTSM2_X509_CERTIFICATE;
    switch (what) {
    case FASTSM2_X509_SUBJECT: ret = fs2_name_to_string(&b, &x.subject); break;
    case FASTSM2_X509_ISSUER: ret = cert ? fs2_name_to_string(&b, &x.issuer) : FASTSM2_ERR_ARG; break;
    case FASTSM2_X509_SAN: san_text(&b, &x.san); break;
    case FASTSM2_X509_SERIAL:
        if (!cert)
            ret = FASTSM2_ERR_ARG;
        else
            fs2_dbuf_hex(&b, x.serial.p, x.serial.n, NULL);
        break;
    case FASTSM2_X509_TEXT: text_all(&b, &x); break;
    default: ret = FASTSM2_ERR_ARG;
    }
    if (ret == FASTSM2_OK && b.err)
        ret = b.err;
done:
    if (ret == FASTSM2_OK)
        ret = fs2_x509_emit((unsigned char *)out, outlen, b.p, b.n, 1);
    else if (out != NULL) {
        memset(out, 0, *outlen);
        *outlen = 0;
    } else {
        *outlen = 0;
    }
    fs2_dbuf_free(&b);
    free(buf);
    return ret;
}

int fastsm2_x509_get_der(unsigned char *out, size_t *outlen, int what, const unsigned char *in, size_t inlen)
{
    fs2_x509 x;
    unsigned char *buf = NULL;
    const fs2_span *s = NULL;
    int ret;

    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    if ((ret = fs2_x509_load(&x, &buf, in, inlen, 0)) == FASTSM2_OK) {
        switch (what) {
        case FASTSM2_X509_DER: s = &x.der; break;
        case FASTSM2_X509_SUBJECT_DER: s = &x.subject; break;
        case FASTSM2_X509_ISSUER_DER: s = x.kind == FASTSM2_X509_CERTIFICATE ? &x.issuer : NULL; break;
        case FASTSM2_X509_SPKI_DER: s = &x.spki; break;
        case FASTSM2_X509_TBS_DER: s = &x.tbs; break;
        }
        if (s == NULL)
            ret = FASTSM2_ERR_ARG;
    }
    if (ret == FASTSM2_OK)
        ret = fs2_x509_emit(out, outlen, s->p, s->n, 0);
    else {
        if (out != NULL)
            memset(out, 0, *outlen);
        *outlen = 0;
    }
    free(buf);
    return ret;
}
