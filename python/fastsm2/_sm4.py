# SPDX-License-Identifier: Apache-2.0
"""SM4 (GB/T 32907) calls into the C library: expanded keys and one-shot
operations, shared by :mod:`fastsm2.ciphers`, :mod:`fastsm2.spark` and the
AEAD classes. Nothing here is public; see fastsm2.ciphers."""
from typing import Optional

from ._errors import InvalidTag, LengthError, check_ok, error_for_code
from ._native import ffi, lib
from ._util import BytesLike, as_buffer, as_bytes

KEY_SIZE = int(lib.FASTSM2_SM4_KEY_SIZE)
BLOCK_SIZE = int(lib.FASTSM2_SM4_BLOCK_SIZE)
TAG_SIZE = int(lib.FASTSM2_SM4_TAG_SIZE)

# Output buffers the C calls overwrite whole: no need to clear them first.
_alloc = ffi.new_allocator(should_clear_after_alloc=False)
_EMPTY = ffi.new("unsigned char[1]")


def backend() -> str:
    """The SM4 implementation the library picked for this CPU."""
    return ffi.string(lib.fastsm2_sm4_backend_name()).decode()


def available_backends():
    names = []
    i = 0
    while True:
        p = lib.fastsm2_sm4_backend_available(i)
        if p == ffi.NULL:
            return names
        names.append(ffi.string(p).decode())
        i += 1


def key_bytes(key: object, size: int = KEY_SIZE, what: str = "key") -> bytes:
    """A key as bytes of exactly `size` bytes: TypeError for a non-bytes
    value, ValueError for another length."""
    b = as_bytes(key, what)
    if len(b) != size:
        raise ValueError("%s must be %d bytes (SM4 keys are 128 bits), not %d" % (what, size, len(b)))
    return b


class Key:
    """An expanded SM4 key (GB/T 32907 7.3, and GCM's hash key), wiped when
    collected or by clear()."""

    __slots__ = ("raw", "__weakref__")

    def __init__(self, key: BytesLike) -> None:
        kb = key_bytes(key)
        self.raw = ffi.new("fastsm2_sm4_key *")
        check_ok(lib.fastsm2_sm4_key_init(self.raw, kb))

    def clear(self) -> None:
        lib.fastsm2_sm4_key_clear(self.raw)

    def __del__(self) -> None:
        raw = getattr(self, "raw", None)
        if raw is not None:
            lib.fastsm2_sm4_key_clear(raw)

    def __reduce__(self):
        raise TypeError("SM4 keys are not pickled")


def _in(data: object, what: str = "data"):
    """(cdata, length) of a bytes-like input, without a copy."""
    buf = as_buffer(data, what)
    return buf, len(buf)


def _opt(data: Optional[BytesLike], what: str):
    if data is None:
        return _EMPTY, 0
    buf = as_buffer(data, what)
    n = len(buf)
    return (buf if n else _EMPTY), n


def _out(n: int):
    return _alloc("unsigned char[]", max(n, 1))


def gcm_encrypt(key: Key, nonce: BytesLike, data: BytesLike, aad: Optional[BytesLike], taglen: int = TAG_SIZE) -> bytes:
    """SP 800-38D 7.1: ciphertext || tag."""
    nb, nn = _in(nonce, "nonce")
    db, dn = _in(data)
    ab, an = _opt(aad, "associated_data")
    out = _out(dn + taglen)
    check_ok(lib.fastsm2_sm4_gcm_encrypt(out, out + dn, taglen, key.raw, nb, nn, ab, an, db if dn else _EMPTY, dn))
    return ffi.buffer(out, dn + taglen)[:]


def gcm_decrypt(key: Key, nonce: BytesLike, data: BytesLike, aad: Optional[BytesLike], taglen: int = TAG_SIZE) -> bytes:
    """SP 800-38D 7.2 on ciphertext || tag: the plaintext, or InvalidTag."""
    nb, nn = _in(nonce, "nonce")
    db, dn = _in(data)
    ab, an = _opt(aad, "associated_data")
    if dn < taglen:
        raise InvalidTag()
    n = dn - taglen
    out = _out(n)
    rc = lib.fastsm2_sm4_gcm_decrypt(out, key.raw, nb, nn, ab, an, db if n else _EMPTY, n, db + n, taglen)
    if rc == lib.FASTSM2_ERR_TAG:
        raise InvalidTag()
    check_ok(rc)
    return ffi.buffer(out, n)[:]


def ccm_encrypt(key: Key, nonce: BytesLike, data: BytesLike, aad: Optional[BytesLike], taglen: int = TAG_SIZE) -> bytes:
    """SP 800-38C 6.1: ciphertext || tag."""
    nb, nn = _in(nonce, "nonce")
    db, dn = _in(data)
    ab, an = _opt(aad, "associated_data")
    out = _out(dn + taglen)
    check_ok(lib.fastsm2_sm4_ccm_encrypt(out, out + dn, taglen, key.raw, nb, nn, ab, an, db if dn else _EMPTY, dn))
    return ffi.buffer(out, dn + taglen)[:]


def ccm_decrypt(key: Key, nonce: BytesLike, data: BytesLike, aad: Optional[BytesLike], taglen: int = TAG_SIZE) -> bytes:
    """SP 800-38C 6.2 on ciphertext || tag: the plaintext, or InvalidTag."""
    nb, nn = _in(nonce, "nonce")
    db, dn = _in(data)
    ab, an = _opt(aad, "associated_data")
    if dn < taglen:
        raise InvalidTag()
    n = dn - taglen
    out = _out(n)
    rc = lib.fastsm2_sm4_ccm_decrypt(out, key.raw, nb, nn, ab, an, db if n else _EMPTY, n, db + n, taglen)
    if rc == lib.FASTSM2_ERR_TAG:
        raise InvalidTag()
    check_ok(rc)
    return ffi.buffer(out, n)[:]


def cbc_encrypt(key: Key, iv: BytesLike, data: BytesLike, pkcs7: bool) -> bytes:
    """SP 800-38A 6.2, with PKCS#7 padding (RFC 5652 6.3) added or none."""
    ib, il = _in(iv, "iv")
    if il != BLOCK_SIZE:
        raise error_for_code(lib.FASTSM2_ERR_IV)
    db, dn = _in(data)
    cap = (dn // 16 + 1) * 16 if pkcs7 else dn
    out = _out(cap)
    outlen = ffi.new("size_t *", cap)
    pad = lib.FASTSM2_SM4_PAD_PKCS7 if pkcs7 else lib.FASTSM2_SM4_PAD_NONE
    check_ok(lib.fastsm2_sm4_cbc_encrypt(out, outlen, key.raw, ib, pad, db if dn else _EMPTY, dn))
    return ffi.buffer(out, outlen[0])[:]


def cbc_decrypt(key: Key, iv: BytesLike, data: BytesLike, pkcs7: bool) -> bytes:
    """SP 800-38A 6.2; with pkcs7 the padding is checked in constant time
    and removed (PaddingError, nothing released, when it is bad)."""
    ib, il = _in(iv, "iv")
    if il != BLOCK_SIZE:
        raise error_for_code(lib.FASTSM2_ERR_IV)
    db, dn = _in(data)
    out = _out(dn)
    outlen = ffi.new("size_t *", dn)
    pad = lib.FASTSM2_SM4_PAD_PKCS7 if pkcs7 else lib.FASTSM2_SM4_PAD_NONE
    check_ok(lib.fastsm2_sm4_cbc_decrypt(out, outlen, key.raw, ib, pad, db if dn else _EMPTY, dn))
    return ffi.buffer(out, outlen[0])[:]


def ecb(key: Key, data: BytesLike, encrypt: bool, pkcs7: bool) -> bytes:
    """ECB on whole blocks (one call), or with PKCS#7 through a streaming
    operation of the library (constant-time unpadding)."""
    db, dn = _in(data)
    if not pkcs7:
        out = _out(dn)
        f = lib.fastsm2_sm4_ecb_encrypt if encrypt else lib.fastsm2_sm4_ecb_decrypt
        check_ok(f(out, key.raw, db if dn else _EMPTY, dn))
        return ffi.buffer(out, dn)[:]
    if not encrypt and (dn == 0 or dn % 16):
        raise LengthError()
    ctx = Stream(key, lib.FASTSM2_SM4_ECB, encrypt, True, None)
    return ctx.update(data) + ctx.finalize()


def ctr(key: Key, iv: BytesLike, data: BytesLike) -> bytes:
    """SP 800-38A 6.5, the 128-bit big-endian counter starting at iv."""
    ib, il = _in(iv, "nonce")
    if il != BLOCK_SIZE:
        raise error_for_code(lib.FASTSM2_ERR_IV)
    db, dn = _in(data)
    out = _out(dn)
    check_ok(lib.fastsm2_sm4_ctr(out, key.raw, ib, db if dn else _EMPTY, dn))
    return ffi.buffer(out, dn)[:]


def xts(key1: Key, key2: Key, ieee: bool, tweak: BytesLike, data: BytesLike, encrypt: bool) -> bytes:
    """One XTS data unit (IEEE 1619 or GB/T 17964)."""
    tb, tl = _in(tweak, "tweak")
    if tl != 16:
        raise ValueError("the XTS tweak must be 16 bytes, not %d" % tl)
    db, dn = _in(data)
    out = _out(dn)
    f = lib.fastsm2_sm4_xts_encrypt if encrypt else lib.fastsm2_sm4_xts_decrypt
    std = lib.FASTSM2_SM4_XTS_IEEE if ieee else lib.FASTSM2_SM4_XTS_GB
    check_ok(f(out, key1.raw, key2.raw, std, tb, db if dn else _EMPTY, dn))
    return ffi.buffer(out, dn)[:]


class Stream:
    """A streaming ECB/CBC/CTR/OFB/CFB operation (fastsm2_sm4_init): the
    context holds a copy of the key and is wiped by finalize, clear() or
    collection."""

    __slots__ = ("_ctx", "_done")

    def __init__(self, key: Key, mode: int, encrypt: bool, pkcs7: bool, iv: Optional[BytesLike]) -> None:
        self._ctx = ffi.new("fastsm2_sm4_ctx *")
        self._done = False
        if iv is None:
            ib, il = ffi.NULL, 0
        else:
            ib, il = _in(iv, "iv")
        enc = lib.FASTSM2_SM4_ENCRYPT if encrypt else lib.FASTSM2_SM4_DECRYPT
        pad = lib.FASTSM2_SM4_PAD_PKCS7 if pkcs7 else lib.FASTSM2_SM4_PAD_NONE
        check_ok(lib.fastsm2_sm4_init(self._ctx, mode, enc, pad, key.raw, ib, il))

    def update(self, data: BytesLike) -> bytes:
        db, dn = _in(data)
        cap = dn + 15
        out = _out(cap)
        outlen = ffi.new("size_t *", cap)
        check_ok(lib.fastsm2_sm4_update(self._ctx, out, outlen, db if dn else _EMPTY, dn))
        return ffi.buffer(out, outlen[0])[:]

    def update_into(self, data: BytesLike, buf) -> int:
        db, dn = _in(data)
        ob = ffi.from_buffer(buf, require_writable=True)
        outlen = ffi.new("size_t *", len(ob))
        check_ok(lib.fastsm2_sm4_update(self._ctx, ob if len(ob) else _EMPTY, outlen, db if dn else _EMPTY, dn))
        return int(outlen[0])

    def finalize(self) -> bytes:
        out = _out(16)
        outlen = ffi.new("size_t *", 16)
        self._done = True
        check_ok(lib.fastsm2_sm4_final(self._ctx, out, outlen))
        return ffi.buffer(out, outlen[0])[:]

    def clear(self) -> None:
        lib.fastsm2_sm4_ctx_clear(self._ctx)

    def __del__(self) -> None:
        ctx = getattr(self, "_ctx", None)
        if ctx is not None:
            lib.fastsm2_sm4_ctx_clear(ctx)


class GcmStream:
    """A streaming GCM operation (fastsm2_sm4_gcm_init): AAD first, then the
    data, then the tag."""

    __slots__ = ("_ctx", "_encrypt")

    def __init__(self, key: Key, encrypt: bool, iv: BytesLike) -> None:
        self._ctx = ffi.new("fastsm2_sm4_gcm_ctx *")
        self._encrypt = encrypt
        ib, il = _in(iv, "iv")
        enc = lib.FASTSM2_SM4_ENCRYPT if encrypt else lib.FASTSM2_SM4_DECRYPT
        check_ok(lib.fastsm2_sm4_gcm_init(self._ctx, enc, key.raw, ib if il else _EMPTY, il))

    def aad(self, data: BytesLike) -> None:
        db, dn = _in(data)
        check_ok(lib.fastsm2_sm4_gcm_aad(self._ctx, db if dn else _EMPTY, dn))

    def update(self, data: BytesLike) -> bytes:
        db, dn = _in(data)
        out = _out(dn)
        check_ok(lib.fastsm2_sm4_gcm_update(self._ctx, out, db if dn else _EMPTY, dn))
        return ffi.buffer(out, dn)[:]

    def update_into(self, data: BytesLike, buf) -> int:
        db, dn = _in(data)
        ob = ffi.from_buffer(buf, require_writable=True)
        if len(ob) < dn:
            raise ValueError("buffer must be at least %d bytes" % dn)
        check_ok(lib.fastsm2_sm4_gcm_update(self._ctx, ob if dn else _EMPTY, db if dn else _EMPTY, dn))
        return dn

    def encrypt_final(self, taglen: int = TAG_SIZE) -> bytes:
        tag = _out(taglen)
        check_ok(lib.fastsm2_sm4_gcm_encrypt_final(self._ctx, tag, taglen))
        return ffi.buffer(tag, taglen)[:]

    def decrypt_final(self, tag: BytesLike) -> None:
        tb, tl = _in(tag, "tag")
        rc = lib.fastsm2_sm4_gcm_decrypt_final(self._ctx, tb if tl else _EMPTY, tl)
        if rc == lib.FASTSM2_ERR_TAG:
            raise InvalidTag()
        check_ok(rc)

    def clear(self) -> None:
        lib.fastsm2_sm4_gcm_clear(self._ctx)

    def __del__(self) -> None:
        ctx = getattr(self, "_ctx", None)
        if ctx is not None:
            lib.fastsm2_sm4_gcm_clear(ctx)
