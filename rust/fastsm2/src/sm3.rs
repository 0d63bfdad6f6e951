// SPDX-License-Identifier: Apache-2.0
//! SM3 (GB/T 32905) and HMAC-SM3 through the `digest` crate's traits.
use digest::consts::{U32, U64};
use digest::{FixedOutput, FixedOutputReset, HashMarker, Output, OutputSizeUser, Reset, Update};
use fastsm2_sys as sys;
use zeroize::Zeroize;

/// Streaming SM3 (GB/T 32905): `digest::Digest` through the blanket impls
/// of `Update`, `FixedOutput`, `Default` and `HashMarker`; usable as the
/// hash of `hmac::SimpleHmac` and `hkdf::SimpleHkdf`.
#[derive(Clone)]
pub struct Sm3 {
    ctx: sys::fastsm2_sm3_ctx,
}

impl Sm3 {
    /// A fresh hash.
    pub fn new() -> Self {
        let mut ctx = sys::fastsm2_sm3_ctx { opaque: [0; 14] };
        // SAFETY: ctx is a valid, writable context.
        unsafe { sys::fastsm2_sm3_init(&mut ctx) };
        Sm3 { ctx }
    }

    /// SM3 of `data` in one call.
    pub fn digest(data: &[u8]) -> [u8; 32] {
        let mut out = [0u8; 32];
        // SAFETY: out has 32 bytes; data is readable for its length.
        unsafe { sys::fastsm2_sm3(out.as_mut_ptr(), data.as_ptr().cast(), data.len()) };
        out
    }

    /// Write the digest into `out` and start over.
    pub fn finish_into(&mut self, out: &mut [u8; 32]) {
        // SAFETY: out has 32 bytes; final wipes ctx, init restarts it.
        unsafe {
            sys::fastsm2_sm3_final(out.as_mut_ptr(), &mut self.ctx);
            sys::fastsm2_sm3_init(&mut self.ctx);
        }
    }
}

impl Default for Sm3 {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Debug for Sm3 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Sm3 { .. }")
    }
}

impl HashMarker for Sm3 {}

impl OutputSizeUser for Sm3 {
    type OutputSize = U32;
}

impl digest::common::BlockSizeUser for Sm3 {
    type BlockSize = U64;
}

impl Update for Sm3 {
    fn update(&mut self, data: &[u8]) {
        // SAFETY: data is readable for its length.
        unsafe { sys::fastsm2_sm3_update(&mut self.ctx, data.as_ptr().cast(), data.len()) };
    }
}

impl FixedOutput for Sm3 {
    fn finalize_into(mut self, out: &mut Output<Self>) {
        // SAFETY: out holds 32 bytes.
        unsafe { sys::fastsm2_sm3_final(out.as_mut_ptr(), &mut self.ctx) };
    }
}

impl Reset for Sm3 {
    fn reset(&mut self) {
        // SAFETY: re-initialises the context.
        unsafe { sys::fastsm2_sm3_init(&mut self.ctx) };
    }
}

impl FixedOutputReset for Sm3 {
    fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
        // SAFETY: out holds 32 bytes.
        unsafe {
            sys::fastsm2_sm3_final(out.as_mut_ptr(), &mut self.ctx);
            sys::fastsm2_sm3_init(&mut self.ctx);
        }
    }
}

impl Drop for Sm3 {
    fn drop(&mut self) {
        self.ctx.opaque.zeroize();
    }
}

/// HMAC-SM3 (RFC 2104 over GB/T 32905), streaming; the key's pads are
/// wiped when it is finished or dropped.
#[derive(Clone)]
pub struct HmacSm3 {
    ctx: sys::fastsm2_hmac_sm3_ctx,
}

impl HmacSm3 {
    /// Start a MAC under `key` (any length).
    pub fn new(key: &[u8]) -> Self {
        let mut ctx = sys::fastsm2_hmac_sm3_ctx { opaque: [0; 32] };
        // SAFETY: ctx writable; key readable for its length (non-NULL even when empty).
        let rc = unsafe { sys::fastsm2_hmac_sm3_init(&mut ctx, key.as_ptr().cast(), key.len()) };
        debug_assert_eq!(rc, sys::FASTSM2_OK);
        HmacSm3 { ctx }
    }

    /// Absorb `data`.
    pub fn update(&mut self, data: &[u8]) {
        // SAFETY: data readable for its length.
        unsafe { sys::fastsm2_hmac_sm3_update(&mut self.ctx, data.as_ptr().cast(), data.len()) };
    }

    /// The 32-byte MAC.
    pub fn finalize(mut self) -> [u8; 32] {
        let mut out = [0u8; 32];
        // SAFETY: out holds 32 bytes.
        unsafe { sys::fastsm2_hmac_sm3_final(out.as_mut_ptr(), &mut self.ctx) };
        out
    }
}

impl Drop for HmacSm3 {
    fn drop(&mut self) {
        self.ctx.opaque.zeroize();
    }
}

/// HMAC-SM3 of `msg` under `key`, in one call.
pub fn hmac_sm3(key: &[u8], msg: &[u8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    // SAFETY: buffers valid for their lengths.
    let rc = unsafe {
        sys::fastsm2_hmac_sm3(out.as_mut_ptr(), key.as_ptr().cast(), key.len(), msg.as_ptr().cast(), msg.len())
    };
    debug_assert_eq!(rc, sys::FASTSM2_OK);
    out
}
