# SPDX-License-Identifier: Apache-2.0
"""Modes of operation for :class:`fastsm2.ciphers.Cipher`, as
``cryptography.hazmat.primitives.ciphers.modes``: ECB, CBC, CTR, OFB, CFB
(128-bit feedback), GCM and XTS. None pads: CBC and ECB take whole blocks
(:mod:`fastsm2.padding` pads them, or use :func:`fastsm2.ciphers.sm4_cbc_encrypt`
with the library's PKCS#7)."""
from typing import Optional

from .._util import BytesLike, as_bytes

__all__ = ["Mode", "ECB", "CBC", "CTR", "OFB", "CFB", "GCM", "XTS"]


class Mode:
    """A mode of operation: its name and its parameter checks."""

    name = ""

    def validate_for_algorithm(self, algorithm) -> None:
        if algorithm.key_size != 128:
            raise ValueError("Invalid key size (%d) for SM4 in %s mode." % (algorithm.key_size, self.name))


class _IVMode(Mode):
    _what = "initialization_vector"

    def __init__(self, initialization_vector: BytesLike) -> None:
        iv = as_bytes(initialization_vector, self._what)
        self._iv = iv

    @property
    def initialization_vector(self) -> bytes:
        return self._iv

    def validate_for_algorithm(self, algorithm) -> None:
        super().validate_for_algorithm(algorithm)
        if len(self._iv) * 8 != algorithm.block_size:
            raise ValueError("Invalid IV size (%d) for %s." % (len(self._iv), self.name))


class ECB(Mode):
    """Electronic codebook: each 16-byte block on its own (GB/T 32907's
    examples are single blocks). Equal blocks give equal ciphertext: for
    data, use GCM."""

    name = "ECB"


class CBC(_IVMode):
    """Cipher block chaining (SP 800-38A 6.2), a 16-byte IV."""

    name = "CBC"


class OFB(_IVMode):
    """Output feedback (SP 800-38A 6.4), a 16-byte IV."""

    name = "OFB"


class CFB(_IVMode):
    """Cipher feedback with 128-bit segments (SP 800-38A 6.3; OpenSSL's
    SM4-CFB), a 16-byte IV."""

    name = "CFB"


class CTR(Mode):
    """Counter mode (SP 800-38A 6.5): the 16-byte nonce is the first counter
    block, incremented as one 128-bit big-endian number (OpenSSL's
    SM4-CTR)."""

    name = "CTR"

    def __init__(self, nonce: BytesLike) -> None:
        self._nonce = as_bytes(nonce, "nonce")

    @property
    def nonce(self) -> bytes:
        return self._nonce

    def validate_for_algorithm(self, algorithm) -> None:
        super().validate_for_algorithm(algorithm)
        if len(self._nonce) * 8 != algorithm.block_size:
            raise ValueError("Invalid nonce size (%d) for CTR." % len(self._nonce))


class GCM(Mode):
    """Galois/counter mode (SP 800-38D): an IV of 8 to 128 bytes (12 is
    the fast and recommended length), a tag of min_tag_length to 16 bytes
    (min_tag_length at least 4). Decrypting needs the tag, here or in
    ``finalize_with_tag``."""

    name = "GCM"
    _MAX_ENCRYPTED_BYTES = (2**39 - 256) // 8
    _MAX_AAD_BYTES = (2**64) // 8

    def __init__(self, initialization_vector: BytesLike, tag: Optional[BytesLike] = None,
                 min_tag_length: int = 16) -> None:
        iv = as_bytes(initialization_vector, "initialization_vector")
        if len(iv) < 8 or len(iv) > 128:
            raise ValueError("initialization_vector must be between 8 and 128 bytes (64 and 1024 bits).")
        if not isinstance(min_tag_length, int) or isinstance(min_tag_length, bool):
            raise TypeError("min_tag_length must be an int")
        if min_tag_length < 4:
            raise ValueError("min_tag_length must be >= 4")
        if tag is not None:
            tag = as_bytes(tag, "tag")
            if len(tag) < min_tag_length:
                raise ValueError("Authentication tag must be {} bytes or longer.".format(min_tag_length))
            if len(tag) > 16:
                raise ValueError("Authentication tag cannot be more than 16 bytes.")
        self._iv = iv
        self._tag = tag
        self._min_tag_length = min_tag_length

    @property
    def initialization_vector(self) -> bytes:
        return self._iv

    @property
    def tag(self) -> Optional[bytes]:
        return self._tag


class XTS(Mode):
    """XTS (IEEE 1619, GB/T 17964): a 16-byte tweak (the data unit's
    number), a 256-bit key (data key then tweak key, which must differ for
    encryption), each data unit of 16 bytes to 16 MiB given to one
    ``update``. ``standard="gb"`` (GB/T
    17964's tweak order, OpenSSL's default for SM4-XTS) or ``"ieee"``."""

    name = "XTS"

    def __init__(self, tweak: BytesLike, standard: str = "gb") -> None:
        tweak = as_bytes(tweak, "tweak")
        if len(tweak) != 16:
            raise ValueError("tweak must be 128-bits (16 bytes)")
        if standard not in ("gb", "ieee"):
            raise ValueError('standard must be "gb" or "ieee"')
        self._tweak = tweak
        self.standard = standard

    @property
    def tweak(self) -> bytes:
        return self._tweak

    def validate_for_algorithm(self, algorithm) -> None:
        if algorithm.key_size != 256:
            raise ValueError("The XTS specification requires a 256-bit key for SM4 (two 128-bit keys)")
