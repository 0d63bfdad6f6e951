#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The password prompt and job control, on a pseudo-terminal: Ctrl-Z at the
# prompt stops fastsm2 with the terminal as it was (echo on: the shell and
# whatever runs next are usable), and `fg` turns echo off again and asks
# again (the kernel dropped the half-typed line); the password is then
# read, never echoed, and the terminal is left as it was found. A small
# job-control shell in Python stands in for bash: fastsm2 runs as a job in
# a process group of its own (a stop signal is dropped in an orphaned one),
# and the shell reports the terminal's echo flag while the job is stopped.
#
# usage: test_cli_tty.sh BUILD_DIR
set -euo pipefail

BUILD=${1:?usage: test_cli_tty.sh BUILD_DIR}
. "$(dirname "$0")/shlib.sh"
cli_setup "$BUILD"
cd "$T"
if ! python3 -c 'import pty, termios' 2>/dev/null || ! python3 -c 'import os, pty; os.close(pty.openpty()[0])' 2>/dev/null; then
    echo "test_cli_tty: no pseudo-terminals here (python3 pty): skipped"
    exit 77
fi

"$FS" keygen --out k.pem --pubout p.pem --passout pass:tty-pw --iter 1000
cat >jobshell.py <<'PY'
import os, pty, select, signal, sys, termios, time

signal.alarm(60)  # a prompt never answered fails the test instead of hanging it
argv = sys.argv[1:]
rep_r, rep_w = os.pipe()
pid, master = pty.fork()
if pid == 0:  # the shell: session leader, the pty its controlling terminal
    os.close(rep_r)
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)  # tcsetpgrp from the background
    job = os.fork()
    if job == 0:
        os.setpgid(0, 0)
        os.tcsetpgrp(0, os.getpid())
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        os.execv(argv[0], argv)
    try:
        os.setpgid(job, job)
    except OSError:
        pass  # the job did it first
    os.tcsetpgrp(0, job)
    while True:
        _, st = os.waitpid(job, os.WUNTRACED)
        if os.WIFSTOPPED(st):
            echo = 1 if termios.tcgetattr(0)[3] & termios.ECHO else 0
            os.write(rep_w, b"stopped %d echo=%d\n" % (os.WSTOPSIG(st), echo))
            time.sleep(0.2)
            os.tcsetpgrp(0, job)  # fg
            os.killpg(job, signal.SIGCONT)
            continue
        os.write(rep_w, b"exit %d\n" % os.waitstatus_to_exitcode(st))
        os._exit(0)

os.close(rep_w)
out, rep = b"", b""
fails = []


def pump(until, seconds):
    """Read the terminal and the shell's reports until until() or timeout."""
    global out, rep
    end = time.time() + seconds
    while not until() and time.time() < end:
        ready, _, _ = select.select([master, rep_r], [], [], 0.1)
        for f in ready:
            try:
                data = os.read(f, 4096)
            except OSError:
                data = b""
            if f == master:
                out += data
            else:
                rep += data
    return until()


def echo_on():
    return bool(termios.tcgetattr(master)[3] & termios.ECHO)


if not pump(lambda: out.count(b": ") >= 1, 20):
    fails.append("no prompt: %r" % out)
if echo_on():
    fails.append("echo on at the prompt")
os.write(master, b"half-typ")  # a half-typed password, then Ctrl-Z
time.sleep(0.2)
os.write(master, b"\x1a")
if not pump(lambda: b"stopped" in rep, 10):
    fails.append("Ctrl-Z did not stop the job")
elif b"stopped %d echo=1" % signal.SIGTSTP not in rep:
    fails.append("while stopped the terminal had echo off: %r" % rep)
# continued by the shell: echo off again, and the prompt again
if not pump(lambda: out.count(b": ") >= 2, 10):
    fails.append("no prompt again after fg: %r" % out)
if not pump(lambda: not echo_on(), 5):
    fails.append("echo still on after fg")
os.write(master, b"tty-pw\n")
if not pump(lambda: b"exit" in rep, 30):
    fails.append("no exit")
elif b"exit 0" not in rep:
    fails.append("exit status: %r, output %r" % (rep, out))
pump(lambda: False, 0.3)
if b"tty-pw" in out or b"half-typ" in out:
    fails.append("the password was echoed: %r" % out)
if not echo_on():
    fails.append("echo left off at the end")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY

if python3 jobshell.py "$FS" pubkey --key k.pem --out pt.pem; then ok; else bad "Ctrl-Z at the prompt"; fi
"$FS" pubkey --key k.pem --passin pass:tty-pw --out pt2.pem
cmp -s pt.pem pt2.pem && ok || bad "the public key read after Ctrl-Z and fg"

finish test_cli_tty
