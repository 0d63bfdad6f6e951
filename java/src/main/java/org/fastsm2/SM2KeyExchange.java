// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Arrays;
import org.fastsm2.internal.Native;
import org.fastsm2.internal.PrivateKeyRef;

/**
 * One side of an SM2 key exchange (GB/T 32918.3 6.1) with the optional
 * confirmation values. The flow, A the initiator and B the responder:
 * <pre>
 *   A: a = new SM2KeyExchange(true, dA, idA, PB, idB, null);  send a.ephemeralPoint()
 *   B: b = new SM2KeyExchange(false, dB, idB, PA, idA, null);  KB = b.computeKey(RA, klen);
 *      send b.ephemeralPoint() and b.confirmation() (S_B)
 *   A: KA = a.computeKey(RB, klen); a.verifyConfirmation(SB); send a.confirmation() (S_A)
 *   B: b.verifyConfirmation(SA)
 * </pre>
 * The ephemeral key is fresh from the library's generator, or the given
 * ephemeral private key (a key pair the caller made, as BouncyCastle's API
 * takes it). IDs: null is the default ID. Not for use by several threads at
 * once; {@link #close} wipes the state, and every later call is an
 * IllegalStateException.
 */
public final class SM2KeyExchange implements AutoCloseable {
    private final byte[] st = new byte[Native.kxStateSize()];
    private final byte[] R;
    private boolean computed, closed;

    /** @throws InvalidKeyException if a key is not an SM2 key, or an ID is over 8191 bytes */
    public SM2KeyExchange(boolean initiator, PrivateKey own, byte[] ownId, PublicKey peer, byte[] peerId,
                          PrivateKey ephemeral) throws InvalidKeyException {
        SM2PrivateKey k = SM2.toSM2PrivateKey(own);
        SM2PublicKey p = SM2.toSM2PublicKey(peer);
        byte[] r = null;
        PrivateKeyRef ref = k.ref;
        long stamp;
        try {
            if (ephemeral != null) r = SM2.toSM2PrivateKey(ephemeral).toBytes();
            stamp = ref.acquire();
        } catch (IllegalStateException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        }
        try {
            R = Native.kxStart(st, initiator ? 0 : 1, ref, ownId, p.ref, peerId, r);
        } finally {
            ref.release(stamp);
            if (r != null) Arrays.fill(r, (byte) 0);
        }
    }

    /** This side's R (65 bytes, 04 || x || y) to send to the peer. */
    public byte[] ephemeralPoint() {
        return R.clone();
    }

    /** K of klen bytes (1 to 65536) from the peer's R (SEC1 bytes).
     *  @throws InvalidKeyException if R is not a point of the curve
     *  @throws IllegalArgumentException for a bad klen
     *  @throws IllegalStateException after close() */
    public byte[] computeKey(byte[] peerR, int klen) throws InvalidKeyException {
        checkOpen();
        byte[] k = Native.kxCompute(st, peerR, klen);
        computed = true;
        return k;
    }

    /** The confirmation value this side sends: S_B (responder) or S_A
     *  (initiator); after computeKey.
     *  @throws IllegalStateException before computeKey or after close() */
    public byte[] confirmation() {
        checkOpen();
        if (!computed) throw new IllegalStateException("fastsm2: computeKey first");
        return Native.kxConfirmation(st);
    }

    /** Check the peer's confirmation value (constant time).
     *  @throws GeneralSecurityException when it does not match
     *  @throws IllegalStateException before computeKey or after close() */
    public void verifyConfirmation(byte[] peerS) throws GeneralSecurityException {
        checkOpen();
        if (!computed) throw new IllegalStateException("fastsm2: computeKey first");
        Native.kxVerifyConfirmation(st, peerS);
    }

    private void checkOpen() {
        if (closed) throw new IllegalStateException("fastsm2: the key exchange was closed");
    }

    /** Wipes the state; every later call is an IllegalStateException. */
    @Override
    public void close() {
        closed = true;
        Arrays.fill(st, (byte) 0);
    }
}
