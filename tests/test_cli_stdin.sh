#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# One stdin, one input, whatever name it is given: "-", "stdin", fd:0, and
# the names of fd 0 (/dev/stdin, /dev/fd/0, /proc/self/fd/0, another
# descriptor duplicated from it) are all the same input, and a second one
# is refused with exit 2 and "only one input" before anything is read from
# it (these got through and failed later with "wrong password", or signed
# an empty message). Decided by the file (its device and inode), not its
# name, for a pipe and for a file redirected to stdin. Files that give
# every reader the same bytes (/dev/null) are no stdin to share.
#
# usage: test_cli_stdin.sh BUILD_DIR
set -euo pipefail

BUILD=${1:?usage: test_cli_stdin.sh BUILD_DIR}
. "$(dirname "$0")/shlib.sh"
cli_setup "$BUILD"
cd "$T"

# expect NAME CODE PATTERN SCRIPT: bash -c SCRIPT exits CODE, stderr matches.
expect() {
    local name=$1 want=$2 pat=$3 script=$4 got=0
    FS="$FS" bash -c "$script" >"$T/out" 2>"$T/err" </dev/null || got=$?
    if [ "$got" != "$want" ]; then
        bad "$name: exit $got, want $want: $(head -c 400 "$T/err")"
    elif [ -n "$pat" ] && ! grep -q -- "$pat" "$T/err"; then
        bad "$name: stderr lacks '$pat': $(head -c 400 "$T/err")"
    else
        ok
    fi
}

"$FS" keygen --out k.pem --pubout p.pem --passout pass:s3cret --iter 1000
"$FS" key --key k.pem --passin pass:s3cret --out plain.pem
echo hello >m
"$FS" sign --key plain.pem --in m --out m.sig
"$FS" encrypt --pub p.pem --in m --out m.ct
printf 's3cret\n' >pw

ONE="only one input"
# The names of fd 0. The two ways stdin arrives: a pipe, and a file the
# shell opened (a new open of /dev/stdin then reads it from its start).
for name in /dev/stdin /dev/fd/0 /proc/self/fd/0; do
    for how in pipe file; do
        if [ $how = pipe ]; then feed() { echo "cat $1 | "; }; redir() { :; }; else feed() { :; }; redir() { echo "<$1"; }; fi
        # a key on stdin, the password from a name of it
        expect "key -, passin file:$name ($how)" 2 "$ONE" \
            "$(feed k.pem)\"\$FS\" sign --key - --passin file:$name --in m --out s $(redir k.pem)"
        # the key from a name of stdin, the password from stdin
        expect "key $name, passin stdin ($how)" 2 "$ONE" \
            "$(feed k.pem)\"\$FS\" sign --key $name --passin stdin --in m --out s $(redir k.pem)"
        expect "key $name, passin fd:0 ($how)" 2 "$ONE" \
            "$(feed k.pem)\"\$FS\" sign --key $name --passin fd:0 --in m --out s $(redir k.pem)"
        expect "key $name, passin file:$name ($how)" 2 "$ONE" \
            "$(feed k.pem)\"\$FS\" sign --key $name --passin file:$name --in m --out s $(redir k.pem)"
        # a plain key on stdin and the message from a name of it (signed an
        # empty message from the drained pipe, or the key file itself)
        expect "sign: key -, in $name ($how)" 2 "$ONE" \
            "$(feed plain.pem)\"\$FS\" sign --key - --in $name --out s $(redir plain.pem)"
        expect "sign: key $name, in - ($how)" 2 "$ONE" \
            "$(feed plain.pem)\"\$FS\" sign --key $name --in - --out s $(redir plain.pem)"
        expect "verify: sig -, in $name ($how)" 2 "$ONE" \
            "$(feed m.sig)\"\$FS\" verify --pub p.pem --sig - --in $name $(redir m.sig)"
        expect "verify: pub $name, sig - ($how)" 2 "$ONE" \
            "$(feed p.pem)\"\$FS\" verify --pub $name --sig - --in m $(redir p.pem)"
        expect "verify: pub -, in $name ($how)" 2 "$ONE" \
            "$(feed p.pem)\"\$FS\" verify --pub - --sig m.sig --in $name $(redir p.pem)"
        # encrypt/decrypt read a regular --in file in pieces: the same rule
        expect "encrypt: pub -, in $name ($how)" 2 "$ONE" \
            "$(feed p.pem)\"\$FS\" encrypt --pub - --in $name --out ct $(redir p.pem)"
        expect "decrypt: key -, in $name ($how)" 2 "$ONE" \
            "$(feed plain.pem)\"\$FS\" decrypt --key - --in $name --out pt $(redir plain.pem)"
        expect "decrypt: key $name, passin stdin ($how)" 2 "$ONE" \
            "$(feed k.pem)\"\$FS\" decrypt --key $name --passin stdin --in m.ct --out pt $(redir k.pem)"
        # one input from a name of stdin is fine
        expect "passin file:$name alone ($how)" 0 "" \
            "$(feed pw)\"\$FS\" sign --key k.pem --passin file:$name --in m --out s-$how $(redir pw)"
        expect "key $name alone ($how)" 0 "" \
            "$(feed k.pem)\"\$FS\" sign --key $name --passin pass:s3cret --in m --out s2-$how $(redir k.pem)"
        expect "decrypt --in $name alone ($how)" 0 "" \
            "$(feed m.ct)\"\$FS\" decrypt --key plain.pem --in $name --out pt-$how $(redir m.ct)"
        cmp -s m "pt-$how" && ok || bad "decrypt --in $name ($how): wrong plaintext"
    done
done
[ ! -e s ] && [ ! -e ct ] && [ ! -e pt ] && ok || bad "an output was written after a refusal"
for s in s-pipe s-file s2-pipe s2-file; do
    "$FS" verify --quiet --pub p.pem --in m --sig $s && ok || bad "signature $s"
done

# Another descriptor that is fd 0's pipe, or fd 0's file opened anew.
expect "passin fd:3 duplicated from stdin" 2 "$ONE" \
    "cat k.pem | \"\$FS\" sign --key - --passin fd:3 --in m --out s 3<&0"
expect "key given by a symbolic link to /dev/stdin" 2 "$ONE" \
    "ln -sf /dev/stdin in-link; cat k.pem | \"\$FS\" sign --key in-link --passin stdin --in m --out s"
expect "in: stdin's own file by its name" 2 "$ONE" "\"\$FS\" sign --key - --in plain.pem --out s <plain.pem"
# sm3: a FILE operand too (it hashed the drained pipe: the empty message)
expect "sm3 --pub /dev/stdin -" 2 "$ONE" "cat p.pem | \"\$FS\" sm3 --pub /dev/stdin -"
expect "sm3 - /dev/fd/0" 2 "$ONE" "cat m | \"\$FS\" sm3 - /dev/fd/0"
expect "sm3 -c - listing /dev/stdin" 2 "$ONE" "\"\$FS\" sm3 /dev/stdin </dev/null | \"\$FS\" sm3 -c -"
# The message names the alias.
expect "message names the alias" 2 "file:/dev/fd/0" \
    "cat k.pem | \"\$FS\" sign --key - --passin file:/dev/fd/0 --in m --out s"

# /dev/null as stdin and as two inputs: every reader gets the same (no)
# bytes, so nothing is shared: an empty signature file is simply invalid.
expect "/dev/null twice" 1 "" "\"\$FS\" verify --pub p.pem --in /dev/null --sig /dev/null </dev/null"
expect "/dev/null with -" 0 "" "\"\$FS\" sign --key plain.pem --in - --out snull </dev/null && \"\$FS\" verify --quiet --pub p.pem --in /dev/null --sig snull </dev/null"

finish test_cli_stdin
