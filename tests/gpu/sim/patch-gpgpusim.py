#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Give GPGPU-Sim's PTX mode PTX's carry flag (CC.CF), which fastsm2's
field arithmetic uses on every limb (docs/GPU.md "Simulated in GPGPU-Sim").

GPGPU-Sim (accel-sim/gpgpu-sim_distribution, dev branch) parses the `.cc`
option of add/sub/mad and ignores it (ptx_ir.cc: `case EXTP_OPTION: break`):
the carry it computes goes only to an explicit PTXPlus condition register.
So in PTX mode add.cc/sub.cc/mad.lo.cc/mad.hi.cc set no flag, addc and subc
abort as "not implemented", madc reads a fifth operand that PTX does not
have, and mad.hi.u32 / mad.lo.u32 multiply in 32 bits (the high word is
lost). Its lexer also reads every integer literal into a C int, so
4294967295 (0xFFFFFFFF) becomes -1 and, as a 64-bit operand, 2^64 - 1
(`mul.lo.s64 %rd, %rd, 4294967295` multiplies by -1). This script edits a GPGPU-Sim source tree in place (idempotent; the
marker FS2SIM) so that, in PTX mode:
  - an instruction with `.cc` is remembered at parse time (ptx_ir.cc);
  - add/sub with .cc, addc, subc (32- and 64-bit integers) and every 32-bit
    mad/madc (lo, hi; .cc or not) are computed here, with the flag kept per
    simulated thread (instructions.cc);
  - a literal in (2^31 - 1, 2^32) is an unsigned operand, zero-extended
    (ptx.l, ptx_parser.cc, instructions.cc; literals of 2^32 and more stay
    unsupported: fastsm2's PTX has none).
The code below is fastsm2's own; only short anchor strings of GPGPU-Sim's
sources are matched. Usage: patch-gpgpusim.py <gpgpu-sim source tree>
"""
import os
import sys

MARK = "FS2SIM"

HELPERS = r"""
/* FS2SIM (fastsm2 tests/gpu/sim/patch-gpgpusim.py): PTX's carry flag CC.CF
 * in PTX mode, per simulated thread, for add/sub/mad with .cc and
 * addc/subc/madc. */
#include <unordered_map>
#include <unordered_set>
std::unordered_set<const void *> fs2sim_cc_insts; /* filled by ptx_ir.cc */
static std::unordered_map<const void *, unsigned> fs2sim_cf;
static bool fs2sim_cc(const ptx_instruction *pI) { return fs2sim_cc_insts.count(pI) != 0; }
static bool fs2sim_i32(unsigned t) { return t == U32_TYPE || t == S32_TYPE || t == B32_TYPE; }
static bool fs2sim_i64(unsigned t) { return t == U64_TYPE || t == S64_TYPE || t == B64_TYPE; }
static void fs2sim_addsub(const ptx_instruction *pI, ptx_thread_info *thread, bool sub, bool cin) {
  const operand_info &dst = pI->dst();
  unsigned t = pI->get_type();
  ptx_reg_t a = thread->get_operand_value(pI->src1(), dst, t, thread, 1);
  ptx_reg_t b = thread->get_operand_value(pI->src2(), dst, t, thread, 1);
  unsigned c = cin ? (fs2sim_cf[thread] & 1u) : 0u;
  ptx_reg_t d;
  d.u64 = 0;
  unsigned cf;
  if (fs2sim_i64(t)) {
    unsigned __int128 x = sub ? (unsigned __int128)a.u64 - b.u64 - c
                              : (unsigned __int128)a.u64 + b.u64 + c;
    d.u64 = (unsigned long long)x;
    cf = (unsigned)(x >> 64) & 1u;
  } else {
    unsigned long long x = sub ? (unsigned long long)a.u32 - b.u32 - c
                               : (unsigned long long)a.u32 + b.u32 + c;
    d.u32 = (unsigned)x;
    cf = (unsigned)(x >> 32) & 1u; /* the borrow for sub */
  }
  thread->set_operand_value(dst, d, t, thread, pI);
  if (fs2sim_cc(pI)) fs2sim_cf[thread] = cf;
}
static void fs2sim_mad(const ptx_instruction *pI, ptx_thread_info *thread, bool cin) {
  const operand_info &dst = pI->dst();
  unsigned t = pI->get_type();
  ptx_reg_t a = thread->get_operand_value(pI->src1(), dst, t, thread, 1);
  ptx_reg_t b = thread->get_operand_value(pI->src2(), dst, t, thread, 1);
  ptx_reg_t c = thread->get_operand_value(pI->src3(), dst, t, thread, 1);
  unsigned long long p = t == S32_TYPE ? (unsigned long long)((long long)a.s32 * (long long)b.s32)
                                       : (unsigned long long)a.u32 * b.u32;
  unsigned part = pI->is_hi() ? (unsigned)(p >> 32) : (unsigned)p;
  unsigned long long x = (unsigned long long)part + c.u32 + (cin ? (fs2sim_cf[thread] & 1u) : 0u);
  ptx_reg_t d;
  d.u64 = 0;
  d.u32 = (unsigned)x;
  thread->set_operand_value(dst, d, t, thread, pI);
  if (fs2sim_cc(pI)) fs2sim_cf[thread] = (unsigned)(x >> 32) & 1u;
}
/* end FS2SIM */

"""


def edit(path, pairs, mark=MARK):
    with open(path) as f:
        s = f.read()
    if mark in s:
        return False
    for old, new in pairs:
        if s.count(old) != 1:
            sys.exit(f"patch-gpgpusim: {path}: anchor found {s.count(old)} times, expected once: {old!r}")
        s = s.replace(old, new)
    with open(path + ".fs2sim.tmp", "w") as f:
        f.write(s)
    os.replace(path + ".fs2sim.tmp", path)
    return True


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sim = os.path.join(sys.argv[1], "src", "cuda-sim")
    changed = edit(os.path.join(sim, "ptx_ir.cc"), [
        ("      case EXTP_OPTION:\n        break;",
         "      case EXTP_OPTION: /* FS2SIM */\n        fs2sim_cc_insts.insert(this);\n        break;"),
        ("ptx_instruction::ptx_instruction(",
         "#include <unordered_set>\nextern std::unordered_set<const void *> fs2sim_cc_insts; /* FS2SIM */\n"
         "ptx_instruction::ptx_instruction("),
    ])
    lit = ("{ extern int fs2sim_lit_u32; unsigned long long v_ = strtoull(yytext%s, 0, %d);"
           " fs2sim_lit_u32 = v_ > 2147483647ULL && v_ <= 4294967295ULL; } /* FS2SIM */ ")
    changed |= edit(os.path.join(sim, "ptx.l"), [
        ('0[xX][0-9a-fA-F]+U? TC; CHECK_UNSIGNED; sscanf(yytext,"%x", &yylval->int_value);',
         '0[xX][0-9a-fA-F]+U? TC; CHECK_UNSIGNED; sscanf(yytext,"%x", &yylval->int_value); ' + lit % (" + 2", 16)),
        ('[-]?[0-9]+U?    TC; CHECK_UNSIGNED; yylval->int_value =  atoi(yytext);',
         '[-]?[0-9]+U?    TC; CHECK_UNSIGNED; yylval->int_value =  atoi(yytext); '
         '{ extern int fs2sim_lit_u32; fs2sim_lit_u32 = yytext[0] != \'-\' && strtoull(yytext, 0, 10) > 2147483647ULL'
         ' && strtoull(yytext, 0, 10) <= 4294967295ULL; } /* FS2SIM */ '),
    ])
    changed |= edit(os.path.join(sim, "ptx_parser.cc"), [
        ("void ptx_recognizer::add_literal_int(int value) {\n",
         "int fs2sim_lit_u32 = 0; /* FS2SIM: the last integer literal was in (2^31 - 1, 2^32) */\n"
         "void ptx_recognizer::add_literal_int(int value) {\n"
         "  if (fs2sim_lit_u32) { g_operands.push_back(operand_info((unsigned)value, gpgpu_ctx)); return; }\n"),
    ])
    add_sig = "void add_impl(const ptx_instruction *pI, ptx_thread_info *thread) {\n"
    sub_sig = "void sub_impl(const ptx_instruction *pI, ptx_thread_info *thread) {\n"
    guard = ("  if (fs2sim_cc(pI) && (fs2sim_i32(pI->get_type()) || fs2sim_i64(pI->get_type()))) {"
             " fs2sim_addsub(pI, thread, %s, false); return; } /* FS2SIM */\n")
    changed |= edit(os.path.join(sim, "instructions.cc"), [
        ("      } else if (op.is_immediate_address()) {\n        result.u64 = op.get_addr_offset();\n",
         "      } else if (op.is_immediate_address()) {\n        result.u64 = op.get_addr_offset();\n"
         "        if (op.get_type() == unsigned_t) result.u64 = (unsigned)op.get_addr_offset(); /* FS2SIM */\n"),
        (add_sig, HELPERS + add_sig + guard % "false"),
        (sub_sig, sub_sig + guard % "true"),
        ("void addc_impl(const ptx_instruction *pI, ptx_thread_info *thread) {\n  inst_not_implemented(pI);\n}",
         "void addc_impl(const ptx_instruction *pI, ptx_thread_info *thread) {\n"
         "  fs2sim_addsub(pI, thread, false, true); /* FS2SIM */\n}"),
        ("void subc_impl(const ptx_instruction *pI, ptx_thread_info *thread) {\n  inst_not_implemented(pI);\n}",
         "void subc_impl(const ptx_instruction *pI, ptx_thread_info *thread) {\n"
         "  fs2sim_addsub(pI, thread, true, true); /* FS2SIM */\n}"),
        ("void mad_impl(const ptx_instruction *pI, ptx_thread_info *thread) {\n",
         "void mad_impl(const ptx_instruction *pI, ptx_thread_info *thread) {\n"
         "  if (fs2sim_i32(pI->get_type()) && !pI->is_wide()) { fs2sim_mad(pI, thread, false); return; } /* FS2SIM */\n"),
        ("void madc_impl(const ptx_instruction *pI, ptx_thread_info *thread) {\n",
         "void madc_impl(const ptx_instruction *pI, ptx_thread_info *thread) {\n"
         "  if (fs2sim_i32(pI->get_type()) && !pI->is_wide()) { fs2sim_mad(pI, thread, true); return; } /* FS2SIM */\n"),
    ])
    changed |= patch2(sim)
    changed |= patch3(sim)
    print("patch-gpgpusim: carry flag, literal, mad.wide and shfl.sync fixes " + ("applied" if changed else "already present"))


HELPERS2 = r"""
/* FS2SIM2 (fastsm2 tests/gpu/sim/patch-gpgpusim.py): mad.wide.{u,s}32
 * with the full 64-bit product. */
static void fs2sim_mad_wide(const ptx_instruction *pI, ptx_thread_info *thread) {
  const operand_info &dst = pI->dst();
  unsigned t = pI->get_type();
  ptx_reg_t a = thread->get_operand_value(pI->src1(), dst, t, thread, 1);
  ptx_reg_t b = thread->get_operand_value(pI->src2(), dst, t, thread, 1);
  unsigned t64 = t == S32_TYPE ? S64_TYPE : U64_TYPE;
  ptx_reg_t c = thread->get_operand_value(pI->src3(), dst, t64, thread, 1);
  ptx_reg_t d;
  d.u64 = (t == S32_TYPE ? (unsigned long long)((long long)a.s32 * (long long)b.s32)
                         : (unsigned long long)a.u32 * b.u32) + c.u64;
  thread->set_operand_value(dst, d, t64, thread, pI);
}
/* end FS2SIM2 */
"""


def patch2(sim):
    """The second round: PTX that nvcc emits for plain 64-bit C arithmetic.
    - Integer literals that do not fit a C int (other than those in
      (2^31 - 1, 2^32), which the first round makes unsigned) were read with
      atoi/sscanf("%x") and lost their high bits: `add.s64 %rd, %rd,
      -4294967295` added 1, `and.b64 %rd, %rd, 8589934590` masked with -2,
      `and.b64 %rd, %rd, -4294967296` with 0. The lexer now keeps the 64-bit
      value, the parser keeps it in the literal operand's const-memory offset
      (a 64-bit field that PTX mode leaves unused and 0 for literals), and
      get_operand_value returns it.
    - mad.wide.u32 / mad.wide.s32 multiplied in 32 bits (`a.u32 * b.u32` in
      C), losing the product's high word; computed here in 64 bits."""
    mark = "FS2SIM2"
    big = ("{ extern int fs2sim_lit_big; extern unsigned long long fs2sim_lit_v; %s } /* FS2SIM2 */ ")
    hexcode = big % ("fs2sim_lit_v = strtoull(yytext + 2, 0, 16); fs2sim_lit_big = fs2sim_lit_v > 4294967295ULL;")
    deccode = big % ("if (yytext[0] == '-') { long long v_ = strtoll(yytext, 0, 10); fs2sim_lit_v = (unsigned long long)v_;"
                     " fs2sim_lit_big = v_ < -2147483647LL - 1; } else { fs2sim_lit_v = strtoull(yytext, 0, 10);"
                     " fs2sim_lit_big = fs2sim_lit_v > 4294967295ULL; }")
    changed = edit(os.path.join(sim, "ptx.l"), [
        ('sscanf(yytext,"%x", &yylval->int_value);', 'sscanf(yytext,"%x", &yylval->int_value); ' + hexcode),
        ('yylval->int_value =  atoi(yytext);', 'yylval->int_value =  atoi(yytext); ' + deccode),
    ], mark)
    changed |= edit(os.path.join(sim, "ptx_parser.cc"), [
        ("void ptx_recognizer::add_literal_int(int value) {\n",
         "int fs2sim_lit_big = 0; /* FS2SIM2: the last integer literal does not fit 32 bits */\n"
         "unsigned long long fs2sim_lit_v = 0; /* FS2SIM2: its value, two's complement */\n"
         "void ptx_recognizer::add_literal_int(int value) {\n"
         "  if (fs2sim_lit_big) { operand_info o_(value, gpgpu_ctx); o_.set_const_mem_offset(fs2sim_lit_v);"
         " g_operands.push_back(o_); return; } /* FS2SIM2: the value rides in the unused const offset */\n"),
    ], mark)
    changed |= edit(os.path.join(sim, "instructions.cc"), [
        ("      } else if (op.is_literal()) {\n        result = op.get_literal_value();\n",
         "      } else if (op.is_literal()) {\n        result = op.get_literal_value();\n"
         "        if (op.get_type() == int_t && op.get_const_mem_offset() != 0)"
         " result.u64 = op.get_const_mem_offset(); /* FS2SIM2 */\n"),
        ("void mad_impl(const ptx_instruction *pI, ptx_thread_info *thread) {\n",
         HELPERS2 +
         "void mad_impl(const ptx_instruction *pI, ptx_thread_info *thread) {\n"
         "  if (fs2sim_i32(pI->get_type()) && pI->is_wide()) { fs2sim_mad_wide(pI, thread); return; } /* FS2SIM2 */\n"),
    ], mark)
    return changed


HELPERS3 = r"""
/* FS2SIM3 (fastsm2 tests/gpu/sim/patch-gpgpusim.py): shfl (shfl.sync) with
 * the executing thread and its lane as ptx_exec_inst knows them, and the
 * source values of the whole warp as they were before the instruction. */
#include <unordered_map>
ptx_thread_info *fs2sim_shfl_thread = NULL; /* set by ptx_exec_inst */
unsigned fs2sim_shfl_lane = 0;
struct fs2sim_shfl_snap {
  const void *pI = NULL;
  int last = -1;
  unsigned long long left = 0; /* lanes still to execute */
  unsigned long long had = 0;  /* lanes active when the values were read */
  ptx_reg_t v[64];
};
static std::unordered_map<const void *, fs2sim_shfl_snap> fs2sim_shfl_snaps;
static void fs2sim_shfl(const ptx_instruction *pI, core_t *core, const warp_inst_t &inst) {
  ptx_thread_info *thread = fs2sim_shfl_thread;
  const unsigned ws = core->get_warp_size(), lane = fs2sim_shfl_lane;
  const unsigned base = thread->get_hw_tid() - lane;
  ptx_thread_info **threads = core->get_thread_info();
  const unsigned i_type = pI->get_type();
  const operand_info &dst = pI->dst();
  fs2sim_shfl_snap &sn = fs2sim_shfl_snaps[threads[base]];
  if (sn.pI != (const void *)pI || (int)lane <= sn.last || !((sn.left >> lane) & 1)) {
    /* a new execution of the instruction by this warp: read every active
     * lane's source value before any lane writes its destination */
    sn.pI = pI;
    sn.left = sn.had = 0;
    for (unsigned t = 0; t < ws && t < 64; t++) {
      if (!inst.active(t)) continue;
      ptx_thread_info *src = threads[base + t];
      sn.v[t] = src->get_operand_value(pI->src1(), dst, i_type, src, 1);
      sn.left |= 1ULL << t;
      sn.had |= 1ULL << t;
    }
  }
  sn.last = (int)lane;
  sn.left &= ~(1ULL << lane);
  const unsigned b = thread->get_operand_value(pI->src2(), dst, i_type, thread, 1).u32 & 0x1F;
  const unsigned cv = thread->get_operand_value(pI->src3(), dst, i_type, thread, 1).u32;
  const unsigned c = cv & 0x1F, segmask = (cv >> 8) & 0x1F;
  const int maxLane = (int)((lane & segmask) | (c & ~segmask)), minLane = (int)(lane & segmask);
  int j;
  bool p;
  switch (pI->shfl_op()) {
    case UP_OPTION: j = (int)lane - (int)b; p = j >= maxLane; break;
    case DOWN_OPTION: j = (int)lane + (int)b; p = j <= maxLane; break;
    case BFLY_OPTION: j = (int)(lane ^ b); p = j <= maxLane; break;
    case IDX_OPTION: j = minLane | (int)(b & ~segmask); p = j <= maxLane; break;
    default: printf("GPGPU-Sim PTX: ERROR: Invalid shfl option\n"); assert(0); return;
  }
  if (!p) j = (int)lane;
  ptx_reg_t data;
  data.u64 = 0;
  if ((sn.had >> j) & 1)
    data = sn.v[j];
  else
    printf("GPGPU-Sim PTX: WARNING: shfl input value unpredictable for inactive threads in a warp\n");
  if (dst.get_double_operand_type() != 0) { /* d|p: the value, and whether the source lane was in range */
    ptx_reg_t pv;
    pv.u64 = 0;
    pv.pred = p ? 0 : 1; /* GPGPU-Sim's predicates: 0 is true (setp_impl) */
    thread->set_reg(dst.vec_symbol(0), data);
    thread->set_reg(dst.vec_symbol(1), pv);
  } else {
    thread->set_operand_value(dst, data, i_type, thread, pI);
  }
}
/* end FS2SIM3 */
"""


def patch3(sim):
    """The third round: shfl.sync, as nvcc emits it for __shfl_sync.
    shfl_impl found the executing thread from a count of the lanes that had
    executed it (one counter per hardware warp number, shared by every core)
    and its warp from the instruction's warp number, which the functional
    mode leaves 0: every warp but the first read and wrote the first warp's
    registers. It also wrote `d|p` as a pair of another kind (d into p and
    a flag into d: every result 0). Here the thread and lane are the ones
    ptx_exec_inst executes, the warp's source values are read before any
    lane writes (a destination may be a source register), and p is whether
    the source lane was in range."""
    mark = "FS2SIM3"
    changed = edit(os.path.join(sim, "instructions.cc"), [
        ("void shfl_impl(const ptx_instruction *pI, core_t *core, warp_inst_t inst) {\n",
         HELPERS3 +
         "void shfl_impl(const ptx_instruction *pI, core_t *core, warp_inst_t inst) {\n"
         "  if (fs2sim_shfl_thread) { fs2sim_shfl(pI, core, inst); return; } /* FS2SIM3 */\n"),
    ], mark)
    changed |= edit(os.path.join(sim, "cuda-sim.cc"), [
        ("void ptx_thread_info::ptx_exec_inst(warp_inst_t &inst, unsigned lane_id) {\n",
         "extern ptx_thread_info *fs2sim_shfl_thread; /* FS2SIM3 */\n"
         "extern unsigned fs2sim_shfl_lane;\n"
         "void ptx_thread_info::ptx_exec_inst(warp_inst_t &inst, unsigned lane_id) {\n"
         "  fs2sim_shfl_thread = this; /* FS2SIM3: for shfl_impl */\n"
         "  fs2sim_shfl_lane = lane_id;\n"),
    ], mark)
    return changed


if __name__ == "__main__":
    main()
