/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Distinguished names (RFC 5280 4.1.2.4, X.501): the strings
 * "/C=CN/O=Example/CN=name" that OpenSSL's -subj and GmSSL's -subject
 * options take, to and from DER; dotted OIDs to and from DER.
 *
 * Name ::= SEQUENCE OF RelativeDistinguishedName
 * RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue
 * AttributeTypeAndValue ::= SEQUENCE { type OBJECT IDENTIFIER, value ANY }
 */
#include <stdio.h>

#include "x509/x509.h"

#define TAG_UTF8      0x0Cu
#define TAG_PRINTABLE 0x13u
#define TAG_TELETEX   0x14u
#define TAG_IA5       0x16u
#define TAG_UNIVERSAL 0x1Cu
#define TAG_BMP       0x1Eu

typedef struct {
    const char *name, *long_name;
    unsigned char oid[10];
    unsigned char oidlen;
    unsigned char tag; /* the string type written */
} attr_type;

/* The attribute types known by name (RFC 5280 4.1.2.4 and appendix A,
 * RFC 4519, PKCS#9 for emailAddress). */
static const attr_type attrs[] = {
    {"C", "countryName", {0x55, 0x04, 0x06}, 3, TAG_PRINTABLE},
    {"ST", "stateOrProvinceName", {0x55, 0x04, 0x08}, 3, TAG_UTF8},
    {"L", "localityName", {0x55, 0x04, 0x07}, 3, TAG_UTF8},
    {"O", "organizationName", {0x55, 0x04, 0x0A}, 3, TAG_UTF8},
    {"OU", "organizationalUnitName", {0x55, 0x04, 0x0B}, 3, TAG_UTF8},
    {"CN", "commonName", {0x55, 0x04, 0x03}, 3, TAG_UTF8},
    {"serialNumber", "serialNumber", {0x55, 0x04, 0x05}, 3, TAG_PRINTABLE},
    {"emailAddress", "emailAddress", {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x01}, 9, TAG_IA5},
    {"DC", "domainComponent", {0x09, 0x92, 0x26, 0x89, 0x93, 0xF2, 0x2C, 0x64, 0x01, 0x19}, 10, TAG_IA5},
    {"UID", "userId", {0x09, 0x92, 0x26, 0x89, 0x93, 0xF2, 0x2C, 0x64, 0x01, 0x01}, 10, TAG_UTF8},
    {"title", "title", {0x55, 0x04, 0x0C}, 3, TAG_UTF8},
    {"GN", "givenName", {0x55, 0x04, 0x2A}, 3, TAG_UTF8},
    {"SN", "surname", {0x55, 0x04, 0x04}, 3, TAG_UTF8},
    {"street", "streetAddress", {0x55, 0x04, 0x09}, 3, TAG_UTF8},
    {"postalCode", "postalCode", {0x55, 0x04, 0x11}, 3, TAG_UTF8},
};
#define NATTRS (sizeof attrs / sizeof attrs[0])

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int name_eq_ci(const char *a, size_t n, const char *b)
{
    size_t m = strlen(b);
    if (m != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
            return 0;
    return 1;
}

void fs2_dbuf_str(fs2_dbuf *b, const char *s)
{
    fs2_dbuf_put(b, s, strlen(s));
}

void fs2_dbuf_hex(fs2_dbuf *b, const unsigned char *p, size_t n, const char *sep)
{
    static const char digits[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        char h[2] = {digits[p[i] >> 4], digits[p[i] & 15]};
        if (i && sep)
            fs2_dbuf_str(b, sep);
        fs2_dbuf_put(b, h, 2);
    }
}

/* ---- OIDs ------------------------------------------------------------- */

static void put_base128(fs2_dbuf *b, uint64_t v)
{
    unsigned char t[10];
    size_t k = 0;
    do {
        t[k++] = (unsigned char)(v & 0x7Fu);
        v >>= 7;
    } while (v);
    while (k > 1) {
        unsigned char c = (unsigned char)(t[--k] | 0x80u);
        fs2_dbuf_put(b, &c, 1);
    }
    fs2_dbuf_put(b, &t[0], 1);
}

int fs2_oid_from_string(fs2_dbuf *b, const char *s, size_t n)
{
    uint64_t arcs[2];
    size_t i = 0, count = 0;
    while (i < n) {
        uint64_t v = 0;
        size_t start = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            if (v > (UINT64_MAX - 9) / 10 / 128) /* keep 2 * 40 + v in range */
                return 0;
            v = v * 10 + (uint64_t)(s[i] - '0');
            i++;
        }
        if (i == start || (i - start > 1 && s[start] == '0')) /* empty or a leading zero */
            return 0;
        if (i < n) {
            if (s[i] != '.' || i + 1 == n)
                return 0;
            i++;
        }
        if (count < 2) {
            arcs[count] = v;
            if (count == 1) {
                if (arcs[0] > 2 || (arcs[0] < 2 && arcs[1] > 39))
                    return 0;
                put_base128(b, arcs[0] * 40 + arcs[1]);
            }
        } else {
            put_base128(b, v);
        }
        count++;
    }
    return count >= 2;
}

void fs2_oid_to_string(fs2_dbuf *b, const fs2_span *oid)
{
    uint64_t v = 0;
    int first = 1;
    char t[24];
    for (size_t i = 0; i < oid->n; i++) {
        if (v > (UINT64_MAX >> 7)) { /* an arc too large to print: the rest as hex */
            fs2_dbuf_str(b, "#");
            fs2_dbuf_hex(b, oid->p, oid->n, NULL);
            return;
        }
        v = (v << 7) | (oid->p[i] & 0x7Fu);
        if (oid->p[i] & 0x80u)
            continue;
        if (first) {
            unsigned top = v < 40 ? 0 : v < 80 ? 1 : 2;
            snprintf(t, sizeof t, "%u.%llu", top, (unsigned long long)(v - 40u * top));
            first = 0;
        } else {
            snprintf(t, sizeof t, ".%llu", (unsigned long long)v);
        }
        fs2_dbuf_str(b, t);
        v = 0;
    }
}

/* ---- string -> DER ---------------------------------------------------- */

static int printable_char(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ' ' || c == '\'' ||
           c == '(' || c == ')' || c == '+' || c == ',' || c == '-' || c == '.' || c == '/' || c == ':' || c == '=' ||
           c == '?';
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = lower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Whether the n bytes at p are well-formed UTF-8 (RFC 3629). */
static int utf8_ok(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        size_t k;
        unsigned min;
        if (c < 0x80u) {
            i++;
            continue;
        } else if ((c & 0xE0u) == 0xC0u) {
            k = 1, min = 0x80u, c &= 0x1Fu;
        } else if ((c & 0xF0u) == 0xE0u) {
            k = 2, min = 0x800u, c &= 0x0Fu;
        } else if ((c & 0xF8u) == 0xF0u) {
            k = 3, min = 0x10000u, c &= 0x07u;
        } else {
            return 0;
        }
        if (n - i - 1 < k)
            return 0;
        for (size_t j = 1; j <= k; j++) {
            if ((p[i + j] & 0xC0u) != 0x80u)
                return 0;
            c = (c << 6) | (p[i + j] & 0x3Fu);
        }
        if (c < min || c > 0x10FFFFu || (c >= 0xD800u && c <= 0xDFFFu))
            return 0;
        i += k + 1;
    }
    return 1;
}

/* One value of the string, up to an unescaped '/' or '+' (or the end):
 * unescaped into v. *pos moves past it. */
static int take_value(fs2_dbuf *v, const char *s, size_t *pos)
{
    size_t i = *pos;
    while (s[i] != 0 && s[i] != '/' && s[i] != '+') {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\') {
            if (s[i + 1] == 'x' || s[i + 1] == 'X') {
                int h = hexval((unsigned char)s[i + 2]), l = h < 0 ? -1 : hexval((unsigned char)s[i + 3]);
                if (l < 0)
                    return 0;
                c = (unsigned char)(h * 16 + l);
                i += 4;
            } else if (s[i + 1] == '/' || s[i + 1] == '+' || s[i + 1] == '=' || s[i + 1] == '\\') {
                c = (unsigned char)s[i + 1];
                i += 2;
            } else {
                return 0;
            }
        } else {
            i++;
        }
        fs2_dbuf_put(v, &c, 1);
    }
    *pos = i;
    return 1;
}

/* One AttributeTypeAndValue "type=value" at *pos, written to b. */
static int put_atv(fs2_dbuf *b, const char *s, size_t *pos)
{
    size_t i = *pos, start = i;
    fs2_dbuf v;
    int ret = 0;

    while (s[i] != 0 && s[i] != '=' && s[i] != '/' && s[i] != '+')
        i++;
    if (s[i] != '=' || i == start)
        return 0;
    const attr_type *t = NULL;
    for (size_t k = 0; k < NATTRS && t == NULL; k++)
        if (name_eq_ci(s + start, i - start, attrs[k].name) || name_eq_ci(s + start, i - start, attrs[k].long_name))
            t = &attrs[k];
    fs2_dbuf_init(&v);
    size_t vpos = i + 1;
    if (!take_value(&v, s, &vpos) || v.err || v.n == 0)
        goto done;
    size_t m = fs2_dbuf_open(b, FS2_DER_SEQUENCE);
    unsigned tag = TAG_UTF8;
    if (t != NULL) {
        fs2_dbuf_tlv(b, FS2_DER_OID, t->oid, t->oidlen);
        tag = t->tag;
    } else {
        size_t om = fs2_dbuf_open(b, FS2_DER_OID);
        if (!fs2_oid_from_string(b, s + start, i - start))
            goto done;
        fs2_dbuf_close(b, om);
    }
    for (size_t k = 0; k < v.n; k++) {
        if (tag == TAG_PRINTABLE && !printable_char(v.p[k]))
            goto done;
        if (tag == TAG_IA5 && v.p[k] >= 0x80u)
            goto done;
    }
    if (tag == TAG_PRINTABLE && t == &attrs[0] && v.n != 2) /* ISO 3166 two-letter code */
        goto done;
    if (tag == TAG_UTF8 && !utf8_ok(v.p, v.n))
        goto done;
    fs2_dbuf_tlv(b, tag, v.p, v.n);
    fs2_dbuf_close(b, m);
    *pos = vpos;
    ret = 1;
done:
    fs2_dbuf_free(&v);
    return ret;
}

int fs2_name_from_string(fs2_dbuf *b, const char *s)
{
    size_t i = 0;
    size_t name = fs2_dbuf_open(b, FS2_DER_SEQUENCE);
    if (s[0] != 0 && s[0] != '/')
        return FASTSM2_ERR_NAME;
    while (s[i] == '/') {
        i++;
        size_t rdn = fs2_dbuf_open(b, FS2_DER_SET);
        for (;;) {
            if (!put_atv(b, s, &i))
                return b->err ? b->err : FASTSM2_ERR_NAME;
            if (s[i] != '+')
                break;
            i++;
        }
        fs2_dbuf_close_sorted(b, rdn);
    }
    if (s[i] != 0)
        return FASTSM2_ERR_NAME;
    fs2_dbuf_close(b, name);
    return b->err ? b->err : FASTSM2_OK;
}

/* ---- DER -> string ---------------------------------------------------- */

static void put_utf8(fs2_dbuf *b, uint32_t c)
{
    unsigned char u[4];
    size_t k;
    if (c < 0x80u) {
        u[0] = (unsigned char)c, k = 1;
    } else if (c < 0x800u) {
        u[0] = (unsigned char)(0xC0u | (c >> 6)), u[1] = (unsigned char)(0x80u | (c & 0x3Fu)), k = 2;
    } else if (c < 0x10000u) {
        u[0] = (unsigned char)(0xE0u | (c >> 12)), u[1] = (unsigned char)(0x80u | ((c >> 6) & 0x3Fu));
        u[2] = (unsigned char)(0x80u | (c & 0x3Fu)), k = 3;
    } else {
        u[0] = (unsigned char)(0xF0u | (c >> 18)), u[1] = (unsigned char)(0x80u | ((c >> 12) & 0x3Fu));
        u[2] = (unsigned char)(0x80u | ((c >> 6) & 0x3Fu)), u[3] = (unsigned char)(0x80u | (c & 0x3Fu)), k = 4;
    }
    fs2_dbuf_put(b, u, k);
}

/* A value's characters, escaped as the string form needs. */
static void put_escaped(fs2_dbuf *b, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c == '/' || c == '+' || c == '=' || c == '\\') {
            unsigned char e[2] = {'\\', c};
            fs2_dbuf_put(b, e, 2);
        } else if (c < 0x20u || c == 0x7Fu) {
            char e[5];
            snprintf(e, sizeof e, "\\x%02X", c);
            fs2_dbuf_str(b, e);
        } else {
            fs2_dbuf_put(b, &c, 1);
        }
    }
}

/* The value element (tag, contents) as text; 0 when it is not a string
 * this knows (the caller prints #hex). */
static int put_value(fs2_dbuf *b, unsigned tag, const fs2_span *v)
{
    fs2_dbuf u;
    int ok = 1;
    fs2_dbuf_init(&u);
    switch (tag) {
    case TAG_UTF8:
        ok = utf8_ok(v->p, v->n);
        fs2_dbuf_put(&u, v->p, v->n);
        break;
    case TAG_PRINTABLE:
    case TAG_IA5:
    case TAG_TELETEX:
        for (size_t i = 0; i < v->n; i++) /* Latin-1 for T.61's 8-bit bytes, as most readers do */
            put_utf8(&u, v->p[i]);
        break;
    case TAG_BMP:
        ok = v->n % 2 == 0;
        for (size_t i = 0; ok && i < v->n; i += 2)
            put_utf8(&u, ((uint32_t)v->p[i] << 8) | v->p[i + 1]);
        break;
    case TAG_UNIVERSAL:
        ok = v->n % 4 == 0;
        for (size_t i = 0; ok && i < v->n; i += 4) {
            uint32_t c = fs2_load32_be(v->p + i);
            if (c > 0x10FFFFu)
                ok = 0;
            else
                put_utf8(&u, c);
        }
        break;
    default: ok = 0;
    }
    if (ok && !u.err)
        put_escaped(b, u.p, u.n);
    fs2_dbuf_free(&u);
    return ok;
}

/* Walk a Name: calls on every AttributeTypeAndValue. */
static int name_walk(const fs2_span *name, fs2_dbuf *b)
{
    fs2_der_in in = *name, seq, set, atv, oid, val;
    unsigned tag;
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || !fs2_der_at_end(&in))
        return 0;
    while (!fs2_der_at_end(&seq)) {
        if (!fs2_der_get(&seq, FS2_DER_SET, &set) || fs2_der_at_end(&set))
            return 0;
        int first = 1;
        while (!fs2_der_at_end(&set)) {
            const unsigned char *vstart;
            if (!fs2_der_get(&set, FS2_DER_SEQUENCE, &atv) || !fs2_der_get_oid(&atv, &oid))
                return 0;
            vstart = atv.p;
            if (!fs2_der_get_any(&atv, &tag, &val) || !fs2_der_at_end(&atv))
                return 0;
            if (b == NULL)
                continue;
            fs2_dbuf_str(b, first ? "/" : "+");
            first = 0;
            const attr_type *t = NULL;
            for (size_t k = 0; k < NATTRS && t == NULL; k++)
                if (oid.n == attrs[k].oidlen && memcmp(oid.p, attrs[k].oid, oid.n) == 0)
                    t = &attrs[k];
            if (t != NULL)
                fs2_dbuf_str(b, t->name);
            else
                fs2_oid_to_string(b, &oid);
            fs2_dbuf_str(b, "=");
            if (!put_value(b, tag, &val)) {
                fs2_dbuf_str(b, "#");
                fs2_dbuf_hex(b, vstart, (size_t)(val.p + val.n - vstart), NULL);
            }
        }
    }
    return 1;
}

int fs2_name_check(const fs2_span *name)
{
    return name_walk(name, NULL);
}

int fs2_name_to_string(fs2_dbuf *b, const fs2_span *name)
{
    if (!name_walk(name, b))
        return FASTSM2_ERR_DER;
    return b->err ? b->err : FASTSM2_OK;
}
