// SPDX-License-Identifier: Apache-2.0
//! SM2-with-SM3 signature verification for rustls-webpki: certificates with
//! the default signer ID, CertificateVerify with RFC 8998's.
use rustls::crypto::{SignatureScheme, WebPkiSupportedAlgorithms};
use rustls::pki_types::{AlgorithmIdentifier, InvalidSignature, SignatureVerificationAlgorithm};

use crate::sign::TLS13_SM2_ID;

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
pub(crate) static SUPPORTED_SIG_ALGS: WebPkiSupportedAlgorithms =
    match WebPkiSupportedAlgorithms::new(&[SM2_SM3], &[(SignatureScheme::SM2_SM3, &[SM2_SM3_TLS13])]) {
        Ok(a) => a,
        Err(_) => panic!("the SM2 mapping is not empty"),
    };
