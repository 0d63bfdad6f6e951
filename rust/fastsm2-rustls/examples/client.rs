// SPDX-License-Identifier: Apache-2.0
//! A TLS 1.3 client with the RFC 8998 suites over TCP: connects, sends one
//! line, prints what the server sends back, then closes the connection
//! properly: a close_notify alert, then the end of its TCP stream.
//!
//! cargo run -p fastsm2-rustls --example client -- HOST PORT SERVER_NAME CA.pem [MESSAGE [CHAIN.pem KEY.pem]]
//!
//! With CHAIN.pem and KEY.pem (unencrypted PKCS#8 or SEC1 PEM) it offers a
//! client certificate. It stops reading at the first reply, at the server's
//! close_notify, or after FASTSM2_CLIENT_WAIT seconds without a reply
//! (default 10: servers such as `openssl s_server` print what they get and
//! answer nothing).
use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use rustls::crypto::Identity;
use rustls::pki_types::pem::PemObject;
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
    let wait = std::env::var("FASTSM2_CLIENT_WAIT").ok().and_then(|s| s.parse().ok()).unwrap_or(10u64);
    let mut sock = TcpStream::connect((args[1].as_str(), args[2].parse::<u16>()?))?;
    sock.set_read_timeout(Some(Duration::from_secs(wait.max(1))))?;
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
        let n = match input.read(&mut sock) {
            Ok(n) => n,
            Err(e) if sent && matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                eprintln!("no reply within {wait} s");
                break;
            }
            Err(e) => return Err(e.into()),
        };
        if n == 0 {
            eprintln!("the server closed the TCP connection");
            break;
        }
        let mut out = Vec::new();
        let state = conn.read_tls(&mut input, &mut out).handle_all(&mut plain);
        sock.write_all(&out)?;
        let state = state?;
        let replied = sent && !plain.is_empty();
        if !plain.is_empty() {
            std::io::stdout().write_all(&plain)?;
            std::io::stdout().flush()?;
            plain.clear();
        }
        if state.peer_has_closed() || replied {
            break;
        }
    }
    // close_notify (RFC 8446 6.1), then no more data from this side.
    let mut out = Vec::new();
    conn.send_close_notify(&mut out)?;
    sock.write_all(&out)?;
    let _ = sock.shutdown(Shutdown::Write);
    Ok(())
}
