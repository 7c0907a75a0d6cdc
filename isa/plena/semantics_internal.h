// Shared helpers of the PLENA semantics files (not part of the public API): operand
// decoding with range checks, address checks that fault with a clear message, hazard
// range recording. Every check runs before the instruction writes anything.
#pragma once
#include <cstdarg>
#include <cstdint>

#include "isa/formats/bf16.h"
#include "isa/plena/semantics.h"

namespace tlmcraft::isa::plena::detail {

using formats::bf16_to_float;
using formats::float_to_bf16;

// Where an address came from, for messages: "gp3", "gp3+12" or "gp3+gp5".
struct Origin {
  uint32_t reg = 0;
  uint64_t imm = 0;
  bool has_imm = false;
  int reg2 = -1;  // second register added to the first (batched head offset)
};
void format_origin(const Origin& o, char* buf, size_t n);

class Exec {
 public:
  Exec(const isa::Instruction& inst, PlenaState& state, StepResult& result)
      : in(inst), s(state), r(result), p(state.params) {}

  const isa::Instruction& in;
  PlenaState& s;
  StepResult& r;
  const PlenaParams& p;

  bool failed() const { return !r.fault.empty(); }
  // Records "<MNEMONIC>: <message>" as the fault. Returns false for `return x.fail(...)`.
  bool fail(const char* fmt, ...) __attribute__((format(printf, 2, 3)));

  // Operand decoding: register numbers in range, flags 0/1, immediates non-negative.
  bool gp_reg(int field, uint32_t& reg);
  bool fp_reg(int field, uint32_t& reg);
  bool a_reg(int field, uint32_t& reg);
  bool flag(int field, const char* name, bool& value);
  bool imm(uint64_t& value);

  uint32_t gp(uint32_t reg) const { return reg ? s.gp[reg] : 0u; }
  uint16_t fp_bits(uint32_t reg) const { return reg ? s.fp[reg] : uint16_t(0); }
  float fp(uint32_t reg) const { return bf16_to_float(fp_bits(reg)); }
  void set_gp(uint32_t reg, uint32_t v) {
    if (reg) s.gp[reg] = v;
  }
  void set_fp(uint32_t reg, uint16_t bits) {
    if (reg) s.fp[reg] = bits;
  }

  // Address checks. `what` names the operand's role ("source", "destination", ...).
  // aligned: addr % alignment == 0; `label` names the alignment ("VLEN"). Messages are
  // formatted only on failure (execute must stay cheap).
  bool check_aligned(Memory m, uint64_t addr, uint64_t alignment, const char* label,
                     const char* what, const Origin& o);
  // The range touched by `rows` runs of `count` elements, `stride` apart, fits memory m.
  bool check_fits(Memory m, uint64_t first, uint64_t count, uint64_t rows, uint64_t stride,
                  const char* what, const Origin& o);
  // A VRAM row operand of the vector unit: aligned to VLEN and VLEN elements in range.
  bool check_vram_row(uint64_t addr, const char* what, const Origin& o);

  void read(Memory m, uint64_t first, uint64_t count, uint64_t rows = 1, uint64_t stride = 0) {
    if (r.n_reads < kMaxReadRanges)
      r.reads[r.n_reads++] = MemRange{m, uint32_t(first), uint32_t(count), uint32_t(rows), uint32_t(stride)};
  }
  void write(Memory m, uint64_t first, uint64_t count, uint64_t rows = 1, uint64_t stride = 0) {
    if (r.n_writes < kMaxWriteRanges)
      r.writes[r.n_writes++] = MemRange{m, uint32_t(first), uint32_t(count), uint32_t(rows), uint32_t(stride)};
  }

  uint32_t memory_size(Memory m) const;
};

// Handlers, one per instruction (grouped by class in semantics_<class>.cpp).
#define PLENA_HANDLER(name) void exec_##name(Exec& x)
PLENA_HANDLER(m_mm); PLENA_HANDLER(m_tmm); PLENA_HANDLER(m_bmm); PLENA_HANDLER(m_btmm);
PLENA_HANDLER(m_mv); PLENA_HANDLER(m_tmv); PLENA_HANDLER(m_bmv); PLENA_HANDLER(m_btmv);
PLENA_HANDLER(m_mm_wo); PLENA_HANDLER(m_mv_wo); PLENA_HANDLER(m_bmm_wo); PLENA_HANDLER(m_bmv_wo);
PLENA_HANDLER(v_add_vv); PLENA_HANDLER(v_add_vf); PLENA_HANDLER(v_sub_vv); PLENA_HANDLER(v_sub_vf);
PLENA_HANDLER(v_mul_vv); PLENA_HANDLER(v_mul_vf); PLENA_HANDLER(v_max_vf); PLENA_HANDLER(v_min_vf);
PLENA_HANDLER(v_exp_v); PLENA_HANDLER(v_reci_v); PLENA_HANDLER(v_shft_v);
PLENA_HANDLER(v_red_sum); PLENA_HANDLER(v_red_max);
PLENA_HANDLER(s_add_fp); PLENA_HANDLER(s_sub_fp); PLENA_HANDLER(s_max_fp); PLENA_HANDLER(s_mul_fp);
PLENA_HANDLER(s_exp_fp); PLENA_HANDLER(s_reci_fp); PLENA_HANDLER(s_sqrt_fp);
PLENA_HANDLER(s_ld_fp); PLENA_HANDLER(s_st_fp); PLENA_HANDLER(s_map_v_fp);
PLENA_HANDLER(s_add_int); PLENA_HANDLER(s_addi_int); PLENA_HANDLER(s_sub_int);
PLENA_HANDLER(s_mul_int); PLENA_HANDLER(s_lui_int); PLENA_HANDLER(s_ld_int); PLENA_HANDLER(s_st_int);
PLENA_HANDLER(h_prefetch_m); PLENA_HANDLER(h_prefetch_v); PLENA_HANDLER(h_store_v);
PLENA_HANDLER(c_set_addr_reg); PLENA_HANDLER(c_set_scale_reg); PLENA_HANDLER(c_set_stride_reg);
PLENA_HANDLER(c_set_v_mask_reg); PLENA_HANDLER(c_loop_start); PLENA_HANDLER(c_loop_end);
PLENA_HANDLER(c_break);
#undef PLENA_HANDLER

// IEEE max/min that propagate NaN (as the reference simulator's tensor max does).
inline float max_nan(float a, float b) {
  if (a != a) return a;
  if (b != b) return b;
  return a > b ? a : b;
}
inline float min_nan(float a, float b) {
  if (a != a) return a;
  if (b != b) return b;
  return a < b ? a : b;
}

}  // namespace tlmcraft::isa::plena::detail
