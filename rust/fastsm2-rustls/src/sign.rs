// SPDX-License-Identifier: Apache-2.0
//! `sm2sig_sm3` signing (RFC 8998 clause 3.2): CertificateVerify signed
//! with the signer ID `TLSv1.3+GM+Cipher+Suite`.
use std::sync::Arc;

use rustls::crypto::SignatureScheme;
use rustls::pki_types::SubjectPublicKeyInfoDer;
use rustls::Error;

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
