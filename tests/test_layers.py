# SPDX-License-Identifier: Apache-2.0
"""The layers of src/ (docs/ARCHITECTURE.md, "Layers"), drawn from the code.

Every folder of src/ is one floor, and FLOORS below lists them from the
bottom up: that list is the one declaration of their order. A file may use
its own folder and the floors below it, never one above; two folders can
therefore never depend on each other (no circle except inside one folder).
Checked from:

  1. the #include "..." lines of every source and header under src/
     (resolved as the compiler does: beside the including file, then from
     src/; fastsm2.h is the public header; ecmult_tables.h is generated);
  2. the calls: in the build directory given as the first argument, the
     symbols each object file of the library uses and defines (nm), so that
     a call through a declaration in a lower header (or the public API) is
     seen too. Skipped, with a message, without nm or without the objects;
  3. the three *_impl.h of src/ec/ include what they use: each compiles on
     its own (cc -fsyntax-only), for the portable field and, on x86-64, the
     x86 one. Skipped without a C compiler;
  4. docs/ARCHITECTURE.md's layer table lists exactly these folders in this
     order.

The checker's own rules are tested first on a small made-up tree (one
include up a floor, one circle across folders, one call up) that it must
refuse. Exit 0: all hold; 1: a rule is broken (each break named).

FS2_LAYERS="a,b,..." replaces FLOORS for one run (the docs are then not
compared): to draw another tree, e.g. an older one, against its own order.
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The floors, bottom first: folder names under src/ ("." is the files
# directly in src/).
FLOORS = [
    ".",  # base: internal.h, ct.h, the CPU-feature word, random, threads, errors
    "codec",  # DER, PEM, signature DER, the ciphertext codec: bytes only
    "field",  # arithmetic mod p and mod n (headers)
    "ec",  # the EC backends (one source, one build per field) and point checks
    "sm3",  # the SM3 compression functions, one table per CPU
    "sm4",  # the SM4 block cipher and GHASH, one table per CPU, and their selection
    "backend",  # the selector: which EC table and SM3 table run
    "hash",  # the SM3 hash, the KDF, many messages at once
    "sym",  # SM4, AES, SHA-256, HMAC, PBKDF2, CBC
    "protocol",  # keys, signatures, encryption, key exchange, batches
    "gpu",  # the CUDA backend: host code and kernels (gpu/cuda/)
    "keyfile",  # PKCS#8, SEC1, SPKI, encrypted PKCS#8, certificates
    "x509",  # certificates and requests: names, extensions, building, chains
    "cms",  # CMS signed and enveloped data (RFC 5652, GM/T 0010)
]
# Headers generated at build time (not in src/), and the floor they belong to.
GENERATED = {"ecmult_tables.h": "ec", "ecmult_tables.c": "ec"}
# Public headers (include/): the API every floor may name.
PUBLIC = {"fastsm2.h"}
SOURCE_EXT = (".c", ".h", ".cu", ".cuh")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def folders_in(src):
    """The folders of src/ that hold sources ("." for src/ itself)."""
    found = set()
    for root, _dirs, files in os.walk(src):
        if any(f.endswith(SOURCE_EXT) for f in files):
            found.add(folder_of(os.path.relpath(os.path.join(root, "x"), src).replace(os.sep, "/")))
    return found


def folder_of(rel):
    """Folder (floor name) of a path relative to src/."""
    parts = rel.split("/")
    return "." if len(parts) == 1 else parts[0]


def variant_units(repo):
    """{generated unit name: floor}: the units tools/libsources.py writes
    from a variants list (src/ec/variants.txt) compile a template of src/,
    and belong to its folder."""
    sys.path.insert(0, os.path.join(repo, "tools"))
    try:
        import libsources
    finally:
        sys.path.pop(0)
    m = libsources.manifest(repo, "generated")
    units = {}
    for path, text in m.units:
        inc = re.search(r'#include "([^"]+)"', text).group(1)
        units[path.name] = folder_of(inc)
    assert units, "no variant units listed"
    return units


def floor_index(floors, folder):
    return floors.index(folder) if folder in floors else None


def scan_includes(src):
    """[(from_rel, to_rel_or_None, spelled)] for every #include "..." in src/."""
    edges = []
    for root, _dirs, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith(SOURCE_EXT):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src).replace(os.sep, "/")
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for inc in INCLUDE_RE.findall(text):
                target = None
                for base in (root, src):
                    cand = os.path.normpath(os.path.join(base, inc))
                    if os.path.isfile(cand):
                        target = os.path.relpath(cand, src).replace(os.sep, "/")
                        break
                edges.append((rel, target, inc))
    return edges


def check_edges(floors, edges, what, problems):
    """edges: [(from_folder, to_folder, description)]. Appends to problems."""
    graph = collections.defaultdict(set)
    for a, b, desc in edges:
        fa, fb = floor_index(floors, a), floor_index(floors, b)
        if fa is None or fb is None:
            problems.append("%s: %s: folder %r is not in FLOORS" % (what, desc, a if fa is None else b))
            continue
        if a != b:
            graph[a].add(b)
        if fb > fa:
            problems.append("%s up a floor: %s (%s, floor %d, uses %s, floor %d)" % (what, desc, a, fa, b, fb))
    # Circles across folders (Tarjan's strongly connected components).
    index, low, stack, on, sccs = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    for v in list(graph):
        if v not in index:
            visit(v)
    for comp in sccs:
        problems.append("%s: circle across folders: %s" % (what, " <-> ".join(comp)))
    return graph


def include_problems(floors, src):
    problems, edges = [], []
    for rel, target, inc in scan_includes(src):
        if target is None:
            base = os.path.basename(inc)
            if inc in PUBLIC:
                continue
            if inc in GENERATED:
                edges.append((folder_of(rel), GENERATED[inc], '%s includes "%s" (generated)' % (rel, inc)))
                continue
            problems.append('include: %s includes "%s", which is neither in src/ nor public nor generated' % (rel, base))
            continue
        edges.append((folder_of(rel), folder_of(target), '%s includes "%s"' % (rel, inc)))
    graph = check_edges(floors, edges, "include", problems)
    return problems, graph, len(edges)


def object_source(build, obj):
    """src/-relative source of a CMake object file, 'generated/...', or None."""
    rel = os.path.relpath(obj, build).replace(os.sep, "/")
    m = re.match(r"CMakeFiles/fastsm2_[A-Za-z0-9_]+\.dir/(.*)\.o$", rel)
    if not m:
        return None
    return m.group(1)


def call_problems(floors, build, repo):
    """None when it cannot run here, else (problems, count). Objects whose
    source is gone (a build directory kept across a move) are not read."""
    if build is None or not os.path.isdir(os.path.join(build, "CMakeFiles")):
        return None
    nm = None
    try:  # the build's own nm (a cross build's), else the one on PATH
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8", errors="replace") as f:
            m = re.search(r"^CMAKE_NM:FILEPATH=(.+)$", f.read(), re.M)
        if m and os.access(m.group(1).strip(), os.X_OK):
            nm = m.group(1).strip()
    except OSError:
        pass
    nm = nm or shutil.which("nm")
    if nm is None:
        return None
    objs = []
    for root, _dirs, files in os.walk(os.path.join(build, "CMakeFiles")):
        for name in files:
            if name.endswith(".o"):
                s = object_source(build, os.path.join(root, name))
                if s and s.startswith("src/") and not os.path.exists(os.path.join(repo, s)):
                    continue
                if s and (s.startswith("src/") or s.startswith("generated/")):
                    objs.append((os.path.join(root, name), s))
    if not objs:
        return None
    defs, uses = {}, collections.defaultdict(set)
    for path, s in objs:
        r = subprocess.run([nm, path], capture_output=True, text=True)
        if r.returncode != 0:  # an nm that cannot read these objects
            return None
        out = r.stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) == 2 and f[0] == "U":
                uses[s].add(f[1])
            elif len(f) == 3 and f[1] in "TDRBCVW":
                defs.setdefault(f[2], set()).add(s)

    units = variant_units(repo)

    def fold(s):
        if s.startswith("generated/"):
            name = os.path.basename(s)
            return GENERATED.get(name) or units.get(name, "?")
        return folder_of(s[len("src/"):])

    edges = []
    for s, syms in sorted(uses.items()):
        for sym in sorted(syms):
            for d in sorted(defs.get(sym, ())):
                if d != s:
                    edges.append((fold(s), fold(d), "%s calls %s (%s)" % (s, sym, d)))
    problems = []
    graph = check_edges(floors, edges, "call", problems)
    return problems, len(edges), graph


def impl_header_problems(src, build):
    """None without a C compiler, else a list of problems."""
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        return None
    gen = os.path.join(build, "generated") if build else None
    if not gen or not os.path.isfile(os.path.join(gen, "ecmult_tables.h")):
        return None
    repo = os.path.dirname(src)
    fields = ["FS2_FIELD_GENERIC"]
    if os.uname().machine in ("x86_64", "amd64"):
        fields.append("FS2_FIELD_X86")
    problems = []
    for hdr in ("ec/group_impl.h", "ec/select_impl.h", "ec/ecmult_impl.h"):
        for field in fields:
            r = subprocess.run([cc, "-std=gnu11", "-fsyntax-only", "-Werror", "-Wall", "-x", "c", "-",
                                "-DFS2_FIELD=" + field, "-I" + src, "-I" + os.path.join(repo, "include"), "-I" + gen],
                               input='#include "%s"\n' % hdr, capture_output=True, text=True)
            if r.returncode != 0:
                first = "\n".join(r.stderr.strip().splitlines()[:6])
                problems.append("%s does not compile on its own (FS2_FIELD=%s):\n%s" % (hdr, field, first))
    return problems


def doc_problems(floors, repo):
    doc = os.path.join(repo, "docs", "ARCHITECTURE.md")
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    # Rows of the layer table: "| <floor number> | `src/<folder>/...` | ...".
    listed = []
    for m in re.finditer(r"^\|\s*(\d+)\s*\|\s*`src/([a-z0-9_]*)/?[^`]*`", text, re.M):
        listed.append((int(m.group(1)), m.group(2) or "."))
    want = [(i, f) for i, f in enumerate(floors)]
    if listed != want:
        return ["docs/ARCHITECTURE.md's layer table %s differs from FLOORS %s" % (listed, want)]
    return []


def self_test():
    """The rules refuse a made-up tree with one break of each kind."""
    with tempfile.TemporaryDirectory() as t:
        src = os.path.join(t, "src")
        for d in ("lo", "hi"):
            os.makedirs(os.path.join(src, d))
        files = {
            "base.h": "",
            "lo/lo.h": '#include "base.h"\n#include "hi/hi.h"\n',  # up a floor, and a circle
            "hi/hi.h": '#include "lo/lo.h"\n',
            "hi/x.c": '#include "hi.h"\n#include "nowhere.h"\n',  # resolves beside the file; unknown
        }
        for name, body in files.items():
            with open(os.path.join(src, name), "w") as f:
                f.write(body)
        probs, _, _ = include_problems([".", "lo", "hi"], src)
        up = [p for p in probs if "up a floor" in p and "lo/lo.h" in p]
        circle = [p for p in probs if "circle across folders: hi <-> lo" in p]
        unknown = [p for p in probs if "nowhere.h" in p]
        if len(up) != 1 or len(circle) != 1 or len(unknown) != 1 or len(probs) != 3:
            return ["self-test: the include rules did not refuse the made-up tree as expected: %s" % probs]
        probs = []
        check_edges([".", "lo", "hi"], [("lo", "hi", "lo.c calls f (hi.c)")], "call", probs)
        if len(probs) != 1:
            return ["self-test: the call rule did not refuse a call up a floor: %s" % probs]
        probs = []
        check_edges([".", "lo", "hi"], [("hi", "lo", "hi.c calls g"), ("lo", ".", "lo.c calls h")], "call", probs)
        if probs:
            return ["self-test: the rules refused calls down the floors: %s" % probs]
    return []


def show(floors, graph, verb):
    for f in floors:
        below = sorted(graph.get(f, ()), key=lambda x: floors.index(x) if x in floors else len(floors))
        print("  %-9s %s %s" % (f, verb, ", ".join(below) if below else "-"))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else None
    repo = os.environ.get("FASTSM2_SOURCE") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    src = os.path.join(repo, "src")
    floors = FLOORS
    if os.environ.get("FS2_LAYERS"):
        floors = [f.strip() for f in os.environ["FS2_LAYERS"].split(",")]
    problems = self_test()

    present = folders_in(src)
    for f in sorted(present - set(floors)):
        problems.append("folder src/%s is not in FLOORS" % f)
    for f in floors:
        if f not in present:
            problems.append("FLOORS names %r, which src/ does not have" % f)

    probs, graph, n = include_problems(floors, src)
    problems += probs
    print("test_layers: %d #include lines in src/, %d folders, %d floors (bottom first):" % (n, len(present),
                                                                                         len(floors)))
    show(floors, graph, "includes")

    calls = call_problems(floors, build, repo)
    if calls is None:
        print("test_layers: calls not checked (no nm, or no library objects in %s)" % build)
    else:
        problems += calls[0]
        print("test_layers: %d calls between the library's object files:" % calls[1])
        show(floors, calls[2], "calls")

    impl = impl_header_problems(src, build)
    if impl is None:
        print("test_layers: *_impl.h not compiled alone (no C compiler or no generated tables)")
    else:
        problems += impl
        if not impl:
            print("test_layers: ec/group_impl.h, ec/select_impl.h, ec/ecmult_impl.h compile on their own")

    if floors is FLOORS:
        problems += doc_problems(FLOORS, repo)
    for p in problems:
        print("FAIL: " + p)
    if problems:
        print("test_layers: %d problems" % len(problems))
        return 1
    print("test_layers: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
