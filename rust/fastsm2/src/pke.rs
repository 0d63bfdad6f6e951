// SPDX-License-Identifier: Apache-2.0
//! SM2 public-key encryption (GB/T 32918.4): a [`VerifyingKey`](crate::VerifyingKey)
//! encrypts, a [`SigningKey`](crate::SigningKey) decrypts, and every call
//! names its [`CiphertextFormat`]. Laid out as RustCrypto's `sm2::pke`.
use fastsm2_sys as sys;

mod decrypting;
mod encrypting;

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
    pub(crate) fn flags(self) -> i32 {
        match self {
            CiphertextFormat::Der => sys::FASTSM2_CT_DER,
            CiphertextFormat::RawC1C3C2 => sys::FASTSM2_CT_RAW | sys::FASTSM2_CT_C1C3C2,
            CiphertextFormat::RawC1C2C3 => sys::FASTSM2_CT_RAW | sys::FASTSM2_CT_C1C2C3,
        }
    }
}
