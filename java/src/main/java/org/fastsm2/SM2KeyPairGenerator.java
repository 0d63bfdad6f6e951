// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidParameterException;
import java.security.KeyPair;
import java.security.KeyPairGeneratorSpi;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;

/**
 * KeyPairGenerator "SM2" and "EC" (sm2p256v1 only: initialize with 256, an
 * {@code ECGenParameterSpec("sm2p256v1")} or the curve's ECParameterSpec;
 * another curve is InvalidAlgorithmParameterException, on which the JDK's
 * KeyPairGenerator moves on to the next provider). d comes from the
 * library's generator (seeded from the OS), not from the SecureRandom given.
 */
public final class SM2KeyPairGenerator extends KeyPairGeneratorSpi {
    @Override
    public void initialize(int keysize, SecureRandom random) {
        if (keysize != 256) throw new InvalidParameterException("fastsm2: SM2 keys are 256 bits (sm2p256v1)");
    }

    @Override
    public void initialize(AlgorithmParameterSpec params, SecureRandom random) throws InvalidAlgorithmParameterException {
        if (params instanceof ECGenParameterSpec) {
            String n = ((ECGenParameterSpec) params).getName();
            if (n.equalsIgnoreCase(SM2Curve.NAME) || n.equals(SM2Curve.OID) || n.equalsIgnoreCase("SM2")) return;
            throw new InvalidAlgorithmParameterException("fastsm2: only sm2p256v1, not " + n);
        }
        if (params instanceof ECParameterSpec && SM2Curve.isSM2((ECParameterSpec) params)) return;
        throw new InvalidAlgorithmParameterException("fastsm2: only sm2p256v1");
    }

    @Override
    public KeyPair generateKeyPair() {
        SM2PrivateKey k = SM2PrivateKey.generate();
        return new KeyPair(k.getPublicKey(), k);
    }
}
