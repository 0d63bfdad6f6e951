// SPDX-License-Identifier: Apache-2.0
//! A rustls [`CryptoProvider`] for the ShangMi suite of TLS 1.3, RFC 8998,
//! over libfastsm2 (through the `fastsm2` crate):
//!
//! - cipher suite `TLS_SM4_GCM_SM3` (0x00C6): SM4-GCM from RustCrypto's
//!   `sm4` and `aes-gcm` (its GCM is generic over 128-bit block ciphers;
//!   GHASH from `ghash`/`polyval`, constant time). libfastsm2 has no public
//!   SM4 API, so the block cipher is the `sm4` crate's, which looks its
//!   S-box up in a 256-byte table indexed by key-dependent bytes: not
//!   constant time against a cache-timing attacker sharing the CPU (see
//!   docs/RUST.md). HKDF (rustls's `HkdfUsingHmac`) runs over the
//!   library's HMAC-SM3, which is faster than `hmac` over the pure-Rust
//!   `sm3` crate;
//! - key exchange group `curveSM2` (0x0029): ECDHE on sm2p256v1, the
//!   x-coordinate as shared secret (RFC 8998 clause 3.3), key shares as
//!   65-byte uncompressed points;
//! - signature scheme `sm2sig_sm3` (0x0708): CertificateVerify signed and
//!   verified with the signer ID `TLSv1.3+GM+Cipher+Suite` (RFC 8998
//!   clause 3.2.1, what GmSSL, Tongsuo and Tencent Kona use), certificates
//!   (SM2-with-SM3, OID 1.2.156.10197.1.501) verified with the default ID
//!   `1234567812345678` (GM/T 0015, as CAs sign them).
//!
//! The identifiers are rustls 0.24.0-dev.2's (`TLS13_SM4_GCM_SM3`,
//! `NamedGroup::curveSM2`, `SignatureScheme::SM2_SM3`).
use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use aes_gcm::aead::{AeadInOut, KeyInit};
use rustls::crypto::cipher::{
    make_tls13_aad, AeadKey, EncryptBuffer, InboundOpaque, Iv, Nonce, OutboundPlain, Record, RecordDecrypter,
    RecordEncrypter, Tls13AeadAlgorithm, UnsupportedOperationError,
};
use rustls::crypto::kx::{ActiveKeyExchange, NamedGroup, SharedSecret, StartedKeyExchange, SupportedKxGroup};
use rustls::crypto::tls13::HkdfUsingHmac;
use rustls::crypto::{
    hash, hmac, CipherSuite, CipherSuiteCommon, CryptoProvider, GetRandomFailed, HashAlgorithm, KeyProvider,
    SecureRandom, SignatureScheme, TicketProducer, TicketerFactory, WebPkiSupportedAlgorithms,
};
use rustls::enums::ContentType;
use rustls::error::PeerMisbehaved;
use rustls::pki_types::{
    AlgorithmIdentifier, InvalidSignature, PrivateKeyDer, SignatureVerificationAlgorithm, SubjectPublicKeyInfoDer,
};
use rustls::{ConnectionTrafficSecrets, Error, Tls13CipherSuite};

/// SM4 in GCM mode with a 96-bit nonce.
type Sm4Gcm = aes_gcm::AesGcm<sm4::Sm4, aes_gcm::aead::consts::U12>;

/// The provider: TLS 1.3 only, `TLS_SM4_GCM_SM3`, `curveSM2`, `sm2sig_sm3`.
pub fn provider() -> CryptoProvider {
    CryptoProvider {
        tls12_cipher_suites: Cow::Borrowed(&[]),
        tls13_cipher_suites: Cow::Borrowed(&[TLS13_SM4_GCM_SM3]),
        kx_groups: Cow::Borrowed(&[CURVE_SM2]),
        signature_verification_algorithms: SUPPORTED_SIG_ALGS,
        secure_random: &Provider,
        key_provider: &Provider,
        ticketer_factory: &Provider,
    }
}

#[derive(Debug)]
struct Provider;

impl SecureRandom for Provider {
    fn fill(&self, bytes: &mut [u8]) -> Result<(), GetRandomFailed> {
        getrandom::fill(bytes).map_err(|_| GetRandomFailed)
    }
}

impl KeyProvider for Provider {
    fn load_private_key(&self, key_der: PrivateKeyDer<'static>) -> Result<Box<dyn rustls::crypto::SigningKey>, Error> {
        let bytes = match &key_der {
            PrivateKeyDer::Pkcs8(k) => k.secret_pkcs8_der(),
            PrivateKeyDer::Sec1(k) => k.secret_sec1_der(),
            _ => return Err(Error::General("fastsm2-rustls: only SM2 keys (PKCS#8 or SEC1)".into())),
        };
        let key = fastsm2::SigningKey::from_key_file(bytes)
            .map_err(|e| Error::General(format!("fastsm2-rustls: not an SM2 private key: {e}")))?;
        Ok(Box::new(Sm2SigningKey::new(key)))
    }
}

impl TicketerFactory for Provider {
    fn ticketer(&self) -> Result<Arc<dyn TicketProducer>, Error> {
        Ok(Arc::new(Ticketer::new()?))
    }
}

// ---------------------------------------------------------------------------
// SM3, HMAC-SM3, HKDF

/// SM3 as rustls's transcript hash.
pub const SM3: &dyn hash::Hash = &Sm3Hash;
/// HMAC-SM3 (the library's).
pub const HMAC_SM3: &dyn hmac::Hmac = &Sm3Hmac;

struct Sm3Hash;

impl hash::Hash for Sm3Hash {
    fn start(&self) -> Box<dyn hash::Context> {
        Box::new(Sm3Context(fastsm2::Sm3::new()))
    }
    fn hash(&self, data: &[u8]) -> hash::Output {
        hash::Output::new(&fastsm2::Sm3::digest(data))
    }
    fn output_len(&self) -> usize {
        32
    }
    fn algorithm(&self) -> HashAlgorithm {
        // TLS's HashAlgorithm registry has no SM3 code point (RFC 8998
        // names SM3 only through its suite and scheme).
        HashAlgorithm::from(0xff)
    }
}

struct Sm3Context(fastsm2::Sm3);

impl hash::Context for Sm3Context {
    fn fork_finish(&self) -> hash::Output {
        let mut c = self.0.clone();
        let mut out = [0u8; 32];
        c.finish_into(&mut out);
        hash::Output::new(&out)
    }
    fn fork(&self) -> Box<dyn hash::Context> {
        Box::new(Sm3Context(self.0.clone()))
    }
    fn finish(mut self: Box<Self>) -> hash::Output {
        let mut out = [0u8; 32];
        self.0.finish_into(&mut out);
        hash::Output::new(&out)
    }
    fn update(&mut self, data: &[u8]) {
        fastsm2::digest::Update::update(&mut self.0, data);
    }
}

struct Sm3Hmac;

impl hmac::Hmac for Sm3Hmac {
    fn with_key(&self, key: &[u8]) -> Box<dyn hmac::Key> {
        Box::new(Sm3HmacKey(fastsm2::HmacSm3::new(key)))
    }
    fn hash_output_len(&self) -> usize {
        32
    }
}

struct Sm3HmacKey(fastsm2::HmacSm3);

impl hmac::Key for Sm3HmacKey {
    fn sign_concat(&self, first: &[u8], middle: &[&[u8]], last: &[u8]) -> hmac::Tag {
        let mut m = self.0.clone();
        m.update(first);
        for x in middle {
            m.update(x);
        }
        m.update(last);
        hmac::Tag::new(&m.finalize())
    }
    fn tag_len(&self) -> usize {
        32
    }
}

// ---------------------------------------------------------------------------
// TLS_SM4_GCM_SM3

/// `TLS_SM4_GCM_SM3` (RFC 8998 clause 2, 0x00C6).
pub const TLS13_SM4_GCM_SM3: &Tls13CipherSuite = &Tls13CipherSuite {
    common: CipherSuiteCommon {
        suite: CipherSuite::TLS13_SM4_GCM_SM3,
        hash_provider: &Sm3Hash,
        // As for AES-128-GCM (RFC 8446 5.5): a 128-bit block cipher in GCM.
        confidentiality_limit: 1 << 24,
    },
    protocol_version: rustls::version::TLS13_VERSION,
    hkdf_provider: &HkdfUsingHmac(&Sm3Hmac),
    aead_alg: &Sm4GcmAead,
    quic: None,
};

struct Sm4GcmAead;

const TAG_LEN: usize = 16;

impl Tls13AeadAlgorithm for Sm4GcmAead {
    fn encrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn RecordEncrypter> {
        Box::new(Sm4GcmRecord { cipher: Sm4Gcm::new_from_slice(key.as_ref()).expect("16-byte key"), iv })
    }
    fn decrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn RecordDecrypter> {
        Box::new(Sm4GcmRecord { cipher: Sm4Gcm::new_from_slice(key.as_ref()).expect("16-byte key"), iv })
    }
    fn key_len(&self) -> usize {
        16
    }
    fn extract_keys(&self, _key: AeadKey, _iv: Iv) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Err(UnsupportedOperationError)
    }
}

struct Sm4GcmRecord {
    cipher: Sm4Gcm,
    iv: Iv,
}

impl RecordEncrypter for Sm4GcmRecord {
    fn encrypt<'a>(
        &mut self,
        record: Record<OutboundPlain<'_>>,
        seq: u64,
        out: &'a mut [u8],
    ) -> Result<Record<&'a [u8]>, Error> {
        let total_len = self.encrypted_payload_len(record.payload.len());
        let mut payload = EncryptBuffer::new(out, total_len)?;
        let typ = ContentType::ApplicationData;
        let nonce: [u8; 12] = Nonce::new(&self.iv, seq).to_array()?;
        let aad = make_tls13_aad(typ, record.version.encode(), total_len);
        payload.extend_from_chunks(&record.payload);
        payload.extend_from_slice(&record.typ.to_array());
        let tag = self
            .cipher
            .encrypt_inout_detached(&nonce.into(), &aad, payload.as_mut().into())
            .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(&tag);
        Ok(Record { typ, version: record.version, payload: payload.into_written() })
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + 1 + TAG_LEN
    }
}

impl RecordDecrypter for Sm4GcmRecord {
    fn decrypt<'a>(&mut self, mut record: Record<InboundOpaque<'a>>, seq: u64) -> Result<Record<&'a [u8]>, Error> {
        let payload = &mut record.payload;
        let len = payload.len();
        if len < TAG_LEN {
            return Err(Error::DecryptError);
        }
        let nonce: [u8; 12] = Nonce::new(&self.iv, seq).to_array()?;
        let aad = make_tls13_aad(record.typ, record.version.version(), len);
        let buf: &mut [u8] = payload.as_mut();
        let (body, tag) = buf.split_at_mut(len - TAG_LEN);
        let tag = aes_gcm::Tag::<aes_gcm::aead::consts::U16>::try_from(&*tag).map_err(|_| Error::DecryptError)?;
        self.cipher
            .decrypt_inout_detached(&nonce.into(), &aad, body.into(), &tag)
            .map_err(|_| Error::DecryptError)?;
        payload.truncate(len - TAG_LEN);
        record.into_tls13_unpadded_record()
    }
}

// ---------------------------------------------------------------------------
// curveSM2

/// `curveSM2` (RFC 8998 clause 2, 0x0029): ECDHE on sm2p256v1.
pub const CURVE_SM2: &dyn SupportedKxGroup = &CurveSm2;

#[derive(Debug)]
struct CurveSm2;

impl SupportedKxGroup for CurveSm2 {
    fn start(&self) -> Result<StartedKeyExchange, Error> {
        let key = fastsm2::SigningKey::generate().map_err(|_| GetRandomFailed)?;
        let share = key.verifying_key().to_sec1_bytes(false);
        Ok(StartedKeyExchange::Single(Box::new(CurveSm2Kx { key, share })))
    }
    fn name(&self) -> NamedGroup {
        NamedGroup::curveSM2
    }
}

struct CurveSm2Kx {
    key: fastsm2::SigningKey,
    share: Vec<u8>,
}

impl ActiveKeyExchange for CurveSm2Kx {
    fn complete(self: Box<Self>, peer: &[u8]) -> Result<SharedSecret, Error> {
        // RFC 8998 3.3 / RFC 8446 4.2.8.2: the uncompressed form only.
        if peer.len() != 65 || peer[0] != 4 {
            return Err(PeerMisbehaved::InvalidKeyShare.into());
        }
        let x = self.key.diffie_hellman(peer).map_err(|_| Error::from(PeerMisbehaved::InvalidKeyShare))?;
        Ok(SharedSecret::from(&x[..]))
    }
    fn pub_key(&self) -> &[u8] {
        &self.share
    }
    fn group(&self) -> NamedGroup {
        NamedGroup::curveSM2
    }
}

// ---------------------------------------------------------------------------
// sm2sig_sm3

/// The signing key of a certificate: `sm2sig_sm3` with RFC 8998's ID.
#[derive(Debug)]
pub struct Sm2SigningKey {
    key: Arc<fastsm2::SigningKey>,
    spki: Vec<u8>,
}

impl Sm2SigningKey {
    /// Wrap a key. The ID it carries does not matter: CertificateVerify is
    /// always signed with [`TLS13_SM2_ID`].
    pub fn new(key: fastsm2::SigningKey) -> Self {
        use fastsm2::spki::EncodePublicKey;
        let spki = key.verifying_key().to_public_key_der().expect("SPKI of a valid key").as_bytes().to_vec();
        Sm2SigningKey { key: Arc::new(key), spki }
    }
}

impl rustls::crypto::SigningKey for Sm2SigningKey {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn rustls::crypto::Signer>> {
        offered
            .contains(&SignatureScheme::SM2_SM3)
            .then(|| Box::new(Sm2Signer(self.key.clone())) as Box<dyn rustls::crypto::Signer>)
    }
    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        Some(SubjectPublicKeyInfoDer::from(&self.spki[..]))
    }
}

/// The signer ID of SM2 signatures in TLS 1.3's CertificateVerify
/// (RFC 8998 clause 3.2.1). Certificates keep the default ID.
pub const TLS13_SM2_ID: &[u8] = b"TLSv1.3+GM+Cipher+Suite";

#[derive(Debug)]
struct Sm2Signer(Arc<fastsm2::SigningKey>);

impl rustls::crypto::Signer for Sm2Signer {
    fn sign(self: Box<Self>, message: &[u8]) -> Result<Vec<u8>, Error> {
        let sig = self
            .0
            .sign_with_id(Some(TLS13_SM2_ID), message)
            .map_err(|e| Error::General(format!("fastsm2-rustls: signing: {e}")))?;
        Ok(sig.to_der().as_bytes().to_vec())
    }
    fn scheme(&self) -> SignatureScheme {
        SignatureScheme::SM2_SM3
    }
}

/// id-ecPublicKey with the named curve sm2p256v1 (an AlgorithmIdentifier's
/// content: the two OIDs).
const ALG_EC_SM2P256V1: &[u8] = &[
    0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, // 1.2.840.10045.2.1
    0x06, 0x08, 0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x82, 0x2d, // 1.2.156.10197.1.301
];
/// SM2-with-SM3 (1.2.156.10197.1.501), no parameters.
const ALG_SM2_SM3: &[u8] = &[0x06, 0x08, 0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x83, 0x75];

/// Verifies SM2-with-SM3 signatures (DER) with a signer ID: the default
/// one for certificates, RFC 8998's for CertificateVerify.
#[derive(Debug)]
struct Sm2Verify {
    id: &'static [u8],
}

impl SignatureVerificationAlgorithm for Sm2Verify {
    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        AlgorithmIdentifier::from_slice(ALG_EC_SM2P256V1)
    }
    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        AlgorithmIdentifier::from_slice(ALG_SM2_SM3)
    }
    fn verify_signature(&self, public_key: &[u8], message: &[u8], signature: &[u8]) -> Result<(), InvalidSignature> {
        let key = fastsm2::VerifyingKey::from_sec1_bytes(public_key).map_err(|_| InvalidSignature)?;
        let sig = fastsm2::Signature::from_der(signature).map_err(|_| InvalidSignature)?;
        key.verify_with_id(Some(self.id), message, &sig).map_err(|_| InvalidSignature)
    }
}

/// SM2-with-SM3 in certificates: the default signer ID `1234567812345678`.
pub const SM2_SM3: &dyn SignatureVerificationAlgorithm = &Sm2Verify { id: fastsm2::DEFAULT_ID };
/// `sm2sig_sm3` in TLS 1.3's CertificateVerify: the signer ID
/// `TLSv1.3+GM+Cipher+Suite`.
pub const SM2_SM3_TLS13: &dyn SignatureVerificationAlgorithm = &Sm2Verify { id: TLS13_SM2_ID };

// `all` verifies certificates, `mapping` the handshake's CertificateVerify.
static SUPPORTED_SIG_ALGS: WebPkiSupportedAlgorithms =
    match WebPkiSupportedAlgorithms::new(&[SM2_SM3], &[(SignatureScheme::SM2_SM3, &[SM2_SM3_TLS13])]) {
        Ok(a) => a,
        Err(_) => panic!("the SM2 mapping is not empty"),
    };

// ---------------------------------------------------------------------------
// Session tickets: SM4-GCM under a random key made with the ticketer.

struct Ticketer {
    cipher: Sm4Gcm,
}

impl Ticketer {
    fn new() -> Result<Self, Error> {
        let mut key = zeroize::Zeroizing::new([0u8; 16]);
        getrandom::fill(&mut key[..]).map_err(|_| GetRandomFailed)?;
        Ok(Ticketer { cipher: Sm4Gcm::new_from_slice(&key[..]).expect("16-byte key") })
    }
}

impl TicketProducer for Ticketer {
    fn encrypt(&self, plain: &[u8]) -> Option<Vec<u8>> {
        let mut nonce = [0u8; 12];
        getrandom::fill(&mut nonce).ok()?;
        let mut out = Vec::with_capacity(12 + plain.len() + TAG_LEN);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(plain);
        let tag = self.cipher.encrypt_inout_detached(&nonce.into(), b"", out[12..].as_mut().into()).ok()?;
        out.extend_from_slice(&tag);
        Some(out)
    }
    fn decrypt(&self, cipher: &[u8]) -> Option<Vec<u8>> {
        if cipher.len() < 12 + TAG_LEN {
            return None;
        }
        let (nonce, rest) = cipher.split_at(12);
        let (body, tag) = rest.split_at(rest.len() - TAG_LEN);
        let nonce: [u8; 12] = nonce.try_into().ok()?;
        let tag = aes_gcm::Tag::<aes_gcm::aead::consts::U16>::try_from(tag).ok()?;
        let mut plain = body.to_vec();
        self.cipher.decrypt_inout_detached(&nonce.into(), b"", plain.as_mut_slice().into(), &tag).ok()?;
        Some(plain)
    }
    fn lifetime(&self) -> Duration {
        Duration::from_secs(6 * 3600)
    }
}

impl core::fmt::Debug for Ticketer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Ticketer")
    }
}
