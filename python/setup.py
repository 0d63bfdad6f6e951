# SPDX-License-Identifier: Apache-2.0
"""Build fastsm2 for Python: setuptools + cffi (API mode).

The C sources are the repository's own (../src, ../include): at build time
they are copied into csrc/ (git-ignored) next to this file, and the
base-point tables are generated there by ../tools/gen_tables.py, exactly as
the CMake build does. An sdist carries csrc/, so it builds on its own.
Only a C11 compiler is needed; the flags it is given are the ones it takes
(BuildExt below asks it), and the C code finds the platform's random source
and 64x64-bit product itself (getrandom or getentropy or arc4random_buf;
__int128 or a portable product).
"""
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CSRC = HERE / "csrc"


def _sync_file(src, dst):
    data = src.read_bytes()
    if not dst.is_file() or dst.read_bytes() != data:
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(data)


def _sync_tree(src_dir, dst_dir, patterns):
    wanted = set()
    for pattern in patterns:
        for src in src_dir.rglob(pattern):
            rel = src.relative_to(src_dir)
            wanted.add(rel)
            _sync_file(src, dst_dir / rel)
    # Files removed from the repository leave the copy too.
    if dst_dir.is_dir():
        for old in list(dst_dir.rglob("*")):
            if old.is_file() and old.relative_to(dst_dir) not in wanted:
                old.unlink()


def vendor_sources():
    """Copy ../src, ../include and the table generator into csrc/ and write
    the generated tables; a no-op when building from an sdist."""
    if not (REPO / "src").is_dir() or not (REPO / "include" / "fastsm2.h").is_file():
        if not (CSRC / "include" / "fastsm2.h").is_file():
            sys.exit("fastsm2: C sources not found (need ../src and ../include, or csrc/ from an sdist)")
        return
    _sync_tree(REPO / "src", CSRC / "src", ["*.c", "*.h", "*.txt"])
    _sync_tree(REPO / "include", CSRC / "include", ["*.h"])
    _sync_file(REPO / "tools" / "gen_tables.py", CSRC / "tools" / "gen_tables.py")
    _sync_file(REPO / "LICENSE", CSRC / "LICENSE")
    gen = CSRC / "generated"
    gen.mkdir(parents=True, exist_ok=True)
    for args, name in (([], "ecmult_tables.c"), (["--header"], "ecmult_tables.h")):
        out = subprocess.run([sys.executable, str(CSRC / "tools" / "gen_tables.py")] + args,
                             check=True, stdout=subprocess.PIPE).stdout
        target = gen / name
        if not target.is_file() or target.read_bytes() != out:
            target.write_bytes(out)


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
