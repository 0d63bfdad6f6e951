#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Source-tree rules that a compiler does not check:
#  - every source file (*.c *.h *.py *.sh CMakeLists.txt Makefile: the ones
#    git tracks, plus new ones it does not ignore; every such file under the
#    tree when this is not a git checkout) carries
#    "SPDX-License-Identifier: Apache-2.0" in its first 3 lines;
#  - LICENSE is the Apache License 2.0;
#  - every public function in include/*.h has a doc comment directly above
#    its declaration (a comment followed, without a blank line, by a run of
#    declarations documents that run), and the comment names what it
#    implements: "GB/T 3291x", "GB/T 32905" or a "clause";
#  - nothing under src/ includes an OpenSSL header (the library is libc only);
#  - no source, script or build file names ../shared (outside the repository).
#
# usage: test_lint.sh [BUILD_DIR]     (prints "N passed, N failed")
# The source directory is $FASTSM2_SOURCE, else the script's ../ directory.
set -uo pipefail

SRC=${FASTSM2_SOURCE:-$(cd "$(dirname "$0")/.." && pwd)}
SRC=$(cd "$SRC" && pwd) || exit 1

. "$(dirname "$0")/shlib.sh"

cd "$SRC" || exit 1

# ---- the list of source files ------------------------------------------------
if command -v git >/dev/null && git rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
    [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$SRC" ]; then
    # tracked, and new files that are not ignored (they are about to be
    # tracked); a tracked file deleted from the work tree is skipped below
    git ls-files -z --cached --others --exclude-standard -- \
        '*.c' '*.h' '*.py' '*.sh' 'CMakeLists.txt' '*/CMakeLists.txt' 'Makefile' '*/Makefile' |
        tr '\0' '\n' | sort -u >"$T/files.txt"
    how="git ls-files"
else
    find . \( -name .git -o -name 'build' -o -name 'build-*' -o -name __pycache__ -o -name '.venv' \) -prune -o \
        -type f \( -name '*.c' -o -name '*.h' -o -name '*.py' -o -name '*.sh' \
        -o -name CMakeLists.txt -o -name Makefile \) -print | sed 's#^\./##' | sort -u >"$T/files.txt"
    how="find"
fi
nfiles=$(wc -l <"$T/files.txt")
if [ "$nfiles" -ge 10 ]; then
    ok
else
    bad "only $nfiles source files found in $SRC (by $how)"
fi

# ---- SPDX lines --------------------------------------------------------------
nospdx=0
while IFS= read -r f; do
    [ -f "$f" ] || continue
    if head -n 3 -- "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0'; then
        ok
    else
        bad "no 'SPDX-License-Identifier: Apache-2.0' in the first 3 lines of $f"
        nospdx=$((nospdx + 1))
    fi
done <"$T/files.txt"

# ---- LICENSE -----------------------------------------------------------------
if [ -f LICENSE ]; then
    ok
    for phrase in 'Apache License' 'Version 2.0, January 2004' 'http://www.apache.org/licenses/' \
        'TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION' \
        '1. Definitions.' '9. Accepting Warranty or Additional Liability.' 'END OF TERMS AND CONDITIONS'; do
        if grep -qF -- "$phrase" LICENSE; then
            ok
        else
            bad "LICENSE is not the Apache License 2.0 (no '$phrase')"
        fi
    done
    # the whole text, not an excerpt (the license is about 11 KB)
    size=$(wc -c <LICENSE)
    if [ "$size" -ge 9000 ]; then ok; else bad "LICENSE is only $size bytes: not the full Apache 2.0 text"; fi
else
    bad "no LICENSE file in $SRC"
fi

# ---- doc comments on the public API --------------------------------------------
# For each FASTSM2_API declaration print: name, documented (0/1), names a
# clause (0/1).
headers=$(ls include/*.h 2>/dev/null)
if [ -n "$headers" ]; then ok; else bad "no public headers in $SRC/include"; fi
for h in $headers; do
    awk '
    function decl_name(s) {
        sub(/\(.*/, "", s)
        sub(/[[:space:]]+$/, "", s)
        n = split(s, w, /[^A-Za-z0-9_]+/)
        return w[n]
    }
    function clause(s) {
        return s ~ /GB\/T 3291/ || s ~ /GB\/T 32905/ || tolower(s) ~ /clause/
    }
    {
        line = $0
        if (incomment) {
            comment = comment " " line
            if (line ~ /\*\//) { incomment = 0; prev = "comment" }
            next
        }
        if (line ~ /^[[:space:]]*\/\*/) {
            comment = line
            if (line ~ /\*\/[[:space:]]*$/) { prev = "comment" } else { incomment = 1 }
            next
        }
        if (line ~ /^[[:space:]]*FASTSM2_API[[:space:]]/) {
            buf = line
            while (buf !~ /;/ && (getline more) > 0) buf = buf " " more
            if (prev == "comment") { doc = comment; documented = 1 }
            else if (prev == "decl") { documented = group_documented }
            else { doc = ""; documented = 0 }
            group_documented = documented
            print decl_name(buf), documented, (documented && clause(doc)) ? 1 : 0
            prev = "decl"
            next
        }
        prev = "other"
    }' "$h" >"$T/docs.txt"
    napi=$(wc -l <"$T/docs.txt")
    nuses=$(grep -v '^[[:space:]]*#' "$h" | grep -o 'FASTSM2_API' | wc -l)
    if [ "$napi" -eq "$nuses" ]; then
        ok
    else
        bad "$h: parsed $napi FASTSM2_API declarations, but FASTSM2_API appears $nuses times"
    fi
    undocumented=$(awk '$2 == 0 {print $1}' "$T/docs.txt")
    noclause=$(awk '$2 == 1 && $3 == 0 {print $1}' "$T/docs.txt")
    nbad=0
    for name in $undocumented; do
        bad "$h: $name has no doc comment directly above it"
        nbad=$((nbad + 1))
    done
    for name in $noclause; do
        bad "$h: the doc comment of $name names no clause (GB/T 32918 / GB/T 32905 / clause)"
        nbad=$((nbad + 1))
    done
    if [ "$nbad" -eq 0 ]; then ok; fi
done

# ---- nothing reads outside the repository ---------------------------------------
# A user's clone has only the repository: no source, script or build file
# may name a path above it (the standard's vectors live in tests/vectors).
outside=$(tr '\n' '\0' <"$T/files.txt" | xargs -0 grep -nE '\.\./shared' -- 2>/dev/null | grep -v '^tests/test_lint.sh:' || true)
if [ -z "$outside" ]; then
    ok
else
    bad "files name ../shared, which a clone does not have:"
    echo "$outside" | sed 's/^/    /' >&2
fi

# ---- no OpenSSL in the library -------------------------------------------------
if [ -d src ]; then
    hits=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]openssl/' src || true)
    if [ -z "$hits" ]; then
        ok
    else
        bad "the library includes OpenSSL headers:"
        echo "$hits" | sed 's/^/    /' >&2
    fi
else
    bad "no src/ directory in $SRC"
fi

finish test_lint
