// SPDX-License-Identifier: Apache-2.0
//! SM2 public keys (GB/T 32918.1) and signature verification (GB/T 32918.2
//! clause 7), with their SPKI encoding.
use super::{id_ptr, DerSignature, Signature};
use crate::error::{check, Result};
use fastsm2_sys as sys;
use pkcs8::der::Encode;
use signature::Verifier;

/// A validated SM2 public key (on the curve, not infinity) with a signer ID
/// (the default `1234567812345678` unless set): verifies signatures,
/// encrypts. Cheap to clone? No: it holds 2.3 KB; share it by reference.
pub struct VerifyingKey {
    pub(crate) raw: Box<sys::fastsm2_pubkey>,
}

impl VerifyingKey {
    pub(crate) fn empty() -> Box<sys::fastsm2_pubkey> {
        Box::new(sys::fastsm2_pubkey { opaque: [0; 288] })
    }

    /// From a SEC1 point: 04 || x || y (65 bytes) or 02/03 || x (33 bytes).
    pub fn from_sec1_bytes(bytes: &[u8]) -> Result<Self> {
        let mut raw = Self::empty();
        // SAFETY: raw writable; bytes readable.
        check(unsafe { sys::fastsm2_pubkey_from_bytes(&mut *raw, bytes.as_ptr(), bytes.len()) })?;
        Ok(VerifyingKey { raw })
    }

    /// The SEC1 point, uncompressed (65 bytes) or compressed (33 bytes).
    pub fn to_sec1_bytes(&self, compressed: bool) -> Vec<u8> {
        let mut out = vec![0u8; 65];
        let mut len = out.len();
        // SAFETY: out holds 65 bytes.
        let rc = unsafe { sys::fastsm2_pubkey_to_bytes(out.as_mut_ptr(), &mut len, &*self.raw, compressed as i32) };
        assert_eq!(rc, sys::FASTSM2_OK);
        out.truncate(len);
        out
    }

    /// A public key file: SPKI PEM or DER (or a bare SEC1 point).
    pub fn from_public_key_file(bytes: &[u8]) -> Result<Self> {
        let mut raw = Self::empty();
        // SAFETY: as above.
        check(unsafe { sys::fastsm2_pubkey_parse(&mut *raw, bytes.as_ptr(), bytes.len()) })?;
        Ok(VerifyingKey { raw })
    }

    /// The public key of an X.509 certificate (PEM or DER). The certificate
    /// itself is NOT verified: this reads it as a container of a key.
    pub fn from_certificate(bytes: &[u8]) -> Result<Self> {
        let mut raw = Self::empty();
        // SAFETY: as above.
        check(unsafe { sys::fastsm2_pubkey_parse_certificate(&mut *raw, bytes.as_ptr(), bytes.len()) })?;
        Ok(VerifyingKey { raw })
    }

    /// Set the signer ID (1..8191 bytes) used by [`Verifier::verify`].
    pub fn with_id(mut self, id: &[u8]) -> Result<Self> {
        // SAFETY: id readable for its length (non-NULL).
        check(unsafe { sys::fastsm2_pubkey_set_id(&mut *self.raw, id.as_ptr().cast(), id.len()) })?;
        Ok(self)
    }

    /// Make the key's tables (2 KB, about half a verification's time) that
    /// speed up every later verification and encryption with it.
    pub fn precompute(&mut self) {
        // SAFETY: a valid key.
        let rc = unsafe { sys::fastsm2_pubkey_precompute(&mut *self.raw) };
        debug_assert_eq!(rc, sys::FASTSM2_OK);
    }

    /// Z_A (GB/T 32918.2 5.5) for `id`, or for the key's ID when None.
    pub fn compute_z(&self, id: Option<&[u8]>) -> Result<[u8; 32]> {
        let mut z = [0u8; 32];
        let (p, n) = id_ptr(id);
        // SAFETY: buffers valid.
        check(unsafe { sys::fastsm2_compute_z(z.as_mut_ptr(), &*self.raw, p, n) })?;
        Ok(z)
    }

    /// Verify a signature on `msg` with signer ID `id` (None: the key's).
    pub fn verify_with_id(&self, id: Option<&[u8]>, msg: &[u8], sig: &Signature) -> Result<()> {
        let (p, n) = id_ptr(id);
        // SAFETY: buffers valid for their lengths; sig 64 bytes.
        check(unsafe {
            sys::fastsm2_verify_status(&*self.raw, p, n, msg.as_ptr().cast(), msg.len(), sig.0.as_ptr())
        })
    }

    /// Verify a signature on a digest e = SM3(Z_A || M) (GB/T 32918.2 7.1 B3-B7).
    pub fn verify_digest(&self, e: &[u8; 32], sig: &Signature) -> Result<()> {
        // SAFETY: 32 and 64 bytes.
        check(unsafe { sys::fastsm2_verify_digest_status(&*self.raw, e.as_ptr(), sig.0.as_ptr()) })
    }

    pub(crate) fn raw(&self) -> &sys::fastsm2_pubkey {
        &self.raw
    }
}

impl Clone for VerifyingKey {
    fn clone(&self) -> Self {
        VerifyingKey { raw: Box::new(*self.raw) }
    }
}

impl PartialEq for VerifyingKey {
    fn eq(&self, other: &Self) -> bool {
        self.to_sec1_bytes(false) == other.to_sec1_bytes(false)
    }
}
impl Eq for VerifyingKey {}

impl core::fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "VerifyingKey({:02x?})", self.to_sec1_bytes(true))
    }
}

impl Verifier<Signature> for VerifyingKey {
    fn verify(&self, msg: &[u8], sig: &Signature) -> signature::Result<()> {
        Ok(self.verify_with_id(None, msg, sig)?)
    }
}

impl Verifier<DerSignature> for VerifyingKey {
    fn verify(&self, msg: &[u8], sig: &DerSignature) -> signature::Result<()> {
        Ok(self.verify_with_id(None, msg, &sig.to_raw())?)
    }
}

impl TryFrom<spki::SubjectPublicKeyInfoRef<'_>> for VerifyingKey {
    type Error = spki::Error;
    fn try_from(info: spki::SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        let der = info.to_der()?;
        Ok(VerifyingKey::from_public_key_file(&der)?)
    }
}

impl spki::EncodePublicKey for VerifyingKey {
    fn to_public_key_der(&self) -> spki::Result<spki::Document> {
        let mut out = vec![0u8; 256];
        let mut len = out.len();
        // SAFETY: out has len bytes.
        check(unsafe { sys::fastsm2_pubkey_serialize(out.as_mut_ptr(), &mut len, &*self.raw, sys::FASTSM2_KEYFMT_DER) })?;
        out.truncate(len);
        Ok(spki::Document::try_from(out)?)
    }
}
