/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Z_A (GB/T 32918.2 5.5) is cached in a key, made at its first use rather
 * than when the key is made (src/protocol/keys.c, fs2_pubpart_z):
 *  - a generated or loaded key, and a public key taken from it, have none;
 *    decryption does not make it;
 *  - fastsm2_compute_z, a message signature and a verification make it,
 *    and it equals SM3(ENTL || ID || a || b || xG || yG || xA || yA)
 *    computed here from the bytes (SM3 is checked against OpenSSL
 *    elsewhere); a signature's digest is the one that reference gives;
 *  - a new ID (fastsm2_*_set_id) drops it; an ID too long to keep makes it
 *    at once; a public key taken from a key that has it gets it;
 *  - four threads signing with one fresh key at once all sign over the
 *    right Z_A and leave the right one cached.
 */
#include <pthread.h>
#include <string.h>

#include "protocol/protocol.h"
#include "testutil.h"

static const char *CURVE_HEX =
    "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFC" /* a */
    "28E9FA9E9D9F5E344D5A9E4BCF6509A7F39789F515AB8F92DDBCBD414D940E93" /* b */
    "32C4AE2C1F1981195F9904466A39C9948FE30BBFF2660BE1715A4589334C74C7" /* xG */
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

static unsigned za_state_priv(const fastsm2_privkey *k) { return fs2_priv_get(k)->pub.za_state; }
static unsigned za_state_pub(const fastsm2_pubkey *p) { return fs2_pub_get(p)->pub.za_state; }

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

        /* made, exported and used to decrypt: no Z_A yet */
        CHECK_STATUS(fastsm2_privkey_generate(&key), FASTSM2_OK);
        CHECK(za_state_priv(&key) == 0);
        CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);
        CHECK(za_state_pub(&pub) == 0);
        CHECK_STATUS(fastsm2_encrypt(ct, &ctlen, &pub, pt, sizeof pt, 0), FASTSM2_OK);
        CHECK_STATUS(fastsm2_decrypt(out, &outlen, &key, ct, ctlen, 0), FASTSM2_OK);
        CHECK(za_state_priv(&key) == 0);

        /* compute_z on the public key makes the public key's */
        want_z(zw, &pub, def_id, sizeof def_id - 1);
        CHECK_STATUS(fastsm2_compute_z(z, &pub, NULL, 0), FASTSM2_OK);
        CHECK(memcmp(z, zw, 32) == 0);
        CHECK(za_state_pub(&pub) == 2);
        CHECK(za_state_priv(&key) == 0);
        /* the same ID passed explicitly gives the same */
        CHECK_STATUS(fastsm2_compute_z(z, &pub, def_id, sizeof def_id - 1), FASTSM2_OK);
        CHECK(memcmp(z, zw, 32) == 0);

        /* a message signature makes the key's, over the right Z_A */
        CHECK_STATUS(fastsm2_sign(sig, &key, NULL, 0, msg, sizeof msg), FASTSM2_OK);
        CHECK(za_state_priv(&key) == 2);
        CHECK(memcmp(fs2_priv_get(&key)->pub.za, zw, 32) == 0);
        digest(e, zw, msg, sizeof msg);
        CHECK(fastsm2_verify_digest(&pub, e, sig) == 1);
        /* a public key taken now carries it */
        CHECK_STATUS(fastsm2_privkey_pubkey(&pub2, &key), FASTSM2_OK);
        CHECK(za_state_pub(&pub2) == 2);
        CHECK(memcmp(fs2_pub_get(&pub2)->pub.za, zw, 32) == 0);

        /* a new short ID: dropped, then made for that ID by verification */
        CHECK_STATUS(fastsm2_privkey_set_id(&key, alice, sizeof alice - 1), FASTSM2_OK);
        CHECK_STATUS(fastsm2_pubkey_set_id(&pub2, alice, sizeof alice - 1), FASTSM2_OK);
        CHECK(za_state_priv(&key) == 0 && za_state_pub(&pub2) == 0);
        want_z(zw, &pub2, alice, sizeof alice - 1);
        CHECK_STATUS(fastsm2_sign(sig, &key, NULL, 0, msg, sizeof msg), FASTSM2_OK);
        CHECK(fastsm2_verify(&pub2, NULL, 0, msg, sizeof msg, sig) == 1);
        CHECK(za_state_pub(&pub2) == 2);
        CHECK(memcmp(fs2_pub_get(&pub2)->pub.za, zw, 32) == 0);
        digest(e, zw, msg, sizeof msg);
        CHECK(fastsm2_verify_digest(&pub2, e, sig) == 1);

        /* an ID too long to keep: Z_A at once */
        CHECK_STATUS(fastsm2_pubkey_set_id(&pub2, long_id, sizeof long_id), FASTSM2_OK);
        CHECK(za_state_pub(&pub2) == 2);
        want_z(zw, &pub2, long_id, sizeof long_id);
        CHECK_STATUS(fastsm2_compute_z(z, &pub2, NULL, 0), FASTSM2_OK);
        CHECK(memcmp(z, zw, 32) == 0);

        /* four threads race to make a fresh key's */
        CHECK_STATUS(fastsm2_privkey_to_bytes(db, &key), FASTSM2_OK);
        CHECK_STATUS(fastsm2_privkey_from_bytes(&race_key, db), FASTSM2_OK);
        CHECK(za_state_priv(&race_key) == 0);
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
        CHECK(za_state_priv(&race_key) == 2);
        CHECK(memcmp(fs2_priv_get(&race_key)->pub.za, zw, 32) == 0);
        fastsm2_privkey_clear(&key);
        fastsm2_privkey_clear(&race_key);
    }
    return fs2t_finish("test_za_lazy");
}
