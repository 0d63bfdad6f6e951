# SPDX-License-Identifier: Apache-2.0
"""The Python examples of the docs run as written: every ```python block of
every docs/*.md, python/README.md and the README, in order, one namespace
per file. A block that cannot run here says so on the line before it:
`<!-- not run: REASON -->` (and the test shows the file as skipped when
none of its blocks runs)."""
import re

import pytest

from conftest import REPO

DOCS = [d for d in sorted(str(p.relative_to(REPO)) for p in (REPO / "docs").glob("*.md")) + ["python/README.md", "README.md"]
        if "```python" in (REPO / d).read_text()]
NOT_RUN = re.compile(r"<!-- not run: [^>]+-->\n$")


def python_blocks(text, runnable_only=True):
    """The ```python blocks, without those marked `<!-- not run: ... -->`."""
    blocks = []
    for m in re.finditer(r"^```python\n(.*?)^```$", text, flags=re.S | re.M):
        if runnable_only and NOT_RUN.search(text[: m.start()]):
            continue
        blocks.append(m.group(1))
    return blocks


def test_not_run_blocks_say_why():
    """Every ```python block of the docs runs here or carries its reason."""
    for doc in DOCS:
        text = (REPO / doc).read_text()
        for m in re.finditer(r"<!-- not run:([^>]*)-->\n", text):
            assert m.group(1).strip(), doc + ": a not-run marker without a reason"
            assert text[m.end():].startswith("```"), doc + ": a not-run marker not right before a block"


@pytest.mark.parametrize("doc", DOCS)
def test_doc_examples_run(doc, tmp_path, monkeypatch):
    path = REPO / doc
    text = path.read_text()
    blocks = python_blocks(text)
    if not python_blocks(text, runnable_only=False):
        pytest.skip("no Python example in " + doc)
    if not blocks:
        pytest.skip("every Python example of %s is marked not run here (its markers say why)" % doc)
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
