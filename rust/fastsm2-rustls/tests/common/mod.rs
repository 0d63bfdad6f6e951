// SPDX-License-Identifier: Apache-2.0
//! X.509 certificates written by hand in DER for the tests and the
//! benchmark (no certificate generator in the dependency tree).
#![allow(dead_code)]
use fastsm2::signature::Signer;
use fastsm2::spki::EncodePublicKey;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, Connection, ServerConfig, VecInput};
use std::sync::Arc;

pub fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
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

pub fn seq(parts: &[&[u8]]) -> Vec<u8> {
    tlv(0x30, &parts.concat())
}

pub fn name(cn: &str) -> Vec<u8> {
    let atv = seq(&[&[0x06, 0x03, 0x55, 0x04, 0x03], &tlv(0x0c, cn.as_bytes())]);
    seq(&[&tlv(0x31, &atv)])
}

pub const SM2_SM3_ALG: &[u8] = &[0x30, 0x0a, 0x06, 0x08, 0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x83, 0x75];

/// A random certificate serial number: 16 bytes, positive, its first byte
/// never zero (so always 16 bytes of DER, which GmSSL requires to be at
/// least 4 and RFC 5280 at most 20).
pub fn random_serial() -> [u8; 16] {
    let mut s = [0u8; 16];
    getrandom::fill(&mut s).expect("OS random");
    s[0] = (s[0] & 0x7f) | 0x40;
    s
}

/// An X.509 v3 certificate for `subject_key`, signed by `issuer_key`
/// (SM2-with-SM3, default signer ID). `serial`: the serial number's
/// INTEGER content (positive, minimal). `ca` adds basicConstraints cA;
/// `dns` a subjectAltName.
pub fn certificate(
    serial: &[u8],
    subject: &str,
    subject_key: &fastsm2::VerifyingKey,
    issuer: &str,
    issuer_key: &fastsm2::SigningKey,
    ca: bool,
    dns: Option<&str>,
) -> CertificateDer<'static> {
    let spki = subject_key.to_public_key_der().unwrap();
    let sign = |tbs: &[u8]| {
        let sig: fastsm2::DerSignature = issuer_key.sign(tbs);
        sig.as_bytes().to_vec()
    };
    certificate_with(serial, subject, spki.as_bytes(), issuer, SM2_SM3_ALG, &sign, ca, dns)
}

/// An X.509 v3 certificate of any algorithm: the subject's SPKI (DER), the
/// signature AlgorithmIdentifier (DER) and a function that signs the TBS.
#[allow(clippy::too_many_arguments)]
pub fn certificate_with(
    serial: &[u8],
    subject: &str,
    spki: &[u8],
    issuer: &str,
    sig_alg: &[u8],
    sign: &dyn Fn(&[u8]) -> Vec<u8>,
    ca: bool,
    dns: Option<&str>,
) -> CertificateDer<'static> {
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
        &tlv(0x02, serial),
        sig_alg,
        &name(issuer),
        &validity,
        &name(subject),
        spki,
        &tlv(0xa3, &seq(&exts_refs)),
    ]);
    let mut bits = vec![0u8];
    bits.extend_from_slice(&sign(&tbs));
    CertificateDer::from(seq(&[&tbs, sig_alg, &tlv(0x03, &bits)]))
}

/// Feed `bytes` to `conn`; return the plaintext it yields and what it sends back.
pub fn feed<S: rustls::SideData>(conn: &mut Connection<S, rustls::Tcp>, bytes: &[u8]) -> Result<(Vec<u8>, Vec<u8>), rustls::Error> {
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

pub struct Pair {
    pub client: Connection<rustls::ClientSide, rustls::Tcp>,
    pub server: Connection<rustls::ServerSide, rustls::Tcp>,
}

pub fn handshake(cc: &Arc<ClientConfig>, sc: &Arc<ServerConfig>) -> Result<Pair, rustls::Error> {
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

