/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastsm2 cmssign, cmsverify, cmsencrypt, cmsdecrypt, cmsparse: CMS
 * (RFC 5652, GM/T 0010) as gmssl's cms commands and openssl cms do it.
 *
 * Large contents: cmssign reads a regular input file twice (its SM3, then
 * its bytes between the message's prefix and suffix) into a regular output
 * file, never holding it; cmsverify maps regular files into memory rather
 * than reading them (the library verifies in place, and the content written
 * with --out is taken from the mapping). cmsencrypt reads a regular input
 * file of STREAM_MIN bytes or more in pieces between the message's prefix
 * and final piece; cmsdecrypt opens such a (mapped) DER message in pieces
 * into the output's temporary file, renamed into place only once the tag or
 * the padding is checked. Anything else (stdin, PEM, BER, GmSSL's form, an
 * output that is not a regular file) takes the in-memory path.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pki.h"

#define CHUNK        (1u << 20)
/* Enveloped data streamed from this size on (smaller contents are held). */
#define STREAM_MIN   ((uint64_t)CHUNK)
/* A streamed call declined: the in-memory path answers instead. */
#define NOT_STREAMED (-1000)

/* An input: mapped when it is a regular file, else read whole. */
typedef struct {
    const unsigned char *p;
    size_t len;
    void *map;
    cli_buf buf;
} input;

static int input_open(input *in, const char *path, const char *what)
{
    struct stat st;
    memset(in, 0, sizeof *in);
    if (!cli_is_std(path)) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
            void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
            close(fd);
            if (m != MAP_FAILED) {
                in->map = m;
                in->p = m;
                in->len = (size_t)st.st_size;
                return CLI_EXIT_OK;
            }
        } else if (fd >= 0) {
            close(fd);
        }
    }
    int rc = cli_read_file(&in->buf, path);
    if (rc != CLI_EXIT_OK)
        return rc;
    (void)what;
    in->p = in->buf.data ? in->buf.data : (const unsigned char *)"";
    in->len = in->buf.len;
    return CLI_EXIT_OK;
}

static void input_close(input *in)
{
    if (in->map)
        munmap(in->map, in->len);
    cli_buf_free(&in->buf);
    memset(in, 0, sizeof *in);
}

static int write_all(int fd, const void *p, size_t n)
{
    const unsigned char *c = p;
    while (n) {
        ssize_t r = write(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

static int read_some(int fd, unsigned char *p, size_t n, size_t *got)
{
    for (;;) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        *got = (size_t)r;
        return 0;
    }
}

/* SM3 of a file read from the start, and its length. */
static int hash_file(int fd, unsigned char d[32], uint64_t *len, unsigned char *chunk)
{
    fastsm2_sm3_ctx c;
    size_t got;
    *len = 0;
    if (lseek(fd, 0, SEEK_SET) != 0)
        return -1;
    fastsm2_sm3_init(&c);
    do {
        if (read_some(fd, chunk, CHUNK, &got) != 0)
            return -1;
        fastsm2_sm3_update(&c, chunk, got);
        *len += got;
    } while (got);
    fastsm2_sm3_final(d, &c);
    return 0;
}

/* ---- cmssign ---------------------------------------------------------- */

/* A regular file into a regular output file: SM3 first, then prefix,
 * content and suffix; the content hashed again as it is copied, so that a
 * file changed in between is caught. */
static int sign_streaming(int fd, const char *in_path, const char *out_path, const cli_buf *cert,
                          const fastsm2_privkey *key, const cli_id *id, unsigned flags)
{
    unsigned char *chunk = malloc(CHUNK), d[32], d2[32], prefix[FASTSM2_CMS_PREFIX_MAX];
    unsigned char *suffix = malloc(FASTSM2_CMS_SUFFIX_MAX);
    size_t pn = sizeof prefix, sn = FASTSM2_CMS_SUFFIX_MAX;
    uint64_t len, len2 = 0;
    cli_out out;
    int rc, detached = (flags & FASTSM2_CMS_DETACHED) != 0;
    if (!chunk || !suffix) {
        free(chunk);
        free(suffix);
        return cli_fail(CLI_EXIT_USAGE, "out of memory");
    }
    if (hash_file(fd, d, &len, chunk) != 0) {
        rc = cli_fail(CLI_EXIT_USAGE, "cannot read %s: %s", in_path, strerror(errno));
        goto done;
    }
    int st =
        fastsm2_cms_sign_digest(prefix, &pn, suffix, &sn, d, len, cert->data, cert->len, key, id->ptr, id->len, flags);
    if (st == FASTSM2_ERR_POINT) {
        rc = cli_fail(CLI_EXIT_USAGE, "the key is not the key of the signer's certificate");
        goto done;
    }
    if (st != FASTSM2_OK) {
        rc = cli_fail(CLI_EXIT_USAGE, "cannot sign: %s", fastsm2_strerror(st));
        goto done;
    }
    if ((rc = cli_out_open(&out, out_path, 0)) != CLI_EXIT_OK)
        goto done;
    if (write_all(out.fd, prefix, pn) != 0)
        goto io;
    if (!detached) {
        fastsm2_sm3_ctx c;
        size_t got;
        fastsm2_sm3_init(&c);
        if (lseek(fd, 0, SEEK_SET) != 0)
            goto io;
        do {
            if (read_some(fd, chunk, CHUNK, &got) != 0)
                goto io;
            fastsm2_sm3_update(&c, chunk, got);
            len2 += got;
            if (len2 > len)
                break;
            if (write_all(out.fd, chunk, got) != 0)
                goto io;
        } while (got);
        fastsm2_sm3_final(d2, &c);
        if (len2 != len || memcmp(d, d2, 32) != 0) {
            cli_out_abort(&out);
            rc = cli_fail(CLI_EXIT_USAGE, "%s changed while it was signed: nothing written", in_path);
            goto done;
        }
    }
    if (write_all(out.fd, suffix, sn) != 0)
        goto io;
    rc = cli_out_commit(&out);
    goto done;
io:
    rc = cli_fail(CLI_EXIT_USAGE, "cannot write %s: %s", out_path, strerror(errno));
    cli_out_abort(&out);
done:
    free(chunk);
    free(suffix);
    return rc;
}

/* Whether path names a regular file or a new file (where cli_out stages a
 * temporary file we can write into). */
static int regular_output(const char *path)
{
    struct stat st;
    if (cli_is_std(path))
        return 0;
    if (stat(path, &st) != 0)
        return errno == ENOENT;
    return S_ISREG(st.st_mode);
}

int cmd_cmssign(int argc, char **argv)
{
    const char *key_path = NULL, *cert_path = NULL, *in_path = NULL, *out_path = NULL, *id_str = NULL;
    int detached = 0, gm = 0, no_certs = 0, no_attrs = 0, pem = 0, gmssl = 0;
    const cli_option opts[] = {
        {"--key", &key_path, NULL},      {"--cert", &cert_path, NULL},
        {"--in", &in_path, NULL},        {"--out", &out_path, NULL},
        {"--detached", NULL, &detached}, {"--gm", NULL, &gm},
        {"--no-certs", NULL, &no_certs}, {"--no-attributes", NULL, &no_attrs},
        {"--pem", NULL, &pem},           {"--id", &id_str, NULL},
        {"--gmssl", NULL, &gmssl},       CLI_OPT_PASSIN,
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, NULL);
    if (rc == CLI_EXIT_OK)
        rc = cli_require(key_path, "--key");
    if (rc == CLI_EXIT_OK)
        rc = cli_require(cert_path, "--cert");
    if (rc != CLI_EXIT_OK)
        return rc;
    unsigned flags = (detached ? FASTSM2_CMS_DETACHED : 0) | (gm ? FASTSM2_CMS_GMT0010 : 0) |
                     (no_certs ? FASTSM2_CMS_NO_CERTS : 0) | (no_attrs ? FASTSM2_CMS_NO_ATTRIBUTES : 0) |
                     (pem ? FASTSM2_CMS_PEM : 0) | (gmssl ? FASTSM2_CMS_GMSSL : 0);
    cli_id id;
    cli_buf cert = {0};
    fastsm2_privkey key;
    if ((rc = cli_id_parse(&id, id_str, NULL)) != CLI_EXIT_OK)
        return rc;
    rc = cli_read_cert_file(&cert, cert_path, "signer certificate");
    int have_key = 0;
    if (rc == CLI_EXIT_OK && (rc = cli_load_privkey(&key, key_path)) == CLI_EXIT_OK)
        have_key = 1;
    /* streamed: a regular file in, a regular file out, DER with attributes */
    int fd = -1;
    struct stat st;
    if (rc == CLI_EXIT_OK && !pem && !no_attrs && !gmssl && !cli_is_std(in_path) && regular_output(out_path)) {
        fd = open(in_path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
            close(fd);
            fd = -1;
        }
    }
    if (rc == CLI_EXIT_OK && fd >= 0) {
        rc = sign_streaming(fd, in_path, out_path, &cert, &key, &id, flags);
    } else if (rc == CLI_EXIT_OK) {
        input in;
        if ((rc = input_open(&in, in_path, "content")) == CLI_EXIT_OK) {
            size_t n = 0;
            unsigned char *out = NULL;
            int s = fastsm2_cms_sign(NULL, &n, in.p, in.len, cert.data, cert.len, &key, id.ptr, id.len, flags);
            if (s == FASTSM2_OK && (out = malloc(n)) == NULL)
                s = FASTSM2_ERR_NO_MEMORY;
            if (s == FASTSM2_OK)
                s = fastsm2_cms_sign(out, &n, in.p, in.len, cert.data, cert.len, &key, id.ptr, id.len, flags);
            if (s == FASTSM2_ERR_POINT)
                rc = cli_fail(CLI_EXIT_USAGE, "the key is not the key of the signer's certificate");
            else if (s != FASTSM2_OK)
                rc = cli_fail(CLI_EXIT_USAGE, "cannot sign: %s", fastsm2_strerror(s));
            else
                rc = cli_write_file(out_path, out, n, 0);
            free(out);
            input_close(&in);
        }
    }
    if (fd >= 0)
        close(fd);
    if (have_key)
        fastsm2_privkey_clear(&key);
    cli_buf_free(&cert);
    cli_id_free(&id);
    return rc;
}

/* ---- cmsverify ---------------------------------------------------------- */

static int cms_status(int st, const char *name)
{
    switch (st) {
    case FASTSM2_ERR_BAD_SIGNATURE:
        return cli_fail(CLI_EXIT_FAIL, "%s: a signature does not verify (%s)", name, fastsm2_error_name(st));
    case FASTSM2_ERR_DIGEST:
        return cli_fail(CLI_EXIT_FAIL, "%s: the content is not the one signed (%s)", name, fastsm2_error_name(st));
    case FASTSM2_ERR_ISSUER:
        return cli_fail(CLI_EXIT_FAIL, "%s: the signer's certificate is not in the message: give it with --certs",
                        name);
    case FASTSM2_ERR_ALGORITHM:
        return cli_fail(CLI_EXIT_FAIL, "%s: signed with an algorithm other than SM2 with SM3", name);
    case FASTSM2_ERR_DER:
    case FASTSM2_ERR_PEM:
        return cli_fail(CLI_EXIT_FAIL, "%s is not a well-formed CMS message: %s", name, fastsm2_strerror(st));
    default: return cli_fail(CLI_EXIT_USAGE, "cannot verify %s: %s", name, fastsm2_strerror(st));
    }
}

int cmd_cmsverify(int argc, char **argv)
{
    const char *in_path = NULL, *ca_path = NULL, *content_path = NULL, *certs_path = NULL, *out_path = NULL,
               *id_str = NULL, *at = NULL;
    int no_chain = 0, quiet = 0, gmssl = 0;
    const cli_option opts[] = {
        {"--in", &in_path, NULL},        {"--ca-file", &ca_path, NULL},
        {"--no-chain", NULL, &no_chain}, {"--content", &content_path, NULL},
        {"--certs", &certs_path, NULL},  {"--out", &out_path, NULL},
        {"--id", &id_str, NULL},         {"--at", &at, NULL},
        {"--quiet", NULL, &quiet},       {"--gmssl", NULL, &gmssl},
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, NULL);
    if (rc == CLI_EXIT_OK && !ca_path && !no_chain)
        rc = cli_fail(CLI_EXIT_USAGE, "give the trust anchors with --ca-file, or --no-chain not to check the "
                                      "signer's certificate");
    if (rc == CLI_EXIT_OK && ca_path && no_chain)
        rc = cli_fail(CLI_EXIT_USAGE, "--ca-file and --no-chain exclude each other");
    if (rc != CLI_EXIT_OK)
        return rc;
    const char *name = cli_is_std(in_path) ? "stdin" : in_path;
    cli_id id;
    cli_buf ca = {0}, certs = {0}, signer = {0}, bundle = {0};
    input cms, content;
    memset(&content, 0, sizeof content);
    fastsm2_x509_verify_params p;
    fastsm2_x509_verify_params_init(&p);
    if ((rc = cli_id_parse(&id, id_str, NULL)) != CLI_EXIT_OK)
        return rc;
    if (at)
        rc = cli_parse_time(&p.time, at, "--at");
    if (rc == CLI_EXIT_OK && (rc = input_open(&cms, in_path, "CMS message")) != CLI_EXIT_OK) {
        cli_id_free(&id);
        return rc;
    }
    if (rc == CLI_EXIT_OK && content_path)
        rc = input_open(&content, content_path, "content");
    if (rc == CLI_EXIT_OK && certs_path)
        rc = cli_read_bundle(&certs, certs_path, "certificates");
    if (rc == CLI_EXIT_OK && ca_path)
        rc = cli_read_bundle(&ca, ca_path, "trusted certificates");
    fastsm2_cms_info info;
    if (rc == CLI_EXIT_OK) {
        int st = fastsm2_cms_get_info(&info, cms.p, cms.len);
        if (st != FASTSM2_OK)
            rc = cms_status(st, name);
        else if (info.type != FASTSM2_CMS_SIGNED_DATA)
            rc = cli_fail(CLI_EXIT_USAGE, "%s is enveloped data, not signed data (cmsdecrypt opens it)", name);
        else if (info.detached && !content_path)
            rc = cli_fail(CLI_EXIT_USAGE, "%s is detached: give the content with --content", name);
        else if (!info.detached && content_path)
            rc = cli_fail(CLI_EXIT_USAGE, "%s holds its content: --content is for detached messages", name);
    }
    if (rc == CLI_EXIT_OK) {
        int st = fastsm2_cms_verify(cms.p, cms.len, content_path ? content.p : NULL, content_path ? content.len : 0,
                                    certs.data, certs.len, id.ptr, id.len, gmssl ? FASTSM2_CMS_GMSSL : 0);
        if (st != FASTSM2_OK)
            rc = cms_status(st, name);
    }
    /* the signer's certificate up to a trust anchor */
    if (rc == CLI_EXIT_OK && !no_chain) {
        size_t n = 0;
        int st = fastsm2_cms_get(NULL, &n, FASTSM2_CMS_SIGNER, cms.p, cms.len);
        if (st == FASTSM2_OK && (signer.data = malloc(n)) != NULL) {
            signer.cap = n;
            st = fastsm2_cms_get(signer.data, &n, FASTSM2_CMS_SIGNER, cms.p, cms.len);
            signer.len = n;
        } else if (st == FASTSM2_OK) {
            st = FASTSM2_ERR_NO_MEMORY;
        }
        if (st == FASTSM2_ERR_ISSUER && certs.len) {
            /* the signer is among --certs: the first certificate there that verifies the message is it */
            int k = fastsm2_x509_bundle_count(certs.data, certs.len);
            for (int i = 0; i < k && st != FASTSM2_OK; i++) {
                size_t len = 0;
                cli_buf_free(&signer);
                if (fastsm2_x509_bundle_get(NULL, &len, (size_t)i, certs.data, certs.len) != FASTSM2_OK ||
                    (signer.data = malloc(len)) == NULL)
                    break;
                signer.cap = len;
                if (fastsm2_x509_bundle_get(signer.data, &len, (size_t)i, certs.data, certs.len) == FASTSM2_OK &&
                    fastsm2_cms_verify(cms.p, cms.len, content_path ? content.p : NULL, content_path ? content.len : 0,
                                       signer.data, len, id.ptr, id.len, gmssl ? FASTSM2_CMS_GMSSL : 0) == FASTSM2_OK) {
                    signer.len = len;
                    st = FASTSM2_OK;
                }
            }
        }
        if (st != FASTSM2_OK)
            rc = cli_fail(CLI_EXIT_USAGE, "%s: cannot find the signer's certificate: %s", name, fastsm2_strerror(st));
        /* intermediates: the message's certificates and --certs */
        if (rc == CLI_EXIT_OK) {
            size_t m = 0;
            if (fastsm2_cms_get(NULL, &m, FASTSM2_CMS_CERTS, cms.p, cms.len) == FASTSM2_OK && m &&
                (bundle.data = malloc(m + certs.len)) != NULL) {
                bundle.cap = m + certs.len;
                if (fastsm2_cms_get(bundle.data, &m, FASTSM2_CMS_CERTS, cms.p, cms.len) == FASTSM2_OK)
                    bundle.len = m;
            }
        }
        if (rc == CLI_EXIT_OK) {
            int depth = -1;
            p.id = id.ptr;
            p.idlen = id.len;
            /* --certs may be PEM: verify against it and the message's certificates in turn */
            st = fastsm2_x509_verify_chain(&depth, signer.data, signer.len, bundle.data, bundle.len, ca.data, ca.len,
                                           &p);
            if (st != FASTSM2_OK && certs.len)
                st = fastsm2_x509_verify_chain(&depth, signer.data, signer.len, certs.data, certs.len, ca.data, ca.len,
                                               &p);
            const char *why = cli_chain_reason(st);
            if (st != FASTSM2_OK && why)
                rc = cli_fail(CLI_EXIT_FAIL, "%s: the signer's certificate does not verify: %s %s (%s)", name,
                              depth == 0 ? "the certificate:" : "an issuer:", why, fastsm2_error_name(st));
            else if (st != FASTSM2_OK)
                rc = cli_fail(CLI_EXIT_USAGE, "%s: cannot verify the signer's certificate: %s", name,
                              fastsm2_strerror(st));
        }
    }
    if (rc == CLI_EXIT_OK && out_path && !info.detached) {
        size_t n = 0;
        if (info.content_offset > 0) { /* DER: the content in place */
            rc = cli_write_file(out_path, cms.p + info.content_offset, (size_t)info.content_len, 0);
        } else {
            /* PEM or BER input: the content from the decoded message */
            unsigned char *c = NULL;
            int st = fastsm2_cms_get(NULL, &n, FASTSM2_CMS_CONTENT, cms.p, cms.len);
            if (st == FASTSM2_OK && (c = malloc(n ? n : 1)) == NULL)
                st = FASTSM2_ERR_NO_MEMORY;
            if (st == FASTSM2_OK)
                st = fastsm2_cms_get(c, &n, FASTSM2_CMS_CONTENT, cms.p, cms.len);
            rc = st == FASTSM2_OK ? cli_write_file(out_path, c, n, 0)
                                  : cli_fail(CLI_EXIT_USAGE, "%s: %s", name, fastsm2_strerror(st));
            free(c);
        }
    }
    if (rc == CLI_EXIT_OK && !quiet)
        fprintf(stderr, "%s: verification successful%s\n", name,
                no_chain ? " (the signer's certificate not checked)" : "");
    input_close(&cms);
    input_close(&content);
    cli_buf_free(&ca);
    cli_buf_free(&certs);
    cli_buf_free(&signer);
    cli_buf_free(&bundle);
    cli_id_free(&id);
    return rc;
}

/* ---- cmsparse ----------------------------------------------------------- */

int cmd_cmsparse(int argc, char **argv)
{
    const char *in_path = NULL;
    const cli_option opts[] = {{"--in", &in_path, NULL}};
    int rc = cli_parse_options(argc, argv, opts, 1, NULL, NULL);
    if (rc != CLI_EXIT_OK)
        return rc;
    input in;
    if ((rc = input_open(&in, in_path, "CMS message")) != CLI_EXIT_OK)
        return rc;
    fastsm2_cms_info info;
    int st = fastsm2_cms_get_info(&info, in.p, in.len);
    if (st != FASTSM2_OK) {
        rc = cms_status(st, cli_is_std(in_path) ? "stdin" : in_path);
    } else {
        static const char *const types[] = {"?", "signed data", "enveloped data", "authenticated enveloped data"};
        printf("CMS %s (%s content types)\n", types[info.type], info.gmt0010 ? "GM/T 0010" : "RFC 5652");
        if (info.type == FASTSM2_CMS_SIGNED_DATA) {
            printf("    Signers: %u\n    Certificates: %u\n", info.signers, info.certificates);
            if (info.detached)
                printf("    Content: detached\n");
            else
                printf("    Content: %llu bytes\n", (unsigned long long)info.content_len);
            if (info.signing_time) {
                time_t t = (time_t)info.signing_time;
                struct tm tm;
                char buf[64];
                gmtime_r(&t, &tm);
                strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
                printf("    Signing time: %s\n", buf);
            }
            size_t n = 0;
            unsigned char *signer = NULL;
            if (fastsm2_cms_get(NULL, &n, FASTSM2_CMS_SIGNER, in.p, in.len) == FASTSM2_OK &&
                (signer = malloc(n)) != NULL &&
                fastsm2_cms_get(signer, &n, FASTSM2_CMS_SIGNER, in.p, in.len) == FASTSM2_OK) {
                char subject[512];
                cli_subject_of(subject, sizeof subject, signer, n);
                printf("    Signer: %s\n", subject);
            }
            free(signer);
        } else {
            printf("    Recipients: %u\n    Cipher: %s\n", info.recipients,
                   info.cipher == FASTSM2_CMS_SM4_CBC   ? "SM4-CBC"
                   : info.cipher == FASTSM2_CMS_SM4_GCM ? "SM4-GCM"
                                                        : "not SM4");
        }
    }
    input_close(&in);
    return rc;
}

/* ---- enveloped data ------------------------------------------------------ */

/* cmsencrypt's refusals, streamed or not. */
static int encrypt_status(int s, unsigned flags, const char *cert_path)
{
    if (s == FASTSM2_ERR_ALGORITHM)
        return cli_fail(CLI_EXIT_USAGE, "%s: a recipient's key is not an SM2 key", cert_path);
    if (s == FASTSM2_ERR_ARG && (flags & FASTSM2_CMS_KEYID))
        return cli_fail(CLI_EXIT_USAGE, "%s: --keyid: a recipient certificate has no subjectKeyIdentifier", cert_path);
    return cli_fail(CLI_EXIT_USAGE, "cannot encrypt: %s", fastsm2_strerror(s));
}

/* cmsencrypt of a regular file of size bytes (fd) into a regular output:
 * prefix, the content read in pieces and encrypted, the final piece. */
static int encrypt_streaming(int fd, uint64_t size, const char *in_path, const char *out_path, const cli_buf *certs,
                             int cipher, unsigned flags, const char *cert_path)
{
    fastsm2_cms_stream s;
    size_t pn = 0;
    unsigned char *prefix = NULL, *chunk = malloc(CHUNK), *ct = malloc(CHUNK + 16), fin[FASTSM2_CMS_FINAL_MAX];
    uint64_t left = size;
    cli_out out;
    int rc = CLI_EXIT_OK, st = chunk && ct ? FASTSM2_OK : FASTSM2_ERR_NO_MEMORY;
    if (st == FASTSM2_OK)
        st = fastsm2_cms_encrypt_init(&s, NULL, &pn, size, certs->data, certs->len, cipher, flags);
    if (st == FASTSM2_OK && (prefix = malloc(pn)) == NULL)
        st = FASTSM2_ERR_NO_MEMORY;
    if (st == FASTSM2_OK)
        st = fastsm2_cms_encrypt_init(&s, prefix, &pn, size, certs->data, certs->len, cipher, flags);
    if (st != FASTSM2_OK) {
        rc = encrypt_status(st, flags, cert_path);
        goto done;
    }
    if ((rc = cli_out_open(&out, out_path, 0)) != CLI_EXIT_OK)
        goto done;
    if (out.direct) { /* written at commit from memory: not streamed */
        cli_out_abort(&out);
        rc = NOT_STREAMED;
        goto done;
    }
    if (lseek(fd, 0, SEEK_SET) != 0) {
        cli_out_abort(&out);
        rc = cli_fail(CLI_EXIT_USAGE, "cannot read %s: %s", in_path, strerror(errno));
        goto done;
    }
    if (write_all(out.fd, prefix, pn) != 0)
        goto io;
    for (;;) {
        size_t got, w = CHUNK + 16;
        if (read_some(fd, chunk, CHUNK, &got) != 0) {
            cli_out_abort(&out);
            rc = cli_fail(CLI_EXIT_USAGE, "cannot read %s: %s", in_path, strerror(errno));
            goto done;
        }
        if (got > left || (got == 0 && left != 0)) {
            cli_out_abort(&out);
            rc = cli_fail(CLI_EXIT_USAGE, "%s changed while it was encrypted: nothing written", in_path);
            goto done;
        }
        if (got == 0)
            break;
        left -= got;
        if ((st = fastsm2_cms_encrypt_update(&s, ct, &w, chunk, got)) != FASTSM2_OK) {
            cli_out_abort(&out);
            rc = encrypt_status(st, flags, cert_path);
            goto done;
        }
        if (write_all(out.fd, ct, w) != 0)
            goto io;
    }
    size_t w = sizeof fin;
    if ((st = fastsm2_cms_encrypt_final(&s, fin, &w)) != FASTSM2_OK) {
        cli_out_abort(&out);
        rc = encrypt_status(st, flags, cert_path);
        goto done;
    }
    if (write_all(out.fd, fin, w) != 0)
        goto io;
    rc = cli_out_commit(&out);
    goto done;
io:
    rc = cli_fail(CLI_EXIT_USAGE, "cannot write %s: %s", out_path, strerror(errno));
    cli_out_abort(&out);
done:
    fastsm2_cms_stream_clear(&s);
    if (chunk != NULL)
        cli_wipe(chunk, CHUNK);
    free(chunk);
    free(ct);
    free(prefix);
    return rc;
}

int cmd_cmsencrypt(int argc, char **argv)
{
    const char *cert_path = NULL, *in_path = NULL, *out_path = NULL, *cipher_name = NULL;
    int gm = 0, pem = 0, gmssl = 0, keyid = 0;
    const cli_option opts[] = {
        {"--cert", &cert_path, NULL},     {"--in", &in_path, NULL},  {"--out", &out_path, NULL},
        {"--cipher", &cipher_name, NULL}, {"--gm", NULL, &gm},       {"--pem", NULL, &pem},
        {"--gmssl", NULL, &gmssl},        {"--keyid", NULL, &keyid},
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, NULL);
    if (rc == CLI_EXIT_OK)
        rc = cli_require(cert_path, "--cert");
    if (rc != CLI_EXIT_OK)
        return rc;
    /* GCM (authenticated) unless GM/T 0010's or GmSSL's form, which are CBC */
    int cipher = gm || gmssl ? FASTSM2_CMS_SM4_CBC : FASTSM2_CMS_SM4_GCM;
    if (cipher_name != NULL && strcmp(cipher_name, "sm4-gcm") == 0)
        cipher = FASTSM2_CMS_SM4_GCM;
    else if (cipher_name != NULL && strcmp(cipher_name, "sm4-cbc") == 0)
        cipher = FASTSM2_CMS_SM4_CBC;
    else if (cipher_name != NULL)
        return cli_fail(CLI_EXIT_USAGE, "--cipher: sm4-cbc or sm4-gcm, not %s", cipher_name);
    if ((gm || gmssl) && cipher == FASTSM2_CMS_SM4_GCM)
        return cli_fail(CLI_EXIT_USAGE, "--gm, --gmssl: GM/T 0010 has no authenticated enveloped data (use sm4-cbc)");
    if (gmssl && keyid)
        return cli_fail(CLI_EXIT_USAGE, "--keyid: GmSSL names recipients by issuer and serial number only");
    unsigned flags = (gm ? FASTSM2_CMS_GMT0010 : 0) | (pem ? FASTSM2_CMS_PEM : 0) | (gmssl ? FASTSM2_CMS_GMSSL : 0) |
                     (keyid ? FASTSM2_CMS_KEYID : 0);
    cli_buf certs = {0};
    input in;
    if ((rc = cli_read_bundle(&certs, cert_path, "recipient certificates")) != CLI_EXIT_OK)
        return rc;
    /* streamed: a large regular file in, a regular file out, DER */
    if (!pem && !gmssl && !cli_is_std(in_path) && regular_output(out_path)) {
        struct stat st;
        int fd = open(in_path, O_RDONLY | O_CLOEXEC);
        rc = NOT_STREAMED;
        if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size >= STREAM_MIN)
            rc = encrypt_streaming(fd, (uint64_t)st.st_size, in_path, out_path, &certs, cipher, flags, cert_path);
        if (fd >= 0)
            close(fd);
        if (rc != NOT_STREAMED) {
            cli_buf_free(&certs);
            return rc;
        }
        rc = CLI_EXIT_OK;
    }
    if ((rc = input_open(&in, in_path, "content")) != CLI_EXIT_OK) {
        cli_buf_free(&certs);
        return rc;
    }
    size_t n = 0;
    unsigned char *out = NULL;
    int s = fastsm2_cms_encrypt(NULL, &n, in.p, in.len, certs.data, certs.len, cipher, flags);
    if (s == FASTSM2_OK && (out = malloc(n)) == NULL)
        s = FASTSM2_ERR_NO_MEMORY;
    if (s == FASTSM2_OK)
        s = fastsm2_cms_encrypt(out, &n, in.p, in.len, certs.data, certs.len, cipher, flags);
    if (s != FASTSM2_OK)
        rc = encrypt_status(s, flags, cert_path);
    else
        rc = cli_write_file(out_path, out, n, 0);
    free(out);
    input_close(&in);
    cli_buf_free(&certs);
    return rc;
}

/* cmsdecrypt's refusals, streamed or not. */
static int decrypt_status(int s, const char *name, const char *cert_path)
{
    switch (s) {
    case FASTSM2_ERR_RECIPIENT:
        return cli_fail(CLI_EXIT_FAIL, "%s: the key is none of the recipients' (%s)", name, fastsm2_error_name(s));
    case FASTSM2_ERR_POINT: return cli_fail(CLI_EXIT_USAGE, "the key is not the key of the certificate %s", cert_path);
    case FASTSM2_ERR_TAG:
    case FASTSM2_ERR_PADDING:
    case FASTSM2_ERR_DECRYPT:
        return cli_fail(CLI_EXIT_FAIL, "%s does not decrypt: %s (%s)", name, fastsm2_strerror(s),
                        fastsm2_error_name(s));
    case FASTSM2_ERR_DER:
    case FASTSM2_ERR_PEM:
        return cli_fail(CLI_EXIT_FAIL, "%s is not a well-formed CMS message: %s", name, fastsm2_strerror(s));
    case FASTSM2_ERR_ARG: return cli_fail(CLI_EXIT_USAGE, "%s is not enveloped data with its content inside", name);
    default: return cli_fail(CLI_EXIT_FAIL, "cannot decrypt %s: %s", name, fastsm2_strerror(s));
    }
}

/* cmsdecrypt of a large DER message (mapped) into a regular output: the
 * plaintext goes to the output's temporary file, which is put in place only
 * once final has checked the tag or the padding (and is removed
 * otherwise). NOT_STREAMED when the message's head is not read here (PEM,
 * BER, a refusal: the in-memory path then says why) or the output is not
 * a file of its own. */
static int decrypt_streaming(const input *cms, const char *name, const char *out_path, const fastsm2_privkey *key,
                             const cli_buf *cert, const char *cert_path)
{
    fastsm2_cms_stream s;
    uint64_t off, ctlen, total;
    unsigned char *pt = NULL, fin[FASTSM2_CMS_FINAL_MAX];
    cli_out out;
    int rc, st = fastsm2_cms_decrypt_init(&s, &off, &ctlen, &total, cms->p, cms->len, key,
                                          cert_path ? cert->data : NULL, cert_path ? cert->len : 0);
    if (st != FASTSM2_OK || total != cms->len) {
        fastsm2_cms_stream_clear(&s);
        return NOT_STREAMED;
    }
    if ((rc = cli_out_open(&out, out_path, 0)) != CLI_EXIT_OK)
        goto done;
    if (out.direct || (pt = malloc(CHUNK + 16)) == NULL) {
        cli_out_abort(&out);
        rc = NOT_STREAMED;
        goto done;
    }
    for (uint64_t i = 0; i < ctlen; i += CHUNK) {
        size_t step = ctlen - i < CHUNK ? (size_t)(ctlen - i) : CHUNK, w = CHUNK + 16;
        if ((st = fastsm2_cms_decrypt_update(&s, pt, &w, cms->p + off + i, step)) != FASTSM2_OK) {
            cli_out_abort(&out);
            rc = decrypt_status(st, name, cert_path);
            goto done;
        }
        if (write_all(out.fd, pt, w) != 0)
            goto io;
        /* the mapped pages read so far, let go (the mapping stays) */
        uintptr_t done = (uintptr_t)(off + i + step) & ~(uintptr_t)(CHUNK - 1);
        if (done > 0)
            (void)madvise(cms->map, (size_t)done, MADV_DONTNEED);
    }
    size_t w = sizeof fin;
    st = fastsm2_cms_decrypt_final(&s, fin, &w, cms->p + off + ctlen, (size_t)(total - off - ctlen));
    if (st != FASTSM2_OK) {
        cli_out_abort(&out); /* the unauthenticated plaintext goes with its temporary file */
        rc = decrypt_status(st, name, cert_path);
        goto done;
    }
    if (write_all(out.fd, fin, w) != 0)
        goto io;
    rc = cli_out_commit(&out);
    goto done;
io:
    rc = cli_fail(CLI_EXIT_USAGE, "cannot write %s: %s", out_path, strerror(errno));
    cli_out_abort(&out);
done:
    fastsm2_cms_stream_clear(&s);
    cli_wipe(fin, sizeof fin);
    if (pt != NULL)
        cli_wipe(pt, CHUNK + 16);
    free(pt);
    return rc;
}

int cmd_cmsdecrypt(int argc, char **argv)
{
    const char *key_path = NULL, *cert_path = NULL, *in_path = NULL, *out_path = NULL;
    const cli_option opts[] = {
        {"--key", &key_path, NULL},
        {"--cert", &cert_path, NULL},
        {"--in", &in_path, NULL},
        {"--out", &out_path, NULL},
        CLI_OPT_PASSIN,
    };
    int rc = cli_parse_options(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, NULL);
    if (rc == CLI_EXIT_OK)
        rc = cli_require(key_path, "--key");
    if (rc != CLI_EXIT_OK)
        return rc;
    const char *name = cli_is_std(in_path) ? "stdin" : in_path;
    cli_buf cert = {0};
    fastsm2_privkey key;
    input cms;
    int have_key = 0, have_in = 0;
    if (cert_path)
        rc = cli_read_cert_file(&cert, cert_path, "recipient certificate");
    if (rc == CLI_EXIT_OK && (rc = cli_load_privkey(&key, key_path)) == CLI_EXIT_OK)
        have_key = 1;
    if (rc == CLI_EXIT_OK && (rc = input_open(&cms, in_path, "CMS message")) == CLI_EXIT_OK)
        have_in = 1;
    if (rc == CLI_EXIT_OK && cms.map != NULL && cms.len >= STREAM_MIN && regular_output(out_path)) {
        rc = decrypt_streaming(&cms, name, out_path, &key, &cert, cert_path);
        if (rc != NOT_STREAMED)
            goto done;
        rc = CLI_EXIT_OK;
    }
    if (rc == CLI_EXIT_OK) {
        size_t n = cms.len;
        unsigned char *out = malloc(n ? n : 1);
        int s = out ? fastsm2_cms_decrypt(out, &n, cms.p, cms.len, &key, cert_path ? cert.data : NULL,
                                          cert_path ? cert.len : 0)
                    : FASTSM2_ERR_NO_MEMORY;
        rc = s == FASTSM2_OK ? cli_write_file(out_path, out, n, 0) : decrypt_status(s, name, cert_path);
        if (out != NULL) {
            memset(out, 0, cms.len ? cms.len : 1);
            free(out);
        }
    }
done:
    if (have_in)
        input_close(&cms);
    if (have_key)
        fastsm2_privkey_clear(&key);
    cli_buf_free(&cert);
    return rc;
}
