// SPDX-License-Identifier: Apache-2.0
//! SM2 private keys (GB/T 32918.1) and signing (GB/T 32918.2 clause 6),
//! with their PKCS#8 and SEC1 encodings. Wiped when dropped.
use super::{id_ptr, DerSignature, Signature, VerifyingKey};
use crate::error::{check, Error, Result};
use fastsm2_sys as sys;
use pkcs8::der::Encode;
use signature::{Keypair, Signer};
use zeroize::Zeroizing;

/// An SM2 private key d in [1, n-2] with its public key and a signer ID
/// (the default unless set). Wiped when dropped.
pub struct SigningKey {
    pub(crate) raw: Box<sys::fastsm2_privkey>,
    pub(crate) public: VerifyingKey,
}

impl SigningKey {
    fn wrap(raw: Box<sys::fastsm2_privkey>) -> Result<Self> {
        let mut public = VerifyingKey::empty();
        // SAFETY: both valid.
        check(unsafe { sys::fastsm2_privkey_pubkey(&mut *public, &*raw) })?;
        Ok(SigningKey { raw, public: VerifyingKey { raw: public } })
    }

    fn empty() -> Box<sys::fastsm2_privkey> {
        Box::new(sys::fastsm2_privkey { opaque: [0; 48] })
    }

    /// A new key from the OS random generator (GB/T 32918.1 6.1).
    pub fn generate() -> Result<Self> {
        let mut raw = Self::empty();
        // SAFETY: raw writable.
        check(unsafe { sys::fastsm2_privkey_generate(&mut *raw) })?;
        Self::wrap(raw)
    }

    /// From d, 32 bytes big-endian; Error::PrivateKey unless 1 <= d <= n-2.
    pub fn from_bytes(d: &[u8; 32]) -> Result<Self> {
        let mut raw = Self::empty();
        // SAFETY: raw writable, d 32 bytes.
        check(unsafe { sys::fastsm2_privkey_from_bytes(&mut *raw, d.as_ptr()) })?;
        Self::wrap(raw)
    }

    /// From a slice that must be 32 bytes.
    pub fn from_slice(d: &[u8]) -> Result<Self> {
        let d: &[u8; 32] = d.try_into().map_err(|_| Error::Length)?;
        Self::from_bytes(d)
    }

    /// d as 32 bytes big-endian, wiped when dropped.
    pub fn to_bytes(&self) -> Zeroizing<[u8; 32]> {
        let mut d = Zeroizing::new([0u8; 32]);
        // SAFETY: 32 bytes.
        let rc = unsafe { sys::fastsm2_privkey_to_bytes(d.as_mut_ptr(), &*self.raw) };
        assert_eq!(rc, sys::FASTSM2_OK);
        d
    }

    /// A private key file: PKCS#8 or SEC1, PEM or DER (not encrypted).
    pub fn from_key_file(bytes: &[u8]) -> Result<Self> {
        let mut raw = Self::empty();
        // SAFETY: raw writable, bytes readable.
        check(unsafe { sys::fastsm2_privkey_parse(&mut *raw, bytes.as_ptr(), bytes.len()) })?;
        Self::wrap(raw)
    }

    /// Set the signer ID (1..8191 bytes) used by [`Signer::sign`] and kept
    /// by the verifying key.
    pub fn with_id(mut self, id: &[u8]) -> Result<Self> {
        // SAFETY: id readable (non-NULL).
        check(unsafe { sys::fastsm2_privkey_set_id(&mut *self.raw, id.as_ptr().cast(), id.len()) })?;
        // SAFETY: id readable (non-NULL).
        check(unsafe { sys::fastsm2_pubkey_set_id(&mut *self.public.raw, id.as_ptr().cast(), id.len()) })?;
        Ok(self)
    }

    /// The public key.
    pub fn verifying_key(&self) -> &VerifyingKey {
        &self.public
    }

    /// Sign `msg` with signer ID `id` (None: the key's), a fresh nonce.
    pub fn sign_with_id(&self, id: Option<&[u8]>, msg: &[u8]) -> Result<Signature> {
        let mut sig = [0u8; 64];
        let (p, n) = id_ptr(id);
        // SAFETY: buffers valid.
        check(unsafe { sys::fastsm2_sign(sig.as_mut_ptr(), &*self.raw, p, n, msg.as_ptr().cast(), msg.len()) })?;
        Ok(Signature(sig))
    }

    /// Sign a digest e = SM3(Z_A || M) (GB/T 32918.2 6.1 A3-A7).
    pub fn sign_digest(&self, e: &[u8; 32]) -> Result<Signature> {
        let mut sig = [0u8; 64];
        // SAFETY: 64 and 32 bytes.
        check(unsafe { sys::fastsm2_sign_digest(sig.as_mut_ptr(), &*self.raw, e.as_ptr()) })?;
        Ok(Signature(sig))
    }

    fn serialize(&self, fmt: i32) -> Result<Zeroizing<Vec<u8>>> {
        let mut out = Zeroizing::new(vec![0u8; 512]);
        let mut len = out.len();
        // SAFETY: out has len bytes.
        check(unsafe { sys::fastsm2_privkey_serialize(out.as_mut_ptr(), &mut len, &*self.raw, fmt) })?;
        out.truncate(len);
        Ok(out)
    }

    pub(crate) fn raw(&self) -> &sys::fastsm2_privkey {
        &self.raw
    }
}

impl Drop for SigningKey {
    fn drop(&mut self) {
        // SAFETY: wipes the key in place.
        unsafe { sys::fastsm2_privkey_clear(&mut *self.raw) };
    }
}

impl Clone for SigningKey {
    fn clone(&self) -> Self {
        SigningKey { raw: Box::new(*self.raw), public: self.public.clone() }
    }
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SigningKey").field("public", &self.public).finish_non_exhaustive()
    }
}

impl Signer<Signature> for SigningKey {
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        Ok(self.sign_with_id(None, msg)?)
    }
}

impl Signer<DerSignature> for SigningKey {
    fn try_sign(&self, msg: &[u8]) -> signature::Result<DerSignature> {
        Ok(self.sign_with_id(None, msg)?.to_der())
    }
}

impl AsRef<VerifyingKey> for SigningKey {
    fn as_ref(&self) -> &VerifyingKey {
        &self.public
    }
}

impl Keypair for SigningKey {
    type VerifyingKey = VerifyingKey;
    fn verifying_key(&self) -> VerifyingKey {
        self.public.clone()
    }
}

impl TryFrom<pkcs8::PrivateKeyInfoRef<'_>> for SigningKey {
    type Error = pkcs8::Error;
    fn try_from(info: pkcs8::PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        let der = Zeroizing::new(info.to_der()?);
        Ok(SigningKey::from_key_file(&der)?)
    }
}

impl pkcs8::EncodePrivateKey for SigningKey {
    fn to_pkcs8_der(&self) -> pkcs8::Result<pkcs8::SecretDocument> {
        let der = self.serialize(sys::FASTSM2_KEYFMT_PKCS8 | sys::FASTSM2_KEYFMT_DER)?;
        Ok(pkcs8::SecretDocument::try_from(&der[..])?)
    }
}

impl sec1::DecodeEcPrivateKey for SigningKey {
    fn from_sec1_der(bytes: &[u8]) -> sec1::Result<Self> {
        // Parsed by the sec1 crate first (structure), then by the library
        // (curve, range, the embedded public key).
        let _parsed = sec1::EcPrivateKey::try_from(bytes)?;
        Ok(SigningKey::from_key_file(bytes)?)
    }
}

impl sec1::EncodeEcPrivateKey for SigningKey {
    fn to_sec1_der(&self) -> sec1::Result<sec1::der::SecretDocument> {
        let der = self.serialize(sys::FASTSM2_KEYFMT_SEC1 | sys::FASTSM2_KEYFMT_DER)?;
        Ok(sec1::der::SecretDocument::try_from(&der[..])?)
    }
}
