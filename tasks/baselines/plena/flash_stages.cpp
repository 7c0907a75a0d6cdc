// The FlashAttention row stages of StageEmitter: the online-softmax update of one KV
// block (running maximum and sum per query row kept in FP_MEM) and its initialisation.
// The matmuls and the rescale/normalise maps are ordinary stages (stages.cpp).
#include <stdexcept>

#include "tasks/baselines/plena/stages.h"

namespace tlmcraft::tasks::plena {
namespace {

std::string s(uint64_t v) { return std::to_string(v); }

// Registers of the flash stages (each stage sets what it uses).
constexpr int kVr = 1, kOff = 2, kRowIdx = 3, kSOff = 4, kEOff = 5, kRow = 6, kAOff = 7, kLoop = 9, kLOff = 11;
constexpr int kTmp = 12, kZero = 13, kOnes = 14, kOut = 15;
constexpr uint32_t kHlen = 16;

}  // namespace

void StageEmitter::flash_init(uint32_t rows) {
  w_.blank();
  w_.comment("online softmax state: m = -inf, l = 0 for each of " + s(rows) + " query rows (FP_MEM)");
  w_.set(kRowIdx, 0);
  w_.loop_start(kLoop, rows, "query rows");
  w_.op("S_ST_FP f2, " + gp(kRowIdx) + ", " + s(kFlashMax), "m = -inf");
  w_.op("S_ST_FP f0, " + gp(kRowIdx) + ", " + s(kFlashSum), "l = 0");
  w_.op("S_ADDI_INT " + gp(kRowIdx) + ", " + gp(kRowIdx) + ", 1");
  w_.loop_end(kLoop);
}

void StageEmitter::flash_block(const HbmMat& sm, const HbmMat& e, const HbmMat& alpha, const HbmMat* l, uint32_t rows,
                               uint32_t cols, const std::string& what) {
  const uint32_t V = a_.vlen, B = a_.v_rows;
  if (!cols || cols > V || cols % kHlen || rows % B || rows > kFlashSum - kFlashMax)
    throw std::invalid_argument("flash block stage: block of 1..VLEN columns (a multiple of HLEN), rows of BLEN");
  const uint64_t blk = uint64_t(B) * V;
  // VRAM: scores/E at 0, alpha rows at blk, l rows at 2 blk, a zero row and a ones row after.
  const uint64_t a_vram = blk, l_vram = 2 * blk, zrow = 3 * blk, orow = zrow + V;
  w_.blank();
  w_.comment("stage: " + what + "  online softmax over a block of " + s(cols) + " keys, " + s(rows) + " rows");
  w_.set_addr(0, kTmp, sm.addr, "a0 = scores");
  w_.set_addr(4, kTmp, e.addr, "a4 = E");
  w_.set_addr(5, kTmp, alpha.addr, "a5 = alpha");
  if (l) w_.set_addr(6, kTmp, l->addr, "a6 = l");
  w_.set(kZero, zrow, "a zero row");
  w_.op("S_MAP_V_FP " + gp(kZero) + ", gp0, 0", "FP_MEM[0..VLEN) (finite constants)");
  w_.op("V_MUL_VF " + gp(kZero) + ", " + gp(kZero) + ", f0, 0", "0");
  w_.set(kOnes, orow, "a ones row (broadcasts a scalar over a row)");
  w_.op("V_ADD_VF " + gp(kOnes) + ", " + gp(kZero) + ", f1, 0", "1");
  const uint32_t tail = cols % V;
  if (tail) {
    const uint32_t heads = V / kHlen, valid = (1u << (tail / kHlen)) - 1;
    w_.set(kTmp, ((1u << heads) - 1) & ~valid, "V_MASK: the lanes past the " + s(tail) + " keys");
    w_.op("C_SET_V_MASK_REG " + gp(kTmp));
  }
  w_.set(kRowIdx, 0, "query row index (FP_MEM offset)");
  w_.set(kSOff, sm.col0, "score row offset");
  w_.set(kEOff, e.col0, "E row offset");
  w_.set(kAOff, alpha.col0, "alpha row offset");
  if (l) w_.set(kLOff, l->col0, "l row offset");
  w_.loop_start(kLoop, rows / B, "blocks of BLEN query rows");
  set_scale_stride(sm);
  w_.op("H_PREFETCH_V gp0, " + gp(kSOff) + ", a0, 1, " + s(sm.prec), "BLEN score rows -> VRAM 0");
  for (uint32_t r = 0; r < B; ++r) {
    const std::string m_at = gp(kRowIdx) + ", " + s(kFlashMax + r), l_at = gp(kRowIdx) + ", " + s(kFlashSum + r);
    w_.set(kRow, uint64_t(r) * V, "row " + s(r));
    w_.op("V_MUL_VF " + gp(kRow) + ", " + gp(kRow) + ", f3, 0", "T = S * c");
    if (tail) w_.op("V_ADD_VF " + gp(kRow) + ", " + gp(kZero) + ", f2, 1", "keys past the block = -inf (E = 0)");
    w_.op("S_LD_FP f4, " + m_at, "m (running max)");
    w_.op("S_ADD_FP f5, f4, f0", "m' = m");
    w_.op("V_RED_MAX f5, " + gp(kRow) + ", 0", "m' = max(m, max T)");
    w_.op("S_SUB_FP f6, f4, f5", "m - m' (-inf in the first block)");
    w_.op("S_EXP_FP f6, f6", "alpha = exp(m - m')");
    w_.op("V_SUB_VF " + gp(kRow) + ", " + gp(kRow) + ", f5, 0, 0", "T - m'");
    w_.op("V_EXP_V " + gp(kRow) + ", " + gp(kRow) + ", 0", "E = exp(T - m')");
    w_.op("S_LD_FP f7, " + l_at, "l (running sum)");
    w_.op("S_MUL_FP f7, f7, f6", "l * alpha");
    w_.op("V_RED_SUM f7, " + gp(kRow) + ", 0", "l = bf16(l * alpha + sum E)");
    w_.op("S_ST_FP f5, " + m_at, "m = m'");
    w_.op("S_ST_FP f7, " + l_at);
    w_.set(kOut, a_vram + uint64_t(r) * V);
    w_.op("V_MUL_VF " + gp(kOut) + ", " + gp(kOnes) + ", f6, 0", "alpha in every lane");
    if (l) {
      w_.set(kOut, l_vram + uint64_t(r) * V);
      w_.op("V_MUL_VF " + gp(kOut) + ", " + gp(kOnes) + ", f7, 0", "l in every lane");
    }
  }
  set_stride(e.stride);
  w_.op("H_STORE_V gp0, " + gp(kEOff) + ", a4, 1, 2", "BLEN E rows (0 past the block)");
  w_.set(kVr, a_vram);
  set_stride(alpha.stride);
  w_.op("H_STORE_V " + gp(kVr) + ", " + gp(kAOff) + ", a5, 1, 2", "BLEN alpha rows");
  if (l) {
    w_.set(kVr, l_vram);
    set_stride(l->stride);
    w_.op("H_STORE_V " + gp(kVr) + ", " + gp(kLOff) + ", a6, 1, 2", "BLEN l rows");
  }
  w_.op("S_ADDI_INT " + gp(kRowIdx) + ", " + gp(kRowIdx) + ", " + s(B));
  add_imm(kSOff, uint64_t(B) * sm.stride);
  add_imm(kEOff, uint64_t(B) * e.stride);
  add_imm(kAOff, uint64_t(B) * alpha.stride);
  if (l) add_imm(kLOff, uint64_t(B) * l->stride);
  w_.loop_end(kLoop);
}

}  // namespace tlmcraft::tasks::plena
