// SPDX-License-Identifier: Apache-2.0
//! SM4's modes of operation in the library (SP 800-38A: ECB, CBC, CFB-128,
//! OFB, CTR) through `cipher`'s block-mode and stream-cipher traits. Each
//! call hands the whole buffer (up to 32 blocks at a time through the
//! block-mode traits, any length through the stream traits) to the
//! library.
use core::ffi::c_int;
use core::fmt;

use cipher::consts::{U16, U32};
use cipher::{
    AlgorithmName, Block, BlockModeDecBackend, BlockModeDecClosure, BlockModeDecrypt, BlockModeEncBackend,
    BlockModeEncClosure, BlockModeEncrypt, BlockSizeUser, InOut, InOutBuf, Iv, IvSizeUser, IvState, Key, KeyInit, KeyIvInit,
    KeySizeUser, OverflowError, ParBlocks, ParBlocksSizeUser, SeekNum, StreamCipher, StreamCipherError,
    StreamCipherSeek,
};
use fastsm2_sys as sys;
use zeroize::Zeroizing;

use super::Key as Sm4Key;
use crate::error::{check, Result};

/// A streaming context of the library (`fastsm2_sm4_init`), boxed, wiped
/// when dropped.
struct Ctx(Box<sys::fastsm2_sm4_ctx>);

impl Ctx {
    fn new(key: &Sm4Key, mode: c_int, enc: bool, padding: c_int, iv: Option<&[u8; 16]>) -> Self {
        let mut ctx = Box::new(sys::fastsm2_sm4_ctx { opaque: [0; 40] });
        let dir = if enc { sys::FASTSM2_SM4_ENCRYPT } else { sys::FASTSM2_SM4_DECRYPT };
        let (ivp, ivlen) = iv.map_or((core::ptr::null(), 0), |v| (v.as_ptr(), 16));
        // SAFETY: ctx writable; iv NULL/0 or 16 readable bytes.
        let rc = unsafe { sys::fastsm2_sm4_init(&mut *ctx, mode, dir, padding, key.raw(), ivp, ivlen) };
        assert_eq!(rc, sys::FASTSM2_OK, "fastsm2_sm4_init with a valid mode and IV cannot fail");
        Ctx(ctx)
    }

    /// `len` bytes from `inp` to `out` (the same or apart); the modes used
    /// here write exactly `len` bytes (stream modes, or whole blocks
    /// without padding).
    fn update_raw(&mut self, inp: *const u8, out: *mut u8, len: usize) {
        let mut outlen = len;
        // SAFETY: len readable bytes at inp, len writable at out, equal or
        // disjoint (the callers' InOut / slices).
        let rc = unsafe { sys::fastsm2_sm4_update(&mut *self.0, out, &mut outlen, inp, len) };
        assert!(rc == sys::FASTSM2_OK && outlen == len, "fastsm2_sm4_update: {rc}, {outlen} of {len} bytes");
    }

    /// All of `data` through update and final into a new buffer (padded
    /// ECB/CBC).
    fn finish_vec(mut self, data: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
        let mut out = Zeroizing::new(vec![0u8; data.len() + 32]);
        let mut n = out.len();
        // SAFETY: out holds data.len() + 32 bytes (update writes at most
        // data.len() + 15, final 16).
        check(unsafe { sys::fastsm2_sm4_update(&mut *self.0, out.as_mut_ptr(), &mut n, data.as_ptr(), data.len()) })?;
        let mut m = out.len() - n;
        // SAFETY: the rest of out.
        check(unsafe { sys::fastsm2_sm4_final(&mut *self.0, out.as_mut_ptr().add(n), &mut m) })?;
        out.truncate(n + m);
        Ok(out)
    }
}

impl Drop for Ctx {
    fn drop(&mut self) {
        // SAFETY: wipes the context in place.
        unsafe { sys::fastsm2_sm4_ctx_clear(&mut *self.0) };
    }
}

/// The block-mode backend over a context: every group of blocks is one
/// `fastsm2_sm4_update`.
struct CtxBackend<'a>(&'a mut Ctx);

impl BlockSizeUser for CtxBackend<'_> {
    type BlockSize = U16;
}
impl ParBlocksSizeUser for CtxBackend<'_> {
    type ParBlocksSize = U32;
}

macro_rules! ctx_backend {
    ($tr:ident, $one:ident, $par:ident, $tail:ident) => {
        impl $tr for CtxBackend<'_> {
            fn $one(&mut self, block: InOut<'_, '_, Block<Self>>) {
                let (i, o) = block.into_raw();
                self.0.update_raw(i.cast(), o.cast(), 16);
            }
            fn $par(&mut self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
                let (i, o) = blocks.into_raw();
                self.0.update_raw(i.cast(), o.cast(), 16 * 32);
            }
            fn $tail(&mut self, blocks: InOutBuf<'_, '_, Block<Self>>) {
                let n = blocks.len();
                let (i, o) = blocks.into_raw();
                self.0.update_raw(i.cast(), o.cast(), 16 * n);
            }
        }
    };
}
ctx_backend!(BlockModeEncBackend, encrypt_block, encrypt_par_blocks, encrypt_tail_blocks);
ctx_backend!(BlockModeDecBackend, decrypt_block, decrypt_par_blocks, decrypt_tail_blocks);

/// The block-mode backend of CBC: one-shot library calls that carry the
/// chaining value from one group of blocks to the next.
struct CbcBackend<'a> {
    key: &'a Sm4Key,
    iv: &'a mut [u8; 16],
    enc: bool,
}

impl CbcBackend<'_> {
    fn run(&mut self, inp: *const u8, out: *mut u8, len: usize) {
        let mut n = len;
        let mut next = [0u8; 16];
        // SAFETY: len (a non-zero multiple of 16) readable bytes at inp and
        // writable at out, equal or disjoint; the last input block is read
        // before the call overwrites it (in place).
        let rc = unsafe {
            if self.enc {
                sys::fastsm2_sm4_cbc_encrypt(out, &mut n, self.key.raw(), self.iv.as_ptr(), sys::FASTSM2_SM4_PAD_NONE, inp, len)
            } else {
                core::ptr::copy_nonoverlapping(inp.add(len - 16), next.as_mut_ptr(), 16);
                sys::fastsm2_sm4_cbc_decrypt(out, &mut n, self.key.raw(), self.iv.as_ptr(), sys::FASTSM2_SM4_PAD_NONE, inp, len)
            }
        };
        assert!(rc == sys::FASTSM2_OK && n == len, "fastsm2_sm4_cbc: {rc}");
        if self.enc {
            // SAFETY: out holds len >= 16 bytes.
            unsafe { core::ptr::copy_nonoverlapping(out.add(len - 16), next.as_mut_ptr(), 16) };
        }
        *self.iv = next;
    }
}

impl BlockSizeUser for CbcBackend<'_> {
    type BlockSize = U16;
}
impl ParBlocksSizeUser for CbcBackend<'_> {
    type ParBlocksSize = U32;
}

macro_rules! cbc_backend {
    ($tr:ident, $one:ident, $par:ident, $tail:ident) => {
        impl $tr for CbcBackend<'_> {
            fn $one(&mut self, block: InOut<'_, '_, Block<Self>>) {
                let (i, o) = block.into_raw();
                self.run(i.cast(), o.cast(), 16);
            }
            fn $par(&mut self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
                let (i, o) = blocks.into_raw();
                self.run(i.cast(), o.cast(), 16 * 32);
            }
            fn $tail(&mut self, blocks: InOutBuf<'_, '_, Block<Self>>) {
                let n = blocks.len();
                if n > 0 {
                    let (i, o) = blocks.into_raw();
                    self.run(i.cast(), o.cast(), 16 * n);
                }
            }
        }
    };
}
cbc_backend!(BlockModeEncBackend, encrypt_block, encrypt_par_blocks, encrypt_tail_blocks);
cbc_backend!(BlockModeDecBackend, decrypt_block, decrypt_par_blocks, decrypt_tail_blocks);

/// The ECB backend: one-shot library calls.
struct EcbBackend<'a>(&'a Sm4Key, bool);

impl BlockSizeUser for EcbBackend<'_> {
    type BlockSize = U16;
}
impl ParBlocksSizeUser for EcbBackend<'_> {
    type ParBlocksSize = U32;
}
impl EcbBackend<'_> {
    fn run(&self, inp: *const u8, out: *mut u8, len: usize) {
        // SAFETY: as CbcBackend::run.
        let rc = unsafe {
            if self.1 {
                sys::fastsm2_sm4_ecb_encrypt(out, self.0.raw(), inp, len)
            } else {
                sys::fastsm2_sm4_ecb_decrypt(out, self.0.raw(), inp, len)
            }
        };
        debug_assert_eq!(rc, sys::FASTSM2_OK);
    }
}
macro_rules! ecb_backend {
    ($tr:ident, $one:ident, $par:ident, $tail:ident) => {
        impl $tr for EcbBackend<'_> {
            fn $one(&mut self, block: InOut<'_, '_, Block<Self>>) {
                let (i, o) = block.into_raw();
                self.run(i.cast(), o.cast(), 16);
            }
            fn $par(&mut self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
                let (i, o) = blocks.into_raw();
                self.run(i.cast(), o.cast(), 16 * 32);
            }
            fn $tail(&mut self, blocks: InOutBuf<'_, '_, Block<Self>>) {
                let n = blocks.len();
                let (i, o) = blocks.into_raw();
                self.run(i.cast(), o.cast(), 16 * n);
            }
        }
    };
}
ecb_backend!(BlockModeEncBackend, encrypt_block, encrypt_par_blocks, encrypt_tail_blocks);
ecb_backend!(BlockModeDecBackend, decrypt_block, decrypt_par_blocks, decrypt_tail_blocks);

macro_rules! common_impls {
    ($name:ident, $alg:expr) => {
        impl KeySizeUser for $name {
            type KeySize = U16;
        }
        impl BlockSizeUser for $name {
            type BlockSize = U16;
        }
        impl AlgorithmName for $name {
            fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str($alg)
            }
        }
        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{} {{ .. }}", stringify!($name))
            }
        }
        impl zeroize::ZeroizeOnDrop for $name {}
    };
}

/// SM4-ECB encryption (GB/T 32907 on each block; no IV): `cipher`'s
/// `KeyInit` and `BlockModeEncrypt`, as the `ecb` crate's `Encryptor<Sm4>`.
pub struct Sm4EcbEnc {
    key: Sm4Key,
}
/// SM4-ECB decryption: `cipher`'s `KeyInit` and `BlockModeDecrypt`.
pub struct Sm4EcbDec {
    key: Sm4Key,
}
/// SM4-CBC encryption (SP 800-38A 6.2): `cipher`'s `KeyIvInit`,
/// `BlockModeEncrypt` and `IvState`, as the `cbc` crate's
/// `Encryptor<Sm4>`.
pub struct Sm4CbcEnc {
    key: Sm4Key,
    iv: [u8; 16],
}
/// SM4-CBC decryption (SP 800-38A 6.2): `cipher`'s `KeyIvInit`,
/// `BlockModeDecrypt` and `IvState`.
pub struct Sm4CbcDec {
    key: Sm4Key,
    iv: [u8; 16],
}
/// SM4-CFB encryption, CFB-128 (SP 800-38A 6.3; OpenSSL's SM4-CFB):
/// `cipher`'s `KeyIvInit` and `BlockModeEncrypt` on whole blocks, as the
/// `cfb-mode` crate's `Encryptor<Sm4>`.
pub struct Sm4CfbEnc {
    ctx: Ctx,
}
/// SM4-CFB decryption, CFB-128: `cipher`'s `KeyIvInit` and
/// `BlockModeDecrypt`.
pub struct Sm4CfbDec {
    ctx: Ctx,
}
common_impls!(Sm4EcbEnc, "SM4-ECB");
common_impls!(Sm4EcbDec, "SM4-ECB");
common_impls!(Sm4CbcEnc, "SM4-CBC");
common_impls!(Sm4CbcDec, "SM4-CBC");
common_impls!(Sm4CfbEnc, "SM4-CFB");
common_impls!(Sm4CfbDec, "SM4-CFB");
impl IvSizeUser for Sm4CbcEnc {
    type IvSize = U16;
}
impl IvSizeUser for Sm4CbcDec {
    type IvSize = U16;
}
impl IvSizeUser for Sm4CfbEnc {
    type IvSize = U16;
}
impl IvSizeUser for Sm4CfbDec {
    type IvSize = U16;
}

impl KeyInit for Sm4EcbEnc {
    fn new(key: &Key<Self>) -> Self {
        Sm4EcbEnc { key: Sm4Key::new(&(*key).into()) }
    }
}
impl KeyInit for Sm4EcbDec {
    fn new(key: &Key<Self>) -> Self {
        Sm4EcbDec { key: Sm4Key::new(&(*key).into()) }
    }
}
impl KeyIvInit for Sm4CbcEnc {
    fn new(key: &Key<Self>, iv: &Iv<Self>) -> Self {
        Sm4CbcEnc { key: Sm4Key::new(&(*key).into()), iv: (*iv).into() }
    }
}
impl KeyIvInit for Sm4CbcDec {
    fn new(key: &Key<Self>, iv: &Iv<Self>) -> Self {
        Sm4CbcDec { key: Sm4Key::new(&(*key).into()), iv: (*iv).into() }
    }
}
impl KeyIvInit for Sm4CfbEnc {
    fn new(key: &Key<Self>, iv: &Iv<Self>) -> Self {
        let key = Sm4Key::new(&(*key).into());
        Sm4CfbEnc { ctx: Ctx::new(&key, sys::FASTSM2_SM4_CFB, true, sys::FASTSM2_SM4_PAD_NONE, Some(&(*iv).into())) }
    }
}
impl KeyIvInit for Sm4CfbDec {
    fn new(key: &Key<Self>, iv: &Iv<Self>) -> Self {
        let key = Sm4Key::new(&(*key).into());
        Sm4CfbDec { ctx: Ctx::new(&key, sys::FASTSM2_SM4_CFB, false, sys::FASTSM2_SM4_PAD_NONE, Some(&(*iv).into())) }
    }
}
impl IvState for Sm4CbcEnc {
    fn iv_state(&self) -> Iv<Self> {
        self.iv.into()
    }
}
impl IvState for Sm4CbcDec {
    fn iv_state(&self) -> Iv<Self> {
        self.iv.into()
    }
}

impl BlockModeEncrypt for Sm4EcbEnc {
    fn encrypt_with_backend(&mut self, f: impl BlockModeEncClosure<BlockSize = U16>) {
        f.call(&mut EcbBackend(&self.key, true));
    }
}
impl BlockModeDecrypt for Sm4EcbDec {
    fn decrypt_with_backend(&mut self, f: impl BlockModeDecClosure<BlockSize = U16>) {
        f.call(&mut EcbBackend(&self.key, false));
    }
}
impl BlockModeEncrypt for Sm4CbcEnc {
    fn encrypt_with_backend(&mut self, f: impl BlockModeEncClosure<BlockSize = U16>) {
        f.call(&mut CbcBackend { key: &self.key, iv: &mut self.iv, enc: true });
    }
}
impl BlockModeDecrypt for Sm4CbcDec {
    fn decrypt_with_backend(&mut self, f: impl BlockModeDecClosure<BlockSize = U16>) {
        f.call(&mut CbcBackend { key: &self.key, iv: &mut self.iv, enc: false });
    }
}
impl BlockModeEncrypt for Sm4CfbEnc {
    fn encrypt_with_backend(&mut self, f: impl BlockModeEncClosure<BlockSize = U16>) {
        f.call(&mut CtxBackend(&mut self.ctx));
    }
}
impl BlockModeDecrypt for Sm4CfbDec {
    fn decrypt_with_backend(&mut self, f: impl BlockModeDecClosure<BlockSize = U16>) {
        f.call(&mut CtxBackend(&mut self.ctx));
    }
}
impl Drop for Sm4CbcEnc {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.iv);
    }
}
impl Drop for Sm4CbcDec {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.iv);
    }
}

// The library's PKCS#7 (RFC 5652 6.3): padding added in C and, when
// decrypting, checked in constant time, unlike the generic
// `encrypt_padded*` / `decrypt_padded*` of the traits (which work too),
// whose unpadding is the `block-padding` crate's. One library call each.

fn need_blocks(ct: &[u8]) -> Result<()> {
    if ct.is_empty() || ct.len() % 16 != 0 {
        return Err(crate::Error::Length);
    }
    Ok(())
}

impl Sm4EcbEnc {
    /// Pad `msg` with PKCS#7 and encrypt it: (len / 16 + 1) * 16 bytes.
    pub fn encrypt_pkcs7_vec(self, msg: &[u8]) -> Vec<u8> {
        let ctx = Ctx::new(&self.key, sys::FASTSM2_SM4_ECB, true, sys::FASTSM2_SM4_PAD_PKCS7, None);
        ctx.finish_vec(msg).expect("padded ECB encryption cannot fail").to_vec()
    }
}

impl Sm4EcbDec {
    /// Decrypt and remove PKCS#7 padding, checked in constant time:
    /// [`Error::Length`](crate::Error::Length) unless a non-zero multiple
    /// of 16 bytes, [`Error::Padding`](crate::Error::Padding) for bad
    /// padding (no plaintext released).
    pub fn decrypt_pkcs7_vec(self, ct: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
        need_blocks(ct)?;
        Ctx::new(&self.key, sys::FASTSM2_SM4_ECB, false, sys::FASTSM2_SM4_PAD_PKCS7, None).finish_vec(ct)
    }
}

impl Sm4CbcEnc {
    /// Pad `msg` with PKCS#7 and encrypt it from this encryptor's chaining
    /// value: (len / 16 + 1) * 16 bytes.
    pub fn encrypt_pkcs7_vec(self, msg: &[u8]) -> Vec<u8> {
        let mut out = vec![0u8; msg.len() / 16 * 16 + 16];
        let mut n = out.len();
        // SAFETY: out holds the padded length.
        let rc = unsafe {
            sys::fastsm2_sm4_cbc_encrypt(
                out.as_mut_ptr(),
                &mut n,
                self.key.raw(),
                self.iv.as_ptr(),
                sys::FASTSM2_SM4_PAD_PKCS7,
                msg.as_ptr(),
                msg.len(),
            )
        };
        assert!(rc == sys::FASTSM2_OK && n == out.len(), "fastsm2_sm4_cbc_encrypt: {rc}");
        out
    }
}

impl Sm4CbcDec {
    /// Decrypt from this decryptor's chaining value and remove PKCS#7
    /// padding, checked in constant time by the library:
    /// [`Error::Length`](crate::Error::Length) unless a non-zero multiple
    /// of 16 bytes, [`Error::Padding`](crate::Error::Padding) for bad
    /// padding (no plaintext released). CBC has no integrity: a padding
    /// error seen by an attacker who submits ciphertexts is a padding
    /// oracle; authenticate first, or use [`Sm4Gcm`](super::Sm4Gcm).
    pub fn decrypt_pkcs7_vec(self, ct: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
        need_blocks(ct)?;
        let mut out = Zeroizing::new(vec![0u8; ct.len()]);
        let mut n = out.len();
        // SAFETY: out holds ct.len() bytes.
        check(unsafe {
            sys::fastsm2_sm4_cbc_decrypt(
                out.as_mut_ptr(),
                &mut n,
                self.key.raw(),
                self.iv.as_ptr(),
                sys::FASTSM2_SM4_PAD_PKCS7,
                ct.as_ptr(),
                ct.len(),
            )
        })?;
        out.truncate(n);
        Ok(out)
    }
}

// ---------------------------------------------------------------------------
// Stream modes: CTR and OFB.

/// SM4-CTR (SP 800-38A 6.5): the 16-byte IV is the first counter block,
/// incremented as one 128-bit big-endian number (OpenSSL's SM4-CTR, and
/// RustCrypto's `ctr::Ctr128BE<Sm4>`). `cipher`'s `StreamCipher` and
/// `StreamCipherSeek`.
pub struct Sm4Ctr {
    ctx: Ctx,
    key: Sm4Key,
    iv: [u8; 16],
    pos: u128,
}

/// SM4-OFB (SP 800-38A 6.4): `cipher`'s `StreamCipher` (as the `ofb`
/// crate's `Ofb<Sm4>`).
pub struct Sm4Ofb {
    ctx: Ctx,
}

impl KeySizeUser for Sm4Ctr {
    type KeySize = U16;
}
impl IvSizeUser for Sm4Ctr {
    type IvSize = U16;
}
impl KeyIvInit for Sm4Ctr {
    fn new(key: &Key<Self>, iv: &Iv<Self>) -> Self {
        let key = Sm4Key::new(&(*key).into());
        let iv: [u8; 16] = (*iv).into();
        Sm4Ctr { ctx: Ctx::new(&key, sys::FASTSM2_SM4_CTR, true, sys::FASTSM2_SM4_PAD_NONE, Some(&iv)), key, iv, pos: 0 }
    }
}
impl KeySizeUser for Sm4Ofb {
    type KeySize = U16;
}
impl IvSizeUser for Sm4Ofb {
    type IvSize = U16;
}
impl KeyIvInit for Sm4Ofb {
    fn new(key: &Key<Self>, iv: &Iv<Self>) -> Self {
        let key = Sm4Key::new(&(*key).into());
        Sm4Ofb { ctx: Ctx::new(&key, sys::FASTSM2_SM4_OFB, true, sys::FASTSM2_SM4_PAD_NONE, Some(&(*iv).into())) }
    }
}

impl StreamCipher for Sm4Ctr {
    fn check_remaining(&self, data_len: usize) -> core::result::Result<(), StreamCipherError> {
        // The position is counted in a u128 of bytes (2^124 blocks).
        self.pos.checked_add(data_len as u128).map(|_| ()).ok_or(StreamCipherError)
    }
    fn unchecked_apply_keystream_inout(&mut self, buf: InOutBuf<'_, '_, u8>) {
        let n = buf.len();
        let (i, o) = buf.into_raw();
        self.ctx.update_raw(i, o, n);
        self.pos = self.pos.wrapping_add(n as u128);
    }
    fn unchecked_write_keystream(&mut self, buf: &mut [u8]) {
        buf.fill(0);
        self.unchecked_apply_keystream(buf);
    }
}

impl StreamCipher for Sm4Ofb {
    fn check_remaining(&self, _data_len: usize) -> core::result::Result<(), StreamCipherError> {
        Ok(())
    }
    fn unchecked_apply_keystream_inout(&mut self, buf: InOutBuf<'_, '_, u8>) {
        let n = buf.len();
        let (i, o) = buf.into_raw();
        self.ctx.update_raw(i, o, n);
    }
    fn unchecked_write_keystream(&mut self, buf: &mut [u8]) {
        buf.fill(0);
        self.unchecked_apply_keystream(buf);
    }
}

impl StreamCipherSeek for Sm4Ctr {
    fn try_current_pos<T: SeekNum>(&self) -> core::result::Result<T, OverflowError> {
        // SeekNum builds a position from (next block, bytes of it used,
        // block size), the used bytes in 1..=16.
        let (block, byte) = match (self.pos / 16, (self.pos % 16) as u8) {
            (b, 0) => (b, 16),
            (b, r) => (b + 1, r),
        };
        T::from_block_byte(block, byte, 16)
    }

    fn try_seek<T: SeekNum>(&mut self, pos: T) -> core::result::Result<(), StreamCipherError> {
        let (block, byte): (u128, u8) = pos.into_block_byte(16).map_err(|_| StreamCipherError)?;
        let pos = block.checked_mul(16).and_then(|p| p.checked_add(byte as u128)).ok_or(StreamCipherError)?;
        let counter = u128::from_be_bytes(self.iv).wrapping_add(block).to_be_bytes();
        self.ctx = Ctx::new(&self.key, sys::FASTSM2_SM4_CTR, true, sys::FASTSM2_SM4_PAD_NONE, Some(&counter));
        let mut skip = [0u8; 16];
        self.ctx.update_raw(skip.as_ptr(), skip.as_mut_ptr(), byte as usize);
        self.pos = pos;
        Ok(())
    }
}

impl AlgorithmName for Sm4Ctr {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SM4-CTR")
    }
}
impl AlgorithmName for Sm4Ofb {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SM4-OFB")
    }
}
impl fmt::Debug for Sm4Ctr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sm4Ctr { .. }")
    }
}
impl fmt::Debug for Sm4Ofb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sm4Ofb { .. }")
    }
}
impl zeroize::ZeroizeOnDrop for Sm4Ctr {}
impl zeroize::ZeroizeOnDrop for Sm4Ofb {}
impl Drop for Sm4Ctr {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.iv.zeroize();
    }
}
