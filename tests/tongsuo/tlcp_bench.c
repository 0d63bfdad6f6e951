/* SPDX-License-Identifier: Apache-2.0 */
/*
 * TLCP (GB/T 38636) handshakes in a loop against a Tongsuo s_server
 * -enable_ntls: N full handshakes (no session reuse), each a new TCP
 * connection, one byte sent; prints the rate and this
 * process's CPU time per handshake. Built against Tongsuo by
 * tests/harness/test-tongsuo.sh (bench). With TLCP_BENCH_PROVIDER_DIR set,
 * the client runs its SM2 in fastsm2prov too.
 *
 *   tlcp_bench HOST PORT CIPHER N CA SIGN_CERT SIGN_KEY ENC_CERT ENC_KEY
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static int die(const char *what)
{
    fprintf(stderr, "tlcp_bench: %s\n", what);
    ERR_print_errors_fp(stderr);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 10) {
        fprintf(stderr, "usage: tlcp_bench HOST PORT CIPHER N CA SIGN_CERT SIGN_KEY ENC_CERT ENC_KEY\n");
        return 2;
    }
    const char *dir = getenv("TLCP_BENCH_PROVIDER_DIR");
    if (dir != NULL) {
        OSSL_PROVIDER_set_default_search_path(NULL, dir);
        if (OSSL_PROVIDER_load(NULL, "fastsm2prov") == NULL || OSSL_PROVIDER_load(NULL, "default") == NULL ||
            !EVP_set_default_properties(NULL, "?provider=fastsm2prov"))
            return die("cannot load fastsm2prov");
    }
    SSL_CTX *ctx = SSL_CTX_new(NTLS_client_method());
    if (ctx == NULL)
        return die("SSL_CTX_new");
    SSL_CTX_enable_ntls(ctx);
    SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    if (!SSL_CTX_set_cipher_list(ctx, argv[3]) || !SSL_CTX_load_verify_locations(ctx, argv[5], NULL) ||
        !SSL_CTX_use_sign_certificate_file(ctx, argv[6], SSL_FILETYPE_PEM) ||
        !SSL_CTX_use_sign_PrivateKey_file(ctx, argv[7], SSL_FILETYPE_PEM) ||
        !SSL_CTX_use_enc_certificate_file(ctx, argv[8], SSL_FILETYPE_PEM) ||
        !SSL_CTX_use_enc_PrivateKey_file(ctx, argv[9], SSL_FILETYPE_PEM))
        return die("the client's configuration");
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((unsigned short)atoi(argv[2]));
    if (inet_pton(AF_INET, argv[1], &sa.sin_addr) != 1)
        return die("HOST is an IPv4 address");
    long n = atol(argv[4]);
    double t0 = now(), c0 = cpu();
    for (long i = 0; i < n; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
            return die("connect");
        SSL *s = SSL_new(ctx);
        SSL_set_fd(s, fd);
        char b = 'x';
        if (SSL_connect(s) != 1)
            return die("handshake");
        if (SSL_write(s, &b, 1) != 1)
            return die("write");
        SSL_shutdown(s);
        SSL_free(s);
        close(fd);
    }
    double t = now() - t0, c = cpu() - c0;
    printf("%.1f handshakes/s (%ld in %.2f s), client CPU %.3f ms/handshake\n", n / t, n, t, 1000 * c / n);
    SSL_CTX_free(ctx);
    return 0;
}
