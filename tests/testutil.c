/* SPDX-License-Identifier: Apache-2.0 */
#include "testutil.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "protocol/protocol.h"

/* FS2T_NO_OPENSSL: the parts that need no OpenSSL (the SM4 tests built
 * for WebAssembly, js/test/wasm-ctests.sh) */
#ifndef FS2T_NO_OPENSSL
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>
#endif

unsigned long fs2t_passed, fs2t_failed;

int fs2t_finish(const char *name)
{
    printf("%s: %lu passed, %lu failed\n", name, fs2t_passed, fs2t_failed);
    return fs2t_failed == 0 && fs2t_passed > 0 ? 0 : 1;
}

int fs2t_skip(const char *name, const char *why)
{
    printf("%s: %s, skipped\n", name, why);
    return FS2T_SKIP;
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

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

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

/* The nth value of key in [section] of the vectors file at path (an empty
 * value is ""), or NULL. */
static const char *vector_in(const char *path, const char *section, const char *key, int nth)
{
    static char value[1024];
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
        char k[64], v[1024] = "";
        if (sscanf(s, "%63s = %1023[^\n]", k, v) >= 1 && !strcmp(k, key)) {
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
    return NULL;
}

const char *fs2t_vector(const char *section, const char *key, int nth)
{
    const char *v = vector_in(FS2T_VECTORS_FILE, section, key, nth);
    if (v == NULL) {
        fprintf(stderr, "vector [%s] %s #%d not found\n", section, key, nth);
        exit(2);
    }
    return v;
}

const char *fs2t_vector_file(const char *file, const char *section, const char *key)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/vectors/%s", FS2T_SOURCE_DIR, file);
    return vector_in(path, section, key, 0);
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

/* ---- the curve, byte helpers ------------------------------------------------ */

const unsigned char fs2t_n[32] = {0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                  0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x72, 0x03, 0xDF, 0x6B, 0x21, 0xC6,
                                  0x05, 0x2B, 0x53, 0xBB, 0xF4, 0x09, 0x39, 0xD5, 0x41, 0x23};
/* p = FFFFFFFE FFFFFFFF FFFFFFFF FFFFFFFF FFFFFFFF 00000000 FFFFFFFF FFFFFFFF */
const unsigned char fs2t_p[32] = {0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                  0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00,
                                  0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
const unsigned char fs2t_gx[32] = {0x32, 0xC4, 0xAE, 0x2C, 0x1F, 0x19, 0x81, 0x19, 0x5F, 0x99, 0x04,
                                   0x46, 0x6A, 0x39, 0xC9, 0x94, 0x8F, 0xE3, 0x0B, 0xBF, 0xF2, 0x66,
                                   0x0B, 0xE1, 0x71, 0x5A, 0x45, 0x89, 0x33, 0x4C, 0x74, 0xC7};
const unsigned char fs2t_gy[32] = {0xBC, 0x37, 0x36, 0xA2, 0xF4, 0xF6, 0x77, 0x9C, 0x59, 0xBD, 0xCE,
                                   0xE3, 0x6B, 0x69, 0x21, 0x53, 0xD0, 0xA9, 0x87, 0x7C, 0xC6, 0x2A,
                                   0x47, 0x40, 0x02, 0xDF, 0x32, 0xE5, 0x21, 0x39, 0xF0, 0xA0};

void fs2t_sec1_g(unsigned char out[65])
{
    out[0] = 0x04;
    memcpy(out + 1, fs2t_gx, 32);
    memcpy(out + 33, fs2t_gy, 32);
}

#ifndef FS2T_NO_OPENSSL
void fs2t_x_off_curve(unsigned char x[32])
{
    EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_sm2);
    EC_POINT *pt = EC_POINT_new(g);
    BIGNUM *bx = BN_new();
    BN_CTX *c = BN_CTX_new();
    for (unsigned v = 1;; v++) {
        BN_set_word(bx, v);
        if (!EC_POINT_set_compressed_coordinates(g, pt, bx, 0, c))
            break;
    }
    BN_bn2binpad(bx, x, 32);
    BN_CTX_free(c);
    BN_free(bx);
    EC_POINT_free(pt);
    EC_GROUP_free(g);
}
#endif

int fs2t_all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    unsigned char acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= b[i];
    return acc == 0;
}

void fs2t_be_add(unsigned char a[32], unsigned v)
{
    for (int i = 31; i >= 0 && v; i--) {
        v += a[i];
        a[i] = (unsigned char)v;
        v >>= 8;
    }
}

void fs2t_be_rsub(unsigned char a[32], const unsigned char b[32])
{
    int borrow = 0;
    for (int i = 31; i >= 0; i--) {
        int t = b[i] - a[i] - borrow;
        borrow = t < 0;
        a[i] = (unsigned char)(t + (borrow ? 256 : 0));
    }
}

unsigned long fs2t_verify_non_boolean;

int fs2t_vb(int v)
{
    if (v != 0 && v != 1) {
        fs2t_verify_non_boolean++;
        fprintf(stderr, "fastsm2_verify returned %d (neither 1 nor 0)\n", v);
    }
    return v;
}

/* ---- random inputs ------------------------------------------------------------ */

void fs2t_keypair(fastsm2_privkey *key, fastsm2_pubkey *pub)
{
    CHECK_STATUS(fastsm2_privkey_generate(key), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(pub, key), FASTSM2_OK);
}

unsigned char *fs2t_rand_input(size_t maxlen, int first, size_t *len)
{
    *len = maxlen ? (size_t)(fs2t_rand_u64() % maxlen) : 0;
    unsigned char *h = malloc(*len ? *len : 1);
    if (!h) {
        fprintf(stderr, "fs2t_rand_input: out of memory\n");
        exit(2);
    }
    fs2t_rand_bytes(h, *len);
    if (*len && first >= 0)
        h[0] = (unsigned char)first;
    return h;
}

void fs2t_count(unsigned long *passed, int ok, const char *fmt, ...)
{
    *passed += ok != 0;
    if (!ok && fs2t_failed < 10) {
        va_list ap;
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
}

unsigned long fs2t_tally_finish(const struct fs2t_tally *t, const char *name, unsigned long iters,
                                unsigned long sigs_per_key)
{
    CHECK(t->key_ok == iters);
    CHECK(t->sig_ok == t->sigs && t->sigs == sigs_per_key * iters);
    CHECK(t->sig_bad_rejected == t->sigs);
    CHECK(t->ct_ok == t->cts && t->cts == iters);
    printf("%s: %lu/%lu keys, %lu/%lu signatures, %lu wrong-ID rejections, %lu/%lu ciphertexts\n", name, t->key_ok,
           iters, t->sig_ok, t->sigs, t->sig_bad_rejected, t->ct_ok, t->cts);
    return t->sigs + t->cts;
}

size_t fs2t_rand_below(size_t n)
{
    return (size_t)(fs2t_rand_u64() % n);
}

size_t fs2t_rand_id(unsigned char id[40])
{
    size_t len = 1 + fs2t_rand_below(40);
    fs2t_rand_bytes(id, len);
    id[0] = (unsigned char)('a' + fs2t_rand_below(26));
    return len;
}

size_t fs2t_rand_len_bytes(unsigned char *buf, size_t min, size_t max)
{
    size_t len = min + fs2t_rand_below(max - min + 1);
    fs2t_rand_bytes(buf, len);
    return len;
}

const unsigned char *fs2t_sig_id(int kind, unsigned char id[40], size_t *len)
{
    *len = kind == 0 ? FASTSM2_DEFAULT_ID_LEN : kind == 1 ? fs2t_rand_id(id) : 0;
    return kind == 0 ? (const unsigned char *)FASTSM2_DEFAULT_ID : kind == 1 ? id : NULL;
}

size_t fs2t_wrong_id(unsigned char wid[40], const unsigned char *sid, size_t sidlen, int first)
{
    if (sidlen == 0) {
        wid[0] = 'x';
        return 1;
    }
    memcpy(wid, sid, sidlen);
    if (first)
        wid[0] ^= 0x01;
    else
        wid[sidlen - 1] ^= 0x20;
    return sidlen;
}

void fs2t_rand_int256(unsigned char a[32])
{
    fs2t_rand_bytes(a, 32);
    unsigned r = (unsigned)fs2t_rand_u64();
    size_t z = (r & 3) == 0 ? (r >> 2) % 33 : 0;
    memset(a, 0, z);
    if (z < 32 && (r & 0x100))
        a[z] |= 0x80;
}

void fs2t_mutate(unsigned char *b, size_t *len, size_t cap)
{
    int nmut = 1 + (int)(fs2t_rand_u64() % 3);
    for (int m = 0; m < nmut; m++) {
        uint64_t r = fs2t_rand_u64();
        size_t pos = *len ? (size_t)(r >> 8) % *len : 0;
        switch (r % 6) {
        case 0: /* flip a bit */
            if (*len)
                b[pos] ^= (unsigned char)(1u << ((r >> 40) & 7));
            break;
        case 1: /* set a byte */
            if (*len)
                b[pos] = (unsigned char)(r >> 48);
            break;
        case 2: /* truncate */ *len = pos; break;
        case 3: /* insert a byte */
            if (*len < cap) {
                memmove(b + pos + 1, b + pos, *len - pos);
                b[pos] = (unsigned char)(r >> 48);
                (*len)++;
            }
            break;
        case 4: /* delete a byte */
            if (*len) {
                memmove(b + pos, b + pos + 1, *len - pos - 1);
                (*len)--;
            }
            break;
        default: /* a length-ish byte */
            if (*len)
                b[pos] = (unsigned char)(0x7E + ((r >> 48) % 8));
            break;
        }
    }
}

size_t fs2t_rand_piece(size_t left, size_t min, size_t max)
{
    size_t n = min + fs2t_rand_below(max - min + 1);
    return n < left ? n : left;
}

/* The next piece of a stream at `at` of len. */
static size_t next_piece(size_t piece, uint64_t at, uint64_t len)
{
    uint64_t left = len - at;
    if (piece == 0)
        return fs2t_rand_piece(left < 700 ? (size_t)left : 700, 1, 700);
    return piece < left ? piece : (size_t)left;
}

size_t fs2t_stream_encrypt(unsigned char *ct, size_t cap, const fastsm2_pubkey *pub, const unsigned char *msg,
                           size_t len, int flags, const unsigned char *k, size_t piece)
{
    fastsm2_encrypt_stream s;
    size_t prelen = cap < FASTSM2_CT_PREFIX_MAX ? cap : FASTSM2_CT_PREFIX_MAX;
    uint64_t c3off;
    unsigned char c3[32];
    int st = k ? fs2_encrypt_stream_init_nonce(&s, ct, &prelen, &c3off, pub, len, flags, k)
               : fastsm2_encrypt_stream_init(&s, ct, &prelen, &c3off, pub, len, flags);
    if (st != FASTSM2_OK)
        return 0;
    /* C3 goes wholly into the prefix, or right after C2 */
    size_t total = prelen + len + (c3off >= prelen ? 32 : 0);
    if (total > cap || (c3off < prelen ? c3off + 32 > prelen : c3off != prelen + len))
        return 0;
    for (size_t at = 0, n; at < len; at += n) {
        n = next_piece(piece, at, len);
        if (fastsm2_encrypt_stream_update(&s, ct + prelen + at, msg + at, n) != FASTSM2_OK)
            return 0;
    }
    if (fastsm2_encrypt_stream_final(&s, c3) != FASTSM2_OK)
        return 0;
    memcpy(ct + c3off, c3, 32);
    return total;
}

int fs2t_stream_decrypt(unsigned char *out, size_t *outlen, const fastsm2_privkey *key, const unsigned char *ct,
                        size_t ctlen, int flags, size_t piece)
{
    fastsm2_decrypt_stream s;
    uint64_t c2off, c2len, c3off;
    size_t pre = ctlen < FASTSM2_CT_PREFIX_MAX ? ctlen : FASTSM2_CT_PREFIX_MAX;
    int st = fastsm2_decrypt_stream_init(&s, &c2off, &c2len, &c3off, key, ct, pre, ctlen, flags);
    for (uint64_t at = 0, n; st == FASTSM2_OK && at < c2len; at += n) {
        n = next_piece(piece, at, c2len);
        st = fastsm2_decrypt_stream_update(&s, out + at, ct + c2off + at, (size_t)n);
    }
    if (st != FASTSM2_OK)
        return st;
    *outlen = (size_t)c2len;
    return fastsm2_decrypt_stream_final(&s, ct + c3off);
}
