// SPDX-License-Identifier: Apache-2.0
//! The key exchange group `curveSM2` (RFC 8998 clause 3.3): ECDHE on
//! sm2p256v1 through `fastsm2_ecdh`.
use rustls::crypto::kx::{ActiveKeyExchange, NamedGroup, SharedSecret, StartedKeyExchange, SupportedKxGroup};
use rustls::crypto::GetRandomFailed;
use rustls::error::PeerMisbehaved;
use rustls::Error;

/// Every group this provider has: `curveSM2`.
pub static ALL_KX_GROUPS: &[&dyn SupportedKxGroup] = &[CURVE_SM2];

/// `curveSM2` (RFC 8998 clause 2, 0x0029): ECDHE on sm2p256v1.
pub const CURVE_SM2: &dyn SupportedKxGroup = &CurveSm2;

#[derive(Debug)]
struct CurveSm2;

impl SupportedKxGroup for CurveSm2 {
    fn start(&self) -> Result<StartedKeyExchange, Error> {
        let key = fastsm2::SigningKey::generate().map_err(|_| GetRandomFailed)?;
        let share = key.verifying_key().to_sec1_bytes(false);
        Ok(StartedKeyExchange::Single(Box::new(CurveSm2Kx { key, share })))
    }
    fn name(&self) -> NamedGroup {
        NamedGroup::curveSM2
    }
}

struct CurveSm2Kx {
    key: fastsm2::SigningKey,
    share: Vec<u8>,
}

impl ActiveKeyExchange for CurveSm2Kx {
    fn complete(self: Box<Self>, peer: &[u8]) -> Result<SharedSecret, Error> {
        // RFC 8998 3.3 / RFC 8446 4.2.8.2: the uncompressed form only.
        if peer.len() != 65 || peer[0] != 4 {
            return Err(PeerMisbehaved::InvalidKeyShare.into());
        }
        let x = self.key.diffie_hellman(peer).map_err(|_| Error::from(PeerMisbehaved::InvalidKeyShare))?;
        Ok(SharedSecret::from(&x[..]))
    }
    fn pub_key(&self) -> &[u8] {
        &self.share
    }
    fn group(&self) -> NamedGroup {
        NamedGroup::curveSM2
    }
}
