// SPDX-License-Identifier: Apache-2.0
//! Session tickets: SM4-GCM (the library's) under a random key made with
//! the ticketer.
use std::time::Duration;

use fastsm2::sm4::aead::{AeadInOut, KeyInit};
use rustls::crypto::{GetRandomFailed, TicketProducer};
use rustls::Error;

use crate::tls13::{Sm4Gcm, TAG_LEN};

pub(crate) struct Ticketer {
    cipher: Sm4Gcm,
}

impl Ticketer {
    pub(crate) fn new() -> Result<Self, Error> {
        let mut key = zeroize::Zeroizing::new([0u8; 16]);
        getrandom::fill(&mut key[..]).map_err(|_| GetRandomFailed)?;
        Ok(Ticketer { cipher: Sm4Gcm::new_from_slice(&key[..]).expect("16-byte key") })
    }
}

impl TicketProducer for Ticketer {
    fn encrypt(&self, plain: &[u8]) -> Option<Vec<u8>> {
        let mut nonce = [0u8; 12];
        getrandom::fill(&mut nonce).ok()?;
        let mut out = Vec::with_capacity(12 + plain.len() + TAG_LEN);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(plain);
        let tag = self.cipher.encrypt_inout_detached(&nonce.into(), b"", out[12..].as_mut().into()).ok()?;
        out.extend_from_slice(&tag);
        Some(out)
    }
    fn decrypt(&self, cipher: &[u8]) -> Option<Vec<u8>> {
        if cipher.len() < 12 + TAG_LEN {
            return None;
        }
        let (nonce, rest) = cipher.split_at(12);
        let (body, tag) = rest.split_at(rest.len() - TAG_LEN);
        let nonce: [u8; 12] = nonce.try_into().ok()?;
        let tag = fastsm2::sm4::aead::Tag::<Sm4Gcm>::try_from(tag).ok()?;
        let mut plain = body.to_vec();
        self.cipher.decrypt_inout_detached(&nonce.into(), b"", plain.as_mut_slice().into(), &tag).ok()?;
        Some(plain)
    }
    fn lifetime(&self) -> Duration {
        Duration::from_secs(6 * 3600)
    }
}

impl core::fmt::Debug for Ticketer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Ticketer")
    }
}
