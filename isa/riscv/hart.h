// The functional model of one RV32IMF_Zve32x hart (Coral NPU's ISA): architectural state,
// the memory it sees, the decoded-instruction form and the step loop. Pure C++, no
// SystemC: the Coral platform drives it and computes timing from what each step reports.
//
// Scalar semantics live in isa/riscv/scalar_*.cpp, the vector extension in
// isa/riscv/vector_*.cpp; both plug handlers into DecodedInsn (decode.cpp dispatches
// OP-V, vector loads/stores and vset{i}vl{i} to decode_vector()).
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace tlmcraft::isa::riscv {

constexpr unsigned kXlen = 32;
constexpr unsigned kVlenBits = 128;            // Coral NPU
constexpr unsigned kVlenBytes = kVlenBits / 8;
constexpr unsigned kElen = 32;                 // Zve32x

// ---- traps ---------------------------------------------------------------------------
enum class TrapCause : uint8_t {
  IllegalInstruction,
  InstructionAccessFault,    // fetch outside executable memory
  LoadMisaligned,
  StoreMisaligned,
  LoadAccessFault,           // unmapped address
  StoreAccessFault,          // unmapped or read-only (e.g. ITCM written at run time)
  Breakpoint,                // ebreak
  EnvironmentCall,           // ecall
};
const char* to_string(TrapCause);

// Thrown by a handler; the hart's pc still points at the faulting instruction.
struct Trap {
  TrapCause cause;
  uint32_t tval = 0;         // faulting address or instruction bits
  std::string detail;        // e.g. "store to ITCM at 0x00000040"
};

// ---- memory -------------------------------------------------------------------------
// A directly addressable region (TCMs and the backing store of external memory): the
// hart reads and writes it through the host pointer, which keeps the ISS fast.
struct MemoryRegion {
  std::string name;          // "itcm", "dtcm", "ext"
  uint32_t base = 0;
  uint32_t size = 0;
  uint8_t* data = nullptr;   // host memory of `size` bytes, owned by the platform
  bool writable = true;      // false: stores fault (ITCM at run time)
  bool executable = false;   // fetch allowed
};

// Register ids used for dependency tracking: x0..x31 = 0..31, f0..f31 = 32..63,
// v0..v31 = 64..95, kNoReg = none.
constexpr uint8_t kFpBase = 32, kVecBase = 64, kNoReg = 0xff;

// What kind of unit an instruction occupies (the timing model's view).
enum class OpClass : uint8_t {
  Alu, Branch, Jump, Mul, Div, Load, Store, Csr, System, Fence,
  FpAdd, FpMul, FpFma, FpDiv, FpSqrt, FpCvt, FpCmp, FpMove, FpLoad, FpStore,
  VecConfig,                 // vsetvli / vsetivli / vsetvl
  VecAlu, VecMul, VecDiv, VecFixedPoint, VecReduction, VecPermute, VecMask,
  VecLoad, VecStore,
  VecToScalar,               // vmv.x.s, vcpop.m, vfirst.m: the scalar core waits for the vector result
  Halt,                      // mpause
};
const char* to_string(OpClass);

class Hart;
class CustomExtensions;  // custom_ext.h: custom-0..3 instructions from an ISA overlay
struct DecodedInsn;
using Handler = void (*)(Hart&, const DecodedInsn&);

// A decoded instruction, cached per instruction address. Operand fields are the raw
// encoding fields; `imm` is sign-extended; `aux` holds whatever the handler needs
// (funct3/funct6, vm bit, width) so execution never re-decodes.
struct DecodedInsn {
  Handler exec = nullptr;
  uint32_t raw = 0;
  uint8_t rd = 0, rs1 = 0, rs2 = 0, rs3 = 0;
  int32_t imm = 0;
  uint32_t aux = 0;
  OpClass cls = OpClass::Alu;
  // Custom instructions only: their unit's latency and initiation interval (0 = the
  // unit's configured figures, which every standard instruction uses).
  uint8_t latency = 0, ii = 0;
  // Static register dependencies (register ids above). Vector operands name the first
  // register of a group; the group size is in StepInfo (it depends on vtype at run time).
  uint8_t dst[2] = {kNoReg, kNoReg};
  uint8_t src[4] = {kNoReg, kNoReg, kNoReg, kNoReg};
};

// One element of a vector divide or remainder as a sign-magnitude divider holds it: the
// magnitudes of its operands, the signs of quotient and remainder, and the cases that
// need no iterations (division by zero, signed overflow MIN / -1).
struct DivElement {
  uint32_t dividend = 0, divisor = 0;
  bool quotient_negative = false, remainder_negative = false;
  bool by_zero = false, overflow = false;
};

// What the last step did, for the timing model (filled by handlers where relevant).
struct StepInfo {
  uint32_t pc = 0;
  const DecodedInsn* insn = nullptr;
  bool taken = false;          // branch/jump redirected the pc
  uint32_t mem_addr = 0;       // first byte accessed (scalar and vector memory ops)
  uint32_t mem_bytes = 0;      // total bytes accessed (0 = no memory access)
  bool mem_strided = false;    // vector strided/indexed/segment access (not one burst)
  // Vector memory ops: 16-byte-aligned block transactions, counted per register of the
  // data group as the distinct blocks its elements touch (the transactions of a bus as
  // wide as a register that serves all of a register's elements in one block at once),
  // plus, for stores, one for each element that rewrites a byte of its block's current one.
  uint16_t mem_blocks = 0;
  // Vector divides: the operands of every element of the source registers (tail and
  // inactive ones too: the hardware divides whole registers), in element order, for
  // data-dependent divider timing.
  std::vector<DivElement> div_elements;
  uint16_t vl = 0;             // elements processed by a vector instruction
  uint8_t sew_bytes = 0;       // element width of the operation
  uint8_t dst_group = 1;       // registers written by the vector destination group
  uint8_t src_group = 1;       // registers read per vector source group
  uint8_t element_scale = 1;   // widest group's element size / sew_bytes (2: widening, narrowing)
  uint8_t fields = 1;          // vector memory: fields per segment (each a group of its own)
  uint8_t index_bytes = 0;     // indexed vector memory: bytes of one index element
  // A custom instruction's vector load step: the registers it loads and their element bytes
  // (the LSU's share of the instruction; 0: no vector load step).
  uint8_t load_group = 0;
  uint8_t load_sew_bytes = 0;
};

// Hooks the platform provides: counter CSRs come from its timing model.
class HartHooks {
 public:
  virtual ~HartHooks() = default;
  virtual uint64_t read_mcycle() = 0;    // the cycle at which the reading instruction issues
};

class Hart {
 public:
  Hart();
  ~Hart();

  // ---- architectural state (public: semantics and tests read and write it directly) ----
  uint32_t x[32] = {};
  uint32_t f[32] = {};         // single-precision bit patterns (FLEN = 32, no NaN boxing needed)
  uint32_t pc = 0;
  uint32_t fflags = 0, frm = 0;
  uint32_t vl = 0, vtype = 0x80000000u, vstart = 0, vxrm = 0, vxsat = 0;  // vtype.vill set at reset
  alignas(16) uint8_t v[32][kVlenBytes] = {};
  uint64_t minstret = 0;
  uint64_t mcycle_offset = 0;  // writes to mcycle are kept as an offset
  bool halted = false;         // mpause executed

  HartHooks* hooks = nullptr;  // may be null: mcycle then reads minstret
  // Custom instructions decoded before an encoding is reported illegal (owned by the
  // platform; null = none, the shipped ISA).
  const CustomExtensions* custom = nullptr;
  StepInfo info;               // the last step

  // ---- memory ----
  void add_region(const MemoryRegion& region);  // regions must not overlap
  const std::vector<MemoryRegion>& regions() const { return regions_; }
  // Sees the memory of `other` (a composition's scratch hart loads through the hart's).
  void share_regions(const Hart& other);
  // Typed accesses used by semantics; they throw Trap on misaligned or unmapped addresses
  // (misaligned scalar accesses fault as on Coral) and record info.mem_*.
  template <typename T> T load(uint32_t addr);
  template <typename T> void store(uint32_t addr, T value);
  // Raw element access for vector memory instructions (alignment to the element size is
  // checked; no StepInfo update: the vector handler fills it once per instruction).
  void read_bytes(uint32_t addr, void* dst, uint32_t n, TrapCause fault);
  void write_bytes(uint32_t addr, const void* src, uint32_t n);

  // ---- execution ----
  // Executes one instruction at pc. Throws Trap (pc unchanged) on a fault.
  void step();
  // The cached decoding of the instruction at `addr` (decodes on first use).
  const DecodedInsn& decoded(uint32_t addr);
  // Invalidate cached decodings (after the platform rewrites instruction memory).
  void flush_decode_cache();

  // ---- vector helpers for semantics ----
  unsigned vsew_bytes() const { return 1u << ((vtype >> 3) & 7); }
  bool vill() const { return (vtype >> 31) & 1; }
  // Element `index` of the register group starting at `vreg` (groups are contiguous).
  template <typename T> T vget(unsigned vreg, unsigned index) const {
    T t;
    // Address through the whole register file (not row 0) so the compiler's bounds
    // analysis sees the real object size.
    std::memcpy(&t, reinterpret_cast<const uint8_t*>(&v) + vreg * kVlenBytes + index * sizeof(T), sizeof(T));
    return t;
  }
  template <typename T> void vset(unsigned vreg, unsigned index, T value) {
    std::memcpy(reinterpret_cast<uint8_t*>(&v) + vreg * kVlenBytes + index * sizeof(T), &value, sizeof(T));
  }

  // Disassembly of one instruction word (objdump-like, for fault messages and traces).
  static std::string disassemble(uint32_t raw, uint32_t pc);

  // Runs until mpause (halted), a trap (thrown) or `max_steps` instructions; returns the
  // number of instructions retired. The tight loop of the ISS benchmark and difftests.
  uint64_t run(uint64_t max_steps);

 private:
  MemoryRegion* find_region(uint32_t addr, uint32_t n);
  // find_region() that throws `fault` (access fault naming the address) when unmapped.
  MemoryRegion* region_or_fault(uint32_t addr, uint32_t n, TrapCause fault);
  [[noreturn]] void misaligned(TrapCause cause, uint32_t addr, unsigned n) const;
  [[noreturn]] void read_only_store(const MemoryRegion& region, uint32_t addr) const;
  void invalidate_decoded(uint32_t addr, uint32_t n);  // a store hit executable memory
  std::vector<MemoryRegion> regions_;
  MemoryRegion* last_region_ = nullptr;
  struct DecodeCache;
  std::unique_ptr<DecodeCache> cache_;
};

// Decoders. decode() handles every instruction; it calls decode_vector() for OP-V
// (0x57), vector loads/stores (LOAD-FP/STORE-FP with a vector width) and returns false
// from it for unknown encodings (the instruction is then illegal).
// ---- typed scalar accesses (inline: they are on the ISS's hot path) ------------------
template <typename T> inline T Hart::load(uint32_t addr) {
  if (addr & (sizeof(T) - 1)) misaligned(TrapCause::LoadMisaligned, addr, sizeof(T));
  MemoryRegion* r = last_region_;
  if (r == nullptr || uint64_t(addr - r->base) + sizeof(T) > r->size)
    r = region_or_fault(addr, sizeof(T), TrapCause::LoadAccessFault);
  T value;
  std::memcpy(&value, r->data + (addr - r->base), sizeof(T));
  info.mem_addr = addr;
  info.mem_bytes = sizeof(T);
  return value;
}

template <typename T> inline void Hart::store(uint32_t addr, T value) {
  if (addr & (sizeof(T) - 1)) misaligned(TrapCause::StoreMisaligned, addr, sizeof(T));
  MemoryRegion* r = last_region_;
  if (r == nullptr || uint64_t(addr - r->base) + sizeof(T) > r->size)
    r = region_or_fault(addr, sizeof(T), TrapCause::StoreAccessFault);
  if (!r->writable) read_only_store(*r, addr);
  std::memcpy(r->data + (addr - r->base), &value, sizeof(T));
  if (r->executable) invalidate_decoded(addr, sizeof(T));
  info.mem_addr = addr;
  info.mem_bytes = sizeof(T);
}

DecodedInsn decode(uint32_t raw);
bool decode_vector(uint32_t raw, DecodedInsn& out);
std::string disassemble_vector(uint32_t raw);  // "" if not a vector instruction

}  // namespace tlmcraft::isa::riscv
