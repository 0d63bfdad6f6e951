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
#    declarations documents that run), and the comment names the standard
#    and the clause it implements: "GB/T 32918.2 clause 6.1", "GB/T 32905
#    5.3", "GB/T 32918.4-2016 5.4.3", "GM/T 0009 clause 7.2", "RFC 5280
#    4.1.2.2" (the word "clause" alone is not enough). The library's own utilities, which
#    implement no standard, are listed by name below and say so with
#    "Library utility" in their comment;
#  - nothing under src/ includes an OpenSSL header (the library is libc only);
#  - no source, script or build file names ../shared (outside the repository).
#  - in the GPU host code, every local copy of a kernel's parameters that
#    holds key material (fs2g_sign_params: d, (1+d)^-1, the nonce prefix and
#    seed) is wiped with fs2_wipe, which the compiler keeps; a memset of a
#    dead local may be removed (issue: kernel parameters left on the stack).
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
# The functions that implement no standard (names, versions, wiping): their
# comment says "Library utility" instead of citing a clause.
UTILITIES="fastsm2_strerror fastsm2_error_name fastsm2_version fastsm2_backend_name fastsm2_backend_available
fastsm2_privkey_clear fastsm2_sm4_backend_name fastsm2_sm4_backend_available fastsm2_sm4_key_clear
fastsm2_sm4_ctx_clear fastsm2_sm4_gcm_clear fastsm2_cms_stream_clear"

# For each FASTSM2_API declaration print: name, documented (0/1), cites a
# standard and a clause (0/1), says "Library utility" (0/1).
cat >"$T/doc.awk" <<'AWK'
function decl_name(s) {
    sub(/\(.*/, "", s)
    sub(/[[:space:]]+$/, "", s)
    n = split(s, w, /[^A-Za-z0-9_]+/)
    return w[n]
}
# The comment's text on one line: no comment marks, single spaces.
function flat(s) {
    gsub(/\*/, " ", s)
    gsub(/[[:space:]]+/, " ", s)
    return s
}
# A standard (GB/T 32918.N, GB/T 32905, GB/T 32907, GB/T 17964, GM/T 00NN,
# with or without its year) followed by a clause: "clause 6.1", "Annex A",
# or the number alone; or NIST SP 800-38A..G, IEEE 1619 or an RFC with a
# clause (the modes of SM4).
function cites(s) {
    return flat(s) ~ /(GB\/T 32918(\.[1-5])?|GB\/T 32905|GB\/T 32907|GB\/T 17964|GM\/T 00[0-9][0-9])(-[0-9][0-9][0-9][0-9])? (clause |Annex )?[0-9A-F][0-9]*(\.[0-9]+)*/ ||
           flat(s) ~ /(SP 800-38[A-G]|IEEE 1619(-[0-9][0-9][0-9][0-9])?|RFC [0-9]+) (clause |appendix |Annex )?[0-9A-F][0-9]*(\.[0-9]+)*/
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
        print decl_name(buf), documented, (documented && cites(doc)) ? 1 : 0, (documented && flat(doc) ~ /Library utility/) ? 1 : 0
        prev = "decl"
        next
    }
    prev = "other"
}
AWK

# The rule itself, on comments it must accept (a*) and refuse (r*).
cat >"$T/rule.h" <<'HDR'
/** GB/T 32918.2 clause 6.1: sign. */
FASTSM2_API int a1(void);
/** GB/T 32905 5.3, one-shot. */
FASTSM2_API int a2(void);
/** GB/T 32918.4-2016 5.4.3: the KDF. */
FASTSM2_API int a3(void);
/** Decode (GM/T 0009 clause 7.2) for GB/T
 *  32918.2 clause 7.1. */
FASTSM2_API int a4(void);
/** Each item is GB/T 32918.2
 *  6.1 A3-A7. */
FASTSM2_API int a5(void);
/** GB/T 32907 clause 7.3: expand. */
FASTSM2_API int a6(void);
/** CBC (SP 800-38A 6.2). */
FASTSM2_API int a7(void);
/** Names a clause, but of nothing. */
FASTSM2_API int r1(void);
/** (Library utility: no GB/T clause.) */
FASTSM2_API int r2(void);
/** Wipe a context (GB/T 32918.3; its r is secret). */
FASTSM2_API int r3(void);
/** GB/T clause 6.1 of some part. */
FASTSM2_API int r4(void);
/** GCM (SP 800-38D) without a clause. */
FASTSM2_API int r5(void);
HDR
rule=$(awk -f "$T/doc.awk" "$T/rule.h" | awk '{printf "%s%s", $1, $3}')
if [ "$rule" = "a11a21a31a41a51a61a71r10r20r30r40r50" ]; then
    ok
else
    bad "the clause rule judges its own examples wrongly: $rule (want a11a21a31a41a51a61a71r10r20r30r40r50)"
fi

headers=$(ls include/*.h 2>/dev/null)
if [ -n "$headers" ]; then ok; else bad "no public headers in $SRC/include"; fi
for h in $headers; do
    awk -f "$T/doc.awk" "$h" >"$T/docs.txt"
    napi=$(wc -l <"$T/docs.txt")
    nuses=$(grep -v '^[[:space:]]*#' "$h" | grep -o 'FASTSM2_API' | wc -l)
    if [ "$napi" -eq "$nuses" ]; then
        ok
    else
        bad "$h: parsed $napi FASTSM2_API declarations, but FASTSM2_API appears $nuses times"
    fi
    nbad=0
    while read -r name documented cited utility; do
        is_utility=0
        for u in $UTILITIES; do [ "$u" = "$name" ] && is_utility=1; done
        if [ "$documented" -eq 0 ]; then
            bad "$h: $name has no doc comment directly above it"
        elif [ "$cited" -eq 1 ] || { [ "$is_utility" -eq 1 ] && [ "$utility" -eq 1 ]; }; then
            continue
        elif [ "$is_utility" -eq 1 ]; then
            bad "$h: the doc comment of $name (a library utility) neither cites a clause nor says \"Library utility\""
        else
            bad "$h: the doc comment of $name names no standard and clause (e.g. \"GB/T 32918.2 clause 6.1\", \"GB/T 32905 5.3\")"
        fi
        nbad=$((nbad + 1))
    done <"$T/docs.txt"
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

# ---- GPU kernel parameters holding keys are wiped ---------------------------------
# Print "file:line: NAME" for each local of a secret-holding parameter type
# that no later fs2_wipe(&NAME, ...) in its file clears.
unwiped_params() {
    awk '
        match($0, /fs2g_sign_params[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*[;=]/) {
            d = substr($0, RSTART, RLENGTH)
            sub(/fs2g_sign_params[ \t]+/, "", d); sub(/[ \t]*[;=]$/, "", d)
            n++; name[n] = d; line[n] = FNR; wiped[n] = 0
        }
        {
            for (i = 1; i <= n; i++)
                if (index($0, "fs2_wipe(&" name[i] ",") || index($0, "fs2_wipe(&" name[i] " ,"))
                    wiped[i] = 1
        }
        END { for (i = 1; i <= n; i++) if (!wiped[i]) print FILENAME ":" line[i] ": " name[i] }
    ' "$1"
}
# The rule on code it must refuse (a memset the compiler may drop; no wipe
# of the lambda's copy) and accept.
printf '%s\n' 'fs2g_sign_params p;' 'f([&] { fs2g_sign_params q = p; launch(q); });' \
    'memset(&p, 0, sizeof p);' >"$T/gpu_bad.cu"
printf '%s\n' 'fs2g_sign_params p;' 'f([&] { fs2g_sign_params q = p; launch(q); fs2_wipe(&q, sizeof q); });' \
    'fs2_wipe(&p, sizeof p);' >"$T/gpu_good.cu"
[ "$(unwiped_params "$T/gpu_bad.cu" | wc -l)" = 2 ] && ok || bad "the wipe rule does not refuse memset-only parameter copies"
[ -z "$(unwiped_params "$T/gpu_good.cu")" ] && ok || bad "the wipe rule refuses wiped parameter copies"
if ls src/gpu/cuda/*.cu >/dev/null 2>&1; then
    hits=$(for f in src/gpu/cuda/*.cu; do unwiped_params "$f"; done)
    nparams=$(grep -c 'fs2g_sign_params[[:space:]]\+[A-Za-z_]' src/gpu/cuda/*.cu | awk -F: '{s += $NF} END {print s + 0}')
    if [ -z "$hits" ] && [ "$nparams" -ge 2 ]; then
        ok
    else
        bad "GPU parameter copies holding keys not wiped with fs2_wipe ($nparams found):"
        echo "$hits" | sed 's/^/    /' >&2
    fi
fi

finish test_lint
