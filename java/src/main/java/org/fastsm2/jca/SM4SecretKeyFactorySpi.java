// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.jca;

import java.security.InvalidKeyException;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.util.Arrays;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactorySpi;
import javax.crypto.spec.SecretKeySpec;

/** SecretKeyFactory "SM4": a SecretKeySpec of 16 bytes (any algorithm
 *  name) to an SM4 key and back; translateKey of any RAW 16-byte key. */
public final class SM4SecretKeyFactorySpi extends SecretKeyFactorySpi {
    private static SecretKey sm4(byte[] k) throws InvalidKeySpecException {
        try {
            if (k == null || k.length != 16)
                throw new InvalidKeySpecException("fastsm2: an SM4 key is 16 bytes, not " + (k == null ? 0 : k.length));
            return new SecretKeySpec(k, "SM4");
        } finally {
            if (k != null) Arrays.fill(k, (byte) 0);
        }
    }

    @Override
    protected SecretKey engineGenerateSecret(KeySpec spec) throws InvalidKeySpecException {
        if (!(spec instanceof SecretKeySpec))
            throw new InvalidKeySpecException("fastsm2: SM4 keys come from a SecretKeySpec, not "
                    + (spec == null ? "null" : spec.getClass().getName()));
        return sm4(((SecretKeySpec) spec).getEncoded());
    }

    @Override
    protected KeySpec engineGetKeySpec(SecretKey key, Class<?> type) throws InvalidKeySpecException {
        if (key == null || !"RAW".equalsIgnoreCase(key.getFormat())) throw new InvalidKeySpecException("fastsm2: not a RAW key");
        if (type == null || !type.isAssignableFrom(SecretKeySpec.class))
            throw new InvalidKeySpecException("fastsm2: SM4 keys give a SecretKeySpec, not " + (type == null ? "null" : type.getName()));
        return (KeySpec) sm4(key.getEncoded());
    }

    @Override
    protected SecretKey engineTranslateKey(SecretKey key) throws InvalidKeyException {
        if (key == null || !"RAW".equalsIgnoreCase(key.getFormat())) throw new InvalidKeyException("fastsm2: not a RAW key");
        try {
            return sm4(key.getEncoded());
        } catch (InvalidKeySpecException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        }
    }
}
