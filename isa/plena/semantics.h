// PLENA instruction semantics: `execute` runs one decoded instruction against a
// PlenaState and reports what the timing model and the DMA engines need to know.
// Spike-like: one small function per instruction (semantics_<class>.cpp), dispatched on
// the opcode numbers of isa/plena/opcodes.h; fields are read by isa::PlenaField.
//
// Contract:
// - execute never throws, never allocates unless it faults (the fault message), and never
//   touches memory outside the views. On a fault the state is left unchanged (checks run
//   before any write), `fault` says why and next_pc equals the faulting pc.
// - On success state.pc is set to next_pc (the caller may also read it from the result).
// - H_PREFETCH_M / H_PREFETCH_V / H_STORE_V move no data: they return an HbmTransfer
//   descriptor that the platform's DMA engine carries out (HBM format conversion and
//   timing live there).
// - C_BREAK ends the program: `halt` is set (and state.halted). The PLENA spec calls it a
//   breakpoint exception; with no debugger attached, stopping is the useful behaviour.
// Numerics and layouts are documented next to each instruction class in the .cpp files
// and summarised in docs/platforms/plena.md.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/extension/expression.h"
#include "isa/plena/opcodes.h"
#include "isa/plena/state.h"
#include "isa/program.h"

namespace tlmcraft::isa::plena {

enum class Memory : uint8_t { MSRAM, VRAM, FP_MEM, INT_MEM };
const char* memory_name(Memory m);

// `rows` runs of `count` consecutive elements, run r starting at first + r * stride.
// Most accesses are a single run (rows = 1).
struct MemRange {
  Memory mem = Memory::VRAM;
  uint32_t first = 0;
  uint32_t count = 0;
  uint32_t rows = 1;
  uint32_t stride = 0;
  // One past the last element touched.
  uint64_t end() const { return uint64_t(first) + uint64_t(rows - 1) * stride + count; }
  uint64_t elements() const { return uint64_t(rows) * count; }
};

// One DMA transfer between HBM and an on-chip SRAM.
// Row i (0 <= i < rows) holds row_elements elements; in HBM it starts at element offset
//   element_offset(i) = hbm_offset + i * row_stride         (from the a-register base)
// and in SRAM at sram_addr + i * sram_row_pitch. Offsets and strides count ELEMENTS of
// the transfer's HBM format (selected by `precision`; the platform maps it to a format
// and its element size). For MXFP8 (1 byte per element) the element at offset o is the
// byte at hbm_base + o and its E8M0 scale the byte at hbm_base + scale + o / 8.
struct HbmTransfer {
  enum class Direction : uint8_t { HbmToSram, SramToHbm };
  Direction direction = Direction::HbmToSram;
  Memory sram = Memory::VRAM;     // MSRAM (H_PREFETCH_M) or VRAM
  uint32_t sram_addr = 0;         // element address of row 0
  uint32_t sram_row_pitch = 0;    // MLEN for MSRAM tiles, VLEN for VRAM rows
  uint64_t hbm_base = 0;          // a[rs2], bytes
  uint64_t hbm_offset = 0;        // gp[rs1], elements
  uint64_t row_stride = 0;        // STRIDE if rstride = 1, else row_elements
  uint32_t rows = 0;              // MLEN for _M, v_rows (BLEN) for _V
  uint32_t row_elements = 0;      // MLEN for _M, VLEN for _V
  uint8_t precision = 0;          // the instruction's precision operand
  bool strided = false;           // rstride operand
  uint64_t scale = 0;             // SCALE register at issue

  uint64_t element_offset(uint32_t row, uint32_t col = 0) const {
    return hbm_offset + uint64_t(row) * row_stride + col;
  }
  // Byte address of an element for a format with element_bytes bytes per element.
  uint64_t byte_address(uint32_t row, uint32_t col, uint32_t element_bytes) const {
    return hbm_base + element_offset(row, col) * element_bytes;
  }
  // Byte address of the MX scale covering the element at offset o (8 elements/scale).
  uint64_t mx_scale_address(uint64_t element_offset_from_base) const {
    return hbm_base + scale + element_offset_from_base / 8;
  }
  uint64_t total_elements() const { return uint64_t(rows) * row_elements; }
};

constexpr int kMaxReadRanges = 3;
constexpr int kMaxWriteRanges = 2;

struct StepResult {
  uint32_t next_pc = 0;
  bool halt = false;
  bool has_transfer = false;
  uint8_t n_reads = 0, n_writes = 0;
  std::array<MemRange, kMaxReadRanges> reads;    // on-chip ranges read (hazards, banks)
  std::array<MemRange, kMaxWriteRanges> writes;  // on-chip ranges written; for H_PREFETCH_*
                                                 // the range the DMA will fill
  HbmTransfer transfer;                          // valid when has_transfer
  std::string fault;                             // empty unless the instruction faulted

  bool ok() const { return fault.empty(); }
};

// Executes `inst` at state.pc. See the contract above.
StepResult execute(const isa::Instruction& inst, PlenaState& state);
// Same, reusing `out` (no per-call construction of the result).
void execute(const isa::Instruction& inst, PlenaState& state, StepResult& out);

// Rows past the architectural VRAM (state.hidden_vram elements = this many VLEN rows)
// that composed instructions keep their gp temporaries in.
constexpr uint32_t kHiddenVramRows = 16;

// A composed instruction (isa/fused.h) ready to run: its steps, with temporaries in
// registers it borrows for its duration and restores afterwards (so no other instruction
// sees them); gp temporary i is preset to the hidden VRAM row i past the architectural
// VRAM, which only the steps can reach.
struct ComposedInstruction {
  std::vector<isa::Instruction> steps;
  std::vector<uint8_t> gp_temps, fp_temps;  // borrowed registers
  std::vector<uint16_t> step_gp_reads;      // per step: bit r = the step reads gp r (not a temporary)
  // Loop-end fusion: the built-in loop end (its counter), run after the steps; its
  // decrement and branch are the instruction's control flow.
  bool has_loop_end = false;
  isa::Instruction loop_end;
  bool empty() const { return steps.empty(); }
};

// Runs a composed instruction at state.pc as one instruction named `mnemonic`: merged
// architectural ranges (a hidden row is internal), next_pc = pc + 1 (a loop end's: where
// its loop end goes), faults name the step.
void execute_composed(const ComposedInstruction& c, const char* mnemonic, PlenaState& state, StepResult& out);

// An instruction with expression semantics (isa/expression_semantics.h) at one PC: the
// compiled program and, for each of its operands in declaration order, what PLENA
// storage holds it.
struct ExpressionInstruction {
  enum class Storage : uint8_t { VramRow, Fp, Gp, Immediate };
  struct Operand {
    Storage storage = Storage::Immediate;
    int64_t value = 0;  // register number, or the immediate
    const char* name = "";
  };
  std::shared_ptr<const isa::extension::ExprProgram> program;
  std::vector<Operand> operands;
  bool rmask = false;  // write only the heads V_MASK enables (an `rmask` operand set to 1)
  bool empty() const { return program == nullptr; }
};

// Evaluates the program on the operands' current values, then stores every output (so an
// output may name the same row or register as an input): a row output lane by lane
// (with rmask only the enabled heads, the other lanes keep their values), fp/gp outputs
// to their register (writes to f0/gp0 are dropped). Ranges: the rows read and written.
void execute_expression(const ExpressionInstruction& e, const char* mnemonic, PlenaState& state, StepResult& out);

}  // namespace tlmcraft::isa::plena
