# SPDX-License-Identifier: Apache-2.0
"""Block cipher algorithms for :class:`fastsm2.ciphers.Cipher`, as
``cryptography.hazmat.primitives.ciphers.algorithms``: SM4 only."""
from .._sm4 import BLOCK_SIZE, KEY_SIZE
from .._util import BytesLike, as_bytes

__all__ = ["SM4"]


class SM4:
    """SM4 (GB/T 32907): a 128-bit key, 128-bit blocks. With
    :class:`~fastsm2.ciphers.modes.XTS` the key is 256 bits: the data key
    then the tweak key, as OpenSSL's SM4-XTS.

    >>> SM4(bytes(16)).key_size
    128
    """

    name = "SM4"
    block_size = BLOCK_SIZE * 8
    key_sizes = frozenset([128, 256])

    def __init__(self, key: BytesLike) -> None:
        key = as_bytes(key, "key")
        if len(key) not in (KEY_SIZE, 2 * KEY_SIZE):
            raise ValueError("Invalid key size (%d) for SM4." % (len(key) * 8))
        self.key = key

    @property
    def key_size(self) -> int:
        """The key's length in bits."""
        return len(self.key) * 8

    def __repr__(self) -> str:
        return "<fastsm2.ciphers.algorithms.SM4 (%d-bit key)>" % self.key_size
