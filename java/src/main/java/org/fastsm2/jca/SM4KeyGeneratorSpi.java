// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.jca;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidParameterException;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import javax.crypto.KeyGeneratorSpi;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/** KeyGenerator "SM4": 16 random bytes (GB/T 32907 keys are 128 bits) from
 *  the SecureRandom given, or the JDK's default one. */
public final class SM4KeyGeneratorSpi extends KeyGeneratorSpi {
    private SecureRandom random;

    @Override
    protected void engineInit(SecureRandom r) {
        random = r;
    }

    @Override
    protected void engineInit(AlgorithmParameterSpec params, SecureRandom r) throws InvalidAlgorithmParameterException {
        throw new InvalidAlgorithmParameterException("fastsm2: KeyGenerator SM4 takes no parameters");
    }

    @Override
    protected void engineInit(int bits, SecureRandom r) {
        if (bits != 128) throw new InvalidParameterException("fastsm2: SM4 keys are 128 bits, not " + bits);
        random = r;
    }

    @Override
    protected SecretKey engineGenerateKey() {
        if (random == null) random = new SecureRandom();
        byte[] k = new byte[16];
        random.nextBytes(k);
        try {
            return new SecretKeySpec(k, "SM4");
        } finally {
            java.util.Arrays.fill(k, (byte) 0);
        }
    }
}
