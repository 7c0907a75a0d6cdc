// HBM transfer instructions. They move no data here: they check the on-chip side and
// return an HbmTransfer descriptor that the platform's DMA engine carries out (format
// conversion MXFP8/BF16 <-> bf16 and timing belong to the platform).
//
// H_PREFETCH_M rd, rs1, aN, rstride, precision: one MLEN x MLEN tile into MSRAM at gp[rd]
//   (a multiple of MLEN*MLEN); HBM row i at element offset gp[rs1] + i * row_stride.
// H_PREFETCH_V / H_STORE_V rd, rs1, aN, rstride, precision: v_rows (= BLEN) rows of VLEN
//   between VRAM at gp[rd] (VLEN-aligned) and HBM.
// row_stride = STRIDE when rstride = 1, otherwise the row length (rows contiguous).
#include <cstdio>

#include "isa/plena/semantics_internal.h"

namespace tlmcraft::isa::plena::detail {
namespace {

void transfer(Exec& x, HbmTransfer::Direction dir, Memory sram, uint32_t rows, uint32_t row_elements,
              uint32_t pitch, uint64_t alignment, const char* alignment_label) {
  uint32_t rd, rs1, rs2;
  bool strided;
  if (!x.gp_reg(isa::kRd, rd) || !x.gp_reg(isa::kRs1, rs1) || !x.a_reg(isa::kRs2, rs2) ||
      !x.flag(isa::kRs3, "rstride", strided))
    return;
  const int64_t precision = x.in.field[isa::kFunct1];
  if (precision < 0 || precision > 15)
    return void(x.fail("precision %lld out of range", (long long)precision));
  const uint64_t addr = x.gp(rd);
  const char* role = dir == HbmTransfer::Direction::HbmToSram ? "destination" : "source";
  if (!x.check_aligned(sram, addr, alignment, alignment_label, role, Origin{rd}) ||
      !x.check_fits(sram, addr, row_elements, rows, pitch, role, Origin{rd}))
    return;

  HbmTransfer& t = x.r.transfer;
  t.direction = dir;
  t.sram = sram;
  t.sram_addr = uint32_t(addr);
  t.sram_row_pitch = pitch;
  t.hbm_base = x.s.a[rs2];
  t.hbm_offset = x.gp(rs1);
  t.row_stride = strided ? x.s.stride : row_elements;
  t.rows = rows;
  t.row_elements = row_elements;
  t.precision = uint8_t(precision);
  t.strided = strided;
  t.scale = x.s.scale;
  x.r.has_transfer = true;
  if (dir == HbmTransfer::Direction::HbmToSram) x.write(sram, addr, row_elements, rows, pitch);
  else x.read(sram, addr, row_elements, rows, pitch);
}

}  // namespace

void exec_h_prefetch_m(Exec& x) {
  const uint32_t mlen = x.p.mlen;
  transfer(x, HbmTransfer::Direction::HbmToSram, Memory::MSRAM, mlen, mlen, mlen,
           uint64_t(mlen) * mlen, "MLEN*MLEN");
}

void exec_h_prefetch_v(Exec& x) {
  transfer(x, HbmTransfer::Direction::HbmToSram, Memory::VRAM, x.p.v_rows, x.p.vlen, x.p.vlen,
           x.p.vlen, "VLEN");
}

void exec_h_store_v(Exec& x) {
  transfer(x, HbmTransfer::Direction::SramToHbm, Memory::VRAM, x.p.v_rows, x.p.vlen, x.p.vlen,
           x.p.vlen, "VLEN");
}

}  // namespace tlmcraft::isa::plena::detail
