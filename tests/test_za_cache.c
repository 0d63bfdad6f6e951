/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Z_A (GB/T 32918.2 5.5) is cached in a key, made when the key is made or
 * its ID set (src/protocol/keys.c, fs2_pubpart_set_id), never later:
 *  - a generated or loaded key, and a public key taken from it or loaded
 *    from a point, hold Z_A of the default ID at once, equal to
 *    SM3(ENTL || ID || a || b || xG || yG || xA || yA) computed here from
 *    the bytes (SM3 is checked against OpenSSL elsewhere);
 *  - a new ID (fastsm2_*_set_id) holds that ID's Z_A at once, a short one
 *    and one too long to keep alike; signing, verification and
 *    compute_z use it, and a signature's digest is the one it gives;
 *  - four threads signing with one key at once sign over the right Z_A and
 *    leave the key's bytes as they were.
 */
#include <pthread.h>
#include <string.h>

#include "protocol/protocol.h"
#include "testutil.h"

static const char *CURVE_HEX = "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFC"  /* a */
                               "28E9FA9E9D9F5E344D5A9E4BCF6509A7F39789F515AB8F92DDBCBD414D940E93"  /* b */
                               "32C4AE2C1F1981195F9904466A39C9948FE30BBFF2660BE1715A4589334C74C7"  /* xG */
                               "BC3736A2F4F6779C59BDCEE36B692153D0A9877CC62A474002DF32E52139F0A0"; /* yG */

static void want_z(unsigned char z[32], const fastsm2_pubkey *pub, const unsigned char *id, size_t idlen)
{
    static unsigned char buf[2 + 8192 + 128 + 64];
    unsigned char pt[65];
    size_t n = 0, ptlen = sizeof pt;
    buf[n++] = (unsigned char)((idlen * 8) >> 8);
    buf[n++] = (unsigned char)(idlen * 8);
    memcpy(buf + n, id, idlen);
    n += idlen;
    CHECK(fs2t_unhex(buf + n, 128, CURVE_HEX) == 128);
    n += 128;
    CHECK_STATUS(fastsm2_pubkey_to_bytes(pt, &ptlen, pub, 0), FASTSM2_OK);
    memcpy(buf + n, pt + 1, 64);
    n += 64;
    fastsm2_sm3(z, buf, n);
}

static const unsigned char *za_priv(const fastsm2_privkey *k)
{
    return fs2_priv_get(k)->pub.za;
}
static const unsigned char *za_pub(const fastsm2_pubkey *p)
{
    return fs2_pub_get(p)->pub.za;
}

/* e = SM3(z || msg) */
static void digest(unsigned char e[32], const unsigned char z[32], const unsigned char *msg, size_t len)
{
    fastsm2_sm3_ctx c;
    fastsm2_sm3_init(&c);
    fastsm2_sm3_update(&c, z, 32);
    fastsm2_sm3_update(&c, msg, len);
    fastsm2_sm3_final(e, &c);
}

enum { NTHREADS = 4 };
static fastsm2_privkey race_key;
static pthread_barrier_t race_barrier;
static unsigned char race_msg[40], race_sig[NTHREADS][64];
static int race_ret[NTHREADS];

static void *race_sign(void *arg)
{
    int i = (int)(intptr_t)arg;
    pthread_barrier_wait(&race_barrier);
    race_ret[i] = fastsm2_sign(race_sig[i], &race_key, NULL, 0, race_msg, sizeof race_msg);
    return NULL;
}

int main(void)
{
    static const unsigned char def_id[] = FASTSM2_DEFAULT_ID;
    static unsigned char long_id[FASTSM2_CACHED_ID_MAX + 1];
    const unsigned char alice[] = "ALICE123@YAHOO.COM";
    memset(long_id, 'L', sizeof long_id);

    for (int iter = 0; iter < 8; iter++) {
        fastsm2_privkey key;
        fastsm2_pubkey pub, pub2;
        unsigned char zw[32], z[32], e[32], msg[20], sig[64], pt[16], ct[200], out[16], db[32];
        size_t ctlen = sizeof ct, outlen = sizeof out;
        fs2t_rand_bytes(msg, sizeof msg);
        fs2t_rand_bytes(pt, sizeof pt);

        /* made: Z_A of the default ID at once, in both halves */
        CHECK_STATUS(fastsm2_privkey_generate(&key), FASTSM2_OK);
        CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);
        want_z(zw, &pub, def_id, sizeof def_id - 1);
        CHECK(memcmp(za_priv(&key), zw, 32) == 0);
        CHECK(memcmp(za_pub(&pub), zw, 32) == 0);
        unsigned char sec1[65];
        size_t sec1len = sizeof sec1;
        CHECK_STATUS(fastsm2_pubkey_to_bytes(sec1, &sec1len, &pub, 1), FASTSM2_OK);
        CHECK_STATUS(fastsm2_pubkey_from_bytes(&pub2, sec1, sec1len), FASTSM2_OK);
        CHECK(memcmp(za_pub(&pub2), zw, 32) == 0);
        CHECK_STATUS(fastsm2_encrypt(ct, &ctlen, &pub, pt, sizeof pt, 0), FASTSM2_OK);
        CHECK_STATUS(fastsm2_decrypt(out, &outlen, &key, ct, ctlen, 0), FASTSM2_OK);

        CHECK_STATUS(fastsm2_compute_z(z, &pub, NULL, 0), FASTSM2_OK);
        CHECK(memcmp(z, zw, 32) == 0);
        /* the same ID passed explicitly gives the same */
        CHECK_STATUS(fastsm2_compute_z(z, &pub, def_id, sizeof def_id - 1), FASTSM2_OK);
        CHECK(memcmp(z, zw, 32) == 0);

        /* a message signature is over that Z_A */
        CHECK_STATUS(fastsm2_sign(sig, &key, NULL, 0, msg, sizeof msg), FASTSM2_OK);
        digest(e, zw, msg, sizeof msg);
        CHECK(fastsm2_verify_digest(&pub, e, sig) == 1);

        /* a new short ID: its Z_A at once; signing and verification use it */
        CHECK_STATUS(fastsm2_privkey_set_id(&key, alice, sizeof alice - 1), FASTSM2_OK);
        CHECK_STATUS(fastsm2_pubkey_set_id(&pub2, alice, sizeof alice - 1), FASTSM2_OK);
        want_z(zw, &pub2, alice, sizeof alice - 1);
        CHECK(memcmp(za_priv(&key), zw, 32) == 0);
        CHECK(memcmp(za_pub(&pub2), zw, 32) == 0);
        CHECK_STATUS(fastsm2_sign(sig, &key, NULL, 0, msg, sizeof msg), FASTSM2_OK);
        CHECK(fastsm2_verify(&pub2, NULL, 0, msg, sizeof msg, sig) == 1);
        digest(e, zw, msg, sizeof msg);
        CHECK(fastsm2_verify_digest(&pub2, e, sig) == 1);
        /* a public key taken now carries the key's ID and Z_A */
        fastsm2_pubkey pub3;
        CHECK_STATUS(fastsm2_privkey_pubkey(&pub3, &key), FASTSM2_OK);
        CHECK(memcmp(za_pub(&pub3), zw, 32) == 0);

        /* an ID too long to keep: Z_A at once */
        CHECK_STATUS(fastsm2_pubkey_set_id(&pub2, long_id, sizeof long_id), FASTSM2_OK);
        want_z(zw, &pub2, long_id, sizeof long_id);
        CHECK(memcmp(za_pub(&pub2), zw, 32) == 0);
        CHECK_STATUS(fastsm2_compute_z(z, &pub2, NULL, 0), FASTSM2_OK);
        CHECK(memcmp(z, zw, 32) == 0);

        /* four threads sign with one key at once */
        CHECK_STATUS(fastsm2_privkey_to_bytes(db, &key), FASTSM2_OK);
        CHECK_STATUS(fastsm2_privkey_from_bytes(&race_key, db), FASTSM2_OK);
        fastsm2_privkey before = race_key;
        fs2t_rand_bytes(race_msg, sizeof race_msg);
        pthread_t th[NTHREADS];
        CHECK(pthread_barrier_init(&race_barrier, NULL, NTHREADS) == 0);
        for (int i = 0; i < NTHREADS; i++)
            CHECK(pthread_create(&th[i], NULL, race_sign, (void *)(intptr_t)i) == 0);
        for (int i = 0; i < NTHREADS; i++)
            pthread_join(th[i], NULL);
        pthread_barrier_destroy(&race_barrier);
        want_z(zw, &pub, def_id, sizeof def_id - 1);
        digest(e, zw, race_msg, sizeof race_msg);
        for (int i = 0; i < NTHREADS; i++) {
            CHECK_STATUS(race_ret[i], FASTSM2_OK);
            CHECK(fastsm2_verify_digest(&pub, e, race_sig[i]) == 1);
        }
        CHECK(memcmp(&before, &race_key, sizeof before) == 0);
        fastsm2_privkey_clear(&before);
        fastsm2_privkey_clear(&key);
        fastsm2_privkey_clear(&race_key);
    }
    return fs2t_finish("test_za_cache");
}
