// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.jca;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidParameterException;
import java.security.KeyPair;
import java.security.KeyPairGeneratorSpi;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import org.fastsm2.SM2Curve;
import org.fastsm2.SM2PrivateKey;

/**
 * KeyPairGenerator "SM2": sm2p256v1 keys (initialize with nothing, 256, an
 * {@code ECGenParameterSpec("sm2p256v1")} or the curve's ECParameterSpec).
 * d comes from the library's generator (seeded from the OS), not from the
 * SecureRandom given.
 * <p>
 * KeyPairGenerator "EC" ({@link EC}) answers only for sm2p256v1 asked by
 * name or parameters: initialize(int), another curve, or no initialize at
 * all fail (InvalidParameterException, InvalidAlgorithmParameterException,
 * IllegalStateException), on which the JDK's KeyPairGenerator moves on to
 * the next provider: with FastSM2 first, "EC" keeps giving the JDK's (or
 * BouncyCastle's) P-256 and other curves.
 */
public class SM2KeyPairGeneratorSpi extends KeyPairGeneratorSpi {
    private final boolean ec;
    private boolean initialised;

    public SM2KeyPairGeneratorSpi() {
        this(false);
    }

    SM2KeyPairGeneratorSpi(boolean ec) {
        this.ec = ec;
    }

    /** KeyPairGenerator "EC": sm2p256v1 by name or parameters only. */
    public static final class EC extends SM2KeyPairGeneratorSpi {
        public EC() {
            super(true);
        }
    }

    @Override
    public void initialize(int keysize, SecureRandom random) {
        if (ec) throw new InvalidParameterException("fastsm2: EC keys by size are not ours: ask for sm2p256v1 by name");
        if (keysize != 256) throw new InvalidParameterException("fastsm2: SM2 keys are 256 bits (sm2p256v1)");
        initialised = true;
    }

    @Override
    public void initialize(AlgorithmParameterSpec params, SecureRandom random) throws InvalidAlgorithmParameterException {
        if (params instanceof ECGenParameterSpec) {
            String n = ((ECGenParameterSpec) params).getName();
            if (n.equalsIgnoreCase(SM2Curve.NAME) || n.equals(SM2Curve.OID) || n.equalsIgnoreCase("SM2")) {
                initialised = true;
                return;
            }
            throw new InvalidAlgorithmParameterException("fastsm2: only sm2p256v1, not " + n);
        }
        if (params instanceof ECParameterSpec && SM2Curve.isSM2((ECParameterSpec) params)) {
            initialised = true;
            return;
        }
        throw new InvalidAlgorithmParameterException("fastsm2: only sm2p256v1");
    }

    @Override
    public KeyPair generateKeyPair() {
        if (ec && !initialised)
            throw new IllegalStateException("fastsm2: KeyPairGenerator EC makes sm2p256v1 keys only when asked for"
                    + " them (initialize(new ECGenParameterSpec(\"sm2p256v1\"))); \"SM2\" needs no initialize");
        SM2PrivateKey k = SM2PrivateKey.generate();
        return new KeyPair(k.getPublicKey(), k);
    }
}
