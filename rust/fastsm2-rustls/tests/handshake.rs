// SPDX-License-Identifier: Apache-2.0
//! Full TLS 1.3 handshakes between a rustls client and a rustls server,
//! both on fastsm2-rustls (RFC 8998: TLS_SM4_GCM_SM3, curveSM2,
//! sm2sig_sm3; TLS_SM4_CCM_SM3 too), with SM2 certificates made here (DER by hand, signed with
//! fastsm2): data both ways, a client certificate, a resumed session, a
//! server certificate from an untrusted CA refused, a tampered record
//! refused.
use std::sync::Arc;

use fastsm2::pkcs8::EncodePrivateKey;
use rustls::crypto::{CipherSuite, Identity};
use rustls::crypto::kx::NamedGroup;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use rustls::server::WebPkiClientVerifier;
use rustls::{ClientConfig, Connection, HandshakeKind, RootCertStore, ServerConfig, VecInput};

mod common;
use common::*;

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
    let ca = certificate(&[1], &ca_name, ca_key.verifying_key(), &ca_name, &ca_key, true, None);
    let sk = fastsm2::SigningKey::generate().unwrap();
    let server = certificate(&[2], "localhost", sk.verifying_key(), &ca_name, &ca_key, false, Some("localhost"));
    let ck = fastsm2::SigningKey::generate().unwrap();
    let client = certificate(&[3], "client", ck.verifying_key(), &ca_name, &ca_key, false, None);
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
    let sc = server_config(&p, false);
    // A CA of another name: no issuer found.
    let other = pki("c");
    let cc = client_config(&p, &other.ca, false);
    let err = handshake(&cc, &sc).err().expect("refused");
    assert!(matches!(err, rustls::Error::InvalidCertificate(_)), "{err:?}");
    // A CA of the same name with another key: the SM2 signature on the
    // server's certificate does not verify under it.
    let forged = pki("b");
    let cc = client_config(&p, &forged.ca, false);
    let err = handshake(&cc, &sc).err().expect("refused");
    assert_eq!(err, rustls::Error::InvalidCertificate(rustls::error::CertificateError::BadSignature), "{err:?}");
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

/// Read from `sock` and process until `done(conn, plaintext so far)` holds;
/// everything the connection emits goes back to the socket.
fn pump<S: rustls::SideData>(
    conn: &mut Connection<S, rustls::Tcp>,
    sock: &mut std::net::TcpStream,
    input: &mut VecInput,
    plain: &mut Vec<u8>,
    done: &dyn Fn(&Connection<S, rustls::Tcp>, &[u8]) -> bool,
) -> Result<(), rustls::Error> {
    use std::io::Write;
    while !done(conn, plain) {
        let n = input.read(sock).expect("socket read");
        assert!(n > 0, "peer closed early");
        let mut out = Vec::new();
        let r = conn.read_tls(input, &mut out).handle_all(plain);
        sock.write_all(&out).unwrap();
        r?;
    }
    Ok(())
}

#[test]
fn over_tcp_localhost_both_ways_and_resumed() {
    use std::io::Write;
    let p = pki("tcp");
    let sc = server_config(&p, true);
    let cc = client_config(&p, &p.ca, true);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = std::thread::spawn(move || {
        let mut kinds = Vec::new();
        for _ in 0..2 {
            let (mut sock, _) = listener.accept().unwrap();
            let mut conn = Connection::<rustls::ServerSide, rustls::Tcp>::new(sc.clone()).unwrap();
            let mut input = VecInput::default();
            let mut plain = Vec::new();
            // Until the client's request (5000 bytes) has arrived in full.
            pump(&mut conn, &mut sock, &mut input, &mut plain, &|c, d| !c.is_handshaking() && d.len() >= 5000)
                .unwrap();
            assert!(conn.peer_identity().is_some());
            kinds.push(conn.handshake_kind());
            let reply: Vec<u8> = plain.iter().map(|b| b.wrapping_add(1)).collect();
            let mut tls = Vec::new();
            conn.write(reply[..].into(), &mut tls).unwrap();
            sock.write_all(&tls).unwrap();
        }
        kinds
    });
    let request: Vec<u8> = (0..5000u32).map(|i| (i * 3) as u8).collect();
    let mut client_kinds = Vec::new();
    for _ in 0..2 {
        let mut sock = std::net::TcpStream::connect(addr).unwrap();
        let mut tls = Vec::new();
        let mut conn = cc.connect(ServerName::try_from("localhost").unwrap()).build(&mut tls).unwrap();
        sock.write_all(&tls).unwrap();
        let mut input = VecInput::default();
        let mut plain = Vec::new();
        pump(&mut conn, &mut sock, &mut input, &mut plain, &|c, _| !c.is_handshaking()).unwrap();
        assert_eq!(conn.negotiated_cipher_suite().unwrap().suite(), CipherSuite::TLS13_SM4_GCM_SM3);
        client_kinds.push(conn.handshake_kind());
        let mut tls = Vec::new();
        conn.write(request[..].into(), &mut tls).unwrap();
        sock.write_all(&tls).unwrap();
        pump(&mut conn, &mut sock, &mut input, &mut plain, &|_, d| d.len() >= 5000).unwrap();
        let want: Vec<u8> = request.iter().map(|b| b.wrapping_add(1)).collect();
        assert_eq!(plain, want);
    }
    let server_kinds = server.join().unwrap();
    assert_eq!(client_kinds, [Some(HandshakeKind::Full), Some(HandshakeKind::Resumed)]);
    assert_eq!(server_kinds, client_kinds);
}

/// A client that offers only TLS_SM4_CCM_SM3 gets it from a server with
/// both suites; data both ways; a tampered record is refused.
#[test]
fn sm4_ccm_suite() {
    let p = pki("ccm");
    let sc = server_config(&p, false);
    let ccm_only = Arc::new(rustls::crypto::CryptoProvider {
        tls13_cipher_suites: std::borrow::Cow::Borrowed(&[fastsm2_rustls::TLS13_SM4_CCM_SM3]),
        ..fastsm2_rustls::provider()
    });
    let cc = Arc::new(
        ClientConfig::builder(ccm_only).with_root_certificates(roots(&p.ca)).with_no_client_auth().unwrap(),
    );
    let mut pair = handshake(&cc, &sc).unwrap();
    for c in [&*pair.client as &rustls::CommonState, &*pair.server] {
        assert_eq!(c.negotiated_cipher_suite().unwrap().suite(), CipherSuite::TLS13_SM4_CCM_SM3);
    }
    let big: Vec<u8> = (0..40000u32).map(|i| (i * 13) as u8).collect();
    assert_eq!(send(&mut pair.client, &mut pair.server, &big), big);
    assert_eq!(send(&mut pair.server, &mut pair.client, b"ccm back"), b"ccm back");
    let mut tls = Vec::new();
    pair.client.write(b"authentic data"[..].into(), &mut tls).unwrap();
    let last = tls.len() - 1;
    tls[last] ^= 0x01;
    assert_eq!(feed(&mut pair.server, &tls).err(), Some(rustls::Error::DecryptError));
}
