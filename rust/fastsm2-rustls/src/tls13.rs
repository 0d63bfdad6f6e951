// SPDX-License-Identifier: Apache-2.0
//! The TLS 1.3 cipher suite of RFC 8998: SM3 for the transcript and HKDF
//! (over HMAC-SM3), SM4-GCM for the records.
use aes_gcm::aead::{AeadInOut, KeyInit};
use rustls::crypto::cipher::{
    make_tls13_aad, AeadKey, EncryptBuffer, InboundOpaque, Iv, Nonce, OutboundPlain, Record, RecordDecrypter,
    RecordEncrypter, Tls13AeadAlgorithm, UnsupportedOperationError,
};
use rustls::crypto::tls13::HkdfUsingHmac;
use rustls::crypto::{CipherSuite, CipherSuiteCommon};
use rustls::enums::ContentType;
use rustls::{ConnectionTrafficSecrets, Error, Tls13CipherSuite};

use crate::hash::Sm3Hash;
use crate::hmac::Sm3Hmac;

/// SM4 in GCM mode with a 96-bit nonce.
pub(crate) type Sm4Gcm = aes_gcm::AesGcm<sm4::Sm4, aes_gcm::aead::consts::U12>;

/// Every TLS 1.3 suite this provider has.
pub static ALL_TLS13_CIPHER_SUITES: &[&Tls13CipherSuite] = &[TLS13_SM4_GCM_SM3];

/// `TLS_SM4_GCM_SM3` (RFC 8998 clause 2, 0x00C6).
pub const TLS13_SM4_GCM_SM3: &Tls13CipherSuite = &Tls13CipherSuite {
    common: CipherSuiteCommon {
        suite: CipherSuite::TLS13_SM4_GCM_SM3,
        hash_provider: &Sm3Hash,
        // As for AES-128-GCM (RFC 8446 5.5): a 128-bit block cipher in GCM.
        confidentiality_limit: 1 << 24,
    },
    protocol_version: rustls::version::TLS13_VERSION,
    hkdf_provider: &HkdfUsingHmac(&Sm3Hmac),
    aead_alg: &Sm4GcmAead,
    quic: None,
};

struct Sm4GcmAead;

pub(crate) const TAG_LEN: usize = 16;

impl Tls13AeadAlgorithm for Sm4GcmAead {
    fn encrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn RecordEncrypter> {
        Box::new(Sm4GcmRecord { cipher: Sm4Gcm::new_from_slice(key.as_ref()).expect("16-byte key"), iv })
    }
    fn decrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn RecordDecrypter> {
        Box::new(Sm4GcmRecord { cipher: Sm4Gcm::new_from_slice(key.as_ref()).expect("16-byte key"), iv })
    }
    fn key_len(&self) -> usize {
        16
    }
    fn extract_keys(&self, _key: AeadKey, _iv: Iv) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Err(UnsupportedOperationError)
    }
}

struct Sm4GcmRecord {
    cipher: Sm4Gcm,
    iv: Iv,
}

impl RecordEncrypter for Sm4GcmRecord {
    fn encrypt<'a>(
        &mut self,
        record: Record<OutboundPlain<'_>>,
        seq: u64,
        out: &'a mut [u8],
    ) -> Result<Record<&'a [u8]>, Error> {
        let total_len = self.encrypted_payload_len(record.payload.len());
        let mut payload = EncryptBuffer::new(out, total_len)?;
        let typ = ContentType::ApplicationData;
        let nonce: [u8; 12] = Nonce::new(&self.iv, seq).to_array()?;
        let aad = make_tls13_aad(typ, record.version.encode(), total_len);
        payload.extend_from_chunks(&record.payload);
        payload.extend_from_slice(&record.typ.to_array());
        let tag = self
            .cipher
            .encrypt_inout_detached(&nonce.into(), &aad, payload.as_mut().into())
            .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(&tag);
        Ok(Record { typ, version: record.version, payload: payload.into_written() })
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + 1 + TAG_LEN
    }
}

impl RecordDecrypter for Sm4GcmRecord {
    fn decrypt<'a>(&mut self, mut record: Record<InboundOpaque<'a>>, seq: u64) -> Result<Record<&'a [u8]>, Error> {
        let payload = &mut record.payload;
        let len = payload.len();
        if len < TAG_LEN {
            return Err(Error::DecryptError);
        }
        let nonce: [u8; 12] = Nonce::new(&self.iv, seq).to_array()?;
        let aad = make_tls13_aad(record.typ, record.version.version(), len);
        let buf: &mut [u8] = payload.as_mut();
        let (body, tag) = buf.split_at_mut(len - TAG_LEN);
        let tag = aes_gcm::Tag::<aes_gcm::aead::consts::U16>::try_from(&*tag).map_err(|_| Error::DecryptError)?;
        self.cipher
            .decrypt_inout_detached(&nonce.into(), &aad, body.into(), &tag)
            .map_err(|_| Error::DecryptError)?;
        payload.truncate(len - TAG_LEN);
        record.into_tls13_unpadded_record()
    }
}
