# SPDX-License-Identifier: Apache-2.0
"""tests/vectors/sm4-examples.txt against sm4_ref.py, the independent Python
SM4 beside it (the C tests read the same file): every case must match, and a
copy with one byte of a ciphertext changed must not (the check can fail).
Argument: the build directory (unused)."""
import os
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
ref = os.path.join(here, "vectors", "sm4_ref.py")
vectors = os.path.join(here, "vectors", "sm4-examples.txt")

ok = subprocess.run([sys.executable, ref, vectors]).returncode == 0
with tempfile.TemporaryDirectory() as d:
    bad = os.path.join(d, "bad.txt")
    shutil.copy(vectors, bad)
    with open(bad) as f:
        text = f.read()
    i = text.index("ciphertext = 17F399F0")  # RFC 8998's GCM ciphertext
    text = text[:i] + "ciphertext = 17F399F1" + text[i + len("ciphertext = 17F399F0"):]
    with open(bad, "w") as f:
        f.write(text)
    caught = subprocess.run([sys.executable, ref, bad], stdout=subprocess.DEVNULL).returncode == 1
print("test_sm4_vectors: vectors %s, a changed vector %s" % ("match" if ok else "DIFFER", "caught" if caught else "NOT CAUGHT"))
sys.exit(0 if ok and caught else 1)
