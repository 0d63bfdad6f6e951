#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# How the fastsm2 command-line tool writes its output files (cli/outfile.c):
#  - a decryption or encryption killed by SIGINT, SIGTERM or SIGHUP while it
#    streams leaves nothing behind, and its unfinished output was never
#    readable by others (mode 0600 while it is written);
#  - replacing an existing file keeps that file's mode (never widens it);
#    a new file gets the umask; a private key 0600;
#  - keygen refuses --out and --pubout naming one file (exit 2, nothing
#    written), and writes both files or neither (a public key to /dev/full
#    leaves no private key file).
#
# usage: test_cli_outfile.sh BUILD_DIR
set -euo pipefail

BUILD=${1:?usage: test_cli_outfile.sh BUILD_DIR}
. "$(dirname "$0")/shlib.sh"
cli_setup "$BUILD"
cd "$T"
umask 022

mode_of() { stat -c %a "$1"; }
want_mode() { # want_mode NAME FILE MODE
    local m
    m=$(mode_of "$2")
    if [ "$m" = "$3" ]; then ok; else bad "$1: mode $m, want $3"; fi
}
# dir_empty NAME DIR: nothing at all in DIR (dot files included)
dir_empty() {
    local left
    left=$(ls -A "$2")
    if [ -z "$left" ]; then ok; else bad "$1: left behind in $2: $left"; fi
}

"$FS" keygen --out k.pem --pubout p.pem
"$FS" pubkey --key k.pem --der --out p.der
printf 'attack at dawn\n' >msg
"$FS" encrypt --pub p.pem --in msg --out msg.ct

# ---------------------------------------------------------------------------
# Modes
# ---------------------------------------------------------------------------
# decrypt over an existing 0600 file (file to file, and stdin to file)
echo old >secret.txt
chmod 600 secret.txt
"$FS" decrypt --key k.pem --in msg.ct --out secret.txt && ok || bad "decrypt over a 0600 file"
cmp -s msg secret.txt && ok || bad "decrypt over a 0600 file: wrong plaintext"
want_mode "decrypt over a 0600 file" secret.txt 600
echo old >secret2.txt
chmod 640 secret2.txt
"$FS" decrypt --key k.pem --out secret2.txt <msg.ct && ok || bad "decrypt from stdin over a 0640 file"
want_mode "decrypt from stdin over a 0640 file" secret2.txt 640
# encrypt and sign over existing files keep theirs too
echo old >ct.keep
chmod 604 ct.keep
"$FS" encrypt --pub p.pem --in msg --out ct.keep && ok || bad "encrypt over a 0604 file"
want_mode "encrypt over a 0604 file" ct.keep 604
echo old >sig.keep
chmod 400 sig.keep
if [ "$(id -u)" = 0 ]; then
    # root may write a 0400 file (as `>` does): replaced, its mode kept
    "$FS" sign --key k.pem --in msg --out sig.keep && ok || bad "sign over a 0400 file"
    want_mode "sign over a 0400 file" sig.keep 400
    "$FS" verify --pub p.pem --in msg --sig sig.keep && ok || bad "the signature written over a 0400 file"
else
    # anyone else may not (test_cli_outperm checks it as nobody too)
    rc=0
    "$FS" sign --key k.pem --in msg --out sig.keep 2>/dev/null || rc=$?
    [ "$rc" = 2 ] && ok || bad "sign over a 0400 file: exit $rc, want 2 (refused)"
    [ "$(cat sig.keep)" = old ] && ok || bad "sign over a 0400 file: replaced"
    want_mode "sign over a 0400 file" sig.keep 400
fi
# new files: the umask; a private key 0600 whatever the umask allows
"$FS" decrypt --key k.pem --in msg.ct --out new022 && ok || bad "decrypt to a new file"
want_mode "new file, umask 022" new022 644
(umask 077 && "$FS" decrypt --key k.pem --in msg.ct --out new077) && ok || bad "decrypt, umask 077"
want_mode "new file, umask 077" new077 600
(umask 027 && "$FS" encrypt --pub p.pem --in msg --out new027) && ok || bad "encrypt, umask 027"
want_mode "new file, umask 027" new027 640
"$FS" keygen --out knew.pem --pubout pnew.pem && ok || bad "keygen"
want_mode "new private key" knew.pem 600
want_mode "new public key" pnew.pem 644
# a private key over a readable file narrows it to 0600
echo old >kold.pem
chmod 644 kold.pem
"$FS" keygen --out kold.pem && ok || bad "keygen over a 0644 file"
want_mode "keygen over a 0644 file" kold.pem 600
# a symlink: its target is replaced, the link stays, the target keeps its mode
echo old >target.txt
chmod 600 target.txt
ln -s target.txt link.txt
"$FS" decrypt --key k.pem --in msg.ct --out link.txt && ok || bad "decrypt through a symlink"
[ -L link.txt ] && ok || bad "decrypt through a symlink: the link was replaced"
cmp -s msg target.txt && ok || bad "decrypt through a symlink: target not written"
want_mode "decrypt through a symlink" target.txt 600

# ---------------------------------------------------------------------------
# keygen: never the same file twice; both files or neither
# ---------------------------------------------------------------------------
mkdir kg
rc=0
"$FS" keygen --out kg/x.pem --pubout kg/x.pem 2>err || rc=$?
[ "$rc" = 2 ] && ok || bad "keygen --out X --pubout X: exit $rc, want 2"
grep -q 'same file' err && ok || bad "keygen --out X --pubout X: message: $(cat err)"
dir_empty "keygen --out X --pubout X" kg
rc=0
"$FS" keygen --out kg/x.pem --pubout ./kg/../kg/x.pem 2>/dev/null || rc=$?
[ "$rc" = 2 ] && ok || bad "keygen, one new file by two names: exit $rc, want 2"
dir_empty "keygen, one new file by two names" kg
echo old >kg/y.pem
ln -s y.pem kg/y-link.pem
rc=0
"$FS" keygen --out kg/y.pem --pubout kg/y-link.pem 2>/dev/null || rc=$?
[ "$rc" = 2 ] && ok || bad "keygen, a file and a link to it: exit $rc, want 2"
[ "$(cat kg/y.pem)" = old ] && ok || bad "keygen, a file and a link to it: the file was changed"
rm -f kg/y.pem kg/y-link.pem
if [ -w /dev/full ]; then
    rc=0
    "$FS" keygen --out kg/z.pem --pubout /dev/full 2>/dev/null || rc=$?
    [ "$rc" = 2 ] && ok || bad "keygen --pubout /dev/full: exit $rc, want 2"
    dir_empty "keygen --pubout /dev/full" kg
    rc=0
    "$FS" keygen --out /dev/full --pubout kg/z.pub 2>/dev/null || rc=$?
    [ "$rc" = 2 ] && ok || bad "keygen --out /dev/full: exit $rc, want 2"
    dir_empty "keygen --out /dev/full" kg
fi

# ---------------------------------------------------------------------------
# Interrupted runs
# ---------------------------------------------------------------------------
# A raw C1C3C2 ciphertext of 256 MiB (sparse): C1 a valid point (the public
# key's), C3 random, C2 zeros. Its C3 cannot match: everything the decrypt
# writes is unauthenticated plaintext. A plaintext of 256 MiB likewise.
BIG=$((256 * 1048576))
tail -c 65 p.der >big.ct
head -c 32 /dev/urandom >>big.ct
truncate -s "$BIG" big.ct
truncate -s "$BIG" big.pt

# interrupt SIG NAME OUTDIR CMD...: start CMD (the default action for every
# signal, as a shell's background jobs ignore SIGINT), wait until it has
# written into its output (a file of OUTDIR open in the process, not empty),
# check that file's mode is 0600, send SIG, and check that the process died
# of it and OUTDIR is empty.
interrupt() {
    local sig=$1 name=$2 dir=$3
    shift 3
    env --default-signal "$@" 2>/dev/null &
    local pid=$! fd="" found="" tries=0
    while [ -z "$found" ] && [ $tries -lt 20000 ] && kill -0 "$pid" 2>/dev/null; do
        tries=$((tries + 1))
        for fd in /proc/"$pid"/fd/* "$dir"/.*.??????; do
            local tgt
            case "$fd" in
            /proc/*) tgt=$(readlink "$fd" 2>/dev/null || true) ;;
            *) tgt=$fd ;; # a named temporary file, seen in the directory
            esac
            case "$tgt" in
            "$dir"/*)
                if [ "$(stat -L -c %s "$fd" 2>/dev/null || echo 0)" -gt 0 ]; then
                    found=$fd
                    break
                fi
                ;;
            esac
        done
    done
    if [ -z "$found" ]; then
        bad "$name: never saw the output being written"
        kill -s KILL "$pid" 2>/dev/null || true
        wait "$pid" || true
        return
    fi
    local m
    m=$(stat -L -c %a "$found" 2>/dev/null || echo gone)
    kill -s "$sig" "$pid"
    local rc=0
    wait "$pid" || rc=$?
    [ "$m" = 600 ] && ok || bad "$name: the unfinished output had mode $m, want 600"
    local want=$((128 + $(kill -l "$sig")))
    [ "$rc" = "$want" ] && ok || bad "$name: exit $rc, want $want (death by SIG$sig)"
    dir_empty "$name" "$dir"
}

mkdir int
# unnamed temporary files (O_TMPFILE), then named ones removed by the handler
for named in "" 1; do
    export FASTSM2_CLI_NAMED_TEMP=$named
    [ -n "$named" ] || unset FASTSM2_CLI_NAMED_TEMP
    how=${named:+, named temporary file}
    # A decrypt holds a private key, so it is not dumpable (test_cli_secrets):
    # its /proc/PID/fd is root's. Another user sees its unnamed output only
    # there: without root, the decrypts run with named files only (the
    # encrypts below run the same outfile.c code with unnamed ones).
    if [ -n "$named" ] || [ "$(id -u)" = 0 ]; then
    interrupt INT "decrypt interrupted by SIGINT$how" "$T/int" "$FS" decrypt --raw --key k.pem --in big.ct --out "$T/int/plain"
    interrupt TERM "decrypt interrupted by SIGTERM$how" "$T/int" "$FS" decrypt --raw --key k.pem --in big.ct --out "$T/int/plain"
    interrupt HUP "decrypt interrupted by SIGHUP$how" "$T/int" "$FS" decrypt --raw --key k.pem --in big.ct --out "$T/int/plain"
    fi
    interrupt TERM "encrypt interrupted by SIGTERM$how" "$T/int" "$FS" encrypt --pub p.pem --in big.pt --out "$T/int/ct"
    interrupt INT "encrypt interrupted by SIGINT$how" "$T/int" "$FS" encrypt --raw --pub p.pem --in big.pt --out "$T/int/ct"
    # a named temporary file, when it is one, has mode 0600 from the start
    FASTSM2_CLI_NAMED_TEMP=1 "$FS" decrypt --key k.pem --in msg.ct --out int/named && ok || bad "decrypt, named temporary file"
    cmp -s msg int/named && ok || bad "decrypt, named temporary file: wrong plaintext"
    rm -f int/named
done
unset FASTSM2_CLI_NAMED_TEMP
# over an existing file: it stays as it was
echo old >int/plain
chmod 600 int/plain
env --default-signal "$FS" decrypt --raw --key k.pem --in big.ct --out "$T/int/plain" 2>/dev/null &
pid=$!
sleep 0.3
kill -s TERM "$pid" 2>/dev/null || true
wait "$pid" || true
[ "$(cat int/plain)" = old ] && ok || bad "decrypt interrupted over a file: the file changed"
[ "$(ls -A int)" = plain ] && ok || bad "decrypt interrupted over a file: left behind: $(ls -A int)"

finish test_cli_outfile
