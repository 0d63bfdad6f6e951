#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# --out honours what the target allows, as `>` would (cli/outfile.c), even
# though the CLI writes a temporary file and renames it over the target:
#  - a file the caller may not write (0444, or another user's 0644) is
#    refused and left as it was;
#  - a symbolic link that the kernel's protected-symlinks rule would refuse
#    (another user's link in a sticky world-writable directory) is refused,
#    whatever fs.protected_symlinks says;
#  - a replaced file keeps its owner, group and mode; another user's file
#    that the caller may write is written in place (owner kept), and a
#    private key is refused there.
# Needs root (to act as two users: root and nobody, through setpriv);
# skipped (77) otherwise.
#
# usage: test_cli_outperm.sh BUILD_DIR
set -euo pipefail

BUILD=${1:?usage: test_cli_outperm.sh BUILD_DIR}
. "$(dirname "$0")/shlib.sh"
cli_setup "$BUILD"
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null || ! getent passwd nobody >/dev/null; then
    echo "test_cli_outperm: skipped (needs root, setpriv and the user nobody)"
    exit 77
fi
NOBODY=$(id -u nobody)
NOGROUP=$(id -g nobody)
# as_nobody CMD...: run CMD as the unprivileged user nobody
as_nobody() { setpriv --reuid="$NOBODY" --regid="$NOGROUP" --clear-groups -- "$@"; }
as_nobody test -x "$FS" || { echo "test_cli_outperm: skipped (nobody cannot run $FS)"; exit 77; }
chmod 755 "$T"
cd "$T"
umask 022

"$FS" keygen --out k.pem --pubout p.pem
chmod 644 k.pem # readable by nobody for these tests
mkdir u && chown nobody: u

# refused WHAT CMD...: CMD (as anyone) must exit 2
refused() {
    local what=$1 rc=0
    shift
    "$@" 2>err || rc=$?
    [ "$rc" = 2 ] && ok || bad "$what: exit $rc, want 2 (refused): $(cat err)"
}

# 1. a read-only file of the caller's own: `echo > f` fails, so does --out
echo old >u/ro
chown nobody: u/ro
chmod 444 u/ro
if as_nobody sh -c 'echo x > u/ro' 2>/dev/null; then bad "the shell wrote a 0444 file: test broken"; else ok; fi
refused "pubkey --out a 0444 file" as_nobody "$FS" pubkey --key k.pem --out u/ro
grep -q 'Permission denied' err && ok || bad "0444 file: message: $(cat err)"
[ "$(cat u/ro)" = old ] && ok || bad "0444 file: replaced"
[ "$(stat -c %a u/ro)" = 444 ] && ok || bad "0444 file: mode changed"

# 2. root's 0644 file in a directory nobody may write: not nobody's to replace
echo old >u/rootfile
chmod 644 u/rootfile
refused "pubkey --out root's 0644 file" as_nobody "$FS" pubkey --key k.pem --out u/rootfile
[ "$(cat u/rootfile)" = old ] && ok || bad "root's file: replaced"
[ "$(stat -c %U u/rootfile)" = root ] && ok || bad "root's file: owner is now $(stat -c %U u/rootfile)"
refused "keygen --out root's 0644 file" as_nobody "$FS" keygen --out u/rootfile
[ "$(cat u/rootfile)" = old ] && ok || bad "root's file: replaced by keygen"

# 3. protected symlinks: nobody's link in a sticky world-writable directory
#    is not followed by root (the kernel would refuse it with the rule on)
mkdir sticky && chmod 1777 sticky
echo victim >victim
ln -s "$T/victim" sticky/link
chown -h nobody: sticky/link
refused "keygen --out another user's link in a sticky directory" "$FS" keygen --out sticky/link
[ "$(cat victim)" = victim ] && ok || bad "protected symlink: the victim was written"
[ -L sticky/link ] && ok || bad "protected symlink: the link was replaced"
refused "pubkey --out another user's link in a sticky directory" "$FS" pubkey --key k.pem --out sticky/link
# the link's owner may follow it; so may anyone where the directory is not sticky
as_nobody "$FS" pubkey --key k.pem --out sticky/link 2>err && bad "nobody wrote root's file through a link" || ok
ln -s "$T/victim" sticky/rootlink
"$FS" pubkey --key k.pem --out sticky/rootlink && ok || bad "root's own link in a sticky directory"
grep -q 'PUBLIC KEY' victim && ok || bad "root's own link: the target not written"
echo victim >victim
mkdir plain && chmod 777 plain
ln -s "$T/victim" plain/link
chown -h nobody: plain/link
"$FS" pubkey --key k.pem --out plain/link && ok || bad "another user's link in a non-sticky directory"

# 4. root replacing nobody's file: owner, group and mode kept
echo old >u/theirs
chown nobody: u/theirs
chmod 640 u/theirs
"$FS" pubkey --key k.pem --out u/theirs && ok || bad "root over nobody's file"
[ "$(stat -c '%U %G %a' u/theirs)" = "nobody $(id -gn nobody) 640" ] && ok ||
    bad "root over nobody's file: now $(stat -c '%U %G %a' u/theirs)"
grep -q 'PUBLIC KEY' u/theirs && ok || bad "root over nobody's file: not written"
"$FS" keygen --out u/theirs && ok || bad "root's keygen over nobody's file"
[ "$(stat -c '%U %a' u/theirs)" = "nobody 600" ] && ok || bad "keygen over nobody's file: now $(stat -c '%U %a' u/theirs)"

# 5. nobody writing root's world-writable file: in place, root keeps it;
#    a private key is refused there
echo old >u/shared
chmod 666 u/shared
as_nobody "$FS" pubkey --key k.pem --out u/shared && ok || bad "nobody over root's 0666 file"
[ "$(stat -c '%U %a' u/shared)" = "root 666" ] && ok || bad "nobody over root's 0666 file: now $(stat -c '%U %a' u/shared)"
grep -q 'PUBLIC KEY' u/shared && ok || bad "nobody over root's 0666 file: not written"
refused "keygen --out root's 0666 file as nobody" as_nobody "$FS" keygen --out u/shared
grep -q 'another user' err && ok || bad "keygen over another user's file: message: $(cat err)"
grep -q 'PUBLIC KEY' u/shared && ok || bad "keygen over another user's file: changed"

finish test_cli_outperm
