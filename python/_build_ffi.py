# SPDX-License-Identifier: Apache-2.0
"""cffi (API mode) builder for fastsm2._native.

The extension compiles the C library itself, what ``tools/libsources.py``
(the build description CMake and the Rust crate read too; copied with the
sources into ``csrc/`` by setup.py, or shipped there in an sdist) lists:
every ``.c`` file of ``src/``, the EC backend units of
``src/ec/variants.txt`` and the base-point tables, generated into
``csrc/generated``. The cdef is derived from
``include/fastsm2.h`` so that every public function is bound as declared:
comments, preprocessor lines and the FASTSM2_API / FASTSM2_WARN_UNUSED
markers are dropped, and each integer ``#define FASTSM2_*`` becomes a cffi
``#define NAME ...`` constant whose value the C compiler supplies.

Set FASTSM2_PY_LINK=/path/to/libfastsm2.so (or .a) to link against a library
built elsewhere (for example with CUDA) instead of compiling csrc/src.
"""
import os
import re
import sys
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
CSRC = HERE / "csrc"

# Parameters of the in-process timing helpers (fs2py_*), used by
# fastsm2.bench to time the C calls in this very process.
_HELPERS_CDEF = """
double fs2py_time_sign(const fastsm2_privkey *key, const unsigned char *msg, size_t msglen, size_t iters);
double fs2py_time_verify(const fastsm2_pubkey *pub, const unsigned char *msg, size_t msglen,
                         const unsigned char *sig, size_t iters);
"""

_HELPERS_SRC = r"""
#include <time.h>
static double fs2py_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
/* Seconds taken by iters fastsm2_sign calls (default ID, raw output), or a
 * negative value if one failed. */
static double fs2py_time_sign(const fastsm2_privkey *key, const unsigned char *msg, size_t msglen, size_t iters)
{
    unsigned char sig[64];
    double t0 = fs2py_now();
    for (size_t i = 0; i < iters; i++)
        if (fastsm2_sign(sig, key, NULL, 0, msg, msglen) != FASTSM2_OK)
            return -1.0;
    return fs2py_now() - t0;
}
static double fs2py_time_verify(const fastsm2_pubkey *pub, const unsigned char *msg, size_t msglen,
                                const unsigned char *sig, size_t iters)
{
    double t0 = fs2py_now();
    for (size_t i = 0; i < iters; i++)
        if (fastsm2_verify(pub, NULL, 0, msg, msglen, sig) != 1)
            return -1.0;
    return fs2py_now() - t0;
}
"""

_SKIP_DEFINES = {"FASTSM2_H", "FASTSM2_API", "FASTSM2_WARN_UNUSED"}


def header_to_cdef(text):
    """Turn fastsm2.h into a cffi cdef string (see the module docstring)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = text.replace("\\\n", " ")
    defines, body = [], []
    skip_depth = 0  # inside #ifdef __cplusplus
    depth = 0
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#"):
            d = s[1:].strip()
            if d.startswith(("if", "ifdef", "ifndef")):
                depth += 1
                if skip_depth == 0 and "__cplusplus" in d:
                    skip_depth = depth
            elif d.startswith("endif"):
                if skip_depth == depth:
                    skip_depth = 0
                depth -= 1
            elif d.startswith("define") and skip_depth == 0:
                m = re.match(r"define\s+(FASTSM2_\w+)\s+(.+)$", d)
                if m and m.group(1) not in _SKIP_DEFINES:
                    value = m.group(2).strip()
                    if re.fullmatch(r"\(?\s*-?\s*(0x[0-9A-Fa-f]+|\d+)[uUlL]*\s*\)?", value):
                        defines.append("#define %s ..." % m.group(1))
            continue
        if skip_depth:
            continue
        body.append(line)
    body = "\n".join(body)
    body = re.sub(r"\bFASTSM2_API\b|\bFASTSM2_WARN_UNUSED\b", " ", body)
    return body + "\n" + "\n".join(defines) + "\n"


def _manifest():
    """csrc's build description (tools/libsources.py), its files generated."""
    sys.path.insert(0, str(CSRC / "tools"))
    try:
        import libsources
    finally:
        sys.path.pop(0)
    m = libsources.manifest(CSRC, CSRC / "generated")
    libsources.generate(m)
    return m


def make_ffi():
    header = (CSRC / "include" / "fastsm2.h").read_text()
    ffi = FFI()
    ffi.cdef(header_to_cdef(header) + _HELPERS_CDEF)
    link = os.environ.get("FASTSM2_PY_LINK")
    # The language and optimisation flags are added by setup.py's BuildExt,
    # which asks the compiler which it takes.
    kwargs = dict(
        include_dirs=[str(CSRC / "include")],
        libraries=["pthread"],
    )
    if link:
        # A library built elsewhere (CMake, maybe with CUDA): link it whole.
        kwargs["extra_link_args"] = [os.path.abspath(link), "-Wl,-rpath," + os.path.dirname(os.path.abspath(link))]
    else:
        m = _manifest()
        # cffi wants the sources relative to this directory
        kwargs["sources"] = [os.path.relpath(p, HERE) for p in m.all_sources()]
        kwargs["include_dirs"] = [str(p) for p in m.include_dirs]
    ffi.set_source("fastsm2._native", '#include "fastsm2.h"\n' + _HELPERS_SRC, **kwargs)
    return ffi


ffibuilder = make_ffi() if (CSRC / "include" / "fastsm2.h").is_file() else None

if __name__ == "__main__":
    print(header_to_cdef((CSRC / "include" / "fastsm2.h").read_text()))
