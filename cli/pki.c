/* SPDX-License-Identifier: Apache-2.0 */
/* What the certificate and CMS commands share (pki.h). */
#define _GNU_SOURCE /* timegm */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pki.h"

static const struct {
    const char *name;
    unsigned bits;
} ku_names[] =
    {
        {"digitalSignature", FASTSM2_KU_DIGITAL_SIGNATURE},
        {"nonRepudiation", FASTSM2_KU_NON_REPUDIATION},
        {"contentCommitment", FASTSM2_KU_NON_REPUDIATION},
        {"keyEncipherment", FASTSM2_KU_KEY_ENCIPHERMENT},
        {"dataEncipherment", FASTSM2_KU_DATA_ENCIPHERMENT},
        {"keyAgreement", FASTSM2_KU_KEY_AGREEMENT},
        {"keyCertSign", FASTSM2_KU_KEY_CERT_SIGN},
        {"cRLSign", FASTSM2_KU_CRL_SIGN},
        {"encipherOnly", FASTSM2_KU_ENCIPHER_ONLY},
        {"decipherOnly", FASTSM2_KU_DECIPHER_ONLY},
        {"sign", FASTSM2_KU_TLCP_SIGN},
        {"enc", FASTSM2_KU_TLCP_ENC},
        {"ca", FASTSM2_KU_KEY_CERT_SIGN | FASTSM2_KU_CRL_SIGN},
},
  eku_names[] = {
      {"serverAuth", FASTSM2_EKU_SERVER_AUTH},
      {"clientAuth", FASTSM2_EKU_CLIENT_AUTH},
      {"codeSigning", FASTSM2_EKU_CODE_SIGNING},
      {"emailProtection", FASTSM2_EKU_EMAIL_PROTECTION},
      {"timeStamping", FASTSM2_EKU_TIME_STAMPING},
      {"OCSPSigning", FASTSM2_EKU_OCSP_SIGNING},
      {"any", FASTSM2_EKU_ANY},
};

/* A comma-separated list of names from table into a mask. */
static int parse_list(unsigned *out, const char *list, const char *opt, const void *table_, size_t n)
{
    const struct {
        const char *name;
        unsigned bits;
    } *table = table_;
    *out = 0;
    const char *p = list;
    for (;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int found = 0;
        for (size_t i = 0; i < n && !found; i++)
            if (strlen(table[i].name) == len && strncasecmp(table[i].name, p, len) == 0) {
                *out |= table[i].bits;
                found = 1;
            }
        if (!found) {
            fprintf(stderr, "known:");
            for (size_t i = 0; i < n; i++)
                fprintf(stderr, " %s", table[i].name);
            fputc('\n', stderr);
            return cli_fail(CLI_EXIT_USAGE, "%s: unknown name '%.*s'", opt, (int)len, p);
        }
        if (!e)
            return CLI_EXIT_OK;
        p = e + 1;
    }
}

int cli_parse_usage(unsigned *ku, const char *list)
{
    return parse_list(ku, list, "--usage", ku_names, sizeof ku_names / sizeof ku_names[0]);
}

int cli_parse_ext_usage(unsigned *eku, const char *list)
{
    return parse_list(eku, list, "--ext-usage", eku_names, sizeof eku_names / sizeof eku_names[0]);
}

int cli_exts_apply(fastsm2_x509_builder *b, const cli_exts *e)
{
    int st = FASTSM2_OK, rc;
    unsigned bits;
    if (e->path_len && !e->ca)
        return cli_fail(CLI_EXIT_USAGE, "--path-len needs --ca");
    if (e->ca) {
        long pl = -1;
        if (e->path_len) {
            char *end;
            pl = strtol(e->path_len, &end, 10);
            if (*e->path_len == 0 || *end != 0 || pl < 0 || pl > 1000)
                return cli_fail(CLI_EXIT_USAGE, "--path-len takes a count from 0 to 1000");
        }
        st = fastsm2_x509_set_basic_constraints(b, 1, (int)pl);
    }
    if (st == FASTSM2_OK && e->usage) {
        if ((rc = cli_parse_usage(&bits, e->usage)) != CLI_EXIT_OK)
            return rc;
        st = fastsm2_x509_set_key_usage(b, bits);
    }
    if (st == FASTSM2_OK && e->ext_usage) {
        if ((rc = cli_parse_ext_usage(&bits, e->ext_usage)) != CLI_EXIT_OK)
            return rc;
        st = fastsm2_x509_set_ext_key_usage(b, bits);
    }
    if (st == FASTSM2_OK && e->san) {
        char *copy = strdup(e->san), *save = NULL;
        if (!copy)
            return cli_fail(CLI_EXIT_USAGE, "out of memory");
        for (char *tok = strtok_r(copy, ",", &save); tok && st == FASTSM2_OK; tok = strtok_r(NULL, ",", &save)) {
            while (*tok == ' ')
                tok++;
            st = fastsm2_x509_add_san(b, tok);
            if (st == FASTSM2_ERR_NAME) {
                rc = cli_fail(CLI_EXIT_USAGE,
                              "--san: '%s' is not a subjectAltName (DNS:name, IP:address, email:addr, URI:uri)", tok);
                free(copy);
                return rc;
            }
        }
        free(copy);
    }
    if (st != FASTSM2_OK)
        return cli_fail(CLI_EXIT_USAGE, "cannot set the extensions: %s", fastsm2_strerror(st));
    return CLI_EXIT_OK;
}

int cli_parse_time(int64_t *t, const char *s, const char *what)
{
    struct tm tm;
    int y, mo, d, h = 0, mi = 0, sec = 0, n = 0;
    char z = 0;
    memset(&tm, 0, sizeof tm);
    if (s[0] == '@') {
        char *end;
        long long v = strtoll(s + 1, &end, 10);
        if (s[1] == 0 || *end != 0)
            goto bad;
        *t = v;
        return CLI_EXIT_OK;
    }
    size_t len = strlen(s);
    if (len == 15 && s[14] == 'Z' && sscanf(s, "%4d%2d%2d%2d%2d%2d%n", &y, &mo, &d, &h, &mi, &sec, &n) == 6 &&
        n == 14) {
        /* YYYYMMDDHHMMSSZ */
    } else if (len == 10 && sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) == 3 && n == 10) {
        /* YYYY-MM-DD */
    } else if (len == 19 && sscanf(s, "%4d-%2d-%2d %2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &n) == 6 && n == 19) {
        /* YYYY-MM-DD HH:MM:SS */
    } else if (len == 20 && sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &sec, &z) == 7 && z == 'Z') {
        /* YYYY-MM-DDTHH:MM:SSZ */
    } else {
        goto bad;
    }
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59)
        goto bad;
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = sec;
    *t = (int64_t)timegm(&tm);
    if (tm.tm_mday != d) /* normalised: 30 February */
        goto bad;
    return CLI_EXIT_OK;
bad:
    return cli_fail(CLI_EXIT_USAGE,
                    "%s: '%s' is not a time (YYYYMMDDHHMMSSZ, YYYY-MM-DD, 'YYYY-MM-DD HH:MM:SS', "
                    "YYYY-MM-DDTHH:MM:SSZ or @SECONDS, UTC)",
                    what, s);
}

int cli_validity_apply(fastsm2_x509_builder *b, const char *days, const char *not_before, const char *not_after)
{
    int64_t nb, na;
    int rc;
    if (days && (not_before || not_after))
        return cli_fail(CLI_EXIT_USAGE, "--days and --not-before/--not-after exclude each other");
    if (days) {
        char *end;
        long v = strtol(days, &end, 10);
        if (*days == 0 || *end != 0 || v < 1 || v > 3650000)
            return cli_fail(CLI_EXIT_USAGE, "--days takes a count of days from 1 to 3650000");
        nb = (int64_t)time(NULL);
        na = nb + (int64_t)v * 86400;
    } else if (not_before || not_after) {
        if (!not_before || !not_after)
            return cli_fail(CLI_EXIT_USAGE, "--not-before and --not-after go together");
        if ((rc = cli_parse_time(&nb, not_before, "--not-before")) != CLI_EXIT_OK ||
            (rc = cli_parse_time(&na, not_after, "--not-after")) != CLI_EXIT_OK)
            return rc;
    } else {
        return CLI_EXIT_OK;
    }
    int st = fastsm2_x509_set_validity(b, nb, na);
    if (st != FASTSM2_OK)
        return cli_fail(CLI_EXIT_USAGE, "bad validity period: the end before the start, or outside years 0-9999");
    return CLI_EXIT_OK;
}

int cli_read_cert_file(cli_buf *buf, const char *path, const char *what)
{
    return cli_read_file_max(buf, path, CLI_CERT_MAX, what);
}

int cli_read_bundle(cli_buf *buf, const char *path, const char *what)
{
    return cli_read_file_max(buf, path, 64u << 20, what);
}

int cli_write_der(const char *path, const unsigned char *der, size_t len, int pem, const char *label)
{
    if (!pem)
        return cli_write_file(path, der, len, 0);
    size_t n = 0;
    if (fastsm2_pem_encode(NULL, &n, label, der, len) != FASTSM2_OK)
        return cli_fail(CLI_EXIT_USAGE, "cannot write PEM");
    char *text = malloc(n);
    if (!text)
        return cli_fail(CLI_EXIT_USAGE, "out of memory");
    int st = fastsm2_pem_encode(text, &n, label, der, len);
    int rc = st == FASTSM2_OK ? cli_write_file(path, text, n, 0) : cli_fail(CLI_EXIT_USAGE, "cannot write PEM");
    free(text);
    return rc;
}

void cli_subject_of(char *out, size_t cap, const unsigned char *cert, size_t len)
{
    size_t n = cap;
    if (fastsm2_x509_get_text(out, &n, FASTSM2_X509_SUBJECT, cert, len) != FASTSM2_OK)
        snprintf(out, cap, "?");
    else if (n == 0)
        snprintf(out, cap, "(empty subject)");
}

const char *cli_chain_reason(int st)
{
    switch (st) {
    case FASTSM2_ERR_BAD_SIGNATURE: return "its signature does not verify with its issuer's key and the signer ID";
    case FASTSM2_ERR_EXPIRED: return "it has expired";
    case FASTSM2_ERR_NOT_YET_VALID: return "it is not valid yet";
    case FASTSM2_ERR_NOT_CA: return "it issues certificates but is not a CA (no basicConstraints cA)";
    case FASTSM2_ERR_PATH_LENGTH: return "more CAs below it than its path length allows (or the chain is too long)";
    case FASTSM2_ERR_KEY_USAGE: return "its key usage does not allow this use";
    case FASTSM2_ERR_ISSUER: return "its issuer is not among the certificates given, nor trusted";
    case FASTSM2_ERR_CHAIN_LOOP: return "its issuers come back to a certificate already in the chain";
    case FASTSM2_ERR_CRITICAL: return "it has a critical extension that is not understood";
    case FASTSM2_ERR_ALGORITHM: return "it is not signed with SM2-with-SM3";
    default: return NULL;
    }
}
