// SPDX-License-Identifier: Apache-2.0
//! SM2, SM3 and SM4 (GB/T 32918, GB/T 32905, GB/T 32907) over libfastsm2,
//! in RustCrypto's idiom:
//!
//! - [`SigningKey`] / [`VerifyingKey`]: the `signature` crate's [`Signer`],
//!   [`Verifier`] and [`Keypair`] for fixed-size ([`Signature`], r || s) and
//!   DER ([`DerSignature`]) signatures; keys in PKCS#8, SEC1 and SPKI through
//!   the `pkcs8`, `sec1` and `spki` crates' traits; with the `sm2` feature,
//!   conversions to and from the `sm2` crate's types.
//! - [`Sm3`]: the `digest` crate's traits (so `hmac`, `hkdf` take it).
//! - [`sm4`]: the SM4 block cipher and its modes through the `cipher`
//!   crate's traits, [`Sm4Gcm`] and [`Sm4Ccm`] through the `aead` crate's.
//! - Encryption (GB/T 32918.4) with the ciphertext format named at each call
//!   ([`CiphertextFormat`]); key exchange (GB/T 32918.3, [`KeyExchange`]);
//!   plain ECDH ([`SigningKey::diffie_hellman`], RFC 8998's curveSM2).
//! - Secrets are wiped when dropped; failures are [`Error`] values.
//!
//! ```
//! use fastsm2::{SigningKey, Signature, signature::{Signer, Verifier, Keypair}};
//! let key = SigningKey::generate().unwrap();
//! let sig: Signature = key.sign(b"message");
//! key.verifying_key().verify(b"message", &sig).unwrap();
//! ```
#![forbid(unsafe_op_in_unsafe_fn)]

pub mod dsa;
mod ecdh;
mod error;
mod kx;
pub mod pke;
mod sm3;
pub mod sm4;
#[cfg(feature = "sm2")]
mod convert;

pub use dsa::{DerSignature, Signature, SigningKey, VerifyingKey};
pub use error::{Error, Result};
pub use kx::{KeyExchange, Role};
pub use pke::CiphertextFormat;
pub use sm3::{hmac_sm3, HmacSm3, Sm3};
pub use sm4::{Sm4, Sm4Ccm, Sm4Gcm};

pub use digest;
pub use pkcs8;
pub use sec1;
pub use signature;
pub use spki;

/// The curve sm2p256v1 (GM/T 0006): 1.2.156.10197.1.301.
pub const SM2_OID: pkcs8::ObjectIdentifier = pkcs8::ObjectIdentifier::new_unwrap("1.2.156.10197.1.301");
/// SM2 signature with SM3 (GM/T 0006): 1.2.156.10197.1.501.
pub const SM2_SM3_OID: pkcs8::ObjectIdentifier = pkcs8::ObjectIdentifier::new_unwrap("1.2.156.10197.1.501");

/// The signer ID used when none is set (GB/T 32918.2, GM/T 0009):
/// `1234567812345678`, also RFC 8998's for TLS 1.3.
pub const DEFAULT_ID: &[u8] = b"1234567812345678";

/// The library's version string (libfastsm2's `fastsm2_version`).
pub fn version() -> &'static str {
    // SAFETY: a static NUL-terminated string.
    unsafe { std::ffi::CStr::from_ptr(fastsm2_sys::fastsm2_version()) }.to_str().unwrap_or("?")
}

/// The CPU backend the library chose at start-up (`FASTSM2_CPU` forces one).
pub fn backend_name() -> &'static str {
    // SAFETY: a static NUL-terminated string.
    unsafe { std::ffi::CStr::from_ptr(fastsm2_sys::fastsm2_backend_name()) }.to_str().unwrap_or("?")
}
