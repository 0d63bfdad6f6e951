// SPDX-License-Identifier: Apache-2.0
//! `make bench-rust`: fastsm2 beside its peers, in one process run, each
//! pair measured in alternating rounds so that load from other processes
//! falls on both sides alike; the ratios are the figures.
//!
//! - SM2 sign / verify: fastsm2 vs RustCrypto `sm2` (default signer ID, a
//!   32-byte message); verify with a fresh key each time and with a key
//!   whose tables are precomputed.
//! - Full TLS 1.3 handshakes per second, in memory, no client certificate,
//!   no resumption: fastsm2-rustls (SM2 certificate chain of two, curveSM2,
//!   TLS_SM4_GCM_SM3) vs rustls-ring (ECDSA P-256 chain of two, X25519,
//!   TLS_AES_128_GCM_SHA256).
//! - TLS 1.3 bulk data, in memory, one thread: 1 MiB of application data
//!   a round written by the client in 16 KiB records (the largest) and
//!   read by the server: fastsm2-rustls TLS_SM4_GCM_SM3 vs rustls-ring
//!   TLS_AES_128_GCM_SHA256.
//! - AEAD throughput on 16 KiB: fastsm2's SM4-GCM (what the provider uses)
//!   vs RustCrypto's (`sm4` + `aes-gcm`), and vs AES-128-GCM from ring.
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use aes_gcm::aead::{AeadInOut, KeyInit};
use rustls::{ClientSide, Connection, ServerSide, Tcp};
use fastsm2::pkcs8::EncodePrivateKey;
use fastsm2::signature::{Signer, Verifier};
use rustls::crypto::{CryptoProvider, Identity};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::{ClientConfig, RootCertStore, ServerConfig};

#[path = "../tests/common/mod.rs"]
mod common;
use common::*;

const ROUNDS: usize = 5;

/// Operations per second of `f` over about `secs` seconds.
fn rate(secs: f64, f: &mut dyn FnMut()) -> f64 {
    let t0 = Instant::now();
    let mut n = 0u64;
    loop {
        for _ in 0..8 {
            f();
        }
        n += 8;
        let dt = t0.elapsed().as_secs_f64();
        if dt >= secs {
            return n as f64 / dt;
        }
    }
}

/// The median over ROUNDS alternating rounds of each closure's rate.
fn side_by_side(secs: f64, fs: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    let mut all = vec![Vec::new(); fs.len()];
    for _ in 0..ROUNDS {
        for (i, f) in fs.iter_mut().enumerate() {
            all[i].push(rate(secs, *f));
        }
    }
    all.into_iter()
        .map(|mut v| {
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
            v[v.len() / 2]
        })
        .collect()
}

fn row(what: &str, ours: f64, peer_name: &str, peer: f64, unit: &str) {
    println!("| {what} | {ours:.0} {unit} | {peer_name} {peer:.0} {unit} | {:.2}x |", ours / peer);
}

fn sm2_configs() -> (Arc<ClientConfig>, Arc<ServerConfig>) {
    let provider = Arc::new(fastsm2_rustls::provider());
    let ca_key = fastsm2::SigningKey::generate().unwrap();
    let ca = certificate(&[1], "bench CA", ca_key.verifying_key(), "bench CA", &ca_key, true, None);
    let k = fastsm2::SigningKey::generate().unwrap();
    let leaf = certificate(&[2], "localhost", k.verifying_key(), "bench CA", &ca_key, false, Some("localhost"));
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(k.to_pkcs8_der().unwrap().as_bytes().to_vec()));
    configs(provider, ca, leaf, key)
}

const ECDSA_SHA256_ALG: &[u8] = &[0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02];

fn p256_spki(point: &[u8]) -> Vec<u8> {
    let alg = seq(&[
        &[0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01],
        &[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07],
    ]);
    let mut bits = vec![0u8];
    bits.extend_from_slice(point);
    seq(&[&alg, &tlv(0x03, &bits)])
}

fn p256_configs() -> (Arc<ClientConfig>, Arc<ServerConfig>) {
    use ring::signature::{EcdsaKeyPair, KeyPair, ECDSA_P256_SHA256_ASN1_SIGNING as ALG};
    let rng = ring::rand::SystemRandom::new();
    let ca_pk8 = EcdsaKeyPair::generate_pkcs8(&ALG, &rng).unwrap();
    let ca_kp = EcdsaKeyPair::from_pkcs8(&ALG, ca_pk8.as_ref(), &rng).unwrap();
    let sign = |tbs: &[u8]| ca_kp.sign(&rng, tbs).unwrap().as_ref().to_vec();
    let ca_spki = p256_spki(ca_kp.public_key().as_ref());
    let ca = certificate_with(&[1], "bench CA", &ca_spki, "bench CA", ECDSA_SHA256_ALG, &sign, true, None);
    let pk8 = EcdsaKeyPair::generate_pkcs8(&ALG, &rng).unwrap();
    let kp = EcdsaKeyPair::from_pkcs8(&ALG, pk8.as_ref(), &rng).unwrap();
    let spki = p256_spki(kp.public_key().as_ref());
    let leaf = certificate_with(&[2], "localhost", &spki, "bench CA", ECDSA_SHA256_ALG, &sign, false, Some("localhost"));
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(pk8.as_ref().to_vec()));
    let provider = Arc::new(CryptoProvider {
        tls12_cipher_suites: Default::default(),
        tls13_cipher_suites: vec![rustls_ring::cipher_suite::TLS13_AES_128_GCM_SHA256].into(),
        kx_groups: vec![rustls_ring::kx_group::X25519].into(),
        ..rustls_ring::DEFAULT_PROVIDER
    });
    configs(provider, ca, leaf, key)
}

fn configs(
    provider: Arc<CryptoProvider>,
    ca: CertificateDer<'static>,
    leaf: CertificateDer<'static>,
    key: PrivateKeyDer<'static>,
) -> (Arc<ClientConfig>, Arc<ServerConfig>) {
    let mut roots = RootCertStore::empty();
    roots.add(ca.clone()).unwrap();
    let mut cc = ClientConfig::builder(provider.clone()).with_root_certificates(roots).with_no_client_auth().unwrap();
    cc.resumption = rustls::client::Resumption::disabled();
    let sc = ServerConfig::builder(provider)
        .with_no_client_auth()
        .with_single_cert(Arc::new(Identity::from_cert_chain(vec![leaf, ca]).unwrap()), key)
        .unwrap();
    (Arc::new(cc), Arc::new(sc))
}

fn main() {
    // `cargo bench` passes --bench; a filter argument is ignored.
    let secs = std::env::var("BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(0.4);
    println!("fastsm2 {} (backend {}), {} alternating rounds of {secs} s per figure, medians", fastsm2::version(), fastsm2::backend_name(), ROUNDS);
    println!();
    println!("| operation | fastsm2 | peer | ratio |");
    println!("|---|---|---|---|");

    // SM2 signatures.
    let msg = [0x42u8; 32];
    let ours = fastsm2::SigningKey::generate().unwrap();
    let theirs = ours.to_sm2("1234567812345678").unwrap();
    let s = side_by_side(secs, &mut [
        &mut || {
            let sig: fastsm2::Signature = ours.sign(black_box(&msg));
            black_box(sig);
        },
        &mut || {
            let sig: sm2::dsa::Signature = theirs.sign(black_box(&msg));
            black_box(sig);
        },
    ]);
    row("SM2 sign", s[0], "sm2 0.14", s[1], "/s");
    let sig: fastsm2::Signature = ours.sign(&msg);
    let their_sig = sm2::dsa::Signature::try_from(&sig).unwrap();
    let pub_bytes = ours.verifying_key().to_sec1_bytes(false);
    let mut pre = ours.verifying_key().clone();
    pre.precompute();
    let their_vk = theirs.verifying_key().clone();
    let v = side_by_side(secs, &mut [
        &mut || {
            // A key met once (a certificate): parse, then verify.
            let k = fastsm2::VerifyingKey::from_sec1_bytes(black_box(&pub_bytes)).unwrap();
            k.verify(black_box(&msg), &sig).unwrap();
        },
        &mut || {
            let k = sm2::dsa::VerifyingKey::from_sec1_bytes("1234567812345678", black_box(&pub_bytes)).unwrap();
            k.verify(black_box(&msg), &their_sig).unwrap();
        },
        &mut || pre.verify(black_box(&msg), &sig).unwrap(),
        &mut || their_vk.verify(black_box(&msg), &their_sig).unwrap(),
    ]);
    row("SM2 verify, key parsed each time", v[0], "sm2 0.14", v[1], "/s");
    row("SM2 verify, one key (fastsm2 tables precomputed)", v[2], "sm2 0.14", v[3], "/s");

    // Handshakes.
    let (smc, sms) = sm2_configs();
    let (pc, ps) = p256_configs();
    let h = side_by_side(secs * 2.0, &mut [
        &mut || {
            black_box(handshake(&smc, &sms).unwrap());
        },
        &mut || {
            black_box(handshake(&pc, &ps).unwrap());
        },
    ]);
    row(
        "TLS 1.3 full handshakes (client+server, one thread): fastsm2-rustls SM2/curveSM2/SM4-GCM-SM3",
        h[0],
        "rustls-ring ECDSA P-256/X25519/AES-128-GCM",
        h[1],
        "/s",
    );

    // TLS bulk data.
    let bulk = vec![0x5au8; 1 << 20];
    let mut sm_pair = handshake(&smc, &sms).unwrap();
    let mut p_pair = handshake(&pc, &ps).unwrap();
    assert_eq!(sm_pair.client.negotiated_cipher_suite().unwrap().suite(), rustls::crypto::CipherSuite::TLS13_SM4_GCM_SM3);
    let (mut tls1, mut tls2) = (Vec::new(), Vec::new());
    let b = side_by_side(secs * 2.0, &mut [
        &mut || transfer(&mut sm_pair.client, &mut sm_pair.server, &bulk, &mut tls1),
        &mut || transfer(&mut p_pair.client, &mut p_pair.server, &bulk, &mut tls2),
    ]);
    let mib = bulk.len() as f64 / 1e6;
    row(
        "TLS 1.3 bulk data, 16 KiB records (client writes, server reads, one thread): fastsm2-rustls TLS_SM4_GCM_SM3",
        b[0] * mib,
        "rustls-ring TLS_AES_128_GCM_SHA256",
        b[1] * mib,
        "MB/s",
    );

    // AEAD throughput.
    type TheirSm4Gcm = aes_gcm::AesGcm<sm4::Sm4, aes_gcm::aead::consts::U12>;
    let key = [7u8; 16];
    let nonce = [1u8; 12];
    let ours = fastsm2::Sm4Gcm::new_from_slice(&key).unwrap();
    let theirs = TheirSm4Gcm::new_from_slice(&key).unwrap();
    let ring_key = ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(&ring::aead::AES_128_GCM, &key).unwrap());
    let mut buf = vec![0u8; 16384];
    let mut buf2 = vec![0u8; 16384];
    let mut buf3 = vec![0u8; 16384];
    let mb = 16384.0 / 1e6;
    let a = side_by_side(secs, &mut [
        &mut || {
            black_box(ours.encrypt_inout_detached(&nonce.into(), b"", buf[..].as_mut().into()).unwrap());
        },
        &mut || {
            black_box(theirs.encrypt_inout_detached(&nonce.into(), b"", buf2[..].as_mut().into()).unwrap());
        },
        &mut || {
            let n = ring::aead::Nonce::assume_unique_for_key(nonce);
            let tag = ring_key.seal_in_place_separate_tag(n, ring::aead::Aad::empty(), &mut buf3).unwrap();
            black_box(&tag);
        },
    ]);
    let sm4 = format!("SM4-GCM, fastsm2 (SM4 backend {}), 16 KiB", fastsm2::sm4::backend_name());
    row(&sm4, a[0] * mb, "SM4-GCM sm4 0.6 + aes-gcm 0.11", a[1] * mb, "MB/s");
    row(&sm4, a[0] * mb, "AES-128-GCM ring 0.17", a[2] * mb, "MB/s");
}

/// The client sends `data` as application data (16 KiB records); the
/// server reads it back as from a socket: its input buffer filled up to
/// rustls's 64 KB limit, then processed, until all is read. The length
/// is checked.
fn transfer(client: &mut Connection<ClientSide, Tcp>, server: &mut Connection<ServerSide, Tcp>, data: &[u8], tls: &mut Vec<u8>) {
    tls.clear();
    client.write(data.into(), tls).unwrap();
    let mut rd = &tls[..];
    let mut input = rustls::VecInput::default();
    let (mut plain, mut out) = (Vec::with_capacity(1 << 16), Vec::new());
    let mut got = 0;
    while !rd.is_empty() {
        while !rd.is_empty() && input.read(&mut rd).is_ok() {}
        plain.clear();
        server.read_tls(&mut input, &mut out).handle_all(&mut plain).unwrap();
        got += plain.len();
        black_box(&plain);
    }
    assert_eq!(got, data.len());
}
