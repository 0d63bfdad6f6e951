#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# `fastsm2 speed` (bench/speed.c) shows what it says it shows; how fast
# anything runs is never asserted:
#  - by default, the rows a user compares and none of the internal A/B rows;
#    --all adds those; --list marks them; --all with --ops is a usage error;
#  - every selected row of fastsm2 is either measured or not run with a
#    reason (a CPU without the SIMD lanes), never silently missing;
#  - a row that cannot run on this CPU prints its reason in the table;
#  - --sm4 gives every SM4 mode at 64 B, 1 KiB and 16 KiB, checked.
#
# usage: test_speed.sh BUILD_DIR     (prints "N passed, N failed")
set -uo pipefail

BUILD=${1:?usage: test_speed.sh BUILD_DIR}
BUILD=$(cd "$BUILD" && pwd) || exit 1
. "$(dirname "$0")/shlib.sh"
FS=$BUILD/fastsm2

USER_ROWS="keygen keygen-sign sign verify sign-digest verify-digest sign-digest-batch verify-digest-batch encrypt-32 decrypt-32 encrypt-4096 decrypt-4096
encrypt-1048576 decrypt-1048576 kx sm3-64 sm3-1024 sm3-8192"
INTERNAL_ROWS="sm3-x8-8192 sm3-x16-8192 kdf-1024 kdf-1024-scalar kdf-4096 kdf-4096-scalar
encrypt-65536 decrypt-65536"

# --list: every row, the internal ones marked
"$FS" speed --list >"$T/list.txt" 2>&1 && ok || bad "speed --list failed"
for op in $USER_ROWS; do
    grep -qE "^  $op +[a-z]" "$T/list.txt" && ! grep -qE "^  $op .*internal" "$T/list.txt" && ok ||
        bad "--list: $op missing or marked internal"
done
for op in $INTERNAL_ROWS; do
    grep -qE "^  $op .*\[internal: --all\]" "$T/list.txt" && ok || bad "--list: $op not marked internal"
done

"$FS" speed --all --ops sign >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--all with --ops: not a usage error"

# The fastsm2 rows of a JSON run, measured or not run, one per line.
rows_of() {
    python3 -c '
import json, sys
run = json.load(open(sys.argv[1]))
ops = [r["op"] for r in run["results"] if r["impl"] == "fastsm2"]
ops += [r["op"] for r in run["not_run"] if r["impl"] == "fastsm2" and r["why"]]
assert not run["failures"], run["failures"]
print("\n".join(sorted(ops)))' "$1"
}
sorted() { printf '%s\n' $1 | sort; }

# default: the user rows exactly
if "$FS" speed --seconds 0.01 --rounds 1 --json >"$T/default.json" 2>"$T/default.err"; then
    ok
    [ "$(rows_of "$T/default.json")" = "$(sorted "$USER_ROWS")" ] && ok ||
        bad "default rows: $(rows_of "$T/default.json" | tr '\n' ' ')"
else
    bad "speed (default rows) failed: $(cat "$T/default.err")"
fi

# --all: every row (a few, to keep this short: --all is --ops of them all)
if "$FS" speed --seconds 0.01 --rounds 1 --json --ops sm3-x8-8192,sm3-x16-8192,kdf-1024-scalar,sign \
    >"$T/some.json" 2>"$T/some.err"; then
    ok
    [ "$(rows_of "$T/some.json")" = "$(sorted "sm3-x8-8192 sm3-x16-8192 kdf-1024-scalar sign")" ] && ok ||
        bad "--ops rows: $(rows_of "$T/some.json" | tr '\n' ' ')"
else
    bad "speed --ops failed: $(cat "$T/some.err")"
fi

# a row this CPU cannot run, in the table: its reason (where there is one)
python3 -c '
import json, sys
run = json.load(open(sys.argv[1]))
for r in run["not_run"]:
    if r["impl"] == "fastsm2":
        print(r["op"])' "$T/some.json" >"$T/notrun.txt"
if [ -s "$T/notrun.txt" ]; then
    op=$(head -n 1 "$T/notrun.txt")
    "$FS" speed --seconds 0.01 --rounds 1 --ops "$op" >"$T/table.txt" 2>&1
    grep -qE "^$op .*not run: needs" "$T/table.txt" && ok || bad "no reason printed for $op"
else
    ok # this CPU runs every row
fi

# --sm4: every mode at the three sizes, fastsm2 beside OpenSSL's AES-128
# (and its SM4 where that libcrypto has the mode), each output checked
if "$FS" speed --sm4 --seconds 0.01 --rounds 1 --json >"$T/sm4.json" 2>"$T/sm4.err"; then
    ok
    python3 -c '
import json, sys
run = json.load(open(sys.argv[1]))
want = ["sm4-%s-%d" % (m, n) for m in "ecb cbc-enc cbc-dec ctr gcm-enc gcm-dec ccm xts".split() for n in (64, 1024, 16384)]
for impl in ("fastsm2", "openssl-aes128"):
    got = [r["op"] for r in run["results"] if r["impl"] == impl]
    assert sorted(got) == sorted(want), (impl, got)
assert all(r["value"] > 0 for r in run["results"]), run["results"]
assert run["sm4_backend"]' "$T/sm4.json" && ok || bad "speed --sm4: rows missing or empty"
else
    bad "speed --sm4 failed: $(cat "$T/sm4.err")"
fi
"$FS" speed --sm4 --ops no-such-mode >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "speed --sm4 --ops with an unknown mode: not a usage error"

finish test_speed
