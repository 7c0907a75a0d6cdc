// Def/use of AIE-ML slot operations for the bundle scheduler, derived from the ISA
// YAML's operand roles (dst = leading operands written, rw = operands read and written,
// access = memory bytes) as the assembler decoded them, at the granularity of the
// smallest register view: every 256-bit half of a vector register x (w views) and every
// 256-bit quarter of an accumulator (am views) is its own unit, so w0/w1 are independent
// while x0, y0 and w0 overlap; scalar-side registers (r, p, m, dn, dj, dc, s, ls, le, lc,
// lr, crrnd, crsat) are one unit each, with the pointer post-modifies, dimension counters,
// the SRS control registers and the implicit r+1 of 8-bit lane masks the assembler adds.
//
// Memory: an access's address is tracked symbolically inside a basic block (pointer at
// block entry or after an unknown update = a fresh base, immediates added to it); two
// accesses are provably apart only when they share a base and their byte ranges do not
// meet, or when each pointer's whole range over the block is known and disjoint
// (PointerRanges), or when the caller declared their pointers' buffers disjoint
// (MemRef::buffer). Everything else may alias.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/aie_ml/program_text.h"

namespace tlmcraft::isa::aie_ml {

// The ops of one bundle as a sequence with the bundle's meaning: an op that reads what
// another op of the bundle writes comes first (it saw the old value); two writers keep
// slot order (the later slot wins); lock requests first (granted before the bundle
// executes). Indices into bundle.ops; false when no order exists (two ops each reading
// what the other writes).
bool bundle_sequence(const AieLine& bundle, std::vector<size_t>& order);

// Register units: ids of the smallest views (see above); unit_label(id) names one.
std::vector<int> register_units(RegClass cls, int num);
std::string unit_label(int unit);

struct OpEffects {
  std::vector<int> reads, writes;  // register units
  bool load = false, store = false;
  uint32_t bytes = 0;              // memory bytes accessed
  bool lock = false;               // ACQ / ACQ.EQ / REL: ordered, memory never crosses it
  bool control = false;            // J, JL, JZ, JNZ, JNZD, RET: ends the block
  bool halt = false;               // DONE: ends the block
  bool nop = false;
  uint32_t latency = 0;            // result latency (cycles) from the YAML latency table
};
OpEffects effects_of(const AieOp& op);

// How operand i of an op is used, from the YAML's dst/rw roles (None: not a register).
enum class OperandUse { None, Read, Write, ReadWrite };
OperandUse operand_use(const SlotOp& op, int i);

// One memory access with a symbolic address: base (a pointer value), offset in bytes.
struct MemRef {
  bool valid = false;
  int pointer = -1;
  int base = -1;                 // symbolic pointer value id; -1: unknown
  int64_t offset = 0;
  uint32_t bytes = 0;
  // Absolute byte range the access may touch (known when the pointer's range is known).
  bool ranged = false;
  int64_t lo = 0, hi = 0;        // [lo, hi)
  // A buffer the caller declared apart from every other declared buffer (the scheduler's
  // disjoint_pointers option: the pointer number); -1: none. Accesses in two different
  // declared buffers never overlap, whatever their addresses.
  int buffer = -1;
};

// The values a pointer can hold at a block's entry over every execution of the block
// (pointer_values.h): pointer number -> [lo, hi] inclusive; absent: unknown.
using PointerRanges = std::map<int, std::pair<int64_t, int64_t>>;

// Pointer values inside one block: fresh bases at entry, immediate post-modifies add up.
struct PointerTracker {
  std::array<int, kPointerRegs> base{};
  std::array<int64_t, kPointerRegs> offset{};
  int next_base = 0;
  const PointerRanges* ranges = nullptr;  // entry values, for accesses through an unchanged base
  explicit PointerTracker(const PointerRanges* entry_ranges = nullptr);
  // The address of op's access (if any), then op's pointer updates applied.
  MemRef access(const AieOp& op, const OpEffects& e);
};

bool may_overlap(const MemRef& a, const MemRef& b);

// Ordering constraint of a later op b against an earlier op a (program order).
enum class Order { Free, SameOrLater, Later };
struct OpInfo {
  const AieOp* op = nullptr;
  OpEffects fx;
  MemRef mem;
};
Order order_between(const OpInfo& a, const OpInfo& b);
// The cycles b, issued after a, waits for a's results on the platform (0: none): its
// scoreboard tracks whole x / bm registers (the assembler's storage units), so reading w1
// waits for a write of w0; a result has the op's latency, except the pointer post-modify
// and dimension counters of a memory access, which come from the AGU (`agu` latency).
int wait_cycles(const OpInfo& a, const OpInfo& b);
// Latency of one result of op: the AGU's for its address updates, else the op's.
uint32_t result_latency(const AieOp& op, uint16_t storage_unit);
// True when b, a later op, writes a storage unit a reads through another register view
// (a writes nothing b's semantics need, e.g. a reads w0, b writes w1): placing b before a
// would make a wait for b's result on the platform, so a scheduler keeps b at a's cycle
// or later.
bool interlock_hazard(const OpInfo& a, const OpInfo& b);

}  // namespace tlmcraft::isa::aie_ml
