// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import static org.junit.jupiter.api.Assertions.*;

import java.security.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * 16 threads over shared keys and keys of their own, for
 * {@code fastsm2.stress.seconds} seconds (3 by default: make test-java;
 * 60 in make test-java-stress): signatures, verifications, encryption,
 * decryption, SM3, HMAC-SM3, SM4-GCM and SM4-CBC, and batches, every result checked against a
 * reference computed on one thread beforehand; keys made and destroyed
 * all the time, one shared key destroyed while the others use it (each use
 * then either gives the right answer or the exception its contract names),
 * and keys left to the Cleaner. No wrong answer, no other exception, no
 * crash.
 */
class StressTest {
    static final String FS = "FastSM2";
    static final int THREADS = 16;

    @BeforeAll
    static void provider() {
        if (Security.getProvider(FS) == null) Security.addProvider(new FastSM2Provider());
    }

    /** What one thread computed once, before the threads start. */
    static final class Reference {
        final SM2PrivateKey key;
        final byte[][] msgs = new byte[8][];
        final byte[][] sigs = new byte[8][]; // DER, of msgs[i]
        final boolean[] valid = new boolean[8]; // whether sigs[i] verifies msgs[i] (a few are tampered)
        final byte[][] cts = new byte[8][]; // C1C3C2 ciphertexts of msgs[i]
        final byte[][] sm3 = new byte[8][];
        final byte[][] hmac = new byte[8][];
        final byte[] hmacKey;
        final SecretKeySpec sm4Key;
        final byte[][] gcm = new byte[8][]; // SM4-GCM of msgs[i] under sm4Key and the IV {i, 0, ...}
        final byte[][] cbc = new byte[8][]; // SM4-CBC/PKCS#7 of msgs[i], IV {i, 0, ...}

        Reference(SM2PrivateKey key, Random r) throws Exception {
            this.key = key;
            hmacKey = new byte[1 + r.nextInt(80)];
            r.nextBytes(hmacKey);
            byte[] k4 = new byte[16];
            r.nextBytes(k4);
            sm4Key = new SecretKeySpec(k4, "SM4");
            Signature s = Signature.getInstance("SM3withSM2", FS), v = Signature.getInstance("SM3withSM2", FS);
            Cipher e = Cipher.getInstance("SM2/C1C3C2/NoPadding", FS);
            Mac m = Mac.getInstance("HmacSM3", FS);
            m.init(new SecretKeySpec(hmacKey, "HmacSM3"));
            for (int i = 0; i < 8; i++) {
                msgs[i] = new byte[1 + r.nextInt(i == 7 ? 100_000 : 300)];
                r.nextBytes(msgs[i]);
                s.initSign(key);
                s.update(msgs[i]);
                sigs[i] = s.sign();
                if (i % 3 == 2) sigs[i][sigs[i].length - 1] ^= 1; // well-formed, does not verify
                v.initVerify(key.getPublicKey());
                v.update(msgs[i]);
                valid[i] = v.verify(sigs[i]);
                e.init(Cipher.ENCRYPT_MODE, key.getPublicKey());
                cts[i] = e.doFinal(msgs[i]);
                sm3[i] = MessageDigest.getInstance("SM3", FS).digest(msgs[i]);
                hmac[i] = m.doFinal(msgs[i]);
                Cipher g = Cipher.getInstance("SM4/GCM/NoPadding", FS);
                g.init(Cipher.ENCRYPT_MODE, sm4Key, new javax.crypto.spec.GCMParameterSpec(128, iv(i, 12)));
                gcm[i] = g.doFinal(msgs[i]);
                Cipher c = Cipher.getInstance("SM4/CBC/PKCS5Padding", FS);
                c.init(Cipher.ENCRYPT_MODE, sm4Key, new javax.crypto.spec.IvParameterSpec(iv(i, 16)));
                cbc[i] = c.doFinal(msgs[i]);
            }
            for (int i = 0; i < 8; i++) assertEquals(i % 3 != 2, valid[i], "the reference");
        }
    }

    static byte[] iv(int i, int n) {
        byte[] v = new byte[n];
        v[0] = (byte) i;
        return v;
    }

    /** An exception a use of a key destroyed meanwhile may give (the contract of each call). */
    static boolean destroyedKeyException(Throwable t) {
        return t instanceof SignatureException || t instanceof InvalidKeyException || t instanceof IllegalStateException;
    }

    @Test
    void sixteenThreadsAgainstTheReference() throws Exception {
        double seconds = Double.parseDouble(System.getProperty("fastsm2.stress.seconds", "3"));
        Random seed = new Random(42);
        List<Reference> shared = new ArrayList<>();
        for (int i = 0; i < 3; i++) shared.add(new Reference(SM2PrivateKey.generate(), seed));
        // the victim: used by every thread, destroyed midway by another
        Reference victim = new Reference(SM2PrivateKey.generate(), seed);

        long end = System.nanoTime() + (long) (seconds * 1e9);
        AtomicLong ops = new AtomicLong(), refused = new AtomicLong(), lifecycles = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ExecutorService ex = Executors.newFixedThreadPool(THREADS + 1);
        List<Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            final int tid = t;
            fs.add(ex.submit(() -> {
                Random r = new Random(1000 + tid);
                Reference own = new Reference(SM2PrivateKey.generate(), r);
                Signature s = Signature.getInstance("SM3withSM2", FS), v = Signature.getInstance("SM3withSM2", FS);
                Cipher e = Cipher.getInstance("SM2/C1C3C2/NoPadding", FS), d = Cipher.getInstance("SM2/C1C3C2/NoPadding", FS);
                MessageDigest md = MessageDigest.getInstance("SM3", FS);
                Mac mac = Mac.getInstance("HmacSM3", FS);
                Cipher g = Cipher.getInstance("SM4/GCM/NoPadding", FS), cb = Cipher.getInstance("SM4/CBC/PKCS5Padding", FS);
                while (System.nanoTime() < end && failure.get() == null) {
                    int pick = r.nextInt(8);
                    Reference ref = pick < 3 ? shared.get(pick) : pick == 3 ? own : victim;
                    int i = r.nextInt(7); // the 100 KB message (7) only now and then
                    if (r.nextInt(50) == 0) i = 7;
                    byte[] m = ref.msgs[i];
                    try {
                        switch (r.nextInt(10)) {
                            case 0: { // sign, then the reference verifier must accept it
                                s.initSign(ref.key);
                                s.update(m);
                                byte[] sig = s.sign();
                                v.initVerify(ref.key.getPublicKey());
                                v.update(m);
                                assertTrue(v.verify(sig), "a fresh signature verifies");
                                break;
                            }
                            case 1: // verify the reference signatures
                                v.initVerify(ref.key.getPublicKey());
                                v.update(m);
                                assertEquals(ref.valid[i], v.verify(ref.sigs[i]), "verify = the reference");
                                break;
                            case 2: // decrypt the reference ciphertext
                                d.init(Cipher.DECRYPT_MODE, ref.key);
                                assertArrayEquals(m, d.doFinal(ref.cts[i]), "decrypt = the reference");
                                break;
                            case 3: // encrypt, decrypt
                                e.init(Cipher.ENCRYPT_MODE, ref.key.getPublicKey());
                                byte[] ct = e.doFinal(m);
                                d.init(Cipher.DECRYPT_MODE, ref.key);
                                assertArrayEquals(m, d.doFinal(ct), "round trip");
                                break;
                            case 4:
                                assertArrayEquals(ref.sm3[i], md.digest(m), "SM3 = the reference");
                                break;
                            case 5:
                                mac.init(new SecretKeySpec(ref.hmacKey, "HmacSM3"));
                                assertArrayEquals(ref.hmac[i], mac.doFinal(m), "HMAC = the reference");
                                break;
                            case 6: { // batches on 2 library threads
                                boolean[] ok = SM2.verifyBatch(ref.key.getPublicKey(), null, ref.msgs, ref.sigs, 2);
                                assertArrayEquals(ref.valid, ok, "verifyBatch = the reference");
                                byte[][] sigs = SM2.signBatch(ref.key, null, Arrays.copyOf(ref.msgs, 4), 2);
                                for (int j = 0; j < 4; j++) {
                                    v.initVerify(ref.key.getPublicKey());
                                    v.update(ref.msgs[j]);
                                    assertTrue(v.verify(sigs[j]), "a batch signature verifies");
                                }
                                break;
                            }
                            case 8: { // SM4: GCM decryption and CBC both ways against the reference
                                g.init(Cipher.DECRYPT_MODE, ref.sm4Key, new javax.crypto.spec.GCMParameterSpec(128, iv(i, 12)));
                                assertArrayEquals(m, g.doFinal(ref.gcm[i]), "SM4-GCM decrypt = the reference");
                                cb.init(Cipher.ENCRYPT_MODE, ref.sm4Key, new javax.crypto.spec.IvParameterSpec(iv(i, 16)));
                                assertArrayEquals(ref.cbc[i], cb.doFinal(m), "SM4-CBC encrypt = the reference");
                                cb.init(Cipher.DECRYPT_MODE, ref.sm4Key, new javax.crypto.spec.IvParameterSpec(iv(i, 16)));
                                assertArrayEquals(m, cb.doFinal(ref.cbc[i]), "SM4-CBC decrypt = the reference");
                                break;
                            }
                            case 7: { // a key's whole life: made, used, destroyed
                                SM2PrivateKey k = SM2PrivateKey.generate();
                                SM2PublicKey pk = k.getPublicKey();
                                s.initSign(k);
                                s.update(m);
                                byte[] sig = s.sign();
                                k.destroy();
                                assertThrows(SignatureException.class, () -> {
                                    s.update(m);
                                    s.sign();
                                });
                                assertThrows(IllegalStateException.class, k::getS);
                                v.initVerify(pk);
                                v.update(m);
                                assertTrue(v.verify(sig), "the public key outlives the destroyed private key");
                                lifecycles.incrementAndGet();
                                break;
                            }
                            default: { // keys left to the Cleaner, converted keys
                                SM2PrivateKey k = SM2.toSM2PrivateKey(new ForeignKey(ref.key));
                                d.init(Cipher.DECRYPT_MODE, k);
                                assertArrayEquals(m, d.doFinal(ref.cts[i]), "a converted key decrypts");
                                lifecycles.incrementAndGet();
                            }
                        }
                        ops.incrementAndGet();
                    } catch (Throwable th) {
                        if (ref == victim && victim.key.isDestroyed() && destroyedKeyException(th)) {
                            refused.incrementAndGet(); // the contract's exception for a destroyed key
                            continue;
                        }
                        failure.compareAndSet(null, th);
                    }
                }
                own.key.destroy();
                return null;
            }));
        }
        // the destroyer: the victim goes a third of the way in
        Thread.sleep((long) (seconds * 1000 / 3));
        victim.key.destroy();
        for (Future<?> f : fs) f.get(10 + (long) seconds * 3, TimeUnit.SECONDS);
        ex.shutdown();
        if (failure.get() != null) throw new AssertionError("a thread failed", failure.get());
        assertTrue(ops.get() > THREADS, "work was done: " + ops.get());
        assertTrue(victim.key.isDestroyed());
        System.out.printf("stress: %d threads, %.0f s: %d operations, %d refused after the destroy, %d key lifecycles%n",
                THREADS, seconds, ops.get(), refused.get(), lifecycles.get());
        // and everything still works on one thread
        for (Reference ref : shared) {
            Signature v = Signature.getInstance("SM3withSM2", FS);
            for (int i = 0; i < 8; i++) {
                v.initVerify(ref.key.getPublicKey());
                v.update(ref.msgs[i]);
                assertEquals(ref.valid[i], v.verify(ref.sigs[i]));
            }
        }
    }

    /** Another provider's key (an ECPrivateKey of sm2p256v1), converted on every use. */
    static final class ForeignKey implements java.security.interfaces.ECPrivateKey {
        private static final long serialVersionUID = 1L;
        private final transient SM2PrivateKey k;

        ForeignKey(SM2PrivateKey k) {
            this.k = k;
        }

        @Override
        public java.math.BigInteger getS() {
            return k.getS();
        }

        @Override
        public java.security.spec.ECParameterSpec getParams() {
            return SM2Curve.SPEC;
        }

        @Override
        public String getAlgorithm() {
            return "EC";
        }

        @Override
        public String getFormat() {
            return null;
        }

        @Override
        public byte[] getEncoded() {
            return null;
        }
    }
}
