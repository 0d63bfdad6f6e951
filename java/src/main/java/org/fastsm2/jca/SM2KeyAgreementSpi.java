// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.jca;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import javax.crypto.KeyAgreementSpi;
import javax.crypto.SecretKey;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;
import org.fastsm2.SM2Curve;
import org.fastsm2.SM2KeyExchange;
import org.fastsm2.SM2KeyExchangeSpec;

/** KeyAgreement "SM2" (GB/T 32918.3): init(own static private key,
 *  {@link SM2KeyExchangeSpec}), doPhase(peer's ephemeral public key, true),
 *  generateSecret() = K. */
public final class SM2KeyAgreementSpi extends KeyAgreementSpi {
    private SM2KeyExchange kx;
    private int klen;
    private byte[] secret;

    @Override
    protected void engineInit(Key key, SecureRandom random) throws InvalidKeyException {
        throw new InvalidKeyException("fastsm2: KeyAgreement SM2 needs an SM2KeyExchangeSpec");
    }

    @Override
    protected void engineInit(Key key, AlgorithmParameterSpec params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        if (!(params instanceof SM2KeyExchangeSpec))
            throw new InvalidAlgorithmParameterException("fastsm2: KeyAgreement SM2 needs an SM2KeyExchangeSpec");
        if (!(key instanceof PrivateKey)) throw new InvalidKeyException("fastsm2: own static private key expected");
        SM2KeyExchangeSpec s = (SM2KeyExchangeSpec) params;
        if (kx != null) kx.close();
        wipe();
        kx = new SM2KeyExchange(s.isInitiator(), (PrivateKey) key, s.getOwnId(), s.getPeerKey(), s.getPeerId(),
                s.getEphemeralKey());
        klen = s.getKeyLength();
    }

    @Override
    protected Key engineDoPhase(Key key, boolean lastPhase) throws InvalidKeyException {
        if (kx == null) throw new IllegalStateException("fastsm2: KeyAgreement not initialised");
        if (!lastPhase) throw new IllegalStateException("fastsm2: SM2 has one phase");
        if (!(key instanceof ECPublicKey)) throw new InvalidKeyException("fastsm2: the peer's ephemeral ECPublicKey expected");
        ECPublicKey p = (ECPublicKey) key;
        if (!SM2Curve.isSM2(p.getParams())) throw new InvalidKeyException("fastsm2: not an sm2p256v1 key");
        wipe();
        byte[] point;
        try {
            point = SM2Curve.encodePoint(p.getW());
        } catch (IllegalArgumentException e) {
            throw new InvalidKeyException("fastsm2: " + e.getMessage(), e);
        }
        secret = kx.computeKey(point, klen);
        return null;
    }

    private void wipe() {
        if (secret != null) Arrays.fill(secret, (byte) 0);
        secret = null;
    }

    @Override
    protected byte[] engineGenerateSecret() {
        if (secret == null) throw new IllegalStateException("fastsm2: doPhase first");
        byte[] r = secret;
        secret = null;
        return r;
    }

    @Override
    protected int engineGenerateSecret(byte[] out, int off) throws ShortBufferException {
        if (secret == null) throw new IllegalStateException("fastsm2: doPhase first");
        if (out.length - off < secret.length) throw new ShortBufferException("fastsm2: need " + secret.length + " bytes");
        System.arraycopy(secret, 0, out, off, secret.length);
        int n = secret.length;
        wipe();
        return n;
    }

    @Override
    protected SecretKey engineGenerateSecret(String algorithm) throws NoSuchAlgorithmException {
        byte[] k = engineGenerateSecret();
        try {
            return new SecretKeySpec(k, algorithm);
        } finally {
            Arrays.fill(k, (byte) 0);
        }
    }
}
