// SPDX-License-Identifier: Apache-2.0
//! A TLS 1.3 client with the RFC 8998 suite over TCP: connects, sends one
//! line, prints what the server sends back until it closes.
//!
//! cargo run -p fastsm2-rustls --example client -- HOST PORT SERVER_NAME CA.pem [MESSAGE [CHAIN.pem KEY.pem]]
//!
//! With CHAIN.pem and KEY.pem (unencrypted PKCS#8 or SEC1 PEM) it offers a
//! client certificate.
use std::io::Write;
use std::net::TcpStream;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::crypto::Identity;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::{ClientConfig, RootCertStore, VecInput};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: client HOST PORT SERVER_NAME CA.pem [MESSAGE [CHAIN.pem KEY.pem]]");
        std::process::exit(2);
    }
    let mut roots = RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(&args[4])? {
        roots.add(cert?)?;
    }
    let builder = ClientConfig::builder(Arc::new(fastsm2_rustls::provider())).with_root_certificates(roots);
    let config = Arc::new(if args.len() >= 8 {
        let chain = CertificateDer::pem_file_iter(&args[6])?.collect::<Result<Vec<_>, _>>()?;
        let key = PrivateKeyDer::from_pem_file(&args[7])?;
        builder.with_client_auth_cert(Arc::new(Identity::from_cert_chain(chain)?), key)?
    } else {
        builder.with_no_client_auth()?
    });
    let mut sock = TcpStream::connect((args[1].as_str(), args[2].parse::<u16>()?))?;
    let mut out = Vec::new();
    let mut conn = config.connect(ServerName::try_from(args[3].clone())?).build(&mut out)?;
    sock.write_all(&out)?;
    let mut input = VecInput::default();
    let mut plain = Vec::new();
    let mut sent = false;
    loop {
        if !conn.is_handshaking() && !sent {
            let suite = conn.negotiated_cipher_suite().map(|s| s.suite());
            let group = conn.negotiated_key_exchange_group().map(|g| g.name());
            eprintln!("handshake done: {suite:?}, {group:?}, {:?}", conn.handshake_kind());
            let msg = args.get(5).cloned().unwrap_or_else(|| "hello from fastsm2-rustls".into()) + "\n";
            let mut out = Vec::new();
            conn.write(msg.as_bytes().into(), &mut out)?;
            sock.write_all(&out)?;
            sent = true;
        }
        let n = input.read(&mut sock)?;
        if n == 0 {
            break;
        }
        let mut out = Vec::new();
        let state = conn.read_tls(&mut input, &mut out).handle_all(&mut plain);
        sock.write_all(&out)?;
        state?;
        if !plain.is_empty() {
            std::io::stdout().write_all(&plain)?;
            plain.clear();
            if sent {
                break;
            }
        }
    }
    Ok(())
}
