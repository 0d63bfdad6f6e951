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
//!   read by the server: fastsm2-rustls TLS_SM4_GCM_SM3 and
//!   TLS_SM4_CCM_SM3 vs rustls-ring TLS_AES_128_GCM_SHA256, and vs the same
//!   provider with its records through RustCrypto's `sm4` crate (+ `aes-gcm`
//!   or `ccm`), as fastsm2-rustls had them before 0.3 (`CrateAead` below).
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
use rustls::crypto::cipher::{
    make_tls13_aad, AeadKey, EncryptBuffer, InboundOpaque, Iv, Nonce, OutboundPlain, Record, RecordDecrypter,
    RecordEncrypter, Tls13AeadAlgorithm, UnsupportedOperationError,
};
use rustls::crypto::{CipherSuite, CipherSuiteCommon};
use rustls::enums::ContentType;
use rustls::{ClientConfig, ConnectionTrafficSecrets, RootCertStore, ServerConfig, Tls13CipherSuite};

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
    sm2_configs_with(fastsm2_rustls::provider())
}

/// The provider with one TLS 1.3 suite only.
fn one_suite(suite: &'static Tls13CipherSuite) -> CryptoProvider {
    CryptoProvider { tls13_cipher_suites: vec![suite].into(), ..fastsm2_rustls::provider() }
}

/// `suite` with its records through `aead` instead.
fn with_aead(suite: &'static Tls13CipherSuite, aead: &'static dyn Tls13AeadAlgorithm) -> &'static Tls13CipherSuite {
    Box::leak(Box::new(Tls13CipherSuite {
        common: CipherSuiteCommon {
            suite: suite.common.suite,
            hash_provider: suite.common.hash_provider,
            confidentiality_limit: suite.common.confidentiality_limit,
        },
        protocol_version: suite.protocol_version,
        hkdf_provider: suite.hkdf_provider,
        aead_alg: aead,
        quic: None,
    }))
}

fn sm2_configs_with(provider: CryptoProvider) -> (Arc<ClientConfig>, Arc<ServerConfig>) {
    let provider = Arc::new(provider);
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

    // TLS bulk data: the provider's records (the library's SM4) beside
    // AES-128-GCM under ring and beside the same provider with RustCrypto's
    // SM4 records, all in one alternating run.
    type CrateGcm = aes_gcm::AesGcm<sm4::Sm4, aes_gcm::aead::consts::U12>;
    type CrateCcm = ccm::Ccm<sm4::Sm4, ccm::consts::U16, ccm::consts::U12>;
    use fastsm2_rustls::{TLS13_SM4_CCM_SM3 as CCM, TLS13_SM4_GCM_SM3 as GCM};
    let crate_gcm = with_aead(GCM, &CrateAead::<CrateGcm>(core::marker::PhantomData));
    let crate_ccm = with_aead(CCM, &CrateAead::<CrateCcm>(core::marker::PhantomData));
    let bulk = vec![0x5au8; 1 << 20];
    let mut pairs = Vec::new();
    for (c, s) in [
        sm2_configs_with(one_suite(GCM)),
        sm2_configs_with(one_suite(CCM)),
        sm2_configs_with(one_suite(crate_gcm)),
        sm2_configs_with(one_suite(crate_ccm)),
        (pc.clone(), ps.clone()),
    ] {
        pairs.push(handshake(&c, &s).unwrap());
    }
    for (p, want) in pairs.iter().zip([
        CipherSuite::TLS13_SM4_GCM_SM3,
        CipherSuite::TLS13_SM4_CCM_SM3,
        CipherSuite::TLS13_SM4_GCM_SM3,
        CipherSuite::TLS13_SM4_CCM_SM3,
        CipherSuite::TLS13_AES_128_GCM_SHA256,
    ]) {
        assert_eq!(p.client.negotiated_cipher_suite().unwrap().suite(), want);
    }
    let mut tls = vec![Vec::new(); pairs.len()];
    let b = {
        let mut fs: Vec<Box<dyn FnMut() + '_>> = pairs
            .iter_mut()
            .zip(tls.iter_mut())
            .map(|(p, t)| {
                let bulk = &bulk;
                Box::new(move || transfer(&mut p.client, &mut p.server, bulk, t)) as Box<dyn FnMut()>
            })
            .collect();
        let mut refs: Vec<&mut dyn FnMut()> = fs.iter_mut().map(|f| &mut **f as &mut dyn FnMut()).collect();
        side_by_side(secs * 2.0, &mut refs)
    };
    let mib = bulk.len() as f64 / 1e6;
    let what = "TLS 1.3 bulk data, 16 KiB records (client writes, server reads, one thread): fastsm2-rustls";
    row(&format!("{what} TLS_SM4_GCM_SM3"), b[0] * mib, "rustls-ring TLS_AES_128_GCM_SHA256", b[4] * mib, "MB/s");
    row(&format!("{what} TLS_SM4_GCM_SM3"), b[0] * mib, "the same, records by sm4 0.6 + aes-gcm 0.11", b[2] * mib, "MB/s");
    row(&format!("{what} TLS_SM4_CCM_SM3"), b[1] * mib, "rustls-ring TLS_AES_128_GCM_SHA256", b[4] * mib, "MB/s");
    row(&format!("{what} TLS_SM4_CCM_SM3"), b[1] * mib, "the same, records by sm4 0.6 + ccm 0.6", b[3] * mib, "MB/s");

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

/// A record layer over any RustCrypto AEAD with a 12-byte nonce and a
/// 16-byte tag: the bench's stand-in for fastsm2-rustls's records before
/// 0.3, when they went through the `sm4` crate.
struct CrateAead<A>(core::marker::PhantomData<fn() -> A>);

struct CrateRecord<A> {
    cipher: A,
    iv: Iv,
}

type U16 = aes_gcm::aead::consts::U16;

impl<A> Tls13AeadAlgorithm for CrateAead<A>
where
    A: AeadInOut + aes_gcm::aead::AeadCore<TagSize = U16> + KeyInit + Send + Sync + 'static,
{
    fn encrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn RecordEncrypter> {
        Box::new(CrateRecord { cipher: A::new_from_slice(key.as_ref()).unwrap(), iv })
    }
    fn decrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn RecordDecrypter> {
        Box::new(CrateRecord { cipher: A::new_from_slice(key.as_ref()).unwrap(), iv })
    }
    fn key_len(&self) -> usize {
        16
    }
    fn extract_keys(&self, _: AeadKey, _: Iv) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Err(UnsupportedOperationError)
    }
}

impl<A: AeadInOut + aes_gcm::aead::AeadCore<TagSize = U16> + Send + Sync> RecordEncrypter for CrateRecord<A> {
    fn encrypt<'a>(&mut self, record: Record<OutboundPlain<'_>>, seq: u64, out: &'a mut [u8]) -> Result<Record<&'a [u8]>, rustls::Error> {
        let total_len = self.encrypted_payload_len(record.payload.len());
        let mut payload = EncryptBuffer::new(out, total_len)?;
        let typ = ContentType::ApplicationData;
        let nonce: [u8; 12] = Nonce::new(&self.iv, seq).to_array()?;
        let aad = make_tls13_aad(typ, record.version.encode(), total_len);
        payload.extend_from_chunks(&record.payload);
        payload.extend_from_slice(&record.typ.to_array());
        let nonce = aes_gcm::aead::Nonce::<A>::try_from(&nonce[..]).unwrap();
        let tag = self.cipher.encrypt_inout_detached(&nonce, &aad, payload.as_mut().into()).map_err(|_| rustls::Error::EncryptError)?;
        payload.extend_from_slice(&tag);
        Ok(Record { typ, version: record.version, payload: payload.into_written() })
    }
    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + 1 + 16
    }
}

impl<A: AeadInOut + aes_gcm::aead::AeadCore<TagSize = U16> + Send + Sync> RecordDecrypter for CrateRecord<A> {
    fn decrypt<'a>(&mut self, mut record: Record<InboundOpaque<'a>>, seq: u64) -> Result<Record<&'a [u8]>, rustls::Error> {
        let payload = &mut record.payload;
        let len = payload.len();
        if len < 16 {
            return Err(rustls::Error::DecryptError);
        }
        let nonce: [u8; 12] = Nonce::new(&self.iv, seq).to_array()?;
        let nonce = aes_gcm::aead::Nonce::<A>::try_from(&nonce[..]).unwrap();
        let aad = make_tls13_aad(record.typ, record.version.version(), len);
        let buf: &mut [u8] = payload.as_mut();
        let (body, tag) = buf.split_at_mut(len - 16);
        let tag = aes_gcm::aead::Tag::<A>::try_from(&*tag).unwrap();
        self.cipher.decrypt_inout_detached(&nonce, &aad, body.into(), &tag).map_err(|_| rustls::Error::DecryptError)?;
        payload.truncate(len - 16);
        record.into_tls13_unpadded_record()
    }
}
