# SPDX-License-Identifier: Apache-2.0
"""SM2 keys, signatures and public-key encryption (GB/T 32918.1, .2, .4)."""
import hmac
import threading
from typing import Any, Optional, Union

from ._errors import check_ok, raise_for
from ._native import ffi, lib
from ._util import DEFAULT_ID, BytesLike, IdLike, as_bytes, as_fixed, as_id, as_text_or_bytes, int_to_32, wipe

__all__ = ["PrivateKey", "PublicKey", "DEFAULT_ID", "sig_to_der", "sig_from_der"]

_OK = 1
_FMT = {"pkcs8": lib.FASTSM2_KEYFMT_PKCS8, "sec1": lib.FASTSM2_KEYFMT_SEC1}
#: Password-based encryption schemes for to_pem/to_der(password=...).
_PBE = {"sm3-sm4": lib.FASTSM2_PBE_SM3_SM4, "sha256-sm4": lib.FASTSM2_PBE_SHA256_SM4,
        "sha256-aes256": lib.FASTSM2_PBE_SHA256_AES256}


def _password(password: Union[BytesLike, str]) -> bytes:
    if isinstance(password, str):
        return password.encode("utf-8")
    return as_bytes(password, "password")


def _serialize_encrypted(key, fmt: int, password, scheme: str, iterations: int) -> bytes:
    if scheme not in _PBE:
        raise ValueError("scheme must be one of %s" % ", ".join(sorted(_PBE)))
    top = lib.FASTSM2_PBE_MAX_ITERATIONS  # what the default reader reads
    if not isinstance(iterations, int) or isinstance(iterations, bool) or not 0 <= iterations <= top:
        raise ValueError("iterations must be an int from 0 (the default, 65536) to %d" % top)
    pw = ffi.new("unsigned char[]", _password(password) or b"\0")
    pwlen = len(_password(password))
    out = ffi.new("unsigned char[]", 1024)
    outlen = ffi.new("size_t *", 1024)
    try:
        check_ok(lib.fastsm2_privkey_serialize_encrypted(out, outlen, key, fmt, _PBE[scheme], iterations, pw, pwlen))
        return ffi.buffer(out, outlen[0])[:]
    finally:
        ffi.memmove(pw, b"\0" * len(pw), len(pw))

#: Order n of the base point of sm2p256v1 (GB/T 32918.5).
CURVE_ORDER = 0xFFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54123


def _serialize(fn, obj, fmt: int, secret: bool = False) -> bytes:
    """fn's output; secret=True wipes the C buffer after the copy (a private
    key file)."""
    cap = 512
    while True:
        out = ffi.new("unsigned char[]", cap)
        outlen = ffi.new("size_t *", cap)
        ret = fn(out, outlen, obj, fmt)
        try:
            if ret == _OK:
                return ffi.buffer(out, outlen[0])[:]
        finally:
            if secret:
                wipe(out, cap)
        if ret != lib.FASTSM2_ERR_BUFFER_TOO_SMALL or cap > 1 << 16:
            raise_for(ret)
        cap *= 4


# Serializes the making of a PublicKey's tables (fastsm2_pubkey_precompute
# writes into the key) with every copy of a key's C object (with_id, the
# batch calls), so that no copy is torn. Threads verifying with the key
# meanwhile need no lock: the C library publishes the tables atomically.
_tables_lock = threading.Lock()


def sig_to_der(sig: BytesLike) -> bytes:
    """Raw 64-byte r || s to a strict DER SM2Signature (GM/T 0009)."""
    raw = as_fixed(sig, 64, "signature")
    out = ffi.new("unsigned char[72]")
    outlen = ffi.new("size_t *", 72)
    check_ok(lib.fastsm2_sig_to_der(out, outlen, raw))
    return ffi.buffer(out, outlen[0])[:]


def sig_from_der(der: BytesLike) -> bytes:
    """Strict DER SM2Signature to raw 64-byte r || s. Raises DERError or
    SignatureRangeError."""
    d = as_bytes(der, "signature")
    out = ffi.new("unsigned char[64]")
    check_ok(lib.fastsm2_sig_from_der(out, d, len(d)))
    return ffi.buffer(out, 64)[:]


def _ct_flags(raw: bool, c1c2c3: bool) -> int:
    return (lib.FASTSM2_CT_RAW if raw else lib.FASTSM2_CT_DER) | (lib.FASTSM2_CT_C1C2C3 if c1c2c3 else 0)


class PublicKey:
    """A validated SM2 public key: on the curve, not infinity (GB/T 32918.1
    6.2). Immutable and safe to share between threads.

    Make one with :meth:`from_pem`, :meth:`from_der`, :meth:`from_bytes`
    (SEC1 point), :meth:`from_point` (x, y ints) or
    ``PrivateKey.public_key``.
    """

    __slots__ = ("_p", "_id", "_uses", "__weakref__")
    _p: Any  # fastsm2_pubkey *
    _id: Optional[bytes]
    _uses: int

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError("use PublicKey.from_pem(), from_der(), from_bytes() or PrivateKey.public_key")

    @classmethod
    def _new(cls) -> "PublicKey":
        self = object.__new__(cls)
        self._p = ffi.new("fastsm2_pubkey *")
        self._id = None  # None: the key caches Z_A of the default ID
        self._uses = 0
        return self

    def _used(self) -> Any:
        """The C key, for one more verification or encryption. At the
        second, the key's tables are made (fastsm2_pubkey_precompute): every
        later use is faster. Threads using the key meanwhile are safe (the
        C library publishes the tables atomically); copies wait for it."""
        n = self._uses
        if n < 2:
            self._uses = n + 1
            if n == 1:
                with _tables_lock:
                    lib.fastsm2_pubkey_precompute(self._p)
        return self._p

    def _copy_to(self, dst: Any) -> None:
        """*dst = this key's C object, never torn by a concurrent _used()."""
        with _tables_lock:
            dst[0] = self._p[0]

    def with_id(self, id: IdLike) -> "PublicKey":
        """A copy of this key that caches Z_A for `id` (GB/T 32918.2 5.5), so
        that verifying with that ID skips hashing Z_A each time. Calls still
        take their own ``id`` argument (the default ID stays the default)."""
        ident = as_id(id)
        other = PublicKey._new()
        self._copy_to(other._p)
        check_ok(lib.fastsm2_pubkey_set_id(other._p, ident, len(ident)))
        other._id = ident
        return other

    # -- import ---------------------------------------------------------------
    @classmethod
    def from_bytes(cls, data: BytesLike) -> "PublicKey":
        """A SEC1 point: 04 || x || y (65 bytes) or 02/03 || x (33 bytes), or
        the bare 64 bytes x || y that the gmssl package (gmssl-python) uses.
        Raises PointError or LengthError."""
        b = as_bytes(data, "point")
        if len(b) == 64:
            b = b"\x04" + b
        self = cls._new()
        check_ok(lib.fastsm2_pubkey_from_bytes(self._p, b, len(b)))
        return self

    @classmethod
    def from_hex(cls, data: str) -> "PublicKey":
        """A point as hex: 130 digits 04 || x || y, 66 digits 02/03 || x, or
        128 digits x || y (the public_key string of gmssl's CryptSM2)."""
        if not isinstance(data, str):
            raise TypeError("public key hex must be str, not %s" % type(data).__name__)
        return cls.from_bytes(bytes.fromhex(data))

    @classmethod
    def from_certificate(cls, data: Union[BytesLike, str]) -> "PublicKey":
        """The public key of an X.509 certificate (PEM or DER; the first of
        a PEM chain). Its SubjectPublicKeyInfo must be an SM2 key; THE
        CERTIFICATE ITSELF IS NOT VERIFIED (its signature, dates and issuer
        are not checked). Raises DERError, PEMError, CurveError,
        KeyFormatError or PointError."""
        b = as_text_or_bytes(data, "certificate")
        self = cls._new()
        check_ok(lib.fastsm2_pubkey_parse_certificate(self._p, b, len(b)))
        return self

    @classmethod
    def from_point(cls, x: int, y: int) -> "PublicKey":
        """The point (x, y), given as ints."""
        return cls.from_bytes(b"\x04" + int_to_32(x, "x") + int_to_32(y, "y"))

    @classmethod
    def load(cls, data: Union[BytesLike, str]) -> "PublicKey":
        """A public key file, PEM or DER (SPKI), or a bare SEC1 point; or, as
        the CLI's --pub takes it, a plain (unencrypted) private key file, whose
        public key this is. An encrypted private key raises EncryptedKeyError
        (load it with PrivateKey.load(data, password=...))."""
        b = as_text_or_bytes(data, "public key")
        self = cls._new()
        st = lib.fastsm2_pubkey_parse(self._p, b, len(b))
        if st in (lib.FASTSM2_ERR_PEM, lib.FASTSM2_ERR_DER, lib.FASTSM2_ERR_KEY_FORMAT):
            key = ffi.new("fastsm2_privkey *")
            pst = lib.fastsm2_privkey_parse(key, b, len(b))
            if pst == _OK:
                st = lib.fastsm2_privkey_pubkey(self._p, key)
            elif pst not in (lib.FASTSM2_ERR_PEM, lib.FASTSM2_ERR_DER, lib.FASTSM2_ERR_KEY_FORMAT,
                             lib.FASTSM2_ERR_PUBLIC_KEY, lib.FASTSM2_ERR_CERTIFICATE):
                st = pst  # a private key file: say what is wrong with it
            lib.fastsm2_privkey_clear(key)
        check_ok(st)
        return self

    @classmethod
    def from_pem(cls, data: Union[BytesLike, str]) -> "PublicKey":
        """A PEM "PUBLIC KEY" (SPKI) as written by fastsm2, OpenSSL or GmSSL.
        Raises PEMError, DERError, KeyFormatError or PointError."""
        b = as_text_or_bytes(data, "public key")
        if not b.lstrip().startswith(b"-----BEGIN"):
            raise_for(lib.FASTSM2_ERR_PEM)
        return cls.load(b)

    @classmethod
    def from_der(cls, data: BytesLike) -> "PublicKey":
        """A DER SubjectPublicKeyInfo. Raises DERError, KeyFormatError or
        PointError."""
        b = as_bytes(data, "public key")
        if b.lstrip().startswith(b"-----BEGIN"):
            raise_for(lib.FASTSM2_ERR_DER)
        return cls.load(b)

    # -- export ---------------------------------------------------------------
    def to_bytes(self, compressed: bool = False) -> bytes:
        """SEC1 encoding: 65 bytes 04 || x || y, or 33 bytes when compressed."""
        out = ffi.new("unsigned char[65]")
        outlen = ffi.new("size_t *", 65)
        check_ok(lib.fastsm2_pubkey_to_bytes(out, outlen, self._p, 1 if compressed else 0))
        return ffi.buffer(out, outlen[0])[:]

    def to_hex(self, compressed: bool = False) -> str:
        """The SEC1 encoding as lowercase hex (130 or 66 digits). gmssl's
        CryptSM2 takes the 128 digits after the leading "04"."""
        return self.to_bytes(compressed).hex()

    def to_pem(self) -> bytes:
        """SPKI "PUBLIC KEY" PEM (ASCII bytes)."""
        return _serialize(lib.fastsm2_pubkey_serialize, self._p, lib.FASTSM2_KEYFMT_PEM).rstrip(b"\0")

    def to_der(self) -> bytes:
        """SPKI DER."""
        return _serialize(lib.fastsm2_pubkey_serialize, self._p, lib.FASTSM2_KEYFMT_DER)

    @property
    def x(self) -> int:
        """The affine x coordinate."""
        return int.from_bytes(self.to_bytes()[1:33], "big")

    @property
    def y(self) -> int:
        """The affine y coordinate."""
        return int.from_bytes(self.to_bytes()[33:], "big")

    # -- Z_A and e --------------------------------------------------------------
    def z(self, id: IdLike = DEFAULT_ID) -> bytes:
        """Z_A = SM3(ENTL || ID || a || b || xG || yG || xA || yA), GB/T
        32918.2 5.5. id=b"" is the empty ID (OpenSSL's when no ID is set),
        None the default. Raises IDError for an ID over 8191 bytes."""
        ident = as_id(id)
        out = ffi.new("unsigned char[32]")
        check_ok(lib.fastsm2_compute_z(out, self._p, ident, len(ident)))
        return ffi.buffer(out, 32)[:]

    def message_digest(self, msg: BytesLike, id: IdLike = DEFAULT_ID) -> bytes:
        """e = SM3(Z_A || msg) (GB/T 32918.2 6.1 A1-A2): what
        :meth:`PrivateKey.sign_digest` and :meth:`verify_digest` take."""
        m = as_bytes(msg, "msg")
        ctx = ffi.new("fastsm2_sm3_ctx *")
        lib.fastsm2_sm3_init(ctx)
        z = self.z(id)
        lib.fastsm2_sm3_update(ctx, z, 32)
        lib.fastsm2_sm3_update(ctx, m, len(m))
        out = ffi.new("unsigned char[32]")
        lib.fastsm2_sm3_final(out, ctx)
        return ffi.buffer(out, 32)[:]

    # -- verify -----------------------------------------------------------------
    def _raw_sig(self, sig: object, raw: bool) -> Optional[bytes]:
        s = as_bytes(sig, "signature")
        if raw:
            return s if len(s) == 64 else None
        out = ffi.new("unsigned char[64]")
        if lib.fastsm2_sig_from_der(out, s, len(s)) != _OK:
            return None
        return ffi.buffer(out, 64)[:]

    def verify(self, msg: BytesLike, sig: BytesLike, id: IdLike = DEFAULT_ID, raw: bool = False) -> bool:
        """Verify a signature on msg (GB/T 32918.2 7.1) with the signer's ID.

        sig is strict DER, or the 64-byte r || s when raw=True. Returns True
        only for a valid signature; a malformed or wrong signature gives
        False. id=b"" is the empty ID (what OpenSSL signs with when no ID
        is set), None the default. Raises IDError for an ID over 8191 bytes and TypeError for
        non-bytes input."""
        m = as_bytes(msg, "msg")
        s = self._raw_sig(sig, raw)
        if id is DEFAULT_ID and self._id is None:
            if s is None:
                return False
            return lib.fastsm2_verify(self._used(), ffi.NULL, 0, m, len(m), s) == 1
        ident = as_id(id)
        if len(ident) > lib.FASTSM2_MAX_ID_LEN:
            raise_for(lib.FASTSM2_ERR_ID)
        if s is None:
            return False
        return lib.fastsm2_verify(self._used(), ident, len(ident), m, len(m), s) == 1

    def verify_or_raise(self, msg: BytesLike, sig: BytesLike, id: IdLike = DEFAULT_ID, raw: bool = False) -> None:
        """As :meth:`verify`, but return None for a valid signature and raise
        the named reason otherwise: DERError / LengthError (encoding),
        SignatureRangeError (r, s out of range), BadSignatureError."""
        m = as_bytes(msg, "msg")
        s = as_bytes(sig, "signature")
        if raw:
            if len(s) != 64:
                raise_for(lib.FASTSM2_ERR_LENGTH)
        else:
            s = sig_from_der(s)
        ident = as_id(id)
        check_ok(lib.fastsm2_verify_status(self._used(), ident, len(ident), m, len(m), s))

    def verify_digest(self, digest: BytesLike, sig: BytesLike, raw: bool = False) -> bool:
        """Verify a signature on a 32-byte digest e = SM3(Z_A || M) (GB/T
        32918.2 7.1 B3-B7). True only for a valid signature."""
        e = as_fixed(digest, 32, "digest")
        s = self._raw_sig(sig, raw)
        if s is None:
            return False
        return lib.fastsm2_verify_digest(self._used(), e, s) == 1

    def verify_digest_or_raise(self, digest: BytesLike, sig: BytesLike, raw: bool = False) -> None:
        """As :meth:`verify_digest`, raising the named reason (DERError,
        LengthError, SignatureRangeError, BadSignatureError) instead of
        returning False."""
        e = as_fixed(digest, 32, "digest")
        s = as_bytes(sig, "signature")
        if raw:
            if len(s) != 64:
                raise_for(lib.FASTSM2_ERR_LENGTH)
        else:
            s = sig_from_der(s)
        check_ok(lib.fastsm2_verify_digest_status(self._used(), e, s))

    # -- encrypt ----------------------------------------------------------------
    def encrypt(self, data: BytesLike, raw: bool = False, c1c2c3: bool = False) -> bytes:
        """Encrypt (GB/T 32918.4 6.1) with a fresh k from the OS CSPRNG.

        Output: GM/T 0009 DER (SEQUENCE {x, y, C3, C2}) by default; with
        raw=True, 04 || x || y || C3 || C2, or 04 || x || y || C2 || C3 when
        c1c2c3=True as well (the order of the 2010 draft and of the gmssl
        package). The DER form always holds C3 before C2. Raises LengthError
        for empty data."""
        m = as_bytes(data, "data")
        flags = _ct_flags(raw, c1c2c3)
        cap = lib.fastsm2_ciphertext_size(len(m), flags)
        out = ffi.new("unsigned char[]", cap)
        outlen = ffi.new("size_t *", cap)
        check_ok(lib.fastsm2_encrypt(out, outlen, self._used(), m, len(m), flags))
        return ffi.buffer(out, outlen[0])[:]

    # -- comparison ---------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PublicKey):
            return NotImplemented
        return self.to_bytes() == other.to_bytes()

    def __hash__(self) -> int:
        return hash(self.to_bytes())

    def __repr__(self) -> str:
        return "<fastsm2.PublicKey %s>" % self.to_bytes(compressed=True).hex()


class PrivateKey:
    """An SM2 private key d in [1, n-2] with its public key (GB/T 32918.1
    6.1). Immutable and safe to share between threads; wiped from memory when
    garbage-collected (or by :meth:`clear`).

    Make one with :meth:`generate`, :meth:`from_pem`, :meth:`from_der`,
    :meth:`from_bytes` or :meth:`from_int`.
    """

    __slots__ = ("_k", "_pub", "_id", "__weakref__")
    _k: Any  # fastsm2_privkey *
    _pub: Optional[PublicKey]
    _id: Optional[bytes]

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError("use PrivateKey.generate(), from_pem(), from_der(), from_bytes() or from_int()")

    @classmethod
    def _new(cls) -> "PrivateKey":
        self = object.__new__(cls)
        self._k = ffi.new("fastsm2_privkey *")
        self._pub = None
        self._id = None  # None: the key caches Z_A of the default ID
        return self

    def with_id(self, id: IdLike) -> "PrivateKey":
        """A copy of this key that caches Z_A for `id` (GB/T 32918.2 5.5), so
        that signing with that ID skips hashing Z_A each time. Calls still
        take their own ``id`` argument (the default ID stays the default)."""
        ident = as_id(id)
        other = PrivateKey._new()
        other._k[0] = self._k[0]
        check_ok(lib.fastsm2_privkey_set_id(other._k, ident, len(ident)))
        other._id = ident
        return other

    def __del__(self) -> None:
        k = getattr(self, "_k", None)
        if k is not None and lib is not None:
            lib.fastsm2_privkey_clear(k)

    def clear(self) -> None:
        """Wipe the key now; any later use raises ArgumentError."""
        lib.fastsm2_privkey_clear(self._k)

    # -- import ---------------------------------------------------------------
    @classmethod
    def generate(cls) -> "PrivateKey":
        """A new key, d uniform in [1, n-2] from the OS CSPRNG (getrandom)."""
        self = cls._new()
        check_ok(lib.fastsm2_privkey_generate(self._k))
        return self

    @classmethod
    def from_bytes(cls, d: BytesLike) -> "PrivateKey":
        """d as 32 bytes big-endian (a gmssl hex key: from_bytes(bytes.fromhex(h))).
        Raises PrivateKeyError for d = 0 or d >= n - 1."""
        b = as_fixed(d, 32, "private key")
        self = cls._new()
        check_ok(lib.fastsm2_privkey_from_bytes(self._k, b))
        return self

    @classmethod
    def from_int(cls, d: int) -> "PrivateKey":
        """d as an int in [1, n-2]."""
        if isinstance(d, int) and not isinstance(d, bool) and not 0 <= d < 1 << 256:
            raise_for(lib.FASTSM2_ERR_PRIVATE_KEY)
        return cls.from_bytes(int_to_32(d, "private key"))

    @classmethod
    def from_hex(cls, d: str) -> "PrivateKey":
        """d as 64 hex digits (the form gmssl's CryptSM2 takes)."""
        if not isinstance(d, str):
            raise TypeError("private key hex must be str, not %s" % type(d).__name__)
        return cls.from_bytes(bytes.fromhex(d))

    @classmethod
    def load(cls, data: Union[BytesLike, str], password: Optional[Union[BytesLike, str]] = None,
             max_iterations: Optional[int] = None) -> "PrivateKey":
        """A private key file: PEM or DER, PKCS#8 or SEC1 (RFC 5915), or
        password-encrypted PKCS#8 (PBES2, as ``gmssl sm2keygen`` and
        ``openssl genpkey -sm4-cbc`` / ``-aes-256-cbc`` write it) with
        password= (str, encoded as UTF-8, or bytes). Raises EncryptedKeyError
        for an encrypted file without a password, PasswordError for a wrong
        one, KeyCipherError, CurveError, ... (all KeyFormatError or
        ValueError). An encrypted file asking for more PBKDF2 iterations
        than max_iterations (default FASTSM2_PBE_MAX_ITERATIONS, 2**21) raises
        IterationsError naming both; raise the limit (up to 2**32 - 1) only
        for a file you trust."""
        b = as_text_or_bytes(data, "private key")
        if max_iterations is not None and (not isinstance(max_iterations, int) or isinstance(max_iterations, bool)
                                           or not 1 <= max_iterations < 1 << 32):
            raise ValueError("max_iterations must be an int from 1 to 2**32 - 1")
        limit = max_iterations or 0
        self = cls._new()
        count = ffi.new("uint32_t *")
        if password is None and not limit:
            ret = lib.fastsm2_privkey_parse(self._k, b, len(b))
        elif password is None:
            # no password callback: an encrypted file is EncryptedKeyError,
            # or IterationsError past the given limit
            ret = lib.fastsm2_privkey_parse_cb(self._k, b, len(b), ffi.NULL, ffi.NULL, limit, count)
        else:
            pwb = _password(password)
            pw = ffi.new("unsigned char[]", pwb or b"\0")
            try:
                if limit:
                    ret = lib.fastsm2_privkey_parse_encrypted_limit(self._k, b, len(b), pw, len(pwb), limit, count)
                else:
                    ret = lib.fastsm2_privkey_parse_encrypted(self._k, b, len(b), pw, len(pwb))
            finally:
                ffi.memmove(pw, b"\0" * len(pw), len(pw))
        if ret == lib.FASTSM2_ERR_ITERATIONS and not count[0]:
            # the count, to name it (refused again before any PBKDF2 work)
            lib.fastsm2_privkey_parse_cb(self._k, b, len(b), ffi.NULL, ffi.NULL, limit, count)
        if ret == lib.FASTSM2_ERR_ITERATIONS:
            from ._errors import IterationsError
            lim = limit or lib.FASTSM2_PBE_MAX_ITERATIONS
            raise IterationsError("the key file asks for %d PBKDF2 iterations, more than the limit of %d: if you "
                                  "trust it, pass max_iterations=%d" % (count[0], lim, count[0]))
        if ret != _OK:
            raise_for(ret)
        return self

    @classmethod
    def from_pem(cls, data: Union[BytesLike, str], password: Optional[Union[BytesLike, str]] = None,
                 max_iterations: Optional[int] = None) -> "PrivateKey":
        """A PEM "PRIVATE KEY" (PKCS#8), "EC PRIVATE KEY" (SEC1) or, with
        password=, "ENCRYPTED PRIVATE KEY", e.g. from ``openssl genpkey
        -algorithm SM2``. Raises PEMError, DERError, KeyFormatError (and its
        subclasses EncryptedKeyError, CurveError, ...), PasswordError,
        PrivateKeyError or PointError."""
        b = as_text_or_bytes(data, "private key")
        if not b.lstrip().startswith(b"-----BEGIN"):
            raise_for(lib.FASTSM2_ERR_PEM)
        return cls.load(b, password, max_iterations)

    @classmethod
    def from_der(cls, data: BytesLike, password: Optional[Union[BytesLike, str]] = None,
                 max_iterations: Optional[int] = None) -> "PrivateKey":
        """A DER PKCS#8 PrivateKeyInfo or SEC1 ECPrivateKey, or with password=
        an EncryptedPrivateKeyInfo."""
        b = as_bytes(data, "private key")
        if b.lstrip().startswith(b"-----BEGIN"):
            raise_for(lib.FASTSM2_ERR_DER)
        return cls.load(b, password, max_iterations)

    # -- export ---------------------------------------------------------------
    def to_bytes(self) -> bytes:
        """d as 32 bytes big-endian."""
        out = ffi.new("unsigned char[32]")
        check_ok(lib.fastsm2_privkey_to_bytes(out, self._k))
        d = ffi.buffer(out, 32)[:]
        wipe(out, 32)
        return d

    def to_int(self) -> int:
        """d as an int."""
        return int.from_bytes(self.to_bytes(), "big")

    def to_hex(self) -> str:
        """d as 64 lowercase hex digits (gmssl's form)."""
        return self.to_bytes().hex()

    def to_pem(self, format: str = "pkcs8", password: Optional[Union[BytesLike, str]] = None,
               scheme: str = "sm3-sm4", iterations: int = 0) -> bytes:
        """PEM: "PRIVATE KEY" (format="pkcs8", as openssl genpkey writes) or
        "EC PRIVATE KEY" (format="sec1"); with password=, "ENCRYPTED PRIVATE
        KEY" (PKCS#8 PBES2) in scheme "sm3-sm4" (GmSSL's: PBKDF2-HMAC-SM3 +
        SM4-CBC, which gmssl reads and OpenSSL 3.0 does not), "sha256-sm4" or
        "sha256-aes256" (OpenSSL reads these); iterations 0 = 65536."""
        if password is not None:
            if format != "pkcs8":
                raise ValueError("an encrypted key is PKCS#8: format must be 'pkcs8'")
            return _serialize_encrypted(self._k, lib.FASTSM2_KEYFMT_PEM, password, scheme, iterations).rstrip(b"\0")
        return _serialize(lib.fastsm2_privkey_serialize, self._k, self._fmt(format) | lib.FASTSM2_KEYFMT_PEM,
                          secret=True).rstrip(b"\0")

    def to_der(self, format: str = "pkcs8", password: Optional[Union[BytesLike, str]] = None,
               scheme: str = "sm3-sm4", iterations: int = 0) -> bytes:
        """DER PKCS#8 (format="pkcs8") or SEC1 (format="sec1"); with
        password=, an EncryptedPrivateKeyInfo (see to_pem)."""
        if password is not None:
            if format != "pkcs8":
                raise ValueError("an encrypted key is PKCS#8: format must be 'pkcs8'")
            return _serialize_encrypted(self._k, lib.FASTSM2_KEYFMT_DER, password, scheme, iterations)
        return _serialize(lib.fastsm2_privkey_serialize, self._k, self._fmt(format) | lib.FASTSM2_KEYFMT_DER,
                          secret=True)

    @staticmethod
    def _fmt(format: str) -> int:
        try:
            return _FMT[format]
        except (KeyError, TypeError):
            raise ValueError("format must be 'pkcs8' or 'sec1'") from None

    @property
    def public_key(self) -> PublicKey:
        """The public key P = dG."""
        pub = self._pub
        if pub is None:
            pub = PublicKey._new()
            check_ok(lib.fastsm2_privkey_pubkey(pub._p, self._k))
            pub._id = self._id  # the public key carries the same cached ID
            self._pub = pub
        return pub

    def ecdh(self, peer: Union[BytesLike, "PublicKey"]) -> bytes:
        """Plain ECDH on sm2p256v1 (RFC 8998's curveSM2 in TLS 1.3): the
        32-byte x-coordinate of d * P for the peer's point P (a PublicKey,
        or its 65- or 33-byte SEC1 encoding, validated). Not the GB/T
        32918.3 exchange: derive keys from the result, never use it as one.
        Raises PointError / LengthError for a bad point."""
        p = peer.to_bytes() if isinstance(peer, PublicKey) else as_bytes(peer, "peer")
        out = ffi.new("unsigned char[32]")
        check_ok(lib.fastsm2_ecdh(out, self._k, p, len(p)))
        x = ffi.buffer(out, 32)[:]
        wipe(out, 32)
        return x

    # -- sign -------------------------------------------------------------------
    def sign(self, msg: BytesLike, id: IdLike = DEFAULT_ID, raw: bool = False) -> bytes:
        """Sign msg (GB/T 32918.2 6.1): e = SM3(Z_A || msg) with the signer's
        ID, a fresh k from the OS CSPRNG. Returns strict DER, or the 64-byte
        r || s when raw=True. id=b"" is the empty ID (what OpenSSL signs
        with when no ID is set), None the default. Raises IDError for an ID
        over 8191 bytes."""
        m = as_bytes(msg, "msg")
        sig = ffi.new("unsigned char[64]")
        if id is DEFAULT_ID and self._id is None:
            ret = lib.fastsm2_sign(sig, self._k, ffi.NULL, 0, m, len(m))
        else:
            ident = as_id(id)
            ret = lib.fastsm2_sign(sig, self._k, ident, len(ident), m, len(m))
        if ret != _OK:
            raise_for(ret)
        if raw:
            return ffi.buffer(sig, 64)[:]
        out = ffi.new("unsigned char[72]")
        outlen = ffi.new("size_t *", 72)
        lib.fastsm2_sig_to_der(out, outlen, sig)
        return ffi.buffer(out, outlen[0])[:]

    def sign_digest(self, digest: BytesLike, raw: bool = False) -> bytes:
        """Sign a 32-byte digest e = SM3(Z_A || M) (GB/T 32918.2 6.1 A3-A7)."""
        e = as_fixed(digest, 32, "digest")
        sig = ffi.new("unsigned char[64]")
        check_ok(lib.fastsm2_sign_digest(sig, self._k, e))
        return ffi.buffer(sig, 64)[:] if raw else sig_to_der(ffi.buffer(sig, 64)[:])

    # -- decrypt ----------------------------------------------------------------
    def decrypt(self, ct: BytesLike, raw: bool = False, c1c2c3: bool = False) -> bytes:
        """Decrypt (GB/T 32918.4 7.1) a GM/T 0009 DER ciphertext, or a raw one
        (04 || x || y || C3 || C2; C2 || C3 with c1c2c3=True; C1 may be
        compressed). Raises DecryptError when C3 does not match (no plaintext
        is released), CiphertextError or PointError for malformed input."""
        c = as_bytes(ct, "ciphertext")
        flags = _ct_flags(raw, c1c2c3)
        outlen = ffi.new("size_t *")
        check_ok(lib.fastsm2_plaintext_size(outlen, c, len(c), flags))  # a malformed one fails here
        cap = outlen[0]
        out = ffi.new("unsigned char[]", cap)
        outlen[0] = cap
        check_ok(lib.fastsm2_decrypt(out, outlen, self._k, c, len(c), flags))
        pt = ffi.buffer(out, outlen[0])[:]
        wipe(out, cap)
        return pt

    # -- comparison ---------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PrivateKey):
            return NotImplemented
        return hmac.compare_digest(self.to_bytes(), other.to_bytes())

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "<fastsm2.PrivateKey for %s>" % self.public_key.to_bytes(compressed=True).hex()
