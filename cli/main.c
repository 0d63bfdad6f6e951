/* SPDX-License-Identifier: Apache-2.0 */
/* fastsm2: command table, dispatch, help, version and error messages. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage; /* the options, after "fastsm2 <name>" */
    const char *help;  /* what it does, indented lines */
} cli_command;

static const cli_command commands[] = {
    {"keygen", cmd_keygen, "[--out KEY] [--pubout PUB] [--der]",
     "  Generate a key pair. The private key is written as PKCS#8 (PEM, or DER\n"
     "  with --der) to KEY or stdout, mode 0600; with --pubout the public key is\n"
     "  written as SPKI to PUB.\n"},
    {"pubkey", cmd_pubkey, "--key KEY [--out PUB] [--der]",
     "  Write the public key of a private key as SPKI (PEM, or DER with --der).\n"},
    {"sign", cmd_sign, "--key KEY [--id ID | --id-hex HEX] [--in FILE] [--out SIG] [--raw]",
     "  Sign FILE (GB/T 32918.2, e = SM3(Z_A || message)). The signature is DER\n"
     "  (SEQUENCE { r, s }), or 64 bytes r || s with --raw.\n"},
    {"verify", cmd_verify,
     "--pub PUB [--id ID | --id-hex HEX] [--in FILE] --sig SIG [--raw] [--quiet]",
     "  Verify a signature on FILE. Prints \"Verified OK\" (unless --quiet) and\n"
     "  exits 0 if it is valid; exits 1 if it is not, including a signature file\n"
     "  that is not a well-formed signature (bad DER, wrong raw length, r or s out\n"
     "  of range); exits 2 if PUB, FILE or SIG cannot be read or PUB cannot be\n"
     "  parsed. PUB may also be a private key file.\n"},
    {"encrypt", cmd_encrypt, "--pub PUB [--in FILE] [--out CT] [--raw [--c1c2c3]]",
     "  Encrypt FILE (GB/T 32918.4). The ciphertext is GM/T 0009 DER by default;\n"
     "  --raw gives 04||x1||y1||C3||C2, and --raw --c1c2c3 the old C1||C2||C3\n"
     "  order (--c1c2c3 without --raw is a usage error: DER has one order).\n"},
    {"decrypt", cmd_decrypt, "--key KEY [--in CT] [--out FILE] [--raw [--c1c2c3]]",
     "  Decrypt CT. Exits 1, and writes nothing, when the ciphertext does not\n"
     "  decrypt: C3 does not match, C1 is not on the curve, or it is truncated\n"
     "  or malformed. The flags must match those used to encrypt.\n"},
    {"sm3", cmd_sm3, "[FILE...]",
     "  Print the SM3 digest of each FILE as sha256sum does: \"<hex>  <name>\".\n"
     "  No FILE, or \"-\", reads stdin. Exits 2 if a file cannot be read.\n"},
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
    printf("  %-8s %s\n", "version", "[--backends] the version and the arithmetic backend in use (or\n"
           "                        the backends FASTSM2_CPU can force on this CPU)");
    printf("\n"
           "KEY is a private key: PKCS#8 or SEC1, PEM or DER. PUB is a public key:\n"
           "SPKI PEM or DER, or a SEC1 point. FILE, CT and SIG default to stdin and\n"
           "outputs to stdout; \"-\" names them too. Outputs are written whole or not\n"
           "at all. The signer ID defaults to " FASTSM2_DEFAULT_ID "; --id takes the bytes\n"
           "of its argument, --id-hex hex digits (1 to 8191 bytes).\n"
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
