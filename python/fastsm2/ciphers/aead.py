# SPDX-License-Identifier: Apache-2.0
"""One-shot SM4 AEADs shaped like
``cryptography.hazmat.primitives.ciphers.aead`` (``AESGCM``, ``AESCCM``):
:class:`SM4GCM` (NIST SP 800-38D; TLS 1.3's TLS_SM4_GCM_SM3, RFC 8998) and
:class:`SM4CCM` (NIST SP 800-38C; TLS_SM4_CCM_SM3). ``encrypt`` returns
ciphertext || tag; ``decrypt`` returns the plaintext or raises
:class:`fastsm2.InvalidTag` and releases nothing.

>>> from fastsm2 import SM4GCM
>>> key = SM4GCM.generate_key()
>>> aead = SM4GCM(key)
>>> nonce = bytes(12)                       # unique per message under one key
>>> ct = aead.encrypt(nonce, b"data", b"header")
>>> aead.decrypt(nonce, ct, b"header")
b'data'
"""
import os
from typing import Optional

from .. import _sm4
from .._util import BytesLike, as_bytes

__all__ = ["SM4GCM", "SM4CCM"]

# cryptography's limits on one AEAD message
_MAX_SIZE = 2**31 - 1


def _check_data(data: object, aad: object) -> None:
    if isinstance(data, (bytes, bytearray, memoryview)) and len(data) > _MAX_SIZE:
        raise OverflowError("Data or associated data too long. Max 2**31 - 1 bytes")
    if isinstance(aad, (bytes, bytearray, memoryview)) and len(aad) > _MAX_SIZE:
        raise OverflowError("Data or associated data too long. Max 2**31 - 1 bytes")


def _generate_key(bit_length: int) -> bytes:
    if not isinstance(bit_length, int) or isinstance(bit_length, bool):
        raise TypeError("bit_length must be an integer")
    if bit_length != 128:
        raise ValueError("bit_length must be 128 (SM4 keys are 128 bits)")
    return os.urandom(16)


class SM4GCM:
    """SM4-GCM with a 16-byte tag. Nonces of 8 to 128 bytes (12 is the
    recommended and fast length); never reuse one under a key.

    The same bytes as cryptography's ``Cipher(algorithms.SM4(key),
    modes.GCM(nonce))`` followed by its tag, and as Spark's layout in
    :func:`fastsm2.spark.sm4_encrypt` minus the IV in front."""

    __slots__ = ("_key",)

    def __init__(self, key: BytesLike) -> None:
        self._key = _sm4.Key(key)

    @classmethod
    def generate_key(cls, bit_length: int = 128) -> bytes:
        """A random 16-byte key from the OS (``os.urandom``)."""
        return _generate_key(bit_length)

    @staticmethod
    def _nonce(nonce: object) -> bytes:
        n = as_bytes(nonce, "nonce")
        if len(n) < 8 or len(n) > 128:
            raise ValueError("Nonce must be between 8 and 128 bytes")
        return n

    def encrypt(self, nonce: BytesLike, data: BytesLike, associated_data: Optional[BytesLike]) -> bytes:
        """Ciphertext || 16-byte tag of data; associated_data (or None) is
        authenticated, not encrypted."""
        _check_data(data, associated_data)
        return _sm4.gcm_encrypt(self._key, self._nonce(nonce), data, associated_data)

    def decrypt(self, nonce: BytesLike, data: BytesLike, associated_data: Optional[BytesLike]) -> bytes:
        """The plaintext of ciphertext || tag, or :class:`fastsm2.InvalidTag`
        (nothing released) if it, the nonce or the associated data differ."""
        _check_data(data, associated_data)
        return _sm4.gcm_decrypt(self._key, self._nonce(nonce), data, associated_data)

    def __reduce__(self):
        raise TypeError("SM4GCM objects hold a key and are not pickled")


class SM4CCM:
    """SM4-CCM with a tag of tag_length bytes (4, 6, 8, 10, 12, 14 or 16;
    default 16). Nonces of 7 to 13 bytes (RFC 8998's TLS uses 12); a
    message must be shorter than 2^(8 * (15 - len(nonce))) bytes.

    The same bytes as RustCrypto's ``ccm`` over SM4 and OpenSSL's SM4-CCM."""

    __slots__ = ("_key", "_tag_length")

    def __init__(self, key: BytesLike, tag_length: int = 16) -> None:
        if not isinstance(tag_length, int) or isinstance(tag_length, bool):
            raise TypeError("tag_length must be an integer")
        if tag_length not in (4, 6, 8, 10, 12, 14, 16):
            raise ValueError("Invalid tag_length")
        self._key = _sm4.Key(key)
        self._tag_length = tag_length

    @classmethod
    def generate_key(cls, bit_length: int = 128) -> bytes:
        """A random 16-byte key from the OS (``os.urandom``)."""
        return _generate_key(bit_length)

    @staticmethod
    def _nonce(nonce: object, data: object) -> bytes:
        n = as_bytes(nonce, "nonce")
        if len(n) < 7 or len(n) > 13:
            raise ValueError("Nonce must be between 7 and 13 bytes")
        if isinstance(data, (bytes, bytearray, memoryview)) and 15 - len(n) < 8 and \
                len(data) >= 1 << (8 * (15 - len(n))):
            raise ValueError("Data too long for nonce")
        return n

    def encrypt(self, nonce: BytesLike, data: BytesLike, associated_data: Optional[BytesLike]) -> bytes:
        """Ciphertext || tag of data."""
        _check_data(data, associated_data)
        return _sm4.ccm_encrypt(self._key, self._nonce(nonce, data), data, associated_data, self._tag_length)

    def decrypt(self, nonce: BytesLike, data: BytesLike, associated_data: Optional[BytesLike]) -> bytes:
        """The plaintext of ciphertext || tag, or :class:`fastsm2.InvalidTag`."""
        _check_data(data, associated_data)
        return _sm4.ccm_decrypt(self._key, self._nonce(nonce, data), data, associated_data, self._tag_length)

    def __reduce__(self):
        raise TypeError("SM4CCM objects hold a key and are not pickled")
