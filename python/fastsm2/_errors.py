# SPDX-License-Identifier: Apache-2.0
"""Exceptions carrying the C library's status names (include/fastsm2.h).

Every error of the C library raises a subclass of :class:`FastSM2Error`
whose ``name`` is the C name (``"FASTSM2_ERR_DER"``) and ``code`` the C
value (-3). Input errors also derive from :class:`ValueError`, so code that
catches ``ValueError`` around parsing keeps working.
"""
from typing import Dict, Type

from ._native import ffi, lib

__all__ = [
    "FastSM2Error", "ArgumentError", "BufferTooSmallError", "DERError", "PEMError", "LengthError",
    "SignatureRangeError", "PrivateKeyError", "PointError", "BadSignatureError", "DecryptError",
    "CiphertextError", "IDError", "RandomError", "KeyFormatError", "KDFZeroError", "NoMemoryError",
    "ConfirmError", "StateError", "UnsupportedError", "ScalarError", "EncryptedKeyError", "PasswordError",
    "KeyCipherError", "CurveError", "CertificateError", "TooLargeError", "IterationsError", "TagError", "InvalidTag",
    "PaddingError", "IVError", "PublicKeyError", "NotYetValidError", "ExpiredError", "NotCAError",
    "PathLengthError", "KeyUsageError", "IssuerError", "ChainLoopError", "CriticalExtensionError", "BadNameError",
    "AlgorithmError", "DigestError", "RecipientError", "CertificateVerifyError", "error_for_code",
]


class FastSM2Error(Exception):
    """Base class of every error the C library reports.

    Attributes:
        code: the C status code (a negative int).
        name: its C name, e.g. ``"FASTSM2_ERR_DER"``.
    """

    code: int = 0
    name: str = "FASTSM2_ERR_UNKNOWN"

    def __init__(self, message: str = "", code: int = 0) -> None:
        if code:
            self.code = code
            self.name = ffi.string(lib.fastsm2_error_name(code)).decode()
        if not message:
            message = ffi.string(lib.fastsm2_strerror(self.code)).decode()
        super().__init__(message)


def _make(cname: str, pyname: str, *bases: type, doc: str) -> Type[FastSM2Error]:
    code = int(getattr(lib, cname))
    if not any(issubclass(b, FastSM2Error) for b in bases):
        bases = (FastSM2Error,) + bases
    cls = type(pyname, bases, {"code": code, "name": cname, "__doc__": doc,
                                                   "__module__": "fastsm2"})
    return cls


ArgumentError = _make("FASTSM2_ERR_ARG", "ArgumentError", ValueError,
                      doc="FASTSM2_ERR_ARG: a meaningless argument.")
BufferTooSmallError = _make("FASTSM2_ERR_BUFFER_TOO_SMALL", "BufferTooSmallError",
                            doc="FASTSM2_ERR_BUFFER_TOO_SMALL: output capacity too small.")
DERError = _make("FASTSM2_ERR_DER", "DERError", ValueError, doc="FASTSM2_ERR_DER: malformed or non-strict DER.")
PEMError = _make("FASTSM2_ERR_PEM", "PEMError", ValueError, doc="FASTSM2_ERR_PEM: malformed PEM armour or base64.")
LengthError = _make("FASTSM2_ERR_LENGTH", "LengthError", ValueError, doc="FASTSM2_ERR_LENGTH: input of a wrong length.")
SignatureRangeError = _make("FASTSM2_ERR_SIG_RANGE", "SignatureRangeError", ValueError,
                            doc="FASTSM2_ERR_SIG_RANGE: r or s = 0, >= n, or r + s = n.")
PrivateKeyError = _make("FASTSM2_ERR_PRIVATE_KEY", "PrivateKeyError", ValueError,
                        doc="FASTSM2_ERR_PRIVATE_KEY: d = 0 or d >= n - 1.")
PointError = _make("FASTSM2_ERR_POINT", "PointError", ValueError,
                   doc="FASTSM2_ERR_POINT: bad encoding, off the curve, or infinity.")
BadSignatureError = _make("FASTSM2_ERR_BAD_SIGNATURE", "BadSignatureError", ValueError,
                          doc="FASTSM2_ERR_BAD_SIGNATURE: well-formed but does not verify.")
DecryptError = _make("FASTSM2_ERR_DECRYPT", "DecryptError", ValueError,
                     doc="FASTSM2_ERR_DECRYPT: the C3 check failed; no plaintext is released.")
CiphertextError = _make("FASTSM2_ERR_CIPHERTEXT", "CiphertextError", ValueError,
                        doc="FASTSM2_ERR_CIPHERTEXT: truncated or malformed ciphertext.")
IDError = _make("FASTSM2_ERR_ID", "IDError", ValueError, doc="FASTSM2_ERR_ID: ID longer than 8191 bytes.")
RandomError = _make("FASTSM2_ERR_RANDOM", "RandomError", OSError, doc="FASTSM2_ERR_RANDOM: the OS CSPRNG failed.")
KeyFormatError = _make("FASTSM2_ERR_KEY_FORMAT", "KeyFormatError", ValueError,
                       doc="FASTSM2_ERR_KEY_FORMAT: key file of an unknown algorithm or curve.")
KDFZeroError = _make("FASTSM2_ERR_KDF_ZERO", "KDFZeroError", doc="FASTSM2_ERR_KDF_ZERO: KDF output all zero.")
NoMemoryError = _make("FASTSM2_ERR_NO_MEMORY", "NoMemoryError", MemoryError,
                      doc="FASTSM2_ERR_NO_MEMORY: allocation failed.")
ConfirmError = _make("FASTSM2_ERR_CONFIRM", "ConfirmError", ValueError,
                     doc="FASTSM2_ERR_CONFIRM: key exchange confirmation mismatch.")
StateError = _make("FASTSM2_ERR_STATE", "StateError", doc="FASTSM2_ERR_STATE: call out of order (key exchange).")
UnsupportedError = _make("FASTSM2_ERR_UNSUPPORTED", "UnsupportedError",
                         doc="FASTSM2_ERR_UNSUPPORTED: feature not built in (e.g. CUDA).")
ScalarError = _make("FASTSM2_ERR_SCALAR", "ScalarError", ValueError,
                    doc="FASTSM2_ERR_SCALAR: a nonce or scalar out of [1, n-1].")

# What a key file turned out to be instead of a plain SM2 key. They derive
# from KeyFormatError, which these files raised before they had names.
EncryptedKeyError = _make("FASTSM2_ERR_ENCRYPTED_KEY", "EncryptedKeyError", KeyFormatError,
                          doc="FASTSM2_ERR_ENCRYPTED_KEY: an encrypted key file; give password=.")
PasswordError = _make("FASTSM2_ERR_PASSWORD", "PasswordError", ValueError,
                      doc="FASTSM2_ERR_PASSWORD: wrong password, or a corrupted encrypted key.")
KeyCipherError = _make("FASTSM2_ERR_KEY_CIPHER", "KeyCipherError", KeyFormatError,
                       doc="FASTSM2_ERR_KEY_CIPHER: encrypted with a scheme not read (PBES1, legacy PEM "
                           "Proc-Type: 4,ENCRYPTED, another PRF or cipher).")
CurveError = _make("FASTSM2_ERR_CURVE", "CurveError", KeyFormatError,
                   doc="FASTSM2_ERR_CURVE: a key on another curve than sm2p256v1 (e.g. P-256).")
CertificateError = _make("FASTSM2_ERR_CERTIFICATE", "CertificateError", KeyFormatError,
                         doc="FASTSM2_ERR_CERTIFICATE: a certificate where a key was expected "
                             "(use PublicKey.from_certificate).")
TooLargeError = _make("FASTSM2_ERR_TOO_LARGE", "TooLargeError", KeyFormatError,
                      doc="FASTSM2_ERR_TOO_LARGE: larger than any key file or certificate.")
IterationsError = _make("FASTSM2_ERR_ITERATIONS", "IterationsError", KeyFormatError,
                        doc="FASTSM2_ERR_ITERATIONS: an encrypted key file asks for more PBKDF2 iterations than "
                            "the reader's limit (raise it with max_iterations=).")
# Symmetric decryption (SM4). The tag error is named as pyca/cryptography
# names it (cryptography.exceptions.InvalidTag), so that code written for
# cryptography's AEADs reads the same; TagError is the same class.
InvalidTag = _make("FASTSM2_ERR_TAG", "InvalidTag", ValueError,
                   doc="FASTSM2_ERR_TAG: authentication tag mismatch (SM4-GCM, SM4-CCM): the ciphertext, "
                       "nonce, associated data or key differ from the encryption's; no plaintext is released. "
                       "Also fastsm2.TagError.")
TagError = InvalidTag
PaddingError = _make("FASTSM2_ERR_PADDING", "PaddingError", ValueError,
                     doc="FASTSM2_ERR_PADDING: bad padding after decryption.")
IVError = _make("FASTSM2_ERR_IV", "IVError", ValueError, doc="FASTSM2_ERR_IV: IV or nonce of a wrong length.")
PublicKeyError = _make("FASTSM2_ERR_PUBLIC_KEY", "PublicKeyError", KeyFormatError,
                       doc="FASTSM2_ERR_PUBLIC_KEY: a public key where a private key was expected "
                           "(use PublicKey.from_pem / from_der).")

# Certificates, chains and CMS (fastsm2.x509, fastsm2.cms). A chain that
# does not verify raises one of the first eight, all CertificateVerifyError.


class CertificateVerifyError(ValueError):
    """A certificate chain refused: the base of the reasons below."""


NotYetValidError = _make("FASTSM2_ERR_NOT_YET_VALID", "NotYetValidError", CertificateVerifyError,
                         doc="FASTSM2_ERR_NOT_YET_VALID: a certificate not valid yet at the time checked.")
ExpiredError = _make("FASTSM2_ERR_EXPIRED", "ExpiredError", CertificateVerifyError,
                     doc="FASTSM2_ERR_EXPIRED: a certificate expired at the time checked.")
NotCAError = _make("FASTSM2_ERR_NOT_CA", "NotCAError", CertificateVerifyError,
                   doc="FASTSM2_ERR_NOT_CA: an issuer without basicConstraints cA.")
PathLengthError = _make("FASTSM2_ERR_PATH_LENGTH", "PathLengthError", CertificateVerifyError,
                        doc="FASTSM2_ERR_PATH_LENGTH: more CAs below an issuer than its pathLenConstraint allows, "
                            "or a path longer than the limit.")
KeyUsageError = _make("FASTSM2_ERR_KEY_USAGE", "KeyUsageError", CertificateVerifyError,
                      doc="FASTSM2_ERR_KEY_USAGE: keyUsage or extendedKeyUsage does not allow this use.")
IssuerError = _make("FASTSM2_ERR_ISSUER", "IssuerError", CertificateVerifyError,
                    doc="FASTSM2_ERR_ISSUER: no issuer found, or the chain ends at a certificate not trusted.")
ChainLoopError = _make("FASTSM2_ERR_CHAIN_LOOP", "ChainLoopError", CertificateVerifyError,
                       doc="FASTSM2_ERR_CHAIN_LOOP: a chain that comes back to a certificate already in it.")
CriticalExtensionError = _make("FASTSM2_ERR_CRITICAL", "CriticalExtensionError", CertificateVerifyError,
                               doc="FASTSM2_ERR_CRITICAL: a critical extension that is not understood.")
BadNameError = _make("FASTSM2_ERR_NAME", "BadNameError", ValueError,
                   doc="FASTSM2_ERR_NAME: a malformed name, subjectAltName or OID string.")
AlgorithmError = _make("FASTSM2_ERR_ALGORITHM", "AlgorithmError", ValueError,
                       doc="FASTSM2_ERR_ALGORITHM: an algorithm other than SM2, SM3, SM4 where one is needed.")
DigestError = _make("FASTSM2_ERR_DIGEST", "DigestError", ValueError,
                    doc="FASTSM2_ERR_DIGEST: the content's digest differs from the signed one (CMS).")
RecipientError = _make("FASTSM2_ERR_RECIPIENT", "RecipientError", ValueError,
                       doc="FASTSM2_ERR_RECIPIENT: no recipient of an enveloped message matches the key.")

_BY_CODE: Dict[int, Type[FastSM2Error]] = {
    c.code: c for c in (ArgumentError, BufferTooSmallError, DERError, PEMError, LengthError, SignatureRangeError,
                        PrivateKeyError, PointError, BadSignatureError, DecryptError, CiphertextError, IDError,
                        RandomError, KeyFormatError, KDFZeroError, NoMemoryError, ConfirmError, StateError,
                        UnsupportedError, ScalarError, EncryptedKeyError, PasswordError, KeyCipherError, CurveError,
                        CertificateError, TooLargeError, IterationsError, InvalidTag, PaddingError, IVError,
                        PublicKeyError, NotYetValidError, ExpiredError, NotCAError, PathLengthError, KeyUsageError,
                        IssuerError, ChainLoopError, CriticalExtensionError, BadNameError, AlgorithmError, DigestError,
                        RecipientError)
}


def error_for_code(code: int) -> FastSM2Error:
    """The exception for a C status code (a plain FastSM2Error for a code
    this module does not know)."""
    if not isinstance(code, int) or isinstance(code, bool):
        raise TypeError("code must be an int")
    if not -(1 << 31) <= code < 1 << 31:
        raise ValueError("code out of the range of a C int")
    cls = _BY_CODE.get(code)
    if cls is None:
        return FastSM2Error(code=code)
    return cls()


def raise_for(code: int) -> None:
    """Raise the exception for a non-OK C status code."""
    raise error_for_code(code)


def check_ok(ret: int) -> None:
    """Raise the exception for a C status code unless it is FASTSM2_OK."""
    if ret != lib.FASTSM2_OK:
        raise_for(ret)
