/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A qemu TCG plugin (user mode) that counts the guest instructions a program
 * executes: every translated block gets an inline "counter += its number of
 * instructions" at its entry, and the total is written to stderr (qemu's
 * plugin output) at exit as "insns: N". tools/armcount/count.sh builds it
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
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

static uint64_t insns;

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, FS2_QEMU_PLUGIN_INLINE_ADD_U64, &insns,
                                             qemu_plugin_tb_n_insns(tb));
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
    char buf[64];
    (void)id;
    (void)p;
    snprintf(buf, sizeof buf, "insns: %" PRIu64 "\n", insns);
    qemu_plugin_outs(buf);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                                               int argc, char **argv)
{
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
