// SPDX-License-Identifier: Apache-2.0
//! A TLS 1.3 server with the RFC 8998 suite over TCP: answers each
//! connection's first message with "fastsm2-rustls got: ..." and closes.
//!
//! cargo run -p fastsm2-rustls --example server -- PORT CHAIN.pem KEY.pem
//!
//! CHAIN.pem: the server's certificate then its issuers; KEY.pem: its SM2
//! key as unencrypted PKCS#8 or SEC1 PEM. With `--make-pki DIR` instead,
//! it writes a CA (DIR/ca.pem), a certificate for localhost signed by it
//! (DIR/chain.pem) and its key (DIR/key.pem), made with fastsm2, and exits.
use std::io::Write;
use std::net::TcpListener;
use std::sync::Arc;

use rustls::crypto::Identity;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{Connection, ServerConfig, VecInput};

#[path = "../tests/common/mod.rs"]
mod common;

fn pem(label: &str, der: &[u8]) -> String {
    const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for chunk in der.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            s.push(if i <= chunk.len() { B64[(n >> (18 - 6 * i) & 63) as usize] as char } else { '=' });
        }
    }
    let body: Vec<&str> = s.as_bytes().chunks(64).map(|c| std::str::from_utf8(c).unwrap()).collect();
    format!("-----BEGIN {label}-----\n{}\n-----END {label}-----\n", body.join("\n"))
}

fn make_pki(dir: &str) -> Result<(), Box<dyn std::error::Error>> {
    use fastsm2::pkcs8::EncodePrivateKey;
    let ca_key = fastsm2::SigningKey::generate()?;
    let ca = common::certificate(1, "fastsm2 example CA", ca_key.verifying_key(), "fastsm2 example CA", &ca_key, true, None);
    let key = fastsm2::SigningKey::generate()?;
    let leaf = common::certificate(2, "localhost", key.verifying_key(), "fastsm2 example CA", &ca_key, false, Some("localhost"));
    std::fs::create_dir_all(dir)?;
    std::fs::write(format!("{dir}/ca.pem"), pem("CERTIFICATE", &ca))?;
    std::fs::write(format!("{dir}/chain.pem"), pem("CERTIFICATE", &leaf) + &pem("CERTIFICATE", &ca))?;
    std::fs::write(format!("{dir}/key.pem"), pem("PRIVATE KEY", key.to_pkcs8_der()?.as_bytes()))?;
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 3 && args[1] == "--make-pki" {
        return make_pki(&args[2]);
    }
    if args.len() < 4 {
        eprintln!("usage: server PORT CHAIN.pem KEY.pem | server --make-pki DIR");
        std::process::exit(2);
    }
    let chain = CertificateDer::pem_file_iter(&args[2])?.collect::<Result<Vec<_>, _>>()?;
    let key = PrivateKeyDer::from_pem_file(&args[3])?;
    let config = Arc::new(
        ServerConfig::builder(Arc::new(fastsm2_rustls::provider()))
            .with_no_client_auth()
            .with_single_cert(Arc::new(Identity::from_cert_chain(chain)?), key)?,
    );
    let listener = TcpListener::bind(("127.0.0.1", args[1].parse::<u16>()?))?;
    eprintln!("listening on {}", listener.local_addr()?);
    for sock in listener.incoming() {
        let mut sock = sock?;
        let mut conn = Connection::<rustls::ServerSide, rustls::Tcp>::new(config.clone())?;
        let mut input = VecInput::default();
        let mut plain = Vec::new();
        let result = (|| -> Result<(), Box<dyn std::error::Error>> {
            while plain.is_empty() {
                if input.read(&mut sock)? == 0 {
                    return Err("client closed".into());
                }
                let mut out = Vec::new();
                let r = conn.read_tls(&mut input, &mut out).handle_all(&mut plain);
                sock.write_all(&out)?;
                r?;
            }
            let suite = conn.negotiated_cipher_suite().map(|s| s.suite());
            let group = conn.negotiated_key_exchange_group().map(|g| g.name());
            eprintln!("{suite:?}, {group:?}: {:?}", String::from_utf8_lossy(&plain));
            let mut out = Vec::new();
            let reply = [&b"fastsm2-rustls got: "[..], &plain].concat();
            conn.write(reply[..].into(), &mut out)?;
            conn.send_close_notify(&mut out)?;
            sock.write_all(&out)?;
            Ok(())
        })();
        if let Err(e) = result {
            eprintln!("connection failed: {e}");
        }
    }
    Ok(())
}
