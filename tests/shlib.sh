# SPDX-License-Identifier: Apache-2.0
# Shared by the shell tests: a scratch directory $T removed on exit, and the
# counters behind the "N passed, N failed" line.
#   ok            count a passed check
#   bad MSG...    count a failed check, say why on stderr
#   finish NAME   print the summary line and exit non-zero on any failure
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); }
bad() {
    FAIL=$((FAIL + 1))
    echo "FAIL: $*" >&2
}
finish() {
    echo "$1: $PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ] && [ "$PASS" -gt 0 ]
    exit $?
}

# For the tests of the command-line tool: FS = the fastsm2 binary in the
# build directory $1, the openssl command line present, and a sanitizer
# report never passing for the tool's own exit status 1.
cli_setup() {
    FS=$(cd "$1" && pwd)/fastsm2
    [ -x "$FS" ] || { echo "no $FS" >&2; exit 1; }
    command -v openssl >/dev/null || { echo "openssl not found" >&2; exit 1; }
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=98"
}

# empty MSG LIST: a check that LIST (a word list, e.g. symbol names) is
# empty; otherwise fail with MSG followed by the list.
empty() {
    if [ -z "$2" ]; then ok; else bad "$1" $2; fi
}
