// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.jca;

import java.lang.reflect.Method;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.InvalidParameterException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.SignatureException;
import java.security.SignatureSpi;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import org.fastsm2.SM2;
import org.fastsm2.SM2ParameterSpec;
import org.fastsm2.SM2PrivateKey;
import org.fastsm2.SM2PublicKey;
import org.fastsm2.internal.KeyAccess;
import org.fastsm2.internal.Native;
import org.fastsm2.internal.PrivateKeyRef;
import org.fastsm2.internal.PublicKeyRef;

/**
 * Signature "SM3withSM2" (GB/T 32918.2): e = SM3(Z_A || M), DER signature
 * SEQUENCE { r, s } (GM/T 0009), as BouncyCastle writes it; "SM3withSM2/raw"
 * (alias "SM3withSM2inP1363Format") gives and takes the raw 64 bytes r || s.
 * The message is kept and signed in one native call (a whole signature per
 * call); past 64 KiB it is hashed as it comes. One user at a time (as the
 * JCA defines Signature); the key may be shared by many Signatures.
 */
public class SM2SignatureSpi extends SignatureSpi {
    private static final int BUFFER_MAX = 64 * 1024;
    private static final KeyAccess KEYS = KeyAccess.get();

    private final boolean raw;
    private PrivateKeyRef priv;
    private SM2PrivateKey privKey;
    private PublicKeyRef pub;
    private SM2PublicKey pubKey;
    private java.security.Key lastKey; // the caller's key object last converted
    private byte[] id; // null: the default ID
    private byte[] buf = new byte[256];
    private int len;
    private byte[] sm3; // streaming state once the message outgrew buf

    public SM2SignatureSpi() {
        this(false);
    }

    SM2SignatureSpi(boolean raw) {
        this.raw = raw;
    }

    /** "SM3withSM2/raw": r || s, 64 bytes. */
    public static final class Raw extends SM2SignatureSpi {
        public Raw() {
            super(true);
        }
    }

    @Override
    protected void engineInitSign(PrivateKey key) throws InvalidKeyException {
        engineInitSign(key, null);
    }

    @Override
    protected void engineInitSign(PrivateKey key, SecureRandom random) throws InvalidKeyException {
        if (key == null) throw new InvalidKeyException("fastsm2: null key");
        if (privKey == null || key != lastKey || privKey.isDestroyed()) {
            privKey = SM2.toSM2PrivateKey(key);
            priv = KEYS.ref(privKey);
            lastKey = key;
        }
        pub = null;
        pubKey = null;
        reset();
    }

    @Override
    protected void engineInitVerify(PublicKey key) throws InvalidKeyException {
        if (key == null) throw new InvalidKeyException("fastsm2: null key");
        if (pubKey == null || key != lastKey) {
            pubKey = SM2.toSM2PublicKey(key);
            pub = KEYS.ref(pubKey);
            lastKey = key;
        }
        priv = null;
        privKey = null;
        reset();
    }

    private void reset() {
        len = 0;
        if (sm3 != null) Arrays.fill(sm3, (byte) 0);
        sm3 = null;
    }

    @Override
    protected void engineSetParameter(AlgorithmParameterSpec params) throws InvalidAlgorithmParameterException {
        if (params == null) {
            id = null;
        } else if (params instanceof SM2ParameterSpec) {
            id = ((SM2ParameterSpec) params).getID();
        } else if (params.getClass().getName().equals("org.bouncycastle.jcajce.spec.SM2ParameterSpec")) {
            try {
                Method m = params.getClass().getMethod("getID");
                byte[] v = (byte[]) m.invoke(params);
                if (v == null) throw new InvalidAlgorithmParameterException("fastsm2: null ID");
                if (v.length > 8191) throw new InvalidAlgorithmParameterException("fastsm2: SM2 ID longer than 8191 bytes");
                id = v.clone();
            } catch (ReflectiveOperationException e) {
                throw new InvalidAlgorithmParameterException("cannot read the ID of " + params.getClass().getName(), e);
            }
        } else {
            throw new InvalidAlgorithmParameterException("fastsm2: SM3withSM2 takes an SM2ParameterSpec, not "
                    + params.getClass().getName());
        }
        if (priv != null || pub != null) reset();
    }

    @Override
    @Deprecated
    protected void engineSetParameter(String param, Object value) {
        throw new InvalidParameterException("fastsm2: use setParameter(new SM2ParameterSpec(id))");
    }

    @Override
    @Deprecated
    protected Object engineGetParameter(String param) {
        throw new InvalidParameterException("fastsm2: no such parameter");
    }

    @Override
    protected java.security.AlgorithmParameters engineGetParameters() {
        return null;
    }

    private void check() throws SignatureException {
        if (priv == null && pub == null) throw new SignatureException("fastsm2: Signature not initialised");
    }

    @Override
    protected void engineUpdate(byte b) throws SignatureException {
        engineUpdate(new byte[] {b}, 0, 1);
    }

    @Override
    protected void engineUpdate(byte[] b, int off, int n) throws SignatureException {
        check();
        if (off < 0 || n < 0 || off > b.length - n) throw new IllegalArgumentException("fastsm2: bad offset or length");
        if (sm3 == null && len + n <= BUFFER_MAX) {
            if (len + n > buf.length) buf = Arrays.copyOf(buf, Math.max(len + n, Math.min(2 * buf.length, BUFFER_MAX)));
            System.arraycopy(b, off, buf, len, n);
            len += n;
            return;
        }
        if (sm3 == null) { // switch to streaming: SM3(Z || buffered || ...)
            byte[] z = Native.computeZ(priv != null ? KEYS.ref(privKey.getPublicKey()) : pub, id);
            sm3 = new byte[Native.sm3StateSize()];
            Native.sm3Init(sm3);
            Native.sm3Update(sm3, z, 0, 32);
            Native.sm3Update(sm3, buf, 0, len);
            Arrays.fill(buf, 0, len, (byte) 0);
            len = 0;
        }
        Native.sm3Update(sm3, b, off, n);
    }

    @Override
    protected byte[] engineSign() throws SignatureException {
        check();
        if (priv == null) throw new SignatureException("fastsm2: initialised for verification");
        long stamp;
        try {
            stamp = priv.acquire();
        } catch (IllegalStateException e) {
            reset();
            throw new SignatureException(e.getMessage(), e);
        }
        try {
            return sm3 != null ? Native.signDigest(priv, Native.sm3Final(sm3), !raw)
                    : Native.sign(priv, id, buf, 0, len, !raw); // DER made in the same call
        } finally {
            priv.release(stamp);
            reset();
        }
    }

    @Override
    protected boolean engineVerify(byte[] sigBytes) throws SignatureException {
        check();
        if (pub == null) throw new SignatureException("fastsm2: initialised for signing");
        try {
            PublicKeyRef k = pub.use();
            return sm3 != null ? Native.verifyDigest(k, Native.sm3Final(sm3), sigBytes, !raw)
                    : Native.verify(k, id, buf, 0, len, sigBytes, !raw); // DER decoded in the same call
        } finally {
            reset();
        }
    }
}
