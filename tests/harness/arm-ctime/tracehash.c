/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A qemu TCG plugin (user mode) for the constant-time trace comparison
 * (tests/harness/arm-ctime/trace.sh): it hashes, in execution order, the guest
 * address of every translated block that runs and the address, size and
 * direction of every load and store. A guest program cuts its run into
 * segments by calling a marker function (its address is the plugin's
 * "mark" argument; tests/harness/arm-ctime/trace_driver.c is such a program): each
 * time the block at that address runs, the segment so far is written out
 * as
 *   seg INDEX BLOCKS MEMS HASH
 * (index 0 is the start of the program up to the first mark) and a new one
 * starts. Two segments with the same hash ran the same blocks in the same
 * order and touched the same addresses in the same order (up to a 64-bit
 * hash collision).
 *
 * Arguments (qemu -plugin tracehash.so,mark=0x...[,dump=N][,dump2=M]):
 *   mark   the marker function's address (a non-PIE program: nm gives it);
 *   dump   write segment N's events, one a line ("B addr", "L addr/size",
 *          "S addr/size"), to the plugin log: to find where two segments
 *          part (trace.sh does that when a comparison fails); dump2 a
 *          second segment.
 *
 * qemu's plugin header (qemu-plugin.h) is not packaged by Debian 12, so
 * the entry points used here are declared below from the documented API
 * (qemu 4.2 and later; API version 1 as in qemu 7.2), as in
 * bench/armcount/insncount.c. One guest thread: the state is not shared
 * safely between vCPUs, and the driver runs on one thread.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_cb_flags { FS2_CB_NO_REGS = 0 };
enum qemu_plugin_mem_rw { FS2_MEM_R = 1, FS2_MEM_W = 2, FS2_MEM_RW = 3 };

extern void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                                  void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
extern void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, void (*cb)(unsigned int, void *),
                                                 enum qemu_plugin_cb_flags flags, void *userdata);
extern void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
                                             void (*cb)(unsigned int, qemu_plugin_meminfo_t, uint64_t, void *),
                                             enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw,
                                             void *userdata);
extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
extern uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
extern struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
extern bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
extern unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
extern void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, void *), void *userdata);
extern void qemu_plugin_outs(const char *string);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t mark_addr;
static long dump_seg[2] = {-1, -1};

static long seg;          /* the segment running now */
static uint64_t h;        /* its hash so far */
static uint64_t n_blocks; /* its blocks */
static uint64_t n_mems;   /* its loads and stores */
static int dumping;

static void mix(uint64_t v)
{
    /* a multiply-xorshift step per event: order-sensitive */
    h = (h ^ v) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 31;
}

static void dump_line(char kind, uint64_t a, unsigned size)
{
    char buf[64];
    if (size)
        snprintf(buf, sizeof buf, "%c %" PRIx64 "/%u\n", kind, a, size);
    else
        snprintf(buf, sizeof buf, "%c %" PRIx64 "\n", kind, a);
    qemu_plugin_outs(buf);
}

static void end_segment(void)
{
    char buf[128];
    snprintf(buf, sizeof buf, "seg %ld %" PRIu64 " %" PRIu64 " %016" PRIx64 "\n", seg, n_blocks, n_mems, h);
    qemu_plugin_outs(buf);
    seg++;
    h = 0x243F6A8885A308D3ULL;
    n_blocks = n_mems = 0;
    dumping = seg == dump_seg[0] || seg == dump_seg[1];
    if (dumping) {
        snprintf(buf, sizeof buf, "dump %ld\n", seg);
        qemu_plugin_outs(buf);
    }
}

static void block_exec(unsigned int vcpu, void *udata)
{
    uint64_t a = (uint64_t)(uintptr_t)udata;
    (void)vcpu;
    if (a == mark_addr)
        end_segment();
    n_blocks++;
    mix(a);
    if (dumping)
        dump_line('B', a, 0);
}

static void mem_access(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    unsigned size = 1u << qemu_plugin_mem_size_shift(info);
    int store = qemu_plugin_mem_is_store(info);
    (void)vcpu;
    (void)udata;
    n_mems++;
    /* the address, and the access's size and direction in the top bits
     * (user-mode addresses are below 2^56) */
    mix(vaddr ^ ((uint64_t)size << 56) ^ ((uint64_t)store << 63));
    if (dumping)
        dump_line(store ? 'S' : 'L', vaddr, size);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, block_exec, FS2_CB_NO_REGS, (void *)(uintptr_t)qemu_plugin_tb_vaddr(tb));
    for (size_t i = 0; i < n; i++)
        qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), mem_access, FS2_CB_NO_REGS, FS2_MEM_RW, NULL);
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
    (void)id;
    (void)p;
    end_segment();
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                                               char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (!strncmp(argv[i], "mark=", 5))
            mark_addr = strtoull(argv[i] + 5, NULL, 0);
        else if (!strncmp(argv[i], "dump=", 5))
            dump_seg[0] = strtol(argv[i] + 5, NULL, 0);
        else if (!strncmp(argv[i], "dump2=", 6))
            dump_seg[1] = strtol(argv[i] + 6, NULL, 0);
        else {
            fprintf(stderr, "tracehash: unknown argument %s\n", argv[i]);
            return -1;
        }
    }
    if (!mark_addr) {
        fprintf(stderr, "tracehash: needs mark=ADDRESS\n");
        return -1;
    }
    h = 0x243F6A8885A308D3ULL;
    dumping = dump_seg[0] == 0 || dump_seg[1] == 0;
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
