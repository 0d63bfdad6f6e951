/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Multi-buffer SM3 (GB/T 32905 clause 5): many independent messages hashed
 * at once in the SIMD lanes of the SM3 table in use.
 *
 * fastsm2_sm3_many keeps one message per lane. A lane's work is two runs of
 * consecutive blocks: the message's whole blocks, read in place, then one
 * or two padding blocks (the message's tail, 80, zeros, bit length) built in
 * a small per-lane buffer. Each call of the lanes function takes the
 * shortest run left among the live lanes; a lane whose message is done
 * writes its digest and takes the next message. Lanes with nothing left
 * read another live lane's blocks into a scratch state, and when a single
 * lane is live it finishes with the scalar compression. Unequal lengths
 * therefore cost little: no lane waits for the longest message.
 */
#include "backend/backend.h"

#define FS2_MANY_MAX_LANES 16

typedef struct {
    size_t msg;             /* index of the message in this lane */
    const unsigned char *p; /* next block */
    size_t left;            /* blocks left in the current run */
    int phase;              /* 0 idle, 1 message blocks, 2 padding blocks */
    size_t padblocks;
    unsigned char pad[128];
} fs2_many_lane;

static const uint32_t fs2_sm3_iv[8] = {
    0x7380166Fu, 0x4914B2B9u, 0x172442D7u, 0xDA8A0600u, 0xA96F30BCu, 0x163138AAu, 0xE38DEE4Du, 0xB0FB0E4Eu,
};

/* Put message i into lane l (state h): its whole blocks first, then the
 * padding blocks built from its tail (GB/T 32905 5.2). */
static void fs2_many_start(fs2_many_lane *ln, uint32_t h[8], const unsigned char *msg, size_t len, size_t i)
{
    size_t whole = len / 64, rem = len % 64;
    memcpy(h, fs2_sm3_iv, sizeof fs2_sm3_iv);
    ln->msg = i;
    memset(ln->pad, 0, sizeof ln->pad);
    if (rem)
        memcpy(ln->pad, msg + 64 * whole, rem);
    ln->pad[rem] = 0x80;
    ln->padblocks = rem + 1 + 8 <= 64 ? 1 : 2;
    fs2_store64_be(ln->pad + 64 * ln->padblocks - 8, (uint64_t)len << 3);
    if (whole) {
        ln->p = msg;
        ln->left = whole;
        ln->phase = 1;
    } else {
        ln->p = ln->pad;
        ln->left = ln->padblocks;
        ln->phase = 2;
    }
}

/* The run of lane ln has advanced by nb blocks: move on, and say whether
 * its message is done. */
static int fs2_many_advance(fs2_many_lane *ln, size_t nb)
{
    ln->p += 64 * nb;
    ln->left -= nb;
    if (ln->left)
        return 0;
    if (ln->phase == 1) {
        ln->p = ln->pad;
        ln->left = ln->padblocks;
        ln->phase = 2;
        return 0;
    }
    ln->phase = 0;
    return 1;
}

static void fs2_many_digest(unsigned char *out, const uint32_t h[8])
{
    for (int i = 0; i < 8; i++)
        fs2_store32_be(out + 4 * i, h[i]);
}

int fastsm2_sm3_many(unsigned char *digests, const unsigned char *const *msgs, const size_t *lens, size_t n)
{
    if (n == 0)
        return FASTSM2_OK;
    if (digests == NULL || msgs == NULL || lens == NULL)
        return FASTSM2_ERR_ARG;
    for (size_t i = 0; i < n; i++)
        if (msgs[i] == NULL && lens[i] != 0) {
            memset(digests, 0, 32 * n);
            return FASTSM2_ERR_ARG;
        }

    const fs2_sm3_ops *sm3 = fs2_sm3();
    unsigned lanes = sm3->lanes;
    if (lanes > FS2_MANY_MAX_LANES)
        lanes = FS2_MANY_MAX_LANES;
    if (lanes <= 1 || n == 1) {
        for (size_t i = 0; i < n; i++)
            fastsm2_sm3(digests + 32 * i, msgs[i], lens[i]);
        return FASTSM2_OK;
    }

    fs2_many_lane ln[FS2_MANY_MAX_LANES];
    uint32_t h[FS2_MANY_MAX_LANES][8];
    const unsigned char *ptr[FS2_MANY_MAX_LANES];
    size_t next = 0;
    memset(ln, 0, sizeof ln);
    memset(h, 0, sizeof h);

    for (;;) {
        unsigned live = 0, last = 0;
        for (unsigned l = 0; l < lanes; l++) {
            if (ln[l].phase == 0 && next < n) {
                fs2_many_start(&ln[l], h[l], msgs[next], lens[next], next);
                next++;
            }
            if (ln[l].phase != 0) {
                live++;
                last = l;
            }
        }
        if (live == 0)
            break;
        if (live == 1) {
            /* One message left: the scalar compression, run by run. */
            fs2_many_lane *x = &ln[last];
            while (x->phase != 0) {
                size_t nb = x->left;
                sm3->compress(h[last], x->p, nb);
                if (fs2_many_advance(x, nb))
                    fs2_many_digest(digests + 32 * x->msg, h[last]);
            }
            continue;
        }
        size_t nb = SIZE_MAX;
        for (unsigned l = 0; l < lanes; l++)
            if (ln[l].phase != 0 && ln[l].left < nb)
                nb = ln[l].left;
        /* Idle lanes hash a live lane's blocks into their own (unused)
         * states. */
        for (unsigned l = 0; l < lanes; l++)
            ptr[l] = ln[l].phase != 0 ? ln[l].p : ln[last].p;
        sm3->compress_lanes(h, ptr, nb);
        for (unsigned l = 0; l < lanes; l++)
            if (ln[l].phase != 0 && fs2_many_advance(&ln[l], nb))
                fs2_many_digest(digests + 32 * ln[l].msg, h[l]);
    }
    fs2_wipe(ln, sizeof ln);
    fs2_wipe(h, sizeof h);
    return FASTSM2_OK;
}
