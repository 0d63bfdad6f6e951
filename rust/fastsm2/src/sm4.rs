// SPDX-License-Identifier: Apache-2.0
//! SM4 (GB/T 32907) and its modes over the library's constant-time SM4,
//! through RustCrypto's traits:
//!
//! - [`Sm4`]: the block cipher, `cipher`'s [`KeyInit`](cipher::KeyInit),
//!   [`BlockCipherEncrypt`](cipher::BlockCipherEncrypt) and
//!   [`BlockCipherDecrypt`](cipher::BlockCipherDecrypt) (so RustCrypto's
//!   generic modes, `cbc`, `ctr`, `gcm` in `aes-gcm`, `ccm`, `xts-mode`,
//!   take it);
//! - the modes in the library, each a single call per buffer:
//!   [`Sm4EcbEnc`]/[`Sm4EcbDec`], [`Sm4CbcEnc`]/[`Sm4CbcDec`] and
//!   [`Sm4CfbEnc`]/[`Sm4CfbDec`] (`cipher`'s
//!   [`BlockModeEncrypt`](cipher::BlockModeEncrypt) /
//!   [`BlockModeDecrypt`](cipher::BlockModeDecrypt) with
//!   [`KeyIvInit`](cipher::KeyIvInit)), [`Sm4Ctr`] and [`Sm4Ofb`]
//!   ([`StreamCipher`](cipher::StreamCipher), CTR with
//!   [`StreamCipherSeek`](cipher::StreamCipherSeek));
//! - the AEADs [`Sm4Gcm`] (SP 800-38D; TLS 1.3's `TLS_SM4_GCM_SM3`) and
//!   [`Sm4Ccm`] (SP 800-38C; `TLS_SM4_CCM_SM3`), 12-byte nonces and 16-byte
//!   tags ([`Gcm`] and [`Ccm`] for other sizes): `aead`'s
//!   [`AeadCore`](aead::AeadCore) and [`AeadInOut`](aead::AeadInOut), hence
//!   [`AeadInPlace`](aead::AeadInPlace) and [`Aead`](aead::Aead).
//!
//! Keys, round keys, GCM's hash key and plaintexts never choose a branch
//! or an address in the library, on any backend ([`backend_name`] says
//! which runs); a failed tag releases no plaintext (the buffer is zeroed);
//! keys and contexts are wiped when dropped.
//!
//! ```
//! use fastsm2::sm4::{Sm4Gcm, aead::{Aead, AeadCore, KeyInit}};
//! let cipher = Sm4Gcm::new(&[0x42; 16].into());
//! let nonce = [7u8; 12].into();                       // unique per message under one key
//! let ct = cipher.encrypt(&nonce, &b"data"[..]).unwrap();   // data || 16-byte tag
//! assert_eq!(cipher.decrypt(&nonce, &ct[..]).unwrap(), b"data");
//! ```
use core::fmt;

use fastsm2_sys as sys;

mod aead_impl;
mod block;
mod modes;

pub use aead_impl::{Ccm, Gcm, Sm4Ccm, Sm4Gcm};
pub use block::Sm4;
pub use modes::{Sm4CbcDec, Sm4CbcEnc, Sm4CfbDec, Sm4CfbEnc, Sm4Ctr, Sm4EcbDec, Sm4EcbEnc, Sm4Ofb};

pub use aead;
pub use cipher;

/// The SM4 implementation the library picked for this CPU ("generic",
/// "avx2-aesni", ...); `FASTSM2_SM4=<name>` or `FASTSM2_CPU=generic`
/// force one.
pub fn backend_name() -> &'static str {
    // SAFETY: a static NUL-terminated string.
    unsafe { std::ffi::CStr::from_ptr(sys::fastsm2_sm4_backend_name()) }.to_str().unwrap_or("?")
}

/// The SM4 implementations this CPU can run.
pub fn available_backends() -> Vec<&'static str> {
    let mut v = Vec::new();
    for i in 0.. {
        // SAFETY: NULL past the last; otherwise a static string.
        let p = unsafe { sys::fastsm2_sm4_backend_available(i) };
        if p.is_null() {
            break;
        }
        // SAFETY: as above.
        v.push(unsafe { std::ffi::CStr::from_ptr(p) }.to_str().unwrap_or("?"));
    }
    v
}

/// An expanded key (GB/T 32907 clause 7.3, and GCM's hash key), boxed so
/// that moves do not leave copies; wiped when dropped.
pub(crate) struct Key(Box<sys::fastsm2_sm4_key>);

impl Key {
    pub(crate) fn new(k: &[u8; 16]) -> Self {
        let mut raw = Box::new(sys::fastsm2_sm4_key { opaque: [0; 72] });
        // SAFETY: raw writable, k 16 bytes.
        let rc = unsafe { sys::fastsm2_sm4_key_init(&mut *raw, k.as_ptr()) };
        assert_eq!(rc, sys::FASTSM2_OK, "fastsm2_sm4_key_init of 16 bytes cannot fail");
        Key(raw)
    }

    pub(crate) fn raw(&self) -> &sys::fastsm2_sm4_key {
        &self.0
    }
}

impl Clone for Key {
    fn clone(&self) -> Self {
        Key(Box::new(*self.0))
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        // SAFETY: wipes the key in place.
        unsafe { sys::fastsm2_sm4_key_clear(&mut *self.0) };
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Key { .. }")
    }
}
