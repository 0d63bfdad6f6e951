#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The CLI's manual page (docs/fastsm2.1, installed by cmake --install) says
# what the program does:
#  - it formats without a warning (groff -man -ww), when groff is here;
#  - every command that `fastsm2 help` lists has its entry (a .B line that
#    starts with the command's name), and every option a command's help
#    shows appears in the page;
#  - its title line carries the version the program prints.
#
# usage: test_manpage.sh BUILD_DIR     (prints "N passed, N failed")
set -uo pipefail

BUILD=${1:?usage: test_manpage.sh BUILD_DIR}
SRC=${FASTSM2_SOURCE:-$(cd "$(dirname "$0")/.." && pwd)}
PAGE=$SRC/docs/fastsm2.1
. "$(dirname "$0")/shlib.sh"
FS=$(cd "$BUILD" && pwd)/fastsm2
[ -x "$FS" ] || { echo "no $FS" >&2; exit 1; }
[ -f "$PAGE" ] && ok || { bad "no $PAGE"; finish test_manpage; }

if command -v groff >/dev/null; then
    warn=$(groff -man -ww -z "$PAGE" 2>&1)
    empty "groff warns about $PAGE:" "$warn"
fi

# The page with its escapes undone: "\-" is "-".
sed 's/\\-/-/g; s/\\f[BIRP]//g' "$PAGE" >"$T/page.txt"

"$FS" help >"$T/help.txt" || bad "fastsm2 help failed"
cmds=$(awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}' "$T/help.txt")
n=$(echo "$cmds" | wc -w)
[ "$n" -ge 8 ] && ok || bad "only $n commands parsed from fastsm2 help"
for c in $cmds; do
    if grep -qE "^\.B $c( |$)" "$T/page.txt"; then ok; else bad "no entry for the command $c in $PAGE"; fi
    [ "$c" = help ] || [ "$c" = version ] && continue
    "$FS" help "$c" >"$T/cmd.txt" || bad "fastsm2 help $c failed"
    for opt in $(grep -oE -- '--[a-z0-9-]+' "$T/cmd.txt" | sort -u); do
        if grep -qF -- "$opt" "$T/page.txt"; then ok; else bad "$PAGE does not mention $opt of $c"; fi
    done
done

version=$("$FS" version | awk 'NR == 1 {print $2}')
if grep -qE "^\.TH FASTSM2 1 .*\"fastsm2 $version\"" "$PAGE"; then ok; else
    bad "the title line of $PAGE does not say fastsm2 $version"
fi
finish test_manpage
