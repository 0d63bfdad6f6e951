// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import static org.junit.jupiter.api.Assertions.*;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.*;
import java.security.spec.*;
import java.util.*;
import javax.crypto.*;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A corpus of hostile calls to every public method and service: each must
 * throw the exception its contract names (never another, never
 * NativeException's like, never a crash); then the known answers of GB/T
 * 32918 and 32905 still come out right, so that nothing the corpus did
 * left the library or the provider in a bad state.
 */
class BadInputCorpusTest {
    static final String FS = "FastSM2";

    @BeforeAll
    static void provider() {
        if (Security.getProvider(FS) == null) Security.addProvider(new FastSM2Provider());
    }

    private final List<String> ran = new ArrayList<>();

    private void expect(Class<? extends Throwable> type, String what, Executable call) {
        Throwable t = assertThrows(Throwable.class, call, what);
        if (!type.isInstance(t)) {
            AssertionError e = new AssertionError(what + ": " + type.getSimpleName() + " expected, got " + t);
            e.initCause(t);
            throw e;
        }
        assertFalse(t.getClass().getName().startsWith("org.fastsm2"), what + ": an internal exception escaped: " + t);
        ran.add(what);
    }

    static byte[] junk(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    @Test
    void everyPublicMethodNamesItsException() throws Exception {
        Random r = new Random(7);
        SM2PrivateKey k = SM2PrivateKey.generate();
        SM2PublicKey pk = k.getPublicKey();
        SM2PrivateKey dead = SM2PrivateKey.generate();
        dead.destroy();
        KeyPairGenerator p256g = KeyPairGenerator.getInstance("EC", "SunEC");
        p256g.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair p256 = p256g.generateKeyPair();
        byte[] n1 = SM2Curve.to32(SM2Curve.N.subtract(BigInteger.ONE));
        byte[] encrypted = k.serializeEncrypted(false, 1, 1000, "pw".toCharArray());

        // ---- SM2: key files, conversions, batches
        expect(NullPointerException.class, "loadPrivateKey(null)", () -> SM2.loadPrivateKey(null, null));
        expect(InvalidKeySpecException.class, "loadPrivateKey(empty)", () -> SM2.loadPrivateKey(new byte[0], null));
        expect(InvalidKeySpecException.class, "loadPrivateKey(1 MB of junk)", () -> SM2.loadPrivateKey(junk(r, 1 << 20), null));
        expect(InvalidKeySpecException.class, "loadPrivateKey(a public key)", () -> SM2.loadPrivateKey(pk.getEncoded(), null));
        expect(InvalidKeySpecException.class, "loadPrivateKey(encrypted, no password)", () -> SM2.loadPrivateKey(encrypted, null));
        expect(InvalidKeySpecException.class, "loadPrivateKey(encrypted, wrong password)",
                () -> SM2.loadPrivateKey(encrypted, "wrong".toCharArray()));
        expect(InvalidKeySpecException.class, "loadPrivateKey(empty password)", () -> SM2.loadPrivateKey(encrypted, new char[0]));
        expect(InvalidKeySpecException.class, "loadPrivateKey(P-256 PKCS#8)",
                () -> SM2.loadPrivateKey(p256.getPrivate().getEncoded(), null));
        expect(NullPointerException.class, "loadPublicKey(null)", () -> SM2.loadPublicKey(null));
        expect(InvalidKeySpecException.class, "loadPublicKey(junk)", () -> SM2.loadPublicKey(junk(r, 91)));
        expect(InvalidKeySpecException.class, "loadPublicKey(P-256 SPKI)", () -> SM2.loadPublicKey(p256.getPublic().getEncoded()));
        expect(InvalidKeySpecException.class, "loadPublicKey(a private key)", () -> SM2.loadPublicKey(k.getEncoded()));
        expect(InvalidKeySpecException.class, "publicKeyFromCertificate(junk)", () -> SM2.publicKeyFromCertificate(junk(r, 400)));
        expect(InvalidKeySpecException.class, "publicKeyFromCertificate(a key)", () -> SM2.publicKeyFromCertificate(pk.getEncoded()));
        expect(InvalidKeyException.class, "toSM2PublicKey(null)", () -> SM2.toSM2PublicKey(null));
        expect(InvalidKeyException.class, "toSM2PublicKey(P-256)", () -> SM2.toSM2PublicKey(p256.getPublic()));
        expect(InvalidKeyException.class, "toSM2PublicKey(a private key)", () -> SM2.toSM2PublicKey(k));
        expect(InvalidKeyException.class, "toSM2PrivateKey(null)", () -> SM2.toSM2PrivateKey(null));
        expect(InvalidKeyException.class, "toSM2PrivateKey(P-256)", () -> SM2.toSM2PrivateKey(p256.getPrivate()));
        expect(InvalidKeyException.class, "toSM2PrivateKey(destroyed)", () -> SM2.toSM2PrivateKey(dead));
        expect(InvalidKeyException.class, "toSM2PrivateKey(AES key)", () -> SM2.toSM2PrivateKey(new SecretKeySpec(new byte[16], "AES")));
        byte[][] msgs = {new byte[3], new byte[5]};
        byte[][] sigs = SM2.signBatch(k, null, msgs, 1);
        expect(NullPointerException.class, "signBatch(msgs null)", () -> SM2.signBatch(k, null, null, 1));
        expect(NullPointerException.class, "signBatch(a null message)", () -> SM2.signBatch(k, null, new byte[][] {null}, 1));
        expect(IllegalArgumentException.class, "signBatch(ID of 8192 bytes)", () -> SM2.signBatch(k, new byte[8192], msgs, 1));
        expect(InvalidKeyException.class, "signBatch(destroyed key)", () -> SM2.signBatch(dead, null, msgs, 1));
        expect(InvalidKeyException.class, "signBatch(P-256 key)", () -> SM2.signBatch(p256.getPrivate(), null, msgs, 1));
        expect(NullPointerException.class, "verifyBatch(sigs null)", () -> SM2.verifyBatch(pk, null, msgs, null, 1));
        expect(IllegalArgumentException.class, "verifyBatch(lengths differ)", () -> SM2.verifyBatch(pk, null, msgs, new byte[1][], 1));
        expect(IllegalArgumentException.class, "verifyBatch(ID of 9000 bytes)", () -> SM2.verifyBatch(pk, new byte[9000], msgs, sigs, 1));
        expect(InvalidKeyException.class, "verifyBatch(P-256 key)", () -> SM2.verifyBatch(p256.getPublic(), null, msgs, sigs, 1));
        assertArrayEquals(new boolean[] {true, true}, SM2.verifyBatch(pk, null, msgs, sigs, -5), "threads < 0: all cores");

        // ---- keys
        expect(NullPointerException.class, "fromBytes(null)", () -> SM2PrivateKey.fromBytes(null));
        expect(InvalidKeySpecException.class, "fromBytes(31 bytes)", () -> SM2PrivateKey.fromBytes(new byte[31]));
        expect(InvalidKeySpecException.class, "fromBytes(0)", () -> SM2PrivateKey.fromBytes(new byte[32]));
        expect(InvalidKeySpecException.class, "fromBytes(n - 1)", () -> SM2PrivateKey.fromBytes(n1));
        expect(InvalidKeySpecException.class, "fromBytes(2^256 - 1)", () -> SM2PrivateKey.fromBytes(filled(32, 0xff)));
        expect(IllegalStateException.class, "destroyed getS", dead::getS);
        expect(IllegalStateException.class, "destroyed toBytes", dead::toBytes);
        expect(IllegalStateException.class, "destroyed getEncoded", dead::getEncoded);
        expect(IllegalStateException.class, "destroyed toPem", dead::toPem);
        expect(IllegalStateException.class, "destroyed getPublicKey", dead::getPublicKey);
        expect(IllegalStateException.class, "destroyed serializeEncrypted",
                () -> dead.serializeEncrypted(true, 1, 1, "pw".toCharArray()));
        expect(IllegalArgumentException.class, "serializeEncrypted(scheme 0)", () -> k.serializeEncrypted(true, 0, 1, "p".toCharArray()));
        expect(IllegalArgumentException.class, "serializeEncrypted(-1 iterations)",
                () -> k.serializeEncrypted(true, 1, -1, "p".toCharArray()));
        expect(NullPointerException.class, "serializeEncrypted(null password)", () -> k.serializeEncrypted(true, 1, 1, null));
        expect(NullPointerException.class, "fromPoint(null)", () -> SM2PublicKey.fromPoint((byte[]) null));
        expect(InvalidKeySpecException.class, "fromPoint(empty)", () -> SM2PublicKey.fromPoint(new byte[0]));
        expect(InvalidKeySpecException.class, "fromPoint(04 || 0...)", () -> SM2PublicKey.fromPoint(concat(new byte[] {4}, new byte[64])));
        expect(InvalidKeySpecException.class, "fromPoint(02 || x off the curve)",
                () -> SM2PublicKey.fromPoint(concat(new byte[] {2}, filled(32, 0xff))));
        expect(InvalidKeySpecException.class, "fromPoint(junk 65)", () -> SM2PublicKey.fromPoint(junk(r, 65)));
        expect(IllegalArgumentException.class, "encodePoint(infinity)", () -> SM2Curve.encodePoint(ECPoint.POINT_INFINITY));
        expect(IllegalArgumentException.class, "decodePoint(junk)", () -> SM2Curve.decodePoint(new byte[3]));
        expect(NullPointerException.class, "SM2ParameterSpec(null)", () -> new SM2ParameterSpec((byte[]) null));
        expect(IllegalArgumentException.class, "SM2ParameterSpec(8192 bytes)", () -> new SM2ParameterSpec(new byte[8192]));
        expect(NullPointerException.class, "SM3.digest(null)", () -> SM3.digest(null));
        expect(IllegalArgumentException.class, "SM3.digest(bad range)", () -> SM3.digest(new byte[4], 3, 2));
        expect(IllegalArgumentException.class, "SM3.digest(negative offset)", () -> SM3.digest(new byte[4], -1, 2));

        // ---- key exchange
        expect(NullPointerException.class, "SM2KeyExchangeSpec(null keys)", () -> new SM2KeyExchangeSpec(true, null, null, null, null, 16));
        expect(IllegalArgumentException.class, "SM2KeyExchangeSpec(klen 0)", () -> new SM2KeyExchangeSpec(true, k, null, pk, null, 0));
        expect(InvalidKeyException.class, "SM2KeyExchange(null key)", () -> new SM2KeyExchange(true, null, null, pk, null, null));
        expect(InvalidKeyException.class, "SM2KeyExchange(destroyed)", () -> new SM2KeyExchange(true, dead, null, pk, null, null));
        expect(InvalidKeyException.class, "SM2KeyExchange(ID 9000)", () -> new SM2KeyExchange(true, k, new byte[9000], pk, null, null));
        SM2KeyExchange x = new SM2KeyExchange(true, k, null, pk, null, null);
        expect(IllegalStateException.class, "confirmation before computeKey", x::confirmation);
        expect(IllegalStateException.class, "verifyConfirmation before computeKey", () -> x.verifyConfirmation(new byte[32]));
        expect(NullPointerException.class, "computeKey(null)", () -> x.computeKey(null, 16));
        expect(InvalidKeyException.class, "computeKey(junk point)", () -> x.computeKey(junk(r, 65), 16));
        expect(InvalidKeyException.class, "computeKey(empty point)", () -> x.computeKey(new byte[0], 16));
        expect(IllegalArgumentException.class, "computeKey(klen 0)", () -> x.computeKey(pk.toPoint(), 0));
        SM2KeyExchange y = new SM2KeyExchange(false, k, null, pk, null, null);
        x.computeKey(y.ephemeralPoint(), 16);
        expect(GeneralSecurityException.class, "verifyConfirmation(5 bytes)", () -> x.verifyConfirmation(new byte[5]));
        expect(GeneralSecurityException.class, "verifyConfirmation(wrong)", () -> x.verifyConfirmation(new byte[32]));
        expect(NullPointerException.class, "verifyConfirmation(null)", () -> x.verifyConfirmation(null));
        x.close();
        expect(IllegalStateException.class, "computeKey after close", () -> x.computeKey(y.ephemeralPoint(), 16));

        // ---- the JCA services
        Signature s = Signature.getInstance("SM3withSM2", FS);
        expect(SignatureException.class, "update before init", () -> s.update(new byte[1]));
        expect(InvalidKeyException.class, "initSign(null)", () -> s.initSign(null));
        expect(InvalidKeyException.class, "initSign(P-256)", () -> s.initSign(p256.getPrivate()));
        expect(InvalidKeyException.class, "initSign(destroyed)", () -> s.initSign(dead));
        expect(InvalidKeyException.class, "initVerify(P-256)", () -> s.initVerify(p256.getPublic()));
        expect(InvalidAlgorithmParameterException.class, "setParameter(ECGenParameterSpec)",
                () -> s.setParameter(new ECGenParameterSpec("sm2p256v1")));
        s.initVerify(pk);
        s.update(new byte[3]);
        expect(SignatureException.class, "sign when initialised to verify", s::sign);
        for (byte[] bad : new byte[][] {new byte[0], {0x30, 0}, {0x30, 3, 2, 1, 1}, junk(r, 80), junk(r, 8)}) {
            s.initVerify(pk);
            s.update(new byte[3]);
            try {
                assertFalse(s.verify(bad));
            } catch (SignatureException expected) {
                ran.add("verify(malformed)");
            }
        }
        Signature raw = Signature.getInstance("SM3withSM2/raw", FS);
        raw.initVerify(pk);
        expect(SignatureException.class, "raw verify(63 bytes)", () -> raw.verify(new byte[63]));
        raw.initVerify(pk);
        assertFalse(raw.verify(new byte[64]), "r = s = 0 is false");

        Cipher c = Cipher.getInstance("SM2/C1C3C2/NoPadding", FS);
        expect(InvalidKeyException.class, "SM2 encrypt with a private key", () -> c.init(Cipher.ENCRYPT_MODE, k));
        expect(InvalidKeyException.class, "SM2 decrypt with a public key", () -> c.init(Cipher.DECRYPT_MODE, pk));
        expect(InvalidKeyException.class, "SM2 decrypt with a destroyed key", () -> c.init(Cipher.DECRYPT_MODE, dead));
        expect(InvalidAlgorithmParameterException.class, "SM2 with an IV",
                () -> c.init(Cipher.ENCRYPT_MODE, pk, new IvParameterSpec(new byte[16])));
        c.init(Cipher.ENCRYPT_MODE, pk);
        expect(IllegalBlockSizeException.class, "SM2 encrypt nothing", () -> c.doFinal(new byte[0]));
        c.init(Cipher.DECRYPT_MODE, k);
        for (int n : new int[] {0, 1, 96, 97, 98, 200})
            expect(BadPaddingException.class, "SM2 decrypt " + n + " bytes of junk", () -> c.doFinal(junk(r, n)));
        expect(ShortBufferException.class, "SM2 decrypt into a short buffer", () -> {
            Cipher e = Cipher.getInstance("SM2/C1C3C2/NoPadding", FS);
            e.init(Cipher.ENCRYPT_MODE, pk);
            byte[] ct = e.doFinal(new byte[20]);
            c.doFinal(ct, 0, ct.length, new byte[5], 0);
        });
        expect(NoSuchAlgorithmException.class, "SM2/CBC", () -> Cipher.getInstance("SM2/CBC/NoPadding", FS));
        expect(NoSuchPaddingException.class, "SM2 PKCS5Padding", () -> Cipher.getInstance("SM2/C1C3C2/PKCS5Padding", FS));

        KeyFactory f = KeyFactory.getInstance("SM2", FS);
        expect(InvalidKeySpecException.class, "generatePublic(null)", () -> f.generatePublic(null));
        expect(InvalidKeySpecException.class, "generatePublic(RSA spec)",
                () -> f.generatePublic(new RSAPublicKeySpec(BigInteger.TEN, BigInteger.ONE)));
        expect(InvalidKeySpecException.class, "generatePublic(empty X.509)", () -> f.generatePublic(new X509EncodedKeySpec(new byte[0])));
        expect(InvalidKeySpecException.class, "generatePrivate(empty PKCS#8)",
                () -> f.generatePrivate(new PKCS8EncodedKeySpec(new byte[0])));
        expect(InvalidKeySpecException.class, "generatePrivate(negative d)",
                () -> f.generatePrivate(new ECPrivateKeySpec(BigInteger.ONE.negate(), SM2Curve.SPEC)));
        expect(InvalidKeySpecException.class, "generatePrivate(d of 300 bits)",
                () -> f.generatePrivate(new ECPrivateKeySpec(BigInteger.ONE.shiftLeft(300), SM2Curve.SPEC)));
        expect(InvalidKeySpecException.class, "generatePublic(a point off the curve)",
                () -> f.generatePublic(new ECPublicKeySpec(new ECPoint(BigInteger.ONE, BigInteger.ONE), SM2Curve.SPEC)));
        expect(InvalidKeySpecException.class, "getKeySpec(RSA spec)", () -> f.getKeySpec(pk, RSAPublicKeySpec.class));
        expect(InvalidKeyException.class, "translateKey(AES)", () -> f.translateKey(new SecretKeySpec(new byte[16], "AES")));

        KeyAgreement ka = KeyAgreement.getInstance("SM2", FS);
        expect(InvalidKeyException.class, "KeyAgreement init without a spec", () -> ka.init(k));
        expect(IllegalStateException.class, "doPhase before init", () -> ka.doPhase(pk, true));
        ka.init(k, new SM2KeyExchangeSpec(true, SM2PrivateKey.generate(), null, pk, null, 16));
        expect(IllegalStateException.class, "generateSecret before doPhase", () -> ka.generateSecret());
        expect(InvalidKeyException.class, "doPhase(P-256 key)", () -> ka.doPhase(p256.getPublic(), true));
        expect(IllegalStateException.class, "doPhase(not last)", () -> ka.doPhase(pk, false));

        Mac mac = Mac.getInstance("HmacSM3", FS);
        expect(IllegalStateException.class, "Mac doFinal before init", () -> mac.doFinal());
        expect(InvalidKeyException.class, "Mac init(null)", () -> mac.init(null));
        expect(InvalidAlgorithmParameterException.class, "Mac init with an IV",
                () -> mac.init(new SecretKeySpec(new byte[4], "HmacSM3"), new IvParameterSpec(new byte[16])));
        MessageDigest md = MessageDigest.getInstance("SM3", FS);
        expect(DigestException.class, "digest into 31 bytes", () -> md.digest(new byte[31], 0, 31));

        KeyPairGenerator g = KeyPairGenerator.getInstance("SM2", FS);
        expect(InvalidParameterException.class, "SM2 initialize(255)", () -> g.initialize(255));
        expect(InvalidAlgorithmParameterException.class, "SM2 initialize(secp256r1)",
                () -> g.initialize(new ECGenParameterSpec("secp256r1")));

        // ---- SM4
        SecretKeySpec sk = new SecretKeySpec(junk(r, 16), "SM4");
        GCMParameterSpec g12 = new GCMParameterSpec(128, junk(r, 12));
        expect(IllegalStateException.class, "SM4 doFinal before init", () -> Cipher.getInstance("SM4/GCM/NoPadding", FS).doFinal());
        expect(InvalidKeyException.class, "SM4 init(null key)", () -> Cipher.getInstance("SM4", FS).init(Cipher.ENCRYPT_MODE, (Key) null));
        expect(InvalidKeyException.class, "SM4 with a 15-byte key",
                () -> Cipher.getInstance("SM4", FS).init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[15], "SM4")));
        expect(InvalidKeyException.class, "SM4 with an SM2 key", () -> Cipher.getInstance("SM4", FS).init(Cipher.ENCRYPT_MODE, k));
        expect(InvalidAlgorithmParameterException.class, "SM4/ECB with an IV",
                () -> Cipher.getInstance("SM4/ECB/NoPadding", FS).init(Cipher.ENCRYPT_MODE, sk, new IvParameterSpec(new byte[16])));
        expect(InvalidAlgorithmParameterException.class, "SM4/CBC with an 8-byte IV",
                () -> Cipher.getInstance("SM4/CBC/NoPadding", FS).init(Cipher.ENCRYPT_MODE, sk, new IvParameterSpec(new byte[8])));
        expect(InvalidAlgorithmParameterException.class, "SM4/GCM with a tag of 100 bits",
                () -> Cipher.getInstance("SM4/GCM/NoPadding", FS).init(Cipher.ENCRYPT_MODE, sk, new GCMParameterSpec(100, new byte[12])));
        expect(InvalidAlgorithmParameterException.class, "SM4/CCM with a 14-byte nonce",
                () -> Cipher.getInstance("SM4/CCM/NoPadding", FS).init(Cipher.ENCRYPT_MODE, sk, new GCMParameterSpec(128, new byte[14])));
        expect(InvalidAlgorithmParameterException.class, "SM4/CBC with an ECGenParameterSpec",
                () -> Cipher.getInstance("SM4/CBC/NoPadding", FS).init(Cipher.ENCRYPT_MODE, sk, new ECGenParameterSpec("x")));
        expect(InvalidKeyException.class, "SM4/GCM decryption without an IV",
                () -> Cipher.getInstance("SM4/GCM/NoPadding", FS).init(Cipher.DECRYPT_MODE, sk));
        expect(NoSuchPaddingException.class, "SM4/GCM/PKCS5Padding", () -> Cipher.getInstance("SM4/GCM/PKCS5Padding", FS));
        expect(NoSuchAlgorithmException.class, "SM4/XTS", () -> Cipher.getInstance("SM4/XTS/NoPadding", FS));
        Cipher gd = Cipher.getInstance("SM4/GCM/NoPadding", FS);
        for (int n : new int[] {0, 1, 15, 16, 17, 100}) {
            gd.init(Cipher.DECRYPT_MODE, sk, g12);
            expect(AEADBadTagException.class, "SM4/GCM decrypt " + n + " bytes of junk", () -> gd.doFinal(junk(r, n)));
        }
        Cipher cc = Cipher.getInstance("SM4/CCM/NoPadding", FS);
        cc.init(Cipher.DECRYPT_MODE, sk, g12);
        expect(AEADBadTagException.class, "SM4/CCM decrypt junk", () -> cc.doFinal(junk(r, 40)));
        Cipher cbcd = Cipher.getInstance("SM4/CBC/PKCS5Padding", FS);
        cbcd.init(Cipher.DECRYPT_MODE, sk, new IvParameterSpec(new byte[16]));
        expect(IllegalBlockSizeException.class, "SM4/CBC/PKCS5 decrypt 15 bytes", () -> cbcd.doFinal(new byte[15]));
        expect(IllegalBlockSizeException.class, "SM4/CBC/PKCS5 decrypt nothing", () -> cbcd.doFinal(new byte[0]));
        byte[] zeros16 = new byte[16];
        Cipher ecbe = Cipher.getInstance("SM4/ECB/NoPadding", FS);
        ecbe.init(Cipher.ENCRYPT_MODE, sk);
        byte[] badPad = ecbe.doFinal(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0}); // last byte 0
        Cipher ecbd = Cipher.getInstance("SM4/ECB/PKCS5Padding", FS);
        ecbd.init(Cipher.DECRYPT_MODE, sk);
        expect(BadPaddingException.class, "SM4/ECB/PKCS5 decrypt a block ending in 0", () -> ecbd.doFinal(badPad));
        expect(IllegalBlockSizeException.class, "SM4/ECB/NoPadding encrypt 15 bytes", () -> ecbe.doFinal(new byte[15]));
        expect(ShortBufferException.class, "SM4/ECB into a short buffer", () -> ecbe.doFinal(zeros16, 0, 16, new byte[15], 0));
        expect(UnsupportedOperationException.class, "SM4/ECB updateAAD", () -> ecbe.updateAAD(new byte[1]));
        expect(InvalidParameterException.class, "KeyGenerator SM4 init(192)", () -> KeyGenerator.getInstance("SM4", FS).init(192));
        expect(InvalidKeySpecException.class, "SecretKeyFactory SM4 of 8 bytes",
                () -> SecretKeyFactory.getInstance("SM4", FS).generateSecret(new SecretKeySpec(new byte[8], "SM4")));
        expect(java.io.IOException.class, "AlgorithmParameters SM4 of junk",
                () -> AlgorithmParameters.getInstance("SM4", FS).init(junk(r, 9)));
        expect(java.io.IOException.class, "AlgorithmParameters GCM of junk",
                () -> AlgorithmParameters.getInstance("GCM", FS).init(junk(r, 20)));
        expect(InvalidParameterSpecException.class, "AlgorithmParameters SM4 as a GCMParameterSpec", () -> {
            AlgorithmParameters ap = AlgorithmParameters.getInstance("SM4", FS);
            ap.init(new IvParameterSpec(new byte[16]));
            ap.getParameterSpec(GCMParameterSpec.class);
        });

        // random and mutated bytes through every parser
        byte[] goodCt;
        Cipher e = Cipher.getInstance("SM2/DER/NoPadding", FS);
        e.init(Cipher.ENCRYPT_MODE, pk);
        goodCt = e.doFinal(new byte[40]);
        byte[][] seeds = {goodCt, k.getEncoded(), pk.getEncoded(), k.toPem().getBytes(StandardCharsets.US_ASCII), encrypted, sigs[0]};
        for (int i = 0; i < 2000; i++) {
            byte[] in = seeds[i % seeds.length].clone();
            for (int j = 1 + r.nextInt(3); j > 0; j--) in[r.nextInt(in.length)] ^= (byte) (1 << r.nextInt(8));
            if (i % 7 == 0) in = Arrays.copyOf(in, r.nextInt(in.length + 1));
            byte[] b = in;
            try {
                SM2.loadPrivateKey(b, i % 2 == 0 ? null : "pw".toCharArray()).destroy();
            } catch (InvalidKeySpecException ok) {
                // expected for nearly all
            }
            try {
                SM2.loadPublicKey(b);
            } catch (InvalidKeySpecException ok) {
                // expected for nearly all
            }
            Cipher d = Cipher.getInstance("SM2/DER/NoPadding", FS);
            d.init(Cipher.DECRYPT_MODE, k);
            try {
                d.doFinal(b);
            } catch (BadPaddingException ok) {
                // expected
            }
        }
        System.out.println("bad-input corpus: " + ran.size() + " hostile calls, 2000 mutated inputs x 3 parsers");
        knownAnswersStillRight();
    }

    static byte[] filled(int n, int v) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) v);
        return b;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** GB/T 32918.2 A.2 (signature), 32918.4 A.2 (encryption), 32918.3 (key
     *  exchange) from tests/vectors, GB/T 32905 A.1 (SM3), GB/T 32907 A.1 (SM4). */
    static void knownAnswersStillRight() throws Exception {
        Map<String, List<String[]>> v = Vectors.load();
        List<String[]> sv = v.get("sign");
        SM2PrivateKey d = SM2PrivateKey.fromBytes(Vectors.hex(Vectors.get(sv, "d")));
        byte[] id = Vectors.get(sv, "id_ascii").getBytes(StandardCharsets.US_ASCII);
        byte[] msg = Vectors.get(sv, "msg_ascii").getBytes(StandardCharsets.US_ASCII);
        byte[] sig = concat(Vectors.hex(Vectors.get(sv, "r")), Vectors.hex(Vectors.get(sv, "s")));
        Signature s = Signature.getInstance("SM3withSM2/raw", FS);
        s.setParameter(new SM2ParameterSpec(id));
        s.initVerify(d.getPublicKey());
        s.update(msg);
        assertTrue(s.verify(sig), "GB/T 32918.2 signature");
        List<String[]> ev = v.get("encrypt");
        byte[] ct = concat(concat(Vectors.hex(Vectors.get(ev, "C1")), Vectors.hex(Vectors.get(ev, "C3"))),
                Vectors.hex(Vectors.get(ev, "C2")));
        Cipher c = Cipher.getInstance("SM2/C1C3C2/NoPadding", FS);
        c.init(Cipher.DECRYPT_MODE, d);
        assertArrayEquals(Vectors.get(ev, "msg_ascii").getBytes(StandardCharsets.US_ASCII), c.doFinal(ct),
                "GB/T 32918.4 decryption");
        List<String[]> kv = v.get("key_exchange");
        SM2PrivateKey dA = SM2PrivateKey.fromBytes(Vectors.hex(Vectors.get(kv, "dA")));
        SM2PrivateKey dB = SM2PrivateKey.fromBytes(Vectors.hex(Vectors.get(kv, "dB")));
        try (SM2KeyExchange a = new SM2KeyExchange(true, dA, null, dB.getPublicKey(), null,
                SM2PrivateKey.fromBytes(Vectors.hex(Vectors.get(kv, "rA"))));
             SM2KeyExchange b = new SM2KeyExchange(false, dB, null, dA.getPublicKey(), null,
                     SM2PrivateKey.fromBytes(Vectors.hex(Vectors.get(kv, "rB"))))) {
            assertArrayEquals(Vectors.hex(Vectors.get(kv, "K")), a.computeKey(b.ephemeralPoint(), 16), "GB/T 32918.3 K");
        }
        assertArrayEquals(Vectors.hex("66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0"),
                MessageDigest.getInstance("SM3", FS).digest("abc".getBytes(StandardCharsets.US_ASCII)), "GB/T 32905 A.1");
        byte[] k32907 = Vectors.hex("0123456789abcdeffedcba9876543210");
        Cipher ecb = Cipher.getInstance("SM4/ECB/NoPadding", FS);
        ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(k32907, "SM4"));
        assertArrayEquals(Vectors.hex("681edf34d206965e86b3e94f536e4246"), ecb.doFinal(k32907), "GB/T 32907 A.1");
    }
}
