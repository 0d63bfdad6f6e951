// SPDX-License-Identifier: Apache-2.0
//! docs/PKI.md, "Rust": RustCrypto's x509-cert builders, every signature
//! made by the fastsm2 crate's SigningKey. `cargo run --example x509_cert`
//! prints the CA, the request and the leaf in PEM.
use std::str::FromStr;
use std::time::Duration;

use fastsm2::{DerSignature, SigningKey, VerifyingKey};
use signature::{Keypair, Signer};
use x509_cert::builder::profile::BuilderProfile;
use x509_cert::builder::{Builder, CertificateBuilder, RequestBuilder};
use x509_cert::der::asn1::BitString;
use x509_cert::der::{Encode, EncodePem, pem::LineEnding};
use x509_cert::ext::pkix::{BasicConstraints, KeyUsage, KeyUsages};
use x509_cert::ext::{Extension, ToExtension};
use x509_cert::name::Name;
use x509_cert::serial_number::SerialNumber;
use x509_cert::spki::{
    AlgorithmIdentifierOwned, DynSignatureAlgorithmIdentifier, EncodePublicKey, ObjectIdentifier,
    SignatureBitStringEncoding, SubjectPublicKeyInfo, SubjectPublicKeyInfoRef,
};
use x509_cert::time::Validity;
use x509_cert::TbsCertificate;

/// SM2 with SM3 (GM/T 0006): what the certificates say signed them.
const SM2_WITH_SM3: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.501");

/// The fastsm2 signer as x509-cert's builders take one: SM2 with SM3 and
/// the default signer ID 1234567812345678, DER signatures.
pub struct Sm2Signer(pub SigningKey);

#[derive(Clone)]
pub struct Sm2Signature(DerSignature);

impl TryFrom<&[u8]> for Sm2Signature {
    type Error = signature::Error;
    fn try_from(b: &[u8]) -> Result<Self, signature::Error> {
        Ok(Sm2Signature(DerSignature::try_from(b)?))
    }
}
impl From<Sm2Signature> for Vec<u8> {
    fn from(s: Sm2Signature) -> Vec<u8> {
        s.0.into()
    }
}
impl signature::SignatureEncoding for Sm2Signature {
    type Repr = Vec<u8>;
}
impl SignatureBitStringEncoding for Sm2Signature {
    fn to_bitstring(&self) -> x509_cert::der::Result<BitString> {
        BitString::from_bytes(self.0.as_bytes())
    }
}
impl Signer<Sm2Signature> for Sm2Signer {
    fn try_sign(&self, msg: &[u8]) -> Result<Sm2Signature, signature::Error> {
        Ok(Sm2Signature(self.0.try_sign(msg)?))
    }
}
impl Keypair for Sm2Signer {
    type VerifyingKey = VerifyingKey;
    fn verifying_key(&self) -> VerifyingKey {
        Keypair::verifying_key(&self.0)
    }
}
impl DynSignatureAlgorithmIdentifier for Sm2Signer {
    fn signature_algorithm_identifier(&self) -> x509_cert::spki::Result<AlgorithmIdentifierOwned> {
        Ok(AlgorithmIdentifierOwned { oid: SM2_WITH_SM3, parameters: None })
    }
}

/// A profile: the subject, the issuer (None: self-signed), CA or not.
pub struct Profile {
    pub subject: Name,
    pub issuer: Option<Name>,
    pub ca: bool,
}

impl BuilderProfile for Profile {
    fn get_issuer(&self, subject: &Name) -> Name {
        self.issuer.clone().unwrap_or_else(|| subject.clone())
    }
    fn get_subject(&self) -> Name {
        self.subject.clone()
    }
    fn build_extensions(
        &self,
        _spk: SubjectPublicKeyInfoRef<'_>,
        _issuer_spk: SubjectPublicKeyInfoRef<'_>,
        tbs: &TbsCertificate,
    ) -> x509_cert::builder::Result<Vec<Extension>> {
        let usage = if self.ca { KeyUsages::KeyCertSign | KeyUsages::CRLSign } else { KeyUsages::DigitalSignature.into() };
        let mut exts = vec![(&KeyUsage(usage)).to_extension(tbs.subject(), &[])?];
        if self.ca {
            exts.push((&BasicConstraints { ca: true, path_len_constraint: None }).to_extension(tbs.subject(), &[])?);
        }
        Ok(exts)
    }
}

/// A CA, a request and a leaf it issues for it: their DER.
pub fn make_chain() -> Result<(Vec<u8>, Vec<u8>, Vec<u8>), Box<dyn std::error::Error>> {
    let ca_key = Sm2Signer(SigningKey::generate()?);
    let leaf_key = Sm2Signer(SigningKey::generate()?);
    let ca_name = Name::from_str("CN=Example CA,O=Example,C=CN")?;
    let spki = |k: &Sm2Signer| -> Result<SubjectPublicKeyInfo<_, _>, Box<dyn std::error::Error>> {
        Ok(SubjectPublicKeyInfo::try_from(k.verifying_key().to_public_key_der()?.as_bytes())?)
    };
    let validity = Validity::from_now(Duration::from_secs(365 * 86400))?;

    // a self-signed CA
    let profile = Profile { subject: ca_name.clone(), issuer: None, ca: true };
    let ca = CertificateBuilder::new(profile, SerialNumber::from(0x1234_5678u32), validity, spki(&ca_key)?)?
        .build::<_, Sm2Signature>(&ca_key)?;

    // a request for the leaf
    let req = RequestBuilder::new(Name::from_str("CN=www.example.com,O=Example,C=CN")?)?
        .build::<_, Sm2Signature>(&leaf_key)?;

    // the leaf, issued by the CA for the request's subject and key
    let profile = Profile { subject: req.info.subject.clone(), issuer: Some(ca_name), ca: false };
    let leaf = CertificateBuilder::new(profile, SerialNumber::from(0x1234_5679u32), validity, req.info.public_key.clone())?
        .build::<_, Sm2Signature>(&ca_key)?;
    Ok((ca.to_der()?, req.to_der()?, leaf.to_der()?))
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use x509_cert::der::Decode;
    let (ca, req, leaf) = make_chain()?;
    print!("{}", x509_cert::Certificate::from_der(&ca)?.to_pem(LineEnding::LF)?);
    print!("{}", x509_cert::request::CertReq::from_der(&req)?.to_pem(LineEnding::LF)?);
    print!("{}", x509_cert::Certificate::from_der(&leaf)?.to_pem(LineEnding::LF)?);
    Ok(())
}
