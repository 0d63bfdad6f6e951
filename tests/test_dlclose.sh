#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Unloading the shared library while a thread that drew random bytes lives
# on: the thread's exit must not call into the unmapped library (the
# generator's per-thread wipe is a pthread key destructor, deleted when the
# library is unloaded; src/rng.c). A program dlopens libfastsm2.so, a
# thread generates a key, the main thread dlcloses the library, then the
# thread exits; it must run to the end (a crash there is the thread's exit
# calling the destructor of a key whose code is gone).
#
# Then the kept helper threads of the batch API: gone after dlclose.
#
# usage: test_dlclose.sh BUILD_DIR     (prints "N passed, N failed")
set -uo pipefail

BUILD=${1:?usage: test_dlclose.sh BUILD_DIR}
BUILD=$(cd "$BUILD" && pwd) || exit 1
SO=$BUILD/libfastsm2.so
CC=${CC:-cc}

. "$(dirname "$0")/shlib.sh"

[ -f "$SO" ] || { echo "no $SO" >&2; exit 1; }
# A sanitizer build's library needs its runtimes first: build the program
# with the same sanitizers (as test_exports.sh does).
SAN_FLAGS=()
readelf -d "$SO" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' >"$T/needed.txt"
grep -q '^libasan\.so' "$T/needed.txt" && SAN_FLAGS+=(-fsanitize=address)
grep -q '^libubsan\.so' "$T/needed.txt" && SAN_FLAGS+=(-fsanitize=undefined)

cat >"$T/dl.c" <<'C'
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int (*generate)(void *);
static volatile int stage;
static int gen_status = -1;

static void *worker(void *arg)
{
    unsigned long long key[64]; /* >= sizeof(fastsm2_privkey) */
    (void)arg;
    gen_status = generate(key);
    stage = 1;
    while (stage != 2)
        usleep(1000);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t t;
    void *h = dlopen(argv[argc - 1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 2;
    }
    generate = (int (*)(void *))dlsym(h, "fastsm2_privkey_generate");
    if (!generate || pthread_create(&t, NULL, worker, NULL) != 0)
        return 3;
    while (stage != 1)
        usleep(1000);
    dlclose(h);
    stage = 2;
    pthread_join(t, NULL);
    printf("generate %d, thread exited\n", gen_status);
    return gen_status == 1 ? 0 : 4;
}
C
if "$CC" "${SAN_FLAGS[@]}" -O1 -o "$T/dl" "$T/dl.c" -ldl -lpthread 2>"$T/cc.err"; then
    ok
else
    bad "could not build the test program: $(cat "$T/cc.err")"
    finish test_dlclose
fi
out=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$T/dl" "$SO" 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ "$out" = "generate 1, thread exited" ]; then
    ok
else
    bad "dlclose while a thread lives on: exit $rc, output: $out"
fi

# The batch API's kept helper threads (src/pool.c): after a batch on three
# threads they exist; dlclose must stop and join them (the library's
# destructor), or they would sleep on in unmapped code. Threads are counted
# in /proc/self/task.
cat >"$T/pool.c" <<'C'
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static int tasks(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    static unsigned long long key[64]; /* >= sizeof(fastsm2_privkey) */
    static unsigned char e[64 * 32], sigs[64 * 64];
    void *h = dlopen(argv[argc - 1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 2;
    }
    int (*generate)(void *) = (int (*)(void *))dlsym(h, "fastsm2_privkey_generate");
    int (*batch)(unsigned char *, const void *, size_t, const unsigned char *, size_t, unsigned) =
        (int (*)(unsigned char *, const void *, size_t, const unsigned char *, size_t, unsigned))dlsym(
            h, "fastsm2_sign_digest_batch");
    if (!generate || !batch || generate(key) != 1)
        return 3;
    memset(e, 7, sizeof e);
    int st = batch(sigs, key, 1, e, 64, 3);
    int during = tasks();
    dlclose(h);
    int after = tasks();
    printf("batch %d, threads %d with the pool, %d after dlclose\n", st, during, after);
    return st == 1 && during == 3 && after == 1 ? 0 : 4;
}
C
if "$CC" "${SAN_FLAGS[@]}" -O1 -o "$T/pool" "$T/pool.c" -ldl -lpthread 2>"$T/cc.err"; then
    ok
    out=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$T/pool" "$SO" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then
        ok
    else
        bad "helper threads after dlclose: exit $rc, output: $out"
    fi
else
    bad "could not build the pool test program: $(cat "$T/cc.err")"
fi
finish test_dlclose
