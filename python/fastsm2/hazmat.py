# SPDX-License-Identifier: Apache-2.0
"""Calls with caller-chosen nonces, FOR TESTS AND KNOWN ANSWERS ONLY.

A repeated or predictable nonce k reveals the private key. These exist so
that the worked examples of GB/T 32918.5 can be reproduced."""
from ._errors import check_ok
from ._keys import PrivateKey, PublicKey, _ct_flags
from ._kx import KeyExchange
from ._native import ffi, lib
from ._util import BytesLike, as_bytes, as_fixed

__all__ = ["sign_digest_with_nonce", "encrypt_with_nonce", "kx_start_with_nonce"]


def sign_digest_with_nonce(key: PrivateKey, digest: BytesLike, k: BytesLike) -> bytes:
    """GB/T 32918.2 6.1 A4-A7 with the given k (32 bytes): raw r || s."""
    if not isinstance(key, PrivateKey):
        raise TypeError("key must be a PrivateKey")
    e = as_fixed(digest, 32, "digest")
    kb = as_fixed(k, 32, "k")
    sig = ffi.new("unsigned char[64]")
    check_ok(lib.fastsm2_sign_digest_with_nonce(sig, key._k, e, kb))
    return ffi.buffer(sig, 64)[:]


def encrypt_with_nonce(pub: PublicKey, data: BytesLike, k: BytesLike, raw: bool = False,
                       c1c2c3: bool = False) -> bytes:
    """GB/T 32918.4 6.1 with the given k (32 bytes)."""
    if not isinstance(pub, PublicKey):
        raise TypeError("pub must be a PublicKey")
    m = as_bytes(data, "data")
    kb = as_fixed(k, 32, "k")
    flags = _ct_flags(raw, c1c2c3)
    cap = lib.fastsm2_ciphertext_size(len(m), flags)
    out = ffi.new("unsigned char[]", cap)
    outlen = ffi.new("size_t *", cap)
    check_ok(lib.fastsm2_encrypt_with_nonce(out, outlen, pub._p, m, len(m), flags, kb))
    return ffi.buffer(out, outlen[0])[:]


def kx_start_with_nonce(kx: KeyExchange, r: BytesLike) -> bytes:
    """GB/T 32918.3 6.1 A2-A3 / B2-B3 with the given r: R = rG (65 bytes)."""
    if not isinstance(kx, KeyExchange):
        raise TypeError("kx must be a KeyExchange")
    return kx._start_with_nonce(r)
