# SPDX-License-Identifier: Apache-2.0
"""Build fastsm2 for Python: setuptools + cffi (API mode).

The C sources are the repository's own (../src, ../include): at build time
they are copied into csrc/ (git-ignored) next to this file with what builds
them, by ../tools/libsources.py, the description of the library's build
that CMake and the Rust crate read too; _build_ffi.py asks it what to
compile and has it write the generated files (the base-point tables, the
EC backend units) into csrc/generated. An sdist carries csrc/, so it builds
on its own.
Only a C11 compiler is needed; the flags it is given are the ones it takes
(BuildExt below asks it), and the C code finds the platform's random source
and 64x64-bit product itself (getrandom or getentropy or arc4random_buf;
__int128 or a portable product).
"""
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CSRC = HERE / "csrc"


def vendor_sources():
    """Copy the library's sources and build description into csrc/
    (tools/libsources.py --vendor) and write the generated files; a no-op
    for the copy when building from an sdist."""
    if (REPO / "src").is_dir() and (REPO / "include" / "fastsm2.h").is_file():
        subprocess.run([sys.executable, str(REPO / "tools" / "libsources.py"), "--vendor", str(CSRC)], check=True,
                       stdout=subprocess.DEVNULL)
    elif not (CSRC / "include" / "fastsm2.h").is_file():
        sys.exit("fastsm2: C sources not found (need ../src and ../include, or csrc/ from an sdist)")
    # the generated files too, so that an sdist carries them
    subprocess.run([sys.executable, str(CSRC / "tools" / "libsources.py"), "--root", str(CSRC), "--out",
                    str(CSRC / "generated"), "--format", "none"], check=True)


# A C11 source the compiler must accept with the chosen language flag.
_PROBE_C11 = """
#include <stdint.h>
static _Thread_local uint64_t fs2_probe_tls;
_Static_assert(sizeof(uint64_t) == 8, "uint64_t");
int fs2_probe(void) { return (int)fs2_probe_tls; }
"""


def _compiles(compiler, tmp, flags, source=_PROBE_C11):
    from setuptools.errors import CompileError

    src = Path(tmp) / "probe.c"
    src.write_text(source)
    try:
        compiler.compile([str(src)], output_dir=tmp, extra_postargs=list(flags))
    except CompileError:
        return False
    return True


def compile_flags(compiler):
    """The flags for the C sources that this compiler takes: a C11 dialect
    with the GNU/POSIX declarations (-std=gnu11, else -std=c11 with
    _DEFAULT_SOURCE, else the compiler's default if it is C11 already) and
    -O3 where it is understood. MSVC gets /O2 and /std:c11."""
    import tempfile

    if compiler.compiler_type == "msvc":
        candidates = [["/std:c11"], []]
        optimise = ["/O2"]
    else:
        candidates = [["-std=gnu11"], ["-std=c11", "-D_DEFAULT_SOURCE"], []]
        optimise = ["-O3"]
    with tempfile.TemporaryDirectory() as tmp:
        for flags in candidates:
            if _compiles(compiler, tmp, flags):
                break
        else:
            sys.exit("fastsm2: the C compiler does not compile C11 (_Thread_local, _Static_assert)")
        if _compiles(compiler, tmp, flags + optimise):
            flags = flags + optimise
    return flags


class BuildExt(build_ext):
    """build_ext with the C flags this compiler takes (compile_flags)."""

    def build_extensions(self):
        flags = compile_flags(self.compiler)
        print("fastsm2: C flags %s" % " ".join(flags))
        for ext in self.extensions:
            ext.extra_compile_args = flags + list(ext.extra_compile_args or [])
        super().build_extensions()


vendor_sources()
setup(cffi_modules=["_build_ffi.py:ffibuilder"], cmdclass={"build_ext": BuildExt})
