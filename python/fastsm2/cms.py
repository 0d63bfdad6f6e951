# SPDX-License-Identifier: Apache-2.0
"""CMS messages with SM2, SM3 and SM4 (RFC 5652, GM/T 0010-2012)::

    from fastsm2 import cms

    signed = cms.sign(b"hello", key, cert)                 # SignedData, content inside
    content = cms.verify(signed, trusted=[ca])             # the content, or an exception
    detached = cms.sign(b"hello", key, cert, detached=True)
    cms.verify(detached, content=b"hello", trusted=[ca])

    sealed = cms.seal(b"secret", [recipient_cert])         # SM2-wrapped SM4-GCM key
    cms.open(sealed, recipient_key)                        # b"secret"

Signatures carry the signed attributes contentType, messageDigest and
signingTime, made with the signer ID (the default 1234567812345678; OpenSSL
3.x signs and verifies CMS with the empty ID: ``id=b""``). ``gm=True``
writes GM/T 0010's content types (1.2.156.10197.6.1.4.2.*) instead of
RFC 5652's; both are read.
"""
from datetime import datetime
from typing import BinaryIO, Iterable, Optional, Sequence, Union

from ._errors import check_ok
from ._keys import PrivateKey
from ._native import ffi, lib
from ._sm3 import sm3
from ._util import DEFAULT_ID, BytesLike, IdLike, as_buffer, as_bytes, as_fixed, as_id, as_text_or_bytes
from .x509 import Certificate, KeyUsage, _call_out

__all__ = ["sign", "sign_stream", "verify", "verify_digest", "signer_certificate", "certificates", "content", "info",
           "Info", "seal", "open", "seal_stream", "open_stream"]


def _certs(certs: Iterable[Certificate]) -> bytes:
    return b"".join(c.to_der() for c in certs)


def sign(data: BytesLike, key: PrivateKey, cert: Certificate, detached: bool = False, gm: bool = False,
         include_certificate: bool = True, attributes: bool = True, id: IdLike = DEFAULT_ID,
         pem: bool = False, gmssl: bool = False) -> bytes:
    """SignedData of data (RFC 5652 clause 5): one signer, key, identified
    by its certificate cert (which holds key's public key: PointError
    otherwise). detached leaves the content out; include_certificate=False
    leaves cert out (the verifier then needs it); attributes=False signs
    the content itself, with no signed attributes. DER, or PEM ("CMS").
    gmssl=True signs as GmSSL 3's cmssign does (SM3 of the encapsulated
    content signed as a digest, no signer ID: FASTSM2_CMS_GMSSL), for
    gmssl cmsverify."""
    flags = ((lib.FASTSM2_CMS_DETACHED if detached else 0) | (lib.FASTSM2_CMS_GMT0010 if gm else 0) |
             (0 if include_certificate else lib.FASTSM2_CMS_NO_CERTS) |
             (0 if attributes else lib.FASTSM2_CMS_NO_ATTRIBUTES) | (lib.FASTSM2_CMS_PEM if pem else 0) |
             (lib.FASTSM2_CMS_GMSSL if gmssl else 0))
    buf = as_buffer(data)
    ident = as_id(id)
    der = cert.to_der()
    out = _call_out(lambda o, n: lib.fastsm2_cms_sign(o, n, buf, len(buf), der, len(der), key._k, ident, len(ident),
                                                      flags))
    return out.rstrip(b"\0") if pem else out


def sign_stream(src: BinaryIO, dst: BinaryIO, key: PrivateKey, cert: Certificate, detached: bool = False,
                gm: bool = False, include_certificate: bool = True, id: IdLike = DEFAULT_ID,
                chunk: int = 1 << 20) -> int:
    """sign() for a content too large to hold: src (a seekable binary file)
    is read twice, its SM3 then its bytes, and the DER message written to
    dst as prefix, content, suffix. Returns the bytes written. A src that
    changes between the two readings raises ValueError (and dst holds an
    invalid message: write to a temporary file)."""
    flags = ((lib.FASTSM2_CMS_DETACHED if detached else 0) | (lib.FASTSM2_CMS_GMT0010 if gm else 0) |
             (0 if include_certificate else lib.FASTSM2_CMS_NO_CERTS))
    start = src.tell()
    h = sm3()
    length = 0
    for piece in iter(lambda: src.read(chunk), b""):
        h.update(piece)
        length += len(piece)
    digest = h.digest()
    ident = as_id(id)
    der = cert.to_der()
    prefix = ffi.new("unsigned char[]", lib.FASTSM2_CMS_PREFIX_MAX)
    suffix = ffi.new("unsigned char[]", lib.FASTSM2_CMS_SUFFIX_MAX)
    pn = ffi.new("size_t *", lib.FASTSM2_CMS_PREFIX_MAX)
    sn = ffi.new("size_t *", lib.FASTSM2_CMS_SUFFIX_MAX)
    check_ok(lib.fastsm2_cms_sign_digest(prefix, pn, suffix, sn, digest, length, der, len(der), key._k, ident,
                                         len(ident), flags))
    written = dst.write(ffi.buffer(prefix, pn[0])[:])
    if not detached:
        src.seek(start)
        h2 = sm3()
        for piece in iter(lambda: src.read(chunk), b""):
            h2.update(piece)
            written += dst.write(piece)
        if h2.digest() != digest:
            raise ValueError("the content changed while it was signed")
    written += dst.write(ffi.buffer(suffix, sn[0])[:])
    return written


def verify_digest(message: Union[BytesLike, str], digest: BytesLike, certificates: Iterable[Certificate] = (),
                  id: IdLike = DEFAULT_ID) -> None:
    """Verify a detached message's signatures against its content's SM3
    digest (hashed by the caller, e.g. in pieces with fastsm2.sm3()): the
    signer's certificate is not checked (Certificate.verify_chain on
    signer_certificate() does that)."""
    m = as_text_or_bytes(message, "message")
    d = as_fixed(digest, 32, "digest")
    extra = _certs(certificates)
    ident = as_id(id)
    check_ok(lib.fastsm2_cms_verify_digest(m, len(m), d, extra, len(extra), ident, len(ident)))


class Info:
    """What a message is (fastsm2_cms_get_info): type is "signed",
    "enveloped" or "auth-enveloped"."""

    def __init__(self, c) -> None:
        self.type = {1: "signed", 2: "enveloped", 3: "auth-enveloped"}.get(c.type, "?")
        self.gm = bool(c.gmt0010)
        self.detached = bool(c.detached)
        self.content_length = int(c.content_len)
        self.signers = int(c.signers)
        self.recipients = int(c.recipients)
        self.certificates = int(c.certificates)
        self.signing_time = (datetime.fromtimestamp(c.signing_time).astimezone() if c.signing_time else None)
        self.cipher = {1: "sm4-cbc", 2: "sm4-gcm"}.get(c.cipher)

    def __repr__(self) -> str:
        return "<cms.Info(%s)>" % ", ".join("%s=%r" % kv for kv in vars(self).items())


def info(message: Union[BytesLike, str]) -> Info:
    """Parse a message (PEM or DER): nothing verified or decrypted."""
    m = as_text_or_bytes(message, "message")
    c = ffi.new("fastsm2_cms_info *")
    check_ok(lib.fastsm2_cms_get_info(c, m, len(m)))
    return Info(c)


def content(message: Union[BytesLike, str]) -> bytes:
    """The content a signed message holds, NOT VERIFIED (verify() returns it
    verified)."""
    m = as_text_or_bytes(message, "message")
    return _call_out(lambda o, n: lib.fastsm2_cms_get(o, n, lib.FASTSM2_CMS_CONTENT, m, len(m)))


def signer_certificate(message: Union[BytesLike, str]) -> Certificate:
    """The first signer's certificate as the message carries it (IssuerError
    when it does not)."""
    m = as_text_or_bytes(message, "message")
    return Certificate.load(_call_out(lambda o, n: lib.fastsm2_cms_get(o, n, lib.FASTSM2_CMS_SIGNER, m, len(m))))


def certificates(message: Union[BytesLike, str]) -> Sequence[Certificate]:
    """Every certificate the message carries."""
    m = as_text_or_bytes(message, "message")
    der = _call_out(lambda o, n: lib.fastsm2_cms_get(o, n, lib.FASTSM2_CMS_CERTS, m, len(m)))
    from .x509 import load_pem_x509_certificates
    return load_pem_x509_certificates(der) if der else []


def verify(message: Union[BytesLike, str], content: Optional[BytesLike] = None,
           trusted: Optional[Iterable[Certificate]] = None, certificates: Iterable[Certificate] = (),
           id: IdLike = DEFAULT_ID, at: Optional[datetime] = None, check_chain: bool = True,
           key_usage: Optional[KeyUsage] = None, gmssl: bool = False) -> bytes:
    """Verify a SignedData and return its content (the detached one given as
    ``content``). Every signature is checked with the signer ID
    (BadSignatureError; DigestError when the content is not the one
    signed); then the signer's certificate, looked for in the message and
    in ``certificates``, is verified up to ``trusted`` (Certificate.
    verify_chain: its reasons), unless check_chain=False says not to."""
    m = as_text_or_bytes(message, "message")
    certificates = list(certificates)
    extra = _certs(certificates)
    ident = as_id(id)
    flags = lib.FASTSM2_CMS_GMSSL if gmssl else 0
    c = as_buffer(content, "content") if content is not None else None
    cp, cl = (c, len(c)) if c is not None else (ffi.NULL, 0)
    check_ok(lib.fastsm2_cms_verify(m, len(m), cp, cl, extra, len(extra), ident, len(ident), flags))
    result = as_bytes(content, "content") if content is not None else globals()["content"](m)
    if check_chain:
        if trusted is None:
            raise ValueError("give the trust anchors (trusted=[...]) or check_chain=False")
        n = ffi.new("size_t *", 0)
        if lib.fastsm2_cms_get(ffi.NULL, n, lib.FASTSM2_CMS_SIGNER, m, len(m)) == 1:
            signer = signer_certificate(m)
        else:  # among the certificates given: the one whose key the message verifies with
            found = [x for x in certificates
                     if lib.fastsm2_cms_verify(m, len(m), cp, cl, x.to_der(), len(x.to_der()), ident, len(ident), flags) == 1]
            if not found:
                check_ok(lib.FASTSM2_ERR_ISSUER)
            signer = found[0]
        untrusted = list(globals()["certificates"](m)) + certificates
        signer.verify_chain(trusted=list(trusted), untrusted=untrusted, at=at, id=ident, key_usage=key_usage)
    return result


def seal(data: BytesLike, recipients: Iterable[Certificate], cipher: str = "sm4-gcm", gm: bool = False,
         pem: bool = False, keyid: bool = False) -> bytes:
    """Enveloped data for the recipients' SM2 keys (RFC 5652 clause 6,
    RFC 5083 for GCM): SM4-GCM (AuthEnvelopedData) or SM4-CBC
    (EnvelopedData, GM/T 0010's type with gm=True). Each recipient is named
    by its certificate's issuer and serial number, or with keyid=True by its
    subjectKeyIdentifier (ArgumentError for a certificate without one)."""
    if not hasattr(lib, "fastsm2_cms_encrypt"):
        raise NotImplementedError("this build of the library has no enveloped data (it needs SM4)")
    ciphers = {"sm4-gcm": lib.FASTSM2_CMS_SM4_GCM, "sm4-cbc": lib.FASTSM2_CMS_SM4_CBC}
    if cipher not in ciphers:
        raise ValueError("cipher is 'sm4-gcm' or 'sm4-cbc'")
    buf = as_buffer(data)
    r = _certs(recipients)
    if not r:
        raise ValueError("seal needs at least one recipient")
    flags = ((lib.FASTSM2_CMS_GMT0010 if gm else 0) | (lib.FASTSM2_CMS_PEM if pem else 0) |
             (lib.FASTSM2_CMS_KEYID if keyid else 0))
    out = _call_out(lambda o, n: lib.fastsm2_cms_encrypt(o, n, buf, len(buf), r, len(r), ciphers[cipher], flags))
    return out.rstrip(b"\0") if pem else out


def open(message: Union[BytesLike, str], key: PrivateKey, cert: Optional[Certificate] = None) -> bytes:
    """The content of enveloped data, decrypted with key (the recipient
    picked by cert, or every one tried): RecipientError when none is key's,
    TagError / PaddingError when the content does not authenticate."""
    if not hasattr(lib, "fastsm2_cms_decrypt"):
        raise NotImplementedError("this build of the library has no enveloped data (it needs SM4)")
    m = as_text_or_bytes(message, "message")
    der = cert.to_der() if cert is not None else ffi.NULL
    dl = len(cert.to_der()) if cert is not None else 0
    return _call_out(lambda o, n: lib.fastsm2_cms_decrypt(o, n, m, len(m), key._k, der, dl))


def seal_stream(src: BinaryIO, dst: BinaryIO, length: int, recipients: Iterable[Certificate],
                cipher: str = "sm4-gcm", gm: bool = False, keyid: bool = False, chunk: int = 1 << 20) -> int:
    """seal() for a content too large to hold: length bytes read from src
    in pieces, the DER message (the one seal() makes) written to dst as its
    prefix, the ciphertext and a final piece (fastsm2_cms_encrypt_init,
    _update, _final). Returns the bytes written. A src that ends before
    length bytes raises LengthError (and dst holds an invalid message:
    write to a temporary file)."""
    ciphers = {"sm4-gcm": lib.FASTSM2_CMS_SM4_GCM, "sm4-cbc": lib.FASTSM2_CMS_SM4_CBC}
    if cipher not in ciphers:
        raise ValueError("cipher is 'sm4-gcm' or 'sm4-cbc'")
    r = _certs(recipients)
    if not r:
        raise ValueError("seal_stream needs at least one recipient")
    flags = (lib.FASTSM2_CMS_GMT0010 if gm else 0) | (lib.FASTSM2_CMS_KEYID if keyid else 0)
    s = ffi.new("fastsm2_cms_stream *")
    try:
        pn = ffi.new("size_t *", 0)
        check_ok(lib.fastsm2_cms_encrypt_init(s, ffi.NULL, pn, length, r, len(r), ciphers[cipher], flags))
        prefix = ffi.new("unsigned char[]", pn[0])
        check_ok(lib.fastsm2_cms_encrypt_init(s, prefix, pn, length, r, len(r), ciphers[cipher], flags))
        written = dst.write(ffi.buffer(prefix, pn[0])[:])
        out = ffi.new("unsigned char[]", chunk + 16)
        n = ffi.new("size_t *")
        left = length
        while left > 0:
            piece = src.read(min(chunk, left))
            if not piece:
                break
            left -= len(piece)
            n[0] = chunk + 16
            check_ok(lib.fastsm2_cms_encrypt_update(s, out, n, piece, len(piece)))
            written += dst.write(ffi.buffer(out, n[0])[:])
        n[0] = chunk + 16
        check_ok(lib.fastsm2_cms_encrypt_final(s, out, n))  # LengthError when src ended early
        return written + dst.write(ffi.buffer(out, n[0])[:])
    finally:
        lib.fastsm2_cms_stream_clear(s)


def open_stream(src: BinaryIO, dst: BinaryIO, key: PrivateKey, cert: Optional[Certificate] = None,
                chunk: int = 1 << 20) -> int:
    """open() for a message too large to hold: src (a seekable binary file
    holding a DER message from its position on) is read in pieces, the
    content written to dst. Returns the content's length. Until it returns,
    dst holds content that is not authenticated (GCM) or not unpadded
    (CBC): write to a temporary file and use it only once open_stream
    returns; on an exception (TagError, PaddingError, RecipientError, ...)
    discard it. A message in PEM or BER raises UnsupportedError: open()
    reads it."""
    der = cert.to_der() if cert is not None else ffi.NULL
    dl = len(cert.to_der()) if cert is not None else 0
    s = ffi.new("fastsm2_cms_stream *")
    off, ctlen, total = ffi.new("uint64_t *"), ffi.new("uint64_t *"), ffi.new("uint64_t *")
    start = src.tell()
    head = src.read(1 << 16)
    try:
        while True:  # the head must reach the ciphertext: read more while it does not
            st = lib.fastsm2_cms_decrypt_init(s, off, ctlen, total, head, len(head), key._k, der, dl)
            if st != lib.FASTSM2_ERR_LENGTH:
                break
            more = src.read(max(len(head), 1 << 16))
            if not more:
                break
            head += more
        check_ok(st)
        src.seek(start + off[0])
        out = ffi.new("unsigned char[]", chunk + 16)
        n = ffi.new("size_t *")
        left, got = ctlen[0], 0
        while left > 0:
            piece = src.read(min(chunk, left))
            if not piece:
                break  # the ciphertext cut short: final says so
            left -= len(piece)
            n[0] = chunk + 16
            check_ok(lib.fastsm2_cms_decrypt_update(s, out, n, piece, len(piece)))
            got += dst.write(ffi.buffer(out, n[0])[:])
        tail = src.read(total[0] - off[0] - ctlen[0])
        n[0] = chunk + 16
        check_ok(lib.fastsm2_cms_decrypt_final(s, out, n, tail, len(tail)))
        return got + dst.write(ffi.buffer(out, n[0])[:])
    finally:
        lib.fastsm2_cms_stream_clear(s)
