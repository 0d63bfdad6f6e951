// SPDX-License-Identifier: Apache-2.0
//! RustCrypto's x509-cert builders signing through the fastsm2 crate
//! (examples/x509_cert.rs, the example of docs/PKI.md): what they make is
//! read back by x509-cert, every signature verifies with the fastsm2 crate's
//! VerifyingKey, and libfastsm2's own X.509 code (the chain verifier of
//! include/fastsm2.h, RFC 5280 clause 6 with the SM2 signer ID) accepts the
//! chain and the request, and refuses them once a byte is changed.
use std::os::raw::c_int;

use fastsm2::{DerSignature, VerifyingKey};
use signature::Verifier;
use x509_cert::der::{Decode, Encode};
use x509_cert::spki::DecodePublicKey;

#[path = "../examples/x509_cert.rs"]
mod example;

// The C library's X.509 entry points (include/fastsm2.h), linked in through
// fastsm2-sys (which builds all of libfastsm2) and declared here, as the
// crate does not wrap them.
#[repr(C)]
struct VerifyParams {
    time: i64,
    flags: u32,
    key_usage: u32,
    ext_key_usage: u32,
    max_depth: u32,
    id: *const u8,
    idlen: usize,
}
extern "C" {
    fn fastsm2_x509_verify_params_init(p: *mut VerifyParams);
    fn fastsm2_x509_verify_chain(depth: *mut c_int, cert: *const u8, certlen: usize, untrusted: *const u8,
                                 untrustedlen: usize, trusted: *const u8, trustedlen: usize,
                                 params: *const VerifyParams) -> c_int;
    fn fastsm2_x509_verify_request(req: *const u8, reqlen: usize, id: *const u8, idlen: usize) -> c_int;
}
const FASTSM2_OK: c_int = 1;
const FASTSM2_ERR_BAD_SIGNATURE: c_int = -9;

fn verify_chain(leaf: &[u8], trusted: &[u8]) -> (c_int, c_int) {
    let mut p = std::mem::MaybeUninit::<VerifyParams>::uninit();
    let mut depth: c_int = -2;
    let st = unsafe {
        fastsm2_x509_verify_params_init(p.as_mut_ptr());
        fastsm2_x509_verify_chain(&mut depth, leaf.as_ptr(), leaf.len(), std::ptr::null(), 0, trusted.as_ptr(),
                                  trusted.len(), p.as_ptr())
    };
    (st, depth)
}

fn key_of(cert: &x509_cert::Certificate) -> VerifyingKey {
    VerifyingKey::from_public_key_der(&cert.tbs_certificate().subject_public_key_info().to_der().unwrap()).unwrap()
}

#[test]
fn builders_sign_through_fastsm2() {
    let (ca_der, req_der, leaf_der) = example::make_chain().expect("the example runs");
    let ca = x509_cert::Certificate::from_der(&ca_der).unwrap();
    let leaf = x509_cert::Certificate::from_der(&leaf_der).unwrap();
    let req = x509_cert::request::CertReq::from_der(&req_der).unwrap();
    assert_eq!(ca.signature_algorithm().oid.to_string(), "1.2.156.10197.1.501");
    assert_eq!(leaf.tbs_certificate().issuer(), ca.tbs_certificate().subject());
    // each signature with the fastsm2 crate (default signer ID)
    let ca_key = key_of(&ca);
    for c in [&ca, &leaf] {
        let sig = DerSignature::try_from(c.signature().raw_bytes()).unwrap();
        ca_key.verify(&c.tbs_certificate().to_der().unwrap(), &sig).expect("a signature made through fastsm2");
    }
    let req_key = VerifyingKey::from_public_key_der(&req.info.public_key.to_der().unwrap()).unwrap();
    let sig = DerSignature::try_from(req.signature.raw_bytes()).unwrap();
    req_key.verify(&req.info.to_der().unwrap(), &sig).expect("the request's signature");
    // libfastsm2's chain verifier and request verifier
    assert_eq!(verify_chain(&leaf_der, &ca_der), (FASTSM2_OK, 0));
    assert_eq!(verify_chain(&ca_der, &ca_der), (FASTSM2_OK, 0));
    assert_eq!(unsafe { fastsm2_x509_verify_request(req_der.as_ptr(), req_der.len(), std::ptr::null(), 0) },
               FASTSM2_OK);
    // a changed byte in the signed part is refused
    let mut bad = leaf_der.clone();
    let at = bad.len() - 100;
    bad[at] ^= 0x01;
    let (st, depth) = verify_chain(&bad, &ca_der);
    assert!(st < 0, "a changed certificate verified");
    if st == FASTSM2_ERR_BAD_SIGNATURE {
        assert_eq!(depth, 0);
    }
}

#[test]
fn the_example_is_the_pages_text() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/PKI.md")).unwrap();
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/x509_cert.rs")).unwrap();
    let body = &src[src.find("use std::str::FromStr;").unwrap()..];
    let start = page.find(&format!("```rust\n{}", &body[..40])).expect("docs/PKI.md has the Rust example");
    let block = &page[start + 8..];
    let block = &block[..block.find("```\n").unwrap()];
    assert_eq!(block, body, "docs/PKI.md's Rust example differs from examples/x509_cert.rs");
}
