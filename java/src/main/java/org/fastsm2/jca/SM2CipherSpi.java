// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.jca;

import java.io.ByteArrayOutputStream;
import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import java.util.Locale;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.CipherSpi;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.NoSuchPaddingException;
import javax.crypto.ShortBufferException;
import org.fastsm2.SM2;
import org.fastsm2.SM2PrivateKey;
import org.fastsm2.SM2PublicKey;
import org.fastsm2.internal.KeyAccess;
import org.fastsm2.internal.Native;
import org.fastsm2.internal.PrivateKeyRef;
import org.fastsm2.internal.PublicKeyRef;

/**
 * Cipher "SM2" (GB/T 32918.4) with the ciphertext layout chosen by its mode:
 * <ul>
 * <li>"SM2/C1C3C2/NoPadding": 04 || x1 || y1 || C3 || C2 (GB/T 32918.4-2016 order, raw);</li>
 * <li>"SM2/C1C2C3/NoPadding": 04 || x1 || y1 || C2 || C3 (the 2010 draft order, raw);
 *     what BouncyCastle's "SM2" Cipher and SM2Engine write by default;</li>
 * <li>"SM2/DER/NoPadding" (alias "ASN1", "C1C3C2_DER"): GM/T 0009 SEQUENCE { x, y, C3, C2 }.</li>
 * </ul>
 * Plain "SM2" (mode NONE/ECB) is C1C2C3, BouncyCastle's default, so that a
 * program moving from BouncyCastle reads and writes the same bytes. The
 * input is collected until doFinal (one native call per message).
 * Decryption accepts a compressed C1 in the raw layouts.
 */
public final class SM2CipherSpi extends CipherSpi {
    private static final KeyAccess KEYS = KeyAccess.get();

    private int flags = Native.CT_RAW | Native.CT_C1C2C3;
    private int opmode;
    private PublicKeyRef pub;
    private SM2PublicKey pubKey;
    private PrivateKeyRef priv;
    private SM2PrivateKey privKey;
    private Key lastKey;
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

    @Override
    protected void engineSetMode(String mode) throws NoSuchAlgorithmException {
        switch (mode.toUpperCase(Locale.ROOT)) {
            case "NONE":
            case "ECB":
            case "C1C2C3":
                flags = Native.CT_RAW | Native.CT_C1C2C3;
                break;
            case "C1C3C2":
                flags = Native.CT_RAW | Native.CT_C1C3C2;
                break;
            case "DER":
            case "ASN1":
            case "C1C3C2_DER":
            case "C1C3C2_ASN1":
                flags = Native.CT_DER;
                break;
            default:
                throw new NoSuchAlgorithmException("fastsm2: SM2 mode " + mode + " (use C1C3C2, C1C2C3 or DER)");
        }
    }

    @Override
    protected void engineSetPadding(String padding) throws NoSuchPaddingException {
        if (!padding.equalsIgnoreCase("NoPadding")) throw new NoSuchPaddingException("fastsm2: SM2 takes NoPadding");
    }

    @Override
    protected int engineGetBlockSize() {
        return 0;
    }

    @Override
    protected int engineGetOutputSize(int inputLen) {
        int n = buf.size() + inputLen;
        // C1, C3 and at most 20 bytes of DER headers
        return opmode == Cipher.ENCRYPT_MODE || opmode == Cipher.WRAP_MODE ? n + 97 + 20 : Math.max(0, n);
    }

    @Override
    protected byte[] engineGetIV() {
        return null;
    }

    @Override
    protected AlgorithmParameters engineGetParameters() {
        return null;
    }

    @Override
    protected void engineInit(int mode, Key key, SecureRandom random) throws InvalidKeyException {
        wipeBuf();
        opmode = mode;
        if (mode == Cipher.ENCRYPT_MODE || mode == Cipher.WRAP_MODE) {
            if (!(key instanceof PublicKey)) throw new InvalidKeyException("fastsm2: SM2 encrypts with a public key");
            if (pubKey == null || key != lastKey) {
                pubKey = SM2.toSM2PublicKey(key);
                pub = KEYS.ref(pubKey);
            }
            priv = null;
            privKey = null;
        } else if (mode == Cipher.DECRYPT_MODE || mode == Cipher.UNWRAP_MODE) {
            if (!(key instanceof PrivateKey)) throw new InvalidKeyException("fastsm2: SM2 decrypts with a private key");
            if (privKey == null || key != lastKey || privKey.isDestroyed()) {
                privKey = SM2.toSM2PrivateKey(key);
                priv = KEYS.ref(privKey);
            }
            pub = null;
            pubKey = null;
        } else {
            throw new InvalidKeyException("fastsm2: unknown mode " + mode);
        }
        lastKey = key;
    }

    @Override
    protected void engineInit(int mode, Key key, AlgorithmParameterSpec params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        if (params != null) throw new InvalidAlgorithmParameterException("fastsm2: SM2 takes no parameters");
        engineInit(mode, key, random);
    }

    @Override
    protected void engineInit(int mode, Key key, AlgorithmParameters params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        if (params != null) throw new InvalidAlgorithmParameterException("fastsm2: SM2 takes no parameters");
        engineInit(mode, key, random);
    }

    @Override
    protected byte[] engineUpdate(byte[] in, int off, int len) {
        if (in != null) buf.write(in, off, len);
        return new byte[0];
    }

    @Override
    protected int engineUpdate(byte[] in, int off, int len, byte[] out, int outOff) {
        if (in != null) buf.write(in, off, len);
        return 0;
    }

    @Override
    protected byte[] engineDoFinal(byte[] in, int off, int len) throws IllegalBlockSizeException, BadPaddingException {
        if (pub == null && priv == null) throw new IllegalStateException("fastsm2: Cipher not initialised");
        byte[] data;
        int dataOff, dataLen;
        if (buf.size() == 0 && in != null) { // one-shot: no copy
            data = in;
            dataOff = off;
            dataLen = len;
        } else {
            if (in != null) buf.write(in, off, len);
            data = buf.toByteArray();
            dataOff = 0;
            dataLen = data.length;
            wipeBuf();
        }
        try {
            if (pub != null) return Native.encrypt(pub.use(), data, dataOff, dataLen, flags);
            long stamp;
            try {
                stamp = priv.acquire();
            } catch (IllegalStateException e) {
                throw new IllegalStateException("fastsm2: the key was destroyed", e);
            }
            try {
                // malformed input, C1 off the curve, or C3 mismatch: no plaintext is released
                return Native.decrypt(priv, data, dataOff, dataLen, flags);
            } finally {
                priv.release(stamp);
            }
        } finally {
            if (data != in) Arrays.fill(data, (byte) 0);
        }
    }

    private void wipeBuf() {
        // ByteArrayOutputStream keeps its array: overwrite the used part
        int n = buf.size();
        buf.reset();
        if (n > 0) buf.write(new byte[n], 0, n);
        buf.reset();
    }

    @Override
    protected int engineDoFinal(byte[] in, int off, int len, byte[] out, int outOff)
            throws ShortBufferException, IllegalBlockSizeException, BadPaddingException {
        int need = engineGetOutputSize(len);
        if (out.length - outOff < need && (opmode == Cipher.ENCRYPT_MODE || opmode == Cipher.WRAP_MODE))
            throw new ShortBufferException("fastsm2: need " + need + " bytes");
        byte[] r = engineDoFinal(in, off, len);
        if (out.length - outOff < r.length) {
            Arrays.fill(r, (byte) 0);
            throw new ShortBufferException("fastsm2: need " + r.length + " bytes");
        }
        System.arraycopy(r, 0, out, outOff, r.length);
        Arrays.fill(r, (byte) 0);
        return r.length;
    }

    @Override
    protected byte[] engineWrap(Key key) throws IllegalBlockSizeException, InvalidKeyException {
        byte[] enc = key.getEncoded();
        if (enc == null) throw new InvalidKeyException("fastsm2: key has no encoding");
        try {
            return engineDoFinal(enc, 0, enc.length);
        } catch (BadPaddingException e) {
            throw new InvalidKeyException(e);
        } finally {
            Arrays.fill(enc, (byte) 0);
        }
    }

    @Override
    protected Key engineUnwrap(byte[] wrapped, String alg, int type) throws InvalidKeyException, NoSuchAlgorithmException {
        byte[] enc;
        try {
            enc = engineDoFinal(wrapped, 0, wrapped.length);
        } catch (BadPaddingException | IllegalBlockSizeException e) {
            throw new InvalidKeyException("fastsm2: " + e.getMessage(), e);
        }
        try {
            if (type == Cipher.SECRET_KEY) return new javax.crypto.spec.SecretKeySpec(enc, alg);
            java.security.KeyFactory kf = java.security.KeyFactory.getInstance(alg);
            if (type == Cipher.PUBLIC_KEY) return kf.generatePublic(new java.security.spec.X509EncodedKeySpec(enc));
            return kf.generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(enc));
        } catch (java.security.spec.InvalidKeySpecException e) {
            throw new InvalidKeyException(e);
        } finally {
            Arrays.fill(enc, (byte) 0);
        }
    }
}
