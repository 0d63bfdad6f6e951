// SPDX-License-Identifier: Apache-2.0
//! SM2 digital signatures (GB/T 32918.2): [`Signature`] (r || s) and
//! [`DerSignature`] (strict DER), made by a [`SigningKey`] and checked by a
//! [`VerifyingKey`], through the `signature` crate's traits. Laid out as
//! RustCrypto's `sm2::dsa`.
use crate::error::{check, Error, Result};
use fastsm2_sys as sys;
use signature::SignatureEncoding;

mod der;
mod signing;
mod verifying;

pub use der::DerSignature;
pub use signing::SigningKey;
pub use verifying::VerifyingKey;

/// A signer ID as the C calls take it: NULL for the key's own ID.
pub(crate) fn id_ptr(id: Option<&[u8]>) -> (*const core::ffi::c_void, usize) {
    match id {
        None => (core::ptr::null(), 0),
        Some(id) => (id.as_ptr().cast(), id.len()),
    }
}

/// A signature as raw r || s (64 bytes), as GB/T 32918.2 clause 6.1 outputs
/// it and RFC 8998's TLS does not use (TLS carries [`DerSignature`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Signature(pub(crate) [u8; 64]);

impl Signature {
    /// From r || s (no range check: verification rejects r, s out of [1, n-1]).
    pub fn from_bytes(bytes: [u8; 64]) -> Self {
        Signature(bytes)
    }
    /// r || s.
    pub fn to_bytes(&self) -> [u8; 64] {
        self.0
    }
    /// Strict DER (GM/T 0009 SM2Signature).
    pub fn to_der(&self) -> DerSignature {
        let mut d = DerSignature { bytes: [0; sys::FASTSM2_SIG_DER_MAX], len: 0 };
        let mut len = d.bytes.len();
        // SAFETY: buffers of the sizes given.
        let rc = unsafe { sys::fastsm2_sig_to_der(d.bytes.as_mut_ptr(), &mut len, self.0.as_ptr()) };
        assert_eq!(rc, sys::FASTSM2_OK, "fastsm2_sig_to_der of 64 bytes cannot fail");
        d.len = len as u8;
        d
    }
    /// Decode a strict-DER signature (r and s in [1, n-1]).
    pub fn from_der(der: &[u8]) -> Result<Self> {
        let mut sig = [0u8; 64];
        // SAFETY: buffers of the sizes given.
        check(unsafe { sys::fastsm2_sig_from_der(sig.as_mut_ptr(), der.as_ptr(), der.len()) })?;
        Ok(Signature(sig))
    }
}

impl core::fmt::Debug for Signature {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Signature(")?;
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

impl TryFrom<&[u8]> for Signature {
    type Error = signature::Error;
    fn try_from(b: &[u8]) -> core::result::Result<Self, signature::Error> {
        let arr: [u8; 64] = b.try_into().map_err(|_| signature::Error::from_source(Error::Length))?;
        Ok(Signature(arr))
    }
}

impl From<Signature> for [u8; 64] {
    fn from(s: Signature) -> Self {
        s.0
    }
}

impl SignatureEncoding for Signature {
    type Repr = [u8; 64];
}
