# SPDX-License-Identifier: Apache-2.0
"""fastsm2.x509: requests and certificates made, read by openssl and by
fastsm2's CLI, chains verified and each defect refused with its reason."""
import ipaddress
import subprocess
from datetime import datetime, timedelta, timezone

import pytest

import fastsm2
from fastsm2 import x509

NOW = datetime.now(timezone.utc)
YEAR = timedelta(days=365)


def make_ca(name="/C=CN/O=fastsm2 py/CN=Py Root", key=None, issuer=None, issuer_key=None, path_length=None,
            nb=None, na=None, ku=True):
    key = key or fastsm2.PrivateKey.generate()
    b = (x509.CertificateBuilder().subject_name(name).public_key(key.public_key)
         .not_valid_before(nb or NOW - timedelta(days=1)).not_valid_after(na or NOW + YEAR)
         .add_extension(x509.BasicConstraints(ca=True, path_length=path_length), critical=True))
    if ku:
        b = b.add_extension(x509.KeyUsage(key_cert_sign=True, crl_sign=True), critical=True)
    return key, b.sign(issuer_key or key, issuer=issuer)


@pytest.fixture(scope="module")
def chain():
    root_key, root = make_ca()
    inter_key, inter = make_ca("/C=CN/O=fastsm2 py/CN=Py Inter", issuer=root, issuer_key=root_key, path_length=0)
    key = fastsm2.PrivateKey.generate()
    csr = (x509.CertificateSigningRequestBuilder()
           .subject_name(x509.Name([x509.NameAttribute(x509.NameOID.COUNTRY_NAME, "CN"),
                                    x509.NameAttribute(x509.NameOID.COMMON_NAME, "py.example")]))
           .add_extension(x509.SubjectAlternativeName([x509.DNSName("py.example"),
                                                       x509.IPAddress(ipaddress.ip_address("192.0.2.9"))]),
                          critical=False)
           .add_extension(x509.KeyUsage(digital_signature=True), critical=True)
           .add_extension(x509.ExtendedKeyUsage([x509.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
           .sign(key))
    leaf = (x509.CertificateBuilder().from_request(csr, copy_extensions=True)
            .not_valid_before(NOW - timedelta(hours=1)).not_valid_after(NOW + timedelta(days=30))
            .sign(inter_key, issuer=inter))
    return dict(root_key=root_key, root=root, inter_key=inter_key, inter=inter, key=key, csr=csr, leaf=leaf)


def test_request(chain):
    csr = chain["csr"]
    assert csr.is_signature_valid and csr.verify() and not csr.verify(id=b"")
    assert csr.subject == x509.Name.from_string("/C=CN/CN=py.example")
    assert csr.subject.rfc4514_string() == "CN=py.example,C=CN"
    assert csr.public_key() == chain["key"].public_key
    san = csr.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert san.get_values_for_type(x509.DNSName) == ["py.example"]
    assert san.get_values_for_type(x509.IPAddress) == [ipaddress.ip_address("192.0.2.9")]
    pem = csr.public_bytes(x509.Encoding.PEM)
    assert pem.startswith(b"-----BEGIN CERTIFICATE REQUEST-----\n")
    assert x509.load_pem_x509_csr(pem) == csr == x509.load_der_x509_csr(csr.public_bytes(x509.Encoding.DER))
    with pytest.raises(ValueError):
        x509.Certificate.load(pem)  # a request is not a certificate


def test_certificate_fields(chain):
    leaf, inter, root = chain["leaf"], chain["inter"], chain["root"]
    assert leaf.version == 3
    assert leaf.subject.to_string() == "/C=CN/CN=py.example"
    assert leaf.issuer == inter.subject == x509.Name.from_string("/C=CN/O=fastsm2 py/CN=Py Inter")
    assert leaf.serial_number.bit_length() in (127, 128) and leaf.serial_number != inter.serial_number
    assert abs(leaf.not_valid_after_utc - (NOW + timedelta(days=30))) < timedelta(seconds=2)
    ext = leaf.extensions
    assert ext.get_extension_for_class(x509.KeyUsage).value == x509.KeyUsage(digital_signature=True)
    assert ext.get_extension_for_class(x509.KeyUsage).critical
    assert list(ext.get_extension_for_class(x509.ExtendedKeyUsage).value) == [x509.ExtendedKeyUsageOID.SERVER_AUTH]
    akid = ext.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier
    assert akid == inter.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest
    bc = inter.extensions.get_extension_for_class(x509.BasicConstraints).value
    assert bc == x509.BasicConstraints(ca=True, path_length=0)
    assert root.extensions.get_extension_for_oid(x509.ExtensionOID.BASIC_CONSTRAINTS).value.path_length is None
    assert leaf.public_key() == chain["key"].public_key
    assert len(leaf.fingerprint()) == 32 and leaf.fingerprint() == fastsm2.sm3_digest(leaf.to_der())
    assert "Subject alternative names: DNS:py.example, IP:192.0.2.9" in leaf.text()
    assert x509.load_pem_x509_certificates(leaf.to_pem() + inter.to_pem()) == [leaf, inter]
    leaf.verify_directly_issued_by(inter)
    with pytest.raises(fastsm2.BadSignatureError):
        leaf.verify_directly_issued_by(root)


def test_chain(chain):
    leaf, inter, root = chain["leaf"], chain["inter"], chain["root"]
    leaf.verify_chain(trusted=[root], untrusted=[inter])
    leaf.verify_chain(trusted=[inter])
    leaf.verify_chain(trusted=[root], untrusted=[inter], key_usage=x509.KeyUsage(digital_signature=True),
                      extended_key_usage=[x509.ExtendedKeyUsageOID.SERVER_AUTH])
    with pytest.raises(x509.IssuerError) as e:
        leaf.verify_chain(trusted=[root])
    assert e.value.depth == 0 and isinstance(e.value, x509.CertificateVerifyError)
    with pytest.raises(x509.ExpiredError):
        leaf.verify_chain(trusted=[root], untrusted=[inter], at=NOW + 2 * YEAR)
    with pytest.raises(x509.NotYetValidError):
        leaf.verify_chain(trusted=[root], untrusted=[inter], at=NOW - 2 * YEAR)
    leaf.verify_chain(trusted=[root], untrusted=[inter], at=NOW + 2 * YEAR, check_time=False)
    with pytest.raises(x509.KeyUsageError):
        leaf.verify_chain(trusted=[root], untrusted=[inter], key_usage=x509.TLCP_ENC)
    with pytest.raises(x509.KeyUsageError):
        leaf.verify_chain(trusted=[root], untrusted=[inter],
                          extended_key_usage=[x509.ExtendedKeyUsageOID.CLIENT_AUTH])
    with pytest.raises(fastsm2.BadSignatureError) as e:
        leaf.verify_chain(trusted=[root], untrusted=[inter], id=b"")
    assert e.value.depth == 0
    with pytest.raises(x509.PathLengthError):
        leaf.verify_chain(trusted=[root], untrusted=[inter], max_depth=2)
    with pytest.raises(ValueError):
        leaf.verify_chain(trusted=[])


def test_refusals(chain):
    root, root_key = chain["root"], chain["root_key"]
    # a CA without cA
    notca_key = fastsm2.PrivateKey.generate()
    notca = (x509.CertificateBuilder().subject_name("/CN=not a CA").public_key(notca_key.public_key)
             .sign(root_key, issuer=root))
    under = (x509.CertificateBuilder().subject_name("/CN=under").public_key(chain["key"].public_key)
             .sign(notca_key, issuer=notca))
    with pytest.raises(x509.NotCAError) as e:
        under.verify_chain(trusted=[root], untrusted=[notca])
    assert e.value.depth == 1
    # path length: the intermediate allows none below it
    sub_key, sub = make_ca("/CN=Py Sub", issuer=chain["inter"], issuer_key=chain["inter_key"])
    deep = (x509.CertificateBuilder().subject_name("/CN=deep").public_key(chain["key"].public_key)
            .sign(sub_key, issuer=sub))
    with pytest.raises(x509.PathLengthError) as e:
        deep.verify_chain(trusted=[root], untrusted=[chain["inter"], sub])
    assert e.value.depth == 2
    # a loop: A by B, B by A
    ka, kb = fastsm2.PrivateKey.generate(), fastsm2.PrivateKey.generate()
    _, b0 = make_ca("/CN=Loop B", key=kb)
    _, a = make_ca("/CN=Loop A", key=ka, issuer=b0, issuer_key=kb)
    _, b = make_ca("/CN=Loop B", key=kb, issuer=a, issuer_key=ka)
    looped = (x509.CertificateBuilder().subject_name("/CN=looped").public_key(chain["key"].public_key)
              .sign(ka, issuer=a))
    with pytest.raises(x509.ChainLoopError):
        looped.verify_chain(trusted=[root], untrusted=[a, b])
    # an unknown critical extension
    crit = (x509.CertificateBuilder().subject_name("/CN=crit")
            .add_extension(x509.UnrecognizedExtension(x509.ObjectIdentifier("1.2.3.4"), b"\x05\x00"), critical=True)
            .sign(root_key))
    with pytest.raises(x509.CriticalExtensionError):
        crit.verify_chain(trusted=[crit])
    # a wrong signature
    der = bytearray(chain["leaf"].to_der())
    der[-3] ^= 1
    bad = x509.Certificate.load(bytes(der))
    with pytest.raises(fastsm2.BadSignatureError):
        bad.verify_chain(trusted=[root], untrusted=[chain["inter"]])


def test_builder_errors(chain):
    key = chain["key"]
    with pytest.raises(x509.BadNameError):
        x509.Name.from_string("CN=no slash")
    with pytest.raises(x509.BadNameError):
        x509.Name.from_string("/C=CHN")  # a country is two letters
    with pytest.raises(ValueError):
        x509.CertificateBuilder().subject_name("/CN=x").serial_number(0)
    with pytest.raises(ValueError):  # basicConstraints is written critical
        x509.CertificateBuilder().add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=False)
    with pytest.raises(ValueError):
        x509.CertificateSigningRequestBuilder().sign(key)  # no subject
    with pytest.raises(ValueError):  # naive datetimes
        (x509.CertificateBuilder().subject_name("/CN=x").not_valid_before(datetime(2025, 1, 1))
         .not_valid_after(datetime(2026, 1, 1)).sign(key))
    with pytest.raises(fastsm2.PointError):  # not the issuer's key
        x509.CertificateBuilder().subject_name("/CN=x").public_key(key.public_key).sign(key, issuer=chain["root"])
    with pytest.raises(ValueError):
        x509.CertificateBuilder().subject_name("/CN=x").issuer_name("/CN=someone else").sign(key)
    with pytest.raises(fastsm2.AlgorithmError):
        x509.CertificateBuilder().subject_name("/CN=x").sign(key, algorithm="sha256")
    with pytest.raises(fastsm2.BadSignatureError):  # the request's signature with another ID
        x509.CertificateBuilder().from_request(chain["csr"], id=b"").sign(chain["root_key"], issuer=chain["root"])
    # a chosen serial and a name with escapes survive the round trip
    cert = (x509.CertificateBuilder().subject_name("/CN=a\\/b+UID=u1").serial_number(0x1234)
            .issuer_name("/CN=a\\/b+UID=u1").sign(key))
    assert cert.serial_number == 0x1234
    assert cert.subject.to_string() == "/CN=a\\/b+UID=u1"
    assert [a.value for a in cert.subject] == ["a/b", "u1"]
    for junk in (b"", b"\x30", b"\x30\x84\x7f\xff\xff\xff", b"-----BEGIN CERTIFICATE-----\nAAAA\n", b"\x00" * 100):
        with pytest.raises(fastsm2.FastSM2Error):
            x509.Certificate.load(junk)


def test_openssl_reads_ours(chain, tmp_path, openssl):
    for name in ("root", "inter", "leaf"):
        (tmp_path / (name + ".pem")).write_bytes(chain[name].to_pem())
    (tmp_path / "leaf.csr").write_bytes(chain["csr"].to_pem())
    run = lambda *a: subprocess.run([openssl, *a], cwd=tmp_path, capture_output=True, text=True)
    r = run("verify", "-vfyopt", "distid:1234567812345678", "-partial_chain", "-CAfile", "inter.pem", "leaf.pem")
    assert r.returncode == 0, r.stderr
    r = run("verify", "-vfyopt", "distid:1234567812345678", "-CAfile", "root.pem", "inter.pem")
    assert r.returncode == 0, r.stderr
    r = run("req", "-in", "leaf.csr", "-verify", "-vfyopt", "distid:1234567812345678", "-noout")
    assert "verify OK" in r.stdout + r.stderr
    r = run("x509", "-in", "leaf.pem", "-noout", "-ext", "subjectAltName,keyUsage")
    assert "DNS:py.example, IP Address:192.0.2.9" in r.stdout and "Digital Signature" in r.stdout


def test_ours_read_openssl(tmp_path, openssl):
    run = lambda *a: subprocess.run([openssl, *a], cwd=tmp_path, capture_output=True, text=True, check=True)
    run("genpkey", "-algorithm", "SM2", "-out", "k.pem")
    run("req", "-new", "-x509", "-key", "k.pem", "-sm3", "-sigopt", "distid:1234567812345678", "-subj",
        "/C=CN/CN=openssl CA", "-days", "3", "-addext", "basicConstraints=critical,CA:TRUE", "-out", "ca.pem")
    ca = x509.load_pem_x509_certificate((tmp_path / "ca.pem").read_bytes())
    assert ca.subject.to_string() == "/C=CN/CN=openssl CA"
    ca.verify_chain(trusted=[ca])
    key = fastsm2.PrivateKey.from_pem((tmp_path / "k.pem").read_bytes())
    leaf = x509.CertificateBuilder().subject_name("/CN=ours").public_key(key.public_key).sign(key, issuer=ca)
    leaf.verify_chain(trusted=[ca])


def test_cli_reads_ours(chain, tmp_path, cli):
    (tmp_path / "root.pem").write_bytes(chain["root"].to_pem())
    (tmp_path / "chain.pem").write_bytes(chain["leaf"].to_pem() + chain["inter"].to_pem())
    r = subprocess.run([cli, "certverify", "--in", "chain.pem", "--ca-file", "root.pem"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0 and "chain.pem: OK" in r.stdout, r.stderr


def test_names_and_pem(chain, tmp_path, openssl):
    # a name read from a certificate is written back byte for byte, whatever
    # its string types (openssl writes C as PrintableString, CN as UTF8String)
    run = lambda *a: subprocess.run([openssl, *a], cwd=tmp_path, capture_output=True, text=True, check=True)
    run("genpkey", "-algorithm", "SM2", "-out", "k.pem")
    run("req", "-new", "-x509", "-key", "k.pem", "-sm3", "-sigopt", "distid:1234567812345678", "-subj",
        "/C=CN/O=O\\/P/CN=n", "-days", "2", "-out", "c.pem")
    theirs = x509.load_pem_x509_certificate((tmp_path / "c.pem").read_bytes())
    key = fastsm2.PrivateKey.from_pem((tmp_path / "k.pem").read_bytes())
    again = x509.CertificateBuilder().subject_name(theirs.subject).sign(key)
    assert again.subject == theirs.subject and again.subject.to_string() == "/C=CN/O=O\\/P/CN=n"
    assert again.issuer == theirs.issuer
    der = chain["leaf"].to_der()
    pem = x509.pem_encode(der)
    assert pem.startswith(b"-----BEGIN CERTIFICATE-----\n") and x509.pem_decode(pem) == der
    with pytest.raises(fastsm2.PEMError):
        x509.pem_decode(pem, "CMS")
