// SPDX-License-Identifier: Apache-2.0
//! The provider's pieces on their own: SM4-GCM against RFC 8998's example
//! (Appendix A.1), both suites' record protection against RustCrypto's
//! SM4-GCM and SM4-CCM, the curveSM2 group (agreement, refused key shares), SM3
//! and HMAC-SM3 as rustls sees them.
use fastsm2::sm4::aead::{Aead, AeadInOut, KeyInit};
use rustls::crypto::kx::NamedGroup;

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

#[test]
fn sm4_gcm_rfc8998_example() {
    // RFC 8998 Appendix A.1, through the AEAD the suite uses.
    let key = unhex("0123456789ABCDEFFEDCBA9876543210");
    let iv: [u8; 12] = unhex("00001234567800000000ABCD").try_into().unwrap();
    let aad = unhex("FEEDFACEDEADBEEFFEEDFACEDEADBEEFABADDAD2");
    let mut buf = unhex(concat!(
        "AAAAAAAAAAAAAAAABBBBBBBBBBBBBBBBCCCCCCCCCCCCCCCCDDDDDDDDDDDDDDDD",
        "EEEEEEEEEEEEEEEEFFFFFFFFFFFFFFFFEEEEEEEEEEEEEEEEAAAAAAAAAAAAAAAA"
    ));
    let c = fastsm2::Sm4Gcm::new_from_slice(&key).unwrap();
    let tag = c.encrypt_inout_detached(&iv.into(), &aad, buf[..].as_mut().into()).unwrap();
    assert_eq!(
        buf,
        unhex(concat!(
            "17F399F08C67D5EE19D0DC9969C4BB7D5FD46FD3756489069157B282BB200735",
            "D82710CA5C22F0CCFA7CBF93D496AC15A56834CBCF98C397B4024A2691233B8D"
        ))
    );
    assert_eq!(&tag[..], &unhex("83DE3541E4C2B58177E065A9BF7B62EC")[..]);
}

/// The suites' record protection against RustCrypto's SM4-GCM and SM4-CCM
/// (`aes-gcm` and `ccm` over `sm4`) on TLS 1.3 records (RFC 8446 5.2:
/// nonce = IV xor sequence number, AAD = the record header): both ways,
/// every record length class, and a flipped bit refused.
#[test]
fn record_protection_matches_rustcrypto() {
    use rustls::crypto::cipher::{AeadKey, EncodableVersion, InboundOpaque, Iv, OutboundPlain, Record};
    use rustls::enums::{ContentType, ProtocolVersion};
    type TheirGcm = aes_gcm::AesGcm<sm4::Sm4, aes_gcm::aead::consts::U12>;
    type TheirCcm = ccm::Ccm<sm4::Sm4, ccm::consts::U16, ccm::consts::U12>;
    let key = [0x42u8; 16];
    let iv_bytes = [0x17u8; 12];
    for (suite, gcm) in [(fastsm2_rustls::TLS13_SM4_GCM_SM3, true), (fastsm2_rustls::TLS13_SM4_CCM_SM3, false)] {
        let alg = suite.aead_alg;
        for (seq, len) in [(0u64, 0usize), (1, 1), (2, 15), (7, 16), (1 << 40, 1000), (3, 16384)] {
            let plain: Vec<u8> = (0..len).map(|i| (i * 7 + seq as usize) as u8).collect();
            let mut enc = alg.encrypter(AeadKey::from(key), Iv::new(&iv_bytes).unwrap());
            let mut out = vec![0u8; enc.encrypted_payload_len(len)];
            let rec = enc
                .encrypt(
                    Record {
                        typ: ContentType::ApplicationData,
                        version: EncodableVersion::Legacy(ProtocolVersion::TLSv1_3),
                        payload: OutboundPlain::Single(&plain),
                    },
                    seq,
                    &mut out,
                )
                .unwrap();
            let wire = rec.payload.to_vec();
            // The same record from RustCrypto: inner plaintext || content type.
            let mut nonce = iv_bytes;
            for (n, s) in nonce[4..].iter_mut().zip(seq.to_be_bytes()) {
                *n ^= s;
            }
            let total = wire.len();
            let aad = [0x17, 0x03, 0x03, (total >> 8) as u8, total as u8];
            let mut inner = plain.clone();
            inner.push(0x17);
            let theirs = if gcm {
                TheirGcm::new(&key.into()).encrypt(&nonce.into(), aes_gcm::aead::Payload { msg: &inner, aad: &aad })
            } else {
                TheirCcm::new(&key.into()).encrypt(&nonce.into(), ccm::aead::Payload { msg: &inner, aad: &aad })
            }
            .unwrap();
            assert_eq!(wire, theirs, "{:?}, {} bytes", suite.common.suite, len);
            // Ours decrypts it; a flipped bit is refused.
            let mut dec = alg.decrypter(AeadKey::from(key), Iv::new(&iv_bytes).unwrap());
            let mut buf = theirs.clone();
            let got = dec
                .decrypt(
                    Record {
                        typ: ContentType::ApplicationData,
                        // as read from the wire: legacy_record_version 0x0303
                        version: EncodableVersion::Legacy(ProtocolVersion::TLSv1_2),
                        payload: InboundOpaque(&mut buf[..]),
                    },
                    seq,
                )
                .unwrap();
            assert_eq!(got.payload, &plain[..]);
            let mut bad = theirs.clone();
            bad[total / 2] ^= 4;
            let mut dec = alg.decrypter(AeadKey::from(key), Iv::new(&iv_bytes).unwrap());
            let r = dec.decrypt(
                Record {
                    typ: ContentType::ApplicationData,
                    version: EncodableVersion::Legacy(ProtocolVersion::TLSv1_2),
                    payload: InboundOpaque(&mut bad[..]),
                },
                seq,
            );
            assert_eq!(r.err(), Some(rustls::Error::DecryptError));
        }
    }
}

#[test]
fn curve_sm2_agrees_and_refuses_bad_shares() {
    let g = fastsm2_rustls::CURVE_SM2;
    assert_eq!(g.name(), NamedGroup::curveSM2);
    let a = g.start().unwrap().into_single();
    let b = g.start().unwrap().into_single();
    assert_eq!(a.pub_key().len(), 65);
    assert_eq!(a.pub_key()[0], 4);
    let (pa, pb) = (a.pub_key().to_vec(), b.pub_key().to_vec());
    let sa = a.complete(&pb).unwrap();
    let sb = b.complete(&pa).unwrap();
    assert_eq!(sa.secret_bytes(), sb.secret_bytes());
    assert_eq!(sa.secret_bytes().len(), 32);
    // Off the curve, compressed, empty: refused.
    let mut off = pb.clone();
    off[64] ^= 1;
    for bad in [off, pb[..33].to_vec(), vec![]] {
        let c = g.start().unwrap().into_single();
        assert!(c.complete(&bad).is_err(), "{bad:02x?}");
    }
    let k = fastsm2::SigningKey::generate().unwrap();
    let c = g.start().unwrap().into_single();
    let compressed = k.verifying_key().to_sec1_bytes(true);
    assert!(c.complete(&compressed).is_err(), "a compressed share is refused (RFC 8446 4.2.8.2)");
}

#[test]
fn sm3_and_hmac_as_rustls_sees_them() {
    let h = fastsm2_rustls::SM3;
    assert_eq!(h.output_len(), 32);
    assert_eq!(h.hash(b"abc").as_ref(), &unhex("66C7F0F462EEEDD9D1F2D46BDC10E4E24167C4875CF2F7A2297DA02B8F4BA8E0")[..]);
    let mut c = h.start();
    c.update(b"a");
    let fork = c.fork_finish();
    c.update(b"bc");
    assert_eq!(c.finish().as_ref(), h.hash(b"abc").as_ref());
    assert_eq!(fork.as_ref(), h.hash(b"a").as_ref());
    let key = fastsm2_rustls::HMAC_SM3.with_key(b"key");
    let tag = key.sign_concat(b"a", &[b"b"], b"c");
    assert_eq!(tag.as_ref(), &fastsm2::hmac_sm3(b"key", b"abc")[..]);
}

/// CertificateVerify is signed with RFC 8998's ID, "TLSv1.3+GM+Cipher+Suite"
/// (what GmSSL's tls13_server signs and checks), not the default ID; and
/// the two verification algorithms take one ID each.
#[test]
fn certificate_verify_uses_the_tls13_signer_id() {
    use rustls::crypto::{SignatureScheme, SigningKey as _};
    let key = fastsm2::SigningKey::generate().unwrap();
    let public = key.verifying_key().clone();
    let point = public.to_sec1_bytes(false);
    let sk = fastsm2_rustls::Sm2SigningKey::new(key);
    assert!(sk.choose_scheme(&[SignatureScheme::ECDSA_NISTP256_SHA256]).is_none());
    let signer = sk.choose_scheme(&[SignatureScheme::ECDSA_NISTP256_SHA256, SignatureScheme::SM2_SM3]).unwrap();
    assert_eq!(signer.scheme(), SignatureScheme::SM2_SM3);
    let msg = b"TLS 1.3, server CertificateVerify";
    let der = signer.sign(msg).unwrap();
    let sig = fastsm2::Signature::from_der(&der).unwrap();
    public.verify_with_id(Some(b"TLSv1.3+GM+Cipher+Suite"), msg, &sig).unwrap();
    assert!(public.verify_with_id(None, msg, &sig).is_err());
    assert!(fastsm2_rustls::SM2_SM3_TLS13.verify_signature(&point, msg, &der).is_ok());
    assert!(fastsm2_rustls::SM2_SM3.verify_signature(&point, msg, &der).is_err());
    // Bad inputs are refused, not a panic.
    assert!(fastsm2_rustls::SM2_SM3_TLS13.verify_signature(&point[..64], msg, &der).is_err());
    assert!(fastsm2_rustls::SM2_SM3_TLS13.verify_signature(&point, msg, &der[..der.len() - 1]).is_err());
}
