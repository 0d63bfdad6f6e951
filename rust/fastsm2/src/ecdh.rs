// SPDX-License-Identifier: Apache-2.0
//! Plain ECDH on sm2p256v1 (`fastsm2_ecdh`): RFC 8998's curveSM2 in TLS 1.3.
//! The GB/T 32918.3 key exchange is [`KeyExchange`](crate::KeyExchange).
use crate::dsa::SigningKey;
use crate::error::{check, Result};
use fastsm2_sys as sys;
use zeroize::Zeroizing;

impl SigningKey {
    /// ECDH: the x-coordinate of [d]P for the peer's SEC1 point P (RFC 8998
    /// curveSM2 in TLS 1.3). Not a key: derive keys from it.
    pub fn diffie_hellman(&self, peer_sec1: &[u8]) -> Result<Zeroizing<[u8; 32]>> {
        let mut out = Zeroizing::new([0u8; 32]);
        // SAFETY: 32 bytes out; peer readable.
        check(unsafe { sys::fastsm2_ecdh(out.as_mut_ptr(), &*self.raw, peer_sec1.as_ptr(), peer_sec1.len()) })?;
        Ok(out)
    }
}
