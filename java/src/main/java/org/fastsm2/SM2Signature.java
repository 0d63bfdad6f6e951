// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

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

/**
 * Signature "SM3withSM2" (GB/T 32918.2): e = SM3(Z_A || M), DER signature
 * SEQUENCE { r, s } (GM/T 0009), as BouncyCastle writes it; "SM3withSM2/raw"
 * (alias "SM3withSM2inP1363Format") gives and takes the raw 64 bytes r || s.
 * The message is kept and signed in one native call (a whole signature per
 * call); past 64 KiB it is hashed as it comes. One user at a time (as the
 * JCA defines Signature); the key may be shared by many Signatures.
 */
public class SM2Signature extends SignatureSpi {
    private static final int BUFFER_MAX = 64 * 1024;

    private final boolean raw;
    private SM2PrivateKey priv;
    private SM2PublicKey pub;
    private java.security.Key lastKey; // the caller's key object last converted
    private byte[] id; // null: the default ID
    private byte[] buf = new byte[256];
    private int len;
    private byte[] sm3; // streaming state once the message outgrew buf

    public SM2Signature() {
        this(false);
    }

    SM2Signature(boolean raw) {
        this.raw = raw;
    }

    public static final class Raw extends SM2Signature {
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
        if (key == null) throw new InvalidKeyException("null key");
        if (priv == null || key != lastKey || priv.isDestroyed()) {
            priv = SM2.toSM2PrivateKey(key);
            lastKey = key;
        }
        pub = null;
        reset();
    }

    @Override
    protected void engineInitVerify(PublicKey key) throws InvalidKeyException {
        if (key == null) throw new InvalidKeyException("null key");
        if (pub == null || key != lastKey) {
            pub = SM2.toSM2PublicKey(key);
            lastKey = key;
        }
        priv = null;
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
                if (v == null) throw new InvalidAlgorithmParameterException("null ID");
                if (v.length > 8191) throw new InvalidAlgorithmParameterException("SM2 ID longer than 8191 bytes");
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
        if (off < 0 || n < 0 || off > b.length - n) throw new IllegalArgumentException("bad offset or length");
        if (sm3 == null && len + n <= BUFFER_MAX) {
            if (len + n > buf.length) buf = Arrays.copyOf(buf, Math.max(len + n, Math.min(2 * buf.length, BUFFER_MAX)));
            System.arraycopy(b, off, buf, len, n);
            len += n;
            return;
        }
        if (sm3 == null) { // switch to streaming: SM3(Z || buffered || ...)
            byte[] z;
            try {
                z = SM2.zOf(priv != null ? priv.getPublicKey() : pub, id);
            } catch (InvalidKeyException e) {
                throw new SignatureException(e.getMessage(), e);
            }
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
        byte[] sig;
        long h;
        try {
            h = priv.acquire();
        } catch (IllegalStateException e) {
            throw new SignatureException(e.getMessage(), e);
        }
        try {
            if (sm3 != null) {
                sig = Native.signDigest(h, Native.sm3Final(sm3));
                if (!raw) sig = Native.sigToDer(sig);
            } else {
                sig = Native.sign(h, id, buf, 0, len, !raw); // DER made in the same call
            }
        } catch (NativeException e) {
            throw new SignatureException("fastsm2: " + e.getMessage(), e);
        } finally {
            priv.release();
            reset();
        }
        return sig;
    }

    @Override
    protected boolean engineVerify(byte[] sigBytes) throws SignatureException {
        check();
        if (pub == null) throw new SignatureException("fastsm2: initialised for signing");
        try {
            if (sigBytes == null) throw new SignatureException("fastsm2: null signature");
            if (raw && sigBytes.length != 64) throw new SignatureException("fastsm2: a raw SM2 signature is 64 bytes");
            int rc;
            long h = pub.acquire();
            try {
                if (sm3 != null) {
                    byte[] sig = sigBytes;
                    if (!raw) {
                        try {
                            sig = Native.sigFromDer(sigBytes, 0, sigBytes.length);
                        } catch (NativeException e) {
                            if (e.code() == NativeException.ERR_SIG_RANGE) return false;
                            throw new SignatureException("fastsm2: malformed DER signature: " + e.getMessage(), e);
                        }
                    }
                    rc = Native.verifyDigest(h, Native.sm3Final(sm3), sig);
                } else {
                    rc = Native.verify(h, id, buf, 0, len, sigBytes, !raw); // DER decoded in the same call
                }
            } catch (NativeException e) {
                throw new SignatureException("fastsm2: " + e.getMessage(), e);
            } finally {
                pub.release();
            }
            if (rc == NativeException.ERR_DER)
                throw new SignatureException("fastsm2: malformed DER signature (" + Native.errorName(rc) + ")");
            if (rc == NativeException.ERR_ID) throw new SignatureException("fastsm2: ID rejected by the library");
            return rc == 1; // FASTSM2_ERR_SIG_RANGE, FASTSM2_ERR_BAD_SIGNATURE: false
        } finally {
            reset();
        }
    }
}
