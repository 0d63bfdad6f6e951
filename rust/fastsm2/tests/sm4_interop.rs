// SPDX-License-Identifier: Apache-2.0
//! fastsm2's SM4 against RustCrypto's, both ways, on random keys, IVs and
//! lengths: the block cipher (`sm4`), ECB and CBC (`ecb`, `cbc`, with
//! PKCS#7 both the library's and `block-padding`'s), CTR (`ctr`, with
//! seeking), OFB (`ofb`), CFB (`cfb-mode`), GCM (`aes-gcm`'s generic GCM
//! over `sm4`) and CCM (`ccm` over `sm4`), with tag failures; RustCrypto's
//! modes over fastsm2's block cipher; GB/T 32907's examples.
use fastsm2::sm4::aead::{Aead, AeadInOut, KeyInit, Payload};
use fastsm2::sm4::cipher::{
    self, block_padding::Pkcs7, BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt,
    KeyIvInit, StreamCipher, StreamCipherSeek,
};
use fastsm2::sm4::{Ccm, Gcm, Sm4, Sm4CbcDec, Sm4CbcEnc, Sm4Ccm, Sm4CfbDec, Sm4CfbEnc, Sm4Ctr, Sm4EcbDec, Sm4EcbEnc, Sm4Gcm, Sm4Ofb};

type TheirGcm = aes_gcm::AesGcm<sm4::Sm4, aes_gcm::aead::consts::U12>;
type TheirCcm = ccm::Ccm<sm4::Sm4, ccm::consts::U16, ccm::consts::U12>;

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// A small deterministic generator (xorshift64*), seeded from FS2T_SEED
/// when set, so that a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn new(salt: u64) -> Self {
        let seed = std::env::var("FS2T_SEED")
            .ok()
            .and_then(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok().or_else(|| s.parse().ok()))
            .unwrap_or(0x5eed);
        Rng((seed ^ salt).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
    fn arr<const N: usize>(&mut self) -> [u8; N] {
        self.bytes(N).try_into().unwrap()
    }
    /// Lengths that cross every boundary the backends have (1, 8, 16
    /// blocks, partial blocks), and some larger ones.
    fn len(&mut self) -> usize {
        const EDGES: [usize; 12] = [0, 1, 15, 16, 17, 127, 128, 129, 255, 256, 257, 4096];
        match self.next() % 3 {
            0 => EDGES[(self.next() % EDGES.len() as u64) as usize],
            1 => (self.next() % 600) as usize,
            _ => (self.next() % 20000) as usize,
        }
    }
}

#[test]
fn gbt32907_examples() {
    // GB/T 32907-2016 Appendix A, examples 1 and 2.
    let k: [u8; 16] = unhex("0123456789abcdeffedcba9876543210").try_into().unwrap();
    let ours = Sm4::new(&k.into());
    let mut b = cipher::Block::<Sm4>::from(k);
    ours.encrypt_block(&mut b);
    assert_eq!(b[..], unhex("681edf34d206965e86b3e94f536e4246")[..]);
    ours.decrypt_block(&mut b);
    assert_eq!(b[..], k[..]);
    let mut b = cipher::Block::<Sm4>::from(k);
    for _ in 0..1_000_000 {
        ours.encrypt_block(&mut b);
    }
    assert_eq!(b[..], unhex("595298c7c6fd271f0402f804c33d3f66")[..]);
}

#[test]
fn rfc8998_gcm_example() {
    // RFC 8998 Appendix A.1 (SM4-GCM).
    let key = unhex("0123456789ABCDEFFEDCBA9876543210");
    let iv: [u8; 12] = unhex("00001234567800000000ABCD").try_into().unwrap();
    let aad = unhex("FEEDFACEDEADBEEFFEEDFACEDEADBEEFABADDAD2");
    let pt = unhex(concat!(
        "AAAAAAAAAAAAAAAABBBBBBBBBBBBBBBBCCCCCCCCCCCCCCCCDDDDDDDDDDDDDDDD",
        "EEEEEEEEEEEEEEEEFFFFFFFFFFFFFFFFEEEEEEEEEEEEEEEEAAAAAAAAAAAAAAAA"
    ));
    let ct = Sm4Gcm::new_from_slice(&key).unwrap().encrypt(&iv.into(), Payload { msg: &pt, aad: &aad }).unwrap();
    let want = unhex(concat!(
        "17F399F08C67D5EE19D0DC9969C4BB7D5FD46FD3756489069157B282BB200735",
        "D82710CA5C22F0CCFA7CBF93D496AC15A56834CBCF98C397B4024A2691233B8D",
        "83DE3541E4C2B58177E065A9BF7B62EC"
    ));
    assert_eq!(ct, want);
}

#[test]
fn block_cipher_both_ways() {
    let mut r = Rng::new(1);
    for _ in 0..50 {
        let k: [u8; 16] = r.arr();
        let (ours, theirs) = (Sm4::new(&k.into()), <sm4::Sm4 as KeyInit>::new(&k.into()));
        let n = (r.next() % 70) as usize;
        let data = r.bytes(16 * n);
        let mut a: Vec<cipher::Block<Sm4>> = data.chunks(16).map(|c| cipher::Block::<Sm4>::try_from(c).unwrap()).collect();
        let mut b: Vec<sm4::cipher::Block<sm4::Sm4>> =
            data.chunks(16).map(|c| sm4::cipher::Block::<sm4::Sm4>::try_from(c).unwrap()).collect();
        ours.encrypt_blocks(&mut a);
        sm4::cipher::BlockCipherEncrypt::encrypt_blocks(&theirs, &mut b);
        assert!(a.iter().zip(&b).all(|(x, y)| x[..] == y[..]));
        sm4::cipher::BlockCipherDecrypt::decrypt_blocks(&theirs, &mut a);
        assert_eq!(a.concat(), data);
        ours.decrypt_blocks(&mut b);
        assert_eq!(b.concat(), data);
    }
}

/// RustCrypto's generic modes over fastsm2's block cipher: the same bytes
/// as over theirs (the traits fit).
#[test]
fn rustcrypto_modes_over_our_block_cipher() {
    let mut r = Rng::new(2);
    for _ in 0..20 {
        let (k, iv): ([u8; 16], [u8; 16]) = (r.arr(), r.arr());
        let n = r.len();
        let msg = r.bytes(n);
        let a = cbc::Encryptor::<Sm4>::new(&k.into(), &iv.into()).encrypt_padded_vec::<Pkcs7>(&msg);
        let b = cbc::Encryptor::<sm4::Sm4>::new(&k.into(), &iv.into()).encrypt_padded_vec::<Pkcs7>(&msg);
        assert_eq!(a, b);
        let nonce: [u8; 12] = r.arr();
        let g1 = aes_gcm::AesGcm::<Sm4, aes_gcm::aead::consts::U12>::new(&k.into()).encrypt(&nonce.into(), &msg[..]);
        let g2 = TheirGcm::new(&k.into()).encrypt(&nonce.into(), &msg[..]);
        assert_eq!(g1.unwrap(), g2.unwrap());
    }
}

#[test]
fn ecb_and_cbc_both_ways() {
    let mut r = Rng::new(3);
    for _ in 0..60 {
        let (k, iv): ([u8; 16], [u8; 16]) = (r.arr(), r.arr());
        let n = r.len();
        let msg = r.bytes(n);
        // CBC with PKCS#7: the library's padding, and the traits' generic one.
        let ours = Sm4CbcEnc::new(&k.into(), &iv.into()).encrypt_pkcs7_vec(&msg);
        let generic = Sm4CbcEnc::new(&k.into(), &iv.into()).encrypt_padded_vec::<Pkcs7>(&msg);
        let theirs = cbc::Encryptor::<sm4::Sm4>::new(&k.into(), &iv.into()).encrypt_padded_vec::<Pkcs7>(&msg);
        assert_eq!(ours, theirs);
        assert_eq!(generic, theirs);
        assert_eq!(&*Sm4CbcDec::new(&k.into(), &iv.into()).decrypt_pkcs7_vec(&theirs).unwrap(), &msg[..]);
        assert_eq!(Sm4CbcDec::new(&k.into(), &iv.into()).decrypt_padded_vec::<Pkcs7>(&theirs).unwrap(), msg);
        assert_eq!(cbc::Decryptor::<sm4::Sm4>::new(&k.into(), &iv.into()).decrypt_padded_vec::<Pkcs7>(&ours).unwrap(), msg);
        // ECB likewise.
        let ours = Sm4EcbEnc::new(&k.into()).encrypt_pkcs7_vec(&msg);
        let theirs = ecb::Encryptor::<sm4::Sm4>::new(&k.into()).encrypt_padded_vec::<Pkcs7>(&msg);
        assert_eq!(ours, theirs);
        assert_eq!(&*Sm4EcbDec::new(&k.into()).decrypt_pkcs7_vec(&theirs).unwrap(), &msg[..]);
        assert_eq!(ecb::Decryptor::<sm4::Sm4>::new(&k.into()).decrypt_padded_vec::<Pkcs7>(&ours).unwrap(), msg);
        // Whole blocks through the block-mode traits, in two pieces: the
        // chaining value carries over.
        let blocks = msg.len() / 16;
        let split = if blocks > 0 { (r.next() as usize % blocks) * 16 } else { 0 };
        let mut buf = msg[..blocks * 16].to_vec();
        let mut enc = Sm4CbcEnc::new(&k.into(), &iv.into());
        let (x, y) = buf.split_at_mut(split);
        enc.encrypt_blocks(as_blocks(x));
        enc.encrypt_blocks(as_blocks(y));
        let mut want = msg[..blocks * 16].to_vec();
        cbc::Encryptor::<sm4::Sm4>::new(&k.into(), &iv.into()).encrypt_blocks(as_their_blocks(&mut want));
        assert_eq!(buf, want);
        let mut dec = Sm4CbcDec::new(&k.into(), &iv.into());
        let (x, y) = buf.split_at_mut(split);
        dec.decrypt_blocks(as_blocks(x));
        dec.decrypt_blocks(as_blocks(y));
        assert_eq!(buf, msg[..blocks * 16]);
    }
}

fn as_blocks(b: &mut [u8]) -> &mut [cipher::Block<Sm4>] {
    let (blocks, rest) = cipher::Block::<Sm4>::slice_as_chunks_mut(b);
    assert!(rest.is_empty());
    blocks
}

fn as_their_blocks(b: &mut [u8]) -> &mut [sm4::cipher::Block<sm4::Sm4>] {
    let (blocks, rest) = sm4::cipher::Block::<sm4::Sm4>::slice_as_chunks_mut(b);
    assert!(rest.is_empty());
    blocks
}

#[test]
fn padding_failures() {
    let mut r = Rng::new(4);
    let (k, iv): ([u8; 16], [u8; 16]) = (r.arr(), r.arr());
    let ct = Sm4CbcEnc::new(&k.into(), &iv.into()).encrypt_pkcs7_vec(b"sixteen bytes!!!");
    assert_eq!(ct.len(), 32);
    // A flipped bit in the last block's IV (the block before) breaks the padding.
    let mut bad = ct.clone();
    bad[31 - 16] ^= 0x01;
    assert_eq!(Sm4CbcDec::new(&k.into(), &iv.into()).decrypt_pkcs7_vec(&bad).unwrap_err(), fastsm2::Error::Padding);
    for n in [0usize, 15, 17] {
        let e = Sm4CbcDec::new(&k.into(), &iv.into()).decrypt_pkcs7_vec(&ct[..n.min(ct.len())]).unwrap_err();
        assert_eq!(e, fastsm2::Error::Length, "{n} bytes");
    }
    assert_eq!(Sm4EcbDec::new(&k.into()).decrypt_pkcs7_vec(&[0u8; 16]).unwrap_err(), fastsm2::Error::Padding);
}

#[test]
fn stream_modes_both_ways() {
    let mut r = Rng::new(5);
    for _ in 0..60 {
        let (k, iv): ([u8; 16], [u8; 16]) = (r.arr(), r.arr());
        let n = r.len();
        let msg = r.bytes(n);
        // CTR, applied in random pieces on our side.
        let mut ours = msg.clone();
        let mut c = Sm4Ctr::new(&k.into(), &iv.into());
        let mut at = 0;
        while at < ours.len() {
            let step = ((r.next() % 40) as usize).min(ours.len() - at);
            c.apply_keystream(&mut ours[at..at + step]);
            at += step;
        }
        let mut theirs = msg.clone();
        ctr::Ctr128BE::<sm4::Sm4>::new(&k.into(), &iv.into()).apply_keystream(&mut theirs);
        assert_eq!(ours, theirs);
        // Seeking anywhere gives the same keystream as running up to there.
        if !msg.is_empty() {
            let pos = (r.next() as usize) % msg.len();
            let mut c = Sm4Ctr::new(&k.into(), &iv.into());
            c.seek(pos as u64);
            assert_eq!(c.current_pos::<u64>(), pos as u64);
            let mut tail = msg[pos..].to_vec();
            c.apply_keystream(&mut tail);
            assert_eq!(tail, theirs[pos..]);
            assert_eq!(c.current_pos::<usize>(), msg.len());
        }
        // OFB.
        let mut ours = msg.clone();
        Sm4Ofb::new(&k.into(), &iv.into()).apply_keystream(&mut ours);
        let mut theirs = msg.clone();
        ofb::Ofb::<sm4::Sm4>::new(&k.into(), &iv.into()).apply_keystream(&mut theirs);
        assert_eq!(ours, theirs);
        // CFB-128 on whole blocks.
        let whole = msg.len() / 16 * 16;
        let mut ours = msg[..whole].to_vec();
        Sm4CfbEnc::new(&k.into(), &iv.into()).encrypt_blocks(as_blocks(&mut ours));
        let mut theirs = msg[..whole].to_vec();
        cfb_mode::Encryptor::<sm4::Sm4>::new(&k.into(), &iv.into()).encrypt_blocks(as_their_blocks(&mut theirs));
        assert_eq!(ours, theirs);
        Sm4CfbDec::new(&k.into(), &iv.into()).decrypt_blocks(as_blocks(&mut theirs));
        assert_eq!(theirs, msg[..whole]);
    }
    // The counter wraps as one 128-bit number.
    let k = [7u8; 16];
    let iv = [0xffu8; 16];
    let mut a = vec![0u8; 64];
    Sm4Ctr::new(&k.into(), &iv.into()).apply_keystream(&mut a);
    let mut b = vec![0u8; 64];
    ctr::Ctr128BE::<sm4::Sm4>::new(&k.into(), &iv.into()).apply_keystream(&mut b);
    assert_eq!(a, b);
}

#[test]
fn gcm_and_ccm_both_ways_and_tag_failures() {
    let mut r = Rng::new(6);
    for i in 0..80 {
        let k: [u8; 16] = r.arr();
        let nonce: [u8; 12] = r.arr();
        let n = r.len();
        let msg = r.bytes(n);
        let an = (r.next() % 100) as usize;
        let aad = r.bytes(an);
        let p = Payload { msg: &msg, aad: &aad };
        let (ct, theirs) = if i % 2 == 0 {
            (Sm4Gcm::new(&k.into()).encrypt(&nonce.into(), p).unwrap(),
             TheirGcm::new(&k.into()).encrypt(&nonce.into(), Payload { msg: &msg, aad: &aad }).unwrap())
        } else {
            (Sm4Ccm::new(&k.into()).encrypt(&nonce.into(), p).unwrap(),
             TheirCcm::new(&k.into()).encrypt(&nonce.into(), Payload { msg: &msg, aad: &aad }).unwrap())
        };
        assert_eq!(ct, theirs, "{} of {} bytes", if i % 2 == 0 { "GCM" } else { "CCM" }, msg.len());
        let open = |c: &[u8], a: &[u8], n: &[u8; 12]| -> Result<Vec<u8>, fastsm2::sm4::aead::Error> {
            let p = Payload { msg: c, aad: a };
            if i % 2 == 0 {
                Sm4Gcm::new(&k.into()).decrypt(&(*n).into(), p)
            } else {
                Sm4Ccm::new(&k.into()).decrypt(&(*n).into(), p)
            }
        };
        assert_eq!(open(&ct, &aad, &nonce).unwrap(), msg);
        // Any flipped bit, another AAD, another nonce: refused.
        let mut bad = ct.clone();
        let at = (r.next() as usize) % bad.len();
        bad[at] ^= 1 << (r.next() % 8);
        assert!(open(&bad, &aad, &nonce).is_err());
        let mut aad2 = aad.clone();
        aad2.push(0);
        assert!(open(&ct, &aad2, &nonce).is_err());
        let mut n2 = nonce;
        n2[0] ^= 0x80;
        assert!(open(&ct, &aad, &n2).is_err());
        assert!(open(&ct[..ct.len() - 1], &aad, &nonce).is_err());
        // In place with a detached tag: a bad tag zeroes the buffer.
        let mut buf = ct[..msg.len()].to_vec();
        let mut tag = fastsm2::sm4::aead::Tag::<Sm4Gcm>::try_from(&ct[msg.len()..]).unwrap();
        tag[0] ^= 1;
        let e = if i % 2 == 0 {
            Sm4Gcm::new(&k.into()).decrypt_inout_detached(&nonce.into(), &aad, buf[..].as_mut().into(), &tag)
        } else {
            Sm4Ccm::new(&k.into()).decrypt_inout_detached(&nonce.into(), &aad, buf[..].as_mut().into(), &tag)
        };
        assert!(e.is_err());
        assert!(buf.iter().all(|&b| b == 0), "no plaintext released");
    }
}

#[test]
fn gcm_other_nonce_and_tag_sizes() {
    use fastsm2::sm4::aead::consts::{U12, U13, U16, U8};
    let mut r = Rng::new(7);
    let k: [u8; 16] = r.arr();
    let msg = r.bytes(300);
    let n16: [u8; 16] = r.arr();
    let a = Gcm::<U16, U16>::new(&k.into()).encrypt(&n16.into(), &msg[..]).unwrap();
    let b = aes_gcm::AesGcm::<sm4::Sm4, U16>::new(&k.into()).encrypt(&n16.into(), &msg[..]).unwrap();
    assert_eq!(a, b);
    let n12: [u8; 12] = r.arr();
    let a = Gcm::<U12, U13>::new(&k.into()).encrypt(&n12.into(), &msg[..]).unwrap();
    let b = aes_gcm::AesGcm::<sm4::Sm4, U12, U13>::new(&k.into()).encrypt(&n12.into(), &msg[..]).unwrap();
    assert_eq!(a, b);
    let n13: [u8; 13] = r.arr();
    let a = Ccm::<U8, U13>::new(&k.into()).encrypt(&n13.into(), &msg[..]).unwrap();
    let b = ccm::Ccm::<sm4::Sm4, U8, U13>::new(&k.into()).encrypt(&n13.into(), &msg[..]).unwrap();
    assert_eq!(a, b);
}
