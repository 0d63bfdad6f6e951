// SPDX-License-Identifier: Apache-2.0
//! SM3 (GB/T 32905) as rustls's transcript hash, over the library's SM3.
use rustls::crypto::{hash, HashAlgorithm};

/// SM3 as rustls's transcript hash.
pub const SM3: &dyn hash::Hash = &Sm3Hash;

pub(crate) struct Sm3Hash;

impl hash::Hash for Sm3Hash {
    fn start(&self) -> Box<dyn hash::Context> {
        Box::new(Sm3Context(fastsm2::Sm3::new()))
    }
    fn hash(&self, data: &[u8]) -> hash::Output {
        hash::Output::new(&fastsm2::Sm3::digest(data))
    }
    fn output_len(&self) -> usize {
        32
    }
    fn algorithm(&self) -> HashAlgorithm {
        // TLS's HashAlgorithm registry has no SM3 code point (RFC 8998
        // names SM3 only through its suite and scheme).
        HashAlgorithm::from(0xff)
    }
}

struct Sm3Context(fastsm2::Sm3);

impl hash::Context for Sm3Context {
    fn fork_finish(&self) -> hash::Output {
        let mut c = self.0.clone();
        let mut out = [0u8; 32];
        c.finish_into(&mut out);
        hash::Output::new(&out)
    }
    fn fork(&self) -> Box<dyn hash::Context> {
        Box::new(Sm3Context(self.0.clone()))
    }
    fn finish(mut self: Box<Self>) -> hash::Output {
        let mut out = [0u8; 32];
        self.0.finish_into(&mut out);
        hash::Output::new(&out)
    }
    fn update(&mut self, data: &[u8]) {
        fastsm2::digest::Update::update(&mut self.0, data);
    }
}
