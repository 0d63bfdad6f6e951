/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastsm2 reqgen, reqsign, certgen, certverify, certparse, reqparse: the
 * certificate commands, in the style of gmssl's and of openssl req, x509
 * and verify (docs/PKI.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pki.h"

#define CERT_OUT_MAX (256u << 10)

static int builder_new(fastsm2_x509_builder **b)
{
    if (fastsm2_x509_builder_new(b) != FASTSM2_OK)
        return cli_fail(CLI_EXIT_USAGE, "out of memory");
    return CLI_EXIT_OK;
}

static int set_subject(fastsm2_x509_builder *b, const char *subject)
{
    int st = fastsm2_x509_set_subject(b, subject);
    if (st == FASTSM2_ERR_NAME)
        return cli_fail(CLI_EXIT_USAGE,
                        "--subject: '%s' is not a name of the form /C=CN/O=Org/CN=name (attributes C, ST, L, O, OU, "
                        "CN, serialNumber, emailAddress, DC, UID, title, GN, SN, street, postalCode or a dotted OID; "
                        "\\ escapes / + = \\)",
                        subject);
    if (st != FASTSM2_OK)
        return cli_fail(CLI_EXIT_USAGE, "--subject: %s", fastsm2_strerror(st));
    return CLI_EXIT_OK;
}

static int set_serial(fastsm2_x509_builder *b, const char *hex)
{
    cli_buf buf = {0};
    size_t n = strlen(hex);
    if (n == 0 || n > 64)
        return cli_fail(CLI_EXIT_USAGE, "--serial takes 1 to 40 hex digits");
    buf.data = malloc(n + 2);
    if (!buf.data)
        return cli_fail(CLI_EXIT_USAGE, "out of memory");
    buf.cap = n + 2;
    /* an odd count of digits: one 0 in front */
    buf.len = 0;
    if (n % 2)
        buf.data[buf.len++] = '0';
    memcpy(buf.data + buf.len, hex, n);
    buf.len += n;
    int rc = cli_hex_decode(&buf, "--serial");
    if (rc == CLI_EXIT_OK) {
        int st = fastsm2_x509_set_serial(b, buf.data, buf.len);
        if (st != FASTSM2_OK)
            rc = cli_fail(CLI_EXIT_USAGE, "--serial: a positive number of at most 20 bytes (RFC 5280 4.1.2.2)");
    }
    cli_buf_free(&buf);
    return rc;
}

/* Write the made object (its size asked first). */
typedef int (*make_fn)(unsigned char *out, size_t *outlen, void *ctx);

static int make_and_write(const char *out_path, make_fn make, void *ctx, const char *what)
{
    size_t n = 0;
    int st = make(NULL, &n, ctx);
    unsigned char *out = NULL;
    if (st == FASTSM2_OK && (out = malloc(n)) == NULL)
        st = FASTSM2_ERR_NO_MEMORY;
    if (st == FASTSM2_OK)
        st = make(out, &n, ctx);
    int rc = st == FASTSM2_OK ? cli_write_file(out_path, out, n, 0)
                              : cli_fail(CLI_EXIT_USAGE, "cannot make the %s: %s", what, fastsm2_strerror(st));
    free(out);
    return rc;
}

/* ---- reqgen -------------------------------------------------------------- */

typedef struct {
    fastsm2_x509_builder *b;
    const fastsm2_privkey *key;
    const fastsm2_privkey *ca_key;
    const cli_buf *ca_cert;
    cli_id *id;
    int fmt;
} make_ctx;

static int make_req(unsigned char *out, size_t *outlen, void *arg)
{
    make_ctx *c = arg;
    return fastsm2_x509_make_request(out, outlen, c->b, c->key, c->id->ptr, c->id->len, c->fmt);
}

static int make_cert(unsigned char *out, size_t *outlen, void *arg)
{
    make_ctx *c = arg;
    return fastsm2_x509_make_certificate(out, outlen, c->b, c->ca_key, c->ca_cert ? c->ca_cert->data : NULL,
                                         c->ca_cert ? c->ca_cert->len : 0, c->id->ptr, c->id->len, c->fmt);
}

int cmd_reqgen(int argc, char **argv)
{
    const char *key_path = NULL, *subject = NULL, *id_str = NULL, *out_path = NULL;
    int der = 0;
    cli_exts e = {0};
    const cli_option opts[] = {
        {"--key", &key_path, NULL},
        {"--subject", &subject, NULL},
        {"--id", &id_str, NULL},
        {"--out", &out_path, NULL},
        {"--der", NULL, &der},
        CLI_OPTS_EXTS(e),
        CLI_OPT_PASSIN,
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, NULL);
    if (rc == CLI_EXIT_OK)
        rc = cli_require(key_path, "--key");
    if (rc == CLI_EXIT_OK)
        rc = cli_require(subject, "--subject");
    if (rc != CLI_EXIT_OK)
        return rc;
    cli_id id;
    fastsm2_privkey key;
    fastsm2_x509_builder *b = NULL;
    if ((rc = cli_id_parse(&id, id_str, NULL)) != CLI_EXIT_OK)
        return rc;
    rc = builder_new(&b);
    if (rc == CLI_EXIT_OK)
        rc = set_subject(b, subject);
    if (rc == CLI_EXIT_OK)
        rc = cli_exts_apply(b, &e);
    if (rc == CLI_EXIT_OK)
        rc = cli_load_privkey(&key, key_path);
    if (rc == CLI_EXIT_OK) {
        make_ctx c = {b, &key, NULL, NULL, &id, der ? FASTSM2_KEYFMT_DER : FASTSM2_KEYFMT_PEM};
        rc = make_and_write(out_path, make_req, &c, "request");
        fastsm2_privkey_clear(&key);
    }
    fastsm2_x509_builder_free(b);
    cli_id_free(&id);
    return rc;
}

/* ---- reqsign and certgen ------------------------------------------------- */

/* The CA's certificate and key, checked to belong together. */
static int load_ca(cli_buf *cert, fastsm2_privkey *key, const char *cert_path, const char *key_path)
{
    int rc = cli_read_cert_file(cert, cert_path, "CA certificate");
    if (rc != CLI_EXIT_OK)
        return rc;
    fastsm2_x509_info info;
    int st = fastsm2_x509_get_info(&info, cert->data, cert->len);
    if (st != FASTSM2_OK || info.kind != FASTSM2_X509_CERTIFICATE)
        return cli_fail(CLI_EXIT_USAGE, "%s is not a certificate: %s", cert_path,
                        st != FASTSM2_OK ? fastsm2_strerror(st) : "a certificate request");
    if (!info.sm2_key)
        return cli_fail(CLI_EXIT_USAGE, "%s does not hold an SM2 key", cert_path);
    if (info.has_basic_constraints ? !info.ca : info.version != 1)
        fprintf(stderr,
                "fastsm2: warning: %s is not a CA certificate (no basicConstraints cA): verifiers will "
                "refuse what it issues\n",
                cert_path);
    return cli_load_privkey(key, key_path);
}

static int issue(const char *out_path, int der, fastsm2_x509_builder *b, const fastsm2_privkey *ca_key,
                 const cli_buf *ca_cert, cli_id *id)
{
    make_ctx c = {b, NULL, ca_key, ca_cert, id, der ? FASTSM2_KEYFMT_DER : FASTSM2_KEYFMT_PEM};
    size_t n = 0;
    int st = make_cert(NULL, &n, &c);
    unsigned char *out = NULL;
    if (st == FASTSM2_OK && (out = malloc(n)) == NULL)
        st = FASTSM2_ERR_NO_MEMORY;
    if (st == FASTSM2_OK)
        st = make_cert(out, &n, &c);
    int rc;
    if (st == FASTSM2_ERR_POINT)
        rc = cli_fail(CLI_EXIT_USAGE, "the CA key is not the key of the CA certificate");
    else if (st != FASTSM2_OK)
        rc = cli_fail(CLI_EXIT_USAGE, "cannot make the certificate: %s", fastsm2_strerror(st));
    else
        rc = cli_write_file(out_path, out, n, 0);
    free(out);
    return rc;
}

int cmd_reqsign(int argc, char **argv)
{
    const char *in_path = NULL, *ca_cert_path = NULL, *ca_key_path = NULL, *days = NULL, *nb = NULL, *na = NULL,
               *serial = NULL, *id_str = NULL, *req_id_str = NULL, *out_path = NULL;
    int der = 0, copy = 0;
    cli_exts e = {0};
    const cli_option opts[] = {
        {"--in", &in_path, NULL},
        {"--ca-cert", &ca_cert_path, NULL},
        {"--ca-key", &ca_key_path, NULL},
        {"--days", &days, NULL},
        {"--not-before", &nb, NULL},
        {"--not-after", &na, NULL},
        {"--serial", &serial, NULL},
        {"--copy-extensions", NULL, &copy},
        {"--id", &id_str, NULL},
        {"--req-id", &req_id_str, NULL},
        {"--out", &out_path, NULL},
        {"--der", NULL, &der},
        CLI_OPTS_EXTS(e),
        CLI_OPT_PASSIN,
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, NULL);
    if (rc == CLI_EXIT_OK)
        rc = cli_require(in_path, "--in");
    if (rc == CLI_EXIT_OK)
        rc = cli_require(ca_cert_path, "--ca-cert");
    if (rc == CLI_EXIT_OK)
        rc = cli_require(ca_key_path, "--ca-key");
    if (rc != CLI_EXIT_OK)
        return rc;
    cli_id id, req_id;
    cli_buf req = {0}, ca = {0};
    fastsm2_privkey ca_key;
    fastsm2_x509_builder *b = NULL;
    int have_key = 0;
    if ((rc = cli_id_parse(&id, id_str, NULL)) != CLI_EXIT_OK)
        return rc;
    if ((rc = cli_id_parse(&req_id, req_id_str ? req_id_str : id_str, NULL)) != CLI_EXIT_OK) {
        cli_id_free(&id);
        return rc;
    }
    rc = builder_new(&b);
    if (rc == CLI_EXIT_OK)
        rc = cli_read_cert_file(&req, in_path, "certificate request");
    if (rc == CLI_EXIT_OK) {
        int st = fastsm2_x509_set_request(b, req.data, req.len, req_id.ptr, req_id.len,
                                          copy ? FASTSM2_X509_COPY_EXTENSIONS : 0);
        if (st == FASTSM2_ERR_BAD_SIGNATURE)
            rc = cli_fail(CLI_EXIT_FAIL,
                          "the request's signature does not verify with the signer ID %s (a request from openssl "
                          "3.x without -sigopt distid: is signed with the empty ID: --req-id '')",
                          req_id_str ? "given" : "1234567812345678");
        else if (st != FASTSM2_OK)
            rc = cli_fail(CLI_EXIT_USAGE, "%s is not a usable certificate request: %s",
                          cli_is_std(in_path) ? "stdin" : in_path, fastsm2_strerror(st));
    }
    if (rc == CLI_EXIT_OK)
        rc = cli_validity_apply(b, days, nb, na);
    if (rc == CLI_EXIT_OK && serial)
        rc = set_serial(b, serial);
    if (rc == CLI_EXIT_OK)
        rc = cli_exts_apply(b, &e);
    if (rc == CLI_EXIT_OK && (rc = load_ca(&ca, &ca_key, ca_cert_path, ca_key_path)) == CLI_EXIT_OK)
        have_key = 1;
    if (rc == CLI_EXIT_OK)
        rc = issue(out_path, der, b, &ca_key, &ca, &id);
    if (have_key)
        fastsm2_privkey_clear(&ca_key);
    fastsm2_x509_builder_free(b);
    cli_buf_free(&req);
    cli_buf_free(&ca);
    cli_id_free(&id);
    cli_id_free(&req_id);
    return rc;
}

int cmd_certgen(int argc, char **argv)
{
    const char *key_path = NULL, *pub_path = NULL, *ca_cert_path = NULL, *ca_key_path = NULL, *subject = NULL,
               *days = NULL, *nb = NULL, *na = NULL, *serial = NULL, *id_str = NULL, *out_path = NULL;
    int der = 0;
    cli_exts e = {0};
    const cli_option opts[] = {
        {"--key", &key_path, NULL},
        {"--pub", &pub_path, NULL},
        {"--ca-cert", &ca_cert_path, NULL},
        {"--ca-key", &ca_key_path, NULL},
        {"--subject", &subject, NULL},
        {"--days", &days, NULL},
        {"--not-before", &nb, NULL},
        {"--not-after", &na, NULL},
        {"--serial", &serial, NULL},
        {"--id", &id_str, NULL},
        {"--out", &out_path, NULL},
        {"--der", NULL, &der},
        CLI_OPTS_EXTS(e),
        CLI_OPT_PASSIN,
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, NULL);
    if (rc == CLI_EXIT_OK)
        rc = cli_require(subject, "--subject");
    if (rc == CLI_EXIT_OK && !!key_path == !!pub_path)
        rc = cli_fail(CLI_EXIT_USAGE, "give --key KEY (self-signed) or --pub PUB with --ca-cert and --ca-key");
    if (rc == CLI_EXIT_OK && key_path && (ca_cert_path || ca_key_path))
        rc = cli_fail(CLI_EXIT_USAGE, "--key makes a self-signed certificate: --ca-cert and --ca-key go with --pub");
    if (rc == CLI_EXIT_OK && pub_path && !(ca_cert_path && ca_key_path))
        rc = cli_fail(CLI_EXIT_USAGE, "--pub needs the issuing CA: --ca-cert CERT --ca-key KEY");
    if (rc != CLI_EXIT_OK)
        return rc;
    cli_id id;
    cli_buf ca = {0};
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    fastsm2_x509_builder *b = NULL;
    int have_key = 0;
    if ((rc = cli_id_parse(&id, id_str, NULL)) != CLI_EXIT_OK)
        return rc;
    rc = builder_new(&b);
    if (rc == CLI_EXIT_OK)
        rc = set_subject(b, subject);
    if (rc == CLI_EXIT_OK)
        rc = cli_validity_apply(b, days, nb, na);
    if (rc == CLI_EXIT_OK && serial)
        rc = set_serial(b, serial);
    if (rc == CLI_EXIT_OK)
        rc = cli_exts_apply(b, &e);
    if (rc == CLI_EXIT_OK && pub_path) {
        rc = cli_load_pubkey(&pub, pub_path);
        if (rc == CLI_EXIT_OK && fastsm2_x509_set_public_key(b, &pub) != FASTSM2_OK)
            rc = cli_fail(CLI_EXIT_USAGE, "cannot use the public key of %s", pub_path);
        if (rc == CLI_EXIT_OK && (rc = load_ca(&ca, &key, ca_cert_path, ca_key_path)) == CLI_EXIT_OK)
            have_key = 1;
    } else if (rc == CLI_EXIT_OK && (rc = cli_load_privkey(&key, key_path)) == CLI_EXIT_OK) {
        have_key = 1;
    }
    if (rc == CLI_EXIT_OK)
        rc = issue(out_path, der, b, &key, pub_path ? &ca : NULL, &id);
    if (have_key)
        fastsm2_privkey_clear(&key);
    fastsm2_x509_builder_free(b);
    cli_buf_free(&ca);
    cli_id_free(&id);
    return rc;
}

/* ---- certverify ---------------------------------------------------------- */

/* Append every certificate of a bundle, in DER, to out. */
static int append_bundle(cli_buf *out, const cli_buf *bundle, size_t from, const char *name)
{
    int n = fastsm2_x509_bundle_count(bundle->data, bundle->len);
    if (n < 0)
        return cli_fail(CLI_EXIT_USAGE, "%s: %s", name, fastsm2_strerror(n));
    for (size_t i = from; i < (size_t)n; i++) {
        size_t len = 0;
        if (fastsm2_x509_bundle_get(NULL, &len, i, bundle->data, bundle->len) != FASTSM2_OK)
            return cli_fail(CLI_EXIT_USAGE, "%s: cannot read certificate %zu", name, i + 1);
        unsigned char *p = realloc(out->data, out->len + len);
        if (!p)
            return cli_fail(CLI_EXIT_USAGE, "out of memory");
        out->data = p;
        out->cap = out->len + len;
        int st = fastsm2_x509_bundle_get(out->data + out->len, &len, i, bundle->data, bundle->len);
        if (st != FASTSM2_OK)
            return cli_fail(CLI_EXIT_USAGE, "%s: %s", name, fastsm2_strerror(st));
        out->len += len;
    }
    return CLI_EXIT_OK;
}

int cmd_certverify(int argc, char **argv)
{
    const char *in_path = NULL, *ca_path = NULL, *chain_path = NULL, *id_str = NULL, *at = NULL, *usage = NULL,
               *ext_usage = NULL, *max_depth = NULL;
    int no_time = 0, quiet = 0;
    const cli_option opts[] = {
        {"--in", &in_path, NULL},
        {"--ca-file", &ca_path, NULL},
        {"--chain", &chain_path, NULL},
        {"--id", &id_str, NULL},
        {"--at", &at, NULL},
        {"--no-time-check", NULL, &no_time},
        {"--usage", &usage, NULL},
        {"--ext-usage", &ext_usage, NULL},
        {"--max-depth", &max_depth, NULL},
        {"--quiet", NULL, &quiet},
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, NULL);
    if (rc == CLI_EXIT_OK)
        rc = cli_require(in_path, "--in");
    if (rc == CLI_EXIT_OK)
        rc = cli_require(ca_path, "--ca-file");
    if (rc == CLI_EXIT_OK && at && no_time)
        rc = cli_fail(CLI_EXIT_USAGE, "--at and --no-time-check exclude each other");
    if (rc != CLI_EXIT_OK)
        return rc;
    fastsm2_x509_verify_params p;
    fastsm2_x509_verify_params_init(&p);
    cli_id id;
    cli_buf in = {0}, ca = {0}, chain = {0}, untrusted = {0}, leaf = {0};
    if ((rc = cli_id_parse(&id, id_str, NULL)) != CLI_EXIT_OK)
        return rc;
    p.id = id.ptr;
    p.idlen = id.len;
    if (at)
        rc = cli_parse_time(&p.time, at, "--at");
    if (no_time)
        p.flags |= FASTSM2_X509_NO_TIME_CHECK;
    if (rc == CLI_EXIT_OK && usage)
        rc = cli_parse_usage(&p.key_usage, usage);
    if (rc == CLI_EXIT_OK && ext_usage)
        rc = cli_parse_ext_usage(&p.ext_key_usage, ext_usage);
    if (rc == CLI_EXIT_OK && max_depth) {
        char *end;
        long v = strtol(max_depth, &end, 10);
        if (*max_depth == 0 || *end != 0 || v < 1 || v > 32)
            rc = cli_fail(CLI_EXIT_USAGE, "--max-depth takes a count of certificates from 1 to 32");
        p.max_depth = (unsigned)v;
    }
    const char *in_name = cli_is_std(in_path) ? "stdin" : in_path;
    if (rc == CLI_EXIT_OK)
        rc = cli_read_bundle(&in, in_path, "certificate");
    if (rc == CLI_EXIT_OK)
        rc = cli_read_bundle(&ca, ca_path, "trusted certificates");
    if (rc == CLI_EXIT_OK && chain_path)
        rc = cli_read_bundle(&chain, chain_path, "intermediate certificates");
    /* the leaf: the first certificate of --in; the others untrusted */
    if (rc == CLI_EXIT_OK) {
        size_t len = 0;
        int st = fastsm2_x509_bundle_get(NULL, &len, 0, in.data, in.len);
        if (st == FASTSM2_OK && (leaf.data = malloc(len)) == NULL)
            st = FASTSM2_ERR_NO_MEMORY;
        if (st == FASTSM2_OK) {
            leaf.cap = len;
            st = fastsm2_x509_bundle_get(leaf.data, &len, 0, in.data, in.len);
            leaf.len = len;
        }
        if (st == FASTSM2_ERR_LENGTH)
            rc = cli_fail(CLI_EXIT_USAGE, "%s holds no certificate", in_name);
        else if (st != FASTSM2_OK)
            rc = cli_fail(CLI_EXIT_USAGE, "%s is not a readable certificate: %s", in_name, fastsm2_strerror(st));
    }
    if (rc == CLI_EXIT_OK)
        rc = append_bundle(&untrusted, &in, 1, in_name);
    if (rc == CLI_EXIT_OK && chain_path)
        rc = append_bundle(&untrusted, &chain, 0, chain_path);
    if (rc == CLI_EXIT_OK) {
        int n = fastsm2_x509_bundle_count(ca.data, ca.len);
        if (n <= 0)
            rc = cli_fail(CLI_EXIT_USAGE, "%s: %s", ca_path, n < 0 ? fastsm2_strerror(n) : "no certificate");
    }
    if (rc == CLI_EXIT_OK) {
        int depth = -1;
        int st =
            fastsm2_x509_verify_chain(&depth, leaf.data, leaf.len, untrusted.data, untrusted.len, ca.data, ca.len, &p);
        const char *why = cli_chain_reason(st);
        char subject[512];
        if (st == FASTSM2_OK) {
            if (!quiet)
                printf("%s: OK\n", in_name);
        } else if (why != NULL) {
            if (depth == 0) {
                cli_subject_of(subject, sizeof subject, leaf.data, leaf.len);
                rc = cli_fail(CLI_EXIT_FAIL, "%s: verification failed: the certificate (%s): %s (%s)", in_name, subject,
                              why, fastsm2_error_name(st));
            } else {
                rc = cli_fail(CLI_EXIT_FAIL, "%s: verification failed: its issuer at depth %d: %s (%s)", in_name, depth,
                              why, fastsm2_error_name(st));
            }
        } else {
            rc = cli_fail(CLI_EXIT_USAGE, "cannot verify %s: %s", in_name, fastsm2_strerror(st));
        }
    }
    cli_buf_free(&in);
    cli_buf_free(&ca);
    cli_buf_free(&chain);
    cli_buf_free(&untrusted);
    cli_buf_free(&leaf);
    cli_id_free(&id);
    return rc;
}

/* ---- certparse, reqparse ------------------------------------------------- */

static int parse_cmd(int argc, char **argv, int kind)
{
    const char *in_path = NULL, *out_path = NULL, *id_str = NULL;
    int der = 0, pem = 0;
    const cli_option opts_cert[] = {
        {"--in", &in_path, NULL},
        {"--out", &out_path, NULL},
        {"--der", NULL, &der},
        {"--pem", NULL, &pem},
    };
    const cli_option opts_req[] = {
        {"--in", &in_path, NULL}, {"--out", &out_path, NULL}, {"--der", NULL, &der},
        {"--pem", NULL, &pem},    {"--id", &id_str, NULL},
    };
    int is_req = kind == FASTSM2_X509_REQUEST;
    int rc = is_req ? cli_parse_options(argc, argv, opts_req, sizeof opts_req / sizeof opts_req[0], NULL, NULL)
                    : cli_parse_options(argc, argv, opts_cert, sizeof opts_cert / sizeof opts_cert[0], NULL, NULL);
    if (rc == CLI_EXIT_OK && der && pem)
        rc = cli_fail(CLI_EXIT_USAGE, "--der and --pem exclude each other");
    if (rc != CLI_EXIT_OK)
        return rc;
    const char *in_name = cli_is_std(in_path) ? "stdin" : in_path;
    cli_buf in = {0};
    cli_id id = {0};
    fastsm2_x509_info info;
    if ((rc = cli_read_cert_file(&in, in_path, is_req ? "certificate request" : "certificate")) != CLI_EXIT_OK)
        return rc;
    int st = fastsm2_x509_get_info(&info, in.data, in.len);
    if (st != FASTSM2_OK)
        rc = cli_fail(CLI_EXIT_USAGE, "%s is not a readable %s: %s", in_name,
                      is_req ? "certificate request" : "certificate", fastsm2_strerror(st));
    else if (info.kind != kind)
        rc = cli_fail(CLI_EXIT_USAGE, "%s is a %s, not a %s (use %s)", in_name,
                      is_req ? "certificate" : "certificate request", is_req ? "certificate request" : "certificate",
                      is_req ? "certparse" : "reqparse");
    if (rc == CLI_EXIT_OK && (der || pem)) {
        size_t n = CERT_OUT_MAX;
        unsigned char *d = malloc(n);
        st = d ? fastsm2_x509_get_der(d, &n, FASTSM2_X509_DER, in.data, in.len) : FASTSM2_ERR_NO_MEMORY;
        rc = st == FASTSM2_OK ? cli_write_der(out_path, d, n, pem, is_req ? "CERTIFICATE REQUEST" : "CERTIFICATE")
                              : cli_fail(CLI_EXIT_USAGE, "%s: %s", in_name, fastsm2_strerror(st));
        free(d);
    } else if (rc == CLI_EXIT_OK) {
        size_t n = 0;
        char *text = NULL;
        st = fastsm2_x509_get_text(NULL, &n, FASTSM2_X509_TEXT, in.data, in.len);
        if (st == FASTSM2_OK && (text = malloc(n + 128)) == NULL)
            st = FASTSM2_ERR_NO_MEMORY;
        if (st == FASTSM2_OK)
            st = fastsm2_x509_get_text(text, &n, FASTSM2_X509_TEXT, in.data, in.len);
        int sig_st = FASTSM2_OK;
        if (st == FASTSM2_OK && is_req) {
            if ((rc = cli_id_parse(&id, id_str, NULL)) == CLI_EXIT_OK) {
                sig_st = fastsm2_x509_verify_request(in.data, in.len, id.ptr, id.len);
                n += (size_t)snprintf(text + n, 128, "    Signature: %s\n",
                                      sig_st == FASTSM2_OK ? "verified" : fastsm2_strerror(sig_st));
            }
        }
        if (st != FASTSM2_OK)
            rc = cli_fail(CLI_EXIT_USAGE, "%s: %s", in_name, fastsm2_strerror(st));
        else if (rc == CLI_EXIT_OK)
            rc = cli_write_file(out_path, text, n, 0);
        if (rc == CLI_EXIT_OK && sig_st != FASTSM2_OK)
            rc = cli_fail(CLI_EXIT_FAIL, "%s: the request's signature does not verify with the signer ID%s", in_name,
                          id_str ? " given" : " 1234567812345678 (openssl 3.x's requests: --id '')");
        free(text);
    }
    cli_buf_free(&in);
    cli_id_free(&id);
    return rc;
}

int cmd_certparse(int argc, char **argv)
{
    return parse_cmd(argc, argv, FASTSM2_X509_CERTIFICATE);
}

int cmd_reqparse(int argc, char **argv)
{
    return parse_cmd(argc, argv, FASTSM2_X509_REQUEST);
}
