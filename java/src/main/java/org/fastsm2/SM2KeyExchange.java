// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.util.Arrays;

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
 * once; {@link #close} wipes the state.
 */
public final class SM2KeyExchange implements AutoCloseable {
    private final byte[] st = new byte[Native.kxStateSize()];
    private final byte[] R;
    private boolean computed, closed;

    public SM2KeyExchange(boolean initiator, PrivateKey own, byte[] ownId, PublicKey peer, byte[] peerId,
                          PrivateKey ephemeral) throws InvalidKeyException {
        SM2PrivateKey k = SM2.toSM2PrivateKey(own);
        SM2PublicKey p = SM2.toSM2PublicKey(peer);
        byte[] r = null;
        if (ephemeral != null) r = SM2.toSM2PrivateKey(ephemeral).toBytes();
        long kh = k.acquire();
        try {
            long ph = p.acquire();
            try {
                R = Native.kxStart(st, initiator ? 0 : 1, kh, ownId, ph, peerId, r);
            } finally {
                p.release();
            }
        } catch (NativeException e) {
            throw new InvalidKeyException("fastsm2: key exchange: " + e.getMessage(), e);
        } finally {
            k.release();
            if (r != null) Arrays.fill(r, (byte) 0);
        }
    }

    /** This side's R (65 bytes, 04 || x || y) to send to the peer. */
    public byte[] ephemeralPoint() {
        return R.clone();
    }

    /** K of klen bytes from the peer's R (SEC1 bytes or an ECPublicKey). */
    public byte[] computeKey(byte[] peerR, int klen) throws InvalidKeyException {
        checkOpen();
        try {
            byte[] k = Native.kxCompute(st, peerR, klen);
            computed = true;
            return k;
        } catch (NativeException e) {
            throw new InvalidKeyException("fastsm2: key exchange: " + e.getMessage(), e);
        }
    }

    byte[] computeKey(ECPublicKey peerR, int klen) throws InvalidKeyException {
        return computeKey(SM2Curve.encodePoint(peerR.getW()), klen);
    }

    /** The confirmation value this side sends: S_B (responder) or S_A
     *  (initiator); after computeKey. */
    public byte[] confirmation() {
        checkOpen();
        if (!computed) throw new IllegalStateException("fastsm2: computeKey first");
        return Native.kxConfirmation(st);
    }

    /** Check the peer's confirmation value (constant time). */
    public void verifyConfirmation(byte[] peerS) throws GeneralSecurityException {
        checkOpen();
        if (!computed) throw new IllegalStateException("fastsm2: computeKey first");
        if (peerS == null || peerS.length != 32) throw new GeneralSecurityException("fastsm2: a confirmation value is 32 bytes");
        int rc = Native.kxVerifyConfirmation(st, peerS);
        if (rc != 1) throw new GeneralSecurityException("fastsm2: key exchange confirmation mismatch (" + Native.errorName(rc) + ")");
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
