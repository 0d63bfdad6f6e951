# SPDX-License-Identifier: Apache-2.0
"""fastsm2.cms: signed data made and verified (attached, detached, GM/T 0010,
PEM), each defect refused with its reason, and openssl's and the CLI's view."""
import subprocess
from datetime import timedelta

import pytest

import fastsm2
from fastsm2 import cms, x509


@pytest.fixture(scope="module")
def pki():
    ca_key = fastsm2.PrivateKey.generate()
    ca = (x509.CertificateBuilder().subject_name("/CN=CMS py CA")
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True).sign(ca_key))
    key = fastsm2.PrivateKey.generate()
    cert = (x509.CertificateBuilder().subject_name("/CN=CMS py signer").public_key(key.public_key)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=True), critical=True)
            .sign(ca_key, issuer=ca))
    return dict(ca=ca, ca_key=ca_key, key=key, cert=cert)


@pytest.mark.parametrize("detached", [False, True])
@pytest.mark.parametrize("gm", [False, True])
@pytest.mark.parametrize("pem", [False, True])
def test_sign_verify(pki, detached, gm, pem):
    data = b"fastsm2 python CMS " * 50
    m = cms.sign(data, pki["key"], pki["cert"], detached=detached, gm=gm, pem=pem)
    assert m.startswith(b"-----BEGIN CMS-----") == pem
    got = cms.verify(m, content=data if detached else None, trusted=[pki["ca"]])
    assert got == data
    i = cms.info(m)
    assert (i.type, i.gm, i.detached, i.signers, i.certificates) == ("signed", gm, detached, 1, 1)
    assert i.signing_time is not None
    assert cms.signer_certificate(m) == pki["cert"]
    with pytest.raises(fastsm2.BadSignatureError):
        cms.verify(m, content=data if detached else None, trusted=[pki["ca"]], id=b"")
    if detached:
        with pytest.raises(fastsm2.DigestError):
            cms.verify(m, content=data + b"!", trusted=[pki["ca"]])
        with pytest.raises(fastsm2.ArgumentError):
            cms.verify(m, trusted=[pki["ca"]])


def test_chain_and_options(pki):
    data = b"x" * 1000
    m = cms.sign(data, pki["key"], pki["cert"], include_certificate=False)
    with pytest.raises(fastsm2.IssuerError):
        cms.verify(m, trusted=[pki["ca"]])
    assert cms.verify(m, certificates=[pki["cert"]], trusted=[pki["ca"]]) == data
    other_ca_key = fastsm2.PrivateKey.generate()
    other_ca = x509.CertificateBuilder().subject_name("/CN=other").sign(other_ca_key)
    with pytest.raises(x509.IssuerError):
        cms.verify(m, certificates=[pki["cert"]], trusted=[other_ca])
    assert cms.verify(m, certificates=[pki["cert"]], check_chain=False) == data
    with pytest.raises(ValueError):
        cms.verify(m, certificates=[pki["cert"]])  # neither trusted nor check_chain=False
    with pytest.raises(x509.ExpiredError):
        cms.verify(m, certificates=[pki["cert"]], trusted=[pki["ca"]],
                   at=pki["cert"].not_valid_after_utc + timedelta(days=1))
    na = cms.sign(data, pki["key"], pki["cert"], attributes=False)
    assert cms.verify(na, trusted=[pki["ca"]]) == data and cms.info(na).signing_time is None
    with pytest.raises(fastsm2.PointError):
        cms.sign(data, pki["ca_key"], pki["cert"])  # not the certificate's key
    # every truncation refused with a named error
    m = cms.sign(b"abc", pki["key"], pki["cert"])
    for n in range(0, len(m), 7):
        with pytest.raises(fastsm2.FastSM2Error):
            cms.verify(m[:n], check_chain=False)


def test_openssl_reads_ours(pki, tmp_path, openssl):
    m = cms.sign(b"hello openssl", pki["key"], pki["cert"])
    (tmp_path / "m.cms").write_bytes(m)
    r = subprocess.run([openssl, "cms", "-cmsout", "-print", "-inform", "DER", "-in", "m.cms"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0 and "pkcs7-signedData" in r.stdout, r.stderr


def test_cli_verifies_ours(pki, tmp_path, cli):
    m = cms.sign(b"hello cli", pki["key"], pki["cert"], detached=True, gm=True)
    (tmp_path / "m.cms").write_bytes(m)
    (tmp_path / "c.txt").write_bytes(b"hello cli")
    (tmp_path / "ca.pem").write_bytes(pki["ca"].to_pem())
    r = subprocess.run([cli, "cmsverify", "--in", "m.cms", "--content", "c.txt", "--ca-file", "ca.pem"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_stream_and_digest(pki, tmp_path):
    data = bytes(range(256)) * 5000  # 1.25 MB
    src = tmp_path / "big.bin"
    src.write_bytes(data)
    for detached in (False, True):
        out = tmp_path / ("big%d.cms" % detached)
        with open(src, "rb") as f, open(out, "wb") as g:
            n = cms.sign_stream(f, g, pki["key"], pki["cert"], detached=detached, chunk=65536)
        m = out.read_bytes()
        assert n == len(m)
        assert cms.verify(m, content=data if detached else None, trusted=[pki["ca"]]) == data
        if detached:
            cms.verify_digest(m, fastsm2.sm3_digest(data))
            with pytest.raises(fastsm2.DigestError):
                cms.verify_digest(m, fastsm2.sm3_digest(data + b"x"))
        else:
            with pytest.raises(fastsm2.ArgumentError):  # the content is inside: verify() it
                cms.verify_digest(m, fastsm2.sm3_digest(data))


@pytest.mark.parametrize("cipher", ["sm4-gcm", "sm4-cbc"])
def test_seal_open_stream(pki, cipher, tmp_path):
    data = bytes(range(256)) * 700 + b"tail"  # 179 KB, in 64 KiB pieces
    src = tmp_path / "big.bin"
    src.write_bytes(data)
    sealed = tmp_path / "big.cms"
    with open(src, "rb") as f, open(sealed, "wb") as g:
        n = cms.seal_stream(f, g, len(data), [pki["cert"], pki["ca"]], cipher=cipher, chunk=65536)
    m = sealed.read_bytes()
    assert n == len(m)
    assert cms.info(m).type == ("auth-enveloped" if cipher == "sm4-gcm" else "enveloped")
    assert cms.open(m, pki["ca_key"]) == data  # the in-memory call opens it
    out = tmp_path / "big.out"
    for which in (m, cms.seal(data, [pki["cert"]], cipher=cipher)):  # and the stream opens both
        sealed.write_bytes(which)
        with open(sealed, "rb") as f, open(out, "wb") as g:
            assert cms.open_stream(f, g, pki["key"], cert=pki["cert"], chunk=65536) == len(data)
        assert out.read_bytes() == data
    # refusals: another key; a tampered message (the last tag byte, or CBC's last padding byte through the block
    # before it); PEM; a src shorter than announced
    other = fastsm2.PrivateKey.generate()
    with open(sealed, "rb") as f, open(out, "wb") as g, pytest.raises(fastsm2.RecipientError):
        cms.open_stream(f, g, other)
    bad = bytearray(m)
    bad[-1 if cipher == "sm4-gcm" else -17] ^= 1
    sealed.write_bytes(bytes(bad))
    with open(sealed, "rb") as f, open(out, "wb") as g:
        with pytest.raises(fastsm2.TagError if cipher == "sm4-gcm" else fastsm2.PaddingError):
            cms.open_stream(f, g, pki["key"])
    sealed.write_bytes(cms.seal(b"x", [pki["cert"]], cipher=cipher, pem=True))
    with open(sealed, "rb") as f, open(out, "wb") as g, pytest.raises(fastsm2.UnsupportedError):
        cms.open_stream(f, g, pki["key"])
    with open(src, "rb") as f, open(sealed, "wb") as g, pytest.raises(fastsm2.LengthError):
        cms.seal_stream(f, g, len(data) + 1, [pki["cert"]], cipher=cipher)


@pytest.mark.parametrize("cipher", ["sm4-gcm", "sm4-cbc"])
def test_seal_open(pki, cipher):
    data = b"fastsm2 python enveloped " * 20
    other = fastsm2.PrivateKey.generate()
    m = cms.seal(data, [pki["cert"], pki["ca"]], cipher=cipher)
    assert cms.info(m).type == ("auth-enveloped" if cipher == "sm4-gcm" else "enveloped")
    assert cms.open(m, pki["key"]) == data
    assert cms.open(m, pki["key"], cert=pki["cert"]) == data
    assert cms.open(m, pki["ca_key"]) == data
    with pytest.raises(fastsm2.RecipientError):
        cms.open(m, other)
    with pytest.raises(fastsm2.PointError):
        cms.open(m, pki["key"], cert=pki["ca"])
    if cipher == "sm4-gcm":
        with pytest.raises(fastsm2.TagError):
            cms.open(m[:-1] + bytes([m[-1] ^ 1]), pki["key"])
    for n in range(0, len(m), 11):
        with pytest.raises(fastsm2.FastSM2Error):
            cms.open(m[:n], pki["key"])
    pem = cms.seal(data, [pki["cert"]], cipher="sm4-cbc", gm=True, pem=True)
    assert pem.startswith(b"-----BEGIN CMS-----") and cms.info(pem).gm
    assert cms.open(pem, pki["key"]) == data
    # recipients by subjectKeyIdentifier: rid [0] of 20 bytes, found by certificate
    k = cms.seal(data, [pki["cert"], pki["ca"]], cipher=cipher, keyid=True)
    assert b"\x02\x01\x02\x80\x14" in k and b"\x02\x01\x02\x80\x14" not in m
    assert cms.open(k, pki["key"], cert=pki["cert"]) == data
    assert cms.open(k, pki["ca_key"], cert=pki["ca"]) == data
