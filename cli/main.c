/* SPDX-License-Identifier: Apache-2.0 */
/* fastsm2: command table, dispatch, help, version and error messages. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "pki.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage; /* the options, after "fastsm2 <name>" */
    const char *help;  /* what it does, indented lines */
} cli_command;

static const cli_command commands[] = {
    {"keygen", cmd_keygen, "[--out KEY] [--pubout PUB] [--der] [--passout SRC [--pbe S] [--iter N]]",
     "  Generate a key pair. The private key is written as PKCS#8 (PEM, or DER\n"
     "  with --der) to KEY or stdout, mode 0600; with --pubout the public key is\n"
     "  written as SPKI to PUB. With --passout the private key is encrypted\n"
     "  (see PASSWORDS below).\n"},
    {"pubkey", cmd_pubkey, "(--key KEY | --pub PUB | --cert CERT) [--out PUB] [--der | --text]",
     "  Write the public key of a private key (or of a public key file or a\n"
     "  certificate) as SPKI (PEM, or DER with --der), or as text with --text:\n"
     "  x, y, the SEC1 encodings and Z_A for the default ID.\n"},
    {"key", cmd_key, "--key KEY [--out OUT] [--der] [--sec1] [--passout SRC [--pbe S] [--iter N]]",
     "  Read a private key of any form fastsm2 reads (plain or encrypted) and\n"
     "  write it again: PKCS#8 (or SEC1 with --sec1), PEM (or DER with --der),\n"
     "  encrypted with --passout. E.g. turn a gmssl key into one for OpenSSL:\n"
     "  fastsm2 key --key gm.pem --passin pass:X --passout pass:X --pbe sha256-aes256\n"},
    {"sign", cmd_sign, "--key KEY [--id ID | --id-hex HEX] [--in FILE] [--out SIG] [--raw] [--hex] [--digest]",
     "  Sign FILE (GB/T 32918.2, e = SM3(Z_A || message)). The signature is DER\n"
     "  (SEQUENCE { r, s }), or 64 bytes r || s with --raw; as hex text with\n"
     "  --hex. With --digest FILE holds e itself (32 bytes or 64 hex digits,\n"
     "  as 'fastsm2 sm3 --pub PUB' prints it).\n"},
    {"verify", cmd_verify,
     "(--pub PUB | --cert CERT) [--id ID | --id-hex HEX] [--in FILE] --sig SIG [--raw] [--hex] [--digest] [--quiet]",
     "  Verify a signature on FILE. Prints \"Verified OK\" (unless --quiet) and\n"
     "  exits 0 if it is valid; exits 1 if it is not, including a signature file\n"
     "  that is not a well-formed signature (bad DER, wrong raw length, r or s out\n"
     "  of range); exits 2 if PUB, FILE or SIG cannot be read or PUB cannot be\n"
     "  parsed. PUB may also be a private key file.\n"},
    {"encrypt", cmd_encrypt, "(--pub PUB | --cert CERT) [--in FILE] [--out CT] [--raw [--c1c2c3]] [--hex]",
     "  Encrypt FILE (GB/T 32918.4). The ciphertext is GM/T 0009 DER by default;\n"
     "  --raw gives 04||x1||y1||C3||C2, and --raw --c1c2c3 the old C1||C2||C3\n"
     "  order (--c1c2c3 without --raw is a usage error: DER has one order);\n"
     "  --hex writes it as hex text.\n"},
    {"decrypt", cmd_decrypt, "--key KEY [--in CT] [--out FILE] [--raw [--c1c2c3]] [--hex]",
     "  Decrypt CT. Exits 1, and writes nothing, when the ciphertext does not\n"
     "  decrypt: C3 does not match, C1 is not on the curve, or it is truncated\n"
     "  or malformed. The flags must match those used to encrypt; --hex reads\n"
     "  CT as hex text (exit 2 if it is not hex).\n"},
    {"sm3", cmd_sm3,
     "[--tag] [--hmac KEY | --hmac-hex HEX | (--pub PUB | --cert CERT) [--id ID] [--z]] [-c|--check] [FILE...]",
     "  Print the SM3 digest of each FILE as sha256sum does: \"<hex>  <name>\"\n"
     "  (\"SM3 (<name>) = <hex>\" with --tag). No FILE, or \"-\", reads stdin. Exits\n"
     "  2 if a file cannot be read. --hmac KEY (the bytes of KEY) or --hmac-hex\n"
     "  gives HMAC-SM3 (RFC 2104), as openssl dgst -sm3 -hmac. With --pub or\n"
     "  --cert it prints e = SM3(Z_A || FILE) of GB/T 32918.2 for that key and\n"
     "  ID, the input of sign/verify --digest; --z prints Z_A alone. -c/--check\n"
     "  reads such lines from FILE and checks them, exiting 1 on a mismatch.\n"},
    {"sm4", cmd_sm4,
     "(-e | -d) (--key FILE | --key-hex HEX) [--mode M] [--iv HEX] [--nopad] [--aad TEXT] [--in F] [--out F] | "
     "--genkey [--out FILE]",
     "  SM4 (GB/T 32907) encryption of a file of any size, streamed. By default an\n"
     "  authenticated SM4-GCM stream in fastsm2's format (docs/SM4.md): a fresh\n"
     "  salt and nonces every time, 64 KiB chunks each with its tag; -d writes\n"
     "  only what authenticates and exits 1, leaving no output file, for a wrong\n"
     "  key or a changed, truncated or extended file (--aad TEXT must match).\n"
     "  --mode cbc, ctr, ecb, ofb or cfb: the raw bytes of openssl enc -sm4-MODE\n"
     "  -K KEY -iv IV (PKCS#7 padding for cbc and ecb unless --nopad; --iv is\n"
     "  required, 32 hex digits, and must never repeat under one key; nothing is\n"
     "  authenticated). The key: --key FILE (16 bytes, or 32 hex digits) or\n"
     "  --key-hex HEX (exactly 32 hex digits). --genkey writes a new random key\n"
     "  (32 hex digits) to FILE or stdout, mode 0600.\n"},
    {"seal", cmd_seal, "(--pub PUB | --cert CERT) [--in FILE] [--out SEALED]",
     "  A digital envelope: a fresh SM4 key, encrypted to PUB with SM2 (GB/T\n"
     "  32918.4, GM/T 0009 DER), in front of FILE encrypted under it as the\n"
     "  SM4-GCM stream of sm4 (docs/SM4.md has the byte layout).\n"},
    {"open", cmd_open, "--key KEY [--in SEALED] [--out FILE]",
     "  Open a sealed file with the recipient's private key. Exits 1, leaving no\n"
     "  output file, when KEY is not the recipient's or the file was changed,\n"
     "  truncated or extended (stdout gets only the chunks that authenticated).\n"},
    CLI_PKI_COMMANDS,
    {"speed", cmd_speed, "[--seconds S] [--json] [...]",
     "  Run the benchmark fastsm2-speed (next to this program) with these\n"
     "  arguments.\n"},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const cli_command *current;

int cli_fail(int code, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "fastsm2%s%s: ", current ? " " : "", current ? current->name : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

static void print_command_help(FILE *f, const cli_command *c)
{
    fprintf(f, "usage: fastsm2 %s %s\n%s", c->name, c->usage, c->help);
}

void cli_command_help(void)
{
    if (current)
        print_command_help(stdout, current);
}

static void usage(void)
{
    printf("usage: fastsm2 <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        printf("  %-8s %s\n", commands[i].name, commands[i].usage);
    printf("  %-8s %s\n", "help", "[COMMAND]    this text, or the help of COMMAND");
    printf("  %-8s %s\n", "version",
           "[--backends] the version and the arithmetic backend in use (or\n"
           "                        the backends FASTSM2_CPU can force on this CPU)");
    printf("\n"
           "KEY is a private key: PKCS#8 or SEC1, PEM or DER, plain or password-\n"
           "encrypted (PKCS#8 PBES2, as gmssl and openssl write it). PUB is a public key:\n"
           "SPKI PEM or DER, or a SEC1 point. CERT is an X.509 certificate (PEM or DER)\n"
           "whose public key is used; its own signature is NOT checked. FILE, CT and SIG default to stdin and\n"
           "outputs to stdout; \"-\" names them too. Outputs are written whole or not\n"
           "at all. The signer ID defaults to " FASTSM2_DEFAULT_ID "; --id takes the bytes\n"
           "of its argument, --id-hex hex digits (0 to 8191 bytes; --id '' is the empty\n"
           "ID, which openssl 3.x uses when no distid is set).\n"
           "\n"
           "PASSWORDS: --passin SRC for an encrypted KEY (without it fastsm2 asks on\n"
           "the terminal), --passout SRC to encrypt a key written; SRC is pass:PASSWORD,\n"
           "env:VAR, file:PATH, fd:N or stdin (the first line), or prompt (--passout).\n"
           "--pbe: sm3-sm4 (default; GmSSL's PBKDF2-HMAC-SM3 + SM4-CBC, which OpenSSL 3.0\n"
           "cannot read), sha256-sm4 or sha256-aes256 (OpenSSL reads both); --iter N\n"
           "PBKDF2 iterations (default 65536). --max-iter N: the most PBKDF2 iterations\n"
           "an encrypted KEY may ask for (default 2097152, about a second of CPU).\n"
           "stdin gives one input: a key and its password cannot both come from it,\n"
           "by any name (-, stdin, /dev/stdin, /dev/fd/0, a file redirected to stdin).\n"
           "\n"
           "Exit status: 0 success; 1 a signature that does not verify or a ciphertext\n"
           "that does not decrypt, truncated and malformed ones included (a negative\n"
           "answer); 2 a usage error or an input that cannot be read or parsed (key\n"
           "files included), or an output that cannot be written.\n");
}

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        usage();
        return CLI_EXIT_OK;
    }
    const cli_command *c = find_command(argv[1]);
    if (!c || argc > 2)
        return cli_fail(CLI_EXIT_USAGE, "unknown command '%s' (try 'fastsm2 help')", argv[1]);
    print_command_help(stdout, c);
    return CLI_EXIT_OK;
}

static int flush_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        return cli_fail(CLI_EXIT_USAGE, "cannot write to stdout");
    return CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_fail(CLI_EXIT_USAGE, "no command given (try 'fastsm2 help')");
    const char *name = argv[1];
    int rc;
    if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        rc = cmd_help(argc - 1, argv + 1);
    } else if (strcmp(name, "version") == 0 || strcmp(name, "--version") == 0) {
        if (argc > 2 && strcmp(argv[2], "--backends") == 0) {
            /* One name a line: the backends FASTSM2_CPU can force here. */
            for (size_t i = 0; fastsm2_backend_available(i); i++)
                printf("%s\n", fastsm2_backend_available(i));
        } else {
            printf("fastsm2 %s (library %s)\nbackend: %s\n", FASTSM2_VERSION_STRING, fastsm2_version(),
                   fastsm2_backend_name());
            printf("sm4: %s\n", fastsm2_sm4_backend_name()); /* its own seam (docs/SM4.md) */
        }
        rc = CLI_EXIT_OK;
    } else {
        current = find_command(name);
        if (!current)
            return cli_fail(CLI_EXIT_USAGE, "unknown command '%s' (try 'fastsm2 help')", name);
        rc = current->run(argc - 1, argv + 1);
    }
    int frc = flush_stdout();
    return rc != CLI_EXIT_OK ? rc : frc;
}
