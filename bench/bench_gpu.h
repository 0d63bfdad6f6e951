/* SPDX-License-Identifier: Apache-2.0 */
#ifndef FS2_BENCH_GPU_H
#define FS2_BENCH_GPU_H

/* fastsm2-speed --gpu (bench/bench_gpu.c): parses its own options, prints
 * the GPU table or JSON; returns the exit code (0, 1 on a failed check or
 * no GPU, 2 on a usage error). */
int bench_gpu_main(int argc, char **argv);

#endif
