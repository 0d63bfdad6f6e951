// SPDX-License-Identifier: Apache-2.0
//! The TLS 1.3 cipher suites of RFC 8998: SM3 for the transcript and HKDF
//! (over HMAC-SM3), SM4-GCM or SM4-CCM (the library's, through the
//! `fastsm2` crate) for the records.
use fastsm2::sm4::aead::consts::U16;
use fastsm2::sm4::aead::{AeadCore, AeadInOut, KeyInit};
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

/// SM4-GCM with a 96-bit nonce and a 128-bit tag (RFC 8998 clause 4.1).
pub(crate) type Sm4Gcm = fastsm2::Sm4Gcm;
/// SM4-CCM with a 96-bit nonce and a 128-bit tag (RFC 8998 clause 4.2).
pub(crate) type Sm4Ccm = fastsm2::Sm4Ccm;

/// Every TLS 1.3 suite this provider has, in order of preference: GCM
/// first (faster here, and what peers pick first).
pub static ALL_TLS13_CIPHER_SUITES: &[&Tls13CipherSuite] = &[TLS13_SM4_GCM_SM3, TLS13_SM4_CCM_SM3];

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
    aead_alg: &Sm4Aead::<Sm4Gcm>(Kind::Gcm, core::marker::PhantomData),
    quic: None,
};

/// `TLS_SM4_CCM_SM3` (RFC 8998 clause 2, 0x00C7).
pub const TLS13_SM4_CCM_SM3: &Tls13CipherSuite = &Tls13CipherSuite {
    common: CipherSuiteCommon {
        suite: CipherSuite::TLS13_SM4_CCM_SM3,
        hash_provider: &Sm3Hash,
        // As for AES-128-CCM (RFC 8446 5.5: 2^24.5 full-size records; the
        // AEAD-limits draft gives 2^23.5 for the same attack probability as
        // GCM's 2^24): a 128-bit block cipher in CCM, rounded down.
        confidentiality_limit: 1 << 23,
    },
    protocol_version: rustls::version::TLS13_VERSION,
    hkdf_provider: &HkdfUsingHmac(&Sm3Hmac),
    aead_alg: &Sm4Aead::<Sm4Ccm>(Kind::Ccm, core::marker::PhantomData),
    quic: None,
};

#[derive(Clone, Copy)]
enum Kind {
    Gcm,
    Ccm,
}

/// One of the suites' AEADs: the library's SM4-GCM or SM4-CCM.
struct Sm4Aead<A>(Kind, core::marker::PhantomData<fn() -> A>);

pub(crate) const TAG_LEN: usize = 16;

impl<A> Tls13AeadAlgorithm for Sm4Aead<A>
where
    A: AeadInOut + AeadCore<TagSize = U16> + KeyInit + Send + Sync + 'static,
{
    fn encrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn RecordEncrypter> {
        Box::new(Sm4Record { cipher: A::new_from_slice(key.as_ref()).expect("16-byte key"), iv })
    }
    fn decrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn RecordDecrypter> {
        Box::new(Sm4Record { cipher: A::new_from_slice(key.as_ref()).expect("16-byte key"), iv })
    }
    fn key_len(&self) -> usize {
        16
    }
    fn extract_keys(&self, key: AeadKey, iv: Iv) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Ok(match self.0 {
            Kind::Gcm => ConnectionTrafficSecrets::Sm4Gcm { key, iv },
            Kind::Ccm => ConnectionTrafficSecrets::Sm4Ccm { key, iv },
        })
    }
}

struct Sm4Record<A> {
    cipher: A,
    iv: Iv,
}

impl<A: AeadInOut + AeadCore<TagSize = U16> + Send + Sync> RecordEncrypter for Sm4Record<A> {
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
        let nonce = fastsm2::sm4::aead::Nonce::<A>::try_from(&nonce[..]).map_err(|_| Error::EncryptError)?;
        let tag =
            self.cipher.encrypt_inout_detached(&nonce, &aad, payload.as_mut().into()).map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(&tag);
        Ok(Record { typ, version: record.version, payload: payload.into_written() })
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + 1 + TAG_LEN
    }
}

impl<A: AeadInOut + AeadCore<TagSize = U16> + Send + Sync> RecordDecrypter for Sm4Record<A> {
    fn decrypt<'a>(&mut self, mut record: Record<InboundOpaque<'a>>, seq: u64) -> Result<Record<&'a [u8]>, Error> {
        let payload = &mut record.payload;
        let len = payload.len();
        if len < TAG_LEN {
            return Err(Error::DecryptError);
        }
        let nonce: [u8; 12] = Nonce::new(&self.iv, seq).to_array()?;
        let nonce = fastsm2::sm4::aead::Nonce::<A>::try_from(&nonce[..]).map_err(|_| Error::DecryptError)?;
        let aad = make_tls13_aad(record.typ, record.version.version(), len);
        let buf: &mut [u8] = payload.as_mut();
        let (body, tag) = buf.split_at_mut(len - TAG_LEN);
        let tag = fastsm2::sm4::aead::Tag::<A>::try_from(&*tag).map_err(|_| Error::DecryptError)?;
        self.cipher.decrypt_inout_detached(&nonce, &aad, body.into(), &tag).map_err(|_| Error::DecryptError)?;
        payload.truncate(len - TAG_LEN);
        record.into_tls13_unpadded_record()
    }
}
