/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An emulated CUDA runtime for tests (FASTSM2_CUDA=EMU, docs/GPU.md): the
 * few runtime calls src/gpu/cuda/sm2_gpu_kernels.cu makes, implemented on the host so
 * that the kernels, the table build, the chunked streams, the buffer growth
 * and wipes and every CUDA error path run in CI, where no GPU is. It is
 * stricter than a device where that finds bugs:
 *
 *  - "device" memory is host memory from malloc, filled with 0xA5 when
 *    allocated (nothing may rely on it being zero) and tracked: every copy
 *    and memset is checked against the live allocations (a range outside
 *    one is reported and fails with cudaErrorInvalidValue), and what is
 *    still allocated, with the streams and events, is a leak (reported at
 *    exit and through fs2_cuda_emu_stats);
 *  - kernels run as host loops over the grid, the blocks split among a few
 *    host threads (FS2_CUDA_EMU_THREADS, default 2), blockIdx / threadIdx /
 *    blockDim thread-local;
 *  - work queued on a stream (async copies, launches, event records) runs
 *    only when the stream or the device is synchronised (or a cudaFree,
 *    which synchronises the device as on hardware), so code that returns
 *    before synchronising leaves work pending, which the tests see
 *    (fs2_cuda_emu_stats: pending) and which then writes into host buffers
 *    late, as a GPU would;
 *  - fault injection: FS2_CUDA_EMU_FAIL="malloc:N", "launch:N" or "copy:N"
 *    makes the N-th cudaMalloc, kernel launch, or copy/memset (counted from
 *    the start or from the last fs2_cuda_emu_rearm) fail once with
 *    cudaErrorMemoryAllocation, cudaErrorLaunchOutOfResources or
 *    cudaErrorInvalidValue. The errors are not sticky, as those are not on
 *    a device either.
 *
 * Launches go through FS2G_LAUNCH (src/gpu/cuda/sm2_gpu_compat.h), not <<<>>>.
 * Only this header's own translation unit includes it. It needs no C++
 * runtime (no exceptions, RTTI, new or std::): the library stays linkable
 * as C.
 */
#ifndef FS2_CUDA_EMU_RUNTIME_H
#define FS2_CUDA_EMU_RUNTIME_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <new> /* placement new only (header-only, no library symbol) */

#define FS2_CUDA_EMU 1

/* ---- the language: qualifiers, built-ins ----------------------------------- */
#define __host__
#define __device__
#define __global__
#define __forceinline__ inline
#define __launch_bounds__(...)
/* A block's shared memory: its threads run one after another on one host
 * thread, and each uses a slice of its own (the kernels share nothing
 * between threads through it). */
#define __shared__ static thread_local

typedef struct {
    unsigned x, y, z;
} dim3;

typedef struct __attribute__((aligned(16))) {
    uint32_t x, y, z, w;
} uint4;

static inline uint4 make_uint4(uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
    uint4 r = {x, y, z, w};
    return r;
}

static thread_local dim3 blockIdx, threadIdx, blockDim, gridDim;

/* __byte_perm(x, y, s): byte i of the result is byte (s >> 4i) & 7 of y:x. */
static inline uint32_t __byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
    uint64_t v = ((uint64_t)y << 32) | x;
    uint32_t r = 0;
    for (int i = 0; i < 4; i++)
        r |= (uint32_t)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xFF) << (8 * i);
    return r;
}

static inline unsigned atomicAdd(unsigned *p, unsigned v)
{
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

/* ---- the runtime's types ------------------------------------------------- */
typedef enum {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
} cudaError_t;

typedef enum {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
} cudaMemcpyKind;

#define cudaStreamNonBlocking 0x01

typedef struct {
    char name[256];
    int multiProcessorCount;
} cudaDeviceProp;

struct fs2emu_op {
    void (*run)(void *);
    void *arg;
    fs2emu_op *next;
};

struct fs2emu_stream_s {
    fs2emu_op *head, *tail;
    fs2emu_stream_s *next_live;
};
typedef fs2emu_stream_s *cudaStream_t;

struct fs2emu_event_s {
    int done;
    double t;
};
typedef fs2emu_event_s *cudaEvent_t;

/* ---- state (one translation unit includes this header) ------------------- */
struct fs2emu_alloc {
    unsigned char *p;
    size_t n;
    fs2emu_alloc *next;
};

enum { FS2EMU_MALLOC, FS2EMU_LAUNCH, FS2EMU_COPY, FS2EMU_KINDS };

static struct {
    fs2emu_alloc *allocs;
    fs2emu_stream_s *streams;
    long nevents;
    long violations;
    unsigned long calls[FS2EMU_KINDS];
    int fail_kind;
    unsigned long fail_at;
    int armed;
    cudaError_t last;
} fs2emu = {NULL, NULL, 0, 0, {0, 0, 0}, -1, 0, 0, cudaSuccess};

static const char *const fs2emu_kind_names[FS2EMU_KINDS] = {"malloc", "launch", "copy"};

/* Parse FS2_CUDA_EMU_FAIL and reset the call counters. */
static void fs2emu_arm(void)
{
    const char *s = getenv("FS2_CUDA_EMU_FAIL");
    fs2emu.fail_kind = -1;
    fs2emu.fail_at = 0;
    for (int k = 0; k < FS2EMU_KINDS; k++)
        fs2emu.calls[k] = 0;
    if (s && *s) {
        for (int k = 0; k < FS2EMU_KINDS; k++) {
            size_t l = strlen(fs2emu_kind_names[k]);
            if (strncmp(s, fs2emu_kind_names[k], l) == 0 && s[l] == ':') {
                fs2emu.fail_kind = k;
                fs2emu.fail_at = strtoul(s + l + 1, NULL, 10);
            }
        }
        if (fs2emu.fail_kind < 0)
            fprintf(stderr, "cuda-emu: FS2_CUDA_EMU_FAIL=%s not understood (malloc:N, launch:N, copy:N)\n", s);
    }
    fs2emu.armed = 1;
}

/* Count a call of a kind; 1 if this one must fail. */
static int fs2emu_fault(int kind)
{
    if (!fs2emu.armed)
        fs2emu_arm();
    unsigned long n = ++fs2emu.calls[kind];
    return fs2emu.fail_kind == kind && n == fs2emu.fail_at;
}

static cudaError_t fs2emu_ret(cudaError_t e)
{
    if (e != cudaSuccess)
        fs2emu.last = e;
    return e;
}

static void fs2emu_violation(const char *what, const void *p, size_t n)
{
    fs2emu.violations++;
    fprintf(stderr, "cuda-emu: %s: %zu bytes at %p are not inside one live device allocation\n", what, n, p);
}

/* The live allocation that holds [p, p + n), or NULL. */
static fs2emu_alloc *fs2emu_find(const void *p, size_t n)
{
    const unsigned char *q = (const unsigned char *)p;
    for (fs2emu_alloc *a = fs2emu.allocs; a; a = a->next)
        if (q >= a->p && q <= a->p + a->n && n <= (size_t)(a->p + a->n - q))
            return a;
    return NULL;
}

static void fs2emu_wipe(void *p, size_t n)
{
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* ---- deferred stream work -------------------------------------------------- */
template <typename F> static void fs2emu_run_op(void *a)
{
    F *f = (F *)a;
    (*f)();
    f->~F();
    /* the closure held kernel parameters (keys, seeds): wipe before free */
    fs2emu_wipe(a, sizeof(F));
    free(a);
}

template <typename F> static cudaError_t fs2emu_enqueue(cudaStream_t s, const F &f)
{
    fs2emu_op *op = (fs2emu_op *)malloc(sizeof(fs2emu_op));
    void *mem = malloc(sizeof(F));
    if (!op || !mem) {
        free(op);
        free(mem);
        return cudaErrorMemoryAllocation;
    }
    op->arg = new (mem) F(f);
    op->run = fs2emu_run_op<F>;
    op->next = NULL;
    if (!s) { /* the default stream: run now */
        op->run(op->arg);
        free(op);
        return cudaSuccess;
    }
    if (s->tail)
        s->tail->next = op;
    else
        s->head = op;
    s->tail = op;
    return cudaSuccess;
}

static void fs2emu_drain(cudaStream_t s)
{
    while (s->head) {
        fs2emu_op *op = s->head;
        s->head = op->next;
        if (!s->head)
            s->tail = NULL;
        op->run(op->arg);
        free(op);
    }
}

static void fs2emu_drain_all(void)
{
    for (fs2emu_stream_s *s = fs2emu.streams; s; s = s->next_live)
        fs2emu_drain(s);
}

static int fs2emu_stream_live(cudaStream_t s)
{
    for (fs2emu_stream_s *t = fs2emu.streams; t; t = t->next_live)
        if (t == s)
            return 1;
    return 0;
}

/* ---- kernels: the grid as host loops over a few host threads ---------------- */
template <typename K> struct fs2emu_grid {
    K body; /* calls the kernel for the current blockIdx / threadIdx */
    unsigned grid, block;
    unsigned next; /* next block to run, shared by the workers */
};

template <typename K> static void *fs2emu_worker(void *arg)
{
    fs2emu_grid<K> *g = (fs2emu_grid<K> *)arg;
    gridDim.x = g->grid, gridDim.y = gridDim.z = 1;
    blockDim.x = g->block, blockDim.y = blockDim.z = 1;
    for (;;) {
        unsigned b = __atomic_fetch_add(&g->next, 1u, __ATOMIC_RELAXED);
        if (b >= g->grid)
            break;
        blockIdx.x = b, blockIdx.y = blockIdx.z = 0;
        for (unsigned t = 0; t < g->block; t++) {
            threadIdx.x = t, threadIdx.y = threadIdx.z = 0;
            g->body();
        }
    }
    return NULL;
}

static int fs2emu_threads(void)
{
    const char *s = getenv("FS2_CUDA_EMU_THREADS");
    int n = s && *s ? atoi(s) : 2;
    return n < 1 ? 1 : n > 64 ? 64 : n;
}

template <typename K> static void fs2emu_run_grid(const K &body, unsigned grid, unsigned block)
{
    fs2emu_grid<K> g = {body, grid, block, 0};
    /* only on worker threads, as on a device: the kernels' locals (keys,
     * nonces) never land on the calling thread's stack, whose leftovers the
     * tests scan for secrets */
    pthread_t th[64];
    int nt = fs2emu_threads(), started = 0;
    for (int i = 0; i < nt && (unsigned)i < grid; i++) {
        if (pthread_create(&th[started], NULL, fs2emu_worker<K>, &g) != 0)
            break;
        started++;
    }
    if (!started)
        fs2emu_worker<K>(&g);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
}

/* FS2G_LAUNCH(kernel, grid, block, stream, args...): the kernel's arguments
 * are copied at the launch (as the driver copies them), the kernel runs when
 * the stream is synchronised. */
template <typename Kern, typename... A>
static cudaError_t fs2emu_launch(Kern kern, unsigned grid, unsigned block, cudaStream_t st, const A &...args)
{
    if (st && !fs2emu_stream_live(st))
        return fs2emu_ret(cudaErrorInvalidResourceHandle);
    if (fs2emu_fault(FS2EMU_LAUNCH))
        return fs2emu_ret(cudaErrorLaunchOutOfResources);
    if (grid == 0 || block == 0 || block > 1024)
        return fs2emu_ret(cudaErrorInvalidValue);
    auto body = [=]() { kern(args...); };
    auto op = [=]() { fs2emu_run_grid(body, grid, block); };
    cudaError_t e = fs2emu_enqueue(st, op);
    /* the driver's copies of the arguments are its business: the emulator
     * wipes its own stack copies, so that the tests' scan of the stack for
     * secrets sees the backend's leftovers only */
    fs2emu_wipe(&op, sizeof op);
    fs2emu_wipe(&body, sizeof body);
    return fs2emu_ret(e);
}

#define FS2G_EMU_LAUNCH(kernel, grid, block, stream, ...) (void)fs2emu_launch(kernel, grid, block, stream, __VA_ARGS__)

/* ---- runtime calls ------------------------------------------------------------ */
static inline const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument (cuda-emu)";
    case cudaErrorMemoryAllocation: return "out of memory (cuda-emu)";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch (cuda-emu)";
    case cudaErrorInvalidDevice: return "invalid device ordinal (cuda-emu)";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle (cuda-emu)";
    case cudaErrorNotReady: return "device not ready (cuda-emu)";
    }
    return "unknown error (cuda-emu)";
}

static inline cudaError_t cudaGetLastError(void)
{
    cudaError_t e = fs2emu.last;
    fs2emu.last = cudaSuccess;
    return e;
}

static inline cudaError_t cudaGetDeviceCount(int *n)
{
    *n = 1;
    return cudaSuccess;
}

static inline cudaError_t cudaSetDevice(int d)
{
    return d == 0 ? cudaSuccess : fs2emu_ret(cudaErrorInvalidDevice);
}

static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int d)
{
    if (d != 0)
        return fs2emu_ret(cudaErrorInvalidDevice);
    memset(p, 0, sizeof(*p));
    snprintf(p->name, sizeof(p->name), "cuda-emu (host threads: %d)", fs2emu_threads());
    p->multiProcessorCount = 1;
    return cudaSuccess;
}

template <typename T> static cudaError_t cudaMalloc(T **out, size_t n)
{
    *out = NULL;
    if (fs2emu_fault(FS2EMU_MALLOC))
        return fs2emu_ret(cudaErrorMemoryAllocation);
    fs2emu_alloc *a = (fs2emu_alloc *)malloc(sizeof(*a));
    unsigned char *p = (unsigned char *)malloc(n ? n : 1);
    if (!a || !p) {
        free(a);
        free(p);
        return fs2emu_ret(cudaErrorMemoryAllocation);
    }
    memset(p, 0xA5, n); /* not zero, as device memory need not be */
    a->p = p, a->n = n, a->next = fs2emu.allocs;
    fs2emu.allocs = a;
    *out = (T *)(void *)p;
    return cudaSuccess;
}

static inline cudaError_t cudaFree(void *p)
{
    if (!p)
        return cudaSuccess;
    fs2emu_drain_all(); /* cudaFree synchronises the device */
    for (fs2emu_alloc **a = &fs2emu.allocs; *a; a = &(*a)->next)
        if ((*a)->p == p) {
            fs2emu_alloc *f = *a;
            *a = f->next;
            free(f->p);
            free(f);
            return cudaSuccess;
        }
    fs2emu_violation("cudaFree of a pointer that is not a live allocation", p, 0);
    return fs2emu_ret(cudaErrorInvalidValue);
}

/* Checks a copy's ranges now (as the runtime validates its arguments). */
static cudaError_t fs2emu_check_copy(const char *what, void *dst, const void *src, size_t n, cudaMemcpyKind kind)
{
    if (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice)
        if (!fs2emu_find(dst, n)) {
            fs2emu_violation(what, dst, n);
            return cudaErrorInvalidValue;
        }
    if (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice)
        if (!fs2emu_find(src, n)) {
            fs2emu_violation(what, src, n);
            return cudaErrorInvalidValue;
        }
    if (kind == cudaMemcpyHostToHost || ((kind == cudaMemcpyHostToDevice) && fs2emu_find(src, 1)) ||
        ((kind == cudaMemcpyDeviceToHost) && fs2emu_find(dst, 1))) {
        fs2emu_violation("a host side that is a device pointer", kind == cudaMemcpyHostToDevice ? src : dst, n);
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

/* The copy itself; device ranges checked again when it runs (the buffer
 * may have been freed while the copy waited on its stream). */
static void fs2emu_do_copy(void *dst, const void *src, size_t n, cudaMemcpyKind kind)
{
    if (fs2emu_check_copy("a queued copy ran after its buffer was freed", dst, src, n, kind) == cudaSuccess)
        memcpy(dst, src, n);
}

static inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind kind,
                                          cudaStream_t st = 0)
{
    if (st && !fs2emu_stream_live(st))
        return fs2emu_ret(cudaErrorInvalidResourceHandle);
    if (fs2emu_fault(FS2EMU_COPY))
        return fs2emu_ret(cudaErrorInvalidValue);
    cudaError_t e = fs2emu_check_copy("cudaMemcpyAsync", dst, src, n, kind);
    if (e != cudaSuccess)
        return fs2emu_ret(e);
    return fs2emu_ret(fs2emu_enqueue(st, [=]() { fs2emu_do_copy(dst, src, n, kind); }));
}

/* The legacy default stream: does not wait for cudaStreamNonBlocking
 * streams (the only kind this backend creates), runs at once. */
static inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind)
{
    return cudaMemcpyAsync(dst, src, n, kind, 0);
}

static inline cudaError_t cudaMemset(void *p, int v, size_t n)
{
    if (fs2emu_fault(FS2EMU_COPY))
        return fs2emu_ret(cudaErrorInvalidValue);
    if (!fs2emu_find(p, n)) {
        fs2emu_violation("cudaMemset", p, n);
        return fs2emu_ret(cudaErrorInvalidValue);
    }
    memset(p, v, n);
    return cudaSuccess;
}

static inline cudaError_t cudaDeviceSynchronize(void)
{
    fs2emu_drain_all();
    return cudaSuccess;
}

static inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    (void)flags;
    *s = (cudaStream_t)calloc(1, sizeof(fs2emu_stream_s));
    if (!*s)
        return fs2emu_ret(cudaErrorMemoryAllocation);
    (*s)->next_live = fs2emu.streams;
    fs2emu.streams = *s;
    return cudaSuccess;
}

static inline cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    if (!s) {
        fs2emu_drain_all();
        return cudaSuccess;
    }
    if (!fs2emu_stream_live(s))
        return fs2emu_ret(cudaErrorInvalidResourceHandle);
    fs2emu_drain(s);
    return cudaSuccess;
}

static inline cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    for (fs2emu_stream_s **t = &fs2emu.streams; *t; t = &(*t)->next_live)
        if (*t == s) {
            fs2emu_drain(s); /* queued work still completes */
            *t = s->next_live;
            free(s);
            return cudaSuccess;
        }
    return fs2emu_ret(cudaErrorInvalidResourceHandle);
}

static double fs2emu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    *e = (cudaEvent_t)calloc(1, sizeof(fs2emu_event_s));
    if (!*e)
        return fs2emu_ret(cudaErrorMemoryAllocation);
    fs2emu.nevents++;
    return cudaSuccess;
}

static inline cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    if (!e)
        return fs2emu_ret(cudaErrorInvalidResourceHandle);
    /* a record still queued would write into it: as on a device, the
     * event's resources go once that work is done */
    fs2emu_drain_all();
    free(e);
    fs2emu.nevents--;
    return cudaSuccess;
}

static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t st = 0)
{
    if (!e)
        return fs2emu_ret(cudaErrorInvalidResourceHandle);
    e->done = 0;
    return fs2emu_ret(fs2emu_enqueue(st, [=]() {
        e->done = 1;
        e->t = fs2emu_now();
    }));
}

static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    if (!a || !b)
        return fs2emu_ret(cudaErrorInvalidResourceHandle);
    if (!a->done || !b->done)
        return fs2emu_ret(cudaErrorNotReady);
    *ms = (float)((b->t - a->t) * 1e3);
    return cudaSuccess;
}

/* ---- what the tests ask the emulator (declared in tests/gpu/cuda_emu.h) ----- */
extern "C" __attribute__((visibility("hidden"))) void fs2_cuda_emu_stats(long out[6])
{
    long allocs = 0, streams = 0, pending = 0;
    for (fs2emu_alloc *a = fs2emu.allocs; a; a = a->next)
        allocs++;
    for (fs2emu_stream_s *s = fs2emu.streams; s; s = s->next_live) {
        streams++;
        for (fs2emu_op *op = s->head; op; op = op->next)
            pending++;
    }
    out[0] = allocs;
    out[1] = streams;
    out[2] = fs2emu.nevents;
    out[3] = pending;
    out[4] = fs2emu.violations;
    out[5] = fs2emu.fail_kind >= 0 ? (long)fs2emu.calls[fs2emu.fail_kind] : 0;
}

extern "C" __attribute__((visibility("hidden"))) void fs2_cuda_emu_rearm(void)
{
    fs2emu_arm();
}

extern "C" __attribute__((visibility("hidden"))) unsigned long fs2_cuda_emu_calls(int kind)
{
    return kind >= 0 && kind < FS2EMU_KINDS ? fs2emu.calls[kind] : 0;
}

/* Leaks at exit: reported (the tests check fs2_cuda_emu_stats themselves). */
__attribute__((destructor)) static void fs2emu_report(void)
{
    long s[6];
    fs2_cuda_emu_stats(s);
    if (s[0] || s[1] || s[2] || s[3])
        fprintf(stderr,
                "cuda-emu: at exit, leaked: %ld device allocations, %ld streams, %ld events; %ld queued "
                "operations never ran\n",
                s[0], s[1], s[2], s[3]);
    if (s[4])
        fprintf(stderr, "cuda-emu: %ld out-of-bounds or stale copies\n", s[4]);
}

#endif
