#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-openssl`: the OpenSSL-facing tests against several OpenSSL
# releases, each built from its release sources (tools/openssl-build.sh,
# cached under ~/.cache/fastsm2/openssl/<version>/), and against the
# system's libcrypto:
#   - the library's differential tests (test_openssl_diff; SM4's
#     test_sm4_modes, and test_sm4_openssl: SM4-GCM, -CCM and -XTS where
#     the release has them, 3.2 on, skipped and said so on 3.0),
#   - every provider test (test_provider_evp, test_provider_diff,
#     test_provider_cli, test_provider_sm4),
#   - the CLI's cross-checks with the openssl command line (test_cli,
#     test_cli_keys, test_cli_stream, test_cli_sm4, test_cli_pki),
#   - certificates and CMS against its X509 and CMS code (test_x509,
#     test_cms),
#   - fastsm2prov beside the default provider, EVP on both sides in one run
#     (bench_provider_default: the ratios of docs/PROVIDER.md), and one
#     `openssl speed sm2` with and without the provider.
# Each release gets its own CMake build (build-openssl/<version>, pointed at
# it with OPENSSL_ROOT_DIR), and runs with PATH and LD_LIBRARY_PATH set to it;
# every test states the libcrypto it loaded and FS2T_OPENSSL_VERSION makes it
# fail on any other.
#
#   tests/harness/test-openssl.sh [all | brief | VERSION...]
#     all (default): 3.0.2 system 3.5.5 4.0.3
#     brief:         3.0.2 4.0.3 (the oldest and the newest; in make test-all)
#     VERSION:       an openssl-src crate version (300.5.5+3.5.5), a release
#                    that the table below names (3.5.5), or "system"
# FS2_OPENSSL_BENCH_SECONDS (default 3): the bench's length per release.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

# OpenSSL releases and the openssl-src crate versions that carry them
# (`cargo info openssl-src`; the 300.0.x crates stop at 3.0.8, so the 3.0
# line at or after 3.0.13 is the system's: Debian 12 ships 3.0.1x).
declare -A CRATE=([3.0.2]=300.0.5+3.0.2 [3.5.5]=300.5.5+3.5.5 [4.0.3]=400.0.2+4.0.3)
case "${1:-all}" in
  all) versions=(3.0.2 system 3.5.5 4.0.3) ;;
  brief) versions=(3.0.2 4.0.3) brief=1 ;;
  *) versions=("$@") ;;
esac
JOBS=${JOBS:-2}
# the bench beside the default provider: a check that it runs against this
# release and gives a ratio; briefly in make test-all
secs=${FS2_OPENSSL_BENCH_SECONDS:-$([ "${brief:-0}" = 1 ] && echo 1 || echo 3)}
gen=""
command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
TESTS='^(test_openssl_diff|test_sm4_modes|test_sm4_openssl|test_provider_evp|test_provider_diff|test_provider_cli|test_provider_sm4|test_cli|test_cli_keys|test_cli_stream|test_cli_sm4|test_x509|test_cms|test_cli_pki)$'
summary=()
status=0

build_one() { # BUILD_DIR, with args[] set
  # shellcheck disable=SC2086
  nice -n 10 cmake -S . -B "$1" $gen "${args[@]}" &&
    nice -n 10 cmake --build "$1" -j "$JOBS" --target fastsm2 fastsm2prov test_openssl_diff test_sm4_modes test_sm4_openssl test_provider_evp \
      test_provider_diff test_provider_sm4 bench_provider_default test_x509 test_cms
}

for v in "${versions[@]}"; do
  start=$(date +%s)
  if [ "$v" = system ]; then
    prefix=""
    rel=$(openssl version | awk '{print $2}')
  else
    crate=${CRATE[$v]:-$v}
    rel=${crate#*+}
    prefix=$(bash tools/openssl-build.sh "$crate" | tail -n 1) || { echo "test-openssl: building OpenSSL $rel failed" >&2; status=1; summary+=("  FAIL  $rel: build"); continue; }
  fi
  echo "== OpenSSL $rel ${prefix:-from the system}"
  b=build-openssl/$v
  args=(-DCMAKE_BUILD_TYPE=Release -DFASTSM2_CTIME=OFF -DFASTSM2_CUDA=OFF)
  if [ -n "$prefix" ]; then
    # a static libcrypto where the crate could not build a shared one
    static=OFF
    [ -e "$prefix/lib/libcrypto.so" ] || static=ON
    args+=(-DOPENSSL_ROOT_DIR="$prefix" -DOPENSSL_USE_STATIC_LIBS=$static)
    export PATH="$prefix/bin:${PATH#"$prefix/bin:"}"
    export LD_LIBRARY_PATH="$prefix/lib"
  else
    export PATH=${PATH}
    unset LD_LIBRARY_PATH
  fi
  # the openssl program that the CLI tests call is this release's
  got=$(openssl version | awk '{print $2}')
  if [ "$got" != "$rel" ]; then
    echo "test-openssl: openssl on PATH is $got, not $rel" >&2
    status=1; summary+=("  FAIL  $rel: openssl on PATH is $got"); continue
  fi
  log=$b.log
  mkdir -p "$b"
  if ! build_one "$b" >"$log" 2>&1; then
    tail -n 30 "$log"
    status=1; summary+=("  FAIL  $rel: build (log $log)"); continue
  fi
  grep -q "OPENSSL_INCLUDE_DIR:PATH=${prefix:-/usr}/include" "$b/CMakeCache.txt" ||
    { echo "test-openssl: $b was not configured with ${prefix:-/usr}/include" >&2; status=1; continue; }
  export FS2T_OPENSSL_VERSION=$rel
  (cd "$b" && ctest --output-on-failure -j "$JOBS" -R "$TESTS") | tee -a "$log" | grep -E 'tests passed|Failed|\*\*\*|Test +#'
  ok=${PIPESTATUS[0]}
  # every test that links libcrypto said which one it loaded: this release
  n_wrong=$(grep -h '^testossl: running against' "$b"/Testing/Temporary/LastTest.log | grep -vc "OpenSSL $rel " || true)
  n_right=$(grep -h '^testossl: running against' "$b"/Testing/Temporary/LastTest.log | grep -c "OpenSSL $rel " || true)
  [ "$n_wrong" -eq 0 ] && [ "$n_right" -ge 3 ] ||
    { echo "test-openssl: $n_right tests ran against OpenSSL $rel, $n_wrong against another" >&2; ok=1; }
  bench=$("$b/provider/bench_provider_default" "$b/provider" "$secs" 2>&1)
  echo "$bench"
  grep -q "^OpenSSL $rel " <<<"$bench" || { echo "test-openssl: the bench ran against another libcrypto" >&2; ok=1; }
  ratio=$(sed -n 's/^RATIO [^ ]* //p' <<<"$bench")
  [ -n "$ratio" ] || ok=1
  # one `openssl speed sm2` through each (a second each, sign and verify);
  # fastsm2prov beside the default provider (which gives the DRBG), preferred
  for prov in default fastsm2prov; do
    popts=(-provider default)
    [ "$prov" = fastsm2prov ] && popts=(-provider fastsm2prov -provider default -propquery '?provider=fastsm2prov')
    out=$(openssl speed -seconds 1 -provider-path "$b/provider" "${popts[@]}" sm2 2>&1)
    line=$(grep -E '^ *256 bits .*SM2' <<<"$out" | tail -n 1)
    if [ -z "$line" ]; then
      echo "$out" | tail -n 8
      echo "test-openssl: openssl speed sm2 -provider $prov gave no figures" >&2
      ok=1
    else
      echo "openssl speed sm2, -provider $prov: $line"
    fi
  done
  took=$(($(date +%s) - start))
  if [ "$ok" -eq 0 ]; then
    summary+=("$(printf '  ok    %-7s %4ss   fastsm2prov/default: %s' "$rel" "$took" "$ratio")")
  else
    summary+=("$(printf '  FAIL  %-7s %4ss   (log %s)' "$rel" "$took" "$log")")
    status=1
  fi
done
echo
echo "test-openssl summary:"
printf '%s\n' "${summary[@]}"
exit $status
