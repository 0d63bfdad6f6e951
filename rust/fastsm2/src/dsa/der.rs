// SPDX-License-Identifier: Apache-2.0
//! Signatures in strict DER (GM/T 0009 SM2Signature).
use super::Signature;
use fastsm2_sys as sys;
use signature::SignatureEncoding;

/// A signature in strict DER (GM/T 0009: SEQUENCE { INTEGER r, INTEGER s }),
/// what X.509 and TLS carry. At most 72 bytes.
#[derive(Clone, Copy)]
pub struct DerSignature {
    pub(crate) bytes: [u8; sys::FASTSM2_SIG_DER_MAX],
    pub(crate) len: u8,
}

impl DerSignature {
    /// The DER bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
    /// The same signature as r || s.
    pub fn to_raw(&self) -> Signature {
        Signature::from_der(self.as_bytes()).expect("a DerSignature holds strict DER")
    }
}

impl PartialEq for DerSignature {
    fn eq(&self, o: &Self) -> bool {
        self.as_bytes() == o.as_bytes()
    }
}
impl Eq for DerSignature {}

impl core::fmt::Debug for DerSignature {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "DerSignature({:?})", self.as_bytes())
    }
}

impl AsRef<[u8]> for DerSignature {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl TryFrom<&[u8]> for DerSignature {
    type Error = signature::Error;
    /// Strict DER only: anything else (trailing bytes, non-minimal
    /// integers, r or s out of range) is refused.
    fn try_from(b: &[u8]) -> core::result::Result<Self, signature::Error> {
        Ok(Signature::from_der(b)?.to_der())
    }
}

impl From<DerSignature> for Vec<u8> {
    fn from(s: DerSignature) -> Self {
        s.as_bytes().to_vec()
    }
}

impl SignatureEncoding for DerSignature {
    type Repr = Vec<u8>;
}
