// SPDX-License-Identifier: Apache-2.0
//! Decryption, GB/T 32918.4 clause 7.1: the C3 check before any plaintext
//! is released.
use super::CiphertextFormat;
use crate::dsa::SigningKey;
use crate::error::{check, Result};
use fastsm2_sys as sys;
use zeroize::Zeroizing;

impl SigningKey {
    /// Decrypt a ciphertext in `format` (GB/T 32918.4 7.1); Error::Decrypt
    /// when C3 does not match (no plaintext is released). The plaintext is
    /// wiped when dropped.
    pub fn decrypt(&self, ct: &[u8], format: CiphertextFormat) -> Result<Zeroizing<Vec<u8>>> {
        let mut out = Zeroizing::new(vec![0u8; ct.len()]);
        let mut len = out.len();
        // SAFETY: out holds ct.len() bytes (more than any plaintext).
        check(unsafe {
            sys::fastsm2_decrypt(out.as_mut_ptr(), &mut len, &*self.raw, ct.as_ptr(), ct.len(), format.flags())
        })?;
        out.truncate(len);
        Ok(out)
    }
}
