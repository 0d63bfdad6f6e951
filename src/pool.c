/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The worker threads of the batch API (src/protocol/batch.c): made on the
 * first batch call that asks for more than one thread, then kept, asleep on
 * a condition variable, for the calls after it. A call's items are cut into
 * chunks that the calling thread and the helpers claim one at a time from
 * an atomic counter, so a core that runs slower (another process on it)
 * takes fewer chunks instead of holding the call up.
 *
 * Why keep them: pthread_create + join costs about 50 us on Linux,
 * 3% of a 512-signature call on two threads, and waking a sleeping thread
 * about 40 us (so helpers and the caller poll briefly before they sleep);
 * kept threads also keep their random generators seeded (src/rng.c).
 *
 * One call at a time uses the pool; a call that finds it busy (another
 * application thread's batch) runs its chunks on its own thread, since the
 * cores are taken anyway. Helpers block every signal (the application's
 * handlers run on its own threads). In a child after fork() the pool starts
 * empty (the parent's helpers do not exist there); when the library is
 * unloaded or the process exits, the helpers are stopped and joined before
 * the code goes away.
 */
#include "internal.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

/* Helpers kept at most (the calling thread makes one more). */
#define FS2_POOL_MAX 63

static struct {
    pthread_mutex_t run;  /* held by the call using the pool */
    pthread_mutex_t lock; /* the fields below */
    pthread_cond_t work;  /* a new job, or shutdown */
    pthread_cond_t done;  /* a helper left the job */
    pthread_t tid[FS2_POOL_MAX];
    unsigned nthreads;
    atomic_ulong gen; /* job number (written under lock, read also to spin) */
    fs2_chunk_fn fn;
    void *ctx;
    size_t nchunks;
    atomic_size_t next; /* next unclaimed chunk */
    unsigned want;      /* helpers that may still join this job */
    atomic_uint active; /* helpers in this job (likewise) */
    atomic_int shutdown;
} fs2_pool = {.run = PTHREAD_MUTEX_INITIALIZER,
              .lock = PTHREAD_MUTEX_INITIALIZER,
              .work = PTHREAD_COND_INITIALIZER,
              .done = PTHREAD_COND_INITIALIZER};

static pthread_once_t fs2_pool_once = PTHREAD_ONCE_INIT;
static int fs2_pool_fork_ok;

/* Before sleeping on a condition variable, a helper waiting for the next
 * job and a caller waiting for its helpers poll for this many rounds (a
 * few tens of microseconds): waking a sleeping thread takes about 40 us on
 * Linux, more than a chunk's imbalance, and back-to-back batch
 * calls find their helpers awake. */
#define FS2_POOL_SPIN 2000

static inline void fs2_pool_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void fs2_pool_chunks(fs2_chunk_fn fn, void *ctx, size_t nchunks)
{
    size_t c;
    while ((c = atomic_fetch_add(&fs2_pool.next, 1)) < nchunks)
        fn(ctx, c);
}

static void *fs2_pool_helper(void *arg)
{
    unsigned long seen = (unsigned long)(uintptr_t)arg;
    pthread_mutex_lock(&fs2_pool.lock);
    for (;;) {
        while (!fs2_pool.shutdown && fs2_pool.gen == seen) {
            pthread_mutex_unlock(&fs2_pool.lock);
            for (int i = 0; i < FS2_POOL_SPIN && atomic_load(&fs2_pool.gen) == seen && !atomic_load(&fs2_pool.shutdown);
                 i++)
                fs2_pool_pause();
            pthread_mutex_lock(&fs2_pool.lock);
            if (!fs2_pool.shutdown && fs2_pool.gen == seen)
                pthread_cond_wait(&fs2_pool.work, &fs2_pool.lock);
        }
        if (fs2_pool.shutdown)
            break;
        seen = fs2_pool.gen;
        if (fs2_pool.want == 0)
            continue; /* enough helpers, or the job is over: sit this one out */
        fs2_pool.want--;
        fs2_pool.active++;
        fs2_chunk_fn fn = fs2_pool.fn;
        void *ctx = fs2_pool.ctx;
        size_t nchunks = fs2_pool.nchunks;
        pthread_mutex_unlock(&fs2_pool.lock);
        fs2_pool_chunks(fn, ctx, nchunks);
        pthread_mutex_lock(&fs2_pool.lock);
        if (--fs2_pool.active == 0)
            pthread_cond_signal(&fs2_pool.done);
    }
    pthread_mutex_unlock(&fs2_pool.lock);
    return NULL;
}

/* Grow the pool to n helpers (fewer if the system refuses threads); called
 * with fs2_pool.run held and fs2_pool.lock not held. */
static void fs2_pool_grow(unsigned n)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_mutex_lock(&fs2_pool.lock);
    unsigned long gen = fs2_pool.gen;
    pthread_mutex_unlock(&fs2_pool.lock);
    while (fs2_pool.nthreads < n) {
        if (pthread_create(&fs2_pool.tid[fs2_pool.nthreads], NULL, fs2_pool_helper, (void *)(uintptr_t)gen) != 0)
            break;
        fs2_pool.nthreads++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void fs2_pool_before_fork(void)
{
    pthread_mutex_lock(&fs2_pool.run);
    pthread_mutex_lock(&fs2_pool.lock);
}

static void fs2_pool_after_fork_parent(void)
{
    pthread_mutex_unlock(&fs2_pool.lock);
    pthread_mutex_unlock(&fs2_pool.run);
}

/* The child has only the thread that forked, which holds both mutexes. */
static void fs2_pool_after_fork_child(void)
{
    fs2_pool.nthreads = 0;
    pthread_cond_init(&fs2_pool.work, NULL);
    pthread_cond_init(&fs2_pool.done, NULL);
    pthread_mutex_unlock(&fs2_pool.lock);
    pthread_mutex_unlock(&fs2_pool.run);
}

static void fs2_pool_init_once(void)
{
    /* Without the fork handlers, no helpers are kept (a child could not
     * tell that they are gone). */
    fs2_pool_fork_ok = pthread_atfork(fs2_pool_before_fork, fs2_pool_after_fork_parent, fs2_pool_after_fork_child) == 0;
}

/* Stop and join the helpers before the library's code is unmapped
 * (dlclose) or the process ends. */
__attribute__((destructor)) static void fs2_pool_unload(void)
{
    pthread_mutex_lock(&fs2_pool.run);
    pthread_mutex_lock(&fs2_pool.lock);
    fs2_pool.shutdown = 1;
    pthread_cond_broadcast(&fs2_pool.work);
    pthread_mutex_unlock(&fs2_pool.lock);
    for (unsigned i = 0; i < fs2_pool.nthreads; i++)
        pthread_join(fs2_pool.tid[i], NULL);
    fs2_pool.nthreads = 0;
    pthread_mutex_unlock(&fs2_pool.run);
}

void fs2_pool_run(fs2_chunk_fn fn, void *ctx, size_t nchunks, unsigned threads)
{
    unsigned helpers = threads > 1 ? threads - 1 : 0;
    if ((size_t)helpers >= nchunks)
        helpers = nchunks > 0 ? (unsigned)(nchunks - 1) : 0;
    if (helpers > FS2_POOL_MAX)
        helpers = FS2_POOL_MAX;
    if (helpers > 0)
        pthread_once(&fs2_pool_once, fs2_pool_init_once);
    if (helpers == 0 || !fs2_pool_fork_ok || pthread_mutex_trylock(&fs2_pool.run) != 0) {
        for (size_t c = 0; c < nchunks; c++)
            fn(ctx, c);
        return;
    }
    if (fs2_pool.nthreads < helpers)
        fs2_pool_grow(helpers);
    if (helpers > fs2_pool.nthreads)
        helpers = fs2_pool.nthreads;

    pthread_mutex_lock(&fs2_pool.lock);
    fs2_pool.fn = fn;
    fs2_pool.ctx = ctx;
    fs2_pool.nchunks = nchunks;
    atomic_store(&fs2_pool.next, 0);
    fs2_pool.want = helpers;
    fs2_pool.active = 0;
    fs2_pool.gen++;
    pthread_cond_broadcast(&fs2_pool.work);
    pthread_mutex_unlock(&fs2_pool.lock);

    fs2_pool_chunks(fn, ctx, nchunks);

    /* All chunks are claimed: no helper may join any more; wait for those
     * still running theirs. */
    pthread_mutex_lock(&fs2_pool.lock);
    fs2_pool.want = 0;
    pthread_mutex_unlock(&fs2_pool.lock);
    for (int i = 0; i < FS2_POOL_SPIN && atomic_load(&fs2_pool.active) > 0; i++)
        fs2_pool_pause();
    pthread_mutex_lock(&fs2_pool.lock);
    while (fs2_pool.active > 0)
        pthread_cond_wait(&fs2_pool.done, &fs2_pool.lock);
    pthread_mutex_unlock(&fs2_pool.lock);
    pthread_mutex_unlock(&fs2_pool.run);
}
