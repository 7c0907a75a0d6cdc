// The FlashAttention stages of StageEmitter: the online-softmax update of one KV block
// (running maximum per query row in FP_MEM), its initialisation, and the identity matrix
// that turns the per-row rescale into a matmul term (diag(alpha) @ O), so the rescaled
// accumulator and the new block's E V add in the matrix unit's FP32 accumulator.
#include <algorithm>
#include <stdexcept>

#include "platforms/plena/pack/baselines/stages.h"

namespace tlmcraft::tasks::plena {
namespace {

std::string s(uint64_t v) { return std::to_string(v); }

// Registers of these stages (each stage sets what it uses).
constexpr int kVr = 1, kOff = 2, kRowIdx = 3, kSOff = 4, kEOff = 5, kRow = 6, kAOff = 7, kShift = 8, kLoop = 9;
constexpr int kOne = 10, kPtr = 11, kTmp = 12, kZero = 13, kOnes = 14, kOut = 15;
constexpr uint32_t kHlen = 16;

}  // namespace

void StageEmitter::flash_init(uint32_t rows) {
  if (rows > 1024 - kFlashMax) throw std::invalid_argument("flash stages: too many query rows for FP_MEM");
  w_.blank();
  w_.comment("online softmax state: m = -inf for each of " + s(rows) + " query rows (FP_MEM " + s(kFlashMax) + "..)");
  w_.set(kRowIdx, 0);
  w_.loop_start(kLoop, rows, "query rows");
  w_.op("S_ST_FP f2, " + gp(kRowIdx) + ", " + s(kFlashMax), "m = -inf");
  w_.op("S_ADDI_INT " + gp(kRowIdx) + ", " + gp(kRowIdx) + ", 1");
  w_.loop_end(kLoop);
}

void StageEmitter::flash_block(const HbmMat& sm, const HbmMat& e, const HbmMat& alpha, uint32_t rows, uint32_t cols,
                               const std::string& what) {
  const uint32_t V = a_.vlen, B = a_.v_rows;
  if (!cols || cols > V || cols % kHlen || rows % B)
    throw std::invalid_argument("flash block stage: block of 1..VLEN columns (a multiple of HLEN), rows of BLEN");
  const uint64_t blk = uint64_t(B) * V;
  // VRAM: scores/E at 0, alpha rows at blk, a zero row and a ones row after.
  const uint64_t a_vram = blk, zrow = 2 * blk, orow = zrow + V;
  w_.blank();
  w_.comment("stage: " + what + "  online softmax over a block of " + s(cols) + " keys, " + s(rows) + " rows");
  w_.set_addr(0, kTmp, sm.addr, "a0 = scores");
  w_.set_addr(4, kTmp, e.addr, "a4 = E");
  w_.set_addr(5, kTmp, alpha.addr, "a5 = alpha");
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
  w_.loop_start(kLoop, rows / B, "blocks of BLEN query rows");
  set_scale_stride(sm);
  w_.op("H_PREFETCH_V gp0, " + gp(kSOff) + ", a0, 1, " + s(sm.prec), "BLEN score rows -> VRAM 0");
  for (uint32_t r = 0; r < B; ++r) {
    const std::string m_at = gp(kRowIdx) + ", " + s(kFlashMax + r);
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
    w_.op("S_ST_FP f5, " + m_at, "m = m'");
    w_.set(kOut, a_vram + uint64_t(r) * V);
    w_.op("V_MUL_VF " + gp(kOut) + ", " + gp(kOnes) + ", f6, 0", "alpha in every lane");
  }
  set_stride(e.stride);
  w_.op("H_STORE_V gp0, " + gp(kEOff) + ", a4, 1, 2", "BLEN E rows (0 past the block)");
  w_.set(kVr, a_vram);
  set_stride(alpha.stride);
  w_.op("H_STORE_V " + gp(kVr) + ", " + gp(kAOff) + ", a5, 1, 2", "BLEN alpha rows");
  w_.op("S_ADDI_INT " + gp(kRowIdx) + ", " + gp(kRowIdx) + ", " + s(B));
  add_imm(kSOff, uint64_t(B) * sm.stride);
  add_imm(kEOff, uint64_t(B) * e.stride);
  add_imm(kAOff, uint64_t(B) * alpha.stride);
  w_.loop_end(kLoop);
}

HbmMat StageEmitter::identity(uint32_t n) {
  const uint32_t V = a_.vlen, B = a_.v_rows;
  if (!n || n % B) throw std::invalid_argument("identity stage: n must be a positive multiple of BLEN");
  const uint32_t npad = (n + V - 1) / V * V;
  HbmMat id = scratch(n, npad);
  // VRAM: one-hot rows e_0..e_{VLEN-1} at rows 0..VLEN-1, BLEN zero rows, a ones row,
  // the previous and the current prefix row.
  const uint64_t zeros = uint64_t(V) * V, ones = zeros + uint64_t(B) * V, prev = ones + V, cur = prev + V;
  w_.blank();
  w_.comment("stage: identity [" + s(n) + "x" + s(npad) + "] (diag(alpha) = I * alpha turns the rescale into a matmul)");
  for (uint32_t r = 0; r < B; ++r) {
    w_.set(kZero, zeros + uint64_t(r) * V, "zero row " + s(r));
    w_.op("S_MAP_V_FP " + gp(kZero) + ", gp0, 0", "FP_MEM[0..VLEN) (finite constants)");
    w_.op("V_MUL_VF " + gp(kZero) + ", " + gp(kZero) + ", f0, 0", "0");
  }
  w_.set(kOnes, ones);
  w_.op("V_ADD_VF " + gp(kOnes) + ", " + gp(kZero) + ", f1, 0", "a ones row");
  w_.set(kVr, prev);
  w_.op("V_ADD_VF " + gp(kVr) + ", " + gp(kZero) + ", f0, 0", "prefix of no ones");
  w_.set(kOut, cur);
  w_.set(kShift, V - 1, "shift VLEN-1-j keeps lanes 0..j of the ones row");
  w_.set(kOne, 1);
  w_.set(kPtr, 0, "one-hot row j");
  w_.loop_start(kLoop, V, "one-hot rows");
  w_.op("V_SHFT_V " + gp(kOut) + ", " + gp(kOnes) + ", " + gp(kShift) + ", 0", "lanes 0..j = 1");
  w_.op("V_SUB_VV " + gp(kPtr) + ", " + gp(kOut) + ", " + gp(kVr) + ", 0", "e_j = prefix(j) - prefix(j-1)");
  w_.op("V_ADD_VF " + gp(kVr) + ", " + gp(kOut) + ", f0, 0", "prefix(j-1) = prefix(j)");
  w_.op("S_SUB_INT " + gp(kShift) + ", " + gp(kShift) + ", " + gp(kOne));
  w_.op("S_ADDI_INT " + gp(kPtr) + ", " + gp(kPtr) + ", " + s(V));
  w_.loop_end(kLoop);
  w_.set_addr(4, kTmp, id.addr, "a4 = identity");
  set_stride(npad);
  for (uint32_t rb = 0; rb * V < n; ++rb) {
    const uint32_t rows = std::min(V, n - rb * V);
    for (uint32_t t = 0; t < npad / V; ++t) {
      const bool diag = t == rb;
      w_.set(kVr, diag ? 0 : zeros, diag ? "one-hot rows (diagonal tile)" : "zero rows");
      w_.set(kOff, uint64_t(rb) * V * npad + uint64_t(t) * V, "tile (" + s(rb) + ", " + s(t) + ")");
      w_.loop_start(kLoop, rows / B);
      w_.op("H_STORE_V " + gp(kVr) + ", " + gp(kOff) + ", a4, 1, 2", "BLEN rows");
      if (diag) w_.op("S_ADDI_INT " + gp(kVr) + ", " + gp(kVr) + ", " + s(uint64_t(B) * V));
      add_imm(kOff, uint64_t(B) * npad);
      w_.loop_end(kLoop);
    }
  }
  return id;
}

}  // namespace tlmcraft::tasks::plena
