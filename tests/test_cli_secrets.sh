#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# What the command-line tool does with the secrets it holds (cli/pass.c,
# cli/keys.c):
#  - once it holds a private key or a password it is not dumpable
#    (PR_SET_DUMPABLE 0: no core file, no ptrace or /proc/PID/mem by other
#    processes of the user), seen as /proc/PID/fd owned by root (/proc/PID
#    itself keeps the user as owner); a command
#    that holds no secret (verify) stays dumpable;
#  - a pass: password is wiped from the command line once read
#    (/proc/PID/cmdline no longer shows it);
#  - SIGINT, SIGTERM, SIGHUP or SIGQUIT at the password prompt leaves the
#    terminal's echo on (it was left off), and the process dies of the
#    signal (on a pseudo-terminal, with python3's pty module).
# The /proc checks run as the user nobody when run as root (root's own
# processes are root's either way); skipped (77) without /proc.
#
# usage: test_cli_secrets.sh BUILD_DIR
set -euo pipefail

BUILD=${1:?usage: test_cli_secrets.sh BUILD_DIR}
. "$(dirname "$0")/shlib.sh"
cli_setup "$BUILD"
[ -d /proc/self ] || { echo "test_cli_secrets: skipped (no /proc)"; exit 77; }
chmod 755 "$T"
cd "$T"

"$FS" keygen --out k.pem --pubout p.pem --passout pass:SECRETPW123 --iter 1000
"$FS" keygen --out plain.pem
chmod 644 k.pem plain.pem
echo hello >m
"$FS" sign --key k.pem --passin pass:SECRETPW123 --in m --out s

# as_user CMD...: become CMD run as an unprivileged user (nobody when
# root): exec, so that a background job's $! is CMD's own pid
if [ "$(id -u)" = 0 ]; then
    if ! command -v setpriv >/dev/null || ! getent passwd nobody >/dev/null; then
        echo "test_cli_secrets: skipped (root without setpriv or the user nobody)"
        exit 77
    fi
    RUN_UID=$(id -u nobody)
    as_user() { exec setpriv --reuid="$RUN_UID" --regid="$(id -g nobody)" --clear-groups -- "$@"; }
else
    RUN_UID=$(id -u)
    as_user() { exec "$@"; }
fi

# held NAME WANT CMD...: start CMD (its --in is the FIFO "in", so it waits
# there after loading its keys), then check /proc/PID/fd's owner: 0 for WANT
# "secret" (not dumpable), the user's for "plain"; and that SECRETPW123 is
# not on its command line. Then let it finish.
held() {
    local name=$1 want=$2
    shift 2
    rm -f in
    mkfifo in
    chmod 666 in
    (as_user "$@" >/dev/null 2>&1) &
    local pid=$! owner="" tries=0
    # wait until it blocks on the FIFO (after its keys are loaded)
    while [ $tries -lt 200 ]; do
        tries=$((tries + 1))
        owner=$(stat -c %u /proc/"$pid"/fd 2>/dev/null || echo gone)
        if [ "$want" = secret ] && [ "$owner" = 0 ]; then break; fi
        if grep -qE "fifo|partner" /proc/"$pid"/wchan 2>/dev/null; then break; fi
        sleep 0.05
    done
    sleep 0.2
    owner=$(stat -c %u /proc/"$pid"/fd 2>/dev/null || echo gone)
    local cmdline
    cmdline=$(tr '\0' ' ' </proc/"$pid"/cmdline 2>/dev/null || true)
    echo x >in
    wait "$pid" || true
    if [ "$want" = secret ]; then
        [ "$owner" = 0 ] && ok || bad "$name: /proc/PID owned by $owner: still dumpable while holding a secret"
    else
        [ "$owner" = "$RUN_UID" ] && ok || bad "$name: /proc/PID owned by $owner, want $RUN_UID (dumpable)"
    fi
    case "$cmdline" in
    # qemu-user's /proc/PID/cmdline is the emulator's own argv, which the
    # program it runs cannot change: the wipe is not visible there
    */qemu-*) echo "skip: $name: the command line under an emulator ($cmdline) does not show the program's own" ;;
    *SECRETPW123*) bad "$name: the password is still on the command line: $cmdline" ;;
    *) ok ;;
    esac
}
held "sign, encrypted key, pass:" secret "$FS" sign --key k.pem --passin pass:SECRETPW123 --in in --out /dev/null
held "sign, plain key" secret "$FS" sign --key plain.pem --in in --out /dev/null
held "verify (no secret)" plain "$FS" verify --pub p.pem --sig s --in in

# The prompt interrupted: the terminal's echo back on.
if python3 -c 'import pty, termios' 2>/dev/null; then
    cat >ttysig.py <<'PY'
import os, pty, signal, sys, termios, time
fs, name = sys.argv[1], sys.argv[2]
sig = getattr(signal, name)
signal.alarm(60)
pid, fd = pty.fork()
if pid == 0:
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(s, signal.SIG_DFL)
    os.execv(fs, [fs, "sign", "--key", "k.pem", "--in", "m", "--out", "sig.tty"])
out = b""
while b"Enter the password" not in out:
    try:
        data = os.read(fd, 1024)
    except OSError:
        break
    if not data:
        break
    out += data
if b"Enter the password" not in out:
    print("%s: no prompt: %r" % (name, out))
    sys.exit(1)
time.sleep(0.3)  # the prompt is written after echo goes off
before = termios.tcgetattr(fd)[3] & termios.ECHO
os.kill(pid, sig)
_, status = os.waitpid(pid, 0)
after = termios.tcgetattr(fd)[3] & termios.ECHO
died = os.WIFSIGNALED(status) and os.WTERMSIG(status) == sig
ok = not before and after and died
if not ok:
    print("%s at the prompt: echo %s before, %s after; %s" % (name, "on" if before else "off",
          "on" if after else "off", "died of it" if died else "status %d" % status))
sys.exit(0 if ok else 1)
PY
    for sig in SIGINT SIGTERM SIGHUP SIGQUIT; do
        if msg=$(python3 ttysig.py "$FS" $sig 2>&1); then ok; else bad "$sig at the password prompt: $msg"; fi
    done
    [ ! -e sig.tty ] && ok || bad "a signature was written after an interrupted prompt"
else
    echo "test_cli_secrets: no python3 pty module: the prompt checks are not run"
fi

finish test_cli_secrets
