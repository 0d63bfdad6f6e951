/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The certificate and CMS commands (docs/PKI.md):
 *   cmd_x509.c  reqgen, reqsign, certgen, certverify, certparse, reqparse
 *   cmd_cms.c   cmssign, cmsverify, cmsencrypt, cmsdecrypt, cmsparse
 *   pki.c       what they share: the options that describe a certificate,
 *               times, usages, loading certificates and bundles
 * main.c takes their entries from CLI_PKI_COMMANDS.
 */
#ifndef FASTSM2_CLI_PKI_H
#define FASTSM2_CLI_PKI_H

#include <stdint.h>

#include "cli.h"

int cmd_reqgen(int argc, char **argv);
int cmd_reqsign(int argc, char **argv);
int cmd_certgen(int argc, char **argv);
int cmd_certverify(int argc, char **argv);
int cmd_certparse(int argc, char **argv);
int cmd_reqparse(int argc, char **argv);
int cmd_cmssign(int argc, char **argv);
int cmd_cmsverify(int argc, char **argv);
int cmd_cmsencrypt(int argc, char **argv);
int cmd_cmsdecrypt(int argc, char **argv);
int cmd_cmsparse(int argc, char **argv);

/* What the options of reqgen, reqsign and certgen say of a certificate:
 * its extensions (--san, --usage, --ext-usage, --ca, --path-len). */
typedef struct {
    const char *san, *usage, *ext_usage, *path_len;
    int ca;
} cli_exts;
#define CLI_OPTS_EXTS(e)                                                                             \
    {"--san", &(e).san, NULL}, {"--usage", &(e).usage, NULL}, {"--ext-usage", &(e).ext_usage, NULL}, \
        {"--ca", NULL, &(e).ca},                                                                     \
    {                                                                                                \
        "--path-len", &(e).path_len, NULL                                                            \
    }
/* Set them on b. */
int cli_exts_apply(fastsm2_x509_builder *b, const cli_exts *e);

/* --usage LIST: keyUsage names, or sign / enc / ca; --ext-usage LIST. */
int cli_parse_usage(unsigned *ku, const char *list);
int cli_parse_ext_usage(unsigned *eku, const char *list);

/* A time: "YYYYMMDDHHMMSSZ", "YYYY-MM-DD", "YYYY-MM-DD HH:MM:SS" or
 * "YYYY-MM-DDTHH:MM:SSZ" (UTC), or "@SECONDS" since 1970. */
int cli_parse_time(int64_t *t, const char *s, const char *what);
/* --days N / --not-before T / --not-after T on b (none given: the
 * library's default of 365 days from now). */
int cli_validity_apply(fastsm2_x509_builder *b, const char *days, const char *not_before, const char *not_after);

/* A certificate or request file read whole (PEM or DER, at most
 * CLI_CERT_MAX bytes), named `what` in messages. */
int cli_read_cert_file(cli_buf *buf, const char *path, const char *what);
/* A bundle file (PEM or DER certificates, any number). */
int cli_read_bundle(cli_buf *buf, const char *path, const char *what);
/* Write DER as PEM (label) or DER to path. */
int cli_write_der(const char *path, const unsigned char *der, size_t len, int pem, const char *label);
/* The subject of a certificate or request, for messages ("?" if none). */
void cli_subject_of(char *out, size_t cap, const unsigned char *cert, size_t len);
/* Names a library status for a chain refusal, in words. */
const char *cli_chain_reason(int st);

/* Entries of main.c's command table (cli_command: name, run, usage, help). */
#define CLI_PKI_COMMANDS                                                                                        \
    {"reqgen", cmd_reqgen,                                                                                      \
     "--key KEY --subject NAME [--san LIST] [--usage LIST] [--ext-usage LIST] [--ca [--path-len N]] [--id ID] " \
     "[--out REQ] [--der]",                                                                                     \
     "  Make a certificate request (PKCS#10) for KEY's public key, signed by KEY with\n"                        \
     "  the signer ID (default 1234567812345678). NAME is /C=CN/O=Org/CN=name. The\n"                           \
     "  extensions asked for: --san DNS:a.example,IP:192.0.2.1,email:a@b,URI:x;\n"                              \
     "  --usage LIST of keyUsage names, or sign (digitalSignature,nonRepudiation:\n"                            \
     "  a TLCP signing certificate), enc (keyEncipherment,dataEncipherment,\n"                                  \
     "  keyAgreement: a TLCP encryption certificate) or ca (keyCertSign,cRLSign);\n"                            \
     "  --ext-usage serverAuth,clientAuth,codeSigning,emailProtection,timeStamping,\n"                          \
     "  OCSPSigning,any; --ca [--path-len N] for a CA.\n"},                                                     \
        {"reqsign", cmd_reqsign,                                                                                \
         "--in REQ --ca-cert CERT --ca-key KEY [--days N | --not-before T --not-after T] [--serial HEX] "       \
         "[--copy-extensions] [extension options] [--id ID] [--req-id ID] [--out CERT] [--der]",                \
         "  Issue a certificate for a request: its signature is checked (with --req-id,\n"                      \
         "  default the --id; openssl 3.x signs requests with the empty ID: --req-id ''),\n"                    \
         "  its subject and key taken, and the certificate signed by the CA's KEY. The\n"                       \
         "  request's extensions are copied only with --copy-extensions; the extension\n"                       \
         "  options of reqgen add their own. Validity: --days N (default 365) from now,\n"                      \
         "  or --not-before/--not-after T (YYYYMMDDHHMMSSZ, YYYY-MM-DD[ HH:MM:SS], @SECONDS,\n"                 \
         "  UTC). The serial is 16 random bytes unless --serial HEX.\n"},                                       \
        {"certgen", cmd_certgen,                                                                                \
         "(--key KEY | --pub PUB --ca-cert CERT --ca-key CAKEY) --subject NAME [--days N | --not-before T "     \
         "--not-after T] [--serial HEX] [extension options] [--id ID] [--out CERT] [--der]",                    \
         "  Make a certificate: self-signed by KEY, or for the public key PUB issued by\n"                      \
         "  the CA (CERT and CAKEY). Options as reqgen's and reqsign's.\n"},                                    \
        {"certverify", cmd_certverify,                                                                          \
         "--in CERT --ca-file FILE [--chain FILE] [--id ID] [--at T | --no-time-check] [--usage LIST] "         \
         "[--ext-usage LIST] [--max-depth N] [--quiet]",                                                        \
         "  Verify CERT's chain up to a certificate of FILE (trust anchors, PEM or DER,\n"                      \
         "  any number), through the intermediates of --chain and any certificates after\n"                     \
         "  the first in CERT: SM2 signatures with the signer ID, validity at --at T\n"                         \
         "  (default now), basicConstraints and path lengths, keyUsage, issuer names.\n"                        \
         "  --usage and --ext-usage name what CERT's own usages must allow. Prints\n"                           \
         "  \"CERT: OK\" and exits 0, or names the certificate and the reason and exits 1.\n"},                 \
        {"certparse", cmd_certparse, "[--in CERT] [--out FILE] [--der | --pem]",                                \
         "  Print a certificate's fields (subject, issuer, validity, extensions, SM3\n"                         \
         "  fingerprint), or write it in DER (--der) or PEM (--pem). Its signature is\n"                        \
         "  not checked (certverify does).\n"},                                                                 \
        {"reqparse", cmd_reqparse, "[--in REQ] [--id ID] [--out FILE] [--der | --pem]",                         \
         "  Print a request's fields and check its signature (exit 1 when it does not\n"                        \
         "  verify with the signer ID), or write it in DER or PEM.\n"},                                         \
        {"cmssign", cmd_cmssign,                                                                                \
         "--key KEY --cert CERT [--in FILE] [--out CMS] [--detached] [--gm] [--no-certs] [--no-attributes] "    \
         "[--pem] [--id ID] [--gmssl]",                                                                         \
         "  Sign FILE into CMS SignedData (RFC 5652; --gm: GM/T 0010's content types):\n"                       \
         "  the signer's CERT included (not with --no-certs), signed attributes with the\n"                     \
         "  content's SM3 (not with --no-attributes), the content inside unless\n"                              \
         "  --detached. A regular file is read twice and never held in memory. --gmssl\n"                       \
         "  signs as GmSSL 3's cmssign does (its digest, no signer ID), for gmssl cmsverify.\n"},               \
        {"cmsverify", cmd_cmsverify,                                                                            \
         "[--in CMS] (--ca-file FILE | --no-chain) [--content FILE] [--certs FILE] [--out FILE] [--id ID] "     \
         "[--at T] [--quiet] [--gmssl]",                                                                        \
         "  Verify CMS SignedData: every signature with the signer ID, and the signer's\n"                      \
         "  certificate up to FILE's trust anchors (--no-chain: the certificate is not\n"                       \
         "  checked). --content gives a detached content, --certs certificates the\n"                           \
         "  message lacks; --out writes the signed content. Exits 1 when it does not\n"                         \
         "  verify.\n"},                                                                                        \
        {"cmsencrypt", cmd_cmsencrypt,                                                                          \
         "--cert CERT [--in FILE] [--out CMS] [--cipher sm4-cbc|sm4-gcm] [--gm] [--pem] [--gmssl] [--keyid]",   \
         "  Encrypt FILE for the recipients of CERT (a bundle: one or more certificates)\n"                     \
         "  into RFC 5083 AuthEnvelopedData (sm4-gcm, the default) or EnvelopedData\n"                          \
         "  (sm4-cbc; --gm: GM/T 0010's type, CBC), the SM4 key encrypted with each one's SM2 key.\n"           \
         "  --gmssl writes it as GmSSL 3's cmsencrypt does, for gmssl cmsdecrypt. --keyid names\n"              \
         "  the recipients by subjectKeyIdentifier, not issuer and serial number.\n"},                          \
        {"cmsdecrypt", cmd_cmsdecrypt, "--key KEY [--cert CERT] [--in CMS] [--out FILE]",                       \
         "  Decrypt CMS enveloped data with KEY (the recipient found by CERT, or every\n"                       \
         "  recipient tried). Exits 1, and writes nothing, when it does not decrypt.\n"},                       \
    {                                                                                                           \
        "cmsparse", cmd_cmsparse, "--in CMS",                                                                   \
            "  Print what a CMS message is: its type, signers or recipients, certificates,\n"                   \
            "  content size.\n"                                                                                 \
    }

#endif
