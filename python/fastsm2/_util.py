# SPDX-License-Identifier: Apache-2.0
"""Input coercion shared by the modules: what Python values the C calls take."""
from typing import Union

from ._native import ffi

BytesLike = Union[bytes, bytearray, memoryview]
IdLike = Union[bytes, bytearray, memoryview, str, None]

#: The default signer ID of GB/T 32918.2 / GM/T 0009.
DEFAULT_ID = b"1234567812345678"


def as_bytes(data: object, what: str = "data") -> bytes:
    """bytes from a bytes-like object; TypeError for anything else (str
    included: text has no single byte encoding here)."""
    if type(data) is bytes:
        return data  # type: ignore[return-value]
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    if isinstance(data, memoryview):
        return data.tobytes()
    raise TypeError("%s must be bytes-like, not %s" % (what, type(data).__name__))


def as_fixed(data: object, size: int, what: str) -> bytes:
    """bytes of exactly `size` bytes; TypeError/ValueError otherwise."""
    b = as_bytes(data, what)
    if len(b) != size:
        raise ValueError("%s must be %d bytes, not %d" % (what, size, len(b)))
    return b


def as_id(ident: object) -> bytes:
    """A signer ID: bytes-like, or str encoded as UTF-8; None is the default
    ID. b"" (or "") is the EMPTY ID, what OpenSSL signs with when no
    distinguishing ID is set: the C calls get a non-NULL pointer with
    length 0 (include/fastsm2.h)."""
    if ident is None:
        return DEFAULT_ID
    if isinstance(ident, str):
        return ident.encode("utf-8")
    return as_bytes(ident, "id")


def as_text_or_bytes(data: object, what: str) -> bytes:
    """PEM/DER input: bytes-like, or str (PEM text) encoded as ASCII."""
    if isinstance(data, str):
        try:
            return data.encode("ascii")
        except UnicodeEncodeError:
            raise ValueError("%s: PEM text must be ASCII" % what) from None
    return as_bytes(data, what)


def as_buffer(data: object, what: str = "data"):
    """A cdata view of a bytes-like object without copying (for large inputs
    such as SM3 updates); TypeError for anything else."""
    if isinstance(data, memoryview) and not data.c_contiguous:
        data = data.tobytes()
    if isinstance(data, (bytes, bytearray, memoryview)):
        return ffi.from_buffer(data)
    raise TypeError("%s must be bytes-like, not %s" % (what, type(data).__name__))


def int_to_32(value: object, what: str) -> bytes:
    """A non-negative int < 2^256 as 32 bytes big-endian."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("%s must be an int, not %s" % (what, type(value).__name__))
    if value < 0 or value >= 1 << 256:
        raise ValueError("%s out of range" % what)
    return value.to_bytes(32, "big")


def wipe(cdata, size: int) -> None:
    """Overwrite size bytes of a cffi buffer with zeros: for secrets (d, a
    private key file, a shared key) once they have been copied out."""
    ffi.memmove(cdata, b"\0" * size, size)
