# SPDX-License-Identifier: Apache-2.0
"""fastsm2: SM2 (GB/T 32918), SM3 (GB/T 32905) and SM4 (GB/T 32907) for Python.

A binding of the fastsm2 C library (cffi, API mode; the library's C sources
are compiled into the extension). Nothing cryptographic is done in Python.

>>> import fastsm2
>>> key = fastsm2.PrivateKey.generate()
>>> sig = key.sign(b"message")
>>> key.public_key.verify(b"message", sig)
True
>>> ct = key.public_key.encrypt(b"secret")
>>> key.decrypt(ct)
b'secret'
>>> fastsm2.sm3(b"abc").hexdigest()[:8]
'66c7f0f4'
>>> aead = fastsm2.SM4GCM(bytes(16))
>>> aead.decrypt(bytes(12), aead.encrypt(bytes(12), b"data", None), None)
b'data'
"""
from typing import List

from . import ciphers, cms, gpu, hazmat, padding, x509
from ._batch import GPU_MIN_BATCH, batch_backend, sign_batch, sign_digest_batch, verify_batch, verify_digest_batch
from ._errors import (ArgumentError, BadSignatureError, BufferTooSmallError, CiphertextError, ConfirmError,
                      DecryptError, DERError, FastSM2Error, IDError, KDFZeroError, KeyFormatError, LengthError,
                      NoMemoryError, PEMError, PointError, PrivateKeyError, RandomError, ScalarError,
                      SignatureRangeError, StateError, UnsupportedError, error_for_code, EncryptedKeyError,
                      PasswordError, KeyCipherError, CurveError, CertificateError, TooLargeError,
                      IterationsError, TagError, InvalidTag, PaddingError, IVError, PublicKeyError, NotYetValidError,
                      ExpiredError, NotCAError, PathLengthError, KeyUsageError, IssuerError, ChainLoopError,
                      CriticalExtensionError, BadNameError, AlgorithmError, DigestError, RecipientError,
                      CertificateVerifyError)
from ._keys import CURVE_ORDER, PrivateKey, PublicKey, sig_from_der, sig_to_der
from ._kx import KeyExchange, KeyExchangeInitiator, KeyExchangeResponder
from ._native import ffi as _ffi
from ._native import lib as _lib
from ._sm3 import HMACSM3, hmac_sm3, kdf, sm3, sm3_digest
from ._stream import DecryptStream, EncryptStream, decrypt_file, encrypt_file, sm3_many
from ._util import DEFAULT_ID
from .ciphers import SM4CCM, SM4GCM

__version__ = "0.3.0"

__all__ = [
    "PrivateKey", "PublicKey", "DEFAULT_ID", "CURVE_ORDER", "sm3", "sm3_digest", "sm3_many", "kdf", "sig_to_der", "sig_from_der",
    "EncryptStream", "DecryptStream", "encrypt_file", "decrypt_file",
    "KeyExchange", "KeyExchangeInitiator", "KeyExchangeResponder",
    "sign_digest_batch", "verify_digest_batch", "sign_batch", "verify_batch", "batch_backend", "GPU_MIN_BATCH",
    "gpu", "hazmat", "backend", "available_backends", "library_version",
    "FastSM2Error", "ArgumentError", "BufferTooSmallError", "DERError", "PEMError", "LengthError",
    "SignatureRangeError", "PrivateKeyError", "PointError", "BadSignatureError", "DecryptError",
    "CiphertextError", "IDError", "RandomError", "KeyFormatError", "KDFZeroError", "NoMemoryError",
    "ConfirmError", "StateError", "UnsupportedError", "ScalarError", "error_for_code",
    "EncryptedKeyError", "PasswordError", "KeyCipherError", "CurveError", "CertificateError", "TooLargeError",
    "IterationsError", "TagError", "InvalidTag", "PaddingError", "IVError", "PublicKeyError",
    "hmac_sm3", "HMACSM3", "ciphers", "padding", "SM4GCM", "SM4CCM",
    "x509", "cms", "NotYetValidError", "ExpiredError", "NotCAError", "PathLengthError", "KeyUsageError",
    "IssuerError", "ChainLoopError", "CriticalExtensionError", "BadNameError", "AlgorithmError", "DigestError",
    "RecipientError", "CertificateVerifyError",
]


def backend() -> str:
    """The C library's arithmetic backend in use ("generic", "adx", "avx2",
    ...); FASTSM2_CPU=<name> in the environment (set before import) forces
    one."""
    return _ffi.string(_lib.fastsm2_backend_name()).decode()


def available_backends() -> List[str]:
    """The backends this CPU can run."""
    names: List[str] = []
    i = 0
    while True:
        p = _lib.fastsm2_backend_available(i)
        if p == _ffi.NULL:
            return names
        names.append(_ffi.string(p).decode())
        i += 1


def library_version() -> str:
    """The C library's version string."""
    return _ffi.string(_lib.fastsm2_version()).decode()
