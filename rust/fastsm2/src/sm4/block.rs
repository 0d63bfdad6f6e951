// SPDX-License-Identifier: Apache-2.0
//! The SM4 block cipher (GB/T 32907 clauses 7.1-7.3) through `cipher`'s
//! block-cipher traits.
use core::fmt;

use cipher::consts::{U16, U32};
use cipher::{
    AlgorithmName, Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt, BlockCipherEncBackend,
    BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, InOut, InOutBuf, Key, KeyInit, KeySizeUser, ParBlocks,
    ParBlocksSizeUser,
};
use fastsm2_sys as sys;

/// SM4, the block cipher: 128-bit key, 128-bit blocks. Blocks given
/// together (`encrypt_blocks`, RustCrypto's modes) go to the library 32 at
/// a time, where its backends work on 8 or 16 blocks at once.
#[derive(Clone)]
pub struct Sm4 {
    key: super::Key,
}

impl Sm4 {
    /// ECB encryption of whole blocks in place (`data.len()` a multiple of
    /// 16, else [`Error::Length`](crate::Error::Length)), one library call.
    pub fn encrypt_ecb_in_place(&self, data: &mut [u8]) -> crate::Result<()> {
        // SAFETY: in place, data.len() bytes.
        crate::error::check(unsafe {
            sys::fastsm2_sm4_ecb_encrypt(data.as_mut_ptr(), self.key.raw(), data.as_ptr(), data.len())
        })
    }

    /// ECB decryption of whole blocks in place, one library call.
    pub fn decrypt_ecb_in_place(&self, data: &mut [u8]) -> crate::Result<()> {
        // SAFETY: in place, data.len() bytes.
        crate::error::check(unsafe {
            sys::fastsm2_sm4_ecb_decrypt(data.as_mut_ptr(), self.key.raw(), data.as_ptr(), data.len())
        })
    }
}

impl KeySizeUser for Sm4 {
    type KeySize = U16;
}

impl KeyInit for Sm4 {
    fn new(key: &Key<Self>) -> Self {
        Sm4 { key: super::Key::new(&(*key).into()) }
    }
}

impl BlockSizeUser for Sm4 {
    type BlockSize = U16;
}

impl AlgorithmName for Sm4 {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SM4")
    }
}

impl fmt::Debug for Sm4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sm4 { .. }")
    }
}

impl zeroize::ZeroizeOnDrop for Sm4 {}

impl BlockCipherEncrypt for Sm4 {
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = U16>) {
        f.call(&Backend(self.key.raw()));
    }
}

impl BlockCipherDecrypt for Sm4 {
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
        f.call(&Backend(self.key.raw()));
    }
}

/// ECB over raw pointers: `n` blocks from `inp` to `out` (equal or apart,
/// as `InOut` guarantees).
fn ecb(key: &sys::fastsm2_sm4_key, enc: bool, inp: *const u8, out: *mut u8, n: usize) {
    // SAFETY: the caller's InOut/InOutBuf gives n readable blocks at inp and
    // n writable blocks at out, the same or disjoint.
    let rc = unsafe {
        if enc {
            sys::fastsm2_sm4_ecb_encrypt(out, key, inp, 16 * n)
        } else {
            sys::fastsm2_sm4_ecb_decrypt(out, key, inp, 16 * n)
        }
    };
    debug_assert_eq!(rc, sys::FASTSM2_OK);
}

struct Backend<'a>(&'a sys::fastsm2_sm4_key);

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U16;
}

impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U32;
}

impl BlockCipherEncBackend for Backend<'_> {
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        let (i, o) = block.into_raw();
        ecb(self.0, true, i.cast(), o.cast(), 1);
    }
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        let (i, o) = blocks.into_raw();
        ecb(self.0, true, i.cast(), o.cast(), 32);
    }
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        let n = blocks.len();
        let (i, o) = blocks.into_raw();
        ecb(self.0, true, i.cast(), o.cast(), n);
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        let (i, o) = block.into_raw();
        ecb(self.0, false, i.cast(), o.cast(), 1);
    }
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        let (i, o) = blocks.into_raw();
        ecb(self.0, false, i.cast(), o.cast(), 32);
    }
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        let n = blocks.len();
        let (i, o) = blocks.into_raw();
        ecb(self.0, false, i.cast(), o.cast(), n);
    }
}
