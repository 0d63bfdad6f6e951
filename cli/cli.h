/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fastsm2 command-line tool: shared declarations.
 *
 * Layout:
 *   main.c      command table, dispatch, help and version, error messages
 *   options.c   the one option parser every subcommand uses
 *   io.c        reading inputs whole
 *   outfile.c   writing outputs: atomically, 0600 until complete, signals
 *   keys.c      loading key files, the signer ID options
 *   cmd_keys.c  keygen, pubkey
 *   cmd_sig.c   sign, verify
 *   cmd_enc.c   encrypt, decrypt
 *   cmd_sm3.c   sm3
 *   cmd_sm4.c   sm4, seal, open
 *   cmd_speed.c speed (runs fastsm2-speed)
 *
 * Exit codes: 0 success; 1 a well-formed request whose answer is "no" (a
 * signature that does not verify, a ciphertext that does not decrypt);
 * 2 usage errors and inputs that cannot be read or parsed.
 */
#ifndef FASTSM2_CLI_H
#define FASTSM2_CLI_H

#include <stddef.h>

#include "fastsm2.h"

#if defined(__GNUC__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define CLI_NORETURN     __attribute__((noreturn))
#else
#define CLI_PRINTF(f, a)
#define CLI_NORETURN
#endif

enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_FAIL = 1, /* invalid signature, ciphertext that does not decrypt */
    CLI_EXIT_USAGE = 2 /* bad usage, unreadable or unparsable input, I/O error */
};

/* ---- main.c ------------------------------------------------------------ */

/* Print "fastsm2 <command>: <message>" as one line on stderr and return
 * code, so that callers can write `return cli_fail(CLI_EXIT_USAGE, ...)`. */
int cli_fail(int code, const char *fmt, ...) CLI_PRINTF(2, 3);

/* Print the help of the running subcommand on stdout. */
void cli_command_help(void);

/* ---- options.c --------------------------------------------------------- */

/* One option of a subcommand. Exactly one of value and flag is set: value
 * for an option that takes an argument ("--key FILE" or "--key=FILE"),
 * flag for a switch ("--raw"). Both start out NULL / 0 in the caller. */
typedef struct {
    const char *name; /* with its dashes: "--key" */
    const char **value;
    int *flag;
} cli_option;

/* Parse argv[1..argc-1] (argv[0] is the subcommand's name) against opts.
 * Operands (arguments that are not options, and everything after "--") are
 * collected into operands[0..*noperands-1] (pointers into argv; operands
 * has room for argc entries); pass operands = NULL for a subcommand that
 * takes none. "--help" / "-h" print the subcommand's help and exit 0.
 * Returns CLI_EXIT_OK or CLI_EXIT_USAGE (after a message). */
int cli_parse_options(int argc, char **argv, const cli_option *opts, size_t nopts, char **operands, int *noperands);

/* "--name is required" unless value is set. */
int cli_require(const char *value, const char *name);

/* ---- io.c -------------------------------------------------------------- */

/* A growable byte buffer. Freed with cli_buf_free(), which wipes it. */
typedef struct {
    unsigned char *data;
    size_t len;
    size_t cap;
} cli_buf;

/* True when path names standard input or output: NULL or "-". */
int cli_is_std(const char *path);

/* Read a whole file (path NULL or "-" = stdin; stdin may be read once per
 * run). Returns CLI_EXIT_OK, or CLI_EXIT_USAGE after a message naming path. */
int cli_read_file(cli_buf *buf, const char *path);
/* The same, reading no more than max bytes (0: no limit): a larger input
 * (/dev/zero as a key) is refused as soon as it passes max, with a message
 * naming `what` ("SM2 key file"). */
int cli_read_file_max(cli_buf *buf, const char *path, size_t max, const char *what);
/* Take stdin for `what` (a message's words): CLI_EXIT_USAGE after a message
 * when an earlier input (a key, a password) already took it. */
int cli_claim_stdin(const char *what);
/* True when fd reads what fd 0 reads, whatever name opened it: fd 0
 * itself, or the same file by device and inode (/dev/stdin, /dev/fd/0,
 * /proc/self/fd/0, a link to one, a descriptor duplicated from it, the file
 * the shell redirected to stdin). Not /dev/null and other character devices
 * that are not terminals: every reader gets bytes of its own. */
int cli_fd_is_stdin(int fd);
/* Every input opened by name (name: the name, for the message) goes
 * through this before anything is read from it: when cli_fd_is_stdin(fd),
 * it claims stdin for `what` as cli_claim_stdin does. */
int cli_claim_input(int fd, const char *name, const char *what);
/* Limits on what the parsers read: a key file (PEM with its text around
 * it), a certificate (as fastsm2_pubkey_parse_certificate's), a signature
 * file (DER, raw or hex). */
#define CLI_KEYFILE_MAX 65536
#define CLI_CERT_MAX    262144
#define CLI_SIGFILE_MAX 4096
void cli_buf_free(cli_buf *buf);

/* Wipe memory in a way the compiler keeps (it may hold a key). */
void cli_wipe(void *p, size_t n);

/* ---- outfile.c --------------------------------------------------------- */

/* An output file, written so that a failure or a fatal signal never leaves
 * a partial file and nobody else can read it before it is complete:
 * cli_out_open() makes a temporary file (mode 0600, unnamed where the
 * kernel allows) in the destination's directory, open for writing in fd;
 * cli_out_commit() gives it its final mode and renames it into place.
 * Final mode: an existing file's own (never widened; a secret never more
 * than 0600); a new file 0666, a secret 0600, less the umask. Outputs that
 * are not regular files (stdout, /dev/null, a FIFO) are written at commit
 * from data/len (direct = 1, fd = -1). A target the caller may not write,
 * or a link protected-symlinks would refuse, is refused (outfile.c). */
typedef struct {
    char *path;       /* destination (symlinks resolved), NULL = stdout */
    char *tmp;        /* the temporary file's name while it has one */
    int fd;           /* the temporary file, -1 when none */
    int slot;         /* its name's slot for the signal handler, -1 none */
    unsigned mode;    /* the mode it gets at commit */
    int existed;      /* the destination existed: commit replaces it */
    int placed;       /* commit renamed it into place */
    const void *data; /* for direct outputs: written at commit */
    size_t len;
    int direct; /* stdout, an existing non-regular file, or another user's file (in place) */
} cli_out;

/* secret = 1 for a private key. */
int cli_out_open(cli_out *out, const char *path, int secret);
/* open, then write data (direct outputs: kept for commit). */
int cli_out_stage(cli_out *out, const char *path, const void *data, size_t len, int secret);
int cli_out_commit(cli_out *out);
/* Commit several outputs: all or, as far as it can be undone, none. Direct
 * ones are written first; a file put in place as new is removed if a later
 * one fails. */
int cli_out_commit_all(cli_out *outs, size_t n);
void cli_out_abort(cli_out *out);

/* stage + commit in one call. */
int cli_write_file(const char *path, const void *data, size_t len, int secret);

/* True when two output paths name the same file (after symbolic links; an
 * existing file by device and inode, a new one by directory and name). */
int cli_same_output(const char *a, const char *b);

/* ---- keys.c ------------------------------------------------------------ */

/* Options every subcommand that reads or writes keys shares (their values
 * for the running command): --passin SOURCE, --passout SOURCE, --pbe
 * SCHEME, --iter N, --cert FILE. Put the macros in an option table. */
extern const char *cli_passin, *cli_passout, *cli_pbe, *cli_iter, *cli_cert, *cli_max_iter;
/* --passin SOURCE and --max-iter N (the most PBKDF2 iterations an
 * encrypted key file may ask for; default FASTSM2_PBE_MAX_ITERATIONS). */
#define CLI_OPT_PASSIN                    \
    {"--passin", &cli_passin, NULL},      \
    {                                     \
        "--max-iter", &cli_max_iter, NULL \
    }
#define CLI_OPTS_PASSOUT                                          \
    {"--passout", &cli_passout, NULL}, {"--pbe", &cli_pbe, NULL}, \
    {                                                             \
        "--iter", &cli_iter, NULL                                 \
    }
#define CLI_OPT_CERT              \
    {                             \
        "--cert", &cli_cert, NULL \
    }

/* Load a private key file (PKCS#8 or SEC1, PEM or DER, plain or
 * encrypted: the password from --passin, or asked on the terminal). A file
 * that is no SM2 private key gets a message saying what it is. */
int cli_load_privkey(fastsm2_privkey *key, const char *path);

/* Load a public key file (SPKI PEM/DER or a bare SEC1 point); a plain
 * private key file is accepted too, and its public key used. */
int cli_load_pubkey(fastsm2_pubkey *pub, const char *path);
/* The public key of an X.509 certificate (its signature is not checked). */
int cli_load_cert(fastsm2_pubkey *pub, const char *path);
/* The public key of --pub PUB or --cert FILE: exactly one of them. */
int cli_load_pub_arg(fastsm2_pubkey *pub, const char *pub_path);

/* A private key file in fmt (FASTSM2_KEYFMT_*), encrypted when --passout
 * was given (scheme --pbe, default sm3-sm4: GmSSL's; count --iter). */
int cli_serialize_privkey(unsigned char *out, size_t *outlen, const fastsm2_privkey *key, int fmt);

/* ---- hex.c ------------------------------------------------------------- */

/* out = len bytes as lower-case hex and "\n" (freed with cli_buf_free). */
int cli_hex_encode(cli_buf *out, const unsigned char *data, size_t len);
/* Decode hex text in buf in place (whitespace ignored); what names the
 * input in the message. */
int cli_hex_decode(cli_buf *buf, const char *what);
/* --digest input: e as 32 bytes or 64 hex digits, decoded in place. */
int cli_read_digest(cli_buf *buf);
/* cli_write_file of data, or of its hex text when hex is set. */
int cli_write_maybe_hex(const char *path, const unsigned char *data, size_t len, int hex);

/* ---- pass.c ------------------------------------------------------------ */

/* A password from spec (pass:, env:, file:, fd:, stdin) or, spec NULL, from
 * a prompt on the terminal naming `what` (twice when confirm). pw is wiped
 * by cli_buf_free. */
int cli_password(cli_buf *pw, const char *spec, const char *what, int confirm);
/* The same into buf (at most cap bytes; *len its length), with no copy of
 * its own: a pass: argument is wiped from the command line once copied.
 * On failure buf is wiped and *len = 0. */
int cli_password_into(unsigned char *buf, size_t cap, size_t *len, const char *spec, const char *what, int confirm);

/* From now on the process holds a secret (a private key, a password): no
 * core file, no ptrace by others of the same user, as ssh-agent does
 * (PR_SET_DUMPABLE 0, for the rest of the run). */
void cli_secrets_held(void);

/* The signer ID from --id STRING or --id-hex HEX (at most one). ptr = NULL
 * and len = 0 mean "the default ID". */
typedef struct {
    const void *ptr;
    size_t len;
    unsigned char *owned;
} cli_id;

int cli_id_parse(cli_id *id, const char *id_str, const char *id_hex);
void cli_id_free(cli_id *id);

/* ---- subcommands: int cmd_X(int argc, char **argv), argv[0] = "X" -------- */

int cmd_keygen(int argc, char **argv);
int cmd_pubkey(int argc, char **argv);
int cmd_sign(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_encrypt(int argc, char **argv);
int cmd_decrypt(int argc, char **argv);
int cmd_sm3(int argc, char **argv);
int cmd_key(int argc, char **argv);
/* cmd_sm4.c: SM4 files, and the SM2 + SM4 envelope */
int cmd_sm4(int argc, char **argv);
int cmd_seal(int argc, char **argv);
int cmd_open(int argc, char **argv);

/* cmd_key.c: the public key as text (x, y, SEC1 forms, Z_A). */
int cli_pubkey_text(const char *out_path, const fastsm2_pubkey *pub);
int cmd_speed(int argc, char **argv);

#endif /* FASTSM2_CLI_H */
