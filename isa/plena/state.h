// PLENA architectural state as plain data: the parameters, register files, special
// registers, loop stack, systolic accumulators and non-owning views of the on-chip
// memories. The platform owns the memories and points the views at them; the semantics
// (isa/plena/semantics.h) read and write only through these views. On-chip addresses
// count ELEMENTS (bf16 values; u32 words for INT_MEM), never bytes.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tlmcraft::isa::plena {

struct PlenaParams {
  uint32_t mlen = 64;        // matrix tile edge: MSRAM tiles are mlen x mlen
  uint32_t vlen = 64;        // vector row length (one VRAM row)
  uint32_t blen = 4;         // systolic block: BLEN x BLEN accumulator, write-out width
  uint32_t hlen = 16;        // head width of the batched ops and of V_MASK bits
  uint32_t v_rows = 4;       // rows moved by H_PREFETCH_V / H_STORE_V (HBM_V_Prefetch_Amount)
  uint32_t loop_depth = 8;   // nested hardware loops
};

// Empty when the parameters are usable; otherwise what is wrong, e.g.
// "mlen (64) must be a multiple of blen (5)".
std::string validate(const PlenaParams& p);

// A view of memory owned elsewhere: data[0 .. size).
template <class T>
struct MemView {
  T* data = nullptr;
  uint32_t size = 0;
};

struct LoopFrame {
  uint32_t body_pc = 0;     // first instruction of the body (C_LOOP_START's pc + 1)
  uint8_t counter_reg = 0;  // gp register holding the remaining count
};

constexpr uint32_t kLoopStackCapacity = 64;  // upper bound for PlenaParams::loop_depth

struct PlenaState {
  PlenaParams params;

  // Register files. gp0 reads as 0 and f0 as +0.0: the semantics drop writes to them.
  std::array<uint32_t, 16> gp{};
  std::array<uint16_t, 8> fp{};   // bf16 bits
  std::array<uint64_t, 8> a{};    // HBM base addresses (bytes)
  uint32_t scale = 0;             // SCALE: byte distance from an MX tensor to its scale stream
  uint32_t stride = 1;            // STRIDE: HBM row stride (elements) for rstride = 1 transfers
  uint32_t v_mask = 0;            // V_MASK: bit h enables lanes h*HLEN .. h*HLEN+HLEN-1

  uint32_t pc = 0;
  bool halted = false;            // set by C_BREAK
  std::array<LoopFrame, kLoopStackCapacity> loops{};
  uint32_t loop_count = 0;        // open loops (top = loops[loop_count - 1])

  // FP32 systolic accumulators, one per instruction family (cleared by the *_WO forms):
  //   acc_mm  [BLEN][BLEN]               M_MM, M_TMM          -> M_MM_WO
  //   acc_mv  [MLEN]                     M_MV, M_TMV          -> M_MV_WO
  //   acc_bmm [MLEN/HLEN][MLEN][MLEN]    M_BMM, M_BTMM        -> M_BMM_WO
  //   acc_bmv [MLEN/HLEN][MLEN]          M_BMV, M_BTMV        -> M_BMV_WO
  std::vector<float> acc_mm, acc_mv, acc_bmm, acc_bmv;
  // Multiply-accumulates the matrix instructions performed (bf16 x bf16 into fp32), for
  // energy tables; reset with the registers.
  uint64_t matrix_macs = 0;

  // On-chip memories (owned by the platform).
  MemView<uint16_t> msram;    // bf16, tiles of MLEN x MLEN row-major at tile-aligned bases
  MemView<uint16_t> vram;     // bf16, rows of VLEN
  // Elements past vram.size that the platform reserves for composed instructions'
  // temporaries (semantics.h, ComposedInstruction); 0: none.
  uint32_t hidden_vram = 0;
  MemView<uint16_t> fp_mem;   // bf16 constants
  MemView<uint32_t> int_mem;  // u32 words

  PlenaState() { configure(PlenaParams{}); }
  explicit PlenaState(const PlenaParams& p) { configure(p); }

  // Sets the parameters, sizes the accumulators and resets registers, loops and
  // accumulators. Throws std::invalid_argument with validate()'s message on bad
  // parameters. Memory views are left as they are.
  void configure(const PlenaParams& p);
  // Registers to their reset values (all zero, STRIDE = 1), pc 0, no loops, not halted,
  // accumulators zero.
  void reset();

  uint32_t heads() const { return params.mlen / params.hlen; }       // batched-op heads
  uint32_t mask_heads() const { return params.vlen / params.hlen; }  // V_MASK bits used
  uint32_t tile_elements() const { return params.mlen * params.mlen; }
  // VRAM distance between consecutive activation rows of the matrix ops: MLEN elements
  // rounded up to whole VRAM rows (= VLEN in the benchmark, where MLEN = VLEN).
  uint32_t act_row_pitch() const {
    return (params.mlen + params.vlen - 1) / params.vlen * params.vlen;
  }
};

}  // namespace tlmcraft::isa::plena
