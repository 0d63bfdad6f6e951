# SPDX-License-Identifier: Apache-2.0
"""X.509 certificates and PKCS#10 requests signed with SM2 (RFC 5280,
RFC 2986), shaped like pyca/cryptography's ``x509`` module, which cannot
sign with SM2::

    from datetime import datetime, timedelta, timezone
    import fastsm2
    from fastsm2 import x509

    ca_key = fastsm2.PrivateKey.generate()
    ca_name = x509.Name.from_string("/C=CN/O=Example/CN=Example CA")
    now = datetime.now(timezone.utc)
    ca = (x509.CertificateBuilder()
          .subject_name(ca_name)
          .not_valid_before(now).not_valid_after(now + timedelta(days=3650))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(key_cert_sign=True, crl_sign=True), critical=True)
          .sign(ca_key))                     # self-signed: no issuer

    key = fastsm2.PrivateKey.generate()
    csr = (x509.CertificateSigningRequestBuilder()
           .subject_name(x509.Name.from_string("/C=CN/O=Example/CN=www.example.com"))
           .add_extension(x509.SubjectAlternativeName([x509.DNSName("www.example.com")]), critical=False)
           .sign(key))
    cert = (x509.CertificateBuilder()
            .from_request(csr)               # subject and key, signature checked
            .add_extension(x509.KeyUsage(digital_signature=True), critical=True)
            .sign(ca_key, issuer=ca))
    cert.verify_chain(trusted=[ca])          # raises on any defect, with its reason

Signatures are SM2 with SM3 and a signer ID: the default
``1234567812345678`` unless ``id=`` says otherwise (``id=b""``: the empty ID
that OpenSSL 3.x uses when none is set). The serial number is 16 random
bytes unless set; the subject and authority key identifiers are added.
"""
import ipaddress
from datetime import datetime, timezone
from typing import Any, Iterable, Iterator, List, Optional, Sequence, Tuple, Type, TypeVar, Union

from ._errors import (AlgorithmError, BadNameError, BadSignatureError, CertificateVerifyError, ChainLoopError,
                      CriticalExtensionError, ExpiredError, IssuerError, KeyUsageError, NotCAError, NotYetValidError,
                      PathLengthError, check_ok, error_for_code)
from ._keys import PrivateKey, PublicKey
from ._native import ffi, lib
from ._util import DEFAULT_ID, BytesLike, IdLike, as_bytes, as_id, as_text_or_bytes

__all__ = [
    "ObjectIdentifier", "NameOID", "ExtendedKeyUsageOID", "ExtensionOID", "NameAttribute", "RelativeDistinguishedName",
    "Name", "DNSName", "IPAddress", "RFC822Name", "UniformResourceIdentifier", "DirectoryName", "OtherGeneralName",
    "BasicConstraints", "KeyUsage", "ExtendedKeyUsage", "SubjectAlternativeName", "SubjectKeyIdentifier",
    "AuthorityKeyIdentifier", "UnrecognizedExtension", "Extension", "Extensions", "Encoding", "Certificate",
    "CertificateSigningRequest", "CertificateBuilder", "CertificateSigningRequestBuilder", "random_serial_number",
    "load_pem_x509_certificate", "load_der_x509_certificate", "load_pem_x509_certificates",
    "load_pem_x509_csr", "load_der_x509_csr", "CertificateVerifyError", "NotYetValidError", "ExpiredError",
    "NotCAError", "PathLengthError", "KeyUsageError", "IssuerError", "ChainLoopError", "CriticalExtensionError",
    "BadSignatureError", "AlgorithmError", "BadNameError", "TLCP_SIGN", "TLCP_ENC", "pem_encode", "pem_decode",
]


# ---- object identifiers and names ---------------------------------------------

class ObjectIdentifier:
    """An OID by its dotted string (pyca's ``x509.ObjectIdentifier``)."""

    __slots__ = ("dotted_string",)

    def __init__(self, dotted_string: str) -> None:
        parts = dotted_string.split(".")
        if len(parts) < 2 or not all(p.isdigit() and (p == "0" or not p.startswith("0")) for p in parts):
            raise ValueError("not a dotted OID: %r" % dotted_string)
        self.dotted_string = dotted_string

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ObjectIdentifier) and other.dotted_string == self.dotted_string

    def __hash__(self) -> int:
        return hash(self.dotted_string)

    def __repr__(self) -> str:
        return "<ObjectIdentifier(%s)>" % self.dotted_string


class NameOID:
    """Attribute types of names (RFC 5280 appendix A), pyca's names."""
    COUNTRY_NAME = ObjectIdentifier("2.5.4.6")
    STATE_OR_PROVINCE_NAME = ObjectIdentifier("2.5.4.8")
    LOCALITY_NAME = ObjectIdentifier("2.5.4.7")
    ORGANIZATION_NAME = ObjectIdentifier("2.5.4.10")
    ORGANIZATIONAL_UNIT_NAME = ObjectIdentifier("2.5.4.11")
    COMMON_NAME = ObjectIdentifier("2.5.4.3")
    SERIAL_NUMBER = ObjectIdentifier("2.5.4.5")
    EMAIL_ADDRESS = ObjectIdentifier("1.2.840.113549.1.9.1")
    DOMAIN_COMPONENT = ObjectIdentifier("0.9.2342.19200300.100.1.25")
    USER_ID = ObjectIdentifier("0.9.2342.19200300.100.1.1")
    TITLE = ObjectIdentifier("2.5.4.12")
    GIVEN_NAME = ObjectIdentifier("2.5.4.42")
    SURNAME = ObjectIdentifier("2.5.4.4")
    STREET_ADDRESS = ObjectIdentifier("2.5.4.9")
    POSTAL_CODE = ObjectIdentifier("2.5.4.17")


class ExtendedKeyUsageOID:
    SERVER_AUTH = ObjectIdentifier("1.3.6.1.5.5.7.3.1")
    CLIENT_AUTH = ObjectIdentifier("1.3.6.1.5.5.7.3.2")
    CODE_SIGNING = ObjectIdentifier("1.3.6.1.5.5.7.3.3")
    EMAIL_PROTECTION = ObjectIdentifier("1.3.6.1.5.5.7.3.4")
    TIME_STAMPING = ObjectIdentifier("1.3.6.1.5.5.7.3.8")
    OCSP_SIGNING = ObjectIdentifier("1.3.6.1.5.5.7.3.9")
    ANY_EXTENDED_KEY_USAGE = ObjectIdentifier("2.5.29.37.0")


class ExtensionOID:
    BASIC_CONSTRAINTS = ObjectIdentifier("2.5.29.19")
    KEY_USAGE = ObjectIdentifier("2.5.29.15")
    EXTENDED_KEY_USAGE = ObjectIdentifier("2.5.29.37")
    SUBJECT_ALTERNATIVE_NAME = ObjectIdentifier("2.5.29.17")
    SUBJECT_KEY_IDENTIFIER = ObjectIdentifier("2.5.29.14")
    AUTHORITY_KEY_IDENTIFIER = ObjectIdentifier("2.5.29.35")


# The short names of the string form ("/C=CN/CN=x"), as the C library writes them.
_SHORT = [("C", NameOID.COUNTRY_NAME), ("ST", NameOID.STATE_OR_PROVINCE_NAME), ("L", NameOID.LOCALITY_NAME),
          ("O", NameOID.ORGANIZATION_NAME), ("OU", NameOID.ORGANIZATIONAL_UNIT_NAME), ("CN", NameOID.COMMON_NAME),
          ("serialNumber", NameOID.SERIAL_NUMBER), ("emailAddress", NameOID.EMAIL_ADDRESS),
          ("DC", NameOID.DOMAIN_COMPONENT), ("UID", NameOID.USER_ID), ("title", NameOID.TITLE),
          ("GN", NameOID.GIVEN_NAME), ("SN", NameOID.SURNAME), ("street", NameOID.STREET_ADDRESS),
          ("postalCode", NameOID.POSTAL_CODE)]
_OID_TO_SHORT = {oid: short for short, oid in _SHORT}
_SHORT_TO_OID = {short: oid for short, oid in _SHORT}
# RFC 4514 keywords (others print as the dotted OID)
_RFC4514 = {NameOID.COMMON_NAME: "CN", NameOID.LOCALITY_NAME: "L", NameOID.STATE_OR_PROVINCE_NAME: "ST",
            NameOID.ORGANIZATION_NAME: "O", NameOID.ORGANIZATIONAL_UNIT_NAME: "OU", NameOID.COUNTRY_NAME: "C",
            NameOID.STREET_ADDRESS: "STREET", NameOID.DOMAIN_COMPONENT: "DC", NameOID.USER_ID: "UID"}


def _escape(value: str) -> str:
    out = []
    for ch in value:
        if ch in "/+=\\":
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\x%02X" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


class NameAttribute:
    """One attribute of a name: an OID and its text value."""

    __slots__ = ("oid", "value")

    def __init__(self, oid: ObjectIdentifier, value: str) -> None:
        if not isinstance(oid, ObjectIdentifier):
            raise TypeError("oid must be an ObjectIdentifier")
        if not isinstance(value, str):
            raise TypeError("value must be str")
        self.oid = oid
        self.value = value

    def _string(self) -> str:
        return "%s=%s" % (_OID_TO_SHORT.get(self.oid, self.oid.dotted_string), _escape(self.value))

    def rfc4514_string(self) -> str:
        key = _RFC4514.get(self.oid, self.oid.dotted_string)
        v = "".join("\\" + c if c in ',+"\\<>;' else c for c in self.value)
        if v.startswith((" ", "#")):
            v = "\\" + v
        if v.endswith(" "):
            v = v[:-1] + "\\ "
        return "%s=%s" % (key, v)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NameAttribute) and (self.oid, self.value) == (other.oid, other.value)

    def __hash__(self) -> int:
        return hash((self.oid, self.value))

    def __repr__(self) -> str:
        return "<NameAttribute(oid=%s, value=%r)>" % (self.oid.dotted_string, self.value)


class RelativeDistinguishedName:
    """One RDN: a set of attributes (usually one)."""

    __slots__ = ("_attributes",)

    def __init__(self, attributes: Iterable[NameAttribute]) -> None:
        self._attributes = list(attributes)
        if not self._attributes:
            raise ValueError("an RDN needs at least one attribute")

    def __iter__(self) -> Iterator[NameAttribute]:
        return iter(self._attributes)

    def __len__(self) -> int:
        return len(self._attributes)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RelativeDistinguishedName) and set(self._attributes) == set(other._attributes)

    def __hash__(self) -> int:
        return hash(frozenset(self._attributes))


def _split_unescaped(s: str, sep: str) -> List[str]:
    parts, cur, i = [], [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            cur.append(s[i:i + 2])
            i += 2
            continue
        if c == sep:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    parts.append("".join(cur))
    return parts


def _unescape(s: str) -> str:
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and s[i + 1:i + 2] in ("x", "X"):
            out.append(chr(int(s[i + 2:i + 4], 16)))
            i += 4
        elif s[i] == "\\":
            out.append(s[i + 1])
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


class Name:
    """A distinguished name (RFC 5280 4.1.2.4): RDNs in order, most
    significant first ("/C=CN/O=Org/CN=name")."""

    __slots__ = ("_rdns", "_der")

    def __init__(self, attributes: Iterable[Union[NameAttribute, RelativeDistinguishedName]]) -> None:
        rdns = []
        for a in attributes:
            rdns.append(a if isinstance(a, RelativeDistinguishedName) else RelativeDistinguishedName([a]))
        self._rdns = rdns
        self._der: Optional[bytes] = None  # as read from a certificate: written back byte for byte

    @classmethod
    def from_string(cls, text: str) -> "Name":
        """The string form "/C=CN/O=Org/CN=name" ("+" joins attributes of one
        RDN, "\\" escapes / + = \\). Raises BadNameError when malformed."""
        if not isinstance(text, str):
            raise TypeError("a name string must be str")
        if text == "":
            return cls([])
        if not text.startswith("/"):
            raise BadNameError("a name string starts with '/': %r" % text)
        rdns = []
        for part in _split_unescaped(text[1:], "/"):
            attrs = []
            for av in _split_unescaped(part, "+"):
                key, sep, value = av.partition("=")
                if not sep or not key or not value:
                    raise BadNameError("not TYPE=VALUE: %r in %r" % (av, text))
                oid = _SHORT_TO_OID.get(key)
                if oid is None:
                    for short, o in _SHORT:
                        if short.lower() == key.lower():
                            oid = o
                if oid is None:
                    try:
                        oid = ObjectIdentifier(key)
                    except ValueError:
                        raise BadNameError("unknown attribute %r in %r" % (key, text)) from None
                try:
                    attrs.append(NameAttribute(oid, _unescape(value)))
                except (IndexError, ValueError):
                    raise BadNameError("bad escape in %r" % text) from None
            rdns.append(RelativeDistinguishedName(attrs))
        name = cls(rdns)
        _check_name(name.to_string())  # the C parser judges what is well formed
        return name

    def to_string(self) -> str:
        """The string form, as ``fastsm2 certparse`` prints it."""
        return "".join("/" + "+".join(a._string() for a in rdn) for rdn in self._rdns)

    def rfc4514_string(self) -> str:
        """RFC 4514's form, least significant RDN first: "CN=name,O=Org,C=CN"."""
        return ",".join("+".join(a.rfc4514_string() for a in rdn) for rdn in reversed(self._rdns))

    @property
    def rdns(self) -> List[RelativeDistinguishedName]:
        return list(self._rdns)

    def __iter__(self) -> Iterator[NameAttribute]:
        for rdn in self._rdns:
            yield from rdn

    def __len__(self) -> int:
        return sum(len(r) for r in self._rdns)

    def get_attributes_for_oid(self, oid: ObjectIdentifier) -> List[NameAttribute]:
        return [a for a in self if a.oid == oid]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Name) and self._rdns == other._rdns

    def __hash__(self) -> int:
        return hash(tuple(self._rdns))

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return "<Name(%s)>" % self.to_string()


def _check_name(text: str) -> None:
    b = ffi.new("fastsm2_x509_builder **")
    check_ok(lib.fastsm2_x509_builder_new(b))
    try:
        st = lib.fastsm2_x509_set_subject(b[0], text.encode("utf-8"))
    finally:
        lib.fastsm2_x509_builder_free(b[0])
    if st != 1:
        raise BadNameError("the name %r is not one the library writes" % text)


def _coerce_name(name: Union["Name", str]) -> "Name":
    if isinstance(name, Name):
        return name
    if isinstance(name, str):
        return Name.from_string(name)
    raise TypeError("a name is a Name or a string '/C=CN/O=.../CN=...'")


# ---- general names and extensions -------------------------------------------------

class _GeneralName:
    __slots__ = ("value",)
    _prefix = ""

    def __init__(self, value: Any) -> None:
        self.value = value

    def _san(self) -> str:
        return self._prefix + str(self.value)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.value == self.value  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.value))

    def __repr__(self) -> str:
        return "<%s(value=%r)>" % (type(self).__name__, self.value)


class DNSName(_GeneralName):
    _prefix = "DNS:"


class RFC822Name(_GeneralName):
    _prefix = "email:"


class UniformResourceIdentifier(_GeneralName):
    _prefix = "URI:"


class IPAddress(_GeneralName):
    _prefix = "IP:"

    def __init__(self, value: Union[ipaddress.IPv4Address, ipaddress.IPv6Address, str]) -> None:
        super().__init__(ipaddress.ip_address(value) if isinstance(value, str) else value)


class DirectoryName(_GeneralName):
    """A directoryName read from a certificate (not written here)."""


class OtherGeneralName(_GeneralName):
    """A GeneralName of another kind, read as its tag and hex ("[0]:#...")."""


class BasicConstraints:
    oid = ExtensionOID.BASIC_CONSTRAINTS

    def __init__(self, ca: bool, path_length: Optional[int]) -> None:
        if path_length is not None and (not ca or path_length < 0):
            raise ValueError("path_length needs ca=True and is >= 0")
        self.ca = bool(ca)
        self.path_length = path_length

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BasicConstraints) and (self.ca, self.path_length) == (other.ca, other.path_length)

    def __repr__(self) -> str:
        return "<BasicConstraints(ca=%s, path_length=%s)>" % (self.ca, self.path_length)


_KU_FIELDS = ["digital_signature", "content_commitment", "key_encipherment", "data_encipherment", "key_agreement",
              "key_cert_sign", "crl_sign", "encipher_only", "decipher_only"]


class KeyUsage:
    """keyUsage (RFC 5280 4.2.1.3); content_commitment is nonRepudiation."""
    oid = ExtensionOID.KEY_USAGE

    def __init__(self, digital_signature: bool = False, content_commitment: bool = False,
                 key_encipherment: bool = False, data_encipherment: bool = False, key_agreement: bool = False,
                 key_cert_sign: bool = False, crl_sign: bool = False, encipher_only: bool = False,
                 decipher_only: bool = False) -> None:
        self.digital_signature = digital_signature
        self.content_commitment = content_commitment
        self.key_encipherment = key_encipherment
        self.data_encipherment = data_encipherment
        self.key_agreement = key_agreement
        self.key_cert_sign = key_cert_sign
        self.crl_sign = crl_sign
        self.encipher_only = encipher_only
        self.decipher_only = decipher_only

    def _bits(self) -> int:
        return sum(1 << i for i, f in enumerate(_KU_FIELDS) if getattr(self, f))

    @classmethod
    def _from_bits(cls, bits: int) -> "KeyUsage":
        return cls(**{f: bool(bits >> i & 1) for i, f in enumerate(_KU_FIELDS)})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KeyUsage) and self._bits() == other._bits()

    def __repr__(self) -> str:
        return "<KeyUsage(%s)>" % ", ".join(f for f in _KU_FIELDS if getattr(self, f))


#: The keyUsage of GM/T 0015's two TLCP certificates: signing, encryption.
TLCP_SIGN = KeyUsage(digital_signature=True, content_commitment=True)
TLCP_ENC = KeyUsage(key_encipherment=True, data_encipherment=True, key_agreement=True)

_EKU_BITS = [(ExtendedKeyUsageOID.SERVER_AUTH, 0x01), (ExtendedKeyUsageOID.CLIENT_AUTH, 0x02),
             (ExtendedKeyUsageOID.CODE_SIGNING, 0x04), (ExtendedKeyUsageOID.EMAIL_PROTECTION, 0x08),
             (ExtendedKeyUsageOID.TIME_STAMPING, 0x10), (ExtendedKeyUsageOID.OCSP_SIGNING, 0x20),
             (ExtendedKeyUsageOID.ANY_EXTENDED_KEY_USAGE, 0x40)]


def _eku_bits(usages: Iterable[ObjectIdentifier]) -> int:
    table = dict(_EKU_BITS)
    bits = 0
    for u in usages:
        if u not in table:
            raise ValueError("extendedKeyUsage %s is not one this library writes" % u.dotted_string)
        bits |= table[u]
    return bits


class ExtendedKeyUsage:
    oid = ExtensionOID.EXTENDED_KEY_USAGE

    def __init__(self, usages: Iterable[ObjectIdentifier]) -> None:
        self._usages = list(usages)

    def __iter__(self) -> Iterator[ObjectIdentifier]:
        return iter(self._usages)

    def __len__(self) -> int:
        return len(self._usages)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ExtendedKeyUsage) and set(self._usages) == set(other._usages)

    def __repr__(self) -> str:
        return "<ExtendedKeyUsage(%s)>" % [u.dotted_string for u in self._usages]


class SubjectAlternativeName:
    oid = ExtensionOID.SUBJECT_ALTERNATIVE_NAME

    def __init__(self, general_names: Iterable[_GeneralName]) -> None:
        self._names = list(general_names)

    def __iter__(self) -> Iterator[_GeneralName]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def get_values_for_type(self, type_: Type[_GeneralName]) -> List[Any]:
        return [n.value for n in self._names if isinstance(n, type_)]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SubjectAlternativeName) and self._names == other._names

    def __repr__(self) -> str:
        return "<SubjectAlternativeName(%r)>" % self._names


class SubjectKeyIdentifier:
    oid = ExtensionOID.SUBJECT_KEY_IDENTIFIER

    def __init__(self, digest: bytes) -> None:
        self.digest = digest

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SubjectKeyIdentifier) and self.digest == other.digest


class AuthorityKeyIdentifier:
    oid = ExtensionOID.AUTHORITY_KEY_IDENTIFIER

    def __init__(self, key_identifier: Optional[bytes]) -> None:
        self.key_identifier = key_identifier

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AuthorityKeyIdentifier) and self.key_identifier == other.key_identifier


class UnrecognizedExtension:
    """Any extension, given as its OID and the DER of its value."""

    def __init__(self, oid: ObjectIdentifier, value: bytes) -> None:
        self.oid = oid
        self.value = as_bytes(value, "value")


class Extension:
    __slots__ = ("oid", "critical", "value")

    def __init__(self, oid: ObjectIdentifier, critical: bool, value: Any) -> None:
        self.oid = oid
        self.critical = critical
        self.value = value

    def __repr__(self) -> str:
        return "<Extension(oid=%s, critical=%s, value=%r)>" % (self.oid.dotted_string, self.critical, self.value)


_E = TypeVar("_E")


class Extensions:
    """The extensions this library reads, in pyca's shape."""

    def __init__(self, extensions: Sequence[Extension]) -> None:
        self._exts = list(extensions)

    def __iter__(self) -> Iterator[Extension]:
        return iter(self._exts)

    def __len__(self) -> int:
        return len(self._exts)

    def get_extension_for_oid(self, oid: ObjectIdentifier) -> Extension:
        for e in self._exts:
            if e.oid == oid:
                return e
        raise KeyError("no extension %s" % oid.dotted_string)

    def get_extension_for_class(self, cls: Type[_E]) -> Extension:
        for e in self._exts:
            if isinstance(e.value, cls):
                return e
        raise KeyError("no %s extension" % cls.__name__)


# ---- reading ------------------------------------------------------------------------

class Encoding:
    """pyca's ``serialization.Encoding`` values that public_bytes() takes."""
    PEM = "PEM"
    DER = "DER"


def _call_out(fn, *args: Any) -> bytes:
    """A C call with an (out, *outlen) output: its size asked, then filled."""
    n = ffi.new("size_t *", 0)
    check_ok(fn(ffi.NULL, n, *args))
    buf = ffi.new("unsigned char[]", max(n[0], 1))
    check_ok(fn(buf, n, *args))
    return ffi.buffer(buf, n[0])[:]


def _text(what: int, der: bytes) -> str:
    n = ffi.new("size_t *", 0)
    check_ok(lib.fastsm2_x509_get_text(ffi.NULL, n, what, der, len(der)))
    buf = ffi.new("char[]", n[0] + 1)
    check_ok(lib.fastsm2_x509_get_text(buf, n, what, der, len(der)))
    return ffi.buffer(buf, n[0])[:].decode("utf-8", "replace")


def _info(der: bytes) -> Any:
    info = ffi.new("fastsm2_x509_info *")
    check_ok(lib.fastsm2_x509_get_info(info, der, len(der)))
    return info


def _parse_name(text: str, der: Optional[bytes] = None) -> Name:
    name = _parse_name_text(text)
    name._der = der
    return name


def _parse_name_text(text: str) -> Name:
    if text == "":
        return Name([])
    rdns = []
    for part in _split_unescaped(text[1:], "/"):
        attrs = []
        for av in _split_unescaped(part, "+"):
            key, _, value = av.partition("=")
            oid = _SHORT_TO_OID.get(key) or ObjectIdentifier(key)
            attrs.append(NameAttribute(oid, value if value.startswith("#") else _unescape(value)))
        rdns.append(RelativeDistinguishedName(attrs))
    return Name(rdns)


def _parse_san(text: str) -> List[_GeneralName]:
    out: List[_GeneralName] = []
    for item in text.split(", ") if text else []:
        kind, _, value = item.partition(":")
        if kind == "DNS":
            out.append(DNSName(value))
        elif kind == "email":
            out.append(RFC822Name(value))
        elif kind == "URI":
            out.append(UniformResourceIdentifier(value))
        elif kind == "IP" and not value.startswith("#"):
            out.append(IPAddress(value))
        elif kind == "DirName":
            out.append(DirectoryName(_parse_name_text(value)))
        else:
            out.append(OtherGeneralName(item))
    return out


def _extensions(der: bytes, info: Any) -> Extensions:
    exts: List[Extension] = []
    if info.has_basic_constraints:
        exts.append(Extension(ExtensionOID.BASIC_CONSTRAINTS, True,
                              BasicConstraints(bool(info.ca), None if info.path_len < 0 or not info.ca
                                               else info.path_len)))
    if info.has_key_usage:
        exts.append(Extension(ExtensionOID.KEY_USAGE, True, KeyUsage._from_bits(info.key_usage)))
    if info.has_ext_key_usage:
        exts.append(Extension(ExtensionOID.EXTENDED_KEY_USAGE, False,
                              ExtendedKeyUsage([oid for oid, bit in _EKU_BITS if info.ext_key_usage & bit])))
    san = _text(lib.FASTSM2_X509_SAN, der)
    if san:
        exts.append(Extension(ExtensionOID.SUBJECT_ALTERNATIVE_NAME, False, SubjectAlternativeName(_parse_san(san))))
    if info.skid_len:
        exts.append(Extension(ExtensionOID.SUBJECT_KEY_IDENTIFIER, False,
                              SubjectKeyIdentifier(ffi.buffer(info.skid, info.skid_len)[:])))
    if info.akid_len:
        exts.append(Extension(ExtensionOID.AUTHORITY_KEY_IDENTIFIER, False,
                              AuthorityKeyIdentifier(ffi.buffer(info.akid, info.akid_len)[:])))
    return Extensions(exts)


def _utc(t: int) -> datetime:
    return datetime.fromtimestamp(t, timezone.utc)


class _Signed:
    """What certificates and requests share."""

    __slots__ = ("_der", "_info")
    _kind = 0
    _der: bytes
    _info: Any

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError("use %s.load(), load_pem() or load_der()" % type(self).__name__)

    @classmethod
    def _from(cls, data: Union[BytesLike, str]) -> Any:
        b = as_text_or_bytes(data, cls.__name__)
        der = _call_out(lambda out, n: lib.fastsm2_x509_get_der(out, n, lib.FASTSM2_X509_DER, b, len(b)))
        self = object.__new__(cls)
        self._der = der
        self._info = _info(der)
        if self._info.kind != cls._kind:
            raise ValueError("not a %s" % cls.__name__)
        return self

    @classmethod
    def load(cls: Any, data: Union[BytesLike, str]) -> Any:
        """From PEM or DER. Raises DERError, PEMError, TooLargeError, or
        ValueError when it is the other kind (a request, a certificate)."""
        return cls._from(data)

    load_pem = load
    load_der = load

    def public_bytes(self, encoding: str = Encoding.PEM) -> bytes:
        """The DER, or PEM ("CERTIFICATE", "CERTIFICATE REQUEST")."""
        if encoding in (Encoding.DER, "der"):
            return self._der
        if encoding not in (Encoding.PEM, "pem"):
            raise ValueError("encoding is Encoding.PEM or Encoding.DER")
        return pem_encode(self._der, "CERTIFICATE" if self._kind == lib.FASTSM2_X509_CERTIFICATE
                          else "CERTIFICATE REQUEST")

    def to_pem(self) -> bytes:
        return self.public_bytes(Encoding.PEM)

    def to_der(self) -> bytes:
        return self._der

    @property
    def subject(self) -> Name:
        der = _call_out(lambda out, n: lib.fastsm2_x509_get_der(out, n, lib.FASTSM2_X509_SUBJECT_DER, self._der,
                                                                len(self._der)))
        return _parse_name(_text(lib.FASTSM2_X509_SUBJECT, self._der), der)

    @property
    def extensions(self) -> Extensions:
        return _extensions(self._der, self._info)

    def public_key(self) -> PublicKey:
        """The subject's SM2 public key (validated as GB/T 32918.1 6.2 asks)."""
        pub = PublicKey._new()
        check_ok(lib.fastsm2_x509_public_key(pub._p, self._der, len(self._der)))
        return pub

    @property
    def tbs_bytes(self) -> bytes:
        """The signed part's DER."""
        return _call_out(lambda out, n: lib.fastsm2_x509_get_der(out, n, lib.FASTSM2_X509_TBS_DER, self._der,
                                                                 len(self._der)))

    def text(self) -> str:
        """Every field, one a line, as ``fastsm2 certparse`` prints them."""
        return _text(lib.FASTSM2_X509_TEXT, self._der)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._der == self._der  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._der)


class Certificate(_Signed):
    """An X.509 certificate (RFC 5280 4.1), read; immutable."""

    __slots__ = ()
    _kind = lib.FASTSM2_X509_CERTIFICATE

    @property
    def version(self) -> int:
        return int(self._info.version)

    @property
    def serial_number(self) -> int:
        return int(_text(lib.FASTSM2_X509_SERIAL, self._der), 16)

    @property
    def issuer(self) -> Name:
        der = _call_out(lambda out, n: lib.fastsm2_x509_get_der(out, n, lib.FASTSM2_X509_ISSUER_DER, self._der,
                                                                len(self._der)))
        return _parse_name(_text(lib.FASTSM2_X509_ISSUER, self._der), der)

    @property
    def not_valid_before_utc(self) -> datetime:
        return _utc(self._info.not_before)

    @property
    def not_valid_after_utc(self) -> datetime:
        return _utc(self._info.not_after)

    not_valid_before = not_valid_before_utc
    not_valid_after = not_valid_after_utc

    def fingerprint(self) -> bytes:
        """SM3 of the DER (the only hash this library has)."""
        return ffi.buffer(self._info.fingerprint, 32)[:]

    def verify_directly_issued_by(self, issuer: "Certificate", id: IdLike = DEFAULT_ID) -> None:
        """Raise unless issuer's key signed this certificate with the signer
        ID (its names are not compared): BadSignatureError, AlgorithmError."""
        ident = as_id(id)
        check_ok(lib.fastsm2_x509_verify_signature(self._der, len(self._der), issuer._der, len(issuer._der), ident,
                                                   len(ident)))

    def verify_chain(self, trusted: Iterable["Certificate"], untrusted: Iterable["Certificate"] = (),
                     at: Optional[datetime] = None, id: IdLike = DEFAULT_ID,
                     key_usage: Optional[KeyUsage] = None, extended_key_usage: Iterable[ObjectIdentifier] = (),
                     max_depth: int = 10, check_time: bool = True) -> None:
        """Verify this certificate's chain up to one of `trusted`, through
        any of `untrusted` (RFC 5280 clause 6 with SM2 signatures and the
        signer ID; see fastsm2_x509_verify_chain in fastsm2.h). Returns
        None, or raises the reason, a CertificateVerifyError (ExpiredError,
        NotYetValidError, NotCAError, PathLengthError, KeyUsageError,
        IssuerError, ChainLoopError, CriticalExtensionError) or
        BadSignatureError / AlgorithmError, whose ``depth`` says where (0
        this certificate, 1 its issuer, ...). key_usage and
        extended_key_usage are what this certificate's own usages must
        allow; at is the time (default now)."""
        tr = b"".join(c._der for c in trusted)
        un = b"".join(c._der for c in untrusted)
        if not tr:
            raise ValueError("verify_chain needs at least one trusted certificate")
        ident = as_id(id)
        p = ffi.new("fastsm2_x509_verify_params *")
        lib.fastsm2_x509_verify_params_init(p)
        if at is not None:
            if at.tzinfo is None:
                raise ValueError("at must be timezone-aware (datetime.now(timezone.utc))")
            p.time = int(at.timestamp())
        if not check_time:
            p.flags |= lib.FASTSM2_X509_NO_TIME_CHECK
        if key_usage is not None:
            p.key_usage = key_usage._bits()
        p.ext_key_usage = _eku_bits(extended_key_usage)
        if not 1 <= max_depth <= 32:
            raise ValueError("max_depth is 1 to 32")
        p.max_depth = max_depth
        idbuf = ffi.new("char[]", ident)
        p.id = idbuf
        p.idlen = len(ident)
        depth = ffi.new("int *", -1)
        st = lib.fastsm2_x509_verify_chain(depth, self._der, len(self._der), un, len(un), tr, len(tr), p)
        if st != 1:
            err = error_for_code(st)
            err.depth = depth[0]  # type: ignore[attr-defined]
            raise err

    def __repr__(self) -> str:
        return "<Certificate(subject=%s, serial=%x)>" % (self.subject, self.serial_number)


class CertificateSigningRequest(_Signed):
    """A PKCS#10 request (RFC 2986), read; immutable."""

    __slots__ = ()
    _kind = lib.FASTSM2_X509_REQUEST

    def verify(self, id: IdLike = DEFAULT_ID) -> bool:
        """Whether its own signature verifies with the signer ID (openssl
        3.x's requests: id=b"")."""
        ident = as_id(id)
        st = lib.fastsm2_x509_verify_request(self._der, len(self._der), ident, len(ident))
        if st in (1, lib.FASTSM2_ERR_BAD_SIGNATURE):
            return st == 1
        check_ok(st)
        return False

    @property
    def is_signature_valid(self) -> bool:
        """pyca's property: verify() with the default ID."""
        return self.verify()

    def __repr__(self) -> str:
        return "<CertificateSigningRequest(subject=%s)>" % self.subject


def pem_encode(der: BytesLike, label: str = "CERTIFICATE") -> bytes:
    """PEM armour (RFC 7468) of any DER under label."""
    d = as_bytes(der, "der")
    lab = label.encode("ascii")
    n = ffi.new("size_t *", 0)
    check_ok(lib.fastsm2_pem_encode(ffi.NULL, n, lab, d, len(d)))
    buf = ffi.new("char[]", n[0])
    check_ok(lib.fastsm2_pem_encode(buf, n, lab, d, len(d)))
    return ffi.buffer(buf, n[0])[:]


def pem_decode(text: Union[BytesLike, str], label: str = "CERTIFICATE") -> bytes:
    """The DER of the first PEM block labelled label (PEMError when none)."""
    t = as_text_or_bytes(text, "PEM text")
    lab = label.encode("ascii")
    return _call_out(lambda out, n: lib.fastsm2_pem_decode(out, n, lab, t, len(t)))


def load_pem_x509_certificate(data: Union[BytesLike, str]) -> Certificate:
    return Certificate.load(data)


def load_der_x509_certificate(data: BytesLike) -> Certificate:
    return Certificate.load(data)


def load_pem_x509_certificates(data: Union[BytesLike, str]) -> List[Certificate]:
    """Every certificate of a PEM (or DER) bundle."""
    b = as_text_or_bytes(data, "certificates")
    n = lib.fastsm2_x509_bundle_count(b, len(b))
    if n < 0:
        check_ok(n)
    return [Certificate.load(_call_out(lambda out, ln, i=i: lib.fastsm2_x509_bundle_get(out, ln, i, b, len(b))))
            for i in range(n)]


def load_pem_x509_csr(data: Union[BytesLike, str]) -> CertificateSigningRequest:
    return CertificateSigningRequest.load(data)


def load_der_x509_csr(data: BytesLike) -> CertificateSigningRequest:
    return CertificateSigningRequest.load(data)


# ---- building ---------------------------------------------------------------------------

def random_serial_number() -> int:
    """A random positive 128-bit serial number (what the builder uses when
    none is set)."""
    import os
    return int.from_bytes(os.urandom(16), "big") >> 1 | 1 << 126


_ExtT = Tuple[Any, bool]


class _Builder:
    """Immutable, as pyca's builders: every call returns a new builder."""

    __slots__ = ("_subject", "_exts")

    def __init__(self) -> None:
        self._subject: Optional[Name] = None
        self._exts: List[_ExtT] = []

    def _copy(self) -> Any:
        other = object.__new__(type(self))
        for cls in type(self).__mro__:
            for slot in getattr(cls, "__slots__", ()):
                setattr(other, slot, getattr(self, slot))
        other._exts = list(self._exts)
        return other

    def subject_name(self, name: Union[Name, str]) -> Any:
        b = self._copy()
        b._subject = _coerce_name(name)
        return b

    def add_extension(self, extval: Any, critical: bool) -> Any:
        """BasicConstraints (critical), KeyUsage (critical), ExtendedKeyUsage,
        SubjectAlternativeName (not critical; critical when the subject is
        empty) as RFC 5280 asks for each, or any UnrecognizedExtension with
        the criticality given."""
        want = {BasicConstraints: True, KeyUsage: True, ExtendedKeyUsage: False, SubjectAlternativeName: False}
        for cls, crit in want.items():
            if isinstance(extval, cls) and bool(critical) != crit and not (cls is SubjectAlternativeName and critical):
                raise ValueError("%s is written %scritical (RFC 5280)" % (cls.__name__, "" if crit else "not "))
        if not isinstance(extval, tuple(want)) and not isinstance(extval, UnrecognizedExtension):
            raise TypeError("an extension this builder writes: %s or UnrecognizedExtension"
                            % ", ".join(c.__name__ for c in want))
        b = self._copy()
        b._exts = [e for e in b._exts if type(e[0]) is not type(extval) or isinstance(extval, UnrecognizedExtension)]
        b._exts.append((extval, bool(critical)))
        return b

    def _apply(self, cb: Any) -> None:
        if self._subject is not None and self._subject._der is not None:
            check_ok(lib.fastsm2_x509_set_subject_der(cb, self._subject._der, len(self._subject._der)))
        elif self._subject is not None:
            check_ok(lib.fastsm2_x509_set_subject(cb, self._subject.to_string().encode("utf-8")))
        for ext, critical in self._exts:
            if isinstance(ext, BasicConstraints):
                check_ok(lib.fastsm2_x509_set_basic_constraints(
                    cb, int(ext.ca), -1 if ext.path_length is None else ext.path_length))
            elif isinstance(ext, KeyUsage):
                check_ok(lib.fastsm2_x509_set_key_usage(cb, ext._bits()))
            elif isinstance(ext, ExtendedKeyUsage):
                check_ok(lib.fastsm2_x509_set_ext_key_usage(cb, _eku_bits(ext)))
            elif isinstance(ext, SubjectAlternativeName):
                for gn in ext:
                    if not isinstance(gn, (DNSName, RFC822Name, UniformResourceIdentifier, IPAddress)):
                        raise ValueError("subjectAltName: DNSName, IPAddress, RFC822Name or "
                                         "UniformResourceIdentifier")
                    check_ok(lib.fastsm2_x509_add_san(cb, gn._san().encode("utf-8")))
            elif isinstance(ext, UnrecognizedExtension):
                check_ok(lib.fastsm2_x509_add_extension(cb, ext.oid.dotted_string.encode(), int(critical), ext.value,
                                                        len(ext.value)))


def _new_builder() -> Any:
    b = ffi.new("fastsm2_x509_builder **")
    check_ok(lib.fastsm2_x509_builder_new(b))
    return ffi.gc(b[0], lib.fastsm2_x509_builder_free)


class CertificateSigningRequestBuilder(_Builder):
    """Builds a PKCS#10 request (RFC 2986): a subject and the extensions
    asked for; sign(key) makes it."""

    __slots__ = ()

    def sign(self, private_key: PrivateKey, algorithm: Any = None, id: IdLike = DEFAULT_ID) -> CertificateSigningRequest:
        """Signed by private_key (whose public key it carries) with SM2-SM3
        and the signer ID. algorithm is accepted for pyca's signature and
        must be None or name SM3."""
        _check_algorithm(algorithm)
        if self._subject is None:
            raise ValueError("a request needs a subject_name")
        cb = _new_builder()
        self._apply(cb)
        ident = as_id(id)
        der = _call_out(lambda out, n: lib.fastsm2_x509_make_request(out, n, cb, private_key._k, ident, len(ident),
                                                                     lib.FASTSM2_KEYFMT_DER))
        return CertificateSigningRequest.load(der)


def _check_algorithm(algorithm: Any) -> None:
    if algorithm is None:
        return
    name = getattr(algorithm, "name", algorithm)
    if not isinstance(name, str) or name.lower() != "sm3":
        raise AlgorithmError("SM2 certificates are signed with SM3 (algorithm=None)")


class CertificateBuilder(_Builder):
    """Builds an X.509 v3 certificate (RFC 5280 4.1): subject, public key,
    serial, validity, extensions; sign(issuer_key, issuer=...) makes it."""

    __slots__ = ("_issuer_name", "_pub", "_serial", "_nb", "_na", "_request")

    def __init__(self) -> None:
        super().__init__()
        self._issuer_name: Optional[Name] = None
        self._pub: Optional[PublicKey] = None
        self._serial: Optional[int] = None
        self._nb: Optional[datetime] = None
        self._na: Optional[datetime] = None
        self._request: Optional[Tuple[CertificateSigningRequest, bytes, bool]] = None

    def issuer_name(self, name: Union[Name, str]) -> "CertificateBuilder":
        """Checked at sign(): the issuer's certificate's subject, or, for a
        self-signed certificate, the subject."""
        b = self._copy()
        b._issuer_name = _coerce_name(name)
        return b

    def public_key(self, key: PublicKey) -> "CertificateBuilder":
        if not isinstance(key, PublicKey):
            raise TypeError("public_key takes a fastsm2.PublicKey")
        b = self._copy()
        b._pub = key
        return b

    def serial_number(self, number: int) -> "CertificateBuilder":
        if not isinstance(number, int) or number <= 0 or number.bit_length() > 159:
            raise ValueError("a serial number is positive and at most 20 bytes (RFC 5280 4.1.2.2)")
        b = self._copy()
        b._serial = number
        return b

    def not_valid_before(self, t: datetime) -> "CertificateBuilder":
        b = self._copy()
        b._nb = t
        return b

    def not_valid_after(self, t: datetime) -> "CertificateBuilder":
        b = self._copy()
        b._na = t
        return b

    def from_request(self, csr: CertificateSigningRequest, id: IdLike = DEFAULT_ID,
                     copy_extensions: bool = False) -> "CertificateBuilder":
        """The subject and public key of a request, whose signature is
        checked with the signer ID at sign() (BadSignatureError);
        copy_extensions takes the extensions it asks for too."""
        b = self._copy()
        b._request = (csr, as_id(id), copy_extensions)
        return b

    def sign(self, private_key: PrivateKey, algorithm: Any = None, issuer: Optional[Certificate] = None,
             id: IdLike = DEFAULT_ID) -> Certificate:
        """Sign with the issuer's private_key and the signer ID: issued by
        `issuer` (its certificate), or self-signed when issuer is None."""
        _check_algorithm(algorithm)
        cb = _new_builder()
        if self._request is not None:
            csr, rid, copy = self._request
            check_ok(lib.fastsm2_x509_set_request(cb, csr._der, len(csr._der), rid, len(rid),
                                                  lib.FASTSM2_X509_COPY_EXTENSIONS if copy else 0))
        elif self._subject is None:
            raise ValueError("a certificate needs a subject_name (or from_request)")
        self._apply(cb)
        if self._pub is not None:
            check_ok(lib.fastsm2_x509_set_public_key(cb, self._pub._p))
        if self._serial is not None:
            s = self._serial.to_bytes((self._serial.bit_length() + 7) // 8, "big")
            check_ok(lib.fastsm2_x509_set_serial(cb, s, len(s)))
        if (self._nb is None) != (self._na is None):
            raise ValueError("give both not_valid_before and not_valid_after (or neither: 365 days from now)")
        if self._nb is not None and self._na is not None:
            if self._nb.tzinfo is None or self._na.tzinfo is None:
                raise ValueError("validity times must be timezone-aware (timezone.utc)")
            check_ok(lib.fastsm2_x509_set_validity(cb, int(self._nb.timestamp()), int(self._na.timestamp())))
        if self._issuer_name is not None:
            want = issuer.subject if issuer is not None else (self._subject or (self._request[0].subject
                                                                                 if self._request else None))
            if want != self._issuer_name:
                raise ValueError("issuer_name %s is not the issuer's subject %s" % (self._issuer_name, want))
        ident = as_id(id)
        idr = issuer._der if issuer is not None else ffi.NULL
        idl = len(issuer._der) if issuer is not None else 0
        der = _call_out(lambda out, n: lib.fastsm2_x509_make_certificate(out, n, cb, private_key._k, idr, idl, ident,
                                                                         len(ident), lib.FASTSM2_KEYFMT_DER))
        return Certificate.load(der)
