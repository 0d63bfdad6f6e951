# SPDX-License-Identifier: Apache-2.0
"""Streaming SM2 encryption and decryption (GB/T 32918.4 clauses 6.1 and
7.1) for inputs too large to hold twice, and multi-buffer SM3.

The ciphertext formats are those of ``PublicKey.encrypt`` (DER, raw C1C3C2
or raw C1C2C3), byte for byte. A streaming decryption releases plaintext
bytes before the C3 check at :meth:`DecryptStream.final`: they must not be
used until it returns; :func:`decrypt_file` truncates its output when the
check fails.
"""
import os
from typing import BinaryIO, List, Sequence

from ._errors import KDFZeroError, check_ok, raise_for
from ._keys import PrivateKey, PublicKey, _ct_flags
from ._native import ffi, lib
from ._util import BytesLike, as_buffer, as_bytes, as_fixed

__all__ = ["EncryptStream", "DecryptStream", "encrypt_file", "decrypt_file", "sm3_many"]

PREFIX_MAX = int(lib.FASTSM2_CT_PREFIX_MAX)
_CHUNK = 1 << 20


def _uint(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("%s must be an int, not %s" % (what, type(value).__name__))
    if not 0 <= value < 1 << 64:
        raise ValueError("%s out of range" % what)
    return value


def _wipe(cdata, ctype: str) -> None:
    size = ffi.sizeof(ctype)
    ffi.memmove(cdata, b"\0" * size, size)


def sm3_many(msgs: Sequence[BytesLike]) -> List[bytes]:
    """SM3 digests of many independent messages in one C call (GB/T 32905;
    the messages share the backend's SIMD lanes). Equal to
    ``[sm3(m).digest() for m in msgs]``."""
    if isinstance(msgs, (bytes, bytearray, memoryview, str)):
        raise TypeError("msgs must be a sequence of bytes-like messages")
    bufs = [as_bytes(m, "msg") for m in msgs]
    n = len(bufs)
    if n == 0:
        return []
    blob = b"".join(bufs)
    base = ffi.from_buffer(blob)
    ptrs = ffi.new("unsigned char *[]", n)
    lens = ffi.new("size_t[]", [len(b) for b in bufs])
    off = 0
    for i, b in enumerate(bufs):
        ptrs[i] = ffi.cast("unsigned char *", base) + off
        off += len(b)
    out = ffi.new("unsigned char[]", 32 * n)
    check_ok(lib.fastsm2_sm3_many(out, ptrs, lens, n))
    buf = ffi.buffer(out)[:]
    return [buf[32 * i:32 * i + 32] for i in range(n)]


class EncryptStream:
    """Encrypt a message of a known length given in pieces.

    The ciphertext is :attr:`prefix`, then the pieces :meth:`update`
    returns (C2), and the 32-byte C3 from :meth:`final` goes at
    :attr:`c3_offset` from the start: inside the prefix (a zero placeholder
    there) for DER and C1C3C2, after C2 for raw C1C2C3."""

    def __init__(self, pub: PublicKey, length: int, raw: bool = False, c1c2c3: bool = False) -> None:
        if not isinstance(pub, PublicKey):
            raise TypeError("pub must be a fastsm2.PublicKey")
        length = _uint(length, "length")
        self._s = ffi.new("fastsm2_encrypt_stream *")
        prefix = ffi.new("unsigned char[]", PREFIX_MAX)
        plen = ffi.new("size_t *", PREFIX_MAX)
        off = ffi.new("uint64_t *")
        check_ok(lib.fastsm2_encrypt_stream_init(self._s, prefix, plen, off, pub._used(), length,
                                                 _ct_flags(raw, c1c2c3)))
        self.prefix: bytes = ffi.buffer(prefix, plen[0])[:]
        self.c3_offset: int = int(off[0])

    def update(self, data: BytesLike) -> bytes:
        """The C2 bytes of the next piece of the message."""
        buf = as_buffer(data)
        out = ffi.new("unsigned char[]", max(len(buf), 1))
        check_ok(lib.fastsm2_encrypt_stream_update(self._s, out, buf, len(buf)))
        return ffi.buffer(out, len(buf))[:]

    def final(self) -> bytes:
        """C3, once exactly `length` bytes went through :meth:`update`; the
        state is wiped. LengthError if fewer did; KDFZeroError if the KDF
        output was all zero (GB/T 32918.4 6.1 A5, probability 2^-8 per
        message byte): then encrypt again from the start with a new stream
        (a fresh k)."""
        c3 = ffi.new("unsigned char[32]")
        check_ok(lib.fastsm2_encrypt_stream_final(self._s, c3))
        return ffi.buffer(c3, 32)[:]

    def __del__(self) -> None:
        s = getattr(self, "_s", None)
        if s is not None and ffi is not None:
            _wipe(s, "fastsm2_encrypt_stream")


class DecryptStream:
    """Decrypt a ciphertext of a known length read in pieces.

    ``prefix`` is the first ``min(length, PREFIX_MAX)`` bytes of the
    ciphertext. The C2 bytes lie at [:attr:`c2_offset`, + :attr:`c2_length`)
    and C3 at :attr:`c3_offset`. :meth:`update` returns plaintext that is
    NOT AUTHENTICATED until :meth:`final` returns without raising."""

    def __init__(self, key: PrivateKey, prefix: BytesLike, length: int, raw: bool = False,
                 c1c2c3: bool = False) -> None:
        if not isinstance(key, PrivateKey):
            raise TypeError("key must be a fastsm2.PrivateKey")
        pre = as_bytes(prefix, "prefix")
        length = _uint(length, "length")
        self._s = ffi.new("fastsm2_decrypt_stream *")
        c2off, c2len, c3off = ffi.new("uint64_t *"), ffi.new("uint64_t *"), ffi.new("uint64_t *")
        check_ok(lib.fastsm2_decrypt_stream_init(self._s, c2off, c2len, c3off, key._k, pre, len(pre), length,
                                                 _ct_flags(raw, c1c2c3)))
        self.c2_offset: int = int(c2off[0])
        self.c2_length: int = int(c2len[0])
        self.c3_offset: int = int(c3off[0])

    def update(self, data: BytesLike) -> bytes:
        """Unauthenticated plaintext of the next piece of C2."""
        buf = as_buffer(data)
        out = ffi.new("unsigned char[]", max(len(buf), 1))
        check_ok(lib.fastsm2_decrypt_stream_update(self._s, out, ffi.cast("unsigned char *", buf), len(buf)))
        return ffi.buffer(out, len(buf))[:]

    def final(self, c3: BytesLike) -> None:
        """The C3 check (B6) after all of C2: returns None when the
        ciphertext authenticates, raises DecryptError (discard every byte
        update returned) or LengthError otherwise. Wipes the state."""
        c = as_fixed(c3, 32, "c3")
        check_ok(lib.fastsm2_decrypt_stream_final(self._s, c))

    def __del__(self) -> None:
        s = getattr(self, "_s", None)
        if s is not None and ffi is not None:
            _wipe(s, "fastsm2_decrypt_stream")


def _file_length(f: BinaryIO) -> int:
    pos = f.tell()
    f.seek(0, os.SEEK_END)
    end = f.tell()
    f.seek(pos)
    return end - pos


def encrypt_file(pub: PublicKey, src: BinaryIO, dst: BinaryIO, raw: bool = False, c1c2c3: bool = False,
                 chunk_size: int = _CHUNK) -> int:
    """Encrypt the rest of the seekable binary file `src` into `dst` (which
    must be seekable too, except for raw C1C2C3) without holding it in
    memory. Returns the ciphertext length. The output equals
    ``pub.encrypt(src.read(), raw, c1c2c3)`` in format. When the KDF output
    is all zero (GB/T 32918.4 6.1 A5: one time in 256 for a 1-byte file) it
    starts again with a fresh k, rewinding both files (KDFZeroError only if
    `dst` cannot be rewound)."""
    src_start = src.tell()
    dst_start = dst.tell() if dst.seekable() else None
    for attempt in range(16):
        try:
            return _encrypt_file_once(pub, src, dst, raw, c1c2c3, chunk_size)
        except KDFZeroError:
            if dst_start is None or attempt == 15:
                raise
            src.seek(src_start)
            dst.seek(dst_start)
            dst.truncate()
    raise AssertionError("not reached")


def _encrypt_file_once(pub: PublicKey, src: BinaryIO, dst: BinaryIO, raw: bool, c1c2c3: bool,
                       chunk_size: int) -> int:
    length = _file_length(src)
    st = EncryptStream(pub, length, raw=raw, c1c2c3=c1c2c3)
    start = dst.tell() if st.c3_offset < len(st.prefix) else 0
    dst.write(st.prefix)
    done = 0
    while done < length:
        piece = src.read(min(chunk_size, length - done))
        if not piece:
            raise ValueError("input file shrank while being encrypted")
        dst.write(st.update(piece))
        done += len(piece)
    c3 = st.final()
    if st.c3_offset < len(st.prefix):
        end = dst.tell()
        dst.seek(start + st.c3_offset)
        dst.write(c3)
        dst.seek(end)
    else:
        dst.write(c3)
    return len(st.prefix) + length + (0 if st.c3_offset < len(st.prefix) else 32)


def decrypt_file(key: PrivateKey, src: BinaryIO, dst: BinaryIO, raw: bool = False, c1c2c3: bool = False,
                 chunk_size: int = _CHUNK) -> int:
    """Decrypt the rest of the seekable binary file `src` into `dst`
    (seekable and truncatable, e.g. a temporary file). If the C3 check
    fails, `dst` is truncated back to where it started and DecryptError is
    raised: no unauthenticated byte is left behind. Returns the plaintext
    length."""
    base = src.tell()
    length = _file_length(src)
    prefix = src.read(min(length, PREFIX_MAX))
    st = DecryptStream(key, prefix, length, raw=raw, c1c2c3=c1c2c3)
    src.seek(base + st.c3_offset)
    c3 = src.read(32)
    src.seek(base + st.c2_offset)
    start = dst.tell()
    done = 0
    try:
        while done < st.c2_length:
            piece = src.read(min(chunk_size, st.c2_length - done))
            if not piece:
                raise_for(lib.FASTSM2_ERR_CIPHERTEXT)
            dst.write(st.update(piece))
            done += len(piece)
        st.final(c3)
    except BaseException:
        dst.seek(start)
        dst.truncate()
        raise
    return st.c2_length
