// SPDX-License-Identifier: Apache-2.0
//! With the `sm2` feature: conversions to and from the RustCrypto `sm2`
//! crate's keys and signatures, signer IDs carried over.
use crate::dsa::{Signature, SigningKey, VerifyingKey};
use crate::error::{Error, Result};
use zeroize::Zeroize;


fn distid_bytes(id: &str) -> &[u8] {
    id.as_bytes()
}

impl TryFrom<&sm2::dsa::SigningKey> for SigningKey {
    type Error = Error;
    /// The same d and signer ID.
    fn try_from(k: &sm2::dsa::SigningKey) -> Result<Self> {
        let mut fb = k.to_bytes();
        let mut d = [0u8; 32];
        d.copy_from_slice(&fb);
        fb.zeroize();
        let key = SigningKey::from_bytes(&d);
        d.zeroize();
        let id = distid_bytes(k.distid());
        if id == crate::DEFAULT_ID {
            key
        } else {
            key?.with_id(id)
        }
    }
}

impl SigningKey {
    /// The same d as an `sm2` crate signing key with signer ID `distid`.
    pub fn to_sm2(&self, distid: &str) -> Result<sm2::dsa::SigningKey> {
        let d = self.to_bytes();
        let fb = sm2::FieldBytes::from(*d);
        sm2::dsa::SigningKey::from_bytes(distid, &fb).map_err(|_| Error::PrivateKey)
    }
}

impl TryFrom<&sm2::SecretKey> for SigningKey {
    type Error = Error;
    fn try_from(k: &sm2::SecretKey) -> Result<Self> {
        let mut fb = k.to_bytes();
        let mut d = [0u8; 32];
        d.copy_from_slice(&fb);
        fb.zeroize();
        let key = SigningKey::from_bytes(&d);
        d.zeroize();
        key
    }
}

impl TryFrom<&SigningKey> for sm2::SecretKey {
    type Error = Error;
    fn try_from(k: &SigningKey) -> Result<Self> {
        let d = k.to_bytes();
        sm2::SecretKey::from_bytes(&sm2::FieldBytes::from(*d)).map_err(|_| Error::PrivateKey)
    }
}

impl TryFrom<&sm2::dsa::VerifyingKey> for VerifyingKey {
    type Error = Error;
    /// The same point and signer ID.
    fn try_from(k: &sm2::dsa::VerifyingKey) -> Result<Self> {
        let v = VerifyingKey::from_sec1_bytes(&k.to_sec1_bytes())?;
        let id = distid_bytes(k.distid());
        if id == crate::DEFAULT_ID {
            Ok(v)
        } else {
            v.with_id(id)
        }
    }
}

impl VerifyingKey {
    /// The same point as an `sm2` crate verifying key with signer ID `distid`.
    pub fn to_sm2(&self, distid: &str) -> Result<sm2::dsa::VerifyingKey> {
        sm2::dsa::VerifyingKey::from_sec1_bytes(distid, &self.to_sec1_bytes(false)).map_err(|_| Error::Point)
    }
}

impl TryFrom<&sm2::PublicKey> for VerifyingKey {
    type Error = Error;
    fn try_from(k: &sm2::PublicKey) -> Result<Self> {
        use sm2::elliptic_curve::sec1::ToSec1Point;
        VerifyingKey::from_sec1_bytes(k.to_sec1_point(false).as_bytes())
    }
}

impl TryFrom<&VerifyingKey> for sm2::PublicKey {
    type Error = Error;
    fn try_from(k: &VerifyingKey) -> Result<Self> {
        sm2::PublicKey::from_sec1_bytes(&k.to_sec1_bytes(false)).map_err(|_| Error::Point)
    }
}

impl From<&sm2::dsa::Signature> for Signature {
    fn from(s: &sm2::dsa::Signature) -> Self {
        let mut b = [0u8; 64];
        b.copy_from_slice(&s.to_bytes());
        Signature(b)
    }
}

impl TryFrom<&Signature> for sm2::dsa::Signature {
    type Error = Error;
    fn try_from(s: &Signature) -> Result<Self> {
        sm2::dsa::Signature::from_slice(&s.0).map_err(|_| Error::SignatureRange)
    }
}
