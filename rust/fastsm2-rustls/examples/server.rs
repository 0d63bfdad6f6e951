// SPDX-License-Identifier: Apache-2.0
//! A TLS 1.3 server with the RFC 8998 suites over TCP: answers each
//! connection's first message with "fastsm2-rustls got: ...", then sends
//! close_notify and closes.
//!
//! cargo run -p fastsm2-rustls --example server -- PORT CHAIN.pem KEY.pem [CLIENT_CA.pem]
//!
//! CHAIN.pem: the server's certificate then its issuers; KEY.pem: its SM2
//! key as unencrypted PKCS#8 or SEC1 PEM. With CLIENT_CA.pem (one or more
//! CA certificates) every client must present a certificate chain that
//! verifies up to one of them; without it no client certificate is asked.
//!
//! `--make-pki DIR` instead writes, made with fastsm2, and exits:
//! DIR/ca.pem (a CA), DIR/chain.pem + DIR/key.pem (a certificate for
//! localhost signed by it, then the CA; its key) and DIR/client.pem +
//! DIR/client-key.pem (a client certificate from the same CA; its key).
//! Serial numbers are 16 random bytes; the key files are created with
//! mode 0600 (owner only) on Unix.
use std::io::Write;
use std::net::TcpListener;
use std::sync::Arc;

use rustls::crypto::Identity;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::{Connection, RootCertStore, ServerConfig, VecInput};

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

/// Write a private key file readable by its owner only: created with mode
/// 0600 (an older file of the same name is removed first, so that its mode
/// is not kept).
fn write_secret(path: &str, data: &[u8]) -> std::io::Result<()> {
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    opts.open(path)?.write_all(data)
}

fn make_pki(dir: &str) -> Result<(), Box<dyn std::error::Error>> {
    use common::{certificate, random_serial};
    use fastsm2::pkcs8::EncodePrivateKey;
    let ca_name = "fastsm2 example CA";
    let ca_key = fastsm2::SigningKey::generate()?;
    let ca = certificate(&random_serial(), ca_name, ca_key.verifying_key(), ca_name, &ca_key, true, None);
    let key = fastsm2::SigningKey::generate()?;
    let leaf =
        certificate(&random_serial(), "localhost", key.verifying_key(), ca_name, &ca_key, false, Some("localhost"));
    let client_key = fastsm2::SigningKey::generate()?;
    let client =
        certificate(&random_serial(), "fastsm2 example client", client_key.verifying_key(), ca_name, &ca_key, false, None);
    std::fs::create_dir_all(dir)?;
    std::fs::write(format!("{dir}/ca.pem"), pem("CERTIFICATE", &ca))?;
    std::fs::write(format!("{dir}/chain.pem"), pem("CERTIFICATE", &leaf) + &pem("CERTIFICATE", &ca))?;
    write_secret(&format!("{dir}/key.pem"), pem("PRIVATE KEY", key.to_pkcs8_der()?.as_bytes()).as_bytes())?;
    std::fs::write(format!("{dir}/client.pem"), pem("CERTIFICATE", &client) + &pem("CERTIFICATE", &ca))?;
    write_secret(&format!("{dir}/client-key.pem"), pem("PRIVATE KEY", client_key.to_pkcs8_der()?.as_bytes()).as_bytes())?;
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 3 && args[1] == "--make-pki" {
        return make_pki(&args[2]);
    }
    if args.len() != 4 && args.len() != 5 {
        eprintln!("usage: server PORT CHAIN.pem KEY.pem [CLIENT_CA.pem] | server --make-pki DIR");
        std::process::exit(2);
    }
    let chain = CertificateDer::pem_file_iter(&args[2])?.collect::<Result<Vec<_>, _>>()?;
    let key = PrivateKeyDer::from_pem_file(&args[3])?;
    let provider = Arc::new(fastsm2_rustls::provider());
    let builder = ServerConfig::builder(provider.clone());
    let builder = match args.get(4) {
        Some(ca_file) => {
            let mut roots = RootCertStore::empty();
            for cert in CertificateDer::pem_file_iter(ca_file)? {
                roots.add(cert?)?;
            }
            let verifier = WebPkiClientVerifier::builder(Arc::new(roots), &provider).build()?;
            builder.with_client_cert_verifier(Arc::new(verifier))
        }
        None => builder.with_no_client_auth(),
    };
    let config = Arc::new(builder.with_single_cert(Arc::new(Identity::from_cert_chain(chain)?), key)?);
    let listener = TcpListener::bind(("127.0.0.1", args[1].parse::<u16>()?))?;
    let auth = if args.len() == 5 { ", client certificates required" } else { "" };
    eprintln!("listening on {}{auth}", listener.local_addr()?);
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
                if r?.peer_has_closed() && plain.is_empty() {
                    return Err("client sent close_notify before any data".into());
                }
            }
            let suite = conn.negotiated_cipher_suite().map(|s| s.suite());
            let group = conn.negotiated_key_exchange_group().map(|g| g.name());
            let client_cert = if conn.peer_identity().is_some() { "client certificate verified" } else { "no client certificate" };
            eprintln!("{suite:?}, {group:?}, {client_cert}: {:?}", String::from_utf8_lossy(&plain));
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
