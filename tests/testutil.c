/* SPDX-License-Identifier: Apache-2.0 */
#include "testutil.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

unsigned long fs2t_passed, fs2t_failed;

int fs2t_finish(const char *name)
{
    printf("%s: %lu passed, %lu failed\n", name, fs2t_passed, fs2t_failed);
    return fs2t_failed == 0 && fs2t_passed > 0 ? 0 : 1;
}

int fs2t_skip(const char *name, const char *why)
{
    printf("%s: %s, skipped\n", name, why);
    return 0;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

size_t fs2t_unhex(unsigned char *out, size_t cap, const char *hex)
{
    size_t n = strlen(hex);
    if (n % 2 || n / 2 > cap) {
        fprintf(stderr, "fs2t_unhex: bad hex string (%zu chars)\n", n);
        exit(2);
    }
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            fprintf(stderr, "fs2t_unhex: bad hex digit\n");
            exit(2);
        }
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return n / 2;
}

void fs2t_hex(char *out, const unsigned char *in, size_t len)
{
    static const char d[] = "0123456789ABCDEF";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = d[in[i] >> 4];
        out[2 * i + 1] = d[in[i] & 15];
    }
    out[2 * len] = 0;
}

static uint64_t rng_s[4];
static int rng_init;

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t fs2t_rand_u64(void)
{
    if (!rng_init) {
        const char *e = getenv("FS2T_SEED");
        uint64_t seed = e ? strtoull(e, NULL, 0) : 0x5eed5eed12345678ULL;
        fprintf(stderr, "test seed: FS2T_SEED=0x%llx\n", (unsigned long long)seed);
        for (int i = 0; i < 4; i++) { /* splitmix64 */
            seed += 0x9e3779b97f4a7c15ULL;
            uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            rng_s[i] = z ^ (z >> 31);
        }
        rng_init = 1;
    }
    uint64_t r = rotl(rng_s[1] * 5, 7) * 9, t = rng_s[1] << 17;
    rng_s[2] ^= rng_s[0];
    rng_s[3] ^= rng_s[1];
    rng_s[1] ^= rng_s[2];
    rng_s[0] ^= rng_s[3];
    rng_s[2] ^= t;
    rng_s[3] = rotl(rng_s[3], 45);
    return r;
}

void fs2t_rand_bytes(void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n) {
        uint64_t v = fs2t_rand_u64();
        size_t k = n < 8 ? n : 8;
        memcpy(p, &v, k);
        p += k;
        n -= k;
    }
}

const char *fs2t_vector(const char *section, const char *key, int nth)
{
    static char value[1024];
    const char *path = FS2T_VECTORS_FILE;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open test vectors %s\n", path);
        exit(2);
    }
    char line[2048], cur[64] = "";
    int seen = 0;
    while (fgets(line, sizeof line, f)) {
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '#' || !*s)
            continue;
        if (*s == '[') {
            sscanf(s, "[%63[^]]]", cur);
            continue;
        }
        if (strcmp(cur, section))
            continue;
        char k[64], v[1024];
        if (sscanf(s, "%63s = %1023[^\n]", k, v) == 2 && !strcmp(k, key)) {
            if (seen++ == nth) {
                fclose(f);
                size_t n = strlen(v);
                while (n && isspace((unsigned char)v[n - 1]))
                    v[--n] = 0;
                strcpy(value, v);
                return value;
            }
        }
    }
    fclose(f);
    fprintf(stderr, "vector [%s] %s #%d not found\n", section, key, nth);
    exit(2);
}

unsigned char *fs2t_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (n == cap)
            buf = realloc(buf, cap *= 2);
        size_t k = fread(buf + n, 1, cap - n, f);
        if (!k)
            break;
        n += k;
    }
    fclose(f);
    *len = n;
    return buf;
}

int fs2t_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    int ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}
