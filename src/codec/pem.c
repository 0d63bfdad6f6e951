/* SPDX-License-Identifier: Apache-2.0 */
/* PEM armour and strict base64 (RFC 7468, RFC 4648 clause 4); see pem.h. */
#include "pem.h"

#include "ct.h"

/*
 * Base64 digits without tables or branches on the value: key files carry
 * private keys, so neither a secret-indexed load nor a secret-dependent
 * branch may appear when mapping 6-bit groups to characters and back. (The
 * PEM scanner does branch on which bytes are line breaks, whitespace or '='
 * and on whether a character is valid base64: for a well-formed file that
 * reveals only the layout of the text, not the key.)
 */

/* All-ones when lo <= c <= hi (c, lo, hi < 256), else 0. */
static unsigned mask_in_range(unsigned c, unsigned lo, unsigned hi)
{
    return fs2_ct_mask_u32((((lo - 1u - c) & (c - hi - 1u)) >> 31) & 1u);
}

/* 0..63 -> 'A'..'Z' 'a'..'z' '0'..'9' '+' '/'. */
static unsigned char b64_digit(unsigned v)
{
    unsigned c = v + 'A';
    c += ((25u - v) >> 8) & 6u;  /* 26..: 'a' follows 'Z' + 6 */
    c -= ((51u - v) >> 8) & 75u; /* 52..: '0' */
    c -= ((61u - v) >> 8) & 15u; /* 62: '+' */
    c += ((62u - v) >> 8) & 3u;  /* 63: '/' */
    return (unsigned char)c;
}

/* The value of a base64 character, or -1. */
static int b64_value(unsigned char ch)
{
    unsigned c = ch;
    unsigned up = mask_in_range(c, 'A', 'Z'), lo = mask_in_range(c, 'a', 'z');
    unsigned dig = mask_in_range(c, '0', '9'), plus = mask_in_range(c, '+', '+');
    unsigned slash = mask_in_range(c, '/', '/');
    unsigned v = (up & (c - 'A')) | (lo & (c - 'a' + 26u)) | (dig & (c - '0' + 52u)) | (plus & 62u) | (slash & 63u);
    unsigned valid = up | lo | dig | plus | slash;
    return (int)((v & valid) | ~valid);
}

static int is_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* A line [p, p + n) of the input, without its '\n'. */
typedef struct {
    const unsigned char *p;
    size_t n;
} line_t;

/* Take the next line from *pos. 0 at the end of input. */
static int next_line(const unsigned char *in, size_t inlen, size_t *pos, line_t *line)
{
    size_t i = *pos;
    if (i >= inlen)
        return 0;
    line->p = in + i;
    while (i < inlen && in[i] != '\n')
        i++;
    line->n = (size_t)(in + i - line->p);
    *pos = i < inlen ? i + 1 : i;
    return 1;
}

static int starts_with(const line_t *l, const char *s)
{
    size_t n = strlen(s);
    return l->n >= n && memcmp(l->p, s, n) == 0;
}

/* Whether [p, p+n) is only spaces, tabs and CRs. */
static int only_ws(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_ws(p[i]))
            return 0;
    return 1;
}

/* Parse "<prefix><label>-----<ws>" in a line: the label. 1 if it matches. */
static int armour_label(const line_t *l, const char *prefix, line_t *label)
{
    size_t pn = strlen(prefix);
    if (!starts_with(l, prefix))
        return 0;
    for (size_t i = pn; i + 5 <= l->n; i++) {
        if (memcmp(l->p + i, "-----", 5) == 0) {
            if (!only_ws(l->p + i + 5, l->n - i - 5))
                return 0;
            label->p = l->p + pn;
            label->n = i - pn;
            return 1;
        }
    }
    return 0;
}

static int label_is(const line_t *label, const char *s)
{
    size_t n = strlen(s);
    return label->n == n && memcmp(label->p, s, n) == 0;
}

static int label_ends_with(const line_t *label, const char *s)
{
    size_t n = strlen(s);
    return label->n >= n && memcmp(label->p + label->n - n, s, n) == 0;
}

static int contains(const line_t *l, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i + n <= l->n; i++)
        if (memcmp(l->p + i, s, n) == 0)
            return 1;
    return 0;
}

/*
 * From *pos (just after a BEGIN line with this label), find the END line.
 * Sets [*body, *body + *bodylen) to the text in between and moves *pos after
 * the END line. FASTSM2_ERR_PEM if there is none, if another BEGIN comes
 * first, or if the END label differs.
 */
static int find_end(const unsigned char *in, size_t inlen, size_t *pos, const line_t *label, const unsigned char **body,
                    size_t *bodylen)
{
    line_t l, endlabel;
    size_t start = *pos;
    for (;;) {
        size_t here = *pos;
        if (!next_line(in, inlen, pos, &l))
            return FASTSM2_ERR_PEM;
        if (starts_with(&l, "-----BEGIN"))
            return FASTSM2_ERR_PEM;
        if (starts_with(&l, "-----END")) {
            if (!armour_label(&l, "-----END ", &endlabel) || endlabel.n != label->n ||
                memcmp(endlabel.p, label->p, label->n) != 0)
                return FASTSM2_ERR_PEM;
            *body = in + start;
            *bodylen = here - start;
            return FASTSM2_OK;
        }
    }
}

/* Skip RFC 1421 headers ("Name: value" lines up to a blank line) at the
 * start of a body. FASTSM2_ERR_KEY_CIPHER for a legacy encrypted key. */
static int skip_headers(const unsigned char **body, size_t *bodylen)
{
    size_t pos = 0;
    line_t l;
    int encrypted = 0;

    if (!next_line(*body, *bodylen, &pos, &l) || !contains(&l, ":"))
        return FASTSM2_OK; /* no headers */
    for (;;) {
        if (starts_with(&l, "Proc-Type:") && contains(&l, "ENCRYPTED"))
            encrypted = 1;
        if (starts_with(&l, "DEK-Info:"))
            encrypted = 1;
        if (!next_line(*body, *bodylen, &pos, &l))
            return encrypted ? FASTSM2_ERR_KEY_CIPHER : FASTSM2_ERR_PEM; /* no blank line */
        if (only_ws(l.p, l.n))
            break;
    }
    if (encrypted)
        return FASTSM2_ERR_KEY_CIPHER;
    *body += pos;
    *bodylen -= pos;
    return FASTSM2_OK;
}

/* Strict base64 of [p, p+n) into out[0..cap). Whitespace is ignored. */
static int b64_decode(unsigned char *out, size_t cap, size_t *outlen, const unsigned char *p, size_t n)
{
    unsigned v[4];
    size_t q = 0, pad = 0, o = 0;
    int done = 0;

    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (is_ws(c))
            continue;
        if (done)
            return FASTSM2_ERR_PEM; /* data after the padded final group */
        if (c == '=') {
            if (q < 2)
                return FASTSM2_ERR_PEM;
            pad++;
            v[q++] = 0;
        } else {
            int x = b64_value(c);
            if (x < 0 || pad)
                return FASTSM2_ERR_PEM;
            v[q++] = (unsigned)x;
        }
        if (q == 4) {
            size_t k = 3 - pad;
            /* Canonical encoding: the bits the padding drops must be zero. */
            if ((pad == 2 && (v[1] & 0x0Fu)) || (pad == 1 && (v[2] & 0x03u)))
                return FASTSM2_ERR_PEM;
            if (k > cap - o)
                return FASTSM2_ERR_TOO_LARGE;
            unsigned w = (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3];
            unsigned char b[3] = {(unsigned char)(w >> 16), (unsigned char)(w >> 8), (unsigned char)w};
            memcpy(out + o, b, k);
            o += k;
            fs2_wipe(b, sizeof b);
            q = 0;
            done = pad != 0;
        }
    }
    fs2_wipe(v, sizeof v);
    if (q != 0)
        return FASTSM2_ERR_PEM;
    *outlen = o;
    return FASTSM2_OK;
}

/* The first wanted block at or after *pos (moved past its END line):
 * FASTSM2_OK, 0 when there is none, or an error (see pem.h). */
static int decode_from(unsigned char *out, size_t cap, size_t *outlen, int *which, const unsigned char *in,
                       size_t inlen, const char *const *labels, size_t nlabels, const char *refuse_suffix, size_t *ppos)
{
    size_t pos = *ppos;
    line_t l, label;
    int ret = FASTSM2_ERR_PEM;

    *outlen = 0;
    if (in == NULL)
        goto fail;
    while (next_line(in, inlen, &pos, &l)) {
        const unsigned char *body;
        size_t bodylen;
        int idx = -1;

        if (!starts_with(&l, "-----BEGIN"))
            continue; /* text around the blocks */
        if (!armour_label(&l, "-----BEGIN ", &label))
            goto fail;
        for (size_t i = 0; i < nlabels; i++)
            if (label_is(&label, labels[i]))
                idx = (int)i;
        if (idx < 0 && (label_is(&label, "ENCRYPTED PRIVATE KEY") ||
                        (refuse_suffix != NULL && label_ends_with(&label, refuse_suffix)))) {
            ret = FASTSM2_ERR_KEY_FORMAT;
            goto fail;
        }
        if ((ret = find_end(in, inlen, &pos, &label, &body, &bodylen)) != FASTSM2_OK)
            goto fail;
        if (idx < 0)
            continue; /* another kind of block, e.g. EC PARAMETERS */
        if ((ret = skip_headers(&body, &bodylen)) != FASTSM2_OK)
            goto fail;
        if ((ret = b64_decode(out, cap, outlen, body, bodylen)) != FASTSM2_OK)
            goto fail;
        *which = idx;
        *ppos = pos;
        return FASTSM2_OK;
    }
    *ppos = pos;
    ret = 0; /* no block with a wanted label */
fail:
    fs2_wipe(out, cap);
    *outlen = 0;
    return ret;
}

int fs2_pem_decode(unsigned char *out, size_t cap, size_t *outlen, int *which, const unsigned char *in, size_t inlen,
                   const char *const *labels, size_t nlabels, const char *refuse_suffix)
{
    size_t pos = 0;
    int ret = decode_from(out, cap, outlen, which, in, inlen, labels, nlabels, refuse_suffix, &pos);
    return ret == 0 ? FASTSM2_ERR_PEM : ret;
}

int fs2_pem_decode_next(unsigned char *out, size_t cap, size_t *outlen, int *which, const unsigned char *in,
                        size_t inlen, const char *const *labels, size_t nlabels, size_t *pos)
{
    return decode_from(out, cap, outlen, which, in, inlen, labels, nlabels, NULL, pos);
}

size_t fs2_pem_encoded_len(const char *label, size_t derlen)
{
    size_t lab = strlen(label);
    size_t groups = derlen / 3 + (derlen % 3 != 0);
    size_t lines = derlen / 48 + (derlen % 48 != 0);
    /* "-----BEGIN " label "-----\n" and "-----END " label "-----\n" */
    return (11 + lab + 6) + (9 + lab + 6) + 4 * groups + lines;
}

/* The armour line `kind` ("-----BEGIN " or "-----END ") label "-----\n"
 * written at out + o; returns the new o. */
static size_t put_armour_line(unsigned char *out, size_t o, const char *kind, const char *label, size_t lab)
{
    size_t k = strlen(kind);
    memcpy(out + o, kind, k);
    memcpy(out + o + k, label, lab);
    memcpy(out + o + k + lab, "-----\n", 6);
    return o + k + lab + 6;
}

int fs2_pem_encode(unsigned char *out, size_t *outlen, const char *label, const unsigned char *der, size_t derlen)
{
    size_t need, o = 0, lab = strlen(label), col = 0;

    if (derlen > (SIZE_MAX / 4) - 1024 || (need = fs2_pem_encoded_len(label, derlen)) >= *outlen) {
        fs2_wipe(out, *outlen);
        *outlen = 0;
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    o = put_armour_line(out, o, "-----BEGIN ", label, lab);
    for (size_t i = 0; i < derlen; i += 3) {
        size_t k = derlen - i < 3 ? derlen - i : 3;
        unsigned w = (unsigned)der[i] << 16;
        if (k > 1)
            w |= (unsigned)der[i + 1] << 8;
        if (k > 2)
            w |= der[i + 2];
        out[o++] = b64_digit((w >> 18) & 63u);
        out[o++] = b64_digit((w >> 12) & 63u);
        out[o++] = k > 1 ? b64_digit((w >> 6) & 63u) : '=';
        out[o++] = k > 2 ? b64_digit(w & 63u) : '=';
        w = 0;
        col += 4;
        if (col == 64 || i + 3 >= derlen) {
            out[o++] = '\n';
            col = 0;
        }
    }
    o = put_armour_line(out, o, "-----END ", label, lab);
    out[o] = 0;
    *outlen = o;
    return need == o ? FASTSM2_OK : FASTSM2_ERR_ARG; /* sizes agree by construction */
}

int fs2_pem_has_label(const unsigned char *in, size_t inlen, const char *label)
{
    size_t pos = 0;
    line_t l, lab;
    while (next_line(in, inlen, &pos, &l))
        if (armour_label(&l, "-----BEGIN ", &lab) && label_is(&lab, label))
            return 1;
    return 0;
}
