// SPDX-License-Identifier: Apache-2.0
//! Full TLS 1.3 handshakes between a rustls client and a rustls server,
//! both on fastsm2-rustls (RFC 8998: TLS_SM4_GCM_SM3, curveSM2,
//! sm2sig_sm3), with SM2 certificates made here (DER by hand, signed with
//! fastsm2): data both ways, a client certificate, a resumed session, a
//! server certificate from an untrusted CA refused, a tampered record
//! refused.
use std::sync::Arc;

use fastsm2::signature::Signer;
use fastsm2::spki::EncodePublicKey;
use fastsm2::pkcs8::EncodePrivateKey;
use rustls::crypto::{CipherSuite, Identity};
use rustls::crypto::kx::NamedGroup;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use rustls::server::WebPkiClientVerifier;
use rustls::{ClientConfig, Connection, HandshakeKind, RootCertStore, ServerConfig, VecInput};

fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut v = vec![tag];
    let n = content.len();
    if n < 0x80 {
        v.push(n as u8);
    } else if n < 0x100 {
        v.extend_from_slice(&[0x81, n as u8]);
    } else {
        v.extend_from_slice(&[0x82, (n >> 8) as u8, n as u8]);
    }
    v.extend_from_slice(content);
    v
}

fn seq(parts: &[&[u8]]) -> Vec<u8> {
    tlv(0x30, &parts.concat())
}

fn name(cn: &str) -> Vec<u8> {
    let atv = seq(&[&[0x06, 0x03, 0x55, 0x04, 0x03], &tlv(0x0c, cn.as_bytes())]);
    seq(&[&tlv(0x31, &atv)])
}

const SM2_SM3_ALG: &[u8] = &[0x30, 0x0a, 0x06, 0x08, 0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x83, 0x75];

/// An X.509 v3 certificate for `subject_key`, signed by `issuer_key`
/// (SM2-with-SM3, default signer ID). `ca` adds basicConstraints cA;
/// `dns` a subjectAltName.
fn certificate(
    serial: u8,
    subject: &str,
    subject_key: &fastsm2::VerifyingKey,
    issuer: &str,
    issuer_key: &fastsm2::SigningKey,
    ca: bool,
    dns: Option<&str>,
) -> CertificateDer<'static> {
    let spki = subject_key.to_public_key_der().unwrap();
    let validity = seq(&[&tlv(0x17, b"250101000000Z"), &tlv(0x17, b"491231235959Z")]);
    let mut exts = Vec::new();
    if ca {
        let bc = seq(&[&[0x01, 0x01, 0xff]]);
        exts.push(seq(&[&[0x06, 0x03, 0x55, 0x1d, 0x13], &[0x01, 0x01, 0xff], &tlv(0x04, &bc)]));
    }
    if let Some(d) = dns {
        let san = seq(&[&tlv(0x82, d.as_bytes())]);
        exts.push(seq(&[&[0x06, 0x03, 0x55, 0x1d, 0x11], &tlv(0x04, &san)]));
    }
    let exts_refs: Vec<&[u8]> = exts.iter().map(|e| &e[..]).collect();
    let tbs = seq(&[
        &[0xa0, 0x03, 0x02, 0x01, 0x02],
        &[0x02, 0x01, serial],
        SM2_SM3_ALG,
        &name(issuer),
        &validity,
        &name(subject),
        spki.as_bytes(),
        &tlv(0xa3, &seq(&exts_refs)),
    ]);
    let sig: fastsm2::DerSignature = issuer_key.sign(&tbs);
    let mut bits = vec![0u8];
    bits.extend_from_slice(sig.as_bytes());
    CertificateDer::from(seq(&[&tbs, SM2_SM3_ALG, &tlv(0x03, &bits)]))
}

struct Pki {
    ca: CertificateDer<'static>,
    server_chain: Vec<CertificateDer<'static>>,
    server_key: PrivateKeyDer<'static>,
    client_chain: Vec<CertificateDer<'static>>,
    client_key: PrivateKeyDer<'static>,
}

fn key_der(k: &fastsm2::SigningKey) -> PrivateKeyDer<'static> {
    PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(k.to_pkcs8_der().unwrap().as_bytes().to_vec()))
}

fn pki(tag: &str) -> Pki {
    let ca_key = fastsm2::SigningKey::generate().unwrap();
    let ca_name = format!("fastsm2 test CA {tag}");
    let ca = certificate(1, &ca_name, ca_key.verifying_key(), &ca_name, &ca_key, true, None);
    let sk = fastsm2::SigningKey::generate().unwrap();
    let server = certificate(2, "localhost", sk.verifying_key(), &ca_name, &ca_key, false, Some("localhost"));
    let ck = fastsm2::SigningKey::generate().unwrap();
    let client = certificate(3, "client", ck.verifying_key(), &ca_name, &ca_key, false, None);
    Pki { ca, server_chain: vec![server], server_key: key_der(&sk), client_chain: vec![client], client_key: key_der(&ck) }
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(fastsm2_rustls::provider())
}

fn roots(ca: &CertificateDer<'static>) -> Arc<RootCertStore> {
    let mut r = RootCertStore::empty();
    r.add(ca.clone()).unwrap();
    Arc::new(r)
}

fn server_config(p: &Pki, client_auth: bool) -> Arc<ServerConfig> {
    let b = ServerConfig::builder(provider());
    let b = if client_auth {
        let v = WebPkiClientVerifier::builder(roots(&p.ca), &provider()).build().unwrap();
        b.with_client_cert_verifier(Arc::new(v))
    } else {
        b.with_no_client_auth()
    };
    Arc::new(
        b.with_single_cert(Arc::new(Identity::from_cert_chain(p.server_chain.clone()).unwrap()), p.server_key.clone_key())
            .unwrap(),
    )
}

fn client_config(p: &Pki, trust: &CertificateDer<'static>, client_auth: bool) -> Arc<ClientConfig> {
    let b = ClientConfig::builder(provider()).with_root_certificates(roots(trust));
    Arc::new(if client_auth {
        b.with_client_auth_cert(Arc::new(Identity::from_cert_chain(p.client_chain.clone()).unwrap()), p.client_key.clone_key())
            .unwrap()
    } else {
        b.with_no_client_auth().unwrap()
    })
}

/// Feed `bytes` to `conn`; return the plaintext it yields and what it sends back.
fn feed<S: rustls::SideData>(conn: &mut Connection<S, rustls::Tcp>, bytes: &[u8]) -> Result<(Vec<u8>, Vec<u8>), rustls::Error> {
    let mut input = VecInput::default();
    let mut rd = bytes;
    while !rd.is_empty() {
        input.read(&mut rd).unwrap();
    }
    let mut out = Vec::new();
    let mut plain = Vec::new();
    conn.read_tls(&mut input, &mut out).handle_all(&mut plain)?;
    Ok((plain, out))
}

struct Pair {
    client: Connection<rustls::ClientSide, rustls::Tcp>,
    server: Connection<rustls::ServerSide, rustls::Tcp>,
}

fn handshake(cc: &Arc<ClientConfig>, sc: &Arc<ServerConfig>) -> Result<Pair, rustls::Error> {
    let mut c2s = Vec::new();
    let mut client = cc.connect(ServerName::try_from("localhost").unwrap()).build(&mut c2s)?;
    let mut server = Connection::<rustls::ServerSide, rustls::Tcp>::new(sc.clone())?;
    for _ in 0..10 {
        let (_, s2c) = feed(&mut server, &c2s)?;
        let (_, next) = feed(&mut client, &s2c)?;
        c2s = next;
        if !client.is_handshaking() && !server.is_handshaking() && c2s.is_empty() {
            return Ok(Pair { client, server });
        }
    }
    if !c2s.is_empty() {
        feed(&mut server, &c2s)?;
    }
    if client.is_handshaking() || server.is_handshaking() {
        panic!("handshake did not finish");
    }
    Ok(Pair { client, server })
}

fn send<A: rustls::SideData, B: rustls::SideData>(
    from: &mut Connection<A, rustls::Tcp>,
    to: &mut Connection<B, rustls::Tcp>,
    data: &[u8],
) -> Vec<u8> {
    let mut tls = Vec::new();
    from.write(data.into(), &mut tls).unwrap();
    feed(to, &tls).unwrap().0
}

#[test]
fn handshake_data_client_auth_and_resumption() {
    let p = pki("a");
    let sc = server_config(&p, true);
    let cc = client_config(&p, &p.ca, true);
    let mut pair = handshake(&cc, &sc).unwrap();
    for c in [&*pair.client as &rustls::CommonState, &*pair.server] {
        assert_eq!(c.negotiated_cipher_suite().unwrap().suite(), CipherSuite::TLS13_SM4_GCM_SM3);
        assert_eq!(c.negotiated_key_exchange_group().unwrap().name(), NamedGroup::curveSM2);
        assert_eq!(c.handshake_kind(), Some(HandshakeKind::Full));
    }
    assert!(pair.server.peer_identity().is_some(), "the server saw the client's certificate");
    let big: Vec<u8> = (0..40000u32).map(|i| i as u8).collect();
    assert_eq!(send(&mut pair.client, &mut pair.server, b"hello from the client"), b"hello from the client");
    assert_eq!(send(&mut pair.server, &mut pair.client, &big), big);
    assert_eq!(send(&mut pair.client, &mut pair.server, &big), big);
    // The tickets reach the client with the server's first flight after
    // the handshake; the second connection resumes.
    let mut pair2 = handshake(&cc, &sc).unwrap();
    assert_eq!(pair2.client.handshake_kind(), Some(HandshakeKind::Resumed));
    assert_eq!(send(&mut pair2.server, &mut pair2.client, b"again"), b"again");
}

#[test]
fn untrusted_server_certificate_refused() {
    let p = pki("b");
    let other = pki("c");
    let sc = server_config(&p, false);
    let cc = client_config(&p, &other.ca, false);
    let err = handshake(&cc, &sc).err().expect("refused");
    assert!(matches!(err, rustls::Error::InvalidCertificate(_)), "{err:?}");
    // And the right CA works with the same server.
    let ok = client_config(&p, &p.ca, false);
    handshake(&ok, &sc).unwrap();
}

#[test]
fn tampered_record_refused() {
    let p = pki("d");
    let sc = server_config(&p, false);
    let cc = client_config(&p, &p.ca, false);
    let mut pair = handshake(&cc, &sc).unwrap();
    let mut tls = Vec::new();
    pair.client.write(b"authentic data"[..].into(), &mut tls).unwrap();
    let last = tls.len() - 3;
    tls[last] ^= 0x40;
    let err = feed(&mut pair.server, &tls).err().expect("tampered record refused");
    assert_eq!(err, rustls::Error::DecryptError);
}
