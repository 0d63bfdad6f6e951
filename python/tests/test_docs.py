# SPDX-License-Identifier: Apache-2.0
"""The Python examples of the docs run as written: every ```python block of
docs/MIGRATING-FROM-GMSSL.md, docs/PYTHON.md, python/README.md and the
README, in order, one namespace per file."""
import re

import pytest

from conftest import REPO

DOCS = ["docs/MIGRATING-FROM-GMSSL.md", "docs/PYTHON.md", "python/README.md", "README.md"]


def python_blocks(text):
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)


@pytest.mark.parametrize("doc", DOCS)
def test_doc_examples_run(doc, tmp_path, monkeypatch):
    path = REPO / doc
    blocks = python_blocks(path.read_text())
    if doc == "README.md" and not blocks:
        pytest.skip("no Python example in the README")
    assert blocks, "no ```python block in " + doc
    if "GMSSL" in doc:
        from conftest import missing
        try:
            import gmssl  # noqa: F401
        except ImportError:
            missing("the gmssl package")
        assert len(blocks) >= 4
    monkeypatch.chdir(tmp_path)
    ns = {"__name__": "__doc_example__"}
    for i, code in enumerate(blocks):
        try:
            exec(compile(code, "%s block %d" % (doc, i + 1), "exec"), ns)
        except Exception as e:  # report which block
            raise AssertionError("%s, python block %d failed: %r" % (doc, i + 1, e)) from e
