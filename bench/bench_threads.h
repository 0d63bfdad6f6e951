/* SPDX-License-Identifier: Apache-2.0 */
#ifndef FS2_BENCH_THREADS_H
#define FS2_BENCH_THREADS_H

/* `fastsm2-speed --threads N ...`: the batch API's scaling over cores
 * (bench_threads.c). Returns the process exit code. */
int bench_threads_main(int argc, char **argv);

#endif
