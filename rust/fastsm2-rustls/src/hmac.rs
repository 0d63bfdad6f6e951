// SPDX-License-Identifier: Apache-2.0
//! HMAC-SM3 (RFC 2104 over GB/T 32905), the library's: rustls builds
//! HKDF over it (`HkdfUsingHmac`).
use rustls::crypto::hmac;

/// HMAC-SM3 (the library's).
pub const HMAC_SM3: &dyn hmac::Hmac = &Sm3Hmac;

pub(crate) struct Sm3Hmac;

impl hmac::Hmac for Sm3Hmac {
    fn with_key(&self, key: &[u8]) -> Box<dyn hmac::Key> {
        Box::new(Sm3HmacKey(fastsm2::HmacSm3::new(key)))
    }
    fn hash_output_len(&self) -> usize {
        32
    }
}

struct Sm3HmacKey(fastsm2::HmacSm3);

impl hmac::Key for Sm3HmacKey {
    fn sign_concat(&self, first: &[u8], middle: &[&[u8]], last: &[u8]) -> hmac::Tag {
        let mut m = self.0.clone();
        m.update(first);
        for x in middle {
            m.update(x);
        }
        m.update(last);
        hmac::Tag::new(&m.finalize())
    }
    fn tag_len(&self) -> usize {
        32
    }
}
