// Matrix (systolic array) instructions.
//
// Layouts (MLEN = VLEN = 64, BLEN = 4, HLEN = 16 in the benchmark):
// - An MSRAM tile is MLEN x MLEN bf16, row-major, at a multiple of MLEN*MLEN.
// - The MSRAM address operand is the element address of the FIRST element of the slice
//   the instruction reads (spec: "Matrix SRAM read: offset within tile multiple of
//   BLEN"; PLENA compiler templates advance M_TMM's address by BLEN*MLEN):
//     M_MM   W[:, c0:c0+BLEN]   at tile + c0          (c0 < MLEN, multiple of BLEN)
//     M_TMM  T[c0:c0+BLEN, :]   at tile + c0*MLEN     (columns c0.. of T^T)
//     M_BMM  W[r0:r0+HLEN, :]   at tile + r0*MLEN     (r0 multiple of HLEN)
//     M_BTMM T[:, c0:c0+HLEN]   at tile + c0          (c0 < MLEN, multiple of HLEN)
//     M_MV, M_TMV               the whole tile (tile-aligned address)
//     M_BMV / M_BTMV            as M_BMM / M_BTMM
// - VRAM activations: row r of a block starts at the VRAM operand + r * pitch, where
//   pitch = MLEN rounded up to whole VRAM rows (= VLEN); rows must start VLEN-aligned.
//   M_MM/M_TMM read BLEN rows of MLEN, M_BMM/M_BTMM read MLEN rows (tokens) whose lanes
//   h*HLEN .. h*HLEN+HLEN-1 hold head h, M_MV/M_TMV/M_BMV/M_BTMV read one row.
// Operand roles: M_MM, M_MV, M_TMV, M_BMV, M_BTMV take rs1 = MSRAM, rs2 = VRAM; M_TMM
// takes rs1 = VRAM, rs2 = MSRAM (PLENA spec, reference simulator and compiler agree);
// M_BMM/M_BTMM/M_BMV/M_BTMV add gp[rd] (head offset) to the MSRAM address.
//
// Numerics: products of bf16 values are exact in float32; each product is added to the
// float32 accumulator in ascending contraction order (no reassociation); the *_WO forms
// round to bf16 (nearest even), write, and clear their accumulator.
//
// Choices where the PLENA spec and the reference simulator disagree (spec followed):
// - M_MV/M_TMV produce a full MLEN-wide result (the simulator computes a BLEN slice).
// - M_BMM/M_BTMM/M_BMV/M_BTMV are not scaled (the simulator multiplies by a fixed 0.25).
// - Batched heads are contiguous lanes (the simulator's M_BMM reads them interleaved).
#include <algorithm>
#include <cstdio>
#include <vector>

#include "isa/plena/semantics_internal.h"

namespace tlmcraft::isa::plena::detail {
namespace {

inline float bf(const uint16_t* mem, uint64_t i) { return bf16_to_float(mem[i]); }

// Splits an MSRAM slice address into tile base and in-tile offset and checks the offset:
// offset % unit == 0 and offset < limit (limit = tile size for row-granular slices).
bool msram_slice(Exec& x, uint64_t addr, uint64_t unit, const char* unit_label, uint64_t limit,
                 const char* limit_label, uint64_t& tile, uint64_t& offset, const Origin& o) {
  const uint64_t tile_elems = x.s.tile_elements();
  tile = addr - addr % tile_elems;
  offset = addr % tile_elems;
  if (offset % unit != 0 || offset >= limit) {
    char where[48];
    format_origin(o, where, sizeof where);
    return x.fail(
        "MSRAM address %llu (%s) is tile %llu + offset %llu; the offset must be a multiple of "
        "%s (%llu) below %s (%llu)",
        (unsigned long long)addr, where, (unsigned long long)(tile / tile_elems),
        (unsigned long long)offset, unit_label, (unsigned long long)unit, limit_label,
        (unsigned long long)limit);
  }
  return x.check_fits(Memory::MSRAM, tile, tile_elems, 1, 0, "tile", o);
}

// The whole-tile operand of M_MV / M_TMV: a tile-aligned address.
bool msram_tile(Exec& x, uint64_t addr, const Origin& o) {
  const uint64_t tile_elems = x.s.tile_elements();
  if (addr % tile_elems != 0) {
    char where[48];
    format_origin(o, where, sizeof where);
    return x.fail("MSRAM address %llu (%s) must be tile-aligned (a multiple of MLEN*MLEN = %llu): "
                  "this instruction reads a whole tile",
                  (unsigned long long)addr, where, (unsigned long long)tile_elems);
  }
  return x.check_fits(Memory::MSRAM, addr, tile_elems, 1, 0, "tile", o);
}

// A block of `rows` activation rows of MLEN starting at a VLEN-aligned VRAM address.
bool vram_block(Exec& x, uint64_t addr, uint32_t rows, const Origin& o) {
  return x.check_aligned(Memory::VRAM, addr, x.p.vlen, "VLEN", "activation", o) &&
         x.check_fits(Memory::VRAM, addr, x.p.mlen, rows, x.s.act_row_pitch(), "activation", o);
}

// Batched forms: MSRAM address = gp[rs1] + gp[rd], VRAM address = gp[rs2].
struct BatchedOperands {
  uint64_t tile = 0, offset = 0, vaddr = 0;
};
bool batched_operands(Exec& x, bool transposed, uint32_t vrows, BatchedOperands& b) {
  uint32_t rd, rs1, rs2;
  if (!x.gp_reg(isa::kRd, rd) || !x.gp_reg(isa::kRs1, rs1) || !x.gp_reg(isa::kRs2, rs2)) return false;
  const uint64_t maddr = uint64_t(x.gp(rs1)) + x.gp(rd);
  Origin mo{rs1, 0, false, rd != 0 ? int(rd) : -1};
  const bool ok =
      transposed ? msram_slice(x, maddr, x.p.hlen, "HLEN", x.p.mlen, "MLEN", b.tile, b.offset, mo)
                 : msram_slice(x, maddr, uint64_t(x.p.hlen) * x.p.mlen, "HLEN*MLEN",
                               x.s.tile_elements(), "the tile size", b.tile, b.offset, mo);
  if (!ok) return false;
  b.vaddr = x.gp(rs2);
  return vram_block(x, b.vaddr, vrows, Origin{rs2});
}

// acc[h][s][n] += sum_d X[s][h*HLEN+d] * W[r0+d][n]   (s < rows)
void batched_mm(Exec& x, const BatchedOperands& b, uint32_t rows, float* acc) {
  const PlenaParams& p = x.p;
  const uint16_t* m = x.s.msram.data;
  const uint16_t* v = x.s.vram.data;
  const uint64_t pitch = x.s.act_row_pitch();
  const uint64_t w0 = b.tile + b.offset;  // row r0 of the tile
  x.s.matrix_macs += uint64_t(x.s.heads()) * rows * p.hlen * p.mlen;
  for (uint32_t h = 0; h < x.s.heads(); ++h) {
    for (uint32_t s = 0; s < rows; ++s) {
      float* out = acc + (uint64_t(h) * rows + s) * p.mlen;
      const uint64_t xrow = b.vaddr + s * pitch + uint64_t(h) * p.hlen;
      for (uint32_t d = 0; d < p.hlen; ++d) {
        const float xv = bf(v, xrow + d);
        const uint16_t* w = m + w0 + uint64_t(d) * p.mlen;
        for (uint32_t n = 0; n < p.mlen; ++n) out[n] += xv * bf16_to_float(w[n]);
      }
    }
  }
}

// acc[h][s][k] += sum_d Q[s][h*HLEN+d] * T[k][c0+d]   (s < rows)
void batched_tmm(Exec& x, const BatchedOperands& b, uint32_t rows, float* acc) {
  const PlenaParams& p = x.p;
  const uint16_t* m = x.s.msram.data;
  const uint16_t* v = x.s.vram.data;
  const uint64_t pitch = x.s.act_row_pitch();
  x.s.matrix_macs += uint64_t(x.s.heads()) * rows * p.mlen * p.hlen;
  for (uint32_t h = 0; h < x.s.heads(); ++h) {
    for (uint32_t s = 0; s < rows; ++s) {
      float* out = acc + (uint64_t(h) * rows + s) * p.mlen;
      const uint64_t qrow = b.vaddr + s * pitch + uint64_t(h) * p.hlen;
      for (uint32_t k = 0; k < p.mlen; ++k) {
        const uint64_t trow = b.tile + uint64_t(k) * p.mlen + b.offset;
        float a = out[k];
        for (uint32_t d = 0; d < p.hlen; ++d) a += bf(v, qrow + d) * bf(m, trow + d);
        out[k] = a;
      }
    }
  }
}

}  // namespace

// M_MM 0, rs1, rs2: acc[r][c] += sum_k X[r][k] * W[k][c0 + c]
void exec_m_mm(Exec& x) {
  uint32_t rs1, rs2;
  if (!x.gp_reg(isa::kRs1, rs1) || !x.gp_reg(isa::kRs2, rs2)) return;
  const PlenaParams& p = x.p;
  uint64_t tile, c0;
  if (!msram_slice(x, x.gp(rs1), p.blen, "BLEN", p.mlen, "MLEN", tile, c0, Origin{rs1})) return;
  const uint64_t vaddr = x.gp(rs2);
  if (!vram_block(x, vaddr, p.blen, Origin{rs2})) return;
  const uint16_t* m = x.s.msram.data;
  const uint16_t* v = x.s.vram.data;
  const uint64_t pitch = x.s.act_row_pitch();
  // k outermost walks W row by row (contiguous); each accumulator still receives its
  // products in ascending k.
  float* acc = x.s.acc_mm.data();
  x.s.matrix_macs += uint64_t(p.mlen) * p.blen * p.blen;
  for (uint32_t k = 0; k < p.mlen; ++k) {
    const uint16_t* w = m + tile + uint64_t(k) * p.mlen + c0;
    for (uint32_t r = 0; r < p.blen; ++r) {
      const float xv = bf(v, vaddr + r * pitch + k);
      float* out = acc + r * p.blen;
      for (uint32_t c = 0; c < p.blen; ++c) out[c] += xv * bf16_to_float(w[c]);
    }
  }
  x.read(Memory::VRAM, vaddr, p.mlen, p.blen, pitch);
  x.read(Memory::MSRAM, tile + c0, p.blen, p.mlen, p.mlen);
}

// M_TMM 0, rs1 (VRAM), rs2 (MSRAM): acc[r][c] += sum_k X[r][k] * T[c0 + c][k]
void exec_m_tmm(Exec& x) {
  uint32_t rs1, rs2;
  if (!x.gp_reg(isa::kRs1, rs1) || !x.gp_reg(isa::kRs2, rs2)) return;
  const PlenaParams& p = x.p;
  uint64_t tile, off;
  if (!msram_slice(x, x.gp(rs2), uint64_t(p.blen) * p.mlen, "BLEN*MLEN", x.s.tile_elements(),
                   "the tile size", tile, off, Origin{rs2}))
    return;
  const uint64_t vaddr = x.gp(rs1);
  if (!vram_block(x, vaddr, p.blen, Origin{rs1})) return;
  const uint16_t* m = x.s.msram.data;
  const uint16_t* v = x.s.vram.data;
  const uint64_t pitch = x.s.act_row_pitch();
  x.s.matrix_macs += uint64_t(p.blen) * p.blen * p.mlen;
  for (uint32_t r = 0; r < p.blen; ++r) {
    for (uint32_t c = 0; c < p.blen; ++c) {
      const uint64_t trow = tile + off + uint64_t(c) * p.mlen;
      float a = x.s.acc_mm[r * p.blen + c];
      for (uint32_t k = 0; k < p.mlen; ++k) a += bf(v, vaddr + r * pitch + k) * bf(m, trow + k);
      x.s.acc_mm[r * p.blen + c] = a;
    }
  }
  x.read(Memory::VRAM, vaddr, p.mlen, p.blen, pitch);
  x.read(Memory::MSRAM, tile + off, uint64_t(p.blen) * p.mlen);
}

// M_MV 0, rs1 (MSRAM), rs2 (VRAM): acc_mv[n] += sum_k v[k] * W[k][n]
void exec_m_mv(Exec& x) {
  uint32_t rs1, rs2;
  if (!x.gp_reg(isa::kRs1, rs1) || !x.gp_reg(isa::kRs2, rs2)) return;
  const PlenaParams& p = x.p;
  const uint64_t tile = x.gp(rs1);
  if (!msram_tile(x, tile, Origin{rs1})) return;
  const uint64_t vaddr = x.gp(rs2);
  if (!vram_block(x, vaddr, 1, Origin{rs2})) return;
  const uint16_t* m = x.s.msram.data;
  const uint16_t* v = x.s.vram.data;
  float* acc = x.s.acc_mv.data();
  x.s.matrix_macs += uint64_t(p.mlen) * p.mlen;
  for (uint32_t k = 0; k < p.mlen; ++k) {
    const float vk = bf(v, vaddr + k);
    const uint16_t* w = m + tile + uint64_t(k) * p.mlen;
    for (uint32_t c = 0; c < p.mlen; ++c) acc[c] += vk * bf16_to_float(w[c]);
  }
  x.read(Memory::VRAM, vaddr, p.mlen);
  x.read(Memory::MSRAM, tile, x.s.tile_elements());
}

// M_TMV 0, rs1 (MSRAM), rs2 (VRAM): acc_mv[n] += sum_k v[k] * T[n][k]
void exec_m_tmv(Exec& x) {
  uint32_t rs1, rs2;
  if (!x.gp_reg(isa::kRs1, rs1) || !x.gp_reg(isa::kRs2, rs2)) return;
  const PlenaParams& p = x.p;
  const uint64_t tile = x.gp(rs1);
  if (!msram_tile(x, tile, Origin{rs1})) return;
  const uint64_t vaddr = x.gp(rs2);
  if (!vram_block(x, vaddr, 1, Origin{rs2})) return;
  const uint16_t* m = x.s.msram.data;
  const uint16_t* v = x.s.vram.data;
  float* acc = x.s.acc_mv.data();
  x.s.matrix_macs += uint64_t(p.mlen) * p.mlen;
  for (uint32_t c = 0; c < p.mlen; ++c) {
    const uint64_t trow = tile + uint64_t(c) * p.mlen;
    float a = acc[c];
    for (uint32_t k = 0; k < p.mlen; ++k) a += bf(v, vaddr + k) * bf(m, trow + k);
    acc[c] = a;
  }
  x.read(Memory::VRAM, vaddr, p.mlen);
  x.read(Memory::MSRAM, tile, x.s.tile_elements());
}

// M_BMM rd, rs1, rs2: per head h, acc_bmm[h] ([MLEN tokens][MLEN]) += X_h @ W[r0:r0+HLEN, :]
void exec_m_bmm(Exec& x) {
  BatchedOperands b;
  if (!batched_operands(x, false, x.p.mlen, b)) return;
  batched_mm(x, b, x.p.mlen, x.s.acc_bmm.data());
  x.read(Memory::VRAM, b.vaddr, x.p.mlen, x.p.mlen, x.s.act_row_pitch());
  x.read(Memory::MSRAM, b.tile + b.offset, uint64_t(x.p.hlen) * x.p.mlen);
}

// M_BTMM rd, rs1, rs2: per head h, acc_bmm[h] += Q_h @ (T[:, c0:c0+HLEN])^T
void exec_m_btmm(Exec& x) {
  BatchedOperands b;
  if (!batched_operands(x, true, x.p.mlen, b)) return;
  batched_tmm(x, b, x.p.mlen, x.s.acc_bmm.data());
  x.read(Memory::VRAM, b.vaddr, x.p.mlen, x.p.mlen, x.s.act_row_pitch());
  x.read(Memory::MSRAM, b.tile + b.offset, x.p.hlen, x.p.mlen, x.p.mlen);
}

// M_BMV rd, rs1, rs2: per head h, acc_bmv[h] += x_h @ W[r0:r0+HLEN, :]   (one query row)
void exec_m_bmv(Exec& x) {
  BatchedOperands b;
  if (!batched_operands(x, false, 1, b)) return;
  batched_mm(x, b, 1, x.s.acc_bmv.data());
  x.read(Memory::VRAM, b.vaddr, x.p.mlen);
  x.read(Memory::MSRAM, b.tile + b.offset, uint64_t(x.p.hlen) * x.p.mlen);
}

// M_BTMV rd, rs1, rs2: per head h, acc_bmv[h] += q_h @ (T[:, c0:c0+HLEN])^T
void exec_m_btmv(Exec& x) {
  BatchedOperands b;
  if (!batched_operands(x, true, 1, b)) return;
  batched_tmm(x, b, 1, x.s.acc_bmv.data());
  x.read(Memory::VRAM, b.vaddr, x.p.mlen);
  x.read(Memory::MSRAM, b.tile + b.offset, x.p.hlen, x.p.mlen, x.p.mlen);
}

// M_MM_WO rd, rs1, imm: row r of the BLEN x BLEN result to VRAM[gp[rd]+imm + r*stride],
// stride = gp[rs1] in elements (0, e.g. rs1 = gp0, means VLEN: consecutive VRAM rows).
void exec_m_mm_wo(Exec& x) {
  uint32_t rd, rs1;
  uint64_t imm;
  if (!x.gp_reg(isa::kRd, rd) || !x.gp_reg(isa::kRs1, rs1) || !x.imm(imm)) return;
  const PlenaParams& p = x.p;
  const uint64_t dest = uint64_t(x.gp(rd)) + imm;
  const uint64_t stride = x.gp(rs1) ? x.gp(rs1) : p.vlen;
  if (stride < p.blen)
    return void(x.fail("row stride %llu (gp%u) is smaller than BLEN (%u): the stride counts "
                       "elements (VLEN = %u for consecutive VRAM rows; gp0 selects VLEN)",
                       (unsigned long long)stride, rs1, p.blen, p.vlen));
  const Origin o{rd, imm, true};
  if (!x.check_aligned(Memory::VRAM, dest, p.blen, "BLEN", "destination", o) ||
      !x.check_fits(Memory::VRAM, dest, p.blen, p.blen, stride, "destination", o))
    return;
  uint16_t* v = x.s.vram.data;
  for (uint32_t r = 0; r < p.blen; ++r)
    for (uint32_t c = 0; c < p.blen; ++c)
      v[dest + r * stride + c] = float_to_bf16(x.s.acc_mm[r * p.blen + c]);
  std::fill(x.s.acc_mm.begin(), x.s.acc_mm.end(), 0.0f);
  x.write(Memory::VRAM, dest, p.blen, p.blen, stride);
}

// M_MV_WO rd, imm: the MLEN results to VRAM[gp[rd]+imm ..] (BLEN-aligned).
void exec_m_mv_wo(Exec& x) {
  uint32_t rd;
  uint64_t imm;
  if (!x.gp_reg(isa::kRd, rd) || !x.imm(imm)) return;
  const PlenaParams& p = x.p;
  const uint64_t dest = uint64_t(x.gp(rd)) + imm;
  const Origin o{rd, imm, true};
  if (!x.check_aligned(Memory::VRAM, dest, p.blen, "BLEN", "destination", o) ||
      !x.check_fits(Memory::VRAM, dest, p.mlen, 1, 0, "destination", o))
    return;
  uint16_t* v = x.s.vram.data;
  for (uint32_t c = 0; c < p.mlen; ++c) v[dest + c] = float_to_bf16(x.s.acc_mv[c]);
  std::fill(x.s.acc_mv.begin(), x.s.acc_mv.end(), 0.0f);
  x.write(Memory::VRAM, dest, p.mlen);
}

namespace {
// Writes `rows` accumulator rows of MLEN to VLEN-aligned VRAM rows (pitch as the inputs).
void batched_wo(Exec& x, std::vector<float>& acc, uint32_t rows) {
  uint32_t rd;
  uint64_t imm;
  if (!x.gp_reg(isa::kRd, rd) || !x.imm(imm)) return;
  const PlenaParams& p = x.p;
  const uint64_t dest = uint64_t(x.gp(rd)) + imm;
  const uint64_t pitch = x.s.act_row_pitch();
  const Origin o{rd, imm, true};
  if (!x.check_aligned(Memory::VRAM, dest, p.vlen, "VLEN", "destination", o) ||
      !x.check_fits(Memory::VRAM, dest, p.mlen, rows, pitch, "destination", o))
    return;
  uint16_t* v = x.s.vram.data;
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < p.mlen; ++c)
      v[dest + r * pitch + c] = float_to_bf16(acc[uint64_t(r) * p.mlen + c]);
  std::fill(acc.begin(), acc.end(), 0.0f);
  x.write(Memory::VRAM, dest, p.mlen, rows, pitch);
}
}  // namespace

// M_BMM_WO rd, imm: head h, token s -> VRAM row (h*MLEN + s) from gp[rd]+imm.
void exec_m_bmm_wo(Exec& x) { batched_wo(x, x.s.acc_bmm, x.s.heads() * x.p.mlen); }

// M_BMV_WO rd, imm: head h -> VRAM row h from gp[rd]+imm.
void exec_m_bmv_wo(Exec& x) { batched_wo(x, x.s.acc_bmv, x.s.heads()); }

}  // namespace tlmcraft::isa::plena::detail
