// SPDX-License-Identifier: Apache-2.0
//! fastsm2 against RustCrypto's `sm2` and `sm3` crates, both ways, for every
//! operation both have: signatures (raw and DER, default and custom signer
//! IDs), keys (PKCS#8, SEC1, SPKI, and the type conversions), encryption
//! (C1C3C2, C1C2C3, DER), ECDH, SM3 and HMAC-SM3. The `sm2` crate has no
//! GB/T 32918.3 key exchange: that is tested between two fastsm2 sides.
#![cfg(feature = "sm2")]

use fastsm2::pkcs8::DecodePrivateKey;
use fastsm2::sec1::{DecodeEcPrivateKey, EncodeEcPrivateKey};
use fastsm2::signature::{Keypair, Signer, Verifier};
use fastsm2::spki::{DecodePublicKey, EncodePublicKey};
use fastsm2::{CiphertextFormat, DerSignature, Error, KeyExchange, Role, Signature, SigningKey, Sm3, VerifyingKey};

fn rng() -> getrandom::SysRng {
    getrandom::SysRng
}

/// A key made on the sm2 crate's side from OS random bytes.
fn sm2_secret() -> sm2::SecretKey {
    loop {
        let mut d = [0u8; 32];
        getrandom::fill(&mut d).unwrap();
        if let Ok(k) = sm2::SecretKey::from_bytes(&sm2::FieldBytes::from(d)) {
            return k;
        }
    }
}

fn msgs() -> Vec<Vec<u8>> {
    vec![b"".to_vec(), b"abc".to_vec(), vec![0x5a; 1000], (0..=255u8).collect()]
}

#[test]
fn fastsm2_signs_sm2_verifies() {
    for id in [None, Some("ALICE123@YAHOO.COM")] {
        let mut key = SigningKey::generate().unwrap();
        if let Some(id) = id {
            key = key.with_id(id.as_bytes()).unwrap();
        }
        let distid = id.unwrap_or("1234567812345678");
        let theirs = key.verifying_key().to_sm2(distid).unwrap();
        for m in msgs() {
            let sig: Signature = key.sign(&m);
            let s = sm2::dsa::Signature::try_from(&sig).unwrap();
            theirs.verify(&m, &s).expect("sm2 accepts fastsm2's signature");
            let der: DerSignature = key.sign(&m);
            let s2 = sm2::dsa::Signature::from_der(der.as_bytes()).unwrap();
            theirs.verify(&m, &s2).expect("sm2 accepts fastsm2's DER signature");
            let mut m2 = m.clone();
            m2.push(1);
            assert!(theirs.verify(&m2, &s).is_err());
        }
        // The wrong ID fails on their side.
        let other = key.verifying_key().to_sm2("another id").unwrap();
        let sig: Signature = key.sign(b"abc");
        assert!(other.verify(b"abc", &sm2::dsa::Signature::try_from(&sig).unwrap()).is_err());
    }
}

#[test]
fn sm2_signs_fastsm2_verifies() {
    for distid in ["1234567812345678", "ALICE123@YAHOO.COM"] {
        let sk = sm2_secret();
        let theirs = sm2::dsa::SigningKey::new(distid, &sk).unwrap();
        let ours = VerifyingKey::try_from(theirs.verifying_key()).unwrap();
        for m in msgs() {
            let s: sm2::dsa::Signature = theirs.sign(&m);
            let sig = Signature::from(&s);
            ours.verify(&m, &sig).expect("fastsm2 accepts sm2's signature");
            let der = DerSignature::try_from(s.to_der().as_bytes()).unwrap();
            ours.verify(&m, &der).expect("fastsm2 accepts sm2's DER signature");
            let mut bad = sig.to_bytes();
            bad[63] ^= 1;
            let e = ours.verify_with_id(None, &m, &Signature::from_bytes(bad)).unwrap_err();
            assert_eq!(e, Error::BadSignature);
        }
        // The same d signs here and verifies there with the key converted.
        let ours_sk = SigningKey::try_from(&theirs).unwrap();
        let sig: Signature = ours_sk.sign(b"x");
        theirs.verifying_key().verify(b"x", &sm2::dsa::Signature::try_from(&sig).unwrap()).unwrap();
        assert_eq!(ours_sk.verifying_key(), &ours);
    }
}

#[test]
fn keys_pkcs8_sec1_spki_both_ways() {
    use sm2::pkcs8::{DecodePrivateKey as _, DecodePublicKey as _, EncodePrivateKey as _, EncodePublicKey as _};
    use sm2::elliptic_curve::sec1::ToSec1Point;
    // Ours -> theirs.
    let key = SigningKey::generate().unwrap();
    let der = key.to_pkcs8_der().unwrap();
    let sk = sm2::SecretKey::from_pkcs8_der(der.as_bytes()).unwrap();
    assert_eq!(&sk.to_bytes()[..], &key.to_bytes()[..]);
    let sec1 = key.to_sec1_der().unwrap();
    let sk2 = sm2::SecretKey::from_sec1_der(sec1.as_bytes()).unwrap();
    assert_eq!(&sk2.to_bytes()[..], &key.to_bytes()[..]);
    let spki = key.verifying_key().to_public_key_der().unwrap();
    let pk = sm2::PublicKey::from_public_key_der(spki.as_bytes()).unwrap();
    assert_eq!(pk.to_sec1_point(false).as_bytes(), &key.verifying_key().to_sec1_bytes(false)[..]);
    // Theirs -> ours.
    let sk = sm2_secret();
    let der = sk.to_pkcs8_der().unwrap();
    let ours = SigningKey::from_pkcs8_der(der.as_bytes()).unwrap();
    assert_eq!(&ours.to_bytes()[..], &sk.to_bytes()[..]);
    let sec1 = sk.to_sec1_der().unwrap();
    let ours2 = SigningKey::from_sec1_der(&sec1[..]).unwrap();
    assert_eq!(&ours2.to_bytes()[..], &sk.to_bytes()[..]);
    let spki = sk.public_key().to_public_key_der().unwrap();
    let pub_ours = VerifyingKey::from_public_key_der(spki.as_bytes()).unwrap();
    assert_eq!(pub_ours, *ours.verifying_key());
    // PEM through the traits' provided methods.
    let pem = ours.to_pkcs8_pem(Default::default()).unwrap();
    assert_eq!(&SigningKey::from_pkcs8_pem(&pem).unwrap().to_bytes()[..], &sk.to_bytes()[..]);
    // Type conversions.
    let back = sm2::SecretKey::try_from(&ours).unwrap();
    assert_eq!(back.to_bytes(), sk.to_bytes());
    let pk2 = sm2::PublicKey::try_from(ours.verifying_key()).unwrap();
    assert_eq!(pk2, sk.public_key());
    assert_eq!(VerifyingKey::try_from(&pk2).unwrap(), *ours.verifying_key());
    assert_eq!(&SigningKey::try_from(&sk).unwrap().to_bytes()[..], &sk.to_bytes()[..]);
    // Keypair.
    assert_eq!(Keypair::verifying_key(&ours), pub_ours);
}

#[test]
fn bad_keys_refused() {
    assert_eq!(SigningKey::from_bytes(&[0; 32]).unwrap_err(), Error::PrivateKey);
    // n - 1 is refused (1 + d must be invertible).
    let mut n1 = [0u8; 32];
    let n_minus_1 = "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54122";
    for i in 0..32 {
        n1[i] = u8::from_str_radix(&n_minus_1[2 * i..2 * i + 2], 16).unwrap();
    }
    assert_eq!(SigningKey::from_bytes(&n1).unwrap_err(), Error::PrivateKey);
    assert_eq!(SigningKey::from_slice(&[1; 31]).unwrap_err(), Error::Length);
    let key = SigningKey::generate().unwrap();
    let mut p = key.verifying_key().to_sec1_bytes(false);
    p[64] ^= 1;
    assert_eq!(VerifyingKey::from_sec1_bytes(&p).unwrap_err(), Error::Point);
    assert_eq!(VerifyingKey::from_sec1_bytes(&p[..64]).unwrap_err(), Error::Length);
    assert!(SigningKey::from_pkcs8_der(b"\x30\x03\x02\x01\x00").is_err());
    assert!(VerifyingKey::from_public_key_der(b"\x30\x00").is_err());
    // A P-256 SPKI (the curve named by OID 1.2.840.10045.3.1.7) is refused.
    let mut spki = key.verifying_key().to_public_key_der().unwrap().as_bytes().to_vec();
    let sm2_oid = [0x06, 0x08, 0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x82, 0x2d];
    let at = spki.windows(10).position(|w| w == sm2_oid).unwrap();
    spki[at..at + 10].copy_from_slice(&[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]);
    assert!(VerifyingKey::from_public_key_der(&spki).is_err());
    // DER signatures: trailing bytes refused.
    let der: DerSignature = key.sign(b"m");
    let mut v = der.as_bytes().to_vec();
    v.push(0);
    assert!(DerSignature::try_from(&v[..]).is_err());
    assert!(Signature::try_from(&[0u8; 63][..]).is_err());
    // r = 0 is out of range.
    let e = key.verifying_key().verify_with_id(None, b"m", &Signature::from_bytes([0; 64])).unwrap_err();
    assert_eq!(e, Error::SignatureRange);
}

#[test]
fn encryption_both_ways() {
    use sm2::pke::{DecryptingKey, EncryptingKey, Mode};
    let key = SigningKey::generate().unwrap();
    let sk = sm2::SecretKey::try_from(&key).unwrap();
    for (fmt, mode) in [(CiphertextFormat::RawC1C3C2, Mode::C1C3C2), (CiphertextFormat::RawC1C2C3, Mode::C1C2C3)] {
        let dk = DecryptingKey::new_with_mode(sk.to_nonzero_scalar(), mode);
        let ek = EncryptingKey::new_with_mode(sk.public_key(), mode);
        for m in msgs().into_iter().filter(|m| !m.is_empty()) {
            let ct = key.verifying_key().encrypt(&m, fmt).unwrap();
            assert_eq!(dk.decrypt(&ct).unwrap(), m, "sm2 decrypts fastsm2's {fmt:?}");
            let ct2 = ek.encrypt(&mut rng(), &m).unwrap();
            assert_eq!(&key.decrypt(&ct2, fmt).unwrap()[..], &m[..], "fastsm2 decrypts sm2's {fmt:?}");
            let mut bad = ct2.clone();
            let last = bad.len() - 1;
            bad[last] ^= 1;
            assert_eq!(key.decrypt(&bad, fmt).unwrap_err(), Error::Decrypt);
        }
    }
    // GM/T 0009 DER.
    let dk = DecryptingKey::new(sk.clone());
    let ek = EncryptingKey::new(sk.public_key());
    let m = b"encryption standard".to_vec();
    let ct = key.verifying_key().encrypt(&m, CiphertextFormat::Der).unwrap();
    assert_eq!(dk.decrypt_der(&ct).unwrap(), m);
    let ct2 = ek.encrypt_der(&mut rng(), &m).unwrap();
    assert_eq!(&key.decrypt(&ct2, CiphertextFormat::Der).unwrap()[..], &m[..]);
    assert_eq!(key.decrypt(&ct2[..ct2.len() - 1], CiphertextFormat::Der).unwrap_err(), Error::Ciphertext);
    assert_eq!(key.verifying_key().encrypt(b"", CiphertextFormat::Der).unwrap_err(), Error::Length);
}

#[test]
fn ecdh_matches_sm2_arithmetic() {
    use sm2::elliptic_curve::sec1::ToSec1Point;
    let a = SigningKey::generate().unwrap();
    let b = sm2_secret();
    let b_pub = b.public_key().to_sec1_point(false);
    let ours = a.diffie_hellman(b_pub.as_bytes()).unwrap();
    let a_pub = sm2::PublicKey::try_from(a.verifying_key()).unwrap();
    let shared = (a_pub.to_projective() * *b.to_nonzero_scalar()).to_affine();
    let enc = shared.to_sec1_point(false);
    assert_eq!(&ours[..], &enc.as_bytes()[1..33]);
    // And with the compressed point.
    let b_c = b.public_key().to_sec1_point(true);
    assert_eq!(&a.diffie_hellman(b_c.as_bytes()).unwrap()[..], &ours[..]);
    let mut bad = b_pub.as_bytes().to_vec();
    bad[40] ^= 1;
    assert_eq!(a.diffie_hellman(&bad).unwrap_err(), Error::Point);
}

#[test]
fn key_exchange_agrees_and_confirms() {
    let a = SigningKey::generate().unwrap();
    let b = SigningKey::generate().unwrap().with_id(b"BILL456@YAHOO.COM").unwrap();
    let mut xa = KeyExchange::new(Role::Initiator, &a, None, b.verifying_key(), None).unwrap();
    let mut xb = KeyExchange::new(Role::Responder, &b, None, a.verifying_key(), None).unwrap();
    let ra = xa.start().unwrap();
    let rb = xb.start().unwrap();
    let kb = xb.compute(&ra, 48).unwrap();
    let ka = xa.compute(&rb, 48).unwrap();
    assert_eq!(&ka[..], &kb[..]);
    xa.verify_confirmation(&xb.confirmation().unwrap()).unwrap();
    xb.verify_confirmation(&xa.confirmation().unwrap()).unwrap();
    let mut bad = xb.confirmation().unwrap();
    bad[0] ^= 1;
    assert_eq!(xa.verify_confirmation(&bad).unwrap_err(), Error::Confirm);
    // The peer's ID given wrongly: the keys differ.
    let mut ya = KeyExchange::new(Role::Initiator, &a, None, b.verifying_key(), Some(b"1234567812345678")).unwrap();
    let mut yb = KeyExchange::new(Role::Responder, &b, None, a.verifying_key(), None).unwrap();
    let (r1, r2) = (ya.start().unwrap(), yb.start().unwrap());
    assert_ne!(&ya.compute(&r2, 16).unwrap()[..], &yb.compute(&r1, 16).unwrap()[..]);
    // Out of order and bad R.
    let mut z = KeyExchange::new(Role::Initiator, &a, None, b.verifying_key(), None).unwrap();
    assert_eq!(z.compute(&rb, 16).unwrap_err(), Error::State);
    z.start().unwrap();
    assert_eq!(z.compute(&rb[..64], 16).unwrap_err(), Error::Length);
    let mut badr = rb;
    badr[64] ^= 1;
    assert_eq!(z.compute(&badr, 16).unwrap_err(), Error::Point);
}

#[test]
fn sm3_and_hmac_match_rustcrypto() {
    use fastsm2::digest::Digest;
    use hmac::{KeyInit, Mac};
    for len in [0usize, 1, 55, 56, 63, 64, 65, 1000, 4097] {
        let m: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
        let ours = Sm3::digest(&m);
        let theirs = sm3::Sm3::digest(&m);
        assert_eq!(&ours[..], &theirs[..]);
        // Streaming in uneven pieces through the digest traits.
        let mut h = <Sm3 as Digest>::new();
        for chunk in m.chunks(13) {
            Digest::update(&mut h, chunk);
        }
        assert_eq!(&h.finalize()[..], &theirs[..]);
        // HMAC: the library's, hmac over our Sm3, hmac over theirs.
        for key in [&b"k"[..], &[0xaa; 64][..], &[0x0b; 100][..]] {
            let lib = fastsm2::hmac_sm3(key, &m);
            let mut a = hmac::SimpleHmac::<Sm3>::new_from_slice(key).unwrap();
            a.update(&m);
            let mut b = hmac::SimpleHmac::<sm3::Sm3>::new_from_slice(key).unwrap();
            b.update(&m);
            assert_eq!(&a.finalize().into_bytes()[..], &lib[..]);
            assert_eq!(&b.finalize().into_bytes()[..], &lib[..]);
            let mut s = fastsm2::HmacSm3::new(key);
            s.update(&m);
            assert_eq!(s.finalize(), lib);
        }
    }
    // GB/T 32905 Appendix A example 1.
    assert_eq!(
        Sm3::digest(b"abc")[..4],
        [0x66, 0xc7, 0xf0, 0xf4]
    );
}

/// The empty signer ID (the coordinator's decision for issue 30: a non-NULL
/// empty ID is ENTL = 0 with no ID bytes, what OpenSSL signs with when no
/// distid is set). Until the library that implements it is merged, the
/// library answers Error::Id: then this test says so and checks only that.
#[test]
fn empty_signer_id_against_sm2() {
    let key = SigningKey::generate().unwrap();
    match key.sign_with_id(Some(b""), b"abc") {
        Err(Error::Id) => {
            eprintln!("SKIP: this libfastsm2 refuses the empty signer ID (FASTSM2_ERR_ID); enabled once it takes it");
        }
        Err(e) => panic!("unexpected {e:?}"),
        Ok(sig) => {
            let theirs = key.verifying_key().to_sm2("").unwrap();
            theirs.verify(b"abc", &sm2::dsa::Signature::try_from(&sig).unwrap()).expect("sm2 verifies, empty ID");
            let their_key = key.to_sm2("").unwrap();
            let s: sm2::dsa::Signature = their_key.sign(b"abc");
            key.verifying_key().verify_with_id(Some(b""), b"abc", &Signature::from(&s)).unwrap();
            // Not the default ID's signature.
            assert!(key.verifying_key().verify_with_id(None, b"abc", &Signature::from(&s)).is_err());
        }
    }
}
