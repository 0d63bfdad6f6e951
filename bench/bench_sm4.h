/* SPDX-License-Identifier: Apache-2.0 */
#ifndef FS2_BENCH_SM4_H
#define FS2_BENCH_SM4_H

/* `fastsm2-speed --sm4` (bench/bench_sm4.c): the SM4 table. */
int bench_sm4_main(int argc, char **argv);

#endif
