# SPDX-License-Identifier: Apache-2.0
"""SM2 key exchange (GB/T 32918.3 clause 6) as initiator/responder objects.

Both sides::

    a = KeyExchangeInitiator(key_a, pub_b)       b = KeyExchangeResponder(key_b, pub_a)
    ra = a.start()            --- RA --->        rb = b.start()
                              <-- RB ---         kb = b.compute(ra, 16)
    ka = a.compute(rb, 16)                       (kb == ka)
    a.verify_confirmation(b.confirmation())      # S_B, optional
    b.verify_confirmation(a.confirmation())      # S_A, optional
"""
from ._errors import check_ok, raise_for
from ._keys import PrivateKey, PublicKey
from ._native import ffi, lib
from ._util import DEFAULT_ID, BytesLike, IdLike, as_bytes, as_fixed, as_id, wipe

__all__ = ["KeyExchange", "KeyExchangeInitiator", "KeyExchangeResponder"]


class KeyExchange:
    """One side of an SM2 key exchange. Use :class:`KeyExchangeInitiator`
    (user A) or :class:`KeyExchangeResponder` (user B). Not for use by two
    threads at once. The ephemeral secret is wiped on :meth:`clear` or when
    the object is garbage-collected."""

    _role = -1

    def __init__(self, key: PrivateKey, peer: PublicKey, *, id: IdLike = DEFAULT_ID,
                 peer_id: IdLike = DEFAULT_ID) -> None:
        if not isinstance(key, PrivateKey):
            raise TypeError("key must be a fastsm2.PrivateKey")
        if not isinstance(peer, PublicKey):
            raise TypeError("peer must be a fastsm2.PublicKey")
        ident, peer_ident = as_id(id), as_id(peer_id)
        self._ctx = ffi.new("fastsm2_kx_ctx *")
        check_ok(lib.fastsm2_kx_init(self._ctx, self._role, key._k, ident, len(ident), peer._p, peer_ident,
                                     len(peer_ident)))

    def __del__(self) -> None:
        ctx = getattr(self, "_ctx", None)
        if ctx is not None and lib is not None:
            lib.fastsm2_kx_clear(ctx)

    def clear(self) -> None:
        """Wipe the context (its ephemeral r and shared point)."""
        lib.fastsm2_kx_clear(self._ctx)

    def start(self) -> bytes:
        """Draw r in [1, n-1] and return R = rG (65 bytes, 04 || x || y) to
        send to the peer (A1-A3 / B1-B3)."""
        out = ffi.new("unsigned char[65]")
        check_ok(lib.fastsm2_kx_start(self._ctx, out))
        return ffi.buffer(out, 65)[:]

    def _start_with_nonce(self, r: BytesLike) -> bytes:
        rb = as_fixed(r, 32, "r")
        out = ffi.new("unsigned char[65]")
        check_ok(lib.fastsm2_kx_start_with_nonce(self._ctx, out, rb))
        return ffi.buffer(out, 65)[:]

    def compute(self, peer_R: BytesLike, length: int = 16) -> bytes:
        """Take the peer's R (SEC1, validated) and return the shared key K
        of `length` bytes, 1..65536 (A4-A8 / B4-B8). Raises PointError for a
        bad R, StateError before :meth:`start`."""
        R = as_bytes(peer_R, "peer_R")
        if not isinstance(length, int) or isinstance(length, bool):
            raise TypeError("length must be an int")
        if length < 1 or length > 65536:
            raise_for(lib.FASTSM2_ERR_LENGTH)
        out = ffi.new("unsigned char[]", length)
        check_ok(lib.fastsm2_kx_compute(self._ctx, out, length, R, len(R)))
        k = ffi.buffer(out, length)[:]
        wipe(out, length)  # the shared key: only in the bytes returned
        return k

    def confirmation(self) -> bytes:
        """The 32-byte confirmation this side sends: S_B for the responder,
        S_A for the initiator."""
        out = ffi.new("unsigned char[32]")
        check_ok(lib.fastsm2_kx_confirmation(out, self._ctx))
        return ffi.buffer(out, 32)[:]

    def verify_confirmation(self, value: BytesLike) -> None:
        """Check the peer's confirmation (S_B against S_1 on the initiator,
        S_A against S_2 on the responder); raises ConfirmError on a
        mismatch."""
        v = as_bytes(value, "confirmation")
        if len(v) != 32:
            raise_for(lib.FASTSM2_ERR_CONFIRM)
        check_ok(lib.fastsm2_kx_verify_confirmation(self._ctx, v))


class KeyExchangeInitiator(KeyExchange):
    """User A of GB/T 32918.3: sends R_A first, checks S_B, sends S_A."""

    _role = lib.FASTSM2_KX_INITIATOR


class KeyExchangeResponder(KeyExchange):
    """User B of GB/T 32918.3: answers with R_B (and S_B), checks S_A."""

    _role = lib.FASTSM2_KX_RESPONDER
