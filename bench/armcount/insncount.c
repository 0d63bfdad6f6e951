/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A qemu TCG plugin (user mode) that counts the guest instructions a program
 * executes: every translated block gets an inline "counter += its number of
 * instructions" at its entry, and the total is written to stderr (qemu's
 * plugin output) at exit as "insns: N". bench/armcount/count.sh builds it
 * with the host compiler and loads it with
 *   qemu-aarch64 -plugin ./insncount.so -d plugin PROGRAM ...
 *
 * qemu's plugin API header (qemu-plugin.h) is not packaged by Debian, so the
 * handful of entry points used here are declared below from the documented
 * API (qemu 4.2 - 8.x: API version 1; the inline-op enum's first value is
 * the 64-bit add). A block is counted when it starts, so a block left early
 * by a fault would be over-counted; the programs measured here do not fault.
 * The counter is shared by all guest threads without atomics: the measured
 * programs run their operations on one thread.
 *
 * With the argument "profile" (-plugin ./insncount.so,profile=on) it also
 * counts the executions of every translated block and writes, at exit, one
 * line per block that ran: "tb VADDR NINSNS EXECUTIONS". AArch64
 * instructions are 4 bytes, so a block is [VADDR, VADDR + 4 NINSNS):
 * bench/armcount/profile.py maps it onto functions and mnemonics.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_op { FS2_QEMU_PLUGIN_INLINE_ADD_U64 = 0 };

extern void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                                  void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
extern void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr,
                                                     uint64_t imm);
extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
extern void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, void *), void *userdata);
extern void qemu_plugin_outs(const char *string);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

extern uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);

static uint64_t insns;

/* profile mode: one record per translated block, in chunks that never move
 * (the inline counters point into them) */
typedef struct {
    uint64_t vaddr, n, count;
} tb_rec;
enum { CHUNK = 4096 };
typedef struct chunk {
    struct chunk *next;
    size_t used;
    tb_rec rec[CHUNK];
} chunk;
static int profile;
static chunk *chunks;

static tb_rec *new_rec(void)
{
    if (!chunks || chunks->used == CHUNK) {
        chunk *c = calloc(1, sizeof *c);
        if (!c)
            abort();
        c->next = chunks;
        chunks = c;
    }
    return &chunks->rec[chunks->used++];
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, FS2_QEMU_PLUGIN_INLINE_ADD_U64, &insns, n);
    if (profile) {
        tb_rec *r = new_rec();
        r->vaddr = qemu_plugin_tb_vaddr(tb);
        r->n = n;
        qemu_plugin_register_vcpu_tb_exec_inline(tb, FS2_QEMU_PLUGIN_INLINE_ADD_U64, &r->count, 1);
    }
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
    char buf[96];
    (void)id;
    (void)p;
    for (chunk *c = chunks; c; c = c->next)
        for (size_t i = 0; i < c->used; i++)
            if (c->rec[i].count) {
                snprintf(buf, sizeof buf, "tb %" PRIx64 " %" PRIu64 " %" PRIu64 "\n", c->rec[i].vaddr, c->rec[i].n,
                         c->rec[i].count);
                qemu_plugin_outs(buf);
            }
    snprintf(buf, sizeof buf, "insns: %" PRIu64 "\n", insns);
    qemu_plugin_outs(buf);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                                               char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++)
        if (!strncmp(argv[i], "profile", 7))
            profile = 1;
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
