/* SPDX-License-Identifier: Apache-2.0 */
#ifndef FS2_BENCH_ENV_H
#define FS2_BENCH_ENV_H

#include "bench.h"

/* Make the shared inputs (keys in both libraries, message, e, data): 1, or 0
 * after a message on stderr. */
int bench_env_init(bench_env *env);
void bench_env_free(bench_env *env);

#endif
