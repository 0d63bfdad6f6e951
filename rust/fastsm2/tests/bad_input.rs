// SPDX-License-Identifier: Apache-2.0
//! A corpus of bad input through every entry point that parses or
//! authenticates (random bytes, mutated valid encodings, wrong lengths):
//! each call returns an error the crate names (never `Error::Other`, never
//! a panic); then the known answers of GB/T 32918.5 (signature), GB/T 32907
//! (SM4) and RFC 8998 (SM4-GCM) still come out right, from keys and
//! contexts made before and after the corpus. Also: every status code of
//! fastsm2.h has its own `Error` variant.
use fastsm2::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use fastsm2::sec1::{DecodeEcPrivateKey, EncodeEcPrivateKey};
use fastsm2::signature::{Signer, Verifier};
use fastsm2::sm4::aead::{Aead, KeyInit, Payload};
use fastsm2::sm4::cipher::{BlockCipherEncrypt, KeyIvInit};
use fastsm2::spki::{DecodePublicKey, EncodePublicKey};
use fastsm2::{
    CiphertextFormat, DerSignature, Error, KeyExchange, Role, Signature, SigningKey, Sm4, Sm4Ccm, Sm4Gcm, VerifyingKey,
};

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// The crate's error for a library failure is always a named variant.
fn named<T>(r: Result<T, Error>) {
    if let Err(e) = r {
        assert!(!matches!(e, Error::Other(_)), "an unnamed error: {e:?}");
        assert!(!e.to_string().is_empty());
    }
}

/// GB/T 32918.5's signature example (tests/vectors/gbt32918-examples.txt):
/// the key, its public key, and the standard's (r, s) verified.
fn sm2_known_answer() {
    let d: [u8; 32] = unhex("3945208F7B2144B13F36E38AC6D39F95889393692860B51A42FB81EF4DF7C5B8").try_into().unwrap();
    let key = SigningKey::from_bytes(&d).unwrap();
    let point = key.verifying_key().to_sec1_bytes(false);
    assert_eq!(point[1..33], unhex("09F9DF311E5421A150DD7D161E4BC5C672179FAD1833FC076BB08FF356F35020")[..]);
    assert_eq!(point[33..], unhex("CCEA490CE26775A52DC6EA718CC1AA600AED05FBF35E084A6632F6072DA9AD13")[..]);
    let mut rs = unhex("F5A03B0648D2C4630EEAC513E1BB81A15944DA3827D5B74143AC7EACEEE720B3");
    rs.extend(unhex("B1B6AA29DF212FD8763182BC0D421CA1BB9038FD1F7F42D4840B69C485BBC1AA"));
    let sig = Signature::from_bytes(rs.try_into().unwrap());
    key.verifying_key().verify(b"message digest", &sig).unwrap();
    assert!(key.verifying_key().verify(b"message digesT", &sig).is_err());
    assert_eq!(
        fastsm2::Sm3::digest(b"abc")[..],
        unhex("66C7F0F462EEEDD9D1F2D46BDC10E4E24167C4875CF2F7A2297DA02B8F4BA8E0")[..]
    );
}

/// GB/T 32907 example 1 and RFC 8998 A.1 / A.2 (SM4-GCM, SM4-CCM).
fn sm4_known_answers(block: &Sm4, gcm: &Sm4Gcm, ccm: &Sm4Ccm) {
    let k = unhex("0123456789ABCDEFFEDCBA9876543210");
    let mut b = fastsm2::sm4::cipher::Block::<Sm4>::try_from(&k[..]).unwrap();
    block.encrypt_block(&mut b);
    assert_eq!(b[..], unhex("681EDF34D206965E86B3E94F536E4246")[..]);
    let iv: [u8; 12] = unhex("00001234567800000000ABCD").try_into().unwrap();
    let aad = unhex("FEEDFACEDEADBEEFFEEDFACEDEADBEEFABADDAD2");
    let pt = unhex(concat!(
        "AAAAAAAAAAAAAAAABBBBBBBBBBBBBBBBCCCCCCCCCCCCCCCCDDDDDDDDDDDDDDDD",
        "EEEEEEEEEEEEEEEEFFFFFFFFFFFFFFFFEEEEEEEEEEEEEEEEAAAAAAAAAAAAAAAA"
    ));
    let ct = gcm.encrypt(&iv.into(), Payload { msg: &pt, aad: &aad }).unwrap();
    assert_eq!(
        ct,
        unhex(concat!(
            "17F399F08C67D5EE19D0DC9969C4BB7D5FD46FD3756489069157B282BB200735",
            "D82710CA5C22F0CCFA7CBF93D496AC15A56834CBCF98C397B4024A2691233B8D",
            "83DE3541E4C2B58177E065A9BF7B62EC"
        ))
    );
    let ct = ccm.encrypt(&iv.into(), Payload { msg: &pt, aad: &aad }).unwrap();
    assert_eq!(
        ct,
        unhex(concat!(
            "48AF93501FA62ADBCD414CCE6034D895DDA1BF8F132F042098661572E7483094",
            "FD12E518CE062C98ACEE28D95DF4416BED31A2F04476C18BB40C84A74B97DC5B",
            "16842D4FA186F56AB33256971FA110F4"
        ))
    );
}

#[test]
fn every_status_code_has_a_variant() {
    for code in fastsm2_sys::FASTSM2_ERR_LAST..=-1 {
        let e = Error::from_code(code);
        assert!(!matches!(e, Error::Other(_)), "code {code} has no variant");
        assert_eq!(e.code(), code);
        // SAFETY: a static string for every int.
        let name = unsafe { std::ffi::CStr::from_ptr(fastsm2_sys::fastsm2_error_name(code)) };
        assert!(name.to_str().unwrap().starts_with("FASTSM2_ERR_"));
    }
    assert_eq!(Error::from_code(fastsm2_sys::FASTSM2_ERR_LAST - 1), Error::Other(fastsm2_sys::FASTSM2_ERR_LAST - 1));
}

#[test]
fn corpus_then_known_answers() {
    let k16 = unhex("0123456789ABCDEFFEDCBA9876543210");
    let (block, gcm, ccm) =
        (Sm4::new_from_slice(&k16).unwrap(), Sm4Gcm::new_from_slice(&k16).unwrap(), Sm4Ccm::new_from_slice(&k16).unwrap());
    let key = SigningKey::generate().unwrap();
    let pubk = key.verifying_key().clone();
    let sig: Signature = key.sign(b"m");
    let der: DerSignature = key.sign(b"m");
    let valid: Vec<Vec<u8>> = vec![
        key.to_pkcs8_der().unwrap().as_bytes().to_vec(),
        key.to_sec1_der().unwrap().to_bytes().to_vec(),
        key.to_pkcs8_pem(Default::default()).unwrap().as_bytes().to_vec(),
        pubk.to_public_key_der().unwrap().as_bytes().to_vec(),
        pubk.to_sec1_bytes(false),
        pubk.to_sec1_bytes(true),
        der.as_bytes().to_vec(),
        sig.to_bytes().to_vec(),
        pubk.encrypt(b"corpus", CiphertextFormat::Der).unwrap(),
        pubk.encrypt(b"corpus", CiphertextFormat::RawC1C3C2).unwrap(),
        gcm.encrypt(&[0u8; 12].into(), &b"sm4 corpus"[..]).unwrap(),
    ];
    let mut r = Rng(0x0bad_1dea_5eed_0001);
    for round in 0..300 {
        let data = if round % 2 == 0 {
            let n = [0usize, 1, 16, 31, 32, 33, 64, 65, 72, 97, 150][(r.next() % 11) as usize];
            let len = if round % 6 == 0 { (r.next() % 600) as usize } else { n };
            r.bytes(len)
        } else {
            let mut b = valid[(r.next() as usize) % valid.len()].clone();
            match r.next() % 4 {
                0 if !b.is_empty() => {
                    let i = (r.next() as usize) % b.len();
                    b[i] ^= 1 << (r.next() % 8);
                }
                1 if !b.is_empty() => b.truncate((r.next() as usize) % b.len()),
                2 => {
                    let len = 1 + (r.next() % 4) as usize;
                    let extra = r.bytes(len);
                    b.extend(extra);
                }
                _ => {
                    if let Some(p) = b.iter().position(|&x| x == 0x30) {
                        b[p] = r.next() as u8;
                    }
                }
            }
            b
        };
        let d = &data[..];
        named(SigningKey::from_key_file(d));
        named(SigningKey::from_slice(d));
        let _ = SigningKey::from_pkcs8_der(d);
        let _ = SigningKey::from_sec1_der(d);
        named(VerifyingKey::from_public_key_file(d));
        named(VerifyingKey::from_sec1_bytes(d));
        named(VerifyingKey::from_certificate(d));
        let _ = VerifyingKey::from_public_key_der(d);
        named(Signature::from_der(d));
        let _ = DerSignature::try_from(d);
        if let Ok(s) = <[u8; 64]>::try_from(d) {
            named(pubk.verify_with_id(None, b"m", &Signature::from_bytes(s)));
        }
        named(pubk.verify_with_id(Some(d), b"m", &sig));
        for f in [CiphertextFormat::Der, CiphertextFormat::RawC1C3C2, CiphertextFormat::RawC1C2C3] {
            named(key.decrypt(d, f));
        }
        named(key.diffie_hellman(d));
        let mut kx = KeyExchange::new(Role::Initiator, &key, None, &pubk, None).unwrap();
        let _ = kx.start().unwrap();
        named(kx.compute(d, 16));
        // SM4: decryptions of garbage fail, never panic.
        let nonce = [7u8; 12];
        assert!(gcm.decrypt(&nonce.into(), d).is_err());
        assert!(ccm.decrypt(&nonce.into(), d).is_err());
        named(fastsm2::sm4::Sm4CbcDec::new_from_slices(&k16, &[0u8; 16]).unwrap().decrypt_pkcs7_vec(d));
        named(fastsm2::sm4::Sm4EcbDec::new_from_slice(&k16).unwrap().decrypt_pkcs7_vec(d));
    }
    // After all that, the known answers, from the objects made before the
    // corpus and from fresh ones.
    sm2_known_answer();
    sm4_known_answers(&block, &gcm, &ccm);
    sm4_known_answers(
        &Sm4::new_from_slice(&k16).unwrap(),
        &Sm4Gcm::new_from_slice(&k16).unwrap(),
        &Sm4Ccm::new_from_slice(&k16).unwrap(),
    );
    let again: Signature = key.sign(b"still works");
    pubk.verify(b"still works", &again).unwrap();
}
