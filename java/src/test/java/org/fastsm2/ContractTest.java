// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import static org.junit.jupiter.api.Assertions.*;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.*;
import java.security.interfaces.ECPublicKey;
import java.security.spec.*;
import javax.crypto.KeyAgreement;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What an application that only adds the provider keeps (the JDK's and
 *  BouncyCastle's EC), the exceptions each public method names, and the
 *  provider's version. */
class ContractTest {
    static final String FS = "FastSM2", BC = "BC";

    @BeforeAll
    static void providers() {
        if (Security.getProvider(BC) == null) Security.addProvider(new BouncyCastleProvider());
        if (Security.getProvider(FS) == null) Security.addProvider(new FastSM2Provider());
    }

    static boolean isP256(PublicKey k) {
        ECPublicKey e = (ECPublicKey) k;
        return !SM2Curve.isSM2(e.getParams()) && e.getParams().getOrder().equals(new BigInteger(
                "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16));
    }

    static void ecdsaRoundTrip(KeyPair kp) throws Exception {
        Signature s = Signature.getInstance("SHA256withECDSA");
        assertNotEquals(FS, s.getProvider().getName());
        s.initSign(kp.getPrivate());
        s.update(new byte[] {1, 2, 3});
        byte[] sig = s.sign();
        s.initVerify(kp.getPublic());
        s.update(new byte[] {1, 2, 3});
        assertTrue(s.verify(sig));
    }

    /** FastSM2 inserted first (as docs/JAVA.md shows): every EC call that is
     *  not about sm2p256v1 still goes to the JDK (or BouncyCastle). */
    @Test
    void fastSm2FirstKeepsEveryOtherEcBehaviour() throws Exception {
        Security.removeProvider(FS);
        try {
            Security.insertProviderAt(new FastSM2Provider(), 1);
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(256);
            KeyPair kp = g.generateKeyPair();
            assertTrue(isP256(kp.getPublic()), "initialize(256) is P-256: " + kp.getPublic());
            ecdsaRoundTrip(kp);

            g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            kp = g.generateKeyPair();
            assertTrue(isP256(kp.getPublic()));
            ecdsaRoundTrip(kp);

            g = KeyPairGenerator.getInstance("EC");
            g.initialize(384);
            assertEquals(384, ((ECPublicKey) g.generateKeyPair().getPublic()).getParams().getOrder().bitLength());

            // not initialised: the JDK's default curve, not sm2p256v1
            KeyPair d = KeyPairGenerator.getInstance("EC").generateKeyPair();
            assertFalse(SM2Curve.isSM2(((ECPublicKey) d.getPublic()).getParams()), "default EC key");
            ecdsaRoundTrip(d);

            // KeyFactory, KeyAgreement and Signature "EC"/"ECDH"/"ECDSA" are not ours
            assertNotEquals(FS, KeyFactory.getInstance("EC").getProvider().getName());
            KeyAgreement ka = KeyAgreement.getInstance("ECDH");
            ka.init(kp.getPrivate());
            ka.doPhase(kp.getPublic(), true);
            assertEquals(32, ka.generateSecret().length);
            assertNotEquals(FS, ka.getProvider().getName());

            // sm2p256v1 asked of "EC" still gets an SM2 key
            g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("sm2p256v1"));
            assertTrue(SM2Curve.isSM2(((ECPublicKey) g.generateKeyPair().getPublic()).getParams()));

            // BouncyCastle's EC by name is untouched
            KeyPairGenerator b = KeyPairGenerator.getInstance("EC", BC);
            b.initialize(256);
            assertTrue(isP256(b.generateKeyPair().getPublic()));
        } finally {
            Security.removeProvider(FS);
            Security.addProvider(new FastSM2Provider());
        }
    }

    @Test
    void versionComesFromTheBuild() {
        Provider p = Security.getProvider(FS);
        String want = System.getProperty("fastsm2.version");
        assertNotNull(want, "the pom passes fastsm2.version");
        assertEquals(want, p.getVersionStr());
        assertEquals(want, SM2.libraryVersion(), "the jar and its native library are one build");
    }

    // ---- every public method throws the exception its contract names --------------

    @Test
    void verifyBatchWithANullMessageIsFalse() throws Exception {
        SM2PrivateKey k = SM2PrivateKey.generate();
        byte[][] msgs = {new byte[] {1}, null, new byte[] {3}};
        byte[][] sigs = SM2.signBatch(k, null, new byte[][] {msgs[0], {2}, msgs[2]}, 1);
        boolean[] ok = SM2.verifyBatch(k.getPublicKey(), null, msgs, sigs, 1);
        assertArrayEquals(new boolean[] {true, false, true}, ok);
        NullPointerException e = assertThrows(NullPointerException.class, () -> SM2.signBatch(k, null, msgs, 1));
        assertTrue(e.getMessage().contains("msgs[1]"), e.getMessage());
        assertThrows(NullPointerException.class, () -> SM2.verifyBatch(k.getPublicKey(), null, null, sigs, 1));
        assertThrows(IllegalArgumentException.class, () -> SM2.verifyBatch(k.getPublicKey(), null, msgs, new byte[2][], 1));
    }

    @Test
    void serializeEncryptedRefusesBadArguments() throws Exception {
        SM2PrivateKey k = SM2PrivateKey.generate();
        char[] pw = "pw".toCharArray();
        assertThrows(IllegalArgumentException.class, () -> k.serializeEncrypted(true, 1, -1, pw));
        assertThrows(IllegalArgumentException.class, () -> k.serializeEncrypted(true, 99, 1000, pw));
        assertThrows(IllegalArgumentException.class, () -> k.serializeEncrypted(false, 0, 1000, pw));
        assertThrows(NullPointerException.class, () -> k.serializeEncrypted(false, 1, 1000, null));
        assertEquals(k, SM2.loadPrivateKey(k.serializeEncrypted(false, 1, 1000, pw), pw));
    }

    @Test
    void keyExchangeAfterCloseIsIllegalState() throws Exception {
        SM2PrivateKey a = SM2PrivateKey.generate(), b = SM2PrivateKey.generate();
        SM2KeyExchange x = new SM2KeyExchange(true, a, null, b.getPublicKey(), null, null);
        SM2KeyExchange y = new SM2KeyExchange(false, b, null, a.getPublicKey(), null, null);
        x.computeKey(y.ephemeralPoint(), 16);
        x.close();
        assertThrows(IllegalStateException.class, x::confirmation);
        assertThrows(IllegalStateException.class, () -> x.verifyConfirmation(new byte[32]));
        assertThrows(IllegalStateException.class, () -> x.computeKey(y.ephemeralPoint(), 16));
        y.close();
        assertThrows(IllegalStateException.class, () -> y.computeKey(x.ephemeralPoint(), 16));
        x.close(); // twice is fine
    }

    @Test
    void publicKeyWhereAPrivateKeyBelongsSaysSo() throws Exception {
        SM2PrivateKey k = SM2PrivateKey.generate();
        byte[] spki = k.getPublicKey().getEncoded();
        byte[] pem = k.getPublicKey().toPem().getBytes(StandardCharsets.US_ASCII);
        for (byte[] f : new byte[][] {spki, pem}) {
            InvalidKeySpecException e = assertThrows(InvalidKeySpecException.class, () -> SM2.loadPrivateKey(f, null));
            assertTrue(e.getMessage().contains("a public key, not a private key"), e.getMessage());
            e = assertThrows(InvalidKeySpecException.class, () -> SM2.loadPrivateKey(f, "pw".toCharArray()));
            assertTrue(e.getMessage().contains("a public key, not a private key"), e.getMessage());
        }
        KeyFactory f = KeyFactory.getInstance("SM2", FS);
        InvalidKeySpecException e = assertThrows(InvalidKeySpecException.class,
                () -> f.generatePrivate(new PKCS8EncodedKeySpec(spki)));
        assertTrue(e.getMessage().contains("a public key, not a private key"), e.getMessage());
    }
}
