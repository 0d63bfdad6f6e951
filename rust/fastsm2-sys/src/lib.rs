// SPDX-License-Identifier: Apache-2.0
//! Raw bindings to libfastsm2's public C API (`include/fastsm2.h`), written
//! by hand for the functions the `fastsm2` crate uses (no bindgen, so no
//! libclang at build time). `tests/prototypes.rs` checks every declaration
//! here against the header with the C compiler, and the sizes of the opaque
//! types. Safe wrappers: the `fastsm2` crate.
#![no_std]
#![allow(non_camel_case_types)]

use core::ffi::{c_char, c_int, c_void};

pub const FASTSM2_OK: c_int = 1;
pub const FASTSM2_ERR_ARG: c_int = -1;
pub const FASTSM2_ERR_BUFFER_TOO_SMALL: c_int = -2;
pub const FASTSM2_ERR_DER: c_int = -3;
pub const FASTSM2_ERR_PEM: c_int = -4;
pub const FASTSM2_ERR_LENGTH: c_int = -5;
pub const FASTSM2_ERR_SIG_RANGE: c_int = -6;
pub const FASTSM2_ERR_PRIVATE_KEY: c_int = -7;
pub const FASTSM2_ERR_POINT: c_int = -8;
pub const FASTSM2_ERR_BAD_SIGNATURE: c_int = -9;
pub const FASTSM2_ERR_DECRYPT: c_int = -10;
pub const FASTSM2_ERR_CIPHERTEXT: c_int = -11;
pub const FASTSM2_ERR_ID: c_int = -12;
pub const FASTSM2_ERR_RANDOM: c_int = -13;
pub const FASTSM2_ERR_KEY_FORMAT: c_int = -14;
pub const FASTSM2_ERR_KDF_ZERO: c_int = -15;
pub const FASTSM2_ERR_NO_MEMORY: c_int = -16;
pub const FASTSM2_ERR_CONFIRM: c_int = -17;
pub const FASTSM2_ERR_STATE: c_int = -18;
pub const FASTSM2_ERR_UNSUPPORTED: c_int = -19;
pub const FASTSM2_ERR_SCALAR: c_int = -20;
pub const FASTSM2_ERR_ENCRYPTED_KEY: c_int = -21;
pub const FASTSM2_ERR_PASSWORD: c_int = -22;
pub const FASTSM2_ERR_KEY_CIPHER: c_int = -23;
pub const FASTSM2_ERR_CURVE: c_int = -24;
pub const FASTSM2_ERR_CERTIFICATE: c_int = -25;
pub const FASTSM2_ERR_TOO_LARGE: c_int = -26;
pub const FASTSM2_ERR_ITERATIONS: c_int = -27;
pub const FASTSM2_ERR_TAG: c_int = -28;
pub const FASTSM2_ERR_PADDING: c_int = -29;
pub const FASTSM2_ERR_IV: c_int = -30;
pub const FASTSM2_ERR_PUBLIC_KEY: c_int = -31;
pub const FASTSM2_ERR_NOT_YET_VALID: c_int = -32;
pub const FASTSM2_ERR_EXPIRED: c_int = -33;
pub const FASTSM2_ERR_NOT_CA: c_int = -34;
pub const FASTSM2_ERR_PATH_LENGTH: c_int = -35;
pub const FASTSM2_ERR_KEY_USAGE: c_int = -36;
pub const FASTSM2_ERR_ISSUER: c_int = -37;
pub const FASTSM2_ERR_CHAIN_LOOP: c_int = -38;
pub const FASTSM2_ERR_CRITICAL: c_int = -39;
pub const FASTSM2_ERR_NAME: c_int = -40;
pub const FASTSM2_ERR_ALGORITHM: c_int = -41;
pub const FASTSM2_ERR_DIGEST: c_int = -42;
pub const FASTSM2_ERR_RECIPIENT: c_int = -43;

pub const FASTSM2_SM3_DIGEST_SIZE: usize = 32;
pub const FASTSM2_SM3_BLOCK_SIZE: usize = 64;
pub const FASTSM2_DEFAULT_ID: &[u8; 16] = b"1234567812345678";
pub const FASTSM2_MAX_ID_LEN: usize = 8191;
pub const FASTSM2_KEYFMT_PKCS8: c_int = 0;
pub const FASTSM2_KEYFMT_SEC1: c_int = 1;
pub const FASTSM2_KEYFMT_DER: c_int = 0;
pub const FASTSM2_KEYFMT_PEM: c_int = 2;
pub const FASTSM2_SIG_RAW_SIZE: usize = 64;
pub const FASTSM2_SIG_DER_MAX: usize = 72;
pub const FASTSM2_CT_DER: c_int = 0;
pub const FASTSM2_CT_RAW: c_int = 1;
pub const FASTSM2_CT_C1C3C2: c_int = 0;
pub const FASTSM2_CT_C1C2C3: c_int = 2;
pub const FASTSM2_KX_INITIATOR: c_int = 0;
pub const FASTSM2_KX_RESPONDER: c_int = 1;
pub const FASTSM2_ERR_LAST: c_int = -43;

pub const FASTSM2_SM4_KEY_SIZE: usize = 16;
pub const FASTSM2_SM4_BLOCK_SIZE: usize = 16;
pub const FASTSM2_SM4_GCM_IV_SIZE: usize = 12;
pub const FASTSM2_SM4_TAG_SIZE: usize = 16;
pub const FASTSM2_SM4_PAD_NONE: c_int = 0;
pub const FASTSM2_SM4_PAD_PKCS7: c_int = 1;
pub const FASTSM2_SM4_ECB: c_int = 1;
pub const FASTSM2_SM4_CBC: c_int = 2;
pub const FASTSM2_SM4_CTR: c_int = 3;
pub const FASTSM2_SM4_OFB: c_int = 4;
pub const FASTSM2_SM4_CFB: c_int = 5;
pub const FASTSM2_SM4_DECRYPT: c_int = 0;
pub const FASTSM2_SM4_ENCRYPT: c_int = 1;
pub const FASTSM2_SM4_XTS_GB: c_int = 0;
pub const FASTSM2_SM4_XTS_IEEE: c_int = 1;

/// Streaming SM3 state (opaque).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct fastsm2_sm3_ctx {
    pub opaque: [u64; 14],
}

/// HMAC-SM3 state (opaque).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct fastsm2_hmac_sm3_ctx {
    pub opaque: [u64; 32],
}

/// A private key (opaque; wipe with `fastsm2_privkey_clear`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct fastsm2_privkey {
    pub opaque: [u64; 48],
}

/// A validated public key (opaque).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct fastsm2_pubkey {
    pub opaque: [u64; 288],
}

/// An expanded SM4 key (opaque; wipe with `fastsm2_sm4_key_clear`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct fastsm2_sm4_key {
    pub opaque: [u64; 72],
}

/// A streaming SM4 ECB/CBC/CTR/OFB/CFB operation (opaque).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct fastsm2_sm4_ctx {
    pub opaque: [u64; 40],
}

/// A streaming SM4-GCM operation (opaque).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct fastsm2_sm4_gcm_ctx {
    pub opaque: [u64; 96],
}

/// One side of a GB/T 32918.3 key exchange (opaque).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct fastsm2_kx_ctx {
    pub opaque: [u64; 96],
}

extern "C" {
    pub fn fastsm2_strerror(status: c_int) -> *const c_char;
    pub fn fastsm2_error_name(status: c_int) -> *const c_char;
    pub fn fastsm2_version() -> *const c_char;
    pub fn fastsm2_backend_name() -> *const c_char;

    pub fn fastsm2_sm3_init(ctx: *mut fastsm2_sm3_ctx);
    pub fn fastsm2_sm3_update(ctx: *mut fastsm2_sm3_ctx, data: *const c_void, len: usize);
    pub fn fastsm2_sm3_final(out: *mut u8, ctx: *mut fastsm2_sm3_ctx);
    pub fn fastsm2_sm3(out: *mut u8, data: *const c_void, len: usize);
    pub fn fastsm2_kdf(out: *mut u8, outlen: usize, z: *const c_void, zlen: usize) -> c_int;
    pub fn fastsm2_hmac_sm3_init(ctx: *mut fastsm2_hmac_sm3_ctx, key: *const c_void, keylen: usize) -> c_int;
    pub fn fastsm2_hmac_sm3_update(ctx: *mut fastsm2_hmac_sm3_ctx, data: *const c_void, len: usize);
    pub fn fastsm2_hmac_sm3_final(out: *mut u8, ctx: *mut fastsm2_hmac_sm3_ctx);
    pub fn fastsm2_hmac_sm3(out: *mut u8, key: *const c_void, keylen: usize, msg: *const c_void, msglen: usize)
        -> c_int;

    pub fn fastsm2_privkey_generate(key: *mut fastsm2_privkey) -> c_int;
    pub fn fastsm2_privkey_from_bytes(key: *mut fastsm2_privkey, d: *const u8) -> c_int;
    pub fn fastsm2_privkey_to_bytes(d: *mut u8, key: *const fastsm2_privkey) -> c_int;
    pub fn fastsm2_privkey_pubkey(pubkey: *mut fastsm2_pubkey, key: *const fastsm2_privkey) -> c_int;
    pub fn fastsm2_privkey_clear(key: *mut fastsm2_privkey);
    pub fn fastsm2_pubkey_from_bytes(pubkey: *mut fastsm2_pubkey, input: *const u8, inlen: usize) -> c_int;
    pub fn fastsm2_pubkey_precompute(pubkey: *mut fastsm2_pubkey) -> c_int;
    pub fn fastsm2_pubkey_to_bytes(out: *mut u8, outlen: *mut usize, pubkey: *const fastsm2_pubkey, compressed: c_int)
        -> c_int;
    pub fn fastsm2_privkey_set_id(key: *mut fastsm2_privkey, id: *const c_void, idlen: usize) -> c_int;
    pub fn fastsm2_pubkey_set_id(pubkey: *mut fastsm2_pubkey, id: *const c_void, idlen: usize) -> c_int;
    pub fn fastsm2_compute_z(z: *mut u8, pubkey: *const fastsm2_pubkey, id: *const c_void, idlen: usize) -> c_int;

    pub fn fastsm2_privkey_parse(key: *mut fastsm2_privkey, input: *const u8, inlen: usize) -> c_int;
    pub fn fastsm2_pubkey_parse(pubkey: *mut fastsm2_pubkey, input: *const u8, inlen: usize) -> c_int;
    pub fn fastsm2_pubkey_parse_certificate(pubkey: *mut fastsm2_pubkey, input: *const u8, inlen: usize) -> c_int;
    pub fn fastsm2_privkey_serialize(out: *mut u8, outlen: *mut usize, key: *const fastsm2_privkey, fmt: c_int)
        -> c_int;
    pub fn fastsm2_pubkey_serialize(out: *mut u8, outlen: *mut usize, pubkey: *const fastsm2_pubkey, fmt: c_int)
        -> c_int;

    pub fn fastsm2_sign(
        sig: *mut u8,
        key: *const fastsm2_privkey,
        id: *const c_void,
        idlen: usize,
        msg: *const c_void,
        msglen: usize,
    ) -> c_int;
    pub fn fastsm2_sign_digest(sig: *mut u8, key: *const fastsm2_privkey, e: *const u8) -> c_int;
    pub fn fastsm2_verify(
        pubkey: *const fastsm2_pubkey,
        id: *const c_void,
        idlen: usize,
        msg: *const c_void,
        msglen: usize,
        sig: *const u8,
    ) -> c_int;
    pub fn fastsm2_verify_status(
        pubkey: *const fastsm2_pubkey,
        id: *const c_void,
        idlen: usize,
        msg: *const c_void,
        msglen: usize,
        sig: *const u8,
    ) -> c_int;
    pub fn fastsm2_verify_digest_status(pubkey: *const fastsm2_pubkey, e: *const u8, sig: *const u8) -> c_int;
    pub fn fastsm2_sig_to_der(out: *mut u8, outlen: *mut usize, sig: *const u8) -> c_int;
    pub fn fastsm2_sig_from_der(sig: *mut u8, der: *const u8, derlen: usize) -> c_int;

    pub fn fastsm2_ciphertext_size(msglen: usize, flags: c_int) -> usize;
    pub fn fastsm2_encrypt(
        out: *mut u8,
        outlen: *mut usize,
        pubkey: *const fastsm2_pubkey,
        msg: *const c_void,
        msglen: usize,
        flags: c_int,
    ) -> c_int;
    pub fn fastsm2_decrypt(
        out: *mut u8,
        outlen: *mut usize,
        key: *const fastsm2_privkey,
        ct: *const u8,
        ctlen: usize,
        flags: c_int,
    ) -> c_int;

    pub fn fastsm2_kx_init(
        ctx: *mut fastsm2_kx_ctx,
        role: c_int,
        key: *const fastsm2_privkey,
        id: *const c_void,
        idlen: usize,
        peer: *const fastsm2_pubkey,
        peer_id: *const c_void,
        peer_idlen: usize,
    ) -> c_int;
    pub fn fastsm2_kx_start(ctx: *mut fastsm2_kx_ctx, r: *mut u8) -> c_int;
    pub fn fastsm2_kx_compute(ctx: *mut fastsm2_kx_ctx, key: *mut u8, klen: usize, peer_r: *const u8, peer_rlen: usize)
        -> c_int;
    pub fn fastsm2_kx_confirmation(out: *mut u8, ctx: *const fastsm2_kx_ctx) -> c_int;
    pub fn fastsm2_kx_verify_confirmation(ctx: *const fastsm2_kx_ctx, input: *const u8) -> c_int;
    pub fn fastsm2_kx_clear(ctx: *mut fastsm2_kx_ctx);

    pub fn fastsm2_ecdh(out: *mut u8, key: *const fastsm2_privkey, peer: *const u8, peerlen: usize) -> c_int;

    pub fn fastsm2_sm4_key_init(key: *mut fastsm2_sm4_key, k: *const u8) -> c_int;
    pub fn fastsm2_sm4_key_clear(key: *mut fastsm2_sm4_key);
    pub fn fastsm2_sm4_backend_name() -> *const c_char;
    pub fn fastsm2_sm4_backend_available(i: usize) -> *const c_char;
    pub fn fastsm2_sm4_ecb_encrypt(out: *mut u8, key: *const fastsm2_sm4_key, input: *const u8, len: usize) -> c_int;
    pub fn fastsm2_sm4_ecb_decrypt(out: *mut u8, key: *const fastsm2_sm4_key, input: *const u8, len: usize) -> c_int;
    pub fn fastsm2_sm4_cbc_encrypt(
        out: *mut u8,
        outlen: *mut usize,
        key: *const fastsm2_sm4_key,
        iv: *const u8,
        padding: c_int,
        input: *const u8,
        inlen: usize,
    ) -> c_int;
    pub fn fastsm2_sm4_cbc_decrypt(
        out: *mut u8,
        outlen: *mut usize,
        key: *const fastsm2_sm4_key,
        iv: *const u8,
        padding: c_int,
        input: *const u8,
        inlen: usize,
    ) -> c_int;
    pub fn fastsm2_sm4_ctr(out: *mut u8, key: *const fastsm2_sm4_key, iv: *const u8, input: *const u8, len: usize)
        -> c_int;
    pub fn fastsm2_sm4_init(
        ctx: *mut fastsm2_sm4_ctx,
        mode: c_int,
        enc: c_int,
        padding: c_int,
        key: *const fastsm2_sm4_key,
        iv: *const u8,
        ivlen: usize,
    ) -> c_int;
    pub fn fastsm2_sm4_update(
        ctx: *mut fastsm2_sm4_ctx,
        out: *mut u8,
        outlen: *mut usize,
        input: *const u8,
        inlen: usize,
    ) -> c_int;
    pub fn fastsm2_sm4_final(ctx: *mut fastsm2_sm4_ctx, out: *mut u8, outlen: *mut usize) -> c_int;
    pub fn fastsm2_sm4_ctx_clear(ctx: *mut fastsm2_sm4_ctx);
    pub fn fastsm2_sm4_gcm_encrypt(
        out: *mut u8,
        tag: *mut u8,
        taglen: usize,
        key: *const fastsm2_sm4_key,
        iv: *const u8,
        ivlen: usize,
        aad: *const u8,
        aadlen: usize,
        input: *const u8,
        inlen: usize,
    ) -> c_int;
    pub fn fastsm2_sm4_gcm_decrypt(
        out: *mut u8,
        key: *const fastsm2_sm4_key,
        iv: *const u8,
        ivlen: usize,
        aad: *const u8,
        aadlen: usize,
        input: *const u8,
        inlen: usize,
        tag: *const u8,
        taglen: usize,
    ) -> c_int;
    pub fn fastsm2_sm4_gcm_init(
        ctx: *mut fastsm2_sm4_gcm_ctx,
        enc: c_int,
        key: *const fastsm2_sm4_key,
        iv: *const u8,
        ivlen: usize,
    ) -> c_int;
    pub fn fastsm2_sm4_gcm_aad(ctx: *mut fastsm2_sm4_gcm_ctx, aad: *const u8, len: usize) -> c_int;
    pub fn fastsm2_sm4_gcm_update(ctx: *mut fastsm2_sm4_gcm_ctx, out: *mut u8, input: *const u8, len: usize) -> c_int;
    pub fn fastsm2_sm4_gcm_encrypt_final(ctx: *mut fastsm2_sm4_gcm_ctx, tag: *mut u8, taglen: usize) -> c_int;
    pub fn fastsm2_sm4_gcm_decrypt_final(ctx: *mut fastsm2_sm4_gcm_ctx, tag: *const u8, taglen: usize) -> c_int;
    pub fn fastsm2_sm4_gcm_clear(ctx: *mut fastsm2_sm4_gcm_ctx);
    pub fn fastsm2_sm4_ccm_encrypt(
        out: *mut u8,
        tag: *mut u8,
        taglen: usize,
        key: *const fastsm2_sm4_key,
        nonce: *const u8,
        noncelen: usize,
        aad: *const u8,
        aadlen: usize,
        input: *const u8,
        inlen: usize,
    ) -> c_int;
    pub fn fastsm2_sm4_ccm_decrypt(
        out: *mut u8,
        key: *const fastsm2_sm4_key,
        nonce: *const u8,
        noncelen: usize,
        aad: *const u8,
        aadlen: usize,
        input: *const u8,
        inlen: usize,
        tag: *const u8,
        taglen: usize,
    ) -> c_int;
    pub fn fastsm2_sm4_xts_encrypt(
        out: *mut u8,
        key1: *const fastsm2_sm4_key,
        key2: *const fastsm2_sm4_key,
        standard: c_int,
        tweak: *const u8,
        input: *const u8,
        len: usize,
    ) -> c_int;
    pub fn fastsm2_sm4_xts_decrypt(
        out: *mut u8,
        key1: *const fastsm2_sm4_key,
        key2: *const fastsm2_sm4_key,
        standard: c_int,
        tweak: *const u8,
        input: *const u8,
        len: usize,
    ) -> c_int;
}
