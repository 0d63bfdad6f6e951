// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.spark;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Locale;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * sm4_encrypt, sm4_decrypt and try_sm4_decrypt: Spark's aes_encrypt,
 * aes_decrypt and try_aes_decrypt with SM4 (GB/T 32907) in their place,
 * through the FastSM2 provider's Cipher "SM4":
 * <pre>
 *   mode  padding            output of sm4_encrypt (the input of sm4_decrypt)
 *   GCM   NONE | DEFAULT     IV (12 bytes) || ciphertext || tag (16 bytes)   the default
 *   CBC   PKCS | DEFAULT     IV (16 bytes) || ciphertext (PKCS#7-padded)
 *   ECB   PKCS | DEFAULT     ciphertext (PKCS#7-padded)
 * </pre>
 * The key is 16 bytes; an IV left out (or empty) is random; AAD is GCM's
 * only. Mode and padding are matched without regard to case. A null
 * argument gives null. What aes_decrypt refuses with an error, these
 * refuse with an error (IllegalArgumentException, naming the function and
 * the cause, never the key): a key that is not 16 bytes, a mode and padding
 * not in the table, an IV of the wrong length (or one given to ECB), AAD
 * given to CBC or ECB, and in decryption anything that does not decrypt
 * (a tag that does not match - a wrong key, a tampered row, a wrong AAD -,
 * bad padding, a truncated input); try_sm4_decrypt gives null instead.
 */
final class Sm4Rows {
    private Sm4Rows() {}

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int GCM = 0, CBC = 1, ECB = 2;
    private static final String[] TRANSFORMATIONS = {"SM4/GCM/NoPadding", "SM4/CBC/PKCS5Padding", "SM4/ECB/PKCS5Padding"};
    private static final int[] IV_LENGTHS = {12, 16, 0};

    /** Thrown for what the function refuses (try_sm4_decrypt turns it into null). */
    static final class Refused extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Refused(String m, Throwable cause) {
            super(m, cause);
        }
    }

    private static int mode(String fn, String mode, String padding) {
        String m = mode.toUpperCase(Locale.ROOT), p = padding.toUpperCase(Locale.ROOT);
        boolean def = p.equals("DEFAULT");
        if (m.equals("GCM") && (def || p.equals("NONE"))) return GCM;
        if (m.equals("CBC") && (def || p.equals("PKCS"))) return CBC;
        if (m.equals("ECB") && (def || p.equals("PKCS"))) return ECB;
        throw new Refused(fn + ": SM4-" + mode + " with the padding " + padding + " is not supported: (GCM, NONE),"
                + " (CBC, PKCS) and (ECB, PKCS) are, and DEFAULT is NONE for GCM, PKCS for the others", null);
    }

    /** The task's SecretKeySpec for these key bytes: the Cipher expands a key once, not per row. */
    private static SecretKeySpec key(Rows.State st, String fn, byte[] k) {
        if (k.length != 16) throw new Refused(fn + ": an SM4 key is 16 bytes, not " + k.length, null);
        if (!st.inTask) return new SecretKeySpec(k, "SM4");
        ByteBuffer b = ByteBuffer.wrap(k);
        Object v = st.sm4Keys.get(b);
        if (v == null) {
            byte[] copy = k.clone();
            v = new SecretKeySpec(copy, "SM4");
            st.sm4Keys.put(ByteBuffer.wrap(copy), v);
        }
        return (SecretKeySpec) v;
    }

    private static Cipher cipher(Rows.State st, int mode, boolean enc) throws GeneralSecurityException {
        int i = 2 * mode + (enc ? 0 : 1);
        Cipher c = st.sm4Ciphers[i];
        if (c == null) st.sm4Ciphers[i] = c = Cipher.getInstance(TRANSFORMATIONS[mode], Rows.PROVIDER);
        return c;
    }

    /** sm4_encrypt(input, key, mode, padding, iv, aad); null for a null argument. */
    static byte[] encrypt(Object input, Object key, Object mode, Object padding, Object iv, Object aad) {
        byte[] in = Rows.bytes(input), k = Rows.bytes(key), v = Rows.bytes(iv), a = Rows.bytes(aad);
        if (in == null || k == null || !(mode instanceof String) || !(padding instanceof String) || v == null || a == null)
            return null;
        String fn = "sm4_encrypt";
        int m = mode(fn, (String) mode, (String) padding);
        if (v.length > 0 && m == ECB) throw new Refused(fn + ": SM4-ECB takes no IV", null);
        if (v.length > 0 && v.length != IV_LENGTHS[m])
            throw new Refused(fn + ": the IV of SM4-" + mode + " is " + IV_LENGTHS[m] + " bytes, not " + v.length, null);
        if (a.length > 0 && m != GCM) throw new Refused(fn + ": SM4-" + mode + " takes no AAD (GCM does)", null);
        Rows.State st = Rows.state();
        SecretKeySpec sk = key(st, fn, k);
        try {
            // a given IV may repeat from row to row (as aes_encrypt allows): a fresh Cipher, which
            // has no last encryption to compare it with; a random IV goes through the task's Cipher
            Cipher c = v.length > 0 && m == GCM ? Cipher.getInstance(TRANSFORMATIONS[m], Rows.PROVIDER) : cipher(st, m, true);
            if (m == ECB) {
                c.init(Cipher.ENCRYPT_MODE, sk);
                return c.doFinal(in);
            }
            if (v.length == 0) {
                v = new byte[IV_LENGTHS[m]];
                RANDOM.nextBytes(v);
            }
            c.init(Cipher.ENCRYPT_MODE, sk, m == GCM ? new GCMParameterSpec(128, v) : new IvParameterSpec(v));
            if (a.length > 0) c.updateAAD(a);
            byte[] out = new byte[v.length + c.getOutputSize(in.length)];
            System.arraycopy(v, 0, out, 0, v.length);
            int n = v.length + c.doFinal(in, 0, in.length, out, v.length);
            return n == out.length ? out : java.util.Arrays.copyOf(out, n);
        } catch (GeneralSecurityException e) {
            throw new Refused(fn + ": " + e.getMessage(), e);
        }
    }

    /** sm4_decrypt(input, key, mode, padding, aad); null for a null argument. */
    static byte[] decrypt(Object input, Object key, Object mode, Object padding, Object aad) {
        byte[] in = Rows.bytes(input), k = Rows.bytes(key), a = Rows.bytes(aad);
        if (in == null || k == null || !(mode instanceof String) || !(padding instanceof String) || a == null) return null;
        String fn = "sm4_decrypt";
        int m = mode(fn, (String) mode, (String) padding);
        if (a.length > 0 && m != GCM) throw new Refused(fn + ": SM4-" + mode + " takes no AAD (GCM does)", null);
        Rows.State st = Rows.state();
        SecretKeySpec sk = key(st, fn, k);
        int ivLen = IV_LENGTHS[m];
        if (in.length < ivLen) throw new Refused(fn + ": " + in.length + " bytes: shorter than the IV of SM4-" + mode, null);
        try {
            Cipher c = cipher(st, m, false);
            if (m == ECB) c.init(Cipher.DECRYPT_MODE, sk);
            else if (m == GCM) c.init(Cipher.DECRYPT_MODE, sk, new GCMParameterSpec(128, in, 0, ivLen));
            else c.init(Cipher.DECRYPT_MODE, sk, new IvParameterSpec(in, 0, ivLen));
            if (a.length > 0) c.updateAAD(a);
            return c.doFinal(in, ivLen, in.length - ivLen);
        } catch (GeneralSecurityException e) {
            throw new Refused(fn + ": the data does not decrypt with this key (" + e.getClass().getSimpleName() + ": "
                    + e.getMessage() + ")", e);
        }
    }

    /** try_sm4_decrypt: sm4_decrypt, null where it would fail. */
    static byte[] tryDecrypt(Object input, Object key, Object mode, Object padding, Object aad) {
        try {
            return decrypt(input, key, mode, padding, aad);
        } catch (RuntimeException e) {
            return null; // as try_aes_decrypt: null for any failure
        }
    }
}
