// SPDX-License-Identifier: Apache-2.0
//! Encryption, GB/T 32918.4 clause 6.1.
use super::CiphertextFormat;
use crate::dsa::VerifyingKey;
use crate::error::{check, Result};
use fastsm2_sys as sys;

impl VerifyingKey {
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
}
