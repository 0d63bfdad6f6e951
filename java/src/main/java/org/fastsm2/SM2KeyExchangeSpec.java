// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.AlgorithmParameterSpec;

/**
 * Parameters of KeyAgreement "SM2" (GB/T 32918.3): the role, this side's
 * ephemeral private key (whose public key the caller sends to the peer),
 * the peer's static public key, both IDs (null: the default ID) and the key
 * length K in bytes. The peer's ephemeral public key goes to doPhase; the
 * confirmation values are in {@link SM2KeyExchange}.
 */
public final class SM2KeyExchangeSpec implements AlgorithmParameterSpec {
    private final boolean initiator;
    private final PrivateKey ephemeral;
    private final byte[] ownId;
    private final PublicKey peer;
    private final byte[] peerId;
    private final int keyLength;

    public SM2KeyExchangeSpec(boolean initiator, PrivateKey ephemeral, byte[] ownId, PublicKey peerStatic,
                              byte[] peerId, int keyLength) {
        if (ephemeral == null || peerStatic == null) throw new NullPointerException("ephemeral key and peer key");
        if (keyLength < 1 || keyLength > 65536) throw new IllegalArgumentException("key length 1..65536 bytes");
        this.initiator = initiator;
        this.ephemeral = ephemeral;
        this.ownId = ownId == null ? null : ownId.clone();
        this.peer = peerStatic;
        this.peerId = peerId == null ? null : peerId.clone();
        this.keyLength = keyLength;
    }

    public boolean isInitiator() {
        return initiator;
    }

    public PrivateKey getEphemeralKey() {
        return ephemeral;
    }

    /** A copy; null: the default ID. */
    public byte[] getOwnId() {
        return ownId == null ? null : ownId.clone();
    }

    public PublicKey getPeerKey() {
        return peer;
    }

    /** A copy; null: the default ID. */
    public byte[] getPeerId() {
        return peerId == null ? null : peerId.clone();
    }

    /** The length of K in bytes. */
    public int getKeyLength() {
        return keyLength;
    }
}
