# SPDX-License-Identifier: Apache-2.0
"""The package's type hints check with mypy (installed by python/tools/test.sh)."""
import subprocess
import sys
from pathlib import Path

import fastsm2
from conftest import missing


def test_mypy_clean(tmp_path):
    try:
        import mypy  # noqa: F401
    except ImportError:
        missing("mypy")
    pkg = Path(fastsm2.__file__).parent
    assert (pkg / "py.typed").is_file() and (pkg / "_native.pyi").is_file()
    out = subprocess.run([sys.executable, "-m", "mypy", "--ignore-missing-imports", "--cache-dir=/dev/null", "-p", "fastsm2"],
                         cwd=str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, timeout=600)
    assert out.returncode == 0, out.stdout
