// The AIE-ML compute-tile core as the machine model sees it: the bundle assembler for one
// core program, the architectural state of one core, and the functional execution of one
// VLIW bundle. Timing lives in platforms/aie_ml/; this file only reports what a bundle did
// (memory accesses, lock requests, branch, halt, per-slot latency) so the timing model can
// charge it. The ISA itself (mnemonics, slots, operand shapes, latencies) is data in
// isa/aie_ml/aie_ml.yaml, documented in docs/isa/aie-ml.md.
//
// Model contract (see docs/isa/aie-ml.md for the sources and the assumptions):
// - A bundle holds at most one op per slot: two loads (lda, ldb), one store (st), one
//   scalar (alu), one vector (vec), one move (mv). Control flow and locks use the alu slot.
// - All slots of a bundle read the registers as they were before the bundle and commit
//   together (a bundle is atomic). Results become visible to the next bundle; the platform
//   models result latency, either by stalling readers (compute.pipeline: interlocked) or,
//   as the hardware, by holding results in flight until their stage (exposed:
//   platforms/aie_ml/exposed_pipeline.h).
// - Branches have no delay slots (assumption; the real core has them).
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "isa/isa_spec.h"
#include "isa/program.h"

namespace tlmcraft::isa::aie_ml {

// ---- Slots -------------------------------------------------------------------------
enum class Slot : uint8_t { LoadA = 0, LoadB, Store, Scalar, Vector, Move };
constexpr int kSlotCount = 6;
const char* slot_name(Slot s);  // "lda", "ldb", "st", "alu", "vec", "mv"

// ---- Multiply-accumulate formats ---------------------------------------------------
// The operand format of a multiply(-accumulate) op, for counting MACs by format (energy
// tables price a MAC by its format). None: the op does no multiplies.
enum class MacFormat : uint8_t { None = 0, Int8, Int16, Int32, BF16, FP32 };
constexpr int kMacFormatCount = 6;
const char* mac_format_name(MacFormat f);  // "", "int8", "int16", "int32", "bf16", "fp32"
bool mac_format_from_name(const std::string& name, MacFormat& out);

// ---- Registers ---------------------------------------------------------------------
// Register file sizes (AM020 "Register Files", UG1603 "Vector/Accumulator Registers"):
// 512-bit vector registers x0-x11 with 256-bit halves w0-w23 (w2k = wlk, the low half of
// xk; w2k+1 = whk, the high half; the real names wl/wh are accepted too) and 1024-bit
// pairs y0-y5 (yk = x2k : x2k+1); 1024-bit accumulators cm0-cm8 with 512-bit halves
// bm0-bm17 (bm2k = bmlk, bm2k+1 = bmhk) and 256-bit quarters am0-am35.
constexpr int kScalarRegs = 32, kPointerRegs = 8, kModifierRegs = 8, kDimRegs = 8;
constexpr int kVectorRegs = 12;       // x registers, 64 bytes each
constexpr int kAccumulatorRegs = 18;  // bm registers, 64 bytes each
constexpr int kVectorBytes = 64;      // one x / bm register
constexpr uint32_t kVectorAlign = 32; // vector loads/stores: 256-bit aligned

enum class RegClass : uint8_t {
  None = 0,
  R,   // scalar r0-r31
  P,   // pointer p0-p7
  M,   // modifier m0-m7
  DN, DJ, DC,  // AGU dimension registers dn0-7 (count), dj0-7 (jump), dc0-7 (current count)
  W, X, Y,     // vector views 256 / 512 / 1024 bit
  AM, BM, CM,  // accumulator views 256 / 512 / 1024 bit
  LS, LE, LC,  // zero-overhead loop start / end / count (single registers)
  S,           // shift-control registers s0-s3 (SRS/UPS shift amounts)
  LR,          // link register (JL / RET)
  CR,          // control registers: cr0 = crrnd (SRS rounding mode), cr1 = crsat (saturation)
};
const char* reg_class_prefix(RegClass c);  // "r", "p", ..., "ls"
int reg_class_count(RegClass c);           // how many registers the class has

// ---- Assembled program -------------------------------------------------------------
struct MemOperand {
  // [pN] / [pN, #imm] / [pN, mK]: address = pN (+ offset), no update.
  // [pN], #imm / [pN], mK: address = pN, then pN += imm / mK (post-modify).
  // [pN], dK: 2-D post-modify with mK (inner step), dnK (inner count), djK (outer step), dcK.
  // [pN], dK, dL: 3-D post-modify, inner dimension K, outer dimension L.
  enum class Mode : uint8_t { Plain, OffsetImm, OffsetMod, PostImm, PostMod, Post2D, Post3D };
  Mode mode = Mode::Plain;
  uint8_t pointer = 0;
  uint8_t reg = 0;   // modifier (OffsetMod/PostMod) or inner dimension (Post2D/Post3D)
  uint8_t reg2 = 0;  // outer dimension (Post3D)
  int32_t imm = 0;
};

struct Operand {
  enum class Kind : uint8_t { None, Reg, Imm, Label, Mem };
  Kind kind = Kind::None;
  RegClass cls = RegClass::None;
  uint8_t num = 0;
  int64_t imm = 0;     // Imm value; Label: bundle index after resolution
  MemOperand mem;
  uint32_t col = 0;    // 1-based source column
};

constexpr int kMaxOperands = 6;

// One operation of a bundle. `op` indexes AieIsa::ops; `code` is the semantic op it maps
// to (the semantics switch on it, never on strings).
struct SlotOp {
  uint16_t op = 0;
  uint16_t code = 0;
  Slot slot = Slot::Scalar;
  uint8_t n_operands = 0;
  std::array<Operand, kMaxOperands> operands{};
  uint32_t col = 0;  // column of the mnemonic
  // Architectural storage units read / written (see storage_unit()), for the platform's
  // register scoreboard. Filled by the assembler.
  std::vector<uint16_t> reads, writes;
};

struct Bundle {
  std::vector<SlotOp> ops;  // at most one per slot, in slot order
  uint32_t line = 0;        // 1-based line of the whole kernel file
  const SlotOp* in_slot(Slot s) const;
};

struct AieProgram {
  std::vector<Bundle> bundles;                 // pc = bundle index
  std::map<std::string, uint32_t> labels;      // name -> bundle index
  std::array<size_t, kSlotCount> ops_by_slot{};
  std::map<std::string, size_t> ops_by_mnemonic;
  size_t total_ops = 0;                        // slot operations (NOPs not counted)
};

// Assembles one core program: the lines of one `.tile` section. `first_line` is the file
// line of text's first line, so diagnostics carry whole-file line numbers. Every error is
// reported (file:line:col, token, expectation, hint). Returns an empty program on error.
AieProgram assemble_core(const std::string& text, const std::string& file, uint32_t first_line,
                         std::vector<isa::Diagnostic>& diags);

// ---- The ISA description (loaded once from isa/aie_ml/aie_ml.yaml) -----------------
struct OpSpec {
  std::string mnemonic;        // "VMAC.I8"
  Slot slot = Slot::Scalar;
  std::vector<Slot> alt_slots; // loads may use lda or ldb
  // Narrower operand forms an op has in some of its alternative slots (`alt_operands:`):
  // the hardware's MOVX in the scalar slot takes only r / lc and an 11-bit immediate.
  std::map<Slot, std::vector<std::string>> alt_operands;
  std::vector<std::string> operands;  // operand shapes: "r", "x", "cm", "imm8", "mem", "label", ...
  std::string latency_class;   // key into AieIsa::latency
  std::string real_name;       // the llvm-aie / UG1583 name when ours differs
  std::string doc, operation;
  uint16_t code = 0;
  uint32_t macs = 0;                       // multiply-accumulates one issue performs
  MacFormat mac_format = MacFormat::None;  // their operand format (None when macs == 0)
  uint32_t ii = 1;                         // cycles the op holds its slot (initiation interval)
  int extension = -1;                      // index into AieIsa::extensions (an op added by data)
  // Declared energy actions per issue (`actions:`, isa/actions.h); empty = derived.
  std::vector<ActionDecl> actions;
  // Two read operands whose order does not matter (`commutative: [i, j]`); -1: none.
  std::array<int8_t, 2> commutative{{-1, -1}};
};

// Register-file ports an op added by data may use in one slot (`added_op_ports:`).
struct SlotPorts {
  int reads = 0, writes = 0;
};

struct ExtensionOp;  // isa/aie_ml/extension_ops.h

struct AieIsa {
  std::string file;
  std::vector<OpSpec> ops;
  std::map<std::string, uint32_t> latency;      // latency class -> result latency (cycles)
  std::map<std::string, std::string> latency_doc;
  std::vector<std::shared_ptr<const ExtensionOp>> extensions;  // ops added by data (compose / semantics)
  std::map<Slot, SlotPorts> added_op_ports;                    // slot -> ports an added op may use
  const OpSpec* find(const std::string& mnemonic) const;  // case-insensitive
  uint32_t latency_of(const SlotOp& op) const;  // result latency of one slot op
  static const AieIsa& get();                    // loads isa_yaml_path("aie_ml") once; throws on a bad file
};

// ---- Core state --------------------------------------------------------------------
struct CoreState {
  std::array<uint32_t, kScalarRegs> r{};
  std::array<uint32_t, kPointerRegs> p{};
  std::array<int32_t, kModifierRegs> m{};
  std::array<uint32_t, kDimRegs> dn{}, dc{};
  std::array<int32_t, kDimRegs> dj{};
  std::array<uint32_t, 4> s{};  // shift-control registers
  std::array<uint8_t, kVectorRegs * kVectorBytes> vec{};       // x0..x11, little-endian lanes
  std::array<uint8_t, kAccumulatorRegs * kVectorBytes> acc{};  // bm0..bm17
  uint32_t ls = 0, le = 0, lc = 0;  // zero-overhead loop: start, last bundle (inclusive), count
  uint32_t lr = 0;                  // link register
  uint32_t crrnd = 12;              // SRS rounding mode (12 = round half to even), see docs
  uint32_t crsat = 1;               // SRS saturation: 0 wrap, 1 saturate, 3 symmetric saturate
  uint32_t pc = 0;
  bool halted = false;
  uint64_t bundles_retired = 0;

  // Byte views of a vector / accumulator register of any width (W/X/Y, AM/BM/CM).
  uint8_t* vreg(RegClass cls, int num);
  const uint8_t* vreg(RegClass cls, int num) const;
  static int view_bytes(RegClass cls);  // 32, 64 or 128
};

// Architectural storage unit of a register for scoreboarding: scalar, pointer, modifier,
// dimension registers one unit each; vector views map to their x registers, accumulator
// views to their bm registers. Ids are stable within a build; unit_name() prints one.
std::vector<uint16_t> storage_units(RegClass cls, int num);
std::string unit_name(uint16_t unit);

// ---- Execution ---------------------------------------------------------------------
// The core's view of data memory (its own 64 KB and its neighbours'). Addresses are core
// addresses; the platform maps them to tiles and banks and counts conflicts. Returns false
// for an unmapped address (the bundle then faults).
class DataMemoryPort {
 public:
  virtual ~DataMemoryPort() = default;
  virtual bool read(uint32_t addr, void* dst, uint32_t n) = 0;
  virtual bool write(uint32_t addr, const void* src, uint32_t n) = 0;
};

struct LockRequest {
  enum class Kind : uint8_t { AcquireGE, AcquireEQ, Release };
  Kind kind = Kind::AcquireGE;
  uint32_t id = 0;
  int32_t value = 0;  // AcquireGE: wait for >= value then subtract it; AcquireEQ: wait for == value; Release: add
};

// The tile's semaphore locks. try_acquire must be all-or-nothing: when it returns false the
// lock is unchanged. A bundle that is refused is not executed (state unchanged, stalled=true).
class LockPort {
 public:
  virtual ~LockPort() = default;
  virtual bool try_acquire(const LockRequest& req) = 0;
  virtual void release(const LockRequest& req) = 0;
};

struct MemAccess {
  Slot slot = Slot::LoadA;
  uint32_t addr = 0;
  uint32_t bytes = 0;
  bool store = false;
};

struct SlotLatency {
  Slot slot = Slot::Scalar;
  std::string_view latency_class;  // points into AieIsa (lives for the program)
  uint32_t cycles = 0;
};

struct BundleResult {
  std::vector<MemAccess> accesses;
  std::vector<LockRequest> locks;       // requested by this bundle (granted unless stalled)
  std::vector<SlotLatency> latencies;   // one per slot op of the bundle
  bool stalled = false;                 // a lock acquire was refused: nothing changed
  bool branch_taken = false;            // control transfer (branch, call, return, loop back)
  uint32_t target = 0;                  // next pc when branch_taken
  bool loop_back = false;               // the transfer was the zero-overhead loop
  bool halt = false;                    // DONE executed
  bool fault = false;                   // bad memory access, misalignment, pc out of range
  std::string fault_message;
};

// Lock requests of a bundle given the current state (no side effects), for a platform that
// arbitrates locks itself before calling execute_bundle.
std::vector<LockRequest> lock_requests(const CoreState& state, const Bundle& bundle);

// Executes one bundle: reads operands from the state as it was, commits all results,
// advances pc (next bundle, branch target or loop start). With a LockPort, acquires are
// tried first; a refusal returns stalled=true with no change. Without one, locks are
// reported only (as granted).
BundleResult execute_bundle(CoreState& state, DataMemoryPort& mem, const Bundle& bundle,
                            LockPort* locks = nullptr);

// Convenience: executes the bundle at state.pc of `program` (fault if pc is out of range).
BundleResult step(CoreState& state, DataMemoryPort& mem, const AieProgram& program, LockPort* locks = nullptr);

}  // namespace tlmcraft::isa::aie_ml
