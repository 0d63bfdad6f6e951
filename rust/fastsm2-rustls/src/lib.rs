// SPDX-License-Identifier: Apache-2.0
//! A rustls [`CryptoProvider`] for the ShangMi suite of TLS 1.3, RFC 8998,
//! over libfastsm2 (through the `fastsm2` crate):
//!
//! - cipher suites `TLS_SM4_GCM_SM3` (0x00C6, preferred) and
//!   `TLS_SM4_CCM_SM3` (0x00C7): the records through the library's
//!   SM4-GCM and SM4-CCM (`fastsm2::Sm4Gcm`, `fastsm2::Sm4Ccm`: constant
//!   time, AES-NI/GFNI/ARMv8 backends where the CPU has them); SM3 as the
//!   transcript hash and HKDF (rustls's `HkdfUsingHmac`) over the library's
//!   HMAC-SM3;
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
//! `TLS13_SM4_CCM_SM3`, `NamedGroup::curveSM2`, `SignatureScheme::SM2_SM3`).
use std::borrow::Cow;
use std::sync::Arc;

use rustls::crypto::{CryptoProvider, GetRandomFailed, KeyProvider, SecureRandom, TicketProducer, TicketerFactory};
use rustls::pki_types::PrivateKeyDer;
use rustls::Error;

mod hash;
mod hmac;
mod kx;
mod sign;
mod ticketer;
mod tls13;
mod verify;

pub use hash::SM3;
pub use hmac::HMAC_SM3;
pub use kx::{ALL_KX_GROUPS, CURVE_SM2};
pub use sign::{Sm2SigningKey, TLS13_SM2_ID};
pub use tls13::{ALL_TLS13_CIPHER_SUITES, TLS13_SM4_CCM_SM3, TLS13_SM4_GCM_SM3};
pub use verify::{SM2_SM3, SM2_SM3_TLS13};

/// The cipher suites, by name (as `rustls-ring::cipher_suite`).
pub mod cipher_suite {
    pub use super::tls13::{TLS13_SM4_CCM_SM3, TLS13_SM4_GCM_SM3};
}

/// The key exchange groups, by name (as `rustls-ring::kx_group`).
pub mod kx_group {
    pub use super::kx::CURVE_SM2;
}

/// The provider: TLS 1.3 only, `TLS_SM4_GCM_SM3` and `TLS_SM4_CCM_SM3`,
/// `curveSM2`, `sm2sig_sm3`.
pub fn provider() -> CryptoProvider {
    CryptoProvider {
        tls12_cipher_suites: Cow::Borrowed(&[]),
        tls13_cipher_suites: Cow::Borrowed(ALL_TLS13_CIPHER_SUITES),
        kx_groups: Cow::Borrowed(ALL_KX_GROUPS),
        signature_verification_algorithms: verify::SUPPORTED_SIG_ALGS,
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
        Ok(Arc::new(ticketer::Ticketer::new()?))
    }
}
