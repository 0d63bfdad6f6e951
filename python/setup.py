# SPDX-License-Identifier: Apache-2.0
"""Build fastsm2 for Python: setuptools + cffi (API mode).

The C sources are the repository's own (../src, ../include): at build time
they are copied into csrc/ (git-ignored) next to this file, and the
base-point tables are generated there by ../tools/gen_tables.py, exactly as
the CMake build does. An sdist carries csrc/, so it builds on its own.
Only a C compiler (gcc or clang, C11 with __int128) is needed.
"""
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup

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


vendor_sources()
setup(cffi_modules=["_build_ffi.py:ffibuilder"])
