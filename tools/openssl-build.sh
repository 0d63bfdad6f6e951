#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Build one OpenSSL release (libcrypto, libssl and the `openssl` program; no
# tests, no docs) from its release sources and install it under
#   ~/.cache/fastsm2/openssl/<version>/   (bin/openssl, lib/, include/)
# The sources come from crates.io: the crate `openssl-src` carries OpenSSL's
# release source tree in its `openssl/` folder; cargo fetches it through a
# throwaway project under ~/.cache/fastsm2/openssl-src/<crate version>/.
# The build is cached by version: a second run prints the prefix and exits.
#
#   tools/openssl-build.sh <crate version>     e.g. 300.0.5+3.0.2
#   prints the install prefix on its last line (a shared libcrypto where the
#   crate has what that needs, 3.0.x; static otherwise)
#
# Crate versions and the OpenSSL releases they carry: 300.0.5+3.0.2,
# 300.5.5+3.5.5, 400.0.2+4.0.3 (`cargo info openssl-src@<v>`).
set -euo pipefail

crate=${1:?usage: tools/openssl-build.sh <openssl-src crate version, e.g. 300.0.5+3.0.2>}
ver=${crate#*+}
CACHE=${FS2_CACHE:-$HOME/.cache/fastsm2}
prefix=$CACHE/openssl/$ver
if [ -x "$prefix/bin/openssl" ] && [ -f "$prefix/.fastsm2-built" ]; then
  echo "$prefix"
  exit 0
fi
command -v cargo >/dev/null || { echo "openssl-build: cargo is needed to fetch openssl-src (rustup or apt-get install cargo)" >&2; exit 1; }
command -v perl >/dev/null || { echo "openssl-build: perl is needed by OpenSSL's Configure" >&2; exit 1; }

proj=$CACHE/openssl-src/$crate
mkdir -p "$proj/src"
cat >"$proj/Cargo.toml" <<EOF
[package]
name = "fs2-openssl-src-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
openssl-src = "=$crate"
EOF
: >"$proj/src/lib.rs"
(cd "$proj" && cargo fetch -q >&2)
cargo_home=${CARGO_HOME:-$HOME/.cargo}
src=$(ls -d "$cargo_home"/registry/src/*/"openssl-src-$crate"/openssl 2>/dev/null | head -1)
[ -n "$src" ] && [ -f "$src/Configure" ] || { echo "openssl-build: no openssl/ folder in openssl-src $crate" >&2; exit 1; }

# Build out of the registry's tree (which cargo may verify), in a scratch copy.
work=$CACHE/openssl-build/$ver
rm -rf "$work"
mkdir -p "$work"
cp -a "$src/." "$work/"
cd "$work"
# The crate leaves out util/providers.num, which only the legacy provider
# needs: no-legacy (the crate's own build does the same). no-docs exists
# from 3.2 on.
# The crates from 3.x on leave out util/mkdef.pl, which the shared libraries'
# symbol version scripts need: there libcrypto is built static (the test
# programs then carry it; the openssl program loads the provider module
# all the same).
opts=(--prefix="$prefix" --libdir=lib no-tests no-legacy)
if [ -f util/mkdef.pl ]; then opts+=(shared); else opts+=(no-shared); fi
if ! nice -n 10 ./Configure "${opts[@]}" no-docs >build.log 2>&1; then
  nice -n 10 ./Configure "${opts[@]}" >build.log 2>&1 || { tail -30 build.log >&2; exit 1; }
fi
echo "openssl-build: OpenSSL $ver: $(grep -m1 'Configuring OpenSSL' build.log)" >&2
nice -n 10 make -j"${JOBS:-2}" build_sw >>build.log 2>&1 || { tail -40 build.log >&2; exit 1; }
rm -rf "$prefix"
make install_sw >>build.log 2>&1 || { tail -30 build.log >&2; exit 1; }
# a default configuration file (openssl req needs one), not the rest of
# install_ssldirs (certs, misc scripts): the release's where the crate
# carries it (3.0.x), else a minimal one of our own
mkdir -p "$prefix/ssl"
if [ -f apps/openssl.cnf ]; then
  cp apps/openssl.cnf "$prefix/ssl/openssl.cnf"
else
  printf '%s\n' "# minimal configuration (tools/openssl-build.sh): openssl req's sections," \
    "# and CA extensions for req -x509 (a CA certificate needs CA:true)" \
    "[req]" "distinguished_name = req_distinguished_name" "x509_extensions = v3_ca" "[req_distinguished_name]" \
    "[v3_ca]" "subjectKeyIdentifier = hash" "authorityKeyIdentifier = keyid:always,issuer" \
    "basicConstraints = critical,CA:true" >"$prefix/ssl/openssl.cnf"
fi
LD_LIBRARY_PATH=$prefix/lib "$prefix/bin/openssl" version >&2
touch "$prefix/.fastsm2-built"
cd /
rm -rf "$work"
echo "$prefix"
