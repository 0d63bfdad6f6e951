// SPDX-License-Identifier: Apache-2.0
//! SM2 keys (GB/T 32918.1), signatures (GB/T 32918.2), encryption
//! (GB/T 32918.4) and their encodings.
use crate::error::{check, Error, Result};
use fastsm2_sys as sys;
use pkcs8::der::Encode;
use pkcs8::ObjectIdentifier;
use signature::{Keypair, SignatureEncoding, Signer, Verifier};
use std::ptr;
use zeroize::Zeroizing;

/// The curve sm2p256v1 (GM/T 0006): 1.2.156.10197.1.301.
pub const SM2_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.301");
/// SM2 signature with SM3 (GM/T 0006): 1.2.156.10197.1.501.
pub const SM2_SM3_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.501");

fn id_ptr(id: Option<&[u8]>) -> (*const core::ffi::c_void, usize) {
    match id {
        None => (ptr::null(), 0),
        Some(id) => (id.as_ptr().cast(), id.len()),
    }
}

// ---------------------------------------------------------------------------
// Signatures

/// A signature as raw r || s (64 bytes), as GB/T 32918.2 clause 6.1 outputs
/// it and RFC 8998's TLS does not use (TLS carries [`DerSignature`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Signature([u8; 64]);

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

/// A signature in strict DER (GM/T 0009: SEQUENCE { INTEGER r, INTEGER s }),
/// what X.509 and TLS carry. At most 72 bytes.
#[derive(Clone, Copy)]
pub struct DerSignature {
    bytes: [u8; sys::FASTSM2_SIG_DER_MAX],
    len: u8,
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

// ---------------------------------------------------------------------------
// Public keys

/// A validated SM2 public key (on the curve, not infinity) with a signer ID
/// (the default `1234567812345678` unless set): verifies signatures,
/// encrypts. Cheap to clone? No: it holds 2.3 KB; share it by reference.
pub struct VerifyingKey {
    raw: Box<sys::fastsm2_pubkey>,
}

impl VerifyingKey {
    fn empty() -> Box<sys::fastsm2_pubkey> {
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

    /// Encrypt `msg` (at least 1 byte) in `format` (GB/T 32918.4 6.1).
    pub fn encrypt(&self, msg: &[u8], format: CiphertextFormat) -> Result<Vec<u8>> {
        let flags = format.flags();
        // SAFETY: pure function.
        let mut out = vec![0u8; unsafe { sys::fastsm2_ciphertext_size(msg.len(), flags) }];
        let mut len = out.len();
        // SAFETY: out has len bytes; msg readable.
        check(unsafe {
            sys::fastsm2_encrypt(out.as_mut_ptr(), &mut len, &*self.raw, msg.as_ptr().cast(), msg.len(), flags)
        })?;
        out.truncate(len);
        Ok(out)
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

// ---------------------------------------------------------------------------
// Private keys

/// An SM2 private key d in [1, n-2] with its public key and a signer ID
/// (the default unless set). Wiped when dropped.
pub struct SigningKey {
    raw: Box<sys::fastsm2_privkey>,
    public: VerifyingKey,
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

    /// Decrypt a ciphertext in `format` (GB/T 32918.4 7.1); Error::Decrypt
    /// when C3 does not match (no plaintext is released). The plaintext is
    /// wiped when dropped.
    pub fn decrypt(&self, ct: &[u8], format: CiphertextFormat) -> Result<Zeroizing<Vec<u8>>> {
        let mut out = Zeroizing::new(vec![0u8; ct.len()]);
        let mut len = out.len();
        // SAFETY: out holds ct.len() bytes (more than any plaintext).
        check(unsafe {
            sys::fastsm2_decrypt(out.as_mut_ptr(), &mut len, &*self.raw, ct.as_ptr(), ct.len(), format.flags())
        })?;
        out.truncate(len);
        Ok(out)
    }

    /// ECDH: the x-coordinate of [d]P for the peer's SEC1 point P (RFC 8998
    /// curveSM2 in TLS 1.3). Not a key: derive keys from it.
    pub fn diffie_hellman(&self, peer_sec1: &[u8]) -> Result<Zeroizing<[u8; 32]>> {
        let mut out = Zeroizing::new([0u8; 32]);
        // SAFETY: 32 bytes out; peer readable.
        check(unsafe { sys::fastsm2_ecdh(out.as_mut_ptr(), &*self.raw, peer_sec1.as_ptr(), peer_sec1.len()) })?;
        Ok(out)
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

// ---------------------------------------------------------------------------
// Encryption formats

/// How an SM2 ciphertext is laid out (GB/T 32918.4 and GM/T 0009). There is
/// no default: peers disagree, so each call names its format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CiphertextFormat {
    /// GM/T 0009 ASN.1: SEQUENCE { x, y, C3, C2 } (OpenSSL, GmSSL).
    Der,
    /// 04 || x || y || C3 || C2 (GB/T 32918.4-2016; the `sm2` crate's C1C3C2).
    RawC1C3C2,
    /// 04 || x || y || C2 || C3 (the 2010 draft; the `sm2` crate's C1C2C3).
    RawC1C2C3,
}

impl CiphertextFormat {
    fn flags(self) -> i32 {
        match self {
            CiphertextFormat::Der => sys::FASTSM2_CT_DER,
            CiphertextFormat::RawC1C3C2 => sys::FASTSM2_CT_RAW | sys::FASTSM2_CT_C1C3C2,
            CiphertextFormat::RawC1C2C3 => sys::FASTSM2_CT_RAW | sys::FASTSM2_CT_C1C2C3,
        }
    }
}

// ---------------------------------------------------------------------------
// The sm2 crate's types

#[cfg(feature = "sm2")]
mod sm2_conv {
    use super::*;
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
}
