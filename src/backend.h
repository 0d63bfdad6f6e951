/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Backend selection (docs/ARCHITECTURE.md). A backend is a named choice of
 * an EC operations table (src/ec/ec.h) and an SM3 compression; one is chosen
 * at start-up from CPU features, after a known-answer self-test, or forced
 * with FASTSM2_CPU=<name>. The portable "generic" backend is the reference
 * every other one is tested against; tests iterate over fs2_backends[] so
 * that no backend can go untested.
 */
#ifndef FS2_BACKEND_H
#define FS2_BACKEND_H

#include "ec/ec.h"
#include "internal.h"

typedef struct fs2_backend {
    const char *name;
    /* 1 if this CPU can run the backend. */
    int (*available)(void);
    /* SM3 compression of nblocks 64-byte blocks. */
    void (*sm3_compress)(uint32_t state[8], const unsigned char *blocks, size_t nblocks);
    /* Multi-buffer SM3: sm3_lanes independent states hashed at once (1 when
     * the backend has no SIMD lanes). Lane i compresses nblocks consecutive
     * 64-byte blocks starting at blocks[i] into state[i]; every lane takes
     * the same number of blocks. Constant time like sm3_compress. */
    unsigned sm3_lanes;
    void (*sm3_compress_lanes)(uint32_t (*state)[8], const unsigned char *const *blocks, size_t nblocks);
    /* The EC operations. */
    const fs2_ec_ops *ec;
} fs2_backend;

/* All backends compiled in, generic first, NULL-terminated. */
FS2_HIDDEN extern const fs2_backend *const fs2_backends[];

/* The distinct EC tables of fs2_backends[], in order, for i = 0, 1, ...;
 * NULL past the last: what the tests walk. */
FS2_HIDDEN const fs2_ec_ops *fs2_ec_table(size_t i);
/* 1 if this CPU can run ec (a backend that uses it is available). */
FS2_HIDDEN int fs2_ec_table_available(const fs2_ec_ops *ec);

/* The backend in use (chosen once, thread-safe), and its EC table. */
FS2_HIDDEN const fs2_backend *fs2_backend_get(void);
FS2_HIDDEN const fs2_ec_ops *fs2_ec(void);

/* Force a backend by name for tests (0 if unknown or unavailable). */
FS2_HIDDEN int fs2_backend_force(const char *name);

/* Force a backend by name without asking its available(): for the valgrind
 * constant-time test only, as valgrind's virtual CPUID hides features (ADX)
 * whose instructions it nevertheless executes. 0 if unknown. */
FS2_HIDDEN int fs2_backend_force_unchecked(const char *name);

#endif
