# SPDX-License-Identifier: Apache-2.0
"""PKCS#7 padding (RFC 5652 6.3) shaped like
``cryptography.hazmat.primitives.padding.PKCS7``, for
:class:`fastsm2.ciphers.Cipher` in ECB and CBC mode:

>>> from fastsm2.padding import PKCS7
>>> padder = PKCS7(128).padder()
>>> padded = padder.update(b"12345") + padder.finalize()
>>> len(padded), padded[-1]
(16, 11)
>>> unpadder = PKCS7(128).unpadder()
>>> unpadder.update(padded) + unpadder.finalize()
b'12345'

The unpadder checks the last block without branching on its bytes.
(Python gives no timing guarantee: where an attacker sees padding errors,
authenticate the ciphertext first or use SM4-GCM; the library's own
padded CBC, :func:`fastsm2.ciphers.sm4_cbc_decrypt`, unpads in C.)
"""
from ._util import BytesLike, as_bytes

__all__ = ["PKCS7"]


class PKCS7:
    """PKCS#7 for a block of block_size bits (8 to 2040, a multiple of 8;
    128 for SM4)."""

    def __init__(self, block_size: int) -> None:
        if not isinstance(block_size, int) or isinstance(block_size, bool):
            raise TypeError("block_size must be an int")
        if not 8 <= block_size <= 2040:
            raise ValueError("block_size must be in range(8, 2041).")
        if block_size % 8 != 0:
            raise ValueError("block_size must be a multiple of 8.")
        self.block_size = block_size

    def padder(self) -> "_Padder":
        return _Padder(self.block_size // 8)

    def unpadder(self) -> "_Unpadder":
        return _Unpadder(self.block_size // 8)


class _Padder:
    def __init__(self, n: int) -> None:
        self._n = n
        self._buf = b""
        self._done = False

    def update(self, data: BytesLike) -> bytes:
        if self._done:
            from .ciphers import AlreadyFinalized
            raise AlreadyFinalized("Context was already finalized.")
        self._buf += as_bytes(data)
        whole = len(self._buf) // self._n * self._n
        out, self._buf = self._buf[:whole], self._buf[whole:]
        return out

    def finalize(self) -> bytes:
        if self._done:
            from .ciphers import AlreadyFinalized
            raise AlreadyFinalized("Context was already finalized.")
        self._done = True
        pad = self._n - len(self._buf)
        return self._buf + bytes([pad]) * pad


class _Unpadder:
    def __init__(self, n: int) -> None:
        self._n = n
        self._buf = b""
        self._done = False

    def update(self, data: BytesLike) -> bytes:
        if self._done:
            from .ciphers import AlreadyFinalized
            raise AlreadyFinalized("Context was already finalized.")
        self._buf += as_bytes(data)
        # keep the last whole block (it holds the padding) for finalize
        keep = max(len(self._buf) - 1, 0) // self._n * self._n
        out, self._buf = self._buf[:keep], self._buf[keep:]
        return out

    def finalize(self) -> bytes:
        if self._done:
            from .ciphers import AlreadyFinalized
            raise AlreadyFinalized("Context was already finalized.")
        self._done = True
        block, n = self._buf, self._n
        if len(block) != n:
            raise ValueError("Invalid padding bytes.")
        pad = block[-1]
        # bad = pad == 0 or pad > n or any of the last pad bytes != pad,
        # accumulated over the whole block with arithmetic only
        bad = ((pad - 1) >> 8) & 1 | ((n - pad) >> 8) & 1
        for i in range(n):
            in_pad = ((n - 1 - i - pad) >> 8) & 1  # 1 when i >= n - pad
            bad |= in_pad & ((block[i] ^ pad) + 0xFF) >> 8
        if bad:
            raise ValueError("Invalid padding bytes.")
        return block[:n - pad]
