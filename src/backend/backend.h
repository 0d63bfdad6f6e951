/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Backend selection (docs/ARCHITECTURE.md). Two seams, each an operations
 * table: EC (src/ec/ec.h) and SM3 (src/sm3/sm3_ops.h). A backend is a named
 * pair of tables, one of each; the list fs2_backends[] holds every pair the
 * tests must walk, so that every table of this build is in one of them.
 *
 * Selection, once, at first use: FASTSM2_CPU=<name> forces that backend
 * (both its tables) if this CPU can run it; otherwise the first backend in
 * fs2_backends[] after generic that this CPU can run, generic last. "Can
 * run": the CPU-feature word (src/cpu.h) has what both tables' cpu_needs
 * name, and both pass a known-answer self-test. The portable "generic"
 * backend (generic EC, generic SM3) is the reference every other table is
 * tested against.
 */
#ifndef FS2_BACKEND_H
#define FS2_BACKEND_H

#include "ec/ec.h"
#include "internal.h"
#include "sm3/sm3_ops.h"

typedef struct fs2_backend {
    const char *name; /* what FASTSM2_CPU takes */
    const fs2_ec_ops *ec;
    const fs2_sm3_ops *sm3;
} fs2_backend;

/* Every backend of this build: generic first, then the others fastest
 * first; NULL-terminated. */
FS2_HIDDEN extern const fs2_backend *const fs2_backends[];

/* 1 if this CPU can run b (both tables' cpu_needs). */
FS2_HIDDEN int fs2_backend_available(const fs2_backend *b);

/* The backend in use (chosen once, thread-safe), and its two tables. */
FS2_HIDDEN const fs2_backend *fs2_backend_get(void);
FS2_HIDDEN const fs2_ec_ops *fs2_ec(void);
FS2_HIDDEN const fs2_sm3_ops *fs2_sm3(void);

/* The distinct tables of fs2_backends[], in order, for i = 0, 1, ...; NULL
 * past the last: what the tests walk. */
FS2_HIDDEN const fs2_ec_ops *fs2_ec_table(size_t i);
FS2_HIDDEN const fs2_sm3_ops *fs2_sm3_table(size_t i);

/* Force a backend by name for tests (0 if unknown or unavailable). */
FS2_HIDDEN int fs2_backend_force(const char *name);

/* Force a backend by name without asking whether the CPU can run it: for
 * the valgrind constant-time test only, as valgrind's virtual CPUID hides
 * features (ADX) whose instructions it nevertheless executes. 0 if
 * unknown. */
FS2_HIDDEN int fs2_backend_force_unchecked(const char *name);

#endif
