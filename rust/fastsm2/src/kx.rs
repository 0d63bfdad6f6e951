// SPDX-License-Identifier: Apache-2.0
//! Key exchange, GB/T 32918.3 clause 6.1, with the optional confirmations.
use crate::error::{check, Error, Result};
use crate::dsa::{SigningKey, VerifyingKey};
use fastsm2_sys as sys;
use zeroize::Zeroizing;

/// Which side of the exchange this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// User A.
    Initiator,
    /// User B.
    Responder,
}

/// One side of a GB/T 32918.3 key exchange: [`start`](Self::start) sends R,
/// [`compute`](Self::compute) takes the peer's R and derives the key, the
/// confirmations are optional. Wiped when dropped.
pub struct KeyExchange {
    ctx: Box<sys::fastsm2_kx_ctx>,
}

impl KeyExchange {
    /// Set up with the own key and ID and the peer's public key and ID
    /// (None: that key's ID, the default unless set).
    pub fn new(
        role: Role,
        own: &SigningKey,
        own_id: Option<&[u8]>,
        peer: &VerifyingKey,
        peer_id: Option<&[u8]>,
    ) -> Result<Self> {
        let mut ctx = Box::new(sys::fastsm2_kx_ctx { opaque: [0; 96] });
        let r = match role {
            Role::Initiator => sys::FASTSM2_KX_INITIATOR,
            Role::Responder => sys::FASTSM2_KX_RESPONDER,
        };
        let (ip, il) = own_id.map_or((std::ptr::null(), 0), |i| (i.as_ptr().cast(), i.len()));
        let (pp, pl) = peer_id.map_or((std::ptr::null(), 0), |i| (i.as_ptr().cast(), i.len()));
        // SAFETY: all pointers valid for their lengths.
        check(unsafe { sys::fastsm2_kx_init(&mut *ctx, r, own.raw(), ip, il, peer.raw(), pp, pl) })?;
        Ok(KeyExchange { ctx })
    }

    /// Draw r and return R = rG (65 bytes) to send to the peer.
    pub fn start(&mut self) -> Result<[u8; 65]> {
        let mut r = [0u8; 65];
        // SAFETY: 65 bytes.
        check(unsafe { sys::fastsm2_kx_start(&mut *self.ctx, r.as_mut_ptr()) })?;
        Ok(r)
    }

    /// Take the peer's R and derive `klen` bytes of shared key (1..65536).
    pub fn compute(&mut self, peer_r: &[u8], klen: usize) -> Result<Zeroizing<Vec<u8>>> {
        if klen == 0 {
            return Err(Error::Length);
        }
        let mut key = Zeroizing::new(vec![0u8; klen]);
        // SAFETY: key has klen bytes, peer_r readable.
        check(unsafe {
            sys::fastsm2_kx_compute(&mut *self.ctx, key.as_mut_ptr(), klen, peer_r.as_ptr(), peer_r.len())
        })?;
        Ok(key)
    }

    /// The confirmation this side sends (S_B for the responder, S_A for the initiator).
    pub fn confirmation(&self) -> Result<[u8; 32]> {
        let mut out = [0u8; 32];
        // SAFETY: 32 bytes.
        check(unsafe { sys::fastsm2_kx_confirmation(out.as_mut_ptr(), &*self.ctx) })?;
        Ok(out)
    }

    /// Check the peer's confirmation (constant-time compare); Error::Confirm on a mismatch.
    pub fn verify_confirmation(&self, peer: &[u8; 32]) -> Result<()> {
        // SAFETY: 32 bytes.
        check(unsafe { sys::fastsm2_kx_verify_confirmation(&*self.ctx, peer.as_ptr()) })
    }
}

impl Drop for KeyExchange {
    fn drop(&mut self) {
        // SAFETY: wipes the context.
        unsafe { sys::fastsm2_kx_clear(&mut *self.ctx) };
    }
}
