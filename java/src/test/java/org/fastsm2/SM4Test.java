// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import static org.junit.jupiter.api.Assertions.*;

import java.security.*;
import java.security.spec.InvalidKeySpecException;
import java.util.*;
import java.util.concurrent.Callable;
import javax.crypto.*;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SM4 in the provider against BouncyCastle's, byte for byte, both ways:
 * every mode and padding, random lengths, one-shot and in pieces, AAD,
 * every tag length; the exceptions of bad input the same as
 * BouncyCastle's (tag and padding failures, wrong IV lengths); the
 * standards' examples; KeyGenerator, SecretKeyFactory, AlgorithmParameters.
 */
class SM4Test {
    static final String FS = "FastSM2", BC = "BC";
    static final Random RND = new Random(0x5347);
    static final String[] MODES = {"ECB", "CBC", "CTR", "OFB", "CFB", "GCM", "CCM"};
    static final String[] PADS = {"NoPadding", "PKCS5Padding", "PKCS7Padding"};

    @BeforeAll
    static void providers() {
        if (Security.getProvider(BC) == null) Security.addProvider(new BouncyCastleProvider());
        if (Security.getProvider(FS) == null) Security.addProvider(new FastSM2Provider());
    }

    static byte[] rnd(int n) {
        byte[] b = new byte[n];
        RND.nextBytes(b);
        return b;
    }

    static byte[] hex(String s) {
        return Vectors.hex(s.replace(" ", ""));
    }

    static boolean aead(String m) {
        return m.equals("GCM") || m.equals("CCM");
    }

    static boolean blockMode(String m) {
        return m.equals("ECB") || m.equals("CBC");
    }

    /** Parameters both providers take for a mode (null for ECB). */
    static java.security.spec.AlgorithmParameterSpec params(String mode) {
        switch (mode) {
            case "ECB": return null;
            case "GCM": {
                int[] tags = {128, 120, 112, 104, 96, 64, 32};
                int[] ivs = {12, 12, 12, 1, 8, 16, 60};
                return new GCMParameterSpec(tags[RND.nextInt(tags.length)], rnd(ivs[RND.nextInt(ivs.length)]));
            }
            case "CCM": return new GCMParameterSpec(32 + 16 * RND.nextInt(7), rnd(7 + RND.nextInt(7)));
            case "CTR": return new IvParameterSpec(rnd(8 + RND.nextInt(9)));
            default: return new IvParameterSpec(rnd(16));
        }
    }

    static Cipher cipher(String prov, String tr, int op, Key k, java.security.spec.AlgorithmParameterSpec p) throws Exception {
        Cipher c = Cipher.getInstance(tr, prov);
        if (p == null) c.init(op, k);
        else c.init(op, k, p);
        return c;
    }

    /** The message through c in random pieces (update, update(out), doFinal variants). */
    static byte[] inPieces(Cipher c, byte[] m) throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int off = 0;
        while (off < m.length && RND.nextInt(4) != 0) {
            int n = Math.min(m.length - off, RND.nextInt(40));
            if (RND.nextBoolean()) {
                byte[] r = c.update(m, off, n);
                if (r != null) out.write(r);
            } else {
                byte[] buf = new byte[c.getOutputSize(n) + 3];
                int w = c.update(m, off, n, buf, 3);
                out.write(buf, 3, w);
            }
            off += n;
        }
        if (RND.nextBoolean()) {
            out.write(c.doFinal(m, off, m.length - off));
        } else {
            byte[] buf = new byte[c.getOutputSize(m.length - off) + 5];
            int w = c.doFinal(m, off, m.length - off, buf, 5);
            out.write(buf, 5, w);
        }
        return out.toByteArray();
    }

    @Test
    void everyModeAndPaddingBothWaysWithBouncyCastle() throws Exception {
        int cases = 0;
        for (String mode : MODES) {
            for (String pad : PADS) {
                if (aead(mode) && !pad.equals("NoPadding")) continue;
                String tr = "SM4/" + mode + "/" + pad;
                for (int t = 0; t < 24; t++) {
                    SecretKey k = new SecretKeySpec(rnd(16), "SM4");
                    int len = t < 4 ? new int[] {0, 1, 16, 17}[t] : RND.nextInt(t < 20 ? 100 : 5000);
                    if (!pad.equals("NoPadding") || !blockMode(mode)) len = len + 0;
                    else len = len / 16 * 16; // NoPadding: whole blocks
                    byte[] m = rnd(len);
                    java.security.spec.AlgorithmParameterSpec p = params(mode);
                    byte[] aadBytes = aead(mode) && RND.nextBoolean() ? rnd(RND.nextInt(70)) : null;
                    // ours encrypts (one-shot or in pieces), BouncyCastle decrypts
                    Cipher e = cipher(FS, tr, Cipher.ENCRYPT_MODE, k, p);
                    if (aadBytes != null) e.updateAAD(aadBytes);
                    byte[] ct = t % 2 == 0 ? e.doFinal(m) : inPieces(e, m);
                    Cipher bd = cipher(BC, tr, Cipher.DECRYPT_MODE, k, p);
                    if (aadBytes != null) bd.updateAAD(aadBytes);
                    assertArrayEquals(m, bd.doFinal(ct), tr + " len " + len + ": BouncyCastle decrypts ours");
                    // BouncyCastle encrypts, ours decrypts; and the bytes are the same
                    Cipher be = cipher(BC, tr, Cipher.ENCRYPT_MODE, k, p);
                    if (aadBytes != null) be.updateAAD(aadBytes);
                    byte[] bct = be.doFinal(m);
                    assertArrayEquals(bct, ct, tr + " len " + len + ": the same bytes as BouncyCastle");
                    Cipher d = cipher(FS, tr, Cipher.DECRYPT_MODE, k, p);
                    if (aadBytes != null) d.updateAAD(aadBytes);
                    assertArrayEquals(m, t % 3 == 0 ? inPieces(d, bct) : d.doFinal(bct), tr + " len " + len + ": ours decrypts BouncyCastle's");
                    // the same Cipher again (not for AEAD encryption: a new IV is needed); AAD is per message
                    if (aadBytes != null) d.updateAAD(aadBytes);
                    assertArrayEquals(m, d.doFinal(bct), tr + ": reusable after doFinal");
                    cases++;
                }
            }
        }
        // the names without a mode: BouncyCastle's defaults
        SecretKey k = new SecretKeySpec(rnd(16), "SM4");
        byte[] m = rnd(33);
        assertArrayEquals(cipher(BC, "SM4", Cipher.ENCRYPT_MODE, k, null).doFinal(m),
                cipher(FS, "SM4", Cipher.ENCRYPT_MODE, k, null).doFinal(m), "SM4 = SM4/ECB/PKCS7Padding");
        GCMParameterSpec g = new GCMParameterSpec(128, rnd(12));
        for (String alias : new String[] {"SM4-GCM", "1.2.156.10197.1.104.8", "OID.1.2.156.10197.1.104.8"})
            assertArrayEquals(cipher(BC, "SM4-GCM", Cipher.ENCRYPT_MODE, k, g).doFinal(m),
                    cipher(FS, alias, Cipher.ENCRYPT_MODE, k, g).doFinal(m), alias);
        GCMParameterSpec c = new GCMParameterSpec(128, rnd(12));
        for (String alias : new String[] {"SM4-CCM", "1.2.156.10197.1.104.9"})
            assertArrayEquals(cipher(BC, "SM4-CCM", Cipher.ENCRYPT_MODE, k, c).doFinal(m),
                    cipher(FS, alias, Cipher.ENCRYPT_MODE, k, c).doFinal(m), alias);
        System.out.println("sm4: " + cases + " interop cases with BouncyCastle");
    }

    /** tests/vectors/sm4-examples.txt: GB/T 32907 appendix A (and the million-fold encryption), RFC 8998
     *  A.1 and A.2, and GCM and CCM cases of every IV, nonce and tag length (empty messages, AAD only,
     *  65,280 bytes of AAD, IVs of 1 to 200 bytes): encrypted and decrypted through the provider. */
    @Test
    void standardsExamples() throws Exception {
        int n = 0;
        for (Map.Entry<String, List<String[]>> sec : Vectors.load("sm4-examples.txt").entrySet()) {
            String name = sec.getKey();
            List<String[]> v = sec.getValue();
            if (name.startsWith("sm4-xts")) continue; // no XTS Cipher in the JCA provider
            SecretKey k = new SecretKeySpec(hex(Vectors.get(v, "key")), "SM4");
            byte[] pt = hex(Vectors.get(v, "plaintext")), want = hex(Vectors.get(v, "ciphertext"));
            if (name.startsWith("sm4-block")) {
                Cipher ecb = cipher(FS, "SM4/ECB/NoPadding", Cipher.ENCRYPT_MODE, k, null);
                byte[] b = pt.clone();
                // A.2 (1,000,000 chained calls, ~8 s here) once per make test-java: build.sh's run on the
                // second JDK sets fastsm2.test.a2=false (the C tests run A.2 natively as well)
                if (name.endsWith("a2") && "false".equals(System.getProperty("fastsm2.test.a2"))) continue;
                int times = name.endsWith("a2") ? Integer.parseInt(Vectors.get(v, "times")) : 1;
                for (int i = 0; i < times; i++) ecb.doFinal(b, 0, 16, b, 0);
                assertArrayEquals(want, b, name);
                n++;
                continue;
            }
            byte[] aad = new byte[0];
            for (String[] kv : v) {
                if (kv[0].equals("aad")) aad = hex(kv[1]);
                if (kv[0].equals("aad_seq")) {
                    aad = new byte[Integer.parseInt(kv[1])];
                    for (int i = 0; i < aad.length; i++) aad[i] = (byte) i;
                }
            }
            byte[] tag = hex(Vectors.get(v, "tag"));
            GCMParameterSpec p = new GCMParameterSpec(8 * tag.length, hex(Vectors.get(v, "iv")));
            String tr = name.startsWith("sm4-gcm") ? "SM4/GCM/NoPadding" : "SM4/CCM/NoPadding";
            byte[] sealed = Arrays.copyOf(want, want.length + tag.length);
            System.arraycopy(tag, 0, sealed, want.length, tag.length);
            Cipher e = cipher(FS, tr, Cipher.ENCRYPT_MODE, k, p);
            if (aad.length > 0) e.updateAAD(aad);
            assertArrayEquals(sealed, e.doFinal(pt), name + " encryption");
            Cipher d = cipher(FS, tr, Cipher.DECRYPT_MODE, k, p);
            if (aad.length > 0) d.updateAAD(aad);
            assertArrayEquals(pt, d.doFinal(sealed), name + " decryption");
            n++;
        }
        assertTrue(n >= ("false".equals(System.getProperty("fastsm2.test.a2")) ? 18 : 19), "the known answers read: " + n);
        System.out.println("sm4: " + n + " known answers of tests/vectors/sm4-examples.txt");
    }

    /** The class of what a call throws (null: nothing). */
    static Class<?> thrown(Callable<?> c) {
        try {
            c.call();
            return null;
        } catch (Throwable t) {
            return t.getClass();
        }
    }

    @Test
    void badInputThrowsWhatBouncyCastleThrows() throws Exception {
        SecretKey k = new SecretKeySpec(rnd(16), "SM4");
        int compared = 0;
        for (String mode : MODES) {
            String tr = "SM4/" + mode + "/NoPadding";
            // IV lengths 0 to 20 through IvParameterSpec, and GCMParameterSpec's tag lengths
            for (int n = 0; n <= 20; n++) {
                IvParameterSpec p = new IvParameterSpec(new byte[n]);
                for (int op : new int[] {Cipher.ENCRYPT_MODE, Cipher.DECRYPT_MODE}) {
                    Class<?> ours = thrown(() -> cipher(FS, tr, op, k, p));
                    Class<?> theirs = thrown(() -> cipher(BC, tr, op, k, p));
                    assertEquals(theirs, ours, tr + " IV of " + n + " bytes, op " + op);
                    compared++;
                }
            }
            for (int bits : new int[] {0, 24, 32, 48, 64, 72, 96, 100, 104, 112, 120, 128, 136, 256}) {
                GCMParameterSpec g = new GCMParameterSpec(bits, new byte[12]);
                assertEquals(thrown(() -> cipher(BC, tr, Cipher.ENCRYPT_MODE, k, g)),
                        thrown(() -> cipher(FS, tr, Cipher.ENCRYPT_MODE, k, g)), tr + " tag of " + bits + " bits");
                compared++;
            }
            // decryption without an IV: InvalidKeyException (from init(mode, key)), as BouncyCastle
            assertEquals(thrown(() -> cipher(BC, tr, Cipher.DECRYPT_MODE, k, null)),
                    thrown(() -> cipher(FS, tr, Cipher.DECRYPT_MODE, k, null)), tr + " decryption without an IV");
        }
        // paddings refused for AEAD, accepted elsewhere
        for (String mode : MODES)
            for (String pad : PADS) {
                String tr = "SM4/" + mode + "/" + pad;
                assertEquals(thrown(() -> Cipher.getInstance(tr, BC)), thrown(() -> Cipher.getInstance(tr, FS)), tr);
            }
        assertThrows(NoSuchAlgorithmException.class, () -> Cipher.getInstance("SM4/XTS/NoPadding", FS));
        assertThrows(NoSuchPaddingException.class, () -> Cipher.getInstance("SM4/CBC/ISO10126Padding", FS));
        // tag failures, truncated tags, bad padding, partial blocks: the same exception classes
        GCMParameterSpec g = new GCMParameterSpec(128, rnd(12));
        IvParameterSpec iv = new IvParameterSpec(rnd(16));
        for (String tr : new String[] {"SM4/GCM/NoPadding", "SM4/CCM/NoPadding", "SM4/CBC/PKCS5Padding",
                "SM4/ECB/PKCS7Padding", "SM4/CBC/NoPadding", "SM4/CTR/PKCS5Padding"}) {
            java.security.spec.AlgorithmParameterSpec p = tr.contains("ECB") ? null : tr.contains("CM/") ? g : iv;
            byte[] ct = cipher(BC, tr, Cipher.ENCRYPT_MODE, k, p).doFinal(rnd(45 / 16 * 16));
            for (int i = 0; i < ct.length; i += 7) {
                byte[] bad = ct.clone();
                bad[i] ^= 1;
                Class<?> ours = thrown(() -> cipher(FS, tr, Cipher.DECRYPT_MODE, k, p).doFinal(bad));
                Class<?> theirs = thrown(() -> cipher(BC, tr, Cipher.DECRYPT_MODE, k, p).doFinal(bad));
                if (tr.contains("CM/")) assertEquals(AEADBadTagException.class, ours, tr + " byte " + i);
                if (theirs != null || !tr.contains("PKCS")) assertEquals(theirs, ours, tr + " changed byte " + i);
                else assertTrue(ours == null || ours == BadPaddingException.class, tr + " changed byte " + i);
            }
            for (int n : new int[] {0, 1, 5, 15, 17, 31}) {
                byte[] shortCt = Arrays.copyOf(ct, Math.min(n, ct.length));
                assertEquals(thrown(() -> cipher(BC, tr, Cipher.DECRYPT_MODE, k, p).doFinal(shortCt)),
                        thrown(() -> cipher(FS, tr, Cipher.DECRYPT_MODE, k, p).doFinal(shortCt)), tr + " " + n + " bytes");
            }
        }
        // keys of other lengths
        for (int n : new int[] {0, 8, 15, 17, 24, 32}) {
            if (n == 0) continue;
            SecretKey bad = new SecretKeySpec(new byte[n], "SM4");
            assertThrows(InvalidKeyException.class, () -> cipher(FS, "SM4/CBC/NoPadding", Cipher.ENCRYPT_MODE, bad,
                    new IvParameterSpec(new byte[16])), n + "-byte key");
        }
        assertThrows(InvalidKeyException.class, () -> cipher(FS, "SM4/ECB/NoPadding", Cipher.ENCRYPT_MODE,
                SM2PrivateKey.generate(), null), "an SM2 key");
        System.out.println("sm4: " + compared + " IV and tag lengths compared with BouncyCastle");
    }

    @Test
    void aeadRulesAndStreaming() throws Exception {
        SecretKey k = new SecretKeySpec(rnd(16), "SM4");
        for (String mode : new String[] {"GCM", "CCM"}) {
            String tr = "SM4/" + mode + "/NoPadding";
            GCMParameterSpec p = new GCMParameterSpec(128, rnd(12));
            Cipher e = cipher(FS, tr, Cipher.ENCRYPT_MODE, k, p);
            e.updateAAD(rnd(3));
            byte[] ct = e.doFinal(rnd(40));
            // an AEAD encryption is not repeated with the same IV
            assertThrows(IllegalStateException.class, () -> e.doFinal(new byte[3]), mode + " reused");
            assertThrows(InvalidAlgorithmParameterException.class, () -> e.init(Cipher.ENCRYPT_MODE, k, p), mode + " same IV");
            e.init(Cipher.ENCRYPT_MODE, k, new GCMParameterSpec(128, rnd(12)));
            e.doFinal(new byte[3]);
            // AAD after data
            Cipher d = cipher(FS, tr, Cipher.DECRYPT_MODE, k, p);
            d.update(ct, 0, 10);
            assertThrows(IllegalStateException.class, () -> d.updateAAD(new byte[1]), mode + " AAD after data");
            // decryption releases nothing before the tag: update returns nothing
            Cipher d2 = cipher(FS, tr, Cipher.DECRYPT_MODE, k, p);
            byte[] u = d2.update(ct, 0, ct.length - 1);
            assertTrue(u == null || u.length == 0, mode + " decryption: nothing before the tag");
            assertThrows(AEADBadTagException.class, () -> d2.doFinal(new byte[] {0}), mode + " wrong AAD");
        }
        // AAD in a non-AEAD mode
        Cipher cbc = cipher(FS, "SM4/CBC/NoPadding", Cipher.ENCRYPT_MODE, k, new IvParameterSpec(rnd(16)));
        assertThrows(UnsupportedOperationException.class, () -> cbc.updateAAD(new byte[1]));
        // GCM encryption in pieces with AAD in pieces equals BouncyCastle's one-shot
        GCMParameterSpec p = new GCMParameterSpec(112, rnd(13));
        byte[] aad = rnd(50), m = rnd(1000);
        Cipher e = cipher(FS, "SM4/GCM/NoPadding", Cipher.ENCRYPT_MODE, k, p);
        e.updateAAD(aad, 0, 20);
        e.updateAAD(java.nio.ByteBuffer.wrap(aad, 20, 30));
        byte[] ours = inPieces(e, m);
        Cipher b = cipher(BC, "SM4/GCM/NoPadding", Cipher.ENCRYPT_MODE, k, p);
        b.updateAAD(aad);
        assertArrayEquals(b.doFinal(m), ours);
        // in place: the same array as input and output
        byte[] buf = Arrays.copyOf(m, m.length + 16);
        Cipher e2 = cipher(FS, "SM4/GCM/NoPadding", Cipher.ENCRYPT_MODE, k, new GCMParameterSpec(128, new byte[12]));
        assertEquals(m.length + 16, e2.doFinal(buf, 0, m.length, buf, 0));
        Cipher d2 = cipher(FS, "SM4/GCM/NoPadding", Cipher.DECRYPT_MODE, k, new GCMParameterSpec(128, new byte[12]));
        assertEquals(m.length, d2.doFinal(buf, 0, buf.length, buf, 0));
        assertArrayEquals(m, Arrays.copyOf(buf, m.length), "GCM in place");
        byte[] cb = Arrays.copyOf(m, 1024 + 16);
        Cipher c1 = cipher(FS, "SM4/CBC/PKCS5Padding", Cipher.ENCRYPT_MODE, k, new IvParameterSpec(new byte[16]));
        int w = c1.doFinal(cb, 0, 1000, cb, 8); // overlapping, shifted
        Cipher c2 = cipher(FS, "SM4/CBC/PKCS5Padding", Cipher.DECRYPT_MODE, k, new IvParameterSpec(new byte[16]));
        assertArrayEquals(m, c2.doFinal(cb, 8, w), "CBC with overlapping input and output");
        // short output buffers
        Cipher c3 = cipher(FS, "SM4/GCM/NoPadding", Cipher.ENCRYPT_MODE, k, new GCMParameterSpec(128, rnd(12)));
        assertThrows(ShortBufferException.class, () -> c3.doFinal(m, 0, m.length, new byte[m.length + 15], 0));
        assertEquals(m.length + 16, c3.doFinal(m, 0, m.length, new byte[m.length + 16], 0), "usable after ShortBufferException");
        // CTR with a short IV: the counter stays in its bytes, as BouncyCastle
        Cipher ctr = cipher(FS, "SM4/CTR/NoPadding", Cipher.ENCRYPT_MODE, k, new IvParameterSpec(new byte[15]));
        ctr.doFinal(new byte[256 * 16]);
        assertThrows(IllegalStateException.class, () -> ctr.doFinal(new byte[256 * 16 + 1]));
        // wrap and unwrap
        Cipher wr = Cipher.getInstance("SM4/ECB/PKCS5Padding", FS);
        wr.init(Cipher.WRAP_MODE, k);
        SecretKey aes = new SecretKeySpec(rnd(32), "AES");
        byte[] wrapped = wr.wrap(aes);
        Cipher bu = Cipher.getInstance("SM4/ECB/PKCS5Padding", BC);
        bu.init(Cipher.UNWRAP_MODE, k);
        assertEquals(aes, bu.unwrap(wrapped, "AES", Cipher.SECRET_KEY));
        wr.init(Cipher.UNWRAP_MODE, k);
        assertEquals(aes, wr.unwrap(wrapped, "AES", Cipher.SECRET_KEY));
    }

    @Test
    void keysAndParameters() throws Exception {
        KeyGenerator g = KeyGenerator.getInstance("SM4", FS);
        SecretKey k = g.generateKey();
        assertEquals("SM4", k.getAlgorithm());
        assertEquals("RAW", k.getFormat());
        assertEquals(16, k.getEncoded().length);
        assertFalse(Arrays.equals(k.getEncoded(), g.generateKey().getEncoded()));
        g.init(128);
        assertThrows(InvalidParameterException.class, () -> g.init(256));
        for (String alias : new String[] {"1.2.156.10197.1.104.8", "1.2.156.10197.1.104.9"})
            assertEquals(16, KeyGenerator.getInstance(alias, FS).generateKey().getEncoded().length);
        // a key of ours works in BouncyCastle and the reverse
        SecretKey bk = KeyGenerator.getInstance("SM4", BC).generateKey();
        byte[] m = rnd(77);
        assertArrayEquals(cipher(BC, "SM4", Cipher.ENCRYPT_MODE, k, null).doFinal(m), cipher(FS, "SM4", Cipher.ENCRYPT_MODE, k, null).doFinal(m));
        assertArrayEquals(m, cipher(FS, "SM4", Cipher.DECRYPT_MODE, bk, null).doFinal(cipher(BC, "SM4", Cipher.ENCRYPT_MODE, bk, null).doFinal(m)));
        // SecretKeyFactory
        SecretKeyFactory f = SecretKeyFactory.getInstance("SM4", FS);
        SecretKey s = f.generateSecret(new SecretKeySpec(k.getEncoded(), "whatever"));
        assertEquals("SM4", s.getAlgorithm());
        assertArrayEquals(k.getEncoded(), s.getEncoded());
        assertArrayEquals(k.getEncoded(), ((SecretKeySpec) f.getKeySpec(s, SecretKeySpec.class)).getEncoded());
        assertArrayEquals(k.getEncoded(), f.translateKey(bk.getAlgorithm().equals("SM4") ? k : k).getEncoded());
        assertThrows(InvalidKeySpecException.class, () -> f.generateSecret(new SecretKeySpec(new byte[15], "SM4")));
        assertThrows(InvalidKeySpecException.class, () -> f.generateSecret(new javax.crypto.spec.PBEKeySpec("x".toCharArray())));
        assertThrows(InvalidKeyException.class, () -> f.translateKey(new SecretKeySpec(new byte[32], "AES")));
        // AlgorithmParameters: the encodings BouncyCastle writes, read both ways
        for (String mode : new String[] {"CBC", "CTR", "GCM", "CCM"}) {
            for (int t = 0; t < 6; t++) {
                // RFC 5084's GCMParameters hold tags of 12 to 16 bytes (BouncyCastle encodes no other)
                java.security.spec.AlgorithmParameterSpec p = mode.equals("CTR") ? new IvParameterSpec(rnd(16))
                        : aead(mode) ? new GCMParameterSpec(96 + 16 * RND.nextInt(3), rnd(mode.equals("GCM") ? 12 : 7 + RND.nextInt(7)))
                        : params(mode);
                Cipher ours = cipher(FS, "SM4/" + mode + "/NoPadding", Cipher.ENCRYPT_MODE, k, p);
                Cipher theirs = cipher(BC, "SM4/" + mode + "/NoPadding", Cipher.ENCRYPT_MODE, k, p);
                AlgorithmParameters op = ours.getParameters(), tp = theirs.getParameters();
                assertEquals(tp.getAlgorithm(), op.getAlgorithm(), mode + " parameters' name");
                assertArrayEquals(tp.getEncoded(), op.getEncoded(), mode + " parameters' encoding");
                AlgorithmParameters back = AlgorithmParameters.getInstance(op.getAlgorithm().equals("SM4") ? "SM4" : "SM4-" + mode, FS);
                back.init(tp.getEncoded());
                assertArrayEquals(op.getEncoded(), back.getEncoded());
                // init(AlgorithmParameters) of the other provider's parameters
                Cipher d = Cipher.getInstance("SM4/" + mode + "/NoPadding", FS);
                d.init(Cipher.DECRYPT_MODE, k, tp);
                byte[] m2 = rnd(32);
                Cipher te = Cipher.getInstance("SM4/" + mode + "/NoPadding", BC);
                te.init(Cipher.ENCRYPT_MODE, k, tp);
                assertArrayEquals(m2, d.doFinal(te.doFinal(m2)), mode + " init with BouncyCastle's parameters");
            }
        }
        AlgorithmParameters a = AlgorithmParameters.getInstance("SM4-GCM", FS);
        assertThrows(java.io.IOException.class, () -> a.init(new byte[] {0x30, 0x03, 0x04, 0x01}));
        assertThrows(java.io.IOException.class, () -> a.init(new byte[] {0x30, 0x05, 0x04, 0x01, 0x00, 0x02, 0x01, 0x0c}));
        // encryption without parameters: a random IV of the mode's length
        for (String mode : new String[] {"CBC", "CTR", "OFB", "CFB", "GCM", "CCM"}) {
            Cipher c = Cipher.getInstance("SM4/" + mode + "/NoPadding", FS);
            c.init(Cipher.ENCRYPT_MODE, k);
            assertEquals(aead(mode) ? 12 : 16, c.getIV().length, mode);
            byte[] m2 = rnd(48);
            byte[] ct = c.doFinal(m2);
            java.security.spec.AlgorithmParameterSpec ps = aead(mode) ? c.getParameters().getParameterSpec(GCMParameterSpec.class)
                    : c.getParameters().getParameterSpec(IvParameterSpec.class);
            assertArrayEquals(m2, cipher(BC, "SM4/" + mode + "/NoPadding", Cipher.DECRYPT_MODE, k, ps).doFinal(ct));
        }
        assertNull(cipher(FS, "SM4/ECB/NoPadding", Cipher.ENCRYPT_MODE, k, null).getIV());
    }
}
