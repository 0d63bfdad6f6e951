// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.jca;

import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactorySpi;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import org.fastsm2.SM2;
import org.fastsm2.SM2Curve;
import org.fastsm2.SM2PrivateKey;
import org.fastsm2.SM2PublicKey;
import org.fastsm2.internal.KeyAccess;
import org.fastsm2.internal.Native;

/**
 * KeyFactory "SM2": X509EncodedKeySpec (SPKI, id-ecPublicKey or the SM2
 * OID), PKCS8EncodedKeySpec (PKCS#8; SEC1 too), ECPublicKeySpec and
 * ECPrivateKeySpec on sm2p256v1; DER parsed by the library (strict).
 */
public final class SM2KeyFactorySpi extends KeyFactorySpi {
    private static final KeyAccess KEYS = KeyAccess.get();

    @Override
    protected PublicKey engineGeneratePublic(KeySpec spec) throws InvalidKeySpecException {
        if (spec instanceof X509EncodedKeySpec) {
            // DER SubjectPublicKeyInfo only (the library would also take
            // PEM or a bare point: SM2.loadPublicKey does)
            byte[] enc = ((X509EncodedKeySpec) spec).getEncoded();
            if (enc.length == 0 || enc[0] != 0x30) throw new InvalidKeySpecException("fastsm2: not a DER SubjectPublicKeyInfo");
            return KEYS.publicKey(Native.pubParse(enc, Native.PUB_FILE));
        }
        if (spec instanceof ECPublicKeySpec) {
            ECPublicKeySpec s = (ECPublicKeySpec) spec;
            if (!SM2Curve.isSM2(s.getParams())) throw new InvalidKeySpecException("fastsm2: not sm2p256v1");
            try {
                return SM2PublicKey.fromPoint(SM2Curve.encodePoint(s.getW()));
            } catch (IllegalArgumentException e) {
                throw new InvalidKeySpecException("fastsm2: " + e.getMessage(), e);
            }
        }
        throw new InvalidKeySpecException("fastsm2: unsupported key spec " + (spec == null ? "null" : spec.getClass().getName()));
    }

    @Override
    protected PrivateKey engineGeneratePrivate(KeySpec spec) throws InvalidKeySpecException {
        if (spec instanceof PKCS8EncodedKeySpec) {
            byte[] enc = ((PKCS8EncodedKeySpec) spec).getEncoded();
            try {
                if (enc.length == 0 || enc[0] != 0x30) throw new InvalidKeySpecException("fastsm2: not a DER private key");
                return KEYS.privateKey(Native.privParse(enc, null));
            } finally {
                Arrays.fill(enc, (byte) 0);
            }
        }
        if (spec instanceof ECPrivateKeySpec) {
            ECPrivateKeySpec s = (ECPrivateKeySpec) spec;
            if (!SM2Curve.isSM2(s.getParams())) throw new InvalidKeySpecException("fastsm2: not sm2p256v1");
            if (s.getS().signum() < 0 || s.getS().bitLength() > 256)
                throw new InvalidKeySpecException("fastsm2: d out of range");
            byte[] d = new byte[32];
            byte[] b = s.getS().toByteArray();
            int n = Math.min(b.length, 32);
            System.arraycopy(b, b.length - n, d, 32 - n, n);
            Arrays.fill(b, (byte) 0);
            try {
                return SM2PrivateKey.fromBytes(d);
            } finally {
                Arrays.fill(d, (byte) 0);
            }
        }
        throw new InvalidKeySpecException("fastsm2: unsupported key spec " + (spec == null ? "null" : spec.getClass().getName()));
    }

    @Override
    protected <T extends KeySpec> T engineGetKeySpec(Key key, Class<T> type) throws InvalidKeySpecException {
        try {
            if (key instanceof PublicKey) {
                SM2PublicKey k = SM2.toSM2PublicKey(key);
                if (type.isAssignableFrom(ECPublicKeySpec.class)) return type.cast(new ECPublicKeySpec(k.getW(), SM2Curve.SPEC));
                if (type.isAssignableFrom(X509EncodedKeySpec.class)) return type.cast(new X509EncodedKeySpec(k.getEncoded()));
            } else if (key instanceof PrivateKey) {
                SM2PrivateKey k = SM2.toSM2PrivateKey(key);
                if (type.isAssignableFrom(ECPrivateKeySpec.class)) return type.cast(new ECPrivateKeySpec(k.getS(), SM2Curve.SPEC));
                if (type.isAssignableFrom(PKCS8EncodedKeySpec.class)) return type.cast(new PKCS8EncodedKeySpec(k.getEncoded()));
            }
        } catch (InvalidKeyException e) {
            throw new InvalidKeySpecException(e.getMessage(), e);
        }
        throw new InvalidKeySpecException("fastsm2: cannot give " + type.getName());
    }

    @Override
    protected Key engineTranslateKey(Key key) throws InvalidKeyException {
        if (key instanceof PublicKey) return SM2.toSM2PublicKey(key);
        if (key instanceof PrivateKey) return SM2.toSM2PrivateKey(key);
        throw new InvalidKeyException("fastsm2: not an SM2 key");
    }
}
