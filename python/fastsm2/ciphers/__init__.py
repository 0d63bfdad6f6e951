# SPDX-License-Identifier: Apache-2.0
"""SM4 (GB/T 32907) shaped like pyca/cryptography's
``cryptography.hazmat.primitives.ciphers``: the streaming
:class:`Cipher` with :mod:`~fastsm2.ciphers.algorithms` and
:mod:`~fastsm2.ciphers.modes`, and the one-shot AEADs of
:mod:`~fastsm2.ciphers.aead` (:class:`SM4GCM`, :class:`SM4CCM`, also at
``fastsm2.SM4GCM``). Code written for cryptography's SM4 ports by changing
its imports; the bytes are the same (the tests check them against
cryptography's SM4 in every mode it has).

>>> import os
>>> from fastsm2.ciphers import Cipher, algorithms, modes
>>> key, iv = os.urandom(16), os.urandom(16)
>>> enc = Cipher(algorithms.SM4(key), modes.CTR(iv)).encryptor()
>>> ct = enc.update(b"a secret message") + enc.finalize()
>>> dec = Cipher(algorithms.SM4(key), modes.CTR(iv)).decryptor()
>>> dec.update(ct) + dec.finalize()
b'a secret message'

Every operation runs in the C library (constant time in keys and data,
the GIL released); contexts wipe their state when finalized or collected.
A bad tag raises :class:`fastsm2.InvalidTag`; a context used after
``finalize`` raises :class:`AlreadyFinalized`.
"""
from typing import Optional, Type

from .. import _sm4
from .._errors import FastSM2Error, InvalidTag, StateError, _make
from .._native import lib
from .._util import BytesLike, as_bytes
from . import aead, algorithms, modes
from .aead import SM4CCM, SM4GCM

__all__ = ["Cipher", "CipherContext", "AEADEncryptionContext", "AEADDecryptionContext", "AlreadyFinalized",
           "NotYetFinalized", "AlreadyUpdated", "InvalidTag", "algorithms", "modes", "aead", "SM4GCM", "SM4CCM",
           "sm4_cbc_encrypt", "sm4_cbc_decrypt", "sm4_ecb_encrypt", "sm4_ecb_decrypt", "backend",
           "available_backends"]


def _state_error(name: str, doc: str) -> Type[FastSM2Error]:
    cls = _make("FASTSM2_ERR_STATE", name, StateError, doc=doc)
    cls.__module__ = __name__
    return cls


#: A context used after ``finalize`` (cryptography's ``AlreadyFinalized``);
#: also a :class:`fastsm2.StateError`.
AlreadyFinalized = _state_error("AlreadyFinalized", "A context used after finalize (cryptography's AlreadyFinalized).")
#: The GCM tag asked for before ``finalize`` (cryptography's
#: ``NotYetFinalized``).
NotYetFinalized = _state_error("NotYetFinalized", "The GCM tag asked for before finalize (cryptography's "
                                                  "NotYetFinalized).")
#: Associated data given after data (cryptography's ``AlreadyUpdated``).
AlreadyUpdated = _state_error("AlreadyUpdated", "Associated data given after data (cryptography's AlreadyUpdated).")


def backend() -> str:
    """The SM4 implementation the library picked for this CPU ("generic",
    "avx2-aesni", ...); ``FASTSM2_SM4=<name>`` or ``FASTSM2_CPU=generic``,
    set before the import, force one."""
    return _sm4.backend()


def available_backends():
    """The SM4 implementations this CPU can run."""
    return _sm4.available_backends()


_STREAM_MODES = {"ECB": lib.FASTSM2_SM4_ECB, "CBC": lib.FASTSM2_SM4_CBC, "CTR": lib.FASTSM2_SM4_CTR,
                 "OFB": lib.FASTSM2_SM4_OFB, "CFB": lib.FASTSM2_SM4_CFB}


class Cipher:
    """An algorithm (:class:`algorithms.SM4`) in a mode (:mod:`modes`): as
    cryptography's ``Cipher``, ``encryptor()`` and ``decryptor()`` return
    a streaming context (``update``, ``update_into``, ``finalize``; GCM adds
    ``authenticate_additional_data`` and the tag)."""

    def __init__(self, algorithm: algorithms.SM4, mode: modes.Mode, backend: object = None) -> None:
        if not isinstance(algorithm, algorithms.SM4):
            raise TypeError("algorithm must be fastsm2.ciphers.algorithms.SM4")
        if not isinstance(mode, modes.Mode):
            raise TypeError("mode must be one of fastsm2.ciphers.modes")
        mode.validate_for_algorithm(algorithm)
        self.algorithm = algorithm
        self.mode = mode

    def encryptor(self):
        """A context that encrypts."""
        if isinstance(self.mode, modes.GCM):
            if self.mode.tag is not None:
                raise ValueError("Authentication tag must be None when encrypting.")
            return AEADEncryptionContext(self.algorithm, self.mode)
        return CipherContext(self.algorithm, self.mode, True)

    def decryptor(self):
        """A context that decrypts."""
        if isinstance(self.mode, modes.GCM):
            return AEADDecryptionContext(self.algorithm, self.mode)
        return CipherContext(self.algorithm, self.mode, False)


class CipherContext:
    """A streaming ECB, CBC, CTR, OFB, CFB or XTS operation. ECB and CBC
    take whole blocks in total (an incomplete block at ``finalize`` raises
    ValueError, as cryptography does); XTS takes one data unit in one
    ``update``."""

    def __init__(self, algorithm: algorithms.SM4, mode: modes.Mode, encrypt: bool) -> None:
        self._xts: Optional[tuple] = None
        self._stream: Optional[_sm4.Stream] = None
        if isinstance(mode, modes.XTS):
            self._xts = (_sm4.Key(algorithm.key[:16]), _sm4.Key(algorithm.key[16:]), mode.standard == "ieee",
                         mode.tweak, encrypt)
        else:
            iv: Optional[bytes] = None
            if isinstance(mode, modes.CTR):
                iv = mode.nonce
            elif isinstance(mode, (modes.CBC, modes.OFB, modes.CFB)):
                iv = mode.initialization_vector
            key = _sm4.Key(algorithm.key)
            self._stream = _sm4.Stream(key, _STREAM_MODES[mode.name], encrypt, False, iv)
            key.clear()
        self._done = False
        self._xts_used = False

    def _check(self) -> None:
        if self._done:
            raise AlreadyFinalized("Context was already finalized.")

    def update(self, data: BytesLike) -> bytes:
        """Encrypt or decrypt more data; returns what is ready (whole
        blocks for ECB and CBC)."""
        self._check()
        if self._stream is not None:
            return self._stream.update(data)
        assert self._xts is not None
        data = as_bytes(data)
        if not data:
            return b""
        if self._xts_used:
            raise ValueError("XTS takes one data unit: one update() with data per context")
        self._xts_used = True
        k1, k2, ieee, tweak, enc = self._xts
        return _sm4.xts(k1, k2, ieee, tweak, data, enc)

    def update_into(self, data: BytesLike, buf) -> int:
        """As update, into the writable buffer buf (len(data) + 15 bytes
        always suffice); returns the number of bytes written."""
        self._check()
        if self._stream is not None:
            return self._stream.update_into(data, buf)
        out = self.update(data)
        view = memoryview(buf)
        if len(view) < len(out):
            raise ValueError("buffer must be at least %d bytes" % len(out))
        view[:len(out)] = out
        return len(out)

    def finalize(self) -> bytes:
        """End the operation: the last bytes (none for the stream modes);
        ValueError if ECB or CBC were given a partial block."""
        self._check()
        self._done = True
        if self._stream is None:
            assert self._xts is not None
            self._xts[0].clear()
            self._xts[1].clear()
            return b""
        try:
            return self._stream.finalize()
        except FastSM2Error as e:
            if e.code == lib.FASTSM2_ERR_LENGTH:
                raise ValueError("The length of the provided data is not a multiple of the block length.") from None
            raise


class _GCMContext:
    def __init__(self, algorithm: algorithms.SM4, mode: modes.GCM, encrypt: bool) -> None:
        key = _sm4.Key(algorithm.key)
        self._gcm = _sm4.GcmStream(key, encrypt, mode.initialization_vector)
        key.clear()
        self._mode = mode
        self._done = False
        self._updated = False

    def _check(self) -> None:
        if self._done:
            raise AlreadyFinalized("Context was already finalized.")

    def authenticate_additional_data(self, data: BytesLike) -> None:
        """Authenticate more associated data (all of it before the first
        update)."""
        self._check()
        if self._updated:
            raise AlreadyUpdated("Update has been called on this context.")
        self._gcm.aad(data)

    def update(self, data: BytesLike) -> bytes:
        self._check()
        self._updated = True
        return self._gcm.update(data)

    def update_into(self, data: BytesLike, buf) -> int:
        self._check()
        self._updated = True
        return self._gcm.update_into(data, buf)


class AEADEncryptionContext(_GCMContext):
    """A streaming GCM encryption: ``authenticate_additional_data``, then
    ``update``, ``finalize``, then ``tag`` (16 bytes)."""

    def __init__(self, algorithm: algorithms.SM4, mode: modes.GCM) -> None:
        super().__init__(algorithm, mode, True)
        self._tag: Optional[bytes] = None

    def finalize(self) -> bytes:
        self._check()
        self._done = True
        self._tag = self._gcm.encrypt_final()
        return b""

    @property
    def tag(self) -> bytes:
        if self._tag is None:
            raise NotYetFinalized("You must finalize encryption before getting the tag.")
        return self._tag


class AEADDecryptionContext(_GCMContext):
    """A streaming GCM decryption. WHAT ``update`` RETURNS IS NOT
    AUTHENTICATED until ``finalize`` (tag given in the mode) or
    ``finalize_with_tag(tag)`` returns: keep it from any use until then,
    and discard it when they raise :class:`fastsm2.InvalidTag`."""

    def __init__(self, algorithm: algorithms.SM4, mode: modes.GCM) -> None:
        super().__init__(algorithm, mode, False)

    def finalize(self) -> bytes:
        if self._mode.tag is None:
            raise ValueError("Authentication tag must be provided when decrypting.")
        return self.finalize_with_tag(self._mode.tag)

    def finalize_with_tag(self, tag: BytesLike) -> bytes:
        self._check()
        tag = as_bytes(tag, "tag")
        if len(tag) < self._mode._min_tag_length:
            raise ValueError("Authentication tag must be {} bytes or longer.".format(self._mode._min_tag_length))
        if len(tag) > 16:
            raise ValueError("Authentication tag cannot be more than 16 bytes.")
        self._done = True
        self._gcm.decrypt_final(tag)
        return b""


def sm4_cbc_encrypt(key: BytesLike, iv: BytesLike, data: BytesLike, padding: bool = True) -> bytes:
    """SM4-CBC in one call, PKCS#7 padding (RFC 5652 6.3) added by the
    library unless padding=False (then data is whole blocks)."""
    k = _sm4.Key(key)
    try:
        return _sm4.cbc_encrypt(k, iv, data, bool(padding))
    finally:
        k.clear()


def sm4_cbc_decrypt(key: BytesLike, iv: BytesLike, data: BytesLike, padding: bool = True) -> bytes:
    """SM4-CBC decryption in one call; the PKCS#7 padding checked in
    constant time and removed by the library (:class:`fastsm2.PaddingError`,
    nothing released, when it is bad). CBC has no integrity: authenticate
    first, or use SM4GCM."""
    k = _sm4.Key(key)
    try:
        return _sm4.cbc_decrypt(k, iv, data, bool(padding))
    finally:
        k.clear()


def sm4_ecb_encrypt(key: BytesLike, data: BytesLike, padding: bool = True) -> bytes:
    """SM4-ECB in one call, PKCS#7 by the library unless padding=False."""
    k = _sm4.Key(key)
    try:
        return _sm4.ecb(k, data, True, bool(padding))
    finally:
        k.clear()


def sm4_ecb_decrypt(key: BytesLike, data: BytesLike, padding: bool = True) -> bytes:
    """SM4-ECB decryption in one call, PKCS#7 checked in constant time and
    removed by the library unless padding=False."""
    k = _sm4.Key(key)
    try:
        return _sm4.ecb(k, data, False, bool(padding))
    finally:
        k.clear()
