/* SPDX-License-Identifier: Apache-2.0 */
/* What the tests ask the emulated CUDA runtime (tests/gpu/emu/cuda_runtime.h)
 * in a FASTSM2_CUDA=EMU build. */
#ifndef FS2_CUDA_EMU_H
#define FS2_CUDA_EMU_H

#ifdef __cplusplus
extern "C" {
#endif

enum {
    FS2_CUDA_EMU_ALLOCS,
    FS2_CUDA_EMU_STREAMS,
    FS2_CUDA_EMU_EVENTS,
    FS2_CUDA_EMU_PENDING,
    FS2_CUDA_EMU_VIOLATIONS,
    FS2_CUDA_EMU_FAIL_CALLS,
    FS2_CUDA_EMU_NSTATS
};

/* Live device allocations, streams, events; operations queued on streams and
 * not run; out-of-bounds or stale copies so far; calls of the kind
 * FS2_CUDA_EMU_FAIL names, since the last rearm. */
void fs2_cuda_emu_stats(long out[FS2_CUDA_EMU_NSTATS]);
/* Re-read FS2_CUDA_EMU_FAIL ("malloc:N", "launch:N", "copy:N") and restart
 * the call counts. */
void fs2_cuda_emu_rearm(void);
/* Calls of kind 0 (malloc), 1 (launch), 2 (copy or memset) since the rearm. */
unsigned long fs2_cuda_emu_calls(int kind);

#ifdef __cplusplus
}
#endif
#endif
