// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.nio.charset.StandardCharsets;
import java.security.spec.AlgorithmParameterSpec;

/**
 * The signer ID of an SM2 signature (GB/T 32918.2 5.5, Z_A), given to
 * {@code Signature.setParameter}. Without it the ID is the default
 * "1234567812345678". An empty ID is the empty ID (Z_A over ENTL = 0, what
 * OpenSSL signs with when no distinguishing ID is set). BouncyCastle's
 * {@code org.bouncycastle.jcajce.spec.SM2ParameterSpec} is accepted as well.
 */
public final class SM2ParameterSpec implements AlgorithmParameterSpec {
    private final byte[] id;

    public SM2ParameterSpec(byte[] id) {
        if (id == null) throw new NullPointerException("id");
        if (id.length > 8191) throw new IllegalArgumentException("SM2 ID longer than 8191 bytes");
        this.id = id.clone();
    }

    public SM2ParameterSpec(String id) {
        this(id.getBytes(StandardCharsets.UTF_8));
    }

    /** The default ID, "1234567812345678". */
    public static SM2ParameterSpec defaultId() {
        return new SM2ParameterSpec(SM2.defaultId());
    }

    /** The empty ID (ENTL = 0). */
    public static SM2ParameterSpec emptyId() {
        return new SM2ParameterSpec(new byte[0]);
    }

    public byte[] getID() {
        return id.clone();
    }
}
