// SPDX-License-Identifier: Apache-2.0
//! SM4-GCM (NIST SP 800-38D) and SM4-CCM (NIST SP 800-38C) through the
//! `aead` crate's traits: one library call per message, in place or
//! buffer to buffer; a bad tag zeroes the buffer.
use core::fmt;
use core::marker::PhantomData;

use aead::array::{Array, ArraySize};
use aead::consts::{U12, U16};
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, Nonce, Tag, TagPosition};
use fastsm2_sys as sys;

use super::Key as Sm4Key;

/// SM4-GCM with a 12-byte nonce and a 16-byte tag: TLS 1.3's
/// `TLS_SM4_GCM_SM3` (RFC 8998) and OpenSSL's SM4-GCM. The same bytes as
/// RustCrypto's `aes_gcm::AesGcm<sm4::Sm4, U12>`.
pub type Sm4Gcm = Gcm<U12, U16>;

/// SM4-CCM with a 12-byte nonce and a 16-byte tag: TLS 1.3's
/// `TLS_SM4_CCM_SM3` (RFC 8998). The same bytes as RustCrypto's
/// `ccm::Ccm<sm4::Sm4, U16, U12>`.
pub type Sm4Ccm = Ccm<U16, U12>;

/// SM4-GCM (SP 800-38D with GB/T 32907) of any sizes: `NonceSize` 12
/// bytes (recommended) or any other non-zero length (hashed, SP 800-38D
/// 7.1); `TagSize` 16 bytes, or down to 4 (12 to 16 is the safe range, SP
/// 800-38D 5.2.1.2). The same bytes as RustCrypto's
/// `aes_gcm::AesGcm<sm4::Sm4, NonceSize, TagSize>`.
pub struct Gcm<NonceSize, TagSize> {
    key: Sm4Key,
    sizes: PhantomData<(NonceSize, TagSize)>,
}

/// SM4-CCM (SP 800-38C / RFC 3610 with GB/T 32907) of any sizes:
/// `TagSize` 4, 6, ..., 16 bytes; `NonceSize` 7 to 13 bytes. The same
/// bytes as RustCrypto's `ccm::Ccm<sm4::Sm4, TagSize, NonceSize>`.
pub struct Ccm<TagSize, NonceSize> {
    key: Sm4Key,
    sizes: PhantomData<(TagSize, NonceSize)>,
}

impl<N: ArraySize, T: ArraySize> Gcm<N, T> {
    const SIZES_OK: () = assert!(N::USIZE >= 1 && T::USIZE >= 4 && T::USIZE <= 16, "SM4-GCM: nonce >= 1 byte, tag 4 to 16 bytes");
}

impl<T: ArraySize, N: ArraySize> Ccm<T, N> {
    const SIZES_OK: () = assert!(
        N::USIZE >= 7 && N::USIZE <= 13 && T::USIZE >= 4 && T::USIZE <= 16 && T::USIZE % 2 == 0,
        "SM4-CCM: nonce 7..=13, tag 4, 6, ..., 16"
    );
}

macro_rules! aead_common {
    ($name:ident, $a:ident, $b:ident, $nonce:ident, $tag:ident, $alg:expr) => {
        impl<$a: ArraySize, $b: ArraySize> KeySizeUser for $name<$a, $b> {
            type KeySize = U16;
        }
        impl<$a: ArraySize, $b: ArraySize> KeyInit for $name<$a, $b> {
            fn new(key: &Key<Self>) -> Self {
                #[allow(clippy::let_unit_value)]
                let () = Self::SIZES_OK;
                $name { key: Sm4Key::new(&(*key).into()), sizes: PhantomData }
            }
        }
        impl<$a: ArraySize, $b: ArraySize> AeadCore for $name<$a, $b> {
            type NonceSize = $nonce;
            type TagSize = $tag;
            const TAG_POSITION: TagPosition = TagPosition::Postfix;
        }
        impl<$a: ArraySize, $b: ArraySize> Clone for $name<$a, $b> {
            fn clone(&self) -> Self {
                $name { key: self.key.clone(), sizes: PhantomData }
            }
        }
        impl<$a: ArraySize, $b: ArraySize> fmt::Debug for $name<$a, $b> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}<{}, {}> {{ .. }}", $alg, $a::USIZE, $b::USIZE)
            }
        }
        impl<$a: ArraySize, $b: ArraySize> zeroize::ZeroizeOnDrop for $name<$a, $b> {}
    };
}
aead_common!(Gcm, N, T, N, T, "Gcm");
aead_common!(Ccm, T, N, N, T, "Ccm");

type GcmFn = unsafe extern "C" fn(
    *mut u8,
    *mut u8,
    usize,
    *const sys::fastsm2_sm4_key,
    *const u8,
    usize,
    *const u8,
    usize,
    *const u8,
    usize,
) -> core::ffi::c_int;
type GcmDecFn = unsafe extern "C" fn(
    *mut u8,
    *const sys::fastsm2_sm4_key,
    *const u8,
    usize,
    *const u8,
    usize,
    *const u8,
    usize,
    *const u8,
    usize,
) -> core::ffi::c_int;

/// One authenticated encryption through `f` (GCM's or CCM's), the tag out.
fn seal<T: ArraySize>(
    f: GcmFn,
    key: &Sm4Key,
    nonce: &[u8],
    aad: &[u8],
    buf: InOutBuf<'_, '_, u8>,
) -> aead::Result<Array<u8, T>> {
    let mut tag = Array::<u8, T>::default();
    let n = buf.len();
    let (i, o) = buf.into_raw();
    // SAFETY: n bytes readable at i and writable at o (the same or apart);
    // tag, nonce and aad of their lengths.
    let rc = unsafe {
        f(o, tag.as_mut_ptr(), T::USIZE, key.raw(), nonce.as_ptr(), nonce.len(), aad.as_ptr(), aad.len(), i, n)
    };
    if rc == sys::FASTSM2_OK {
        Ok(tag)
    } else {
        Err(aead::Error)
    }
}

/// One authenticated decryption through `f`: the buffer decrypted only if
/// the tag matches, else zeroed by the library.
fn open(f: GcmDecFn, key: &Sm4Key, nonce: &[u8], aad: &[u8], buf: InOutBuf<'_, '_, u8>, tag: &[u8]) -> aead::Result<()> {
    let n = buf.len();
    let (i, o) = buf.into_raw();
    // SAFETY: as seal.
    let rc = unsafe {
        f(o, key.raw(), nonce.as_ptr(), nonce.len(), aad.as_ptr(), aad.len(), i, n, tag.as_ptr(), tag.len())
    };
    if rc == sys::FASTSM2_OK {
        Ok(())
    } else {
        Err(aead::Error)
    }
}

impl<N: ArraySize, T: ArraySize> AeadInOut for Gcm<N, T> {
    fn encrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
    ) -> aead::Result<Tag<Self>> {
        seal::<T>(sys::fastsm2_sm4_gcm_encrypt, &self.key, nonce, associated_data, buffer)
    }

    fn decrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
        tag: &Tag<Self>,
    ) -> aead::Result<()> {
        open(sys::fastsm2_sm4_gcm_decrypt, &self.key, nonce, associated_data, buffer, tag)
    }
}

impl<T: ArraySize, N: ArraySize> AeadInOut for Ccm<T, N> {
    fn encrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
    ) -> aead::Result<Tag<Self>> {
        seal::<T>(sys::fastsm2_sm4_ccm_encrypt, &self.key, nonce, associated_data, buffer)
    }

    fn decrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
        tag: &Tag<Self>,
    ) -> aead::Result<()> {
        open(sys::fastsm2_sm4_ccm_decrypt, &self.key, nonce, associated_data, buffer, tag)
    }
}
