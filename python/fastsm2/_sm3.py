# SPDX-License-Identifier: Apache-2.0
"""SM3 (GB/T 32905) as a hashlib-style object, and the SM3 KDF
(GB/T 32918.4 5.4.3)."""
from ._errors import check_ok, raise_for
from ._native import ffi, lib
from ._util import BytesLike, as_buffer

__all__ = ["sm3", "sm3_digest", "kdf", "hmac_sm3", "HMACSM3"]

# Largest KDF output: (2^32 - 1) blocks of 32 bytes, less one byte (the C
# library's bound).
KDF_MAX = 0xFFFFFFFF * 32 - 1


class sm3:
    """SM3 hash object with the hashlib interface: ``update``, ``digest``,
    ``hexdigest``, ``copy``, ``name``, ``digest_size`` and ``block_size``.
    Works with :mod:`hmac` (``hmac.new(key, msg, fastsm2.sm3)``).

    >>> sm3(b"abc").hexdigest()[:16]
    '66c7f0f462eeedd9'
    """

    __slots__ = ("_ctx",)
    name = "sm3"
    digest_size = 32
    block_size = 64

    def __init__(self, data: BytesLike = b"", *, usedforsecurity: bool = True) -> None:
        self._ctx = ffi.new("fastsm2_sm3_ctx *")
        lib.fastsm2_sm3_init(self._ctx)
        if data:
            self.update(data)
        elif not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("data must be bytes-like, not %s" % type(data).__name__)

    def update(self, data: BytesLike) -> None:
        """Absorb more bytes (the GIL is released while hashing)."""
        buf = as_buffer(data)
        lib.fastsm2_sm3_update(self._ctx, buf, len(buf))

    def digest(self) -> bytes:
        """The 32-byte digest of everything absorbed so far; the object stays
        usable."""
        tmp = ffi.new("fastsm2_sm3_ctx *", self._ctx[0])
        out = ffi.new("unsigned char[32]")
        lib.fastsm2_sm3_final(out, tmp)
        return ffi.buffer(out, 32)[:]

    def hexdigest(self) -> str:
        """The digest as 64 lowercase hex digits."""
        return self.digest().hex()

    def copy(self) -> "sm3":
        """An independent copy of the current state."""
        other = sm3.__new__(sm3)
        other._ctx = ffi.new("fastsm2_sm3_ctx *", self._ctx[0])
        return other

    def __repr__(self) -> str:
        return "<fastsm2.sm3 object>"


def sm3_digest(data: BytesLike) -> bytes:
    """SM3 of data in one call (GB/T 32905 clause 5): the same as
    ``sm3(data).digest()``."""
    buf = as_buffer(data)
    out = ffi.new("unsigned char[32]")
    lib.fastsm2_sm3(out, buf, len(buf))
    return ffi.buffer(out, 32)[:]


def hmac_sm3(key: BytesLike, msg: BytesLike) -> bytes:
    """HMAC-SM3 (RFC 2104 over GB/T 32905 SM3) of msg under key, 32 bytes:
    what ``openssl dgst -sm3 -hmac`` computes. The same as
    ``hmac.new(key, msg, fastsm2.sm3).digest()`` (use that form for
    streaming)."""
    k = as_buffer(key, "key")
    m = as_buffer(msg, "msg")
    out = ffi.new("unsigned char[32]")
    check_ok(lib.fastsm2_hmac_sm3(out, k, len(k), m, len(m)))
    return ffi.buffer(out, 32)[:]


class HMACSM3:
    """Streaming HMAC-SM3 (RFC 2104 over GB/T 32905 SM3) in the C library:
    ``update``, ``digest``, ``hexdigest``, ``copy``; the same MAC as
    ``hmac.new(key, msg, fastsm2.sm3)``."""

    digest_size = 32
    block_size = 64
    name = "hmac-sm3"

    def __init__(self, key: BytesLike, msg: BytesLike = b"") -> None:
        k = as_buffer(key, "key")
        self._ctx = ffi.new("fastsm2_hmac_sm3_ctx *")
        check_ok(lib.fastsm2_hmac_sm3_init(self._ctx, k, len(k)))
        if msg:
            self.update(msg)

    def update(self, data: BytesLike) -> None:
        buf = as_buffer(data)
        lib.fastsm2_hmac_sm3_update(self._ctx, buf, len(buf))

    def copy(self) -> "HMACSM3":
        other = HMACSM3.__new__(HMACSM3)
        other._ctx = ffi.new("fastsm2_hmac_sm3_ctx *")
        ffi.memmove(other._ctx, self._ctx, ffi.sizeof("fastsm2_hmac_sm3_ctx"))
        return other

    def digest(self) -> bytes:
        out = ffi.new("unsigned char[32]")
        tmp = self.copy()  # held until final is done (its __del__ wipes it)
        lib.fastsm2_hmac_sm3_final(out, tmp._ctx)
        del tmp
        return ffi.buffer(out, 32)[:]

    def hexdigest(self) -> str:
        return self.digest().hex()

    def __del__(self) -> None:
        ctx = getattr(self, "_ctx", None)
        if ctx is not None:
            ffi.memmove(ctx, b"\0" * ffi.sizeof("fastsm2_hmac_sm3_ctx"), ffi.sizeof("fastsm2_hmac_sm3_ctx"))


def kdf(z: BytesLike, length: int) -> bytes:
    """The SM3 KDF of GB/T 32918.4 5.4.3: SM3(Z || 1) || SM3(Z || 2) || ...
    truncated to `length` bytes. An all-zero output is returned as it is (it
    is encryption that rejects one)."""
    buf = as_buffer(z, "z")
    if not isinstance(length, int) or isinstance(length, bool):
        raise TypeError("length must be an int, not %s" % type(length).__name__)
    if length < 0 or length > KDF_MAX:
        raise_for(lib.FASTSM2_ERR_ARG)
    if length == 0:
        return b""
    out = ffi.new("unsigned char[]", length)
    check_ok(lib.fastsm2_kdf(out, length, buf, len(buf)))
    return ffi.buffer(out, length)[:]
