#include "platforms/plena/pack/baselines/row_ops.h"

#include <stdexcept>

namespace tlmcraft::tasks::plena {
namespace {

std::string n(uint64_t v) { return std::to_string(v); }

// The H_* transfer of `groups` groups of BLEN contiguous rows, in a hardware loop.
void emit_groups(AsmWriter& w, const PlenaArch& a, const std::string& mnemonic, int areg, uint64_t hbm_offset,
                 uint64_t vram, uint64_t groups, int precision, const RowRegs& r) {
  if (!groups) return;
  const uint64_t step = uint64_t(a.v_rows) * a.vlen;
  w.set(r.vram, vram, "VRAM row");
  w.add_const(r.hbm, 0, hbm_offset, "HBM element offset");
  if (groups > 1) w.loop_start(r.loop, uint32_t(groups), n(a.v_rows) + " rows per transfer");
  w.op(mnemonic + " " + gp(r.vram) + ", " + gp(r.hbm) + ", a" + n(areg) + ", 0, " + n(precision),
       n(a.v_rows) + " contiguous rows");
  if (groups > 1) {
    w.op("S_ADDI_INT " + gp(r.vram) + ", " + gp(r.vram) + ", " + n(step));
    w.op("S_ADDI_INT " + gp(r.hbm) + ", " + gp(r.hbm) + ", " + n(step));
    w.loop_end(r.loop);
  }
}

}  // namespace

void emit_prefetch_rows(AsmWriter& w, const PlenaArch& a, int areg, uint64_t hbm_offset, uint64_t vram,
                        uint64_t rows, int precision, const RowRegs& r) {
  const uint64_t groups = rows / a.v_rows, tail = rows % a.v_rows;
  emit_groups(w, a, "H_PREFETCH_V", areg, hbm_offset, vram, groups, precision, r);
  if (!tail) return;
  w.op("C_SET_STRIDE_REG gp0", "STRIDE = 0: one row per transfer for the last " + n(tail));
  for (uint64_t t = 0; t < tail; ++t) {
    const uint64_t row = rows - tail + t;
    w.set(r.vram, vram + row * a.vlen, "row " + n(row));
    w.add_const(r.hbm, 0, hbm_offset + row * a.vlen, "its HBM offset");
    w.op("H_PREFETCH_V " + gp(r.vram) + ", " + gp(r.hbm) + ", a" + n(areg) + ", 1, " + n(precision),
         "the row into " + n(a.v_rows) + " VRAM rows (later ones overwritten)");
  }
}

void emit_store_rows(AsmWriter& w, const PlenaArch& a, int areg, uint64_t hbm_offset, uint64_t vram,
                     uint64_t rows, uint64_t scratch, int precision, const RowRegs& r) {
  const uint64_t groups = rows / a.v_rows, tail = rows % a.v_rows;
  emit_groups(w, a, "H_STORE_V", areg, hbm_offset, vram, groups, precision, r);
  if (!tail) return;
  w.op("C_SET_STRIDE_REG gp0", "STRIDE = 0: one row per transfer for the last " + n(tail));
  for (uint64_t t = 0; t < tail; ++t) {
    const uint64_t row = rows - tail + t;
    w.set(r.hbm, vram + row * a.vlen, "row " + n(row));
    for (uint32_t i = 0; i < a.v_rows; ++i) {
      w.set(r.vram, scratch + uint64_t(i) * a.vlen);
      w.op("V_ADD_VF " + gp(r.vram) + ", " + gp(r.hbm) + ", f0, 0", "copy " + n(i) + " of the row");
    }
    w.set(r.vram, scratch);
    w.add_const(r.hbm, 0, hbm_offset + row * a.vlen, "its HBM offset");
    w.op("H_STORE_V " + gp(r.vram) + ", " + gp(r.hbm) + ", a" + n(areg) + ", 1, " + n(precision),
         "all " + n(a.v_rows) + " transfer rows write the same values");
  }
}

}  // namespace tlmcraft::tasks::plena
