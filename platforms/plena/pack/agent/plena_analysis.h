// What a PLENA instruction reads and writes (registers, implicit resources, memory
// ranges) and a value numbering of the integer/address registers, so transformations
// can prove that removing, moving or duplicating an instruction keeps the semantics.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "platforms/plena/pack/agent/plena_kernel.h"

namespace tlmcraft::agent::search::plena {

// Architectural parameters that size memory accesses (platform config; defaults are
// the benchmark's).
struct Arch {
  int64_t mlen = 64, vlen = 64, blen = 4, hlen = 16;
  int64_t prefetch_rows = 4;  // rows moved by H_PREFETCH_V / H_STORE_V (arch.v_prefetch_rows)
};

// Registers and implicit resources as small integers: gp N -> N, f N -> 16 + N,
// a N -> 32 + N, resource R -> 64 + R (IsaSpec::resources() order).
int reg_key_gp(int n);
bool is_gp_key(int key);

struct RegEffects {
  std::vector<int> reads, writes;  // zero registers left out
};
RegEffects reg_effects(const Op& op);
// Every register/resource key written anywhere in a block (loop counters included).
std::set<int> written_in(const Block& block);
// Every register/resource key read anywhere in a block (loop counters included).
std::set<int> read_in(const Block& block);
// gp register numbers named anywhere in the kernel (operands and loop counters).
std::set<int> gp_registers_used(const Block& block);
// Those of the kernel and of the code around it (a region's): none of them is free.
std::set<int> gp_registers_named(const Kernel& kernel);
// The dataflow name of a register/resource key ("gp3", "f1", a resource's name).
std::string key_name(int key);

// A symbolic value: sym 0 is a plain constant `off`; otherwise the unknown value `sym`
// plus `off`. Equal Vals hold equal values at run time.
struct Val {
  int64_t sym = 0;
  uint64_t off = 0;
  bool operator==(const Val& o) const { return sym == o.sym && off == o.off; }
  bool operator!=(const Val& o) const { return !(*this == o); }
  bool operator<(const Val& o) const { return std::tie(sym, off) < std::tie(o.sym, o.off); }
  bool is_const() const { return sym == 0; }
};

// Register contents along a straight walk of the kernel. Registers never written yet
// hold their own unknown initial value; gp0 is 0.
class Values {
 public:
  Val get(int key);
  void set(int key, Val v) { regs_[key] = v; }
  void forget(int key) { regs_[key] = fresh(); }
  Val fresh() { return Val{next_sym_++, 0}; }
  // The symbol the next fresh value or term gets: every symbol from here on is newer.
  int64_t next_symbol() const { return next_sym_; }
  // The value an instruction computes into its destination when it is a pure integer
  // or special-register set-up (S_ADDI_INT, S_ADD_INT, S_SUB_INT, S_MUL_INT, S_LUI_INT,
  // C_SET_*); false for anything else.
  bool computed_value(const Op& op, int& dest_key, Val& value);
  // Applies an instruction's effect on the tracked registers.
  void apply(const Op& op);
  // Entering a loop: every key written in the body gets an unknown value (its value
  // differs between iterations); leaving it: the counter is 0.
  void enter_loop(const Node& loop);
  void leave_loop(const Node& loop) { set(reg_key_gp(loop.counter), Val{0, 0}); }

 private:
  std::map<int, Val> regs_;
  std::map<std::tuple<int, Val, Val>, int64_t> terms_;  // hash-consed symbolic terms
  int64_t next_sym_ = 1;
  Val term(int op, Val a, Val b);
};

// Pure set-up instructions: their only effect is writing registers/resources, so they
// may be removed when dead or redundant and moved when their inputs allow.
bool is_pure_setup(const Op& op);

enum class Space { Vram, Msram, FpMem, IntMem, Hbm, All };
struct MemAccess {
  Space space = Space::All;
  bool write = false;
  bool whole = true;  // the whole space (address not known well enough)
  Val base;           // start = base + lo .. base + hi (elements)
  int64_t lo = 0, hi = 0;
};
// Memory an instruction touches, given the register values before it. Unknown
// instructions and C_BREAK touch everything (Space::All).
std::vector<MemAccess> memory_effects(const Op& op, Values& values, const Arch& arch);
// True when the two accesses may touch the same element with at least one write.
bool may_conflict(const MemAccess& a, const MemAccess& b);

}  // namespace tlmcraft::agent::search::plena
